//! The engine text protocol (UCI-style), documented in `doc/protocol.md#engine-protocol`.
//!
//! [`run`] reads commands line by line and writes replies; a search runs in the background, so
//! `stop`, `isready` and `quit` are answered while it thinks. A malformed command is answered
//! with `info string error: …` and never ends the session.

use crate::lineio::{quote, read_line_capped, sanitize};
use crate::{eval, Clock, Engine, EngineOptions, Limits, SearchInfo};
use jungle::{perft_divide, Color, Game, Jfen, Move, MoveList, MoveText, Position, Rules};
use std::collections::VecDeque;
use std::io::{self, Write};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The engine's name in `id name`.
pub const NAME: &str = concat!("Jungle ", env!("CARGO_PKG_VERSION"));
/// The deepest `perft` the protocol accepts (deeper counts take minutes).
pub const MAX_PERFT: u32 = 6;
/// The longest input line the engine reads, in bytes (its `\n` not counted). A longer line is
/// read to its end but dropped: the engine answers it with an error naming its length and
/// otherwise ignores it. A `position` of a game of 100 000 plies fits.
pub const MAX_INPUT_LINE: usize = 1 << 20;
/// The longest `info string error: …` line's message, in characters; what it quotes of its input
/// is shorter still (80 characters a word).
const MAX_ERROR_CHARS: usize = 500;

/// `go`'s parameters that take a number, in the order `Session::go` keeps their values.
const GO_NUMBERS: [&str; 8] = [
    "depth",
    "nodes",
    "movetime",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
];
/// `go`'s other parameters (`searchmoves` takes the words up to the next parameter's name).
const GO_WORDS: [&str; 3] = ["infinite", "ponder", "searchmoves"];

/// The move `text` (either notation) names in `game`'s position, or why it names none.
fn read_move(game: &Game, text: &str) -> Result<Move, String> {
    text.parse::<MoveText>()
        .map_err(|e| e.to_string())
        .and_then(|t| t.to_move(game.position()).map_err(|e| e.to_string()))
}

/// Plays the move `text` (either notation, or `--` for a pass) in `game`; else the bare reason
/// why not (not repeating the move: the caller names it as typed).
fn play_typed(game: &mut Game, text: &str) -> Result<(), String> {
    let t = text.parse::<MoveText>().map_err(|e| {
        format!(
            "cannot be read (at character {}): {}",
            e.position + 1,
            e.message
        )
    })?;
    let m = t.to_move(game.position()).map_err(|e| e.reason)?;
    game.play(m).map_err(|e| e.reason)
}

/// A line sink shared between the protocol loop and the search thread.
type Out = Arc<Mutex<Box<dyn Write + Send>>>;

fn say(out: &Out, line: &str) {
    // A closed output cannot be reported anywhere: the session simply ends at the next read.
    let mut w = out.lock().unwrap_or_else(|e| e.into_inner());
    let _ = writeln!(w, "{line}");
    let _ = w.flush();
}

/// The `info …` line of a finished iteration.
pub fn info_line(i: &SearchInfo) -> String {
    let mut s = format!(
        "info depth {} seldepth {}{} score {} nodes {} nps {} hashfull {} time {}",
        i.depth,
        i.seldepth,
        i.multipv.map_or(String::new(), |k| format!(" multipv {k}")),
        i.score,
        i.nodes,
        i.nps,
        i.hashfull,
        i.time.as_millis()
    );
    if !i.pv.is_empty() {
        s.push_str(" pv");
        for m in &i.pv {
            s.push(' ');
            s.push_str(&m.to_string());
        }
    }
    s
}

/// What the protocol loop waits for: a command line, the end of input, or a search that has its
/// answer ready (so that its `bestmove` is written at once, not at the loop's next wake-up).
enum Event {
    /// A command line.
    Line(String),
    /// An input line longer than [`MAX_INPUT_LINE`], of this many bytes: dropped.
    TooLong(usize),
    /// The input ended.
    Closed,
    /// The search numbered so (see `Session::searches`) has its result ready.
    SearchDone(u64),
}

