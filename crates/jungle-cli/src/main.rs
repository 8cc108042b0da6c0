//! The `jungle` command: a thin dispatch to the libraries.
#![forbid(unsafe_code)]

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use std::process::ExitCode;

#[cfg(feature = "engine")]
mod engine_cmds;
#[cfg(feature = "tui")]
mod play_cmd;
mod rules_cmds;
#[cfg(feature = "server")]
mod serve_cmds;

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
    /// Speak the engine text protocol on stdin/stdout (see doc/protocol.md).
    #[cfg(feature = "engine")]
    Engine(engine_cmds::EngineArgs),
    /// Search a fixed set of positions and print `<N> nodes <M> nps` (the behaviour signature).
    #[cfg(feature = "engine")]
    Bench(engine_cmds::BenchArgs),
    /// Play two engine commands against each other and report the score, Elo and SPRT.
    #[cfg(feature = "engine")]
    Match(engine_cmds::MatchArgs),
    /// Run the game server with its database and the web client.
    #[cfg(feature = "server")]
    Serve(serve_cmds::ServeArgs),
    /// Run bot players against a server on loopback and report throughput and latency.
    #[cfg(feature = "server")]
    Loadtest(serve_cmds::LoadtestArgs),
    /// Play in the terminal against the AI, a friend, or on a server.
    #[cfg(feature = "tui")]
    Play(play_cmd::PlayArgs),
}

/// A usage error of clap's as one line: its first paragraph (what is wrong, with the arguments
/// missing or the values possible, which clap puts on the lines below), without the usage and tips
/// that follow.
fn usage_error_line(text: &str) -> String {
    let words: Vec<&str> = text
        .trim_start()
        .lines()
        .take_while(|l| !l.trim().is_empty())
        .map(str::trim)
        .collect();
    if words.is_empty() {
        "error: invalid arguments".to_string()
    } else {
        words.join(" ")
    }
}

fn main() -> ExitCode {
    let args = rules_cmds::protect_pass_args(std::env::args_os());
    let command = Cli::command();
    // `jungle play` speaks the player's language from its --help and argument errors on.
    #[cfg(feature = "tui")]
    let play_lang = play_cmd::args_lang(&args);
    #[cfg(feature = "tui")]
    let command = match play_lang {
        Some(lang) => play_cmd::localize(command, lang),
        None => command,
    };
    let parsed = command
        .try_get_matches_from(&args)
        .and_then(|mut m| Cli::from_arg_matches_mut(&mut m));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help and --version.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) if e.kind() == clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = e.print();
            return ExitCode::from(2);
        }
        Err(e) => {
            #[cfg(feature = "tui")]
            if let Some(text) = play_lang.and_then(|lang| play_cmd::usage_error_text(lang, &e)) {
                eprintln!("{text}");
                return ExitCode::from(2);
            }
            // Usage errors: one line on stderr, exit status 2.
            eprintln!("{} (see --help)", usage_error_line(&e.to_string()));
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        Command::Perft(a) => rules_cmds::perft(a),
        Command::Moves(a) => rules_cmds::moves(a),
        #[cfg(feature = "engine")]
        Command::Engine(a) => engine_cmds::engine(a),
        #[cfg(feature = "engine")]
        Command::Bench(a) => engine_cmds::bench(a),
        #[cfg(feature = "engine")]
        Command::Match(a) => engine_cmds::run_match(a),
        #[cfg(feature = "server")]
        Command::Serve(a) => serve_cmds::serve(a),
        #[cfg(feature = "server")]
        Command::Loadtest(a) => serve_cmds::loadtest(a),
        #[cfg(feature = "tui")]
        Command::Play(a) => play_cmd::play(a),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
