// Find libknight through pkg-config (the `pkg-config` program, no crates).
//
// - PKG_CONFIG_PATH is honoured as pkg-config itself honours it, so a meson
//   build tree works with PKG_CONFIG_PATH=$BUILD/meson-uninstalled (its
//   knight-uninstalled.pc is preferred by pkg-config), and an installed
//   library with PKG_CONFIG_PATH=$PREFIX/lib/pkgconfig.
// - Static linking with the `static` feature or KNIGHT_STATIC=1 (libknight.a
//   and its private libraries, `pkg-config --static`); shared otherwise.
// - For shared linking every library directory is also written as an rpath
//   (here for this crate's tests, and passed on as DEP_KNIGHT_RPATH for the
//   crates that use it), so test binaries and examples run without
//   LD_LIBRARY_PATH.
// - KNIGHT_NO_PKG_CONFIG=1 skips pkg-config and trusts the default linker
//   search path (a library installed in /usr/lib).
use std::env;
use std::process::Command;

fn pkg_config(args: &[&str]) -> Result<String, String> {
    let prog = env::var("PKG_CONFIG").unwrap_or_else(|_| "pkg-config".to_string());
    let out = Command::new(&prog)
        .args(args)
        .output()
        .map_err(|e| format!("cannot run {}: {}", prog, e))?;
    if !out.status.success() {
        return Err(format!(
            "{} {} failed: {}",
            prog,
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

fn main() {
    for var in ["PKG_CONFIG_PATH", "PKG_CONFIG", "PKG_CONFIG_LIBDIR", "KNIGHT_STATIC",
                "KNIGHT_NO_PKG_CONFIG"] {
        println!("cargo:rerun-if-env-changed={}", var);
    }
    println!("cargo:rerun-if-changed=build.rs");
    let static_link = env::var("CARGO_FEATURE_STATIC").is_ok()
        || env::var("KNIGHT_STATIC").map(|v| v == "1").unwrap_or(false);

    if env::var("KNIGHT_NO_PKG_CONFIG").map(|v| v == "1").unwrap_or(false) {
        let kind = if static_link { "static" } else { "dylib" };
        println!("cargo:rustc-link-lib={}=knight", kind);
        if static_link {
            println!("cargo:rustc-link-lib=dylib=pthread");
            println!("cargo:rustc-link-lib=dylib=m");
        }
        return;
    }

    let mut args = vec!["--libs", "knight"];
    if static_link {
        args.insert(0, "--static");
    }
    let libs = match pkg_config(&args) {
        Ok(s) => s,
        Err(e) => panic!(
            "libknight not found through pkg-config ({}).\n\
             Point PKG_CONFIG_PATH at a meson build tree's meson-uninstalled directory \
             or at an installed prefix's lib/pkgconfig, or set KNIGHT_NO_PKG_CONFIG=1.",
            e
        ),
    };
    if let Ok(v) = pkg_config(&["--modversion", "knight"]) {
        println!("cargo:version={}", v.trim());
    }
    let mut dirs = Vec::new();
    for flag in libs.split_whitespace() {
        if let Some(dir) = flag.strip_prefix("-L") {
            println!("cargo:rustc-link-search=native={}", dir);
            dirs.push(dir.to_string());
        } else if let Some(lib) = flag.strip_prefix("-l") {
            if lib == "knight" {
                let kind = if static_link { "static" } else { "dylib" };
                println!("cargo:rustc-link-lib={}={}", kind, lib);
            } else {
                println!("cargo:rustc-link-lib=dylib={}", lib);
            }
        } else if flag == "-pthread" {
            println!("cargo:rustc-link-lib=dylib=pthread");
        }
    }
    if !static_link {
        for dir in &dirs {
            // Applies to every binary linked against this crate: tests,
            // doc tests, examples and the user's programs.
            println!("cargo:rustc-link-arg=-Wl,-rpath,{}", dir);
        }
    }
    // Metadata for dependents (DEP_KNIGHT_RPATH): a link argument applies
    // only to this package's own targets, so the `knight` crate's build
    // script repeats the rpath for its tests, doc tests and examples.
    if !static_link {
        println!("cargo:rpath={}", dirs.join(":"));
    }
}