/// Runs the protocol on stdin and stdout until `quit` or the end of input.
pub fn run_stdio() -> io::Result<()> {
    let (tx, rx) = mpsc::channel();
    let lines = tx.clone();
    std::thread::spawn(move || {
        // Bytes, not `lines()`: a line that is not UTF-8 is a malformed command, not the end.
        // At most `MAX_INPUT_LINE` bytes of a line are kept, so an endless line takes no more.
        let stdin = io::stdin();
        let mut input = stdin.lock();
        let mut buf = Vec::new();
        while let Ok(Some(len)) = read_line_capped(&mut input, &mut buf, MAX_INPUT_LINE) {
            let event = if len > MAX_INPUT_LINE {
                Event::TooLong(len)
            } else {
                Event::Line(String::from_utf8_lossy(&buf).into_owned())
            };
            if lines.send(event).is_err() {
                return;
            }
        }
        let _ = lines.send(Event::Closed);
    });
    run_events(tx, rx, Box::new(io::stdout()));
    Ok(())
}

/// Runs the protocol: commands arrive on `input` (the session ends when it closes or on `quit`),
/// replies go to `output`. A line longer than [`MAX_INPUT_LINE`] (a trailing `\n` not counted)
/// is answered with an error and dropped, as on stdin. (A thread passes `input` on to the loop;
/// after `quit` it ends when `input` closes or brings its next line.)
pub fn run(input: mpsc::Receiver<String>, output: Box<dyn Write + Send>) {
    let (tx, rx) = mpsc::channel();
    let lines = tx.clone();
    std::thread::spawn(move || {
        for line in input {
            let len = line.trim_end_matches(['\n', '\r']).len();
            let event = if len > MAX_INPUT_LINE {
                Event::TooLong(len)
            } else {
                Event::Line(line)
            };
            if lines.send(event).is_err() {
                return;
            }
        }
        let _ = lines.send(Event::Closed);
    });
    run_events(tx, rx, output);
}

/// The protocol loop. `events` carries the input (`Line`s, then `Closed`) and, through `tx`, the
/// searches' `SearchDone`s: the loop sleeps until one of them arrives, so a search's `bestmove`
/// is written the moment its result is ready.
fn run_events(
    tx: mpsc::Sender<Event>,
    events: mpsc::Receiver<Event>,
    output: Box<dyn Write + Send>,
) {
    let out: Out = Arc::new(Mutex::new(output));
    let mut session = Session::new(out, tx);
    // Commands that arrive while a search runs wait here until it ends, as a GUI expects; only
    // `stop`, `ponderhit`, `quit` and (with nothing queued) `isready` are answered at once.
    let mut queued: VecDeque<String> = VecDeque::new();
    let mut open = true;
    loop {
        session.finish_search_if_done();
        while !session.engine.has_pending() {
            let Some(line) = queued.pop_front() else {
                break;
            };
            if !session.command(&line) {
                open = false;
                break;
            }
        }
        if !open {
            break;
        }
        // The loop holds a sender itself, so the channel never closes: the input's end is
        // `Closed`.
        let Ok(event) = events.recv() else {
            break;
        };
        match event {
            Event::Line(line) => {
                let word = line.split_whitespace().next().unwrap_or("");
                let busy = session.engine.has_pending() || !queued.is_empty();
                match word {
                    // `quit` ends the session at once, as UCI asks: a running search is stopped
                    // (its `bestmove` is still written) and queued commands are dropped.
                    "quit" => break,
                    "stop" | "ponderhit" => {
                        session.command(&line);
                    }
                    "isready" if queued.is_empty() => {
                        session.command(&line);
                    }
                    _ if busy => queued.push_back(line),
                    _ => {
                        if !session.command(&line) {
                            break;
                        }
                    }
                }
            }
            Event::TooLong(len) => session.error(format!(
                "an input line of {len} bytes is longer than the limit of {MAX_INPUT_LINE} bytes: \
                 ignored"
            )),
            Event::SearchDone(id) => {
                // A search already answered (`stop`) or replaced sends its signal late: only the
                // pending search's counts. Its thread is ending, so `wait` returns at once.
                if session.engine.has_pending() && id == session.searches {
                    session.finish_search();
                }
            }
            Event::Closed => {
                // End of input: finish what was asked, as a piped script expects.
                session.drain(&mut queued);
                break;
            }
        }
    }
    session.engine.stop();
    session.finish_search();
}

