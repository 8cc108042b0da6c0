//! A scripted session of `jungle engine` (doc/protocol.md, "Engine protocol").

use jungle::{perft, Game, MoveText, Rules};
use std::io::Write;
use std::process::{Command, Stdio};

/// `jungle engine` started with its input and output piped.
fn engine() -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_jungle"))
        .arg("engine")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("jungle engine starts")
}

fn session(script: &str) -> Vec<String> {
    session_bytes(script.as_bytes())
}

fn session_bytes(script: &[u8]) -> Vec<String> {
    let mut child = engine();
    // Commands queue behind a running search, and the end of input finishes them: no timing.
    child.stdin.take().unwrap().write_all(script).unwrap();
    let out = child.wait_with_output().expect("jungle engine ends");
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

/// `out` with each line cut to 200 characters, for failure messages about long lines.
fn short(out: &[String]) -> Vec<String> {
    out.iter().map(|l| l.chars().take(200).collect()).collect()
}

/// The `info string error: …` lines of `out`.
fn errors(out: &[String]) -> Vec<&String> {
    out.iter()
        .filter(|l| l.starts_with("info string error: "))
        .collect()
}

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
    let Ok(t) = best.parse::<MoveText>() else {
        return false;
    };
    t.to_move(g.position())
        .is_ok_and(|m| g.legal_moves().contains(m))
}

#[test]
fn scripted_session() {
    let out = session(
        "uci\n\
         isready\n\
         ucinewgame\n\
         position startpos moves g3g4 a7a6\n\
         go depth 4\n\
         moves\n\
         perft 2\n\
         eval\n\
         d\n\
         setoption name Level value 11\n\
         setoption name Bogus value 1\n\
         position startpos moves g3g9\n\
         go depth x\n\
         bogus\n\
         position fen l6/2D4/7/7/7/7/7/4w2/6L r 0 1\n\
         go depth 3\n\
         setoption name Level value 1\n\
         setoption name Rules value no_rivers\n\
         position startpos\n\
         go nodes 2000\n\
         isready\n",
    );
    let has = |s: &str| out.iter().any(|l| l == s);
    assert!(has("uciok"), "{out:#?}");
    assert!(out.iter().any(|l| l.starts_with("id name Jungle")));
    assert_eq!(out.iter().filter(|l| *l == "readyok").count(), 2);
    let bests: Vec<&str> = out
        .iter()
        .filter_map(|l| l.strip_prefix("bestmove "))
        .collect();
    assert_eq!(bests.len(), 3, "{out:#?}");
    assert!(is_legal_after(&["g3g4", "a7a6"], bests[0]), "{}", bests[0]);
    assert_eq!(bests[1], "c8d8");
    assert!(out
        .iter()
        .any(|l| l.starts_with("info depth 3 ") && l.contains(" score den 2 ")));
    // Info lines carry every field.
    let info = out
        .iter()
        .find(|l| l.starts_with("info depth 4 "))
        .expect("depth 4 info");
    for field in [
        " seldepth ",
        " score cp ",
        " nodes ",
        " nps ",
        " time ",
        " pv ",
    ] {
        assert!(info.contains(field), "{info}");
    }
    // The extras.
    let mut g = Game::new(Rules::STANDARD);
    for m in ["g3g4", "a7a6"] {
        let mv = m
            .parse::<MoveText>()
            .unwrap()
            .to_move(g.position())
            .unwrap();
        g.play(mv).unwrap();
    }
    assert!(
        has(&format!("nodes {}", perft(g.position(), 2))),
        "{out:#?}"
    );
    let moves_line = out.iter().find(|l| l.starts_with("moves ")).unwrap();
    assert_eq!(
        moves_line.split_whitespace().count() - 1,
        g.legal_moves().len()
    );
    assert!(out.iter().any(|l| l.starts_with("info string eval cp ")));
    assert!(
        has("jfen l5t/1d3c1/2p1w1e/r6/7/6R/E1W1P2/1C3D1/T5L r 2 2"),
        "{out:#?}"
    );
    // Every malformed command got an error, and the session went on.
    let errors = errors(&out).len();
    assert_eq!(errors, 5, "{out:#?}");
}

