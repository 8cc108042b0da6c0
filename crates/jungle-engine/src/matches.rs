//! `jungle match`: plays two engines that speak the protocol against each other.
//!
//! Games come in colour-swapped pairs from an opening suite; each engine runs as a child process
//! per worker. Games are adjudicated by our own rules (den, wipe-out, no moves, the draw rules)
//! and a ply cap; an illegal move, a timeout or a crash loses and is reported. The summary gives
//! wins/draws/losses, the score, Elo with a 95% interval and, optionally, an SPRT verdict.

use jungle::{Color, Game, GameRecord, MoveText, Rules};
use std::collections::HashSet;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Errors that stop a match before it starts.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// The opening suite could not be read or has a bad line.
    #[error("opening suite: {0}")]
    Openings(String),
    /// Bad settings.
    #[error("{0}")]
    Config(String),
    /// An engine failed its handshake.
    #[error("engine `{0}`: {1}")]
    Engine(String, String),
    /// Writing the game records failed.
    #[error("writing game records: {0}")]
    Io(#[from] std::io::Error),
}

/// How one engine is started.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineSpec {
    /// Display name.
    pub name: String,
    /// The program and its arguments.
    pub command: Vec<String>,
    /// `setoption` pairs sent after `uci`.
    pub options: Vec<(String, String)>,
    /// This engine's node count per move under [`TimeControl::Nodes`], instead of the match's
    /// (to give one side a handicap, e.g. the node rate a slower version loses).
    pub nodes: Option<u64>,
}

impl EngineSpec {
    /// An engine from a command line split on whitespace (`"target/release/jungle engine"`).
    pub fn from_command(name: &str, command: &str) -> Result<EngineSpec, MatchError> {
        let command: Vec<String> = command.split_whitespace().map(String::from).collect();
        if command.is_empty() {
            return Err(MatchError::Config(format!(
                "engine `{name}` has an empty command"
            )));
        }
        Ok(EngineSpec {
            name: name.to_string(),
            command,
            options: Vec::new(),
            nodes: None,
        })
    }
}

/// The time control of a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeControl {
    /// A fixed time per move.
    MoveTime(Duration),
    /// A game clock with Fischer increment.
    Clock {
        /// Starting time.
        base: Duration,
        /// Added after each move.
        increment: Duration,
    },
    /// A fixed depth per move (with a generous timeout).
    Depth(u32),
    /// A fixed node count per move (with a generous timeout).
    Nodes(u64),
}

/// The SPRT hypotheses and error rates.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sprt {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
}

/// Everything a match needs.
#[derive(Debug, Clone)]
pub struct MatchConfig {
    /// The first engine (results are from its point of view) and the second.
    pub engines: [EngineSpec; 2],
    /// Number of games, at least 1 (rounded up to an even number: colour-swapped pairs).
    pub games: usize,
    /// Time control.
    pub time_control: TimeControl,
    /// Games played at once, 1 to [`MAX_CONCURRENCY`].
    pub concurrency: usize,
    /// The rule set.
    pub rules: Rules,
    /// Openings: moves from the start position.
    pub openings: Vec<Vec<String>>,
    /// A game reaching this many plies is drawn (0 = no cap; see [`default_max_plies`]).
    pub max_plies: usize,
    /// Stop early when the SPRT decides.
    pub sprt: Option<Sprt>,
    /// Slack over the allotted time before a move is a timeout.
    pub timeout_margin: Duration,
}

/// How a game ended, from the first engine's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameScore {
    /// The first engine won.
    Win,
    /// Drawn.
    Draw,
    /// The first engine lost.
    Loss,
}

/// One finished game.
#[derive(Debug, Clone)]
pub struct GameResult {
    /// Its number (0-based).
    pub index: usize,
    /// Which engine (0 or 1) had Red.
    pub red: usize,
    /// The score for engine 0.
    pub score: GameScore,
    /// Why it ended (`den`, `wipeout`, `illegal move …`, `timeout`, `crash`, `max plies`, …).
    pub reason: String,
    /// Whether the loser forfeited (illegal move, timeout or crash).
    pub forfeit: Option<String>,
    /// The game record.
    pub record: GameRecord,
}