struct Session {
    out: Out,
    engine: Engine,
    options: EngineOptions,
    rules: Rules,
    game: Game,
    /// The running search ends only by `stop` (`go infinite`, or a search still pondering).
    infinite: bool,
    /// Whether the running search was `go infinite` (it stays unbounded after `ponderhit`).
    infinite_after_ponder: bool,
    /// The `Ponder` option: `bestmove` names the expected reply (`ponder <move>`).
    ponder_option: bool,
    /// Where a search says that its result is ready (`Event::SearchDone`).
    events: mpsc::Sender<Event>,
    /// The searches started, the last one's number.
    searches: u64,
}

impl Session {
    fn new(out: Out, events: mpsc::Sender<Event>) -> Session {
        let options = EngineOptions::default();
        Session {
            out,
            engine: Engine::new(options),
            options,
            rules: Rules::STANDARD,
            game: Game::new(Rules::STANDARD),
            infinite: false,
            infinite_after_ponder: false,
            ponder_option: false,
            events,
            searches: 0,
        }
    }

    /// Runs the queued commands to the end (an infinite search is stopped, a finite one finishes).
    fn drain(&mut self, queued: &mut VecDeque<String>) {
        loop {
            if self.engine.has_pending() {
                if self.infinite {
                    self.engine.stop();
                }
                self.finish_search();
            }
            let Some(line) = queued.pop_front() else {
                break;
            };
            if !self.command(&line) {
                break;
            }
        }
        if self.engine.has_pending() {
            if self.infinite {
                self.engine.stop();
            }
            self.finish_search();
        }
    }

    /// Writes `info string error: <msg>`, the message shortened and its control characters
    /// escaped (it may quote the input).
    fn error(&self, msg: impl std::fmt::Display) {
        let msg = sanitize(&msg.to_string(), MAX_ERROR_CHARS);
        say(&self.out, &format!("info string error: {msg}"));
    }

    fn finish_search_if_done(&mut self) {
        if self.engine.has_pending() && !self.engine.is_running() {
            self.finish_search();
        }
    }

    fn finish_search(&mut self) {
        if !self.engine.has_pending() {
            return;
        }
        let r = self.engine.wait();
        match (r.best, r.pv.get(1)) {
            (Some(m), Some(reply)) if self.ponder_option && r.pv.first() == Some(&m) => {
                say(&self.out, &format!("bestmove {m} ponder {reply}"))
            }
            (Some(m), _) => say(&self.out, &format!("bestmove {m}")),
            (None, _) => say(&self.out, "bestmove (none)"),
        }
    }

