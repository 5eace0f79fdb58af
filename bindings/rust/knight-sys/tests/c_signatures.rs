//! The declarations of knight-sys agree with the C headers: each Rust
//! declaration is turned back into a C prototype, and the prototypes are
//! compiled after `#include <knight/knight.h>`.  C rejects a redeclaration
//! with a different type, so a wrong argument count, pointer level, integer
//! width, `const` or return type fails this test.
//!
//! Needs a C compiler (`$CC` or `cc`) and `pkg-config --cflags knight` (the
//! same PKG_CONFIG_PATH as the build).
use std::fs;
use std::path::Path;
use std::process::Command;

/// A Rust type of the declarations as a C type, with `{}` where the
/// declarator (the parameter name) goes.
fn c_type(rust: &str) -> String {
    let t = rust.trim();
    if let Some(inner) = t.strip_prefix("*const ") {
        return format!("const {}", c_type(inner).replacen("{}", "*{}", 1));
    }
    if let Some(inner) = t.strip_prefix("*mut ") {
        if inner.trim() == "[u64; 4]" {
            return "uint64_t (*{})[4]".to_string();
        }
        return c_type(inner).replacen("{}", "*{}", 1);
    }
    let base = match t {
        "u8" => "uint8_t",
        "u32" => "uint32_t",
        "u64" => "uint64_t",
        "i32" => "int32_t",
        "usize" => "size_t",
        "f64" => "double",
        "c_int" => "int",
        "c_uint" => "unsigned",
        "c_char" => "char",
        "c_void" => "void",
        "kt_halftours_foreach_fn" => return "int (*{})(void *, const kt_halftour_structure *)".into(),
        other if other.starts_with("kt_") => other,
        other => panic!("no C type for {:?}", other),
    };
    format!("{} {{}}", base)
}

fn prototypes() -> (String, usize) {
    let src = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs")).unwrap();
    let block = src.split("extern \"C\" {").nth(1).unwrap().split("\n}\n").next().unwrap();
    let mut out = String::new();
    let mut n = 0;
    for decl in block.split("pub fn ").skip(1) {
        let decl = decl.split(";\n").next().unwrap().trim_end().trim_end_matches(';');
        let name = decl.split('(').next().unwrap().trim();
        let open = decl.find('(').unwrap();
        let close = decl.rfind(')').unwrap();
        let args = &decl[open + 1..close];
        let ret = decl[close + 1..].trim().strip_prefix("->").map(|r| r.trim()).unwrap_or("");
        let params: Vec<String> = args.split(',').map(|a| a.trim()).filter(|a| !a.is_empty())
            .map(|a| {
                let (pname, ty) = a.split_once(':').unwrap();
                c_type(ty).replace("{}", pname.trim())
            })
            .collect();
        let params = if params.is_empty() { "void".to_string() } else { params.join(", ") };
        let ret = if ret.is_empty() { "void {}".to_string() } else { c_type(ret) };
        out.push_str(&ret.replace("{}", &format!("{}({})", name, params)));
        out.push_str(";\n");
        n += 1;
    }
    (out, n)
}

#[test]
fn declarations_match_the_headers() {
    let (protos, n) = prototypes();
    assert!(n >= 140, "only {} declarations", n);
    let cflags = Command::new(std::env::var("PKG_CONFIG").unwrap_or_else(|_| "pkg-config".into()))
        .args(["--cflags", "knight"]).output().expect("pkg-config");
    assert!(cflags.status.success(), "pkg-config --cflags knight failed");
    let cflags = String::from_utf8(cflags.stdout).unwrap();
    let dir = std::env::temp_dir().join(format!("knight-sys-sig-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    let c = dir.join("sig.c");
    fs::write(&c, format!("#include <knight/knight.h>\n{}", protos)).unwrap();
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let out = Command::new(&cc)
        // Conflicting types are errors in C; warnings (array-parameter) are not the point.
        .args(["-std=c11", "-fsyntax-only"])
        .args(cflags.split_whitespace())
        .arg(&c)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {}", cc, e));
    let _ = fs::remove_dir_all(&dir);
    assert!(out.status.success(), "the C compiler rejects the Rust declarations:\n{}",
            String::from_utf8_lossy(&out.stderr));
    println!("c_signatures: {} declarations agree with the headers", n);
}
