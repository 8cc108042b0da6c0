//! Texel tuning of the evaluation weights on self-play games.
//!
//! `cargo run --release -p jungle-engine --example tune -- games.pgn [more.pgn …]`
//!
//! Reads game records (as `jungle match --pgn` writes them), keeps the quiet positions (no capture
//! for the side to move, no animal at a den's door, past the opening), and minimises the mean
//! squared error between each game's result and `sigmoid(K · eval / 400)` by coordinate descent
//! over [`jungle_engine::eval::Weights`]. Prints the tuned weights as Rust.

use jungle::{Bitboard, Color, GameRecord, Position};
use jungle_engine::eval::{evaluate_with, Weights, WEIGHTS};

struct Sample {
    pos: Position,
    /// 1 = Red won, 0 = Blue won, 0.5 = draw.
    result: f64,
}

fn load(paths: &[String]) -> Vec<Sample> {
    let mut out = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(path).expect("readable records");
        for chunk in text.split("[Event ").skip(1) {
            let Ok(rec) = format!("[Event {chunk}").parse::<GameRecord>() else {
                continue;
            };
            let result = match rec.result.as_str() {
                "1-0" => 1.0,
                "0-1" => 0.0,
                "1/2-1/2" => 0.5,
                _ => continue,
            };
            let Ok(game) = rec.to_game() else { continue };
            for i in 10..game.len() {
                let pos = *game.position_at(i).expect("in range");
                let doors = Bitboard::RED_TRAPS | Bitboard::BLUE_TRAPS;
                let quiet = !pos.is_finished()
                    && (pos.occupied() & doors).is_empty()
                    && !pos.legal_moves().iter().any(|&m| pos.is_capture(m));
                if quiet {
                    out.push(Sample { pos, result });
                }
            }
        }
    }
    out
}

fn error(samples: &[Sample], w: &Weights, k: f64) -> f64 {
    let mut sum = 0.0;
    for s in samples {
        let e = evaluate_with(&s.pos, w);
        let red = if s.pos.turn() == Color::Red { e } else { -e } as f64;
        let p = 1.0 / (1.0 + 10f64.powf(-k * red / 400.0));
        sum += (s.result - p).powi(2);
    }
    sum / samples.len().max(1) as f64
}

fn main() {
    let paths: Vec<String> = std::env::args().skip(1).collect();
    let samples = load(&paths);
    eprintln!("{} quiet positions", samples.len());
    if samples.is_empty() {
        return;
    }
    let mut k = 1.0;
    let mut best_k_err = f64::MAX;
    for i in 1..=300 {
        let kk = i as f64 * 0.01;
        let e = error(&samples, &WEIGHTS, kk);
        if e < best_k_err {
            best_k_err = e;
            k = kk;
        }
    }
    eprintln!("K = {k:.2}, error {best_k_err:.6}");
    let mut v = WEIGHTS.to_vec();
    // advance[0] is never used, and the per-role scales multiply the advance table (tuning both
    // is ill-conditioned): keep them. Every weight stays within half and twice its start.
    let fixed: Vec<usize> = std::iter::once(8).chain(20..28).collect();
    let start = v.clone();
    let mut best = best_k_err;
    for step in [16, 8, 4, 2, 1] {
        for pass in 0..12 {
            let mut improved = false;
            for i in 0..v.len() {
                if fixed.contains(&i) {
                    continue;
                }
                for delta in [step, -step] {
                    let old = v[i];
                    let (lo, hi) = (start[i] / 2, (start[i] * 2).max(start[i] + 20));
                    v[i] = (old + delta).clamp(lo, hi);
                    if v[i] == old {
                        continue;
                    }
                    let w = Weights::from_slice(&v).expect("length");
                    let e = error(&samples, &w, k);
                    if e < best {
                        best = e;
                        improved = true;
                        break;
                    }
                    v[i] = old;
                }
            }
            eprintln!("step {step} pass {pass}: error {best:.6}");
            if !improved {
                break;
            }
        }
    }
    let w = Weights::from_slice(&v).expect("length");
    println!("{w:#?}");
}
