//! Every function the C headers export (`KT_EXPORT` in include/knight/*.h and
//! version.h.in) must be declared in knight-sys.  The declarations are read
//! from this crate's source, so a function added to a header without a Rust
//! declaration fails this test.
use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// Functions deliberately not declared, with the reason.  Empty: the whole
/// API is declared (the C variadic-free API maps one to one).
const EXCEPTIONS: &[(&str, &str)] = &[];

fn include_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../include/knight")
}

/// The names declared with KT_EXPORT: the identifier just before the first
/// `(` after it (a declaration may span lines).  The macro's own definition
/// lines (`#define KT_EXPORT ...`) are skipped.
fn exported(dir: &Path) -> BTreeSet<String> {
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {}", dir.display(), e))
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let n = p.file_name().unwrap().to_string_lossy().into_owned();
            n.ends_with(".h") || n.ends_with(".h.in")
        })
        .collect();
    files.sort();
    assert!(files.len() >= 14, "headers not found in {}", dir.display());
    let mut names = BTreeSet::new();
    for f in files {
        let text = fs::read_to_string(&f).unwrap();
        let mut pos = 0;
        while let Some(i) = text[pos..].find("KT_EXPORT") {
            let at = pos + i;
            pos = at + "KT_EXPORT".len();
            let line_start = text[..at].rfind('\n').map(|j| j + 1).unwrap_or(0);
            if text[line_start..at].trim_start().starts_with('#') {
                continue;
            }
            let paren = pos + text[pos..].find('(').expect("a declaration");
            let head = text[pos..paren].trim_end();
            let name: String = {
                let tail: Vec<char> = head.chars().rev()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
                tail.into_iter().rev().collect()
            };
            assert!(name.starts_with("kt_"), "{}: cannot read the name in {:?}",
                    f.display(), head);
            names.insert(name);
        }
    }
    names
}

/// Names of the functions declared in `extern "C"` blocks of src/lib.rs.
fn declared() -> BTreeSet<String> {
    let src = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs"))
        .unwrap();
    let block = src.split("extern \"C\" {").skip(1).map(|b| b.split("\n}").next().unwrap())
        .collect::<Vec<_>>().join("\n");
    block.split("pub fn ").skip(1)
        .map(|s| s.split('(').next().unwrap().trim().to_string())
        .collect()
}

#[test]
fn every_exported_function_is_declared() {
    let exported = exported(&include_dir());
    let declared = declared();
    let exceptions: BTreeSet<String> = EXCEPTIONS.iter().map(|(n, _)| n.to_string()).collect();
    let missing: Vec<_> = exported.iter()
        .filter(|n| !declared.contains(*n) && !exceptions.contains(*n)).collect();
    let extra: Vec<_> = declared.iter().filter(|n| !exported.contains(*n)).collect();
    println!("coverage: {} of {} exported functions declared ({} exceptions)",
             exported.iter().filter(|n| declared.contains(*n)).count(), exported.len(),
             exceptions.len());
    assert!(missing.is_empty(), "exported but not declared in knight-sys: {:?}", missing);
    assert!(extra.is_empty(), "declared but not exported by the headers: {:?}", extra);
    // The figure of libknight 1.0's version script: at least 140 functions.
    assert!(exported.len() >= 140, "only {} KT_EXPORT functions found", exported.len());
}