#[test]
fn evaluation_weights_are_an_option() {
    let mut w = jungle_engine::eval::WEIGHTS;
    w.tempo = 99;
    let out = session(&format!(
        "uci\n\
         position startpos\n\
         eval\n\
         setoption name Weights value {}\n\
         eval\n\
         go depth 3\n\
         setoption name Weights value 1,2,3\n\
         setoption name Weights value default\n\
         eval\n",
        w.to_csv()
    ));
    let default = jungle_engine::eval::WEIGHTS.tempo;
    let evals: Vec<&String> = out
        .iter()
        .filter(|l| l.starts_with("info string eval cp "))
        .collect();
    assert_eq!(evals.len(), 3, "{out:#?}");
    assert!(evals[0].starts_with(&format!("info string eval cp {default} ")));
    assert!(evals[1].starts_with("info string eval cp 99 "), "{out:#?}");
    assert!(evals[2].starts_with(&format!("info string eval cp {default} ")));
    assert!(out.iter().any(|l| l.starts_with("bestmove ")));
    assert!(out
        .iter()
        .any(|l| l.starts_with("option name Weights type string default ")));
    assert!(
        out.iter().any(|l| l.starts_with("info string error: ")
            && l.contains("Weights")
            && l.contains(&format!("expected {}", jungle_engine::eval::Weights::LEN))),
        "{out:#?}"
    );
}

#[test]
fn go_infinite_waits_for_stop_and_clock_searches_answer() {
    let out = session(
        "position startpos\ngo infinite\nstop\nposition startpos moves b2b3\ngo wtime 300 btime 300 winc 10 binc 10\n",
    );
    let bests: Vec<&str> = out
        .iter()
        .filter_map(|l| l.strip_prefix("bestmove "))
        .collect();
    assert_eq!(bests.len(), 2, "{out:#?}");
    assert!(is_legal_after(&[], bests[0]));
    assert!(is_legal_after(&["b2b3"], bests[1]));
}

#[test]
fn game_over_answers_none() {
    let out = session("position fen 7/3D3/7/7/7/7/7/7/l6 r 0 1 moves d8d9\ngo depth 2\n");
    assert!(out.iter().any(|l| l == "bestmove (none)"), "{out:#?}");
    assert!(out.iter().any(|l| l.starts_with("info string game over")));
}

#[test]
fn bytes_that_are_not_utf8_are_an_error_not_the_end() {
    let out = session_bytes(b"isready\n\xff\xfe\n  \n\tgo depth 2\r\n");
    assert_eq!(out.first().map(String::as_str), Some("readyok"));
    assert!(
        out[1].starts_with("info string error: unknown command"),
        "{out:#?}"
    );
    assert!(out.iter().any(|l| l.starts_with("bestmove ")), "{out:#?}");
}

#[test]
fn contempt_is_an_option() {
    // Every line of this position ends in a draw by the no-capture rule after one ply.
    let out = session(
        "uci\n\
         position fen 7/7/6e/7/7/7/E6/7/7 r 199 100\n\
         go depth 3\n\
         setoption name Contempt value 120\n\
         go depth 3\n\
         setoption name Contempt value 501\n\
         setoption name Contempt value lots\n\
         go depth 3\n",
    );
    assert!(
        out.iter()
            .any(|l| l.starts_with("option name Contempt type spin default 0 min -500 max 500")),
        "{out:#?}"
    );
    let scores: Vec<&str> = out
        .iter()
        .filter(|l| l.starts_with("info depth 3 "))
        .filter_map(|l| l.split(" score ").nth(1))
        .map(|s| s.split(" nodes").next().unwrap_or(""))
        .collect();
    // The rejected values left the contempt at 120.
    assert_eq!(scores, ["cp 0", "cp -120", "cp -120"], "{out:#?}");
    let errors: Vec<&String> = out
        .iter()
        .filter(|l| l.starts_with("info string error: option `Contempt` takes a number"))
        .collect();
    assert_eq!(errors.len(), 2, "{out:#?}");
}

