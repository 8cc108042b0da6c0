//! `jungle match`: plays two engines that speak the protocol against each other.
//!
//! Games come in colour-swapped pairs from an opening suite; each engine runs as a child process
//! per worker. Games are adjudicated by our own rules (den, wipe-out, no moves, the draw rules)
//! and a ply cap; an illegal move (a pass included), a timeout or a crash loses and is reported,
//! with the last lines the engine wrote on stderr. The summary gives wins/draws/losses, the
//! score, Elo with a 95% interval and, optionally, an SPRT verdict.
//!
//! The runner does not trust the engines' output: lines are read as bytes (decoded lossily),
//! cut at [`MAX_ENGINE_LINE`] bytes, and read only a few ahead, so that an engine writing without
//! end takes bounded memory and loses on time.

use crate::lineio::{quote, read_line_capped, sanitize};
use jungle::{Color, Game, GameRecord, MoveText, Rules};
use std::collections::{HashSet, VecDeque};
use std::io::{BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
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
    /// `setoption` pairs sent after `uci`. The match's own rule set is sent before them (see
    /// [`run`]); a `Rules` option here must name the same rule set.
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
    /// Number of games, 1 to [`MAX_GAMES`] (rounded up to an even number: colour-swapped pairs).
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
    /// Why it ended: the rules' termination (`den`, `wipeout`, …), `max plies`, or the forfeit
    /// (`B played an illegal move …`, `B timed out`, `B lost on time`, `B exited (status 3)`,
    /// `B was killed by signal 9`, each with `; stderr: …` when the engine wrote there).
    pub reason: String,
    /// The forfeit's reason, when the loser forfeited (illegal move, timeout or crash).
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

    /// Whether the games had more than one result (win, draw, loss): only then do they show a
    /// spread, and [`Tally::score_interval`] an interval (with one result throughout, the
    /// normal approximation gives the score alone, `1.000 to 1.000` for all wins).
    pub fn has_spread(&self) -> bool {
        let n = self.games();
        n > 0 && self.wins < n && self.draws < n && self.losses < n
    }

    /// Score of the first engine and its 95% interval `(score, low, high)`, by the normal
    /// approximation over the games' results (each 1, ½ or 0), the interval kept within 0..=1.
    /// It means something only where [`Tally::has_spread`].
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
    /// interval ([`Tally::score_interval`]) in Elo, infinite where the score or a bound is 0 or 1
    /// (a score of 1 is no finite Elo difference).
    pub fn elo(&self) -> (f64, f64, f64) {
        let (s, lo, hi) = self.score_interval();
        (elo_of(s), elo_of(lo), elo_of(hi))
    }

    /// The log-likelihood ratio of H1 against H0 (trinomial normal approximation). Half a game
    /// is added to each of wins, draws and losses first, deliberately: with one result
    /// throughout (all draws after a few games) the sample has no variance, and the ratio would
    /// be infinite or undefined. It moves the ratio a little towards 0 in short matches only.
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

/// The Elo difference of `score`: −∞ at 0, +∞ at 1.
fn elo_of(score: f64) -> f64 {
    let s = score.clamp(0.0, 1.0);
    // `+ 0.0` turns the −0 of an even score into 0 (printed `0.0`, not `-0.0`).
    -400.0 * (1.0 / s - 1.0).log10() + 0.0
}

/// An Elo value as the summary prints it: `190.8`, `-inf`, `+inf`.
fn show_elo(elo: f64) -> String {
    if elo == f64::INFINITY {
        "+inf".into()
    } else if elo == f64::NEG_INFINITY {
        "-inf".into()
    } else {
        format!("{elo:.1}")
    }
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
            let m = play_reply(&mut game, tok).map_err(|e| {
                MatchError::Openings(format!("line {}: move {}: {e}", i + 1, quote(tok)))
            })?;
            moves.push(m);
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

/// The longest line read from an engine, in bytes. The rest of a longer line is read and dropped
/// (the line counts, cut to this length), so an engine that writes without end takes no more
/// memory; it loses on time if no `bestmove` follows.
pub const MAX_ENGINE_LINE: usize = 64 * 1024;
/// Lines read from an engine ahead of the runner: a reader that gets further ahead waits, and so
/// does the engine (its pipe fills), so that an engine flooding its output takes bounded memory.
const LINE_QUEUE: usize = 64;
/// The lines of an engine's stderr kept for the reports of its failures, and their length kept.
const STDERR_LINES: usize = 4;
const STDERR_CHARS: usize = 200;
/// How long an engine has to answer `uci`, `isready` and each option at the handshake.
const HANDSHAKE: Duration = Duration::from_secs(10);

/// Why talking to an engine failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Failure {
    /// No answer in time.
    Timeout,
    /// Its output or input closed (it exited, crashed, or closed its pipes).
    Closed,
}

/// The last lines an engine wrote on stderr, for reports of its failures.
#[derive(Debug, Default)]
struct StderrTail {
    lines: Mutex<VecDeque<String>>,
    /// Set when its stderr has closed (every line is in).
    done: AtomicBool,
}

/// A running engine process, in a process group of its own (on Unix), so that whatever it
/// starts (a wrapper script's engine, a `sleep`) is killed with it.
struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    stderr: Arc<StderrTail>,
}

