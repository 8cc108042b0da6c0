//! Live sessions of the text protocol: the input stays open, as a GUI's does, so every answer
//! must come by itself (a piped script's end of input would stop an unbounded search and hide
//! a search that never ends).

use jungle::{Game, MoveText, Rules};
use jungle_engine::protocol;
use std::io::{self, Write};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long a test waits for an answer before it fails: far beyond any search here.
const PATIENCE: Duration = Duration::from_secs(30);

/// The engine's output, passed on a line at a time.
struct LineSink {
    buf: Vec<u8>,
    tx: Sender<String>,
}

impl Write for LineSink {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.buf.extend_from_slice(bytes);
        while let Some(i) = self.buf.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.buf.drain(..=i).collect();
            let _ = self
                .tx
                .send(String::from_utf8_lossy(&line[..i]).into_owned());
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A session whose input stays open until [`Live::end`].
struct Live {
    input: Option<Sender<String>>,
    output: Receiver<String>,
    thread: Option<JoinHandle<()>>,
}

impl Live {
    fn start() -> Live {
        let (input, rx) = mpsc::channel();
        let (tx, output) = mpsc::channel();
        let thread = std::thread::spawn(move || {
            protocol::run(
                rx,
                Box::new(LineSink {
                    buf: Vec::new(),
                    tx,
                }),
            )
        });
        Live {
            input: Some(input),
            output,
            thread: Some(thread),
        }
    }

    fn send(&self, line: &str) {
        self.input
            .as_ref()
            .unwrap()
            .send(format!("{line}\n"))
            .unwrap();
    }

    /// The lines up to the first that starts with `prefix` (included).
    fn until(&self, prefix: &str) -> Vec<String> {
        let deadline = Instant::now() + PATIENCE;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.output.recv_timeout(left) {
                Ok(l) => {
                    let done = l.starts_with(prefix);
                    lines.push(l);
                    if done {
                        return lines;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!("no `{prefix}` within {PATIENCE:?}; before it: {lines:#?}")
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("the session ended before `{prefix}`: {lines:#?}")
                }
            }
        }
    }

    /// The lines written within `wait`.
    fn lines_within(&self, wait: Duration) -> Vec<String> {
        let deadline = Instant::now() + wait;
        let mut lines = Vec::new();
        while let Ok(l) = self
            .output
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            lines.push(l);
        }
        lines
    }

