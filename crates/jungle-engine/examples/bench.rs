//! Runs the bench: `cargo run -p jungle-engine --example bench -- [depth]`.
fn main() {
    let depth = std::env::args()
        .nth(1)
        .and_then(|d| d.parse().ok())
        .unwrap_or(jungle_engine::bench::DEFAULT_DEPTH);
    jungle_engine::bench::run(depth, &mut std::io::stdout()).expect("bench runs");
}
