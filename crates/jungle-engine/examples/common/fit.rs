//! What the two least-squares tuners share (`tune.rs` fits game results, `deepfit.rs` deeper
//! searches' scores): reading game records, the quiet-position filter, the error of a set of
//! weights against per-position targets, the fit of the scale between them and the coordinate
//! descent over the weights.

use jungle::{Bitboard, Color, Game, GameRecord, Position};
use jungle_engine::eval::{evaluate_with, Weights, WEIGHTS};

/// Every game of the record files at `paths` (as `jungle match --pgn` writes them) that replays,
/// with its result tag.
pub fn games(paths: &[String]) -> Vec<(Game, String)> {
    let mut out = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(path).expect("a readable game record file");
        for chunk in text.split("[Event ").skip(1) {
            let Ok(rec) = format!("[Event {chunk}").parse::<GameRecord>() else {
                continue;
            };
            if let Ok(game) = rec.to_game() {
                out.push((game, rec.result));
            }
        }
    }
    out
}

/// Whether `pos` is quiet enough for its static evaluation to mean something: not finished, no
/// animal on a den trap, no capture for the side to move.
pub fn quiet(pos: &Position) -> bool {
    let doors = Bitboard::RED_TRAPS | Bitboard::BLUE_TRAPS;
    !pos.is_finished()
        && (pos.occupied() & doors).is_empty()
        && !pos.legal_moves().iter().any(|&m| pos.is_capture(m))
}

/// Red's expected score for a lead of `red` units (400 units to a factor of ten in odds).
pub fn sigmoid(red: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-red / 400.0))
}

/// A position and Red's expected score there (a game's result, or a search's score through
/// [`sigmoid`]).
pub struct Sample {
    /// The position.
    pub pos: Position,
    /// 1 = Red wins, 0 = Blue wins.
    pub target: f64,
}

/// The mean squared difference of each sample's target and `sigmoid(k · evaluation)`.
pub fn error(samples: &[Sample], w: &Weights, k: f64) -> f64 {
    let mut sum = 0.0;
    for s in samples {
        let e = evaluate_with(&s.pos, w);
        let red = if s.pos.turn() == Color::Red { e } else { -e } as f64;
        sum += (s.target - sigmoid(k * red)).powi(2);
    }
    sum / samples.len().max(1) as f64
}

/// The scale `k` (in hundredths from `hundredths`) that fits the weights in use best, with its
/// error.
pub fn fit_scale(samples: &[Sample], hundredths: std::ops::RangeInclusive<i32>) -> (f64, f64) {
    let mut best = (1.0, f64::MAX);
    for i in hundredths {
        let k = f64::from(i) * 0.01;
        let e = error(samples, &WEIGHTS, k);
        if e < best.1 {
            best = (k, e);
        }
    }
    best
}

/// The values of [`Weights::to_vec`] a tuner leaves alone by default: `advance[0]` is never
/// used, the per-role scales multiply the advance table (tuning both is ill-conditioned), and
/// `control` (0 in use) was measured apart.
pub const FIXED: [usize; 10] = [8, 20, 21, 22, 23, 24, 25, 26, 27, 38];

/// Coordinate descent from the weights in use on `error(samples, ·, k)` (`best` is theirs): each
/// value not in `fixed` moves by ±step, for each step of `steps`, while that lowers the error,
/// at most `passes` passes over the values per step, and stays within half and twice its value
/// in use (−300..300 for a value at 0 in use, a term under trial).
pub fn descend(
    samples: &[Sample],
    k: f64,
    fixed: &[usize],
    steps: &[i32],
    passes: usize,
    mut best: f64,
) -> Weights {
    let start = WEIGHTS.to_vec();
    let mut v = start.clone();
    for &step in steps {
        for pass in 0..passes {
            let mut improved = false;
            for i in (0..v.len()).filter(|i| !fixed.contains(i)) {
                let (lo, hi) = if start[i] == 0 {
                    (-300, 300)
                } else {
                    (start[i] / 2, (start[i] * 2).max(start[i] + 20))
                };
                for delta in [step, -step] {
                    let old = v[i];
                    v[i] = (old + delta).clamp(lo, hi);
                    if v[i] == old {
                        continue;
                    }
                    let e = error(samples, &Weights::from_slice(&v).expect("length"), k);
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
    Weights::from_slice(&v).expect("length")
}