impl Process {
    /// Starts the engine and does the handshake: `uci`, the options (each followed by
    /// `isready`), `isready`. An error says what went wrong, with the end of its stderr.
    fn start(spec: &EngineSpec) -> Result<Process, String> {
        let mut command = Command::new(&spec.command[0]);
        command
            .args(&spec.command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            command.process_group(0);
        }
        let mut child = command
            .spawn()
            .map_err(|e| format!("cannot start `{}`: {e}", spec.command.join(" ")))?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            let _ = child.wait();
            return Err("no pipes to the engine".into());
        };
        let (tx, rx) = mpsc::sync_channel(LINE_QUEUE);
        std::thread::spawn(move || {
            // Bytes, decoded lossily: a line that is not UTF-8 (an `info string` in GBK) is a
            // line like any other, not the end of the engine's output.
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            while let Ok(Some(_)) = read_line_capped(&mut reader, &mut buf, MAX_ENGINE_LINE) {
                // Fails once the process is dropped: the thread ends.
                if tx.send(String::from_utf8_lossy(&buf).into_owned()).is_err() {
                    break;
                }
            }
        });
        let tail = Arc::new(StderrTail::default());
        let keep = Arc::clone(&tail);
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stderr);
            let mut buf = Vec::new();
            while let Ok(Some(_)) = read_line_capped(&mut reader, &mut buf, MAX_ENGINE_LINE) {
                let line = String::from_utf8_lossy(&buf);
                let line = line.trim();
                if line.is_empty() {
                    continue;
                }
                let mut lines = keep.lines.lock().unwrap_or_else(|e| e.into_inner());
                if lines.len() == STDERR_LINES {
                    lines.pop_front();
                }
                lines.push_back(sanitize(line, STDERR_CHARS));
            }
            keep.done.store(true, Ordering::Release);
        });
        let mut p = Process {
            child,
            stdin,
            lines: rx,
            stderr: tail,
        };
        // On an error `p` is dropped, which ends the process.
        p.handshake(spec)?;
        Ok(p)
    }

    fn handshake(&mut self, spec: &EngineSpec) -> Result<(), String> {
        self.send("uci")
            .and_then(|()| self.expect("uciok", HANDSHAKE))
            .map_err(|f| self.no_answer(f, "`uciok`", HANDSHAKE))?;
        for (k, v) in &spec.options {
            // An engine that refuses an option says so (`info string error: …`) before it
            // answers the `isready` behind it.
            let refusal = self
                .send(&format!("setoption name {k} value {v}"))
                .and_then(|()| self.send("isready"))
                .and_then(|()| self.first_error_before("readyok", HANDSHAKE))
                .map_err(|f| {
                    let what = format!("`readyok` after the option `{k}={v}`");
                    self.no_answer(f, &what, HANDSHAKE)
                })?;
            if let Some(why) = refusal {
                return Err(format!("it refused the option `{k}={v}`: {why}"));
            }
        }
        self.send("isready")
            .and_then(|()| self.expect("readyok", HANDSHAKE))
            .map_err(|f| self.no_answer(f, "`readyok`", HANDSHAKE))
            .map(|_| ())
    }

    fn send(&mut self, line: &str) -> Result<(), Failure> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|_| Failure::Closed)
    }

    /// Reads lines until one starts with `word`; returns it.
    fn expect(&mut self, word: &str, timeout: Duration) -> Result<String, Failure> {
        self.read_lines(word, timeout, |_| {})
    }

    /// Reads lines until one starts with `word`; returns the message of the first
    /// `info string error: …` before it, if any (only that is kept of what comes before).
    fn first_error_before(
        &mut self,
        word: &str,
        timeout: Duration,
    ) -> Result<Option<String>, Failure> {
        let mut error = None;
        self.read_lines(word, timeout, |l| {
            if error.is_none() {
                if let Some(why) = l.trim().strip_prefix("info string error:") {
                    error = Some(sanitize(why.trim(), 300));
                }
            }
        })?;
        Ok(error)
    }

    /// Reads lines until one starts with `word` and returns it, handing the others to `other`.
    /// The time is checked before every line, so an engine that writes without pause still
    /// times out.
    fn read_lines(
        &mut self,
        word: &str,
        timeout: Duration,
        mut other: impl FnMut(String),
    ) -> Result<String, Failure> {
        // No deadline beyond what `Instant` can hold (a `--movetime` of 500 million years).
        let deadline = Instant::now().checked_add(timeout);
        loop {
            let line = match deadline {
                Some(deadline) => {
                    let left = deadline.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        return Err(Failure::Timeout);
                    }
                    match self.lines.recv_timeout(left) {
                        Ok(l) => l,
                        Err(RecvTimeoutError::Timeout) => return Err(Failure::Timeout),
                        Err(RecvTimeoutError::Disconnected) => return Err(Failure::Closed),
                    }
                }
                None => self.lines.recv().map_err(|_| Failure::Closed)?,
            };
            if line.split_whitespace().next() == Some(word) {
                return Ok(line);
            }
            other(line);
        }
    }

    /// What became of an engine whose pipes closed: `exited (status 3)`, `was killed by signal
    /// 9`, or, when it is still running a second later, `closed its output`; and whether it has
    /// ended.
    fn end_state(&mut self) -> (String, bool) {
        let deadline = Instant::now() + Duration::from_secs(1);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    if let Some(code) = status.code() {
                        return (format!("exited (status {code})"), true);
                    }
                    #[cfg(unix)]
                    {
                        use std::os::unix::process::ExitStatusExt;
                        if let Some(signal) = status.signal() {
                            return (format!("was killed by signal {signal}"), true);
                        }
                    }
                    return ("exited".into(), true);
                }
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(5));
                }
                _ => return ("closed its output".into(), false),
            }
        }
    }

    /// `; stderr: <line> | <line>`: the last lines of its stderr, or nothing when it wrote none.
    /// For an engine that has `ended`, the lines it wrote last are waited for a little.
    fn stderr_note(&self, ended: bool) -> String {
        if ended {
            let deadline = Instant::now() + Duration::from_millis(200);
            while !self.stderr.done.load(Ordering::Acquire) && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(5));
            }
        }
        let lines = self.stderr.lines.lock().unwrap_or_else(|e| e.into_inner());
        if lines.is_empty() {
            String::new()
        } else {
            let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
            format!("; stderr: {}", lines.join(" | "))
        }
    }

    /// The report of a failed handshake step: `no <what> within 10 s` or `no <what>: it exited
    /// (status 2)`, with the end of its stderr.
    fn no_answer(&mut self, f: Failure, what: &str, timeout: Duration) -> String {
        let (state, ended) = match f {
            Failure::Timeout => (format!("no {what} within {}", seconds(timeout)), false),
            Failure::Closed => {
                let (state, ended) = self.end_state();
                (format!("no {what}: it {state}"), ended)
            }
        };
        format!("{state}{}", self.stderr_note(ended))
    }

    /// The reason of a forfeit by the engine named `name` for `f`, with the end of its stderr.
    fn forfeit(&mut self, name: &str, f: Failure) -> String {
        let (state, ended) = match f {
            Failure::Timeout => ("timed out".to_string(), false),
            Failure::Closed => self.end_state(),
        };
        format!("{name} {state}{}", self.stderr_note(ended))
    }
}