#[test]
fn move_overhead_is_an_option() {
    let out = session(
        "uci\n\
         setoption name MoveOverhead value 0\n\
         setoption name Move Overhead value 5000\n\
         setoption name MoveOverhead value 5001\n\
         setoption name MoveOverhead value soon\n",
    );
    assert!(
        out.iter()
            .any(|l| l == "option name MoveOverhead type spin default 15 min 0 max 5000"),
        "{out:#?}"
    );
    let errors = errors(&out);
    assert_eq!(errors.len(), 2, "{out:#?}");
    assert!(errors
        .iter()
        .all(|l| l.contains("option `MoveOverhead` takes a number from 0 to 5000")));

    // The overhead comes off `movetime`: with 5 s kept back, a 3 s search has a millisecond
    // left (the bound of `Deadline::from_limits`) and the session ends at once; without the
    // option it could not end before 2.985 s.
    let started = std::time::Instant::now();
    let out = session(
        "setoption name MoveOverhead value 5000\n\
         position startpos\n\
         go movetime 3000\n",
    );
    let took = started.elapsed();
    assert!(out.iter().any(|l| l.starts_with("bestmove ")), "{out:#?}");
    assert!(
        took < std::time::Duration::from_millis(2500),
        "took {took:?}: {out:#?}"
    );
}

#[test]
fn multipv_reports_several_lines() {
    let out = session(
        "uci\n\
         setoption name MultiPV value 0\n\
         setoption name multipv value 65\n\
         setoption name MultiPV value three\n\
         setoption name MultiPV value\n\
         setoption name MultiPV value 3\n\
         position startpos\n\
         go depth 5\n\
         setoption name MultiPV value 1\n\
         go depth 2\n",
    );
    assert!(
        out.iter()
            .any(|l| l == "option name MultiPV type spin default 1 min 1 max 64"),
        "{out:#?}"
    );
    let errors = errors(&out);
    assert_eq!(errors.len(), 4, "{out:#?}");
    assert!(errors
        .iter()
        .all(|l| l.contains("takes a number from 1 to 64")));
    assert!(
        errors[3].ends_with("not ``"),
        "a bare `value` is an empty value: {out:#?}"
    );
    // Three lines an iteration, numbered in order, each from a different first move; the best
    // move is the first line's.
    let first_go = line_of(&out, |l| l.starts_with("bestmove "));
    let infos: Vec<&String> = out[..first_go]
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(infos.len(), 15, "{out:#?}");
    let field = |l: &str, name: &str| -> String {
        let mut words = l.split(' ');
        words.find(|w| *w == name);
        words.next().unwrap_or_default().to_string()
    };
    for (k, l) in infos.iter().enumerate() {
        assert_eq!(field(l, "depth"), (k / 3 + 1).to_string(), "{l}");
        assert_eq!(field(l, "multipv"), (k % 3 + 1).to_string(), "{l}");
        let full: u32 = field(l, "hashfull").parse().expect("a hashfull field");
        assert!(full <= 1000, "{l}");
    }
    let last: Vec<String> = infos[12..].iter().map(|l| field(l, "pv")).collect();
    assert!(
        last[0] != last[1] && last[1] != last[2] && last[0] != last[2],
        "{last:?}"
    );
    assert_eq!(out[first_go], format!("bestmove {}", last[0]));
    // Back to one line: no `multipv` field.
    let second: Vec<&String> = out[first_go + 1..]
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(second.len(), 2, "{out:#?}");
    assert!(second.iter().all(|l| !l.contains("multipv")), "{second:#?}");
}

#[test]
fn malformed_go_arguments_name_what_is_wrong() {
    let out = session(
        "position startpos\n\
         go pondr\n\
         go depth\n\
         go nodes many\n\
         go depth 2 movetime -5\n\
         go depth 2\n",
    );
    let errors = errors(&out);
    assert_eq!(
        errors,
        [
            "info string error: unknown `go` parameter `pondr`",
            "info string error: `go depth` needs a value",
            "info string error: `go nodes` needs a whole number, not `many`",
            "info string error: `go movetime` needs a whole number, not `-5`",
        ],
        "{out:#?}"
    );
    // Only the well-formed `go` searched.
    let bests = out.iter().filter(|l| l.starts_with("bestmove ")).count();
    assert_eq!(bests, 1, "{out:#?}");
}