/// Totals of a match.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Wins of the first engine.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Losses of the first engine.
    pub losses: u32,
    /// Forfeits by the first engine.
    pub forfeits_first: u32,
    /// Forfeits by the second engine.
    pub forfeits_second: u32,
    /// Games that repeat an earlier game of the match move for move with the same colours.
    /// Deterministic engines (one thread, a fixed depth or node count) replay each game once
    /// the suite comes round again; the Elo interval counts such games as new ones.
    pub repeats: u32,
}

impl Tally {
    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Score of the first engine, 0..=1.
    pub fn score(&self) -> f64 {
        let n = self.games().max(1) as f64;
        (self.wins as f64 + self.draws as f64 / 2.0) / n
    }

    /// Score of the first engine and its 95% interval `(score, low, high)`, by the normal
    /// approximation over the games' results (each 1, ½ or 0), the interval kept within 0..=1.
    pub fn score_interval(&self) -> (f64, f64, f64) {
        let n = self.games().max(1) as f64;
        let s = self.score();
        let var = (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n;
        let half = 1.959_964 * (var / n).sqrt();
        (s, (s - half).max(0.0), (s + half).min(1.0))
    }

    /// Elo difference of the first engine and its 95% interval `(elo, low, high)`: the score's
    /// interval ([`Tally::score_interval`]) in Elo.
    pub fn elo(&self) -> (f64, f64, f64) {
        let (s, lo, hi) = self.score_interval();
        (elo_of(s), elo_of(lo), elo_of(hi))
    }

    /// The log-likelihood ratio of H1 against H0 (trinomial normal approximation).
    pub fn llr(&self, sprt: &Sprt) -> f64 {
        if self.games() == 0 {
            return 0.0;
        }
        // Half a game of each kind keeps the variance positive in one-sided samples.
        let w = self.wins as f64 + 0.5;
        let d = self.draws as f64 + 0.5;
        let l = self.losses as f64 + 0.5;
        let n = w + d + l;
        let s = (w + d / 2.0) / n;
        let m2 = (w + d / 4.0) / n;
        let var = (m2 - s * s).max(1e-9);
        let s0 = score_of(sprt.elo0);
        let s1 = score_of(sprt.elo1);
        (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var / n)
    }
}

impl Sprt {
    /// The default error rates 0.05/0.05 with the given hypotheses.
    pub fn new(elo0: f64, elo1: f64) -> Sprt {
        Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
        }
    }

    /// `(lower, upper)` LLR bounds.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// `Some("H1 accepted")`, `Some("H0 accepted")` or `None` while undecided.
    pub fn verdict(&self, llr: f64) -> Option<&'static str> {
        let (lo, hi) = self.bounds();
        if llr >= hi {
            Some("H1 accepted")
        } else if llr <= lo {
            Some("H0 accepted")
        } else {
            None
        }
    }
}

fn elo_of(score: f64) -> f64 {
    let s = score.clamp(1e-6, 1.0 - 1e-6);
    // `+ 0.0` turns the −0 of an even score into 0 (printed `0.0`, not `-0.0`).
    -400.0 * (1.0 / s - 1.0).log10() + 0.0
}

/// The ply cap for a match under `rules` when none is asked for: none (0) when the rules have a
/// no-capture limit, for then the rules end every game by themselves (after at most 16 × that
/// limit plies: a capture restarts the count, and 15 captures wipe a side out), and
/// [`FALLBACK_MAX_PLIES`] when they have not (`draw_plies=0`), so that two engines that never
/// capture cannot play for ever. A cap below the rules' own end draws games the rules would
/// still decide: against its own `Level 9` at 100 ms per move, the full engine won 10 of the 16
/// games that went past 400 plies (doc/strength.md).
pub fn default_max_plies(rules: &Rules) -> usize {
    if rules.draw_plies > 0 {
        0
    } else {
        FALLBACK_MAX_PLIES
    }
}

/// The ply cap of [`default_max_plies`] under rules without a no-capture limit.
pub const FALLBACK_MAX_PLIES: usize = 1000;

fn score_of(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Reads an opening suite: one opening a line, moves from the start position separated by spaces
/// (`g3g4 a7a6 …`, any notation `MoveText` reads); `#` starts a comment. Every line is checked
/// against `rules`.
pub fn load_openings(path: &Path, rules: Rules) -> Result<Vec<Vec<String>>, MatchError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| MatchError::Openings(format!("{}: {e}", path.display())))?;
    parse_openings(&text, rules)
}

