//! Fits the evaluation weights to deeper searches of the engine's own games ("search-score
//! fitting"): where texel tuning (`examples/tune.rs`) asks the static evaluation to predict a
//! game's result, this asks it to predict what a search of many nodes says about the position,
//! so a term the short searches of play overvalue (a raider parked at the enemy den that a
//! deeper search sees lost) can be corrected without the noise of distant results.
//!
//! ```text
//! deepfit label NODES PART PARTS STRIDE GAMES.pgn…   > labels-PART.txt
//! deepfit fit LABELS.txt…                            > weights.txt
//! ```
//!
//! `label` replays every game record, keeps every STRIDE-th quiet position from ply 10 on (no
//! capture for the side to move, no animal on a den trap, as `tune.rs` keeps them) and, for the
//! PART-th of PARTS shares of them (so that several processes can share the work), searches it
//! with the game's history at NODES nodes (one thread, the table kept through a game) and prints
//! `JFEN<TAB>score`, the score in centipawns from Red's side; forced den results are left out.
//! `fit` fits the scale K between evaluation and scores, then minimises the mean squared
//! difference of `sigmoid(K · eval)` and `sigmoid(score)` (400 units to a factor of ten in odds)
//! by coordinate descent over the weights tune.rs tunes, each within
//! half and twice its value in use (`FIT_ONLY=i,j,…`: only those), and prints the weights in
//! the protocol's `Weights` form and as Rust.

#[path = "common/fit.rs"]
mod fit;

use fit::Sample;
use jungle::{Color, Game, Jfen, Rules};
use jungle_engine::eval::{Weights, WEIGHTS};
use jungle_engine::{Engine, EngineOptions, Limits, Score};

fn label(args: &[String]) {
    let num = |i: usize| -> u64 {
        args.get(i)
            .and_then(|a| a.parse().ok())
            .unwrap_or_else(|| panic!("argument {} must be a number", i + 2))
    };
    let (nodes, part, parts, stride) = (num(0), num(1), num(2), num(3).max(1));
    if part >= parts {
        eprintln!("PART must be less than PARTS (got {part} of {parts})");
        std::process::exit(2);
    }
    let mut kept = 0u64;
    for (full, _) in fit::games(&args[4..]) {
        let mut game = Game::from_position(*full.start_position());
        let mut engine = Engine::new(EngineOptions::default());
        for (i, m) in full.moves().enumerate() {
            if i >= 10 && fit::quiet(game.position()) {
                kept += 1;
                if kept % stride == 0 && (kept / stride) % parts == part {
                    let limits = Limits {
                        nodes: Some(nodes),
                        ..Limits::default()
                    };
                    if let Score::Cp(v) = engine.search(&game, limits).score {
                        let red = if game.position().turn() == Color::Red {
                            v
                        } else {
                            -v
                        };
                        println!("{}\t{red}", Jfen::from_position(game.position()));
                    }
                }
            }
            game.play(m).expect("a recorded game replays");
        }
    }
}

fn fit(paths: &[String]) {
    let mut samples = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(path).expect("a readable labels file");
        for line in text.lines() {
            let Some((fen, score)) = line.split_once('\t') else {
                continue;
            };
            let (Ok(pos), Ok(score)) = (
                Jfen::parse_position(fen, Rules::STANDARD),
                score.trim().parse::<f64>(),
            ) else {
                continue;
            };
            samples.push(Sample {
                pos,
                target: fit::sigmoid(score),
            });
        }
    }
    eprintln!("{} labelled positions", samples.len());
    // `FIT_ONLY=i,j,…` fits only those values of the flat list (`Weights::to_vec`).
    let fixed: Vec<usize> = match std::env::var("FIT_ONLY") {
        Ok(only) if !only.trim().is_empty() => {
            let only: Vec<usize> = only
                .split(',')
                .filter_map(|i| i.trim().parse().ok())
                .collect();
            (0..Weights::LEN).filter(|i| !only.contains(i)).collect()
        }
        _ => fit::FIXED.to_vec(),
    };
    eprintln!(
        "error of the weights in use: {:.6}",
        fit::error(&samples, &WEIGHTS, 1.0)
    );
    // The scale K of the evaluation against the searches' scores (deeper scores run smaller),
    // fitted first, so that the weights keep their overall scale and only their ratios move.
    let (k, best) = fit::fit_scale(&samples, 30..=200);
    eprintln!("K = {k:.2}: error {best:.6}");
    let w = fit::descend(&samples, k, &fixed, &[16, 8, 4, 2], 10, best);
    println!("{}", w.to_csv());
    println!("{w:#?}");
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("label") if args.len() >= 6 => label(&args[1..]),
        Some("fit") if args.len() >= 2 => fit(&args[1..]),
        _ => {
            eprintln!(
                "usage: deepfit label NODES PART PARTS STRIDE GAMES.pgn… | deepfit fit LABELS.txt…"
            );
            std::process::exit(2);
        }
    }
}
