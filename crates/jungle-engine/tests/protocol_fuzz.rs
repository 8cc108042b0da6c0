//! Random sessions of the text protocol: commands from its grammar, with broken arguments, bad
//! positions and moves, unknown options and plain garbage mixed in. Whatever arrives, the engine
//! must not panic or hang, must answer every `uci` and `isready` (one more is sent at the end),
//! must name only well-formed moves in `bestmove`, and `d` must show a position it would accept.

use jungle::{Jfen, Rules, START_JFEN};
use jungle_engine::protocol;
use proptest::prelude::*;
use std::io::{self, Write};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

/// What the engine wrote, shared with the test.
#[derive(Clone, Default)]
struct Sink(Arc<Mutex<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Runs `commands` (then `isready`) through the protocol; its output lines. Fails the test when
/// the session has not ended after a minute.
fn session(commands: &[String]) -> Vec<String> {
    let (tx, rx) = mpsc::channel();
    for c in commands {
        tx.send(format!("{c}\n")).unwrap();
    }
    tx.send("isready\n".to_string()).unwrap();
    drop(tx);
    let sink = Sink::default();
    let out = sink.clone();
    let (done_tx, done_rx) = mpsc::channel();
    std::thread::spawn(move || {
        protocol::run(rx, Box::new(out));
        let _ = done_tx.send(());
    });
    let ended = done_rx.recv_timeout(Duration::from_secs(60));
    let text = String::from_utf8_lossy(&sink.0.lock().unwrap()).into_owned();
    assert!(
        ended.is_ok(),
        "the session did not end (a panic in the protocol thread ends it without this signal, \
         a hang never ends it); commands {commands:?}, output so far:\n{text}"
    );
    text.lines().map(str::to_string).collect()
}

fn square() -> impl Strategy<Value = String> {
    ("[a-h]", 0u8..11).prop_map(|(f, r)| format!("{f}{r}"))
}

fn move_token() -> impl Strategy<Value = String> {
    prop_oneof![
        (square(), square()).prop_map(|(a, b)| format!("{a}{b}")),
        Just("--".to_string()),
        Just("g3g4".to_string()),
        Just("a7a6".to_string()),
        "[A-Za-z0-9#-]{1,5}",
    ]
}

/// The start position with a few characters changed: often malformed, sometimes a strange but
/// legal position (more animals, a missing side, an odd turn or counter).
fn jfen() -> impl Strategy<Value = String> {
    let edits = proptest::collection::vec((0usize..64, "[lLrRtTeE0-9/ rbx-]"), 0..4);
    edits.prop_map(|edits| {
        let mut chars: Vec<char> = START_JFEN.chars().collect();
        for (at, c) in edits {
            let at = at % chars.len();
            chars[at] = c.chars().next().unwrap_or('x');
        }
        chars.into_iter().collect()
    })
}

fn position() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("position startpos".to_string()),
        Just("position".to_string()),
        Just("position fen".to_string()),
        proptest::collection::vec(move_token(), 0..8)
            .prop_map(|m| format!("position startpos moves {}", m.join(" "))),
        (jfen(), proptest::collection::vec(move_token(), 0..4))
            .prop_map(|(f, m)| format!("position fen {f} moves {}", m.join(" "))),
        jfen().prop_map(|f| format!("position fen {f}")),
    ]
}

fn go() -> impl Strategy<Value = String> {
    prop_oneof![
        (1u32..4).prop_map(|d| format!("go depth {d}")),
        (1u32..3000).prop_map(|n| format!("go nodes {n}")),
        (0u32..15).prop_map(|t| format!("go movetime {t}")),
        (0u32..1500, 0u32..1500, 0u32..30)
            .prop_map(|(w, b, i)| format!("go wtime {w} btime {b} winc {i} binc {i}")),
        (1u32..4, move_token()).prop_map(|(d, m)| format!("go depth {d} searchmoves {m}")),
        Just("go infinite".to_string()),
        Just("go ponder movetime 5".to_string()),
        Just("go depth".to_string()),
        Just("go depth -3".to_string()),
        Just("go nodes many".to_string()),
        Just("go movetime 99999999999999999999".to_string()),
        Just("go sideways".to_string()),
    ]
}

fn setoption() -> impl Strategy<Value = String> {
    let name = prop_oneof![
        Just("Hash"),
        Just("Threads"),
        Just("Level"),
        Just("Rules"),
        Just("MultiPV"),
        Just("Contempt"),
        Just("MoveOverhead"),
        Just("Ponder"),
        Just("Weights"),
        Just("Bogus"),
    ];
    // Small values only where a large one is valid (4 GiB of table is legal, and slow to clear).
    let value = prop_oneof![
        Just("1"),
        Just("2"),
        Just("0"),
        Just("-5"),
        Just("65"),
        Just("300"),
        Just("99999999999"),
        Just("abc"),
        Just(""),
        Just("true"),
        Just("standard"),
        Just("wolf_over_dog,no_7_3"),
        Just("1 2 3"),
    ];
    (name, value).prop_map(|(n, v)| format!("setoption name {n} value {v}"))
}

fn command() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => go(),
        3 => position(),
        2 => setoption(),
        1 => prop_oneof![
            Just("uci".to_string()),
            Just("isready".to_string()),
            Just("ucinewgame".to_string()),
            Just("d".to_string()),
            Just("eval".to_string()),
            Just("moves".to_string()),
            Just("stop".to_string()),
            Just("ponderhit".to_string()),
        ],
        1 => (0u32..3).prop_map(|n| format!("perft {n}")),
        1 => "[ -~]{0,20}",
        1 => "\\PC{0,12}",
    ]
    .prop_filter("`quit` ends the session early", |c| {
        c.split_whitespace().next() != Some("quit")
    })
}

fn is_move_syntax(s: &str) -> bool {
    let b = s.as_bytes();
    s == "(none)"
        || s == "--"
        || (b.len() == 4
            && (b'a'..=b'g').contains(&b[0])
            && (b'1'..=b'9').contains(&b[1])
            && (b'a'..=b'g').contains(&b[2])
            && (b'1'..=b'9').contains(&b[3]))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn any_session_keeps_the_engine_answering(
        commands in proptest::collection::vec(command(), 1..24)
    ) {
        let out = session(&commands);
        let count = |w: &str| out.iter().filter(|l| l.as_str() == w).count();
        let asked = |w: &str| commands.iter().filter(|c| c.trim() == w).count();
        prop_assert_eq!(count("uciok"), asked("uci"), "{:?}\n{:?}", commands, out);
        prop_assert_eq!(count("readyok"), asked("isready") + 1, "{:?}\n{:?}", commands, out);
        for (i, line) in out.iter().enumerate() {
            if let Some(rest) = line.strip_prefix("bestmove ") {
                let mv = rest.split_whitespace().next().unwrap_or("");
                prop_assert!(is_move_syntax(mv), "{line:?} after {commands:?}");
            }
            if let Some(f) = line.strip_prefix("jfen ") {
                // `d` shows the position it holds (then its rules): always one it would accept.
                let rules = out.get(i + 1).and_then(|l| l.strip_prefix("rules "));
                let rules: Rules = rules.unwrap_or("?").parse().map_err(|e| {
                    TestCaseError::fail(format!("{e:?} after {line:?}"))
                })?;
                prop_assert!(Jfen::parse_position(f, rules).is_ok(), "{line:?} {rules}");
            }
        }
    }
}