/// `10 s`, `1.5 s`.
fn seconds(d: Duration) -> String {
    format!("{} s", d.as_secs_f64())
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let deadline = Instant::now() + Duration::from_millis(500);
        let mut ended = false;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                ended = true;
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        // Whatever it started goes too (a wrapper script's engine, a `sleep`), so that nothing
        // outlives the match or keeps its pipes, and the reader threads end.
        kill_group(&self.child);
        if !ended {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Kills the process group that `child` leads (it was started in one of its own).
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
fn kill_group(child: &Child) {
    let Ok(pgid) = libc::pid_t::try_from(child.id()) else {
        return;
    };
    if pgid > 1 {
        // SAFETY: kill(2) only sends a signal to the processes of the group `pgid`, which the
        // engine leads (`process_group(0)` at its start); no memory of ours is involved.
        unsafe {
            libc::kill(-pgid, libc::SIGKILL);
        }
    }
}

/// Elsewhere only the engine itself is killed.
#[cfg(not(target_os = "linux"))]
fn kill_group(_child: &Child) {}

/// The most games a match plays at once ([`MatchConfig::concurrency`]).
pub const MAX_CONCURRENCY: usize = 64;

/// The most games a match plays ([`MatchConfig::games`]): a million games of a millisecond a
/// move would take years.
pub const MAX_GAMES: usize = 1_000_000;

/// The engines as the match starts them: each is told the match's rule set first, before its
/// other options (`setoption name Rules value <rules>`), since the games are judged by it. The
/// standard rules are every engine's default and are not sent, unless an option asks for them.
/// An engine option `Rules` (any case) that names another rule set than the match's is an
/// error: it would have the engine play by rules the games are not judged by.
fn engine_specs(config: &MatchConfig) -> Result<[EngineSpec; 2], MatchError> {
    let mut specs = config.engines.clone();
    for spec in &mut specs {
        let mut asked = false;
        for (k, v) in &spec.options {
            if !k.eq_ignore_ascii_case("rules") {
                continue;
            }
            asked = true;
            if v.parse::<Rules>().ok() != Some(config.rules) {
                return Err(MatchError::Config(format!(
                    "engine `{}`: its option `{k}={v}` is not the match's rule set `{}`, by \
                     which the games are judged; the match sends its rule set to both engines \
                     itself, so leave the option out",
                    spec.name, config.rules
                )));
            }
        }
        spec.options
            .retain(|(k, _)| !k.eq_ignore_ascii_case("rules"));
        if asked || config.rules != Rules::STANDARD {
            spec.options
                .insert(0, ("Rules".to_string(), config.rules.to_string()));
        }
    }
    Ok(specs)
}

/// Plays the match; `on_game` sees every finished game (in finishing order). Returns the tally.
/// Each engine is told the match's rule set before its options (`setoption name Rules value
/// …`, except for the standard rules, every engine's default); an engine option `Rules` naming
/// another rule set is a [`MatchError::Config`]. Before any game, both engines are started once:
/// one that fails its handshake or answers a `setoption` with `info string error: …` stops the
/// match with a [`MatchError::Engine`] that says what happened (`no `uciok`: it exited (status
/// 2); stderr: …`).
pub fn run(
    config: &MatchConfig,
    mut on_game: impl FnMut(&GameResult, &Tally) + Send,
) -> Result<Tally, MatchError> {
    let specs = check(config)?;
    // Check both engines start before scheduling games.
    for spec in &specs {
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
                    let result = play_game(config, &specs, i, &mut procs);
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

/// The checks [`run`] makes of `config` before it starts anything (the openings, the number of
/// games and of games at once, the engines' `Rules` options), for a caller that does other work
/// first; returns the engines as the match starts them.
pub fn check(config: &MatchConfig) -> Result<[EngineSpec; 2], MatchError> {
    if config.openings.is_empty() {
        return Err(MatchError::Openings("no openings".into()));
    }
    if config.games == 0 {
        return Err(MatchError::Config("a match needs at least one game".into()));
    }
    if config.games > MAX_GAMES {
        return Err(MatchError::Config(format!(
            "a match has at most {MAX_GAMES} games, not {}",
            config.games
        )));
    }
    if !(1..=MAX_CONCURRENCY).contains(&config.concurrency) {
        return Err(MatchError::Config(format!(
            "games at once must be from 1 to {MAX_CONCURRENCY}, not {}",
            config.concurrency
        )));
    }
    engine_specs(config)
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

/// Plays game `index` with the engines started from `specs` (see [`engine_specs`]); `procs`
/// holds a worker's engine processes from game to game (one that failed is restarted).
fn play_game(
    config: &MatchConfig,
    specs: &[EngineSpec; 2],
    index: usize,
    procs: &mut [Option<Process>; 2],
) -> GameResult {
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
    // Why an engine could not be restarted for this game.
    let mut lost: [Option<String>; 2] = [None, None];
    for (e, p) in procs.iter_mut().enumerate() {
        let alive = p.as_mut().is_some_and(|p| {
            p.send("ucinewgame").is_ok()
                && p.send("isready").is_ok()
                && p.expect("readyok", HANDSHAKE).is_ok()
        });
        if !alive {
            // The old process (if any) ends before the new one starts.
            *p = None;
            *p = Process::start(&specs[e])
                .map_err(|why| lost[e] = Some(why))
                .ok();
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
            let why = match &lost[e] {
                Some(cause) => format!("{name} could not be restarted: {cause}"),
                None => format!("{name} could not be restarted"),
            };
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
                let why = p.forfeit(&name, f);
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
        match play_reply(&mut game, text) {
            Ok(m) => moves.push(m),
            Err(err) => {
                let why = format!("{name} played an illegal move {}: {err}", quote(text));
                return finish(&game, Some(1 - e), why.clone(), Some(why));
            }
        }
    }
}

/// Plays the move `text` of an engine's `bestmove` in `game`: the move in coordinates, or the
/// bare reason why it is not one. A pass (`--`) is no move in play (RULES §4: it exists only as
/// an online timeout penalty), and `(none)` none at all: the game is not over.
fn play_reply(game: &mut Game, text: &str) -> Result<String, String> {
    let t = text
        .parse::<MoveText>()
        .map_err(|e| format!("it cannot be read: {}", e.message))?;
    let m = t.to_move(game.position()).map_err(|e| e.reason)?;
    if m.is_pass() {
        return Err("a pass is not a move in play (RULES §4)".into());
    }
    game.play(m).map_err(|e| e.reason)?;
    Ok(m.to_string())
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
        if t.games() == 0 {
            "Elo difference: none (no games)".to_string()
        } else if t.wins == t.games() {
            "Elo difference: +inf (every game won; no interval from one result)".to_string()
        } else if t.losses == t.games() {
            "Elo difference: -inf (every game lost; no interval from one result)".to_string()
        } else if t.draws == t.games() {
            "Elo difference: 0.0 (every game drawn; no interval from one result)".to_string()
        } else {
            // A bound at a score of 0 or 1 is an infinite Elo difference, and says so.
            format!(
                "Elo difference: {} (95% interval {} to {})",
                show_elo(elo),
                show_elo(lo),
                show_elo(hi)
            )
        },
        if t.has_spread() {
            let (_, lo, hi) = t.score_interval();
            format!("Score 95% interval: {lo:.3} to {hi:.3}")
        } else {
            "Score 95% interval: none (every game had the same result)".to_string()
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
        assert!(!all.has_spread());
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

    fn config_with(sprt: Option<Sprt>) -> MatchConfig {
        let spec = EngineSpec::from_command("A", "true").unwrap();
        MatchConfig {
            engines: [
                spec.clone(),
                EngineSpec {
                    name: "B".into(),
                    ..spec
                },
            ],
            games: 2,
            time_control: TimeControl::Depth(1),
            concurrency: 1,
            rules: Rules::STANDARD,
            openings: vec![vec![]],
            max_plies: 0,
            sprt,
            timeout_margin: Duration::from_millis(200),
        }
    }

    fn tally(wins: u32, losses: u32, draws: u32) -> Tally {
        Tally {
            wins,
            losses,
            draws,
            ..Tally::default()
        }
    }

    #[test]
    fn the_summary_of_a_9_3_0_match() {
        // The numbers of a real 9-3-0 match, unchanged since the summary first printed them.
        let config = config_with(Some(Sprt::new(0.0, 50.0)));
        assert_eq!(
            summary(&config, &tally(9, 3, 0)),
            [
                "Score of A vs B: 9 - 3 - 0 (wins - losses - draws) [0.750] 12",
                "Elo difference: 190.8 (95% interval 3.5 to 919.4)",
                "Score 95% interval: 0.505 to 0.995",
                "Forfeits (illegal move, timeout, crash): A 0, B 0",
                "SPRT elo0=0 elo1=50 alpha=0.05 beta=0.05: LLR 0.94 (-2.94, 2.94) undecided",
            ]
        );
    }

    #[test]
    fn a_summary_without_an_interval_says_so() {
        let config = config_with(None);
        let lines = |t: Tally| summary(&config, &t)[1..3].to_vec();
        let none = "Score 95% interval: none (every game had the same result)";
        assert_eq!(
            lines(tally(4, 0, 0)),
            [
                "Elo difference: +inf (every game won; no interval from one result)",
                none
            ]
        );
        assert_eq!(
            lines(tally(0, 4, 0)),
            [
                "Elo difference: -inf (every game lost; no interval from one result)",
                none
            ]
        );
        assert_eq!(
            lines(tally(0, 0, 6)),
            [
                "Elo difference: 0.0 (every game drawn; no interval from one result)",
                none
            ]
        );
        // A score interval that reaches 0 or 1 is an infinite Elo bound, not ±2400 from a clamp.
        assert_eq!(
            lines(tally(1, 1, 0)),
            [
                "Elo difference: 0.0 (95% interval -inf to +inf)",
                "Score 95% interval: 0.000 to 1.000"
            ]
        );
        assert_eq!(
            lines(tally(9, 0, 1))[0],
            "Elo difference: 511.5 (95% interval 311.1 to +inf)"
        );
        assert_eq!(
            summary(&config, &Tally::default())[1],
            "Elo difference: none (no games)"
        );
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
        // A pass is no move in play (RULES §4), in an opening as in a game.
        let err = parse_openings("g3g4 --\n", Rules::STANDARD).unwrap_err();
        assert_eq!(
            err.to_string(),
            "opening suite: line 1: move `--`: a pass is not a move in play (RULES §4)"
        );
    }

    #[test]
    fn the_rules_go_to_the_engines_first_and_another_rule_set_is_refused() {
        let pairs = |v: &[(&str, &str)]| -> Vec<(String, String)> {
            v.iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        };
        let mut config = config_with(None);
        // The standard rules are every engine's default: nothing is sent.
        let specs = engine_specs(&config).unwrap();
        assert!(specs.iter().all(|s| s.options.is_empty()));
        config.rules = "no_rivers".parse().unwrap();
        config.engines[0].options = pairs(&[("Hash", "8")]);
        // The same rule set, spelt otherwise, is taken (and sent once, in its normal form).
        config.engines[1].options = pairs(&[("rules", "NO_RIVERS,no_rivers"), ("Level", "3")]);
        let specs = engine_specs(&config).unwrap();
        assert_eq!(
            specs[0].options,
            pairs(&[("Rules", "no_rivers"), ("Hash", "8")])
        );
        assert_eq!(
            specs[1].options,
            pairs(&[("Rules", "no_rivers"), ("Level", "3")])
        );
        config.engines[1].options = pairs(&[("Rules", "standard")]);
        let err = engine_specs(&config).unwrap_err().to_string();
        assert!(
            err.starts_with(
                "engine `B`: its option `Rules=standard` is not the match's rule set `no_rivers`"
            ),
            "{err}"
        );
        // An explicit `Rules=standard` under the standard rules is sent as asked.
        config.rules = Rules::STANDARD;
        let specs = engine_specs(&config).unwrap();
        assert_eq!(specs[1].options, pairs(&[("Rules", "standard")]));
    }

    #[test]
    fn a_reply_is_a_move_in_play() {
        let mut game = Game::new(Rules::STANDARD);
        assert_eq!(play_reply(&mut game, "Rg4"), Ok("g3g4".to_string()));
        assert_eq!(
            play_reply(&mut game, "--"),
            Err("a pass is not a move in play (RULES §4)".to_string())
        );
        assert!(play_reply(&mut game, "(none)")
            .unwrap_err()
            .starts_with("it cannot be read: "));
        assert_eq!(
            play_reply(&mut game, "a1a9"),
            Err("the tiger on a1 is red's, and it is blue's turn".to_string())
        );
        // Nothing was played but the first move.
        assert_eq!(game.len(), 1);
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
