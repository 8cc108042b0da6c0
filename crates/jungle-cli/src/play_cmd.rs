//! `jungle play`: the full-screen terminal client (the `jungle-tui` library).

use anyhow::{anyhow, bail, Context, Result};
use clap::{Args, ValueEnum};
use jungle::{Color, Game, Jfen, Position, Rules};
use jungle_tui::proto::{send, TimeControl};
use jungle_tui::{Config, Glyphs, Lang, Opponent, Server};
use std::process::ExitCode;

/// A side, as given on the command line.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Side {
    /// Red moves first, from the bottom.
    Red,
    /// Blue moves second, from the top.
    Blue,
}

/// How animals are drawn.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GlyphArg {
    /// Letters: uppercase Red, lowercase Blue (E L T P D W C R).
    Letters,
    /// Chinese characters (象 狮 虎 豹 狗 狼 猫 鼠).
    Chinese,
}

/// What `jungle play --help` shows after the options.
const AFTER_HELP: &str = "\
Keys while playing:
  arrow keys + Enter   pick an animal, then Enter on a highlighted square moves it
  mouse                click an animal, then a highlighted square
  g3g4 / Rg4 + Enter   type a move (from-to squares, or animal letter + destination)
  u undo (against the AI)   v flip the board   n new game   s save / o open a game record
  i hint: the engine's best move picked on the board (not against people), Enter plays it
  x analyse: the evaluation and the engine's three best moves with their lines (x hides it;
    not while a game against people is on)
  after the game: Left/Right step through its moves, Home/End its start/end (x analyses them)
  Tab letters or Chinese characters   ? help   Esc cancel   q or Ctrl-C quit
  online: = offer or accept a draw   ! twice resigns   n rematch   u take back (server AI)
    q asks first while your game is on (leaving loses it unless you return in time)
Animals: E elephant > L lion > T tiger > P leopard > D dog > W wolf > C cat > R rat
  (the rat takes the elephant); Red is uppercase, Blue lowercase.
  ~~ water, ## trap, @@ den. Win by entering the enemy den.

Examples:
  jungle play                          you (Red) against the AI at level 3
  jungle play --level 7 --color blue   Blue against a stronger AI
  jungle play --hotseat                two people at one keyboard
  jungle play --server http://127.0.0.1:8080            online against the next player
  jungle play --server http://127.0.0.1:8080 --level 5  online against the server's AI
  jungle play --server http://127.0.0.1:8080 --hotseat  an online game at one keyboard
  jungle play --server http://127.0.0.1:8080 --watch ID  watch a game";

/// Arguments of `jungle play`.
#[derive(Args)]
#[command(after_help = AFTER_HELP)]
pub struct PlayArgs {
    /// Play the AI at this level, 1 (beginner) to 10 (strongest). Default 3. With --server,
    /// plays the server's AI instead of waiting for a person.
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=10), conflicts_with = "hotseat")]
    level: Option<u8>,
    /// Your colour against the AI (Red moves first).
    #[arg(long, value_enum, default_value = "red")]
    color: Side,
    /// Two people at the same keyboard, taking turns (no AI).
    #[arg(long)]
    hotseat: bool,
    /// Rule set: `standard` or deviations like `wolf_over_dog,no_7_3` (RULES §9).
    #[arg(long, default_value = "standard")]
    rules: String,
    /// Start position as JFEN (default: the start position).
    #[arg(long)]
    fen: Option<String>,
    /// Play online on this server, e.g. `http://127.0.0.1:8080` (a guest account unless
    /// --name is given).
    #[arg(long)]
    server: Option<String>,
    /// Watch this online game (its id) instead of playing.
    #[arg(long, requires = "server", conflicts_with_all = ["hotseat", "level"])]
    watch: Option<String>,
    /// Online account name (the password comes from --password or JUNGLE_PASSWORD).
    #[arg(long, requires = "server")]
    name: Option<String>,
    /// Online account password.
    #[arg(long, env = "JUNGLE_PASSWORD", hide_env_values = true)]
    password: Option<String>,
    /// Online time control CLOCK+INCREMENT/PER-MOVE in seconds (0 = none).
    #[arg(long, default_value = "600+0/60")]
    tc: String,
    /// Language of the screen: en, zh-Hans or zh-Hant (default: from LANG).
    #[arg(long)]
    lang: Option<String>,
    /// Draw animals as letters or Chinese characters (default: characters for Chinese, else
    /// letters). Tab switches while playing.
    #[arg(long, value_enum)]
    glyphs: Option<GlyphArg>,
}

fn color_of(s: Side) -> Color {
    match s {
        Side::Red => Color::Red,
        Side::Blue => Color::Blue,
    }
}

/// Runs `jungle play`.
pub fn play(a: PlayArgs) -> Result<ExitCode> {
    let lang = match &a.lang {
        Some(l) => l.parse::<Lang>()?,
        None => Lang::from_env(),
    };
    let rules: Rules = a.rules.parse().context("--rules")?;
    let start = match &a.fen {
        // A refused JFEN is said in the player's language.
        Some(f) => Jfen::parse_position(f, rules)
            .map_err(|e| anyhow!("--fen: {}", jungle_tui::i18n::invalid_jfen_text(lang, &e)))?,
        None => Position::start(rules),
    };
    // Every end the rules know (a den entered, a side wiped out or left without a move, the
    // no-capture draw), said in the player's language.
    if let Some(outcome) = Game::from_position(start).outcome() {
        bail!(jungle_tui::i18n::finished_position_text(lang, outcome));
    }
    let glyphs = match a.glyphs {
        Some(GlyphArg::Letters) => Glyphs::Letters,
        Some(GlyphArg::Chinese) => Glyphs::Chinese,
        None if lang.is_chinese() => Glyphs::Chinese,
        None => Glyphs::Letters,
    };
    let tc: TimeControl = a.tc.parse().map_err(anyhow::Error::msg)?;
    let (opponent, server, online_start) = match &a.server {
        Some(url) => {
            if a.fen.is_some() {
                bail!("--fen cannot be used with --server (the server sets up online games)");
            }
            if !a.hotseat && !rules.is_standard() {
                bail!("--rules with --server applies to --hotseat games only");
            }
            let first = if let Some(id) = &a.watch {
                send::watch_id(id)
            } else if a.hotseat {
                send::play_hotseat(tc, &a.rules)
            } else if let Some(level) = a.level {
                send::play_ai(level, color_of(a.color).name(), tc)
            } else {
                send::quick(tc)
            };
            let login = match (&a.name, &a.password) {
                (Some(n), Some(p)) => Some((n.clone(), p.clone())),
                (Some(_), None) => bail!("--name needs a password: --password or JUNGLE_PASSWORD"),
                _ => None,
            };
            let server = Server {
                url: url.clone(),
                login,
            };
            (Opponent::Online, Some(server), Some(first))
        }
        None if a.hotseat => (Opponent::Hotseat, None, None),
        None => (
            Opponent::Engine {
                level: a.level.unwrap_or(3),
                human: color_of(a.color),
            },
            None,
            None,
        ),
    };
    let config = Config {
        lang,
        glyphs,
        start,
        opponent,
        online_start,
        save_dir: std::env::current_dir().unwrap_or_default(),
    };
    jungle_tui::run(config, server)?;
    Ok(ExitCode::SUCCESS)
}