#[test]
fn searchmoves_limits_the_moves_searched() {
    // From the start, the engine's own choice at depth 6 is one move; asked to choose among two
    // others (written both ways), it plays one of them, and it reports only lines that start
    // with one of them.
    let free = session("position startpos\ngo depth 6\n");
    let own = free
        .iter()
        .find_map(|l| l.strip_prefix("bestmove "))
        .expect("a best move")
        .to_string();
    let others: Vec<&str> = ["a1a2", "g1f1", "e3d3", "c3d3"]
        .into_iter()
        .filter(|m| *m != own)
        .take(2)
        .collect();
    let out = session(&format!(
        "position startpos\ngo depth 6 searchmoves {} {}\n",
        others[0], others[1]
    ));
    let best = out
        .iter()
        .find_map(|l| l.strip_prefix("bestmove "))
        .expect("a best move");
    assert!(others.contains(&best), "{best} not in {others:?}: {out:#?}");
    for line in out.iter().filter(|l| l.starts_with("info depth")) {
        let first = line
            .split(" pv ")
            .nth(1)
            .and_then(|pv| pv.split(' ').next());
        assert!(
            first.is_some_and(|m| others.contains(&m)),
            "{line} strays from {others:?}"
        );
    }
    // The list may come first, and in the game's move text; a single move is played as given.
    let out = session("position startpos moves g3g4\ngo searchmoves Lb9 depth 3\n");
    assert!(out.iter().any(|l| l == "bestmove a9b9"), "{out:#?}");
}

#[test]
fn searchmoves_rejects_what_is_not_a_legal_move() {
    let out = session(
        "position startpos\n\
         go searchmoves\n\
         go searchmoves a1a3 depth 2\n\
         go depth 2 searchmoves a1a2 x\n\
         go searchmoves a1a2 a7a6 depth 2\n",
    );
    let errors = errors(&out);
    assert_eq!(errors.len(), 4, "{out:#?}");
    assert_eq!(
        errors[0],
        "info string error: `go searchmoves` needs at least one move"
    );
    assert!(errors[1].contains("a3"), "{}", errors[1]);
    assert!(errors[2].contains("`x`"), "{}", errors[2]);
    assert!(errors[3].contains("blue's"), "{}", errors[3]);
    // None of them searched.
    assert!(!out.iter().any(|l| l.starts_with("bestmove ")), "{out:#?}");

    // A move the position allows but §7 forbids after this game's shuttling: found by playing
    // the shuttle in a `Game` until the rules take one of the position's moves away.
    let mut game = Game::new(Rules::STANDARD);
    let shuttle = ["a1b1", "a9b9", "b1a1", "b9a9"];
    let mut played = Vec::new();
    let forbidden = (0..40)
        .find_map(|i| {
            let pos = *game.position();
            if let Some(&m) = pos
                .legal_moves()
                .iter()
                .find(|&&m| !game.legal_moves().contains(m))
            {
                return Some(m);
            }
            let m = shuttle[i % 4]
                .parse::<MoveText>()
                .unwrap()
                .to_move(&pos)
                .unwrap();
            game.play(m).unwrap();
            played.push(shuttle[i % 4]);
            None
        })
        .expect("§7 forbids a shuttle move");
    let out = session(&format!(
        "position startpos moves {}\ngo depth 2 searchmoves {forbidden}\n",
        played.join(" ")
    ));
    let error = out
        .iter()
        .find(|l| l.starts_with("info string error: "))
        .unwrap_or_else(|| panic!("no error: {out:#?}"));
    assert!(
        error.contains(&format!("illegal move `{forbidden}`")) && error.contains("7"),
        "{error}"
    );
    assert!(!out.iter().any(|l| l.starts_with("bestmove ")), "{out:#?}");
}

/// The position of the line in `out` that satisfies `f`.
fn line_of(out: &[String], f: impl Fn(&str) -> bool) -> usize {
    out.iter()
        .position(|l| f(l))
        .unwrap_or_else(|| panic!("no such line: {out:#?}"))
}

/// Runs `script`, whose search must hold its answer: its first `readyok` comes before its
/// `bestmove`. Returns the output and the index of the `bestmove` line.
fn held_bestmove(script: &str) -> (Vec<String>, usize) {
    let out = session(script);
    let ready = line_of(&out, |l| l == "readyok");
    let best = line_of(&out, |l| l.starts_with("bestmove "));
    assert!(ready < best, "{out:#?}");
    (out, best)
}

