//! SPSA tuning of the evaluation weights by games.
//!
//! `cargo run --release -p jungle-engine --example spsa -- [--pairs N] [--nodes N] [--threads T]
//! [--seed S] [--openings FILE] [--max-plies N] [--start CSV] [--report N]`
//!
//! Simultaneous perturbation stochastic approximation, as chess engines tune their parameters:
//! every step perturbs all tuned weights at once by ±c (a random sign each), plays a colour-swapped
//! pair of games from a random opening between the `+` and the `−` weights (in-process, a fixed
//! number of nodes per move, fresh tables each game), and moves every weight towards the side that
//! scored better, by `a_k / c_k · result · sign`. Gains shrink with the step number as usual
//! (`a_k = a / (A + k + 1)^0.602`, `c_k = c / (k + 1)^0.101`). Several threads play pairs at once
//! against the shared current weights.
//!
//! Every `--report` pairs it prints the step number, the score of the `+` side so far and the
//! weights as one comma-separated line, the form `setoption name Weights value …` and
//! `jungle match --option1 Weights=…` take: test the result with a match before adopting it.

use jungle::{Game, MoveText, Rules};
use jungle_engine::eval::{Weights, WEIGHTS};
use jungle_engine::matches::load_openings;
use jungle_engine::{Engine, EngineOptions, Limits};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// What is tuned: an index into `Weights::to_vec` and its perturbation size `c` at step 0.
fn tuned() -> Vec<(usize, f64)> {
    let mut t = Vec::new();
    // Material, Rat … Elephant.
    t.extend((0..8).map(|i| (i, 25.0)));
    // Advance bonus by den distance 1 … 9 (0 ends the game; 10 and 11 stay 0).
    t.extend((9..18).map(|i| (i, 6.0)));
    // Advance scale by role, in eighths.
    t.extend((20..28).map(|i| (i, 1.5)));
    // Den guards 1, 2, 3+ (none stays 0), Rat while the enemy Elephant lives, and the free
    // attacker one step from the enemy den (index 33; tempo 36, mobility 37 and control 38 are not
    // tuned).
    t.extend((29..34).map(|i| (i, 8.0)));
    t
}

struct Config {
    pairs: u64,
    nodes: u64,
    threads: usize,
    seed: u64,
    openings: PathBuf,
    max_plies: usize,
    start: Weights,
    report: u64,
    /// `a` of the gain sequence, as the step size in units of `c` for a result of 1 at step 0.
    a: f64,
}

fn parse_args() -> Result<Config, String> {
    let mut c = Config {
        pairs: 2000,
        nodes: 8000,
        threads: 1,
        seed: 1,
        openings: PathBuf::from("openings/suite.txt"),
        max_plies: 300,
        start: WEIGHTS,
        report: 100,
        a: 0.05,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or(format!("{flag} needs a value"));
        let num = |v: String| v.parse::<u64>().map_err(|e| format!("{flag} {v}: {e}"));
        match flag.as_str() {
            "--pairs" => c.pairs = num(value()?)?,
            "--nodes" => c.nodes = num(value()?)?,
            "--threads" => c.threads = num(value()?)?.max(1) as usize,
            "--seed" => c.seed = num(value()?)?,
            "--openings" => c.openings = PathBuf::from(value()?),
            "--max-plies" => c.max_plies = num(value()?)? as usize,
            "--start" => c.start = value()?.parse()?,
            "--report" => c.report = num(value()?)?.max(1),
            "--a" => c.a = value()?.parse().map_err(|e| format!("--a: {e}"))?,
            _ => return Err(format!("unknown argument `{flag}`")),
        }
    }
    Ok(c)
}

/// splitmix64: a small deterministic generator (signs and openings).
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Plays one game from `opening`, `red` against `blue`; 1 when Red wins, 0 when Blue wins, ½ drawn.
fn play(opening: &[String], red: &mut Engine, blue: &mut Engine, cfg: &Config) -> f64 {
    let mut game = Game::new(Rules::STANDARD);
    for text in opening {
        let m = text
            .parse::<MoveText>()
            .ok()
            .and_then(|t| t.to_move(game.position()).ok())
            .expect("openings were checked when loaded");
        game.play(m).expect("openings were checked when loaded");
    }
    red.new_game();
    blue.new_game();
    let limits = Limits {
        nodes: Some(cfg.nodes),
        ..Limits::default()
    };
    while game.outcome().is_none() && game.len() < cfg.max_plies {
        let engine = if game.position().turn() == jungle::Color::Red {
            &mut *red
        } else {
            &mut *blue
        };
        let Some(m) = engine.search(&game, limits).best else {
            break;
        };
        game.play(m).expect("the engine plays legal moves");
    }
    match game.winner() {
        Some(jungle::Color::Red) => 1.0,
        Some(jungle::Color::Blue) => 0.0,
        None => 0.5,
    }
}

