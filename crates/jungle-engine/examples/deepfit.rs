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
//! `fit` minimises the mean squared difference of `sigmoid(eval)` and `sigmoid(score)` (400 units
//! to a factor of ten in odds) by coordinate descent over the weights tune.rs tunes, each within
//! half and twice its value in use (`FIT_ONLY=i,j,…`: only those), and prints the weights in the protocol's `Weights` form and
//! as Rust.

use jungle::{Bitboard, Color, Game, GameRecord, Jfen, Position, Rules};
use jungle_engine::eval::{evaluate_with, Weights, WEIGHTS};
use jungle_engine::{Engine, EngineOptions, Limits, Score};

fn quiet(pos: &Position) -> bool {
    let doors = Bitboard::RED_TRAPS | Bitboard::BLUE_TRAPS;
    !pos.is_finished()
        && (pos.occupied() & doors).is_empty()
        && !pos.legal_moves().iter().any(|&m| pos.is_capture(m))
}

fn label(args: &[String]) {
    let num = |i: usize| -> u64 {
        args.get(i)
            .and_then(|a| a.parse().ok())
            .unwrap_or_else(|| panic!("argument {} must be a number", i + 2))
    };
    let (nodes, part, parts, stride) = (num(0), num(1), num(2), num(3).max(1));
    let mut kept = 0u64;
    for path in &args[4..] {
        let text = std::fs::read_to_string(path).expect("a readable game record file");
        for chunk in text.split("[Event ").skip(1) {
            let Ok(rec) = format!("[Event {chunk}").parse::<GameRecord>() else {
                continue;
            };
            let Ok(full) = rec.to_game() else { continue };
            let mut game = Game::from_position(*full.start_position());
            let mut engine = Engine::new(EngineOptions::default());
            for (i, m) in full.moves().enumerate() {
                if i >= 10 && quiet(game.position()) {
                    kept += 1;
                    if kept % stride == 0 && (kept / stride) % parts == part {
                        let r = engine.search(
                            &game,
                            Limits {
                                nodes: Some(nodes),
                                ..Limits::default()
                            },
                        );
                        if let Score::Cp(v) = r.score {
                            let red = if game.position().turn() == Color::Red {
                                v
                            } else {
                                -v
                            };
                            println!("{}\t{red}", Jfen::from_position(game.position()));
                        }
                    }
                }
                if game.play(m).is_err() {
                    break;
                }
            }
        }
    }
}

fn sigmoid(red: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-red / 400.0))
}

fn error(samples: &[(Position, f64)], w: &Weights, k: f64) -> f64 {
    let mut sum = 0.0;
    for (pos, target) in samples {
        let e = evaluate_with(pos, w);
        let red = if pos.turn() == Color::Red { e } else { -e } as f64;
        sum += (target - sigmoid(k * red)).powi(2);
    }
    sum / samples.len().max(1) as f64
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
            samples.push((pos, sigmoid(score)));
        }
    }
    eprintln!("{} labelled positions", samples.len());
    let mut v = WEIGHTS.to_vec();
    // As tune.rs: advance[0] is never used and the per-role scales multiply the advance table.
    // Control (38) was measured apart and stays 0.
    let mut fixed: Vec<usize> = [8, 38].into_iter().chain(20..28).collect();
    // `FIT_ONLY=i,j,…` fits only those values of the flat list (`Weights::to_vec`).
    if let Some(only) = std::env::var("FIT_ONLY")
        .ok()
        .filter(|o| !o.trim().is_empty())
    {
        let only: Vec<usize> = only
            .split(',')
            .filter_map(|i| i.trim().parse().ok())
            .collect();
        fixed = (0..v.len()).filter(|i| !only.contains(i)).collect();
    }
    let start = v.clone();
    // The scale K of the evaluation against the searches' scores (deeper scores run smaller),
    // fitted first, so that the weights keep their overall scale and only their ratios move.
    let mut k = 1.0;
    let mut best = error(&samples, &WEIGHTS, k);
    eprintln!("error of the weights in use: {best:.6}");
    for i in 30..=200 {
        let e = error(&samples, &WEIGHTS, f64::from(i) * 0.01);
        if e < best {
            best = e;
            k = f64::from(i) * 0.01;
        }
    }
    eprintln!("K = {k:.2}: error {best:.6}");
    for step in [16, 8, 4, 2] {
        for pass in 0..10 {
            let mut improved = false;
            for i in 0..v.len() {
                if fixed.contains(&i) {
                    continue;
                }
                for delta in [step, -step] {
                    let old = v[i];
                    // A weight at 0 in use (a term under trial) may take either sign.
                    let (lo, hi) = if start[i] == 0 {
                        (-300, 300)
                    } else {
                        (start[i] / 2, (start[i] * 2).max(start[i] + 20))
                    };
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