    /// Handles one command line; false on `quit`.
    fn command(&mut self, line: &str) -> bool {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, args)) = tokens.split_first() else {
            return true;
        };
        let busy = self.engine.has_pending();
        match cmd {
            "uci" => {
                say(&self.out, &format!("id name {NAME}"));
                say(&self.out, "id author the Jungle project");
                say(
                    &self.out,
                    "option name Hash type spin default 16 min 1 max 4096",
                );
                say(
                    &self.out,
                    "option name Threads type spin default 1 min 1 max 256",
                );
                say(
                    &self.out,
                    "option name Level type spin default 10 min 1 max 10",
                );
                say(
                    &self.out,
                    &format!(
                        "option name Contempt type spin default {} min -{max} max {max}",
                        crate::DEFAULT_CONTEMPT,
                        max = crate::MAX_CONTEMPT
                    ),
                );
                say(
                    &self.out,
                    &format!(
                        "option name MoveOverhead type spin default {} min 0 max {}",
                        crate::timeman::MOVE_OVERHEAD.as_millis(),
                        crate::MAX_MOVE_OVERHEAD.as_millis()
                    ),
                );
                say(
                    &self.out,
                    &format!(
                        "option name MultiPV type spin default 1 min 1 max {}",
                        crate::MAX_MULTI_PV
                    ),
                );
                say(&self.out, "option name Ponder type check default false");
                say(&self.out, "option name Rules type string default standard");
                say(
                    &self.out,
                    &format!(
                        "option name Weights type string default {}",
                        eval::WEIGHTS.to_csv()
                    ),
                );
                say(&self.out, "uciok");
            }
            "isready" => say(&self.out, "readyok"),
            "quit" => return false,
            "stop" => {
                self.engine.stop();
                self.finish_search();
            }
            "ponderhit" => {
                if self.engine.ponderhit() {
                    self.infinite = self.infinite_after_ponder;
                } else {
                    self.error("`ponderhit` without a pondering search (`go ponder …`)");
                }
            }
            _ if busy => self.error(format!("{} while searching; send `stop` first", quote(cmd))),
            "ucinewgame" => {
                self.engine.new_game();
                self.game = Game::new(self.rules);
            }
            "setoption" => self.setoption(args),
            "position" => self.position(args),
            "go" => self.go(args),
            "d" => {
                let pos = self.game.position();
                for l in pos.to_string().lines() {
                    say(&self.out, l);
                }
                say(&self.out, &format!("jfen {}", Jfen::from_position(pos)));
                say(&self.out, &format!("rules {}", self.rules));
                match self.game.outcome() {
                    Some(o) => say(&self.out, &format!("outcome {} {o}", o.result_str())),
                    None => say(&self.out, "outcome *"),
                }
            }
            "moves" => {
                let moves: Vec<String> = self
                    .game
                    .legal_moves()
                    .iter()
                    .map(|m| m.to_string())
                    .collect();
                say(&self.out, &format!("moves {}", moves.join(" ")));
            }
            "perft" => self.perft(args),
            "eval" => {
                if let Some(o) = self.game.outcome() {
                    say(
                        &self.out,
                        &format!("info string game over: {} {o}", o.result_str()),
                    );
                }
                let pos = self.game.position();
                let e = eval::evaluate_with(pos, &self.options.weights);
                let red = if pos.turn() == Color::Red { e } else { -e };
                say(
                    &self.out,
                    &format!(
                        "info string eval cp {e} (side to move {}), cp {red} for red",
                        pos.turn()
                    ),
                );
            }
            _ => self.error(format!("unknown command {}", quote(cmd))),
        }
        true
    }

    fn setoption(&mut self, args: &[&str]) {
        // setoption name <Name> value <Value…>
        let text = args.join(" ");
        let Some(rest) = text.strip_prefix("name ") else {
            return self.error("expected `setoption name <Name> value <Value>`");
        };
        // `value` with nothing after it (an empty string option, or a slip) is an empty value,
        // not part of the name.
        let (name, value) = match rest.split_once(" value ") {
            Some((n, v)) => (n.trim(), v.trim()),
            None => (rest.strip_suffix(" value").unwrap_or(rest).trim(), ""),
        };
        let number = |v: &str, min: i64, max: i64| -> Result<i64, String> {
            match v.parse::<i64>() {
                Ok(n) if (min..=max).contains(&n) => Ok(n),
                _ => Err(format!(
                    "option `{name}` takes a number from {min} to {max}, not {}",
                    quote(v)
                )),
            }
        };
        let mut o = self.options;
        match name.to_ascii_lowercase().as_str() {
            "hash" => match number(value, 1, crate::MAX_HASH_MB as i64) {
                Ok(n) => o.hash_mb = n as usize,
                Err(e) => return self.error(e),
            },
            "threads" => match number(value, 1, 256) {
                Ok(n) => o.threads = n as usize,
                Err(e) => return self.error(e),
            },
            "level" => match number(value, 1, 10) {
                Ok(n) => o.level = n as u8,
                Err(e) => return self.error(e),
            },
            "contempt" => {
                let max = i64::from(crate::MAX_CONTEMPT);
                match number(value, -max, max) {
                    Ok(n) => o.contempt = n as i32,
                    Err(e) => return self.error(e),
                }
            }
            // Stockfish's spelling, with a space, is taken too.
            "moveoverhead" | "move overhead" => {
                let max = crate::MAX_MOVE_OVERHEAD.as_millis() as i64;
                match number(value, 0, max) {
                    Ok(n) => o.move_overhead = std::time::Duration::from_millis(n as u64),
                    Err(e) => return self.error(e),
                }
            }
            "multipv" => match number(value, 1, crate::MAX_MULTI_PV as i64) {
                Ok(n) => o.multi_pv = n as usize,
                Err(e) => return self.error(e),
            },
            // Read as the rules library reads a rule set everywhere (`jungle match --rules`, the
            // server): deviations in any order and case, one given twice counting once,
            // `standard` alone or among deviations adding none, a later `draw_plies=N` replacing
            // an earlier. `d` shows the rule set in its one normal form.
            "rules" => match value.parse::<Rules>() {
                Ok(r) => {
                    self.rules = r;
                    self.game = Game::new(r);
                }
                Err(e) => return self.error(format!("option `Rules`: {e}")),
            },
            "ponder" => match value.to_ascii_lowercase().as_str() {
                "true" => self.ponder_option = true,
                "false" => self.ponder_option = false,
                _ => {
                    return self.error(format!(
                        "option `Ponder` is `true` or `false`, not {}",
                        quote(value)
                    ))
                }
            },
            "weights" => match value.parse::<eval::Weights>() {
                Ok(w) => o.weights = w,
                Err(e) => return self.error(format!("option `Weights`: {e}")),
            },
            _ => return self.error(format!("unknown option {}", quote(name))),
        }
        self.options = o;
        self.engine.set_options(o);
    }

    fn position(&mut self, args: &[&str]) {
        let moves_at = args.iter().position(|&a| a == "moves");
        let (setup, moves) = match moves_at {
            Some(i) => (&args[..i], &args[i + 1..]),
            None => (args, &args[args.len()..]),
        };
        let start = match setup.split_first() {
            Some((&"startpos", [])) => Position::start(self.rules),
            Some((&"fen", fen)) if !fen.is_empty() => {
                match Jfen::parse_position(&fen.join(" "), self.rules) {
                    Ok(p) => p,
                    Err(e) => return self.error(e),
                }
            }
            _ => return self.error("expected `position startpos|fen <JFEN> [moves …]`"),
        };
        let mut game = Game::from_position(start);
        for (i, text) in moves.iter().enumerate() {
            if let Err(why) = play_typed(&mut game, text) {
                return self.error(format!(
                    "`position`: move {} {}: {why}; the position is unchanged",
                    i + 1,
                    quote(text)
                ));
            }
        }
        self.game = game;
    }

    fn go(&mut self, args: &[&str]) {
        let mut limits = Limits::default();
        // The numbers of `GO_NUMBERS`, as given.
        let mut values: [Option<u64>; 8] = [None; 8];
        let mut i = 0;
        while i < args.len() {
            let key = args[i];
            match key {
                "infinite" | "ponder" => {
                    limits.infinite |= key == "infinite";
                    limits.ponder |= key == "ponder";
                    i += 1;
                    continue;
                }
                "searchmoves" => {
                    let end = args[i + 1..]
                        .iter()
                        .position(|a| GO_NUMBERS.contains(a) || GO_WORDS.contains(a))
                        .map_or(args.len(), |k| i + 1 + k);
                    match self.search_moves(&args[i + 1..end]) {
                        Ok(list) => limits.search_moves = Some(list),
                        Err(e) => return self.error(e),
                    }
                    i = end;
                    continue;
                }
                _ => {}
            }
            let Some(slot) = GO_NUMBERS.iter().position(|&p| p == key) else {
                return self.error(format!("unknown `go` parameter {}", quote(key)));
            };
            let Some(value) = args.get(i + 1) else {
                return self.error(format!("`go {key}` needs a value"));
            };
            let Ok(n) = value.parse::<u64>() else {
                return self.error(format!(
                    "`go {key}` needs a whole number, not {}",
                    quote(value)
                ));
            };
            values[slot] = Some(n);
            i += 2;
        }
        let [depth, nodes, movetime, wtime, btime, winc, binc, movestogo] = values;
        limits.depth = depth.map(|n| n.clamp(1, 1000) as u32);
        limits.nodes = nodes;
        limits.movetime = movetime.map(Duration::from_millis);
        let clocked = [wtime, btime, winc, binc, movestogo]
            .iter()
            .any(Option::is_some);
        let movestogo = movestogo.map(|n| n.min(u64::from(u32::MAX)) as u32);
        let (t, inc) = match self.game.position().turn() {
            Color::Red => (wtime, winc),
            Color::Blue => (btime, binc),
        };
        // Any clock field makes a timed search; the side to move's time, when not given, is 0
        // (a minimal search: it still answers with a legal move).
        if clocked {
            limits.clock = Some(Clock {
                time_left: Duration::from_millis(t.unwrap_or(0)),
                increment: Duration::from_millis(inc.unwrap_or(0)),
                moves_to_go: movestogo,
            });
        }
        // Without a bound (`go`, `go searchmoves …`) the search runs until `stop`.
        if limits.depth.is_none()
            && limits.nodes.is_none()
            && limits.movetime.is_none()
            && limits.clock.is_none()
        {
            limits.infinite = true;
        }
        if let Some(o) = self.game.outcome() {
            say(
                &self.out,
                &format!("info string game over: {} {o}", o.result_str()),
            );
        }
        self.infinite = limits.infinite || limits.ponder;
        self.infinite_after_ponder = limits.infinite;
        let out = Arc::clone(&self.out);
        self.searches += 1;
        let (id, events) = (self.searches, self.events.clone());
        self.engine.go_then(
            &self.game,
            limits,
            Box::new(move |info| say(&out, &info_line(info))),
            Box::new(move || {
                let _ = events.send(Event::SearchDone(id));
            }),
        );
    }

    /// The moves of `go searchmoves`: each must be legal in the current game (§7 included).
    fn search_moves(&self, texts: &[&str]) -> Result<MoveList, String> {
        if texts.is_empty() {
            return Err("`go searchmoves` needs at least one move".into());
        }
        let legal = self.game.legal_moves();
        let mut list = MoveList::new();
        for text in texts {
            let m = read_move(&self.game, text).map_err(|e| format!("`go searchmoves`: {e}"))?;
            if !legal.contains(m) {
                let why = self
                    .game
                    .illegal_reason(m)
                    .unwrap_or_else(|| "a pass is not searched".into());
                return Err(format!(
                    "`go searchmoves`: illegal move {}: {why}",
                    quote(text)
                ));
            }
            if !list.contains(m) {
                list.push(m);
            }
        }
        Ok(list)
    }

    fn perft(&mut self, args: &[&str]) {
        let depth = match args {
            [d] => match d.parse::<u32>() {
                Ok(d) if (1..=MAX_PERFT).contains(&d) => d,
                _ => return self.error(format!("perft takes a depth from 1 to {MAX_PERFT}")),
            },
            _ => return self.error("expected `perft <depth>`"),
        };
        let mut total = 0;
        for (m, n) in perft_divide(self.game.position(), depth) {
            say(&self.out, &format!("{m}: {n}"));
            total += n;
        }
        say(&self.out, &format!("nodes {total}"));
    }
}
