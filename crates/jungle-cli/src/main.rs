//! The `jungle` command: a thin dispatch to the libraries.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

mod rules_cmds;

/// Jungle (斗兽棋): rules tools, engine, server and clients.
#[derive(Parser)]
#[command(name = "jungle", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count legal move sequences from a position (RULES §6).
    Perft(rules_cmds::PerftArgs),
    /// Play moves as a game and print the legal moves and the outcome.
    Moves(rules_cmds::MovesArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse_from(rules_cmds::protect_pass_args(std::env::args_os()));
    let result = match cli.command {
        Command::Perft(a) => rules_cmds::perft(a),
        Command::Moves(a) => rules_cmds::moves(a),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