#[test]
fn a_pondering_search_answers_only_after_ponderhit_or_stop() {
    // The search to depth 2 ends long before the input does, but its `bestmove` waits for
    // `ponderhit`: the `isready` sent between them is answered first.
    let (out, best) = held_bestmove(
        "setoption name Ponder value true\n\
         position startpos moves g3g4\n\
         go ponder depth 2\n\
         isready\n\
         ponderhit\n\
         isready\n",
    );
    // With the `Ponder` option on, `bestmove` names the reply it expects, legal after its move.
    let words: Vec<&str> = out[best].split(' ').collect();
    assert_eq!(words.len(), 4, "{}", out[best]);
    assert_eq!(words[2], "ponder");
    assert!(is_legal_after(&["g3g4"], words[1]), "{}", out[best]);
    assert!(
        is_legal_after(&["g3g4", words[1]], words[3]),
        "{}",
        out[best]
    );

    // `stop` ends a pondering search too (its time never began to count); without the option
    // `bestmove` names only the move. A `ponderhit` with nothing pondering is an error.
    let (out, best) = held_bestmove(
        "position startpos\n\
         go ponder wtime 100000 btime 100000\n\
         isready\n\
         stop\n\
         ponderhit\n\
         setoption name Ponder value maybe\n",
    );
    assert_eq!(out[best].split(' ').count(), 2, "{}", out[best]);
    let errors = errors(&out);
    assert_eq!(
        errors,
        [
            "info string error: `ponderhit` without a pondering search (`go ponder …`)",
            "info string error: option `Ponder` is `true` or `false`, not `maybe`",
        ],
        "{out:#?}"
    );
}

#[test]
fn go_infinite_answers_only_after_stop_even_at_a_capped_level() {
    // Level 1 caps the search at a few nodes, so the search itself ends at once; `go infinite`
    // must still hold its `bestmove` until `stop`.
    let (out, best) = held_bestmove(
        "setoption name Level value 1\n\
         position startpos\n\
         go infinite\n\
         isready\n\
         stop\n",
    );
    assert!(
        is_legal_after(&[], &out[best]["bestmove ".len()..]),
        "{out:#?}"
    );
}

#[test]
fn position_errors_name_the_move_as_typed_and_its_number() {
    let out = session(
        "position startpos moves g3g4 a7a6 Rg6\n\
         position startpos moves g3g4 zz\n\
         position fen 7/3D3/7/7/7/7/7/7/l6 r 0 1 moves d8d9 a9a8\n\
         d\n",
    );
    assert_eq!(
        errors(&out),
        [
            "info string error: `position`: move 3 `Rg6`: the rat on g4 cannot reach g6; the \
             position is unchanged",
            "info string error: `position`: move 2 `zz`: cannot be read (at character 1): \
             expected coordinates like g3g4, an animal move like Rg4, or -- for a pass; the \
             position is unchanged",
            "info string error: `position`: move 2 `a9a8`: the game is over (red den); the \
             position is unchanged",
        ],
        "{out:#?}"
    );
    assert!(
        out.iter()
            .any(|l| l == "jfen l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 0 1"),
        "{out:#?}"
    );
}

#[test]
fn a_rule_set_is_read_as_everywhere_and_shown_in_its_normal_form() {
    let out = session(
        "setoption name Rules value no_7_3,no_7_3\n\
         d\n\
         setoption name Rules value standard,NO_7_3\n\
         d\n\
         setoption name Rules value draw_plies=50,no_rivers,draw_plies=60\n\
         d\n\
         setoption name Rules value no_7_3,,no_17_5\n\
         d\n",
    );
    let rules: Vec<&String> = out.iter().filter(|l| l.starts_with("rules ")).collect();
    assert_eq!(
        rules,
        [
            "rules no_7_3",
            "rules no_7_3",
            "rules draw_plies=60,no_rivers",
            "rules draw_plies=60,no_rivers",
        ],
        "{out:#?}"
    );
    let errors = errors(&out);
    assert_eq!(errors.len(), 1, "{out:#?}");
    assert!(
        errors[0].starts_with("info string error: option `Rules`: invalid rules `"),
        "{out:#?}"
    );
}

#[test]
fn eval_of_a_finished_game_says_it_is_over() {
    let out = session("position fen 7/3D3/7/7/7/7/7/7/l6 r 0 1 moves d8d9\neval\n");
    assert_eq!(out[0], "info string game over: 1-0 red den", "{out:#?}");
    assert!(out[1].starts_with("info string eval cp "), "{out:#?}");
}

