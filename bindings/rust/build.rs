// Find libknight: $LIBKNIGHT_LIB_DIR (a build tree's lib/ directory), or
// pkg-config when it is installed.  No crates are needed.
use std::env;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-env-changed=LIBKNIGHT_LIB_DIR");
    if let Ok(dir) = env::var("LIBKNIGHT_LIB_DIR") {
        println!("cargo:rustc-link-search=native={dir}");
        println!("cargo:rustc-link-lib=dylib=knight");
        return;
    }
    if let Ok(out) = Command::new("pkg-config").args(["--libs-only-L", "knight"]).output() {
        if out.status.success() {
            for flag in String::from_utf8_lossy(&out.stdout).split_whitespace() {
                if let Some(dir) = flag.strip_prefix("-L") {
                    println!("cargo:rustc-link-search=native={dir}");
                }
            }
        }
    }
    println!("cargo:rustc-link-lib=dylib=knight");
}
