//! `jungle engine`, `jungle bench` and `jungle match`: argument parsing only; the work is in
//! `jungle_engine`.

use anyhow::{bail, Context, Result};
use clap::Args;
use jungle::Rules;
use jungle_engine::matches::{self, EngineSpec, MatchConfig, Sprt, TimeControl};
use jungle_engine::{bench as engine_bench, protocol};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// The opening suite shipped with the project (`openings/suite.txt`), `jungle match`'s default.
const SHIPPED_OPENINGS: &str = include_str!("../../../openings/suite.txt");

/// Arguments of `jungle engine` (none: everything is set through the protocol).
#[derive(Args)]
pub struct EngineArgs {}

/// Arguments of `jungle bench`.
#[derive(Args)]
pub struct BenchArgs {
    /// Search depth per position (1 to 64).
    #[arg(default_value_t = engine_bench::DEFAULT_DEPTH, value_parser = bench_depth)]
    depth: u32,
}

/// Arguments of `jungle match` (boxed: they are many).
#[derive(Args)]
pub struct MatchArgs {
    #[command(flatten)]
    opts: Box<MatchOpts>,
}

/// The options of `jungle match`.
#[derive(Args)]
struct MatchOpts {
    /// An engine command line, given twice (split on spaces), e.g.
    /// `--engine "target/release/jungle engine"`. Results are from the first engine's side.
    #[arg(long = "engine", required = true, num_args = 1)]
    engines: Vec<String>,
    /// Names of the two engines (default: `A` and `B`).
    #[arg(long = "name", num_args = 1)]
    names: Vec<String>,
    /// `Name=Value` engine option for the first engine (repeatable), e.g. `Hash=32`.
    #[arg(long = "option1", num_args = 1)]
    options1: Vec<String>,
    /// `Name=Value` engine option for the second engine (repeatable).
    #[arg(long = "option2", num_args = 1)]
    options2: Vec<String>,
    /// Number of games, 1 to 1000000 (rounded up to colour-swapped pairs).
    #[arg(long, default_value_t = 20, value_parser = games)]
    games: usize,
    /// Milliseconds per move (at least 1); 100 when no other limit is given.
    #[arg(long, conflicts_with_all = ["tc", "depth", "nodes"], value_parser = positive_u64)]
    movetime: Option<u64>,
    /// A game clock `base+increment` in seconds, e.g. `10+0.1`.
    #[arg(long, conflicts_with_all = ["depth", "nodes"])]
    tc: Option<String>,
    /// A fixed depth per move (at least 1).
    #[arg(long, conflicts_with = "nodes", value_parser = positive_u32)]
    depth: Option<u32>,
    /// A fixed node count per move (at least 1).
    #[arg(long, value_parser = positive_u64)]
    nodes: Option<u64>,
    /// The second engine's node count per move instead of `--nodes` (a handicap for one side,
    /// e.g. to weigh a slower but smarter version at equal time).
    #[arg(long, value_parser = positive_u64)]
    nodes2: Option<u64>,
    /// Games played at once (1 to 64; each runs its own two engine processes).
    #[arg(long, default_value_t = 1, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=matches::MAX_CONCURRENCY as u64))]
    concurrency: usize,
    /// Rule set (RULES §9): the games are judged by it, and both engines are told it
    /// (`setoption name Rules value …`) before their other options.
    #[arg(long, default_value = "standard")]
    rules: String,
    /// Opening suite (one line of moves per opening); default: the shipped
    /// `openings/suite.txt`, built into the binary (so any working directory will do).
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Start at this opening of the suite (0 = the first), wrapping around, so that a run split
    /// over several sittings can go on where the last one stopped.
    #[arg(long, default_value_t = 0)]
    opening_offset: usize,
    /// Adjudicate a draw after this many plies (0 = never). Default: never when the rules have a
    /// no-capture limit (they end every game by themselves), else 1000.
    #[arg(long)]
    max_plies: Option<usize>,
    /// Run an SPRT with these hypotheses (Elo, ELO0 < ELO1, either may be negative), stopping
    /// when it decides: `--sprt 0 5`, `--sprt -5 0`.
    #[arg(long, num_args = 2, value_names = ["ELO0", "ELO1"], allow_hyphen_values = true, value_parser = elo_bound)]
    sprt: Vec<f64>,
    /// Write every game as a game record to this file.
    #[arg(long)]
    pgn: Option<PathBuf>,
    /// Milliseconds an engine may run over its time before it loses on time.
    #[arg(long, default_value_t = 200)]
    timeout_margin: u64,
    /// Print only the summary, not one line per game.
    #[arg(long)]
    quiet: bool,
    /// Measure the host's speed with `jungle bench` (one thread, to this depth; the bench's own
    /// depth when none is given) before and after the games, and print both with the summary:
    /// results at a time control follow the host's speed, which on a shared machine moves from
    /// hour to hour.
    #[arg(long, value_name = "DEPTH", num_args = 0..=1, value_parser = bench_depth)]
    host_speed: Option<Option<u32>>,
}