/// Parses and checks the text of an opening suite (see [`load_openings`]).
pub fn parse_openings(text: &str, rules: Rules) -> Result<Vec<Vec<String>>, MatchError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let mut game = Game::new(rules);
        let mut moves = Vec::new();
        for tok in line.split_whitespace() {
            let m = tok
                .parse::<MoveText>()
                .map_err(|e| e.to_string())
                .and_then(|t| t.to_move(game.position()).map_err(|e| e.to_string()))
                .and_then(|m| game.play(m).map(|_| m).map_err(|e| e.to_string()))
                .map_err(|e| MatchError::Openings(format!("line {}: {e}", i + 1)))?;
            moves.push(m.to_string());
        }
        if game.outcome().is_some() {
            return Err(MatchError::Openings(format!(
                "line {}: the game is already over",
                i + 1
            )));
        }
        out.push(moves);
    }
    if out.is_empty() {
        return Err(MatchError::Openings("no openings".into()));
    }
    Ok(out)
}

/// Why talking to an engine failed.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Failure {
    Timeout,
    Crash,
}

/// A running engine process.
struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Process {
    fn start(spec: &EngineSpec) -> Result<Process, String> {
        let mut child = Command::new(&spec.command[0])
            .args(&spec.command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start `{}`: {e}", spec.command.join(" ")))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut p = Process {
            child,
            stdin,
            lines: rx,
        };
        p.send("uci")
            .map_err(|_| "it closed its input".to_string())?;
        p.expect("uciok", Duration::from_secs(10))
            .map_err(|f| format!("no `uciok` ({f:?})"))?;
        for (k, v) in &spec.options {
            p.send(&format!("setoption name {k} value {v}"))
                .and_then(|()| p.send("isready"))
                .map_err(|_| "it closed its input".to_string())?;
            // An engine that refuses an option says so (`info string error: …`) before it
            // answers the `isready` behind it.
            let before = p
                .read_until("readyok", Duration::from_secs(10))
                .map_err(|f| format!("no `readyok` after the option `{k}={v}` ({f:?})"))?;
            if let Some(why) = before
                .iter()
                .find_map(|l| l.trim().strip_prefix("info string error:"))
            {
                return Err(format!("it refused the option `{k}={v}`: {}", why.trim()));
            }
        }
        p.send("isready")
            .map_err(|_| "it closed its input".to_string())?;
        p.expect("readyok", Duration::from_secs(10))
            .map_err(|f| format!("no `readyok` ({f:?})"))?;
        Ok(p)
    }

    fn send(&mut self, line: &str) -> Result<(), Failure> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|_| Failure::Crash)
    }

    /// Reads lines until one starts with `word`; returns it.
    fn expect(&mut self, word: &str, timeout: Duration) -> Result<String, Failure> {
        self.read_lines(word, timeout, |_| {})
    }

    /// Reads lines until one starts with `word`; returns the lines before it.
    fn read_until(&mut self, word: &str, timeout: Duration) -> Result<Vec<String>, Failure> {
        let mut before = Vec::new();
        self.read_lines(word, timeout, |l| before.push(l))?;
        Ok(before)
    }

    /// Reads lines until one starts with `word` and returns it, handing the others to `other`.
    fn read_lines(
        &mut self,
        word: &str,
        timeout: Duration,
        mut other: impl FnMut(String),
    ) -> Result<String, Failure> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => {
                    if l.split_whitespace().next() == Some(word) {
                        return Ok(l);
                    }
                    other(l);
                }
                Err(RecvTimeoutError::Timeout) => return Err(Failure::Timeout),
                Err(RecvTimeoutError::Disconnected) => return Err(Failure::Crash),
            }
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The most games a match plays at once ([`MatchConfig::concurrency`]).
pub const MAX_CONCURRENCY: usize = 64;

