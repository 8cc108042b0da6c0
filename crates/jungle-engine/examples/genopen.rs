//! Generates a balanced opening suite: random lines of 4–8 plies from the start whose depth-`d`
//! score stays within ±`margin` centipawns.
//! `cargo run -p jungle-engine --example genopen -- <count> <depth> <margin> <seed>`

use jungle::{Game, Rules};
use jungle_engine::{Engine, EngineOptions, Limits, Score};
use std::collections::HashSet;

fn main() {
    let a: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let count = a.first().copied().unwrap_or(60) as usize;
    let depth = a.get(1).copied().unwrap_or(8) as u32;
    let margin = a.get(2).copied().unwrap_or(60) as i32;
    let mut seed = a.get(3).copied().unwrap_or(0x9E37_79B9_7F4A_7C15) | 1;
    let mut rnd = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut seen = HashSet::new();
    let mut engine = Engine::new(EngineOptions::default());
    let mut found = 0;
    for _ in 0..count * 50 {
        if found >= count {
            break;
        }
        let plies = 4 + (rnd() % 5) as usize;
        let mut game = Game::new(Rules::STANDARD);
        for _ in 0..plies {
            let legal = game.legal_moves();
            if legal.is_empty() {
                break;
            }
            let m = legal[(rnd() % legal.len() as u64) as usize];
            game.play(m).expect("legal");
        }
        if game.outcome().is_some() || !seen.insert(game.position().hash()) {
            continue;
        }
        engine.new_game();
        let r = engine.search(
            &game,
            Limits {
                depth: Some(depth),
                ..Limits::default()
            },
        );
        if let Score::Cp(cp) = r.score {
            if cp.abs() <= margin {
                let line: Vec<String> = game.moves().map(|m| m.to_string()).collect();
                println!(
                    "{}  # {} plies, depth {depth} score {cp} for the side to move",
                    line.join(" "),
                    line.len()
                );
                found += 1;
            }
        }
    }
}
