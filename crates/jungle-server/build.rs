//! Rebuild the server when the embedded web client changes (the files are embedded by
//! `include_dir!` in `src/web.rs`; nothing is written here).
fn main() {
    println!("cargo:rerun-if-changed=../../web");
}