/// Plays the match; `on_game` sees every finished game (in finishing order). Returns the tally.
/// Before any game, both engines are started once: one that fails its handshake or answers a
/// `setoption` with `info string error: …` stops the match with a [`MatchError::Engine`].
pub fn run(
    config: &MatchConfig,
    mut on_game: impl FnMut(&GameResult, &Tally) + Send,
) -> Result<Tally, MatchError> {
    if config.openings.is_empty() {
        return Err(MatchError::Openings("no openings".into()));
    }
    if config.games == 0 {
        return Err(MatchError::Config("a match needs at least one game".into()));
    }
    if !(1..=MAX_CONCURRENCY).contains(&config.concurrency) {
        return Err(MatchError::Config(format!(
            "games at once must be from 1 to {MAX_CONCURRENCY}, not {}",
            config.concurrency
        )));
    }
    // Check both engines start before scheduling games.
    for spec in &config.engines {
        Process::start(spec).map_err(|e| MatchError::Engine(spec.name.clone(), e))?;
    }
    let games = config.games.div_ceil(2) * 2;
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    // The tally, the callback and the games seen (Red's engine and the moves).
    let state = Mutex::new((
        Tally::default(),
        &mut on_game,
        HashSet::<(usize, String)>::new(),
    ));
    std::thread::scope(|scope| {
        for _ in 0..config.concurrency {
            scope.spawn(|| {
                let mut procs: [Option<Process>; 2] = [None, None];
                loop {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= games {
                        break;
                    }
                    let result = play_game(config, i, &mut procs);
                    let mut st = state.lock().unwrap_or_else(|e| e.into_inner());
                    let t = &mut st.0;
                    match result.score {
                        GameScore::Win => t.wins += 1,
                        GameScore::Draw => t.draws += 1,
                        GameScore::Loss => t.losses += 1,
                    }
                    if result.forfeit.is_some() {
                        if result.score == GameScore::Loss {
                            t.forfeits_first += 1;
                        } else {
                            t.forfeits_second += 1;
                        }
                    }
                    let moves: Vec<String> =
                        result.record.moves.iter().map(|m| m.to_string()).collect();
                    if !st.2.insert((result.red, moves.join(" "))) {
                        st.0.repeats += 1;
                    }
                    let tally = st.0;
                    (st.1)(&result, &tally);
                    if let Some(sprt) = &config.sprt {
                        if sprt.verdict(tally.llr(sprt)).is_some() {
                            stop.store(true, Ordering::Relaxed);
                        }
                    }
                }
            });
        }
    });
    let tally = state.into_inner().unwrap_or_else(|e| e.into_inner()).0;
    Ok(tally)
}

/// One engine's clock in a match under [`TimeControl::Clock`]: the time left, in nanoseconds,
/// below zero once the engine has used more than its base time and increments (its overruns
/// add up; only one margin, [`MatchConfig::timeout_margin`], is granted over the whole game).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct MatchClock {
    left: i128,
}

impl MatchClock {
    fn new(base: Duration) -> MatchClock {
        MatchClock {
            left: base.as_nanos() as i128,
        }
    }

    /// The time the engine is told it has left: none while the clock is below zero.
    fn shown(&self) -> Duration {
        Duration::from_nanos(self.left.clamp(0, i128::from(u64::MAX)) as u64)
    }

    /// How long the engine may think over this move before it loses on time: the time left
    /// plus the margin (less what earlier overruns took of the margin).
    fn allowed(&self, margin: Duration) -> Duration {
        let ns = (self.left + margin.as_nanos() as i128).clamp(0, i128::from(u64::MAX));
        Duration::from_nanos(ns as u64)
    }

    /// Charges a move that took `spent`, then adds the increment; false when the engine's use
    /// has gone beyond its base time, its increments so far and the margin: it lost on time.
    fn charge(&mut self, spent: Duration, margin: Duration, increment: Duration) -> bool {
        self.left -= spent.as_nanos() as i128;
        if self.left < -(margin.as_nanos() as i128) {
            return false;
        }
        self.left += increment.as_nanos() as i128;
        true
    }
}