/// Runs `jungle engine`: the text protocol on stdin/stdout.
pub fn engine(_a: EngineArgs) -> Result<ExitCode> {
    protocol::run_stdio()?;
    Ok(ExitCode::SUCCESS)
}

/// The deepest `jungle bench` (and `jungle match --host-speed`) searches.
const MAX_BENCH_DEPTH: u32 = 64;

/// A bench depth, 1 to [`MAX_BENCH_DEPTH`] (anything else is a usage error, not clamped).
fn bench_depth(s: &str) -> Result<u32, String> {
    match s.parse::<u32>() {
        Ok(d) if (1..=MAX_BENCH_DEPTH).contains(&d) => Ok(d),
        _ => Err(format!(
            "the bench depth must be a whole number from 1 to {MAX_BENCH_DEPTH}"
        )),
    }
}

/// Runs `jungle bench`; the last line is `<N> nodes <M> nps`.
pub fn bench(a: BenchArgs) -> Result<ExitCode> {
    let stdout = std::io::stdout();
    engine_bench::run(a.depth, &mut stdout.lock())?;
    Ok(ExitCode::SUCCESS)
}

/// A whole number from 1 to `max` (0 is a usage error, not taken as 1; nothing is clamped).
fn whole(s: &str, max: u64) -> Result<u64, String> {
    let digits = !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    match s.parse::<u64>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        // Too large even for a u64 is out of range too, not "not a number".
        Ok(_) | Err(_) if digits => Err(format!("it must be from 1 to {max}")),
        _ => Err(format!("it must be a whole number from 1 to {max}")),
    }
}

/// A whole number from 1 to `u32::MAX`.
fn positive_u32(s: &str) -> Result<u32, String> {
    whole(s, u64::from(u32::MAX)).map(|n| n as u32)
}

/// A whole number from 1 to `u64::MAX`.
fn positive_u64(s: &str) -> Result<u64, String> {
    whole(s, u64::MAX)
}

/// A number of games, 1 to [`matches::MAX_GAMES`].
fn games(s: &str) -> Result<usize, String> {
    whole(s, matches::MAX_GAMES as u64).map(|n| n as usize)
}

/// An Elo bound of `--sprt`: any finite number, negative ones included.
fn elo_bound(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(e) if e.is_finite() => Ok(e),
        _ => Err("an Elo bound must be a finite number, like -5, 0 or 2.5".into()),
    }
}

fn parse_options(list: &[String]) -> Result<Vec<(String, String)>> {
    list.iter()
        .map(|o| match o.split_once('=') {
            // An empty name would send `setoption name  value …`.
            Some((k, v)) if !k.trim().is_empty() => {
                Ok((k.trim().to_string(), v.trim().to_string()))
            }
            _ => bail!("engine option `{o}` is not `Name=Value`"),
        })
        .collect()
}

fn parse_tc(s: &str) -> Result<TimeControl> {
    let (base, inc) = s.split_once('+').unwrap_or((s, "0"));
    let secs = |v: &str| -> Result<Duration> {
        let f: f64 = v
            .parse()
            .with_context(|| format!("`{v}` in --tc is not a number of seconds"))?;
        if !(0.0..=86_400.0).contains(&f) {
            bail!("`{v}` in --tc is out of range");
        }
        Ok(Duration::from_secs_f64(f))
    };
    let base = secs(base)?;
    if base.is_zero() {
        bail!("--tc needs a positive base time");
    }
    Ok(TimeControl::Clock {
        base,
        increment: secs(inc)?,
    })
}

/// The host's speed now: `jungle bench` to `depth` (checked by [`bench_depth`]), in nodes per
/// second.
fn host_speed(depth: u32) -> Result<u64> {
    Ok(engine_bench::run(depth, &mut std::io::sink())?.nps())
}

