//! Texel tuning of the evaluation weights on self-play games.
//!
//! `cargo run --release -p jungle-engine --example tune -- games.pgn [more.pgn …]`
//!
//! Reads game records (as `jungle match --pgn` writes them), keeps the quiet positions (no capture
//! for the side to move, no animal at a den's door, past the opening), and minimises the mean
//! squared error between each game's result and `sigmoid(K · eval / 400)` by coordinate descent
//! over [`jungle_engine::eval::Weights`]. Prints the tuned weights as Rust.

#[path = "common/fit.rs"]
mod fit;

use fit::Sample;

fn load(paths: &[String]) -> Vec<Sample> {
    let mut out = Vec::new();
    for (game, result) in fit::games(paths) {
        let target = match result.as_str() {
            "1-0" => 1.0,
            "0-1" => 0.0,
            "1/2-1/2" => 0.5,
            _ => continue,
        };
        for i in 10..game.len() {
            let pos = *game.position_at(i).expect("in range");
            if fit::quiet(&pos) {
                out.push(Sample { pos, target });
            }
        }
    }
    out
}

fn main() {
    let paths: Vec<String> = std::env::args().skip(1).collect();
    let samples = load(&paths);
    eprintln!("{} quiet positions", samples.len());
    if samples.is_empty() {
        return;
    }
    let (k, best) = fit::fit_scale(&samples, 1..=300);
    eprintln!("K = {k:.2}, error {best:.6}");
    let w = fit::descend(&samples, k, &fit::FIXED, &[16, 8, 4, 2, 1], 12, best);
    println!("{w:#?}");
}