fn play_game(config: &MatchConfig, index: usize, procs: &mut [Option<Process>; 2]) -> GameResult {
    let opening = &config.openings[(index / 2) % config.openings.len()];
    // Engine 0 has Red in even games, Blue in odd ones.
    let red = index % 2;
    let engine_of = |c: Color| match c {
        Color::Red => red,
        Color::Blue => 1 - red,
    };
    let mut game = Game::new(config.rules);
    for m in opening {
        let mv = m
            .parse::<MoveText>()
            .ok()
            .and_then(|t| t.to_move(game.position()).ok());
        match mv {
            Some(mv) if game.play(mv).is_ok() => {}
            _ => break, // checked when loaded
        }
    }
    // Signed, so that overruns within the margin add up instead of being forgiven move by move.
    let mut clocks = match config.time_control {
        TimeControl::Clock { base, .. } => [MatchClock::new(base); 2],
        _ => [MatchClock::new(Duration::ZERO); 2],
    };
    let mut moves: Vec<String> = game.moves().map(|m| m.to_string()).collect();
    for (e, p) in procs.iter_mut().enumerate() {
        let alive = p.as_mut().is_some_and(|p| {
            p.send("ucinewgame").is_ok()
                && p.send("isready").is_ok()
                && p.expect("readyok", Duration::from_secs(10)).is_ok()
        });
        if !alive {
            *p = Process::start(&config.engines[e]).ok();
        }
    }
    let finish = |game: &Game, winner: Option<usize>, reason: String, forfeit: Option<String>| {
        let names = [&config.engines[red].name, &config.engines[1 - red].name];
        let mut record = GameRecord::from_game(
            game,
            &[
                ("Event", "jungle match"),
                ("Round", &(index + 1).to_string()),
                ("Red", names[0]),
                ("Blue", names[1]),
            ],
        );
        let result = match winner {
            Some(e) if e == red => "1-0",
            Some(_) => "0-1",
            None => "1/2-1/2",
        };
        record.set_tag("Result", result);
        record.result = result.to_string();
        record.set_tag("Termination", reason.clone());
        GameResult {
            index,
            red,
            score: match winner {
                Some(0) => GameScore::Win,
                Some(_) => GameScore::Loss,
                None => GameScore::Draw,
            },
            reason,
            forfeit,
            record,
        }
    };
    loop {
        if let Some(o) = game.outcome() {
            let winner = o.winner.map(engine_of);
            return finish(&game, winner, o.termination.as_str().to_string(), None);
        }
        if config.max_plies > 0 && game.len() >= config.max_plies {
            return finish(&game, None, "max plies".into(), None);
        }
        let turn = game.position().turn();
        let e = engine_of(turn);
        let name = config.engines[e].name.clone();
        let Some(p) = procs[e].as_mut() else {
            let why = format!("{name} crashed (could not restart)");
            return finish(&game, Some(1 - e), why.clone(), Some(why));
        };
        let position = if moves.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        // `allowed`: how long to wait for `bestmove`, the margin included.
        let (go, allowed) = match config.time_control {
            TimeControl::MoveTime(t) => (
                format!("go movetime {}", t.as_millis()),
                t + config.timeout_margin,
            ),
            TimeControl::Clock { increment, .. } => (
                format!(
                    "go wtime {} btime {} winc {} binc {}",
                    clocks[0].shown().as_millis(),
                    clocks[1].shown().as_millis(),
                    increment.as_millis(),
                    increment.as_millis()
                ),
                clocks[turn.index()].allowed(config.timeout_margin),
            ),
            TimeControl::Depth(d) => (
                format!("go depth {d}"),
                Duration::from_secs(60) + config.timeout_margin,
            ),
            TimeControl::Nodes(n) => (
                format!("go nodes {}", config.engines[e].nodes.unwrap_or(n)),
                Duration::from_secs(60) + config.timeout_margin,
            ),
        };
        let started = Instant::now();
        let reply = p
            .send(&position)
            .and_then(|_| p.send(&go))
            .and_then(|_| p.expect("bestmove", allowed));
        let spent = started.elapsed();
        let line = match reply {
            Ok(l) => l,
            Err(f) => {
                let why = match f {
                    Failure::Timeout => format!("{name} timed out"),
                    Failure::Crash => format!("{name} crashed"),
                };
                procs[e] = None;
                return finish(&game, Some(1 - e), why.clone(), Some(why));
            }
        };
        if let TimeControl::Clock { increment, .. } = config.time_control {
            let c = &mut clocks[turn.index()];
            if !c.charge(spent, config.timeout_margin, increment) {
                let why = format!("{name} lost on time");
                return finish(&game, Some(1 - e), why.clone(), Some(why));
            }
        }
        let text = line.split_whitespace().nth(1).unwrap_or("");
        let mv = text
            .parse::<MoveText>()
            .map_err(|e| e.to_string())
            .and_then(|t| t.to_move(game.position()).map_err(|e| e.to_string()))
            .and_then(|m| game.play(m).map(|_| m).map_err(|e| e.to_string()));
        match mv {
            Ok(m) => moves.push(m.to_string()),
            Err(err) => {
                let why = format!("{name} played an illegal move `{text}`: {err}");
                return finish(&game, Some(1 - e), why.clone(), Some(why));
            }
        }
    }
}

