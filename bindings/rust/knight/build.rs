// Repeat knight-sys's rpath for this crate's own binaries (tests, doc tests,
// examples): a `rustc-link-arg` of a dependency's build script does not reach
// them.  knight-sys passes the directories as DEP_KNIGHT_RPATH.
fn main() {
    println!("cargo:rerun-if-env-changed=DEP_KNIGHT_RPATH");
    if let Ok(dirs) = std::env::var("DEP_KNIGHT_RPATH") {
        for dir in dirs.split(':').filter(|d| !d.is_empty()) {
            println!("cargo:rustc-link-arg=-Wl,-rpath,{}", dir);
        }
    }
}