    /// Whether the session ends by itself within `wait` (its input still open).
    fn ends_within(&self, wait: Duration) -> bool {
        let deadline = Instant::now() + wait;
        let thread = self.thread.as_ref().unwrap();
        while Instant::now() < deadline {
            if thread.is_finished() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        thread.is_finished()
    }

    /// Closes the input and returns what the session still wrote.
    fn end(mut self) -> Vec<String> {
        self.input = None;
        self.thread
            .take()
            .unwrap()
            .join()
            .expect("the session ends");
        self.output.try_iter().collect()
    }
}

/// Whether `best` (the word after `bestmove`) is legal after `moves` from the start.
fn is_legal_after(moves: &[&str], best: &str) -> bool {
    let mut g = Game::new(Rules::STANDARD);
    for m in moves {
        let mv = m
            .parse::<MoveText>()
            .unwrap()
            .to_move(g.position())
            .unwrap();
        g.play(mv).unwrap();
    }
    best.parse::<MoveText>()
        .ok()
        .and_then(|t| t.to_move(g.position()).ok())
        .is_some_and(|m| g.legal_moves().contains(m))
}

/// The move of a `bestmove` line.
fn best_of(line: &str) -> &str {
    line.split(' ').nth(1).unwrap_or("")
}

/// The `nodes` of an `info depth …` line.
fn nodes_of(line: &str) -> u64 {
    let words: Vec<&str> = line.split(' ').collect();
    let at = words.iter().position(|&w| w == "nodes").expect("nodes");
    words[at + 1].parse().unwrap()
}

#[test]
fn a_search_answers_by_itself_and_each_go_gets_one_bestmove() {
    let s = Live::start();
    // Searches that end by themselves, searches stopped, and `isready` answered during a search:
    // every `go` has exactly one `bestmove`, in order, with the input still open.
    for round in 0..20 {
        s.send("position startpos");
        s.send(
            [
                "go depth 1",
                "go movetime 5",
                "go wtime 60 btime 60",
                "go nodes 500",
            ][round % 4],
        );
        let out = s.until("bestmove ");
        assert!(
            is_legal_after(&[], best_of(out.last().unwrap())),
            "{out:#?}"
        );
        s.send("go infinite");
        s.send("isready");
        s.until("readyok");
        s.send("stop");
        let out = s.until("bestmove ");
        assert!(
            is_legal_after(&[], best_of(out.last().unwrap())),
            "{out:#?}"
        );
    }
    s.send("isready");
    assert_eq!(s.until("readyok"), ["readyok"]);
    // A stopped search's late signal brings no second `bestmove`.
    assert!(s.end().is_empty());
}

#[test]
fn a_go_with_only_the_other_sides_clock_is_a_timed_search() {
    let s = Live::start();
    for (moves, go) in [
        (&[][..], "go btime 1000"),
        (&[][..], "go binc 100 btime 1000"),
        (&[][..], "go winc 100"),
        (&[][..], "go movestogo 5"),
        (&["g3g4"][..], "go wtime 1000 winc 10"),
        (&["g3g4"][..], "go wtime 0 btime 0"),
    ] {
        if moves.is_empty() {
            s.send("position startpos");
        } else {
            s.send(&format!("position startpos moves {}", moves.join(" ")));
        }
        s.send(go);
        // Before the fix these searched until `stop`: no answer ever came.
        let out = s.until("bestmove ");
        let best = best_of(out.last().unwrap());
        assert!(is_legal_after(moves, best), "{go}: {out:#?}");
    }
    assert!(s.end().is_empty());
}

#[test]
fn go_infinite_keeps_its_depth_and_node_limits_and_waits_for_stop() {
    let s = Live::start();
    s.send("position startpos");
    s.send("go infinite depth 2");
    let out = s.until("info depth 2 ");
    assert!(!out.iter().any(|l| l.starts_with("bestmove")), "{out:#?}");
    // The search has ended at depth 2 (it takes well under a millisecond): nothing more comes,
    // no deeper iteration and no `bestmove`, until `stop`.
    let more = s.lines_within(Duration::from_millis(300));
    assert!(more.is_empty(), "{more:#?}");
    s.send("isready");
    assert_eq!(s.until("readyok"), ["readyok"]);
    s.send("stop");
    let out = s.until("bestmove ");
    assert_eq!(out.len(), 1, "{out:#?}");
    assert!(is_legal_after(&[], best_of(&out[0])));

    // A node limit ends an infinite search too; the answer still waits for `stop`.
    s.send("go infinite nodes 3000");
    let more = s.lines_within(Duration::from_millis(300));
    assert!(!more.iter().any(|l| l.starts_with("bestmove")), "{more:#?}");
    s.send("stop");
    let mut out = more;
    out.extend(s.until("bestmove "));
    let infos: Vec<&String> = out.iter().filter(|l| l.starts_with("info depth")).collect();
    assert!(!infos.is_empty(), "{out:#?}");
    // The node count is checked every 64th of the limit.
    for l in infos {
        assert!(nodes_of(l) <= 3000 + 3000 / 64 + 8, "{l}");
    }
    assert!(s.end().is_empty());
}

#[test]
fn go_infinite_on_a_finished_game_waits_for_stop() {
    let s = Live::start();
    s.send("position fen 7/3D3/7/7/7/7/7/7/l6 r 0 1 moves d8d9");
    for go in ["go infinite", "go"] {
        s.send(go);
        let out = s.until("info string game over: 1-0 red den");
        assert_eq!(out.len(), 1, "{out:#?}");
        // No move to search, but the answer still waits for `stop`.
        let more = s.lines_within(Duration::from_millis(300));
        assert!(more.is_empty(), "{go}: {more:#?}");
        s.send("stop");
        assert_eq!(s.until("bestmove "), ["bestmove (none)"]);
    }
    assert!(s.end().is_empty());
}

#[test]
fn quit_ends_the_session_at_once_whatever_the_search() {
    for go in [
        "go movetime 5000",
        "go depth 60",
        "go nodes 4000000000",
        "go infinite",
    ] {
        let s = Live::start();
        s.send("position startpos");
        s.send(go);
        s.until("info depth 3 ");
        // Queued behind the search, and dropped by `quit`.
        s.send("position startpos moves g3g4");
        s.send("go depth 60");
        s.send("quit");
        assert!(
            s.ends_within(Duration::from_secs(2)),
            "`{go}` then `quit`: the session went on"
        );
        // The stopped search answers; the queued one never started.
        let rest = s.end();
        let bests: Vec<&String> = rest.iter().filter(|l| l.starts_with("bestmove ")).collect();
        assert_eq!(bests.len(), 1, "{go}: {rest:#?}");
        assert!(is_legal_after(&[], best_of(bests[0])), "{go}: {rest:#?}");
    }
}

#[test]
fn an_over_long_line_is_dropped_with_an_error() {
    let s = Live::start();
    s.send(&format!(
        "position startpos moves {}",
        "g3g4 ".repeat(300_000)
    ));
    s.send("isready");
    // Cut for the failure message: the line must not come back.
    let out: Vec<String> = s
        .until("readyok")
        .iter()
        .map(|l| l.chars().take(200).collect())
        .collect();
    assert_eq!(
        out,
        [
            format!(
                "info string error: an input line of {} bytes is longer than the limit of {} \
                 bytes: ignored",
                "position startpos moves ".len() + 5 * 300_000,
                protocol::MAX_INPUT_LINE
            ),
            "readyok".to_string()
        ]
    );
    assert!(s.end().is_empty());
}