#[test]
fn hostile_input_is_echoed_short_and_clean() {
    // Control characters are escaped; a long word is cut at 80 characters.
    let long_word = "y".repeat(100_000);
    let out = short(&session_bytes(
        format!("\0\x1b[2Jhello\n{long_word}\nisready\n").as_bytes(),
    ));
    assert_eq!(
        out,
        [
            "info string error: unknown command `\\u{0}\\u{1b}[2Jhello`".to_string(),
            format!("info string error: unknown command `{}…`", "y".repeat(80)),
            "readyok".to_string(),
        ]
    );
    // A line beyond the limit (1 MiB) is dropped whole, and said to be, by its length.
    let huge = "x".repeat(3_000_000);
    let out = short(&session_bytes(
        format!("{huge}\nposition startpos {huge}\nisready\n").as_bytes(),
    ));
    assert_eq!(
        out,
        [
            "info string error: an input line of 3000000 bytes is longer than the limit of \
             1048576 bytes: ignored",
            "info string error: an input line of 3000018 bytes is longer than the limit of \
             1048576 bytes: ignored",
            "readyok",
        ]
    );
}

/// The peak resident memory of the engine process `pid`, in KiB.
#[cfg(target_os = "linux")]
fn peak_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM")
}

/// A running `jungle engine` whose output lines come on a channel.
struct Running {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    lines: std::sync::mpsc::Receiver<String>,
}

impl Running {
    fn start() -> Running {
        use std::io::BufRead;
        let mut child = engine();
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Running {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).unwrap();
        self.stdin.flush().unwrap();
    }

    /// The lines up to the first that starts with `prefix` (included), within 30 s.
    fn until(&self, prefix: &str) -> Vec<String> {
        let mut out = Vec::new();
        loop {
            let line = self
                .lines
                .recv_timeout(std::time::Duration::from_secs(30))
                .unwrap_or_else(|e| panic!("no `{prefix}` ({e}): {out:#?}"));
            let done = line.starts_with(prefix);
            out.push(line);
            if done {
                return out;
            }
        }
    }

    /// Whether the process ends within `wait` (its input still open).
    fn ends_within(&mut self, wait: std::time::Duration) -> bool {
        let deadline = std::time::Instant::now() + wait;
        while std::time::Instant::now() < deadline {
            if self.child.try_wait().unwrap().is_some() {
                return true;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        false
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
#[cfg(target_os = "linux")]
fn an_endless_input_line_takes_no_memory() {
    let mut base = Running::start();
    base.send(b"isready\n");
    base.until("readyok");
    let baseline = peak_kib(base.child.id());
    // 64 MiB without a newline: it was kept whole, twice over (the bytes and their text).
    let mut e = Running::start();
    let chunk = vec![b'x'; 1 << 20];
    for _ in 0..64 {
        e.send(&chunk);
    }
    e.send(b"\nisready\n");
    let out = short(&e.until("readyok"));
    assert_eq!(
        out,
        [
            "info string error: an input line of 67108864 bytes is longer than the limit of \
             1048576 bytes: ignored",
            "readyok"
        ]
    );
    let peak = peak_kib(e.child.id());
    assert!(
        peak < baseline + 16 * 1024,
        "{peak} KiB at the peak, {baseline} KiB without the line"
    );
}

#[test]
fn quit_stops_a_running_search_and_ends_at_once() {
    for go in ["go movetime 5000", "go depth 60", "go infinite"] {
        let mut e = Running::start();
        e.send(format!("position startpos\n{go}\n").as_bytes());
        e.until("info depth 3 ");
        // A command queued behind the search is dropped, not run first.
        e.send(b"position startpos moves g3g4\ngo depth 60\nquit\n");
        assert!(
            e.ends_within(std::time::Duration::from_secs(2)),
            "`{go}` then `quit` did not end the engine"
        );
        assert!(e.child.try_wait().unwrap().unwrap().success());
        // The stopped search still answers, once.
        let rest: Vec<String> = e.lines.iter().collect();
        let bests = rest.iter().filter(|l| l.starts_with("bestmove ")).count();
        assert_eq!(bests, 1, "{go}: {rest:#?}");
    }
}