/// Runs `jungle match`.
pub fn run_match(a: MatchArgs) -> Result<ExitCode> {
    let a = *a.opts;
    if a.engines.len() != 2 {
        bail!("give exactly two --engine commands");
    }
    if a.names.len() > 2 {
        bail!("give --name at most twice (the first engine's name, then the second's)");
    }
    if let Some(bad) = a
        .names
        .iter()
        .find(|n| n.trim().is_empty() || n.contains(['\n', '\r']))
    {
        bail!("an engine name must be one line, not empty: {bad:?}");
    }
    if a.names.len() == 2 && a.names[0] == a.names[1] {
        bail!(
            "the two engines need different names (both are {:?})",
            a.names[0]
        );
    }
    let rules: Rules = a.rules.parse()?;
    let names = [
        a.names.first().cloned().unwrap_or_else(|| "A".into()),
        a.names.get(1).cloned().unwrap_or_else(|| "B".into()),
    ];
    let mut e0 = EngineSpec::from_command(&names[0], &a.engines[0])?;
    let mut e1 = EngineSpec::from_command(&names[1], &a.engines[1])?;
    e0.options = parse_options(&a.options1)?;
    e1.options = parse_options(&a.options2)?;
    let time_control = match (a.movetime, &a.tc, a.depth, a.nodes) {
        (Some(ms), _, _, _) => TimeControl::MoveTime(Duration::from_millis(ms)),
        (_, Some(tc), _, _) => parse_tc(tc)?,
        (_, _, Some(d), _) => TimeControl::Depth(d),
        (_, _, _, Some(n)) => TimeControl::Nodes(n),
        _ => TimeControl::MoveTime(Duration::from_millis(100)),
    };
    if a.nodes2.is_some() && !matches!(time_control, TimeControl::Nodes(_)) {
        bail!("--nodes2 goes with --nodes (a node count for each engine)");
    }
    e1.nodes = a.nodes2;
    let sprt = match a.sprt.as_slice() {
        [] => None,
        [e0, e1] if e0 < e1 => Some(Sprt::new(*e0, *e1)),
        [e0, e1] => bail!("--sprt needs ELO0 < ELO1, not {e0} and {e1}"),
        _ => bail!("--sprt needs two Elo values, ELO0 < ELO1"),
    };
    let mut openings = match &a.openings {
        Some(path) => matches::load_openings(path, rules)?,
        None => matches::parse_openings(SHIPPED_OPENINGS, rules)?,
    };
    // The suite is never empty (`load_openings` refuses that).
    let first = a.opening_offset % openings.len();
    openings.rotate_left(first);
    let fixed = matches!(time_control, TimeControl::Depth(_) | TimeControl::Nodes(_));
    if fixed && a.games > 2 * openings.len() {
        eprintln!(
            "warning: {} games on {} openings at a fixed depth or node count: single-threaded \
             engines play the same game again after the first {}, and the interval would count \
             the repeats as new games",
            a.games,
            openings.len(),
            2 * openings.len()
        );
    }
    let config = MatchConfig {
        engines: [e0, e1],
        games: a.games,
        time_control,
        concurrency: a.concurrency,
        rules,
        openings,
        max_plies: a
            .max_plies
            .unwrap_or_else(|| matches::default_max_plies(&rules)),
        sprt,
        timeout_margin: Duration::from_millis(a.timeout_margin),
    };
    // What the match would refuse, refused before anything runs (the host's speed, the file).
    matches::check(&config)?;
    // Each record is written (and flushed) as its game ends, so a match stopped early keeps the
    // records of the games it finished.
    let mut pgn = match &a.pgn {
        Some(path) => Some(
            std::fs::File::create(path)
                .with_context(|| format!("cannot create {}", path.display()))?,
        ),
        None => None,
    };
    let mut pgn_error = None;
    let speed_depth = a
        .host_speed
        .map(|d| d.unwrap_or(engine_bench::DEFAULT_DEPTH));
    let speed_before = speed_depth.map(host_speed).transpose()?;
    let quiet = a.quiet;
    let tally = matches::run(&config, |r, t| {
        if !quiet {
            let red = &config.engines[r.red].name;
            let blue = &config.engines[1 - r.red].name;
            println!(
                "game {:>4}: {red} (red) vs {blue} (blue) {} {} [{} - {} - {}]",
                r.index + 1,
                r.record.result,
                r.reason,
                t.wins,
                t.losses,
                t.draws
            );
            let _ = std::io::stdout().flush();
        }
        if let (Some(f), None) = (pgn.as_mut(), &pgn_error) {
            if let Err(e) =
                matches::write_records(f, std::slice::from_ref(r)).and_then(|()| f.flush())
            {
                pgn_error = Some(e);
            }
        }
    })?;
    for line in matches::summary(&config, &tally) {
        println!("{line}");
    }
    if let (Some(depth), Some(before)) = (speed_depth, speed_before) {
        let after = host_speed(depth)?;
        println!(
            "Host speed (jungle bench {depth}, one thread): {:.2} M nodes/s before the games, {:.2} M after",
            before as f64 / 1e6,
            after as f64 / 1e6
        );
    }
    if let Some(e) = pgn_error {
        return Err(e).context("cannot write the game records");
    }
    Ok(ExitCode::SUCCESS)
}
