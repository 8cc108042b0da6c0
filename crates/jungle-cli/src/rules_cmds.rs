//! `jungle perft` and `jungle moves`: interfaces other tools rely on; keep the output exact.

use anyhow::{anyhow, Result};
use clap::Args;
use jungle::{perft as count, Game, Jfen, MoveText, Position, Rules};
use std::ffi::OsString;
use std::process::ExitCode;

/// Stand-in for a literal `--` (a pass) after `--moves`, so that clap does not read it as the end
/// of options.
const PASS_TOKEN: &str = "\u{1}pass";

/// Rewrites a bare `--` that follows `--moves` into a token clap keeps as a value.
pub fn protect_pass_args(args: impl IntoIterator<Item = OsString>) -> Vec<OsString> {
    let mut in_moves = false;
    args.into_iter()
        .map(|a| {
            if a == "--moves" {
                in_moves = true;
            } else if a == "--" && in_moves {
                return OsString::from(PASS_TOKEN);
            } else if a
                .to_str()
                .is_some_and(|s| s.starts_with("--") && s.len() > 2)
            {
                in_moves = false;
            }
            a
        })
        .collect()
}

/// Arguments of `jungle perft`.
#[derive(Args)]
pub struct PerftArgs {
    /// Start position as JFEN (default: the start position).
    #[arg(long)]
    fen: Option<String>,
    /// Rule set: `standard` or deviations like `wolf_over_dog,no_7_3` (RULES §9).
    #[arg(long, default_value = "standard")]
    rules: String,
    /// Print one line per root move (`g3g4: 1234`) before the total.
    #[arg(long)]
    divide: bool,
    /// Depth in plies.
    depth: u32,
}

/// Arguments of `jungle moves`.
#[derive(Args)]
pub struct MovesArgs {
    /// Start position as JFEN (default: the start position).
    #[arg(long)]
    fen: Option<String>,
    /// Rule set (RULES §9).
    #[arg(long, default_value = "standard")]
    rules: String,
    /// Moves to play first, in coordinate notation (`g3g4`, `--` for a pass).
    #[arg(long, num_args = 0..)]
    moves: Vec<String>,
}

fn position(fen: Option<&str>, rules: &str) -> Result<Position> {
    let rules: Rules = rules.parse()?;
    Ok(match fen {
        Some(f) => Jfen::parse_position(f, rules)?,
        None => Position::start(rules),
    })
}

/// Runs `jungle perft`.
pub fn perft(a: PerftArgs) -> Result<ExitCode> {
    let pos = position(a.fen.as_deref(), &a.rules)?;
    if a.divide {
        let mut total = 0;
        let mut lines: Vec<(String, u64)> = jungle::perft_divide(&pos, a.depth)
            .into_iter()
            .map(|(m, n)| (m.to_string(), n))
            .collect();
        lines.sort();
        for (m, n) in lines {
            println!("{m}: {n}");
            total += n;
        }
        if a.depth == 0 {
            total = 1;
        }
        println!("{total}");
    } else {
        println!("{}", count(&pos, a.depth));
    }
    Ok(ExitCode::SUCCESS)
}

/// Runs `jungle moves`.
pub fn moves(a: MovesArgs) -> Result<ExitCode> {
    let pos = position(a.fen.as_deref(), &a.rules)?;
    let mut game = Game::from_position(pos);
    for (i, text) in a.moves.iter().enumerate() {
        let text = if text == PASS_TOKEN {
            "--"
        } else {
            text.as_str()
        };
        let n = i + 1;
        let mt: MoveText = text
            .parse()
            .map_err(|e| anyhow!("move {n} `{text}`: {e}"))?;
        let m = mt
            .to_move(game.position())
            .map_err(|e| anyhow!("move {n} `{text}`: {}", e.reason))?;
        game.play(m)
            .map_err(|e| anyhow!("move {n} `{text}`: {}", e.reason))?;
    }
    let mut legal: Vec<String> = game.legal_moves().iter().map(|m| m.to_string()).collect();
    legal.sort();
    println!("{}", legal.join(" "));
    match game.outcome() {
        None => println!("outcome: ongoing"),
        Some(o) => println!("outcome: {o}"),
    }
    Ok(ExitCode::SUCCESS)
}
