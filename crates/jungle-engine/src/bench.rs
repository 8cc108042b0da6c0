//! `jungle bench`: the behaviour signature. A fixed list of positions from all phases (the start,
//! openings, middle games, endings and den races), searched to a fixed depth with one thread and a
//! fresh table; the node total changes exactly when search or evaluation behaviour changes.

use crate::{Engine, EngineOptions, Limits};
use jungle::{Game, Jfen, Rules};
use std::io::{self, Write};
use std::time::{Duration, Instant};

/// The default bench depth.
pub const DEFAULT_DEPTH: u32 = 11;

/// The bench positions (JFEN, standard rules): the start and hand-made den races first, then
/// positions from self-play games every few moves.
pub const POSITIONS: &[&str] = &[
    "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 0 1",
    "l6/2D4/7/7/7/7/7/4w2/6L r 0 1",
    "2t4/1P5/7/3e3/7/3E3/7/5p1/4L2 b 0 1",
    "2l4/1T5/3P3/7/7/7/2r4/2c1W2/4L2 r 0 1",
    "1l3t1/1d3ce/r2pw2/7/7/7/E1WP1DR/7/TC3L1 r 8 5",
    "7/2dw3/r1let1c/3p3/7/3PR2/1ETW1L1/4D2/1C5 r 40 21",
    "2l4/2d1wt1/5ce/3L3/7/r2P3/ECW4/5DR/1T5 r 1 13",
    "1l5/1d3ct/r2pw2/7/7/7/E2WP2/TC4D/6L r 0 9",
    "5L1/1dl1w2/2r4/7/7/7/E2W3/2T1P1D/1C5 r 9 25",
    "5w1/2d1L2/3l3/7/7/7/1ET4/4P1D/1C5 r 0 41",
    "5w1/2d1L2/3l3/7/3P3/7/1ETD3/7/1C5 r 32 57",
    "5w1/2d1L2/7/7/3l3/3D3/3E3/2T4/1C5 r 0 73",
    "2l2c1/6t/rd1w1e1/6R/3p3/7/2WP3/EC2L1D/1T5 r 24 13",
    "5c1/4t2/rdl1e2/3wR2/3p3/7/1EWP1L1/2C3D/2T4 r 56 29",
    "5c1/3wt2/1dle3/5R1/3p3/r6/1EW1PL1/2TCD2/7 r 88 45",
    "4c2/3w3/2d1t2/4R2/3e3/3p3/3lPL1/2C1D2/2T4 r 24 61",
    "1l3t1/1d3c1/r2w2e/7/3p3/3W3/E2P1DR/1C2L2/1T5 r 16 9",
    "7/2dc3/2l1te1/3wR2/3p3/2rW3/1ETPL2/1C2D2/7 r 48 25",
    "4e2/2c1d2/2lwt2/4R2/3P2L/2r4/1ET4/3D3/2C4 r 3 41",
    "7/2ce3/2lwtd1/L2PR2/7/2r4/3DT2/2E4/1C5 r 35 57",
    "7/2cwe2/4t2/L2PR2/3D3/1r5/2l4/3E2d/1C3T1 r 67 73",
    "5t1/1ld2c1/r4we/7/3p3/3W3/E1CP2R/5D1/1T2L2 r 16 9",
    "7/2dce2/2l1t1w/r1R4/3p3/3W3/1ECP1L1/2T1D2/7 r 48 25",
    "5e1/2dc3/3lw2/2R3L/3p3/2rW3/2EPt2/1C1T3/4D2 r 80 41",
    "7/2cwe2/3l3/2R3L/d2p3/2rW3/C1EPt2/3T3/4D2 r 112 57",
    "7/2cw3/d2l3/2R3e/E2p3/2rW3/2CPt1L/3T3/5D1 r 144 73",
    "5t1/l1d2c1/1r1pwe1/7/7/3P3/E1W1L1R/1C5/1T3D1 r 16 9",
    "7/1Tde1c1/2tw3/7/E2p3/3l3/3WLR1/7/2C1D2 r 18 25",
    "1T5/1Edec2/7/3w3/3p3/3l3/4LR1/2tWD2/1C5 r 50 41",
    "1T5/1Ede3/3wc2/4R2/3p3/3l3/4L2/2tWD2/1C5 r 82 57",
    "1T5/1Ede3/3wc2/4R2/3p3/3l3/4L2/2tWD2/1C5 r 114 73",
    "1l4t/1dp1c2/r4e1/3w3/7/7/EC2L1R/2W1P2/T4D1 r 16 9",
    "7/2dc3/2lpte1/3w3/1r1PR2/7/1ETCL2/3W3/5D1 r 48 25",
    "5c1/2d2t1/2lpL2/3w3/3P3/2rC3/2TW3/2ED3/7 r 0 41",
    "5t1/2d1L2/1l1p3/3w3/3P3/2rC3/2T1W2/3ED2/7 r 27 57",
    "5t1/2d1L2/1l1p3/3w3/3P3/2rC3/2TE3/3D3/4W2 r 59 73",
];

/// The outcome of a bench run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BenchResult {
    /// Nodes searched over all positions.
    pub nodes: u64,
    /// Time spent searching (the positions' set-up not included).
    pub time: Duration,
}

impl BenchResult {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        (self.nodes as u128 * 1_000_000 / self.time.as_micros().max(1)) as u64
    }
}

/// Searches every position to `depth` (one thread, 16 MiB, the table cleared before each
/// position) and writes one line per position, then `<N> nodes <M> nps` as the last line; the
/// time is that of the searches alone.
pub fn run(depth: u32, out: &mut dyn Write) -> io::Result<BenchResult> {
    let mut nodes = 0;
    let mut time = Duration::ZERO;
    // One engine, its table cleared before each position: the same start as a fresh table,
    // without timing a 16 MiB allocation and its page faults 30+ times.
    let mut engine = Engine::new(EngineOptions {
        threads: 1,
        hash_mb: 16,
        level: 10,
        ..EngineOptions::default()
    });
    for (i, text) in POSITIONS.iter().enumerate() {
        let pos = Jfen::parse_position(text, Rules::STANDARD)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.to_string()))?;
        let game = Game::from_position(pos);
        engine.new_game();
        let start = Instant::now();
        let r = engine.search(
            &game,
            Limits {
                depth: Some(depth),
                ..Limits::default()
            },
        );
        time += start.elapsed();
        nodes += r.nodes;
        let best = r.best.map_or("(none)".to_string(), |m| m.to_string());
        writeln!(
            out,
            "position {:>2} bestmove {best:<6} score {:<9} nodes {}",
            i + 1,
            r.score.to_string(),
            r.nodes
        )?;
    }
    let result = BenchResult { nodes, time };
    writeln!(out, "{} nodes {} nps", result.nodes, result.nps())?;
    Ok(result)
}