/// Writes game records to `w`, one after another with a blank line between.
pub fn write_records(w: &mut dyn Write, results: &[GameResult]) -> std::io::Result<()> {
    for r in results {
        writeln!(w, "{}", r.record)?;
        writeln!(w)?;
    }
    Ok(())
}

/// The summary lines of a match.
pub fn summary(config: &MatchConfig, t: &Tally) -> Vec<String> {
    let (elo, lo, hi) = t.elo();
    let mut v = vec![
        format!(
            "Score of {} vs {}: {} - {} - {} (wins - losses - draws) [{:.3}] {}",
            config.engines[0].name,
            config.engines[1].name,
            t.wins,
            t.losses,
            t.draws,
            t.score(),
            t.games()
        ),
        if t.games() > 0 && t.wins == t.games() {
            "Elo difference: +inf (every game won)".to_string()
        } else if t.games() > 0 && t.losses == t.games() {
            "Elo difference: -inf (every game lost)".to_string()
        } else {
            format!("Elo difference: {elo:.1} (95% interval {lo:.1} to {hi:.1})")
        },
        {
            let (_, lo, hi) = t.score_interval();
            format!("Score 95% interval: {lo:.3} to {hi:.3}")
        },
        format!(
            "Forfeits (illegal move, timeout, crash): {} {}, {} {}",
            config.engines[0].name, t.forfeits_first, config.engines[1].name, t.forfeits_second
        ),
    ];
    if t.repeats > 0 {
        v.push(format!(
            "Repeated games: {} of {} repeat an earlier game move for move; the interval counts \
             them as new games, so it is too narrow (play at most two games per opening, or vary \
             the limits)",
            t.repeats,
            t.games()
        ));
    }
    if let Some(s) = &config.sprt {
        let llr = t.llr(s);
        let (a, b) = s.bounds();
        v.push(format!(
            "SPRT elo0={} elo1={} alpha={} beta={}: LLR {llr:.2} ({a:.2}, {b:.2}) {}",
            s.elo0,
            s.elo1,
            s.alpha,
            s.beta,
            s.verdict(llr).unwrap_or("undecided")
        ));
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_rules_without_a_no_capture_limit_get_a_ply_cap() {
        assert_eq!(default_max_plies(&Rules::STANDARD), 0);
        let endless: Rules = "draw_plies=0".parse().unwrap();
        assert_eq!(default_max_plies(&endless), FALLBACK_MAX_PLIES);
        let short: Rules = "draw_plies=50".parse().unwrap();
        assert_eq!(default_max_plies(&short), 0);
    }

    #[test]
    fn elo_of_an_even_score_is_zero_and_the_interval_contains_it() {
        let t = Tally {
            wins: 10,
            draws: 5,
            losses: 10,
            ..Tally::default()
        };
        let (e, lo, hi) = t.elo();
        assert_eq!(format!("{e:.1}"), "0.0");
        assert!(lo < 0.0 && hi > 0.0);
    }

    #[test]
    fn the_score_interval_is_the_normal_one_and_stays_within_0_and_1() {
        let t = Tally {
            wins: 75,
            losses: 25,
            ..Tally::default()
        };
        // Variance (75·0.25² + 25·0.75²) / 100 = 0.1875; half-width 1.96·√(0.1875/100) ≈ 0.0849.
        let (s, lo, hi) = t.score_interval();
        assert!((s - 0.75).abs() < 1e-12);
        assert!(
            (lo - 0.6651).abs() < 1e-3 && (hi - 0.8349).abs() < 1e-3,
            "{lo} {hi}"
        );
        let all = Tally {
            wins: 3,
            ..Tally::default()
        };
        assert_eq!(all.score_interval(), (1.0, 1.0, 1.0));
        let mostly = Tally {
            wins: 9,
            draws: 1,
            ..Tally::default()
        };
        assert!(mostly.score_interval().2 <= 1.0);
    }

    #[test]
    fn a_75_percent_score_is_about_191_elo() {
        let t = Tally {
            wins: 75,
            losses: 25,
            ..Tally::default()
        };
        assert!((t.elo().0 - 190.8).abs() < 0.5);
    }

    #[test]
    fn sprt_accepts_h1_for_a_clear_winner_and_h0_for_a_clear_loser() {
        let s = Sprt::new(0.0, 10.0);
        let win = Tally {
            wins: 600,
            draws: 200,
            losses: 200,
            ..Tally::default()
        };
        assert_eq!(s.verdict(win.llr(&s)), Some("H1 accepted"));
        let lose = Tally {
            wins: 200,
            draws: 200,
            losses: 600,
            ..Tally::default()
        };
        assert_eq!(s.verdict(lose.llr(&s)), Some("H0 accepted"));
        let few = Tally {
            wins: 3,
            draws: 1,
            losses: 2,
            ..Tally::default()
        };
        assert_eq!(s.verdict(few.llr(&s)), None);
    }

    #[test]
    fn openings_are_checked() {
        let ok = parse_openings("g3g4 a7a6 # two plies\n\nRg4 Ra6\n", Rules::STANDARD).unwrap();
        let line = vec!["g3g4".to_string(), "a7a6".to_string()];
        assert_eq!(ok, vec![line.clone(), line]);
        let err = parse_openings("g3g5\n", Rules::STANDARD).unwrap_err();
        assert!(err.to_string().contains("line 1"), "{err}");
    }

    #[test]
    fn overruns_of_the_clock_add_up_and_lose_beyond_one_margin() {
        let ms = Duration::from_millis;
        let margin = ms(200);
        // 1 s + 0: three moves of 400 ms each run over by 200 ms in all, within the margin;
        // the engine is then told it has no time left. A fourth of 1 ms loses.
        let mut c = MatchClock::new(ms(1000));
        assert_eq!(c.allowed(margin), ms(1200));
        for _ in 0..3 {
            assert!(c.charge(ms(400), margin, Duration::ZERO));
        }
        assert_eq!(c.shown(), Duration::ZERO);
        assert_eq!(c.allowed(margin), Duration::ZERO);
        assert!(!c.charge(ms(1), margin, Duration::ZERO));
        // Each move within the time left plus the margin is not enough: 150 ms over on each of
        // two moves loses on the second, though neither alone exceeds the margin.
        let mut c = MatchClock::new(ms(100));
        assert!(c.charge(ms(250), margin, Duration::ZERO));
        assert_eq!(c.allowed(margin), ms(50));
        assert!(!c.charge(ms(250), margin, Duration::ZERO));
        // Increments pay a deficit back; the engine sees the time left once it is positive.
        let mut c = MatchClock::new(ms(100));
        assert!(c.charge(ms(250), margin, ms(100)));
        assert_eq!(c.shown(), Duration::ZERO);
        assert!(c.charge(ms(0), margin, ms(100)));
        assert_eq!(c.shown(), ms(50));
        assert_eq!(c.allowed(margin), ms(250));
        // Exactly the base, the increments and the margin is still in time.
        let mut c = MatchClock::new(ms(100));
        assert!(c.charge(ms(300), margin, Duration::ZERO));
        assert!(!c.charge(Duration::from_nanos(1), margin, Duration::ZERO));
    }

    #[test]
    fn a_match_of_no_games_or_no_workers_is_refused() {
        let spec = EngineSpec::from_command("A", "true").unwrap();
        let config = MatchConfig {
            engines: [spec.clone(), spec],
            games: 0,
            time_control: TimeControl::Depth(1),
            concurrency: 1,
            rules: Rules::STANDARD,
            openings: vec![vec![]],
            max_plies: 0,
            sprt: None,
            timeout_margin: Duration::from_millis(200),
        };
        let err = run(&config, |_, _| {}).unwrap_err();
        assert!(err.to_string().contains("at least one game"), "{err}");
        for concurrency in [0, MAX_CONCURRENCY + 1] {
            let config = MatchConfig {
                games: 2,
                concurrency,
                ..config.clone()
            };
            let err = run(&config, |_, _| {}).unwrap_err();
            assert!(err.to_string().contains("games at once"), "{err}");
        }
    }
}