struct State {
    theta: Vec<f64>,
    /// Pairs finished.
    done: u64,
    /// Points of the `+` side over all games.
    plus_points: f64,
}

fn weights_of(theta: &[f64]) -> Weights {
    let v: Vec<i32> = theta.iter().map(|x| x.round() as i32).collect();
    Weights::from_slice(&v).expect("the same length")
}

fn main() {
    let cfg = match parse_args() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("spsa: {e}");
            std::process::exit(2);
        }
    };
    let openings = load_openings(&cfg.openings, Rules::STANDARD).unwrap_or_else(|e| {
        eprintln!("spsa: {e}");
        std::process::exit(2);
    });
    let params = tuned();
    let state = Mutex::new(State {
        theta: cfg.start.to_vec().iter().map(|&x| f64::from(x)).collect(),
        done: 0,
        plus_points: 0.0,
    });
    let started = AtomicU64::new(0);
    let big_a = cfg.pairs as f64 / 10.0;
    let t0 = std::time::Instant::now();
    println!(
        "spsa: {} weights, {} pairs at {} nodes/move, {} threads; start {}",
        params.len(),
        cfg.pairs,
        cfg.nodes,
        cfg.threads,
        cfg.start.to_csv()
    );
    std::thread::scope(|scope| {
        for worker in 0..cfg.threads {
            let (cfg, state, started, params, openings) =
                (&cfg, &state, &started, &params, &openings);
            scope.spawn(move || {
                let options = EngineOptions {
                    hash_mb: 8,
                    ..EngineOptions::default()
                };
                let mut plus = Engine::new(options);
                let mut minus = Engine::new(options);
                loop {
                    let k = started.fetch_add(1, Ordering::Relaxed);
                    if k >= cfg.pairs {
                        break;
                    }
                    let mut rng = cfg.seed ^ k.wrapping_mul(0xD6E8_FEB8_6659_FD93) ^ worker as u64;
                    let ck = 1.0 / ((k + 1) as f64).powf(0.101);
                    let signs: Vec<f64> = params
                        .iter()
                        .map(|_| if next(&mut rng) & 1 == 0 { 1.0 } else { -1.0 })
                        .collect();
                    let theta = state.lock().expect("no panics while held").theta.clone();
                    let (mut tp, mut tm) = (theta.clone(), theta);
                    for (&(i, c), s) in params.iter().zip(&signs) {
                        tp[i] += c * ck * s;
                        tm[i] -= c * ck * s;
                    }
                    plus.set_options(EngineOptions {
                        weights: weights_of(&tp),
                        ..options
                    });
                    minus.set_options(EngineOptions {
                        weights: weights_of(&tm),
                        ..options
                    });
                    let opening = &openings[(next(&mut rng) % openings.len() as u64) as usize];
                    let first = play(opening, &mut plus, &mut minus, cfg);
                    let second = 1.0 - play(opening, &mut minus, &mut plus, cfg);
                    // Points of `+` minus points of `−` over the pair, from −2 to 2.
                    let result = (first + second) - (2.0 - first - second);
                    let mut st = state.lock().expect("no panics while held");
                    let ak = cfg.a / ((big_a + k as f64 + 1.0) / (big_a + 1.0)).powf(0.602);
                    for (&(i, c), s) in params.iter().zip(&signs) {
                        // a_k / c_k · result · sign, in units of this weight's c.
                        st.theta[i] += ak * c * result * s / 2.0;
                    }
                    st.done += 1;
                    st.plus_points += first + second;
                    if st.done % cfg.report == 0 || st.done == cfg.pairs {
                        println!(
                            "pair {} ({:.0} s): + side scored {:.3}; weights {}",
                            st.done,
                            t0.elapsed().as_secs_f64(),
                            st.plus_points / (2 * st.done) as f64,
                            weights_of(&st.theta).to_csv()
                        );
                    }
                }
            });
        }
    });
    let st = state.into_inner().expect("no panics while held");
    println!("final {}", weights_of(&st.theta).to_csv());
}
