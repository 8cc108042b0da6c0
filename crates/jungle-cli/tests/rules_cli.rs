//! The command-line contract of `jungle perft` and `jungle moves` (RULES §6, §7, §9, §10), checked
//! against exact outputs and against the independent reference rules of the rules crate's test
//! suite over random positions and histories.
//!
//! Build the binary alone with `cargo build -p jungle-cli --no-default-features`.

#[path = "../../jungle/tests/support/reference.rs"]
#[allow(dead_code)]
mod reference;

use reference::{name, RefGame, RefMove, RefPos, RefRules, BLUE, RED};
use std::process::{Command, Output};

const START: &str = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 0 1";

fn jungle(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_jungle"))
        .args(args)
        .output()
        .expect("run jungle")
}

/// Runs `jungle`, expects success, returns stdout.
fn ok(args: &[&str]) -> String {
    let out = jungle(args);
    assert!(
        out.status.success(),
        "jungle {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// Runs `jungle`, expects exit status 2 and one line on stderr; returns that line.
fn fails(args: &[&str]) -> String {
    let out = jungle(args);
    assert_eq!(
        out.status.code(),
        Some(2),
        "jungle {args:?} should fail with 2"
    );
    assert!(
        out.stdout.is_empty(),
        "no output on failure: {:?}",
        out.stdout
    );
    let err = String::from_utf8(out.stderr).expect("UTF-8");
    assert_eq!(err.lines().count(), 1, "one line on stderr: {err:?}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

/// `jungle moves` output: the sorted legal moves and the outcome line.
fn moves(args: &[&str]) -> (Vec<String>, String) {
    let out = ok(&[&["moves"], args].concat());
    let lines: Vec<&str> = out.split('\n').collect();
    assert_eq!(lines.len(), 3, "two lines and a final newline: {out:?}");
    assert_eq!(lines[2], "");
    let legal: Vec<String> = if lines[0].is_empty() {
        Vec::new()
    } else {
        lines[0].split(' ').map(str::to_string).collect()
    };
    for m in &legal {
        assert!(!m.is_empty(), "single spaces: {out:?}");
    }
    let mut sorted = legal.clone();
    sorted.sort();
    assert_eq!(legal, sorted, "sorted ascending");
    (legal, lines[1].to_string())
}

#[test]
fn perft_from_the_start() {
    // RULES §6: perft 1–4 from the start position, a bare integer on one line.
    for (d, n) in [(0, 1u64), (1, 24), (2, 576), (3, 12_240), (4, 260_099)] {
        assert_eq!(ok(&["perft", &d.to_string()]), format!("{n}\n"));
    }
    assert_eq!(ok(&["perft", "--fen", START, "3"]), "12240\n");
    assert_eq!(
        ok(&["perft", "--rules", "wolf_over_dog,no_7_3", "3"]),
        "12240\n"
    );
    assert_eq!(ok(&["perft", "--rules", "no_rivers", "1"]), "26\n");
}

#[test]
fn perft_divide_format() {
    // One line per root move `g3g4: 1234`, sorted; the last line is the total alone.
    let out = ok(&["perft", "--divide", "3"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 25);
    let mut sum = 0u64;
    let mut names = Vec::new();
    for l in &lines[..24] {
        let (m, n) = l.split_once(": ").expect("`move: count`");
        assert_eq!(m.len(), 4, "{l}");
        assert!(m
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit()));
        names.push(m.to_string());
        sum += n.parse::<u64>().expect("count");
    }
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted);
    assert_eq!(lines[24], "12240");
    assert_eq!(sum, 12_240);
    assert_eq!(ok(&["perft", "--divide", "1"]).lines().last(), Some("24"));
    assert!(ok(&["perft", "--divide", "1"]).contains("g3g4: 1\n"));
    // Depth 0: no moves, total 1. A finished position: no moves, total 0.
    assert_eq!(ok(&["perft", "--divide", "0"]), "1\n");
    let den = "3C3/7/7/7/7/7/7/7/r6 b 0 1";
    assert_eq!(ok(&["perft", "--fen", den, "--divide", "2"]), "0\n");
    assert_eq!(ok(&["perft", "--fen", den, "2"]), "0\n");
}

#[test]
fn perft_accepts_short_and_w_jfen_and_ignores_the_counters() {
    // RULES §10: `w` for Red, counters left out; perft ignores §6.4 and §7.
    let board = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L";
    for fen in [
        format!("{board} w"),
        format!("{board} r"),
        format!("{board} w 0 1"),
        format!("{board} r 500 9"),
    ] {
        assert_eq!(ok(&["perft", "--fen", &fen, "2"]), "576\n", "{fen}");
    }
    // Counters at the u32 limit must not overflow.
    let fen = format!("{board} r 4294967295 4294967295");
    assert_eq!(ok(&["perft", "--fen", &fen, "3"]), "12240\n");
}

#[test]
fn moves_from_the_start() {
    let (legal, outcome) = moves(&[]);
    assert_eq!(legal.len(), 24);
    assert_eq!(legal[0], "a1a2");
    assert!(legal.contains(&"g3g4".to_string()));
    assert_eq!(outcome, "outcome: ongoing");
    let (legal, _) = moves(&["--moves", "g3g4"]);
    assert!(legal
        .iter()
        .all(|m| m.ends_with(|c: char| c.is_ascii_digit())));
    assert!(legal.contains(&"a7a6".to_string()));
    // Passes: `--` anywhere in the list, several in a row.
    let (legal, outcome) = moves(&["--moves", "--", "a7a6", "--"]);
    assert!(legal.contains(&"a6a5".to_string()), "{legal:?}");
    assert_eq!(outcome, "outcome: ongoing");
    let (after_pass, _) = moves(&["--moves", "--"]);
    assert_eq!(after_pass.len(), 24);
    assert!(after_pass.contains(&"a7a6".to_string()));
    // Options before --moves.
    let (legal, _) = moves(&["--rules", "no_rivers", "--fen", START, "--moves", "c3c4"]);
    assert!(legal.contains(&"c7c6".to_string()));
}

#[test]
fn moves_outcomes() {
    // RULES §6: `outcome: red den`, `blue wipeout`, `red no-moves`, `draw draw-plies`.
    let (legal, outcome) = moves(&[
        "--fen",
        "7/2D4/7/7/7/7/7/7/6r r",
        "--moves",
        "c8c9",
        "--",
        "c9d9",
    ]);
    assert!(legal.is_empty());
    assert_eq!(outcome, "outcome: red den");
    let (legal, outcome) = moves(&["--fen", "6l/7/7/7/7/7/7/c6/R6 b", "--moves", "a2a1"]);
    assert!(legal.is_empty());
    assert_eq!(outcome, "outcome: blue wipeout");
    let (legal, outcome) = moves(&["--fen", "c1W4/D6/7/7/7/7/7/7/7 r", "--moves", "c9b9"]);
    assert_eq!(outcome, "outcome: red no-moves", "{legal:?}");
    assert!(legal.is_empty());
    let (legal, outcome) = moves(&[
        "--fen",
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 199 100",
        "--moves",
        "--",
    ]);
    assert!(legal.is_empty());
    assert_eq!(outcome, "outcome: draw draw-plies");
    // A counter already at or over the limit: drawn from the start.
    for h in ["200", "999"] {
        let fen = format!("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r {h} 1");
        assert_eq!(
            moves(&["--fen", &fen]),
            (vec![], "outcome: draw draw-plies".to_string())
        );
        let err = fails(&["moves", "--fen", &fen, "--moves", "g3g4"]);
        assert!(err.contains("move 1"), "{err}");
    }
    // draw_plies=N and 0.
    let fen = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 999 1";
    assert_eq!(
        moves(&["--fen", fen, "--rules", "draw_plies=0"]).1,
        "outcome: ongoing"
    );
    assert_eq!(
        moves(&["--rules", "draw_plies=2", "--moves", "g3g4", "--"]).1,
        "outcome: draw draw-plies"
    );
    // A side to move without a legal move from the given FEN.
    assert_eq!(
        moves(&["--fen", "cW5/D6/7/7/7/7/7/7/7 b"]).1,
        "outcome: red no-moves"
    );
    // One side without animals, from the FEN.
    assert_eq!(
        moves(&["--fen", "7/7/7/7/7/7/7/7/6R b"]).1,
        "outcome: red wipeout"
    );
}

#[test]
fn moves_apply_section_7() {
    // RULES §7.1 example through the command line, and its switch.
    let fen = "c6/7/7/7/7/6R/E6/7/7 r";
    let shuttle = [
        "g4g5", "--", "g5g4", "--", "g4g5", "--", "g5g4", "--", "g4g5", "--", "g5g4", "--",
    ];
    let args = [&["--fen", fen, "--moves"][..], &shuttle[..]].concat();
    let (legal, outcome) = moves(&args);
    assert_eq!(outcome, "outcome: ongoing");
    assert!(!legal.contains(&"g4g5".to_string()), "{legal:?}");
    assert!(legal.contains(&"g4g3".to_string()));
    let args = [
        &["--rules", "no_7_3", "--fen", fen, "--moves"][..],
        &shuttle[..],
    ]
    .concat();
    assert!(moves(&args).0.contains(&"g4g5".to_string()));
    // Playing the forbidden move is an error naming the move by its index.
    let args = [
        &["moves", "--fen", fen, "--moves"][..],
        &shuttle[..],
        &["g4g5"],
    ]
    .concat();
    let err = fails(&args);
    assert!(err.contains("move 13") && err.contains("g4g5"), "{err}");
}

#[test]
fn options_may_follow_the_moves() {
    let (legal, _) = moves(&["--moves", "c3c4", "--rules", "no_rivers"]);
    assert!(legal.contains(&"c7c6".to_string()), "{legal:?}");
    let (legal, _) = moves(&["--moves", "g3g4", "--", "--fen", START]);
    assert_eq!(legal.len(), 24);
}

#[test]
fn bad_input_exits_with_2_and_one_line() {
    // Never a panic: a malformed JFEN or rule string, an illegal or unparsable move.
    let err = fails(&["perft", "--fen", "not a fen", "2"]);
    assert!(err.to_lowercase().contains("jfen"), "{err}");
    let err = fails(&[
        "perft",
        "--fen",
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L x",
        "1",
    ]);
    assert!(err.contains("side to move"), "{err}");
    let err = fails(&["perft", "--fen", "3d3/7/7/7/2D4/7/L6/7/L6 r", "1"]);
    assert!(
        err.contains("lions") && err.contains("own den") && err.contains("water"),
        "{err}"
    );
    let err = fails(&["perft", "--rules", "wolf_over_dog,no_such_rule", "1"]);
    assert!(err.contains("no_such_rule"), "{err}");
    let err = fails(&["moves", "--rules", "draw_plies=many"]);
    assert!(err.contains("draw_plies"), "{err}");
    let err = fails(&["moves", "--fen", "7/7/7 r"]);
    assert!(err.contains("ranks"), "{err}");
    let err = fails(&["moves", "--moves", "g3g4", "zz"]);
    assert!(err.contains("move 2") && err.contains("zz"), "{err}");
    let err = fails(&["moves", "--moves", "g3g4", "g4g5"]);
    assert!(err.contains("move 2") && err.contains("g4g5"), "{err}");
    let err = fails(&["moves", "--moves", "c3c4"]);
    assert!(err.contains("move 1") && err.contains("c3c4"), "{err}");
    let err = fails(&["moves", "--moves", "a7a6"]);
    assert!(err.contains("move 1"), "{err}");
    let err = fails(&["moves", "--moves", "g3g3"]);
    assert!(err.contains("move 1"), "{err}");
    let err = fails(&["moves", "--fen", "3C3/7/7/7/7/7/7/7/r6 b", "--moves", "--"]);
    assert!(err.contains("move 1") && err.contains("over"), "{err}");
    // Usage errors name what is missing, or the values a choice has, on their one line.
    let err = fails(&["perft"]);
    assert!(err.contains("not provided: <DEPTH>"), "{err}");
    let err = fails(&["play", "--color", "green"]);
    assert!(err.contains("[possible values: red, blue]"), "{err}");
    let err = fails(&["play", "--watch", "xyz"]);
    assert!(err.contains("not provided: --server <SERVER>"), "{err}");
}

/// SplitMix64, for reproducible random histories without extra crates.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn mv_text((from, to): RefMove) -> String {
    format!("{}{}", name(from), name(to))
}

fn outcome_line(o: Option<(Option<u8>, &str)>) -> String {
    match o {
        None => "outcome: ongoing".into(),
        Some((Some(RED), why)) => format!("outcome: red {why}"),
        Some((Some(BLUE), why)) => format!("outcome: blue {why}"),
        Some((_, why)) => format!("outcome: draw {why}"),
    }
}

#[test]
fn moves_and_perft_match_the_reference_on_random_histories() {
    // The whole contract against the independent reference: random histories with passes and
    // shuttles, in several rule sets, from the start and from JFENs with and without counters.
    let variants = [
        "standard",
        "wolf_over_dog,no_shore_rat_capture",
        "repetition_loss,no_7_3",
        "only_enemy_rat_blocks,draw_plies=20",
        "rats_do_not_block,no_17_5",
        "no_rivers",
    ];
    let starts = [
        START,
        "l5t/1d1r1c1/2p1w1e/1R5/3L3/7/E1W1P2/1C3D1/T6 b 3 7",
        "7/4l2/2t2p1/7/1r5/7/1L1W1T1/7/7 r",
        "6l/7/7/1r5/eR1C3/E6/7/7/7 w",
    ];
    let mut rng = Rng(20_261_129);
    for round in 0..48 {
        let variant = variants[round % variants.len()];
        let start = starts[(round / variants.len()) % starts.len()];
        let rules = RefRules::parse(variant).unwrap();
        let mut game = RefGame::new(RefPos::from_jfen(start, rules).unwrap());
        let mut history: Vec<String> = Vec::new();
        let length = 10 + rng.below(50);
        while history.len() < length && game.outcome().is_none() {
            let legal = game.legal_moves();
            let pick = rng.below(100);
            let last_own = game
                .plies
                .iter()
                .rev()
                .find(|p| p.side == game.pos().turn)
                .copied();
            let back = last_own.and_then(|p| legal.iter().copied().find(|&m| m == (p.to, p.from)));
            let choice = if pick < 4 {
                None
            } else if pick < 60 && back.is_some() {
                back
            } else {
                Some(legal[rng.below(legal.len())])
            };
            history.push(choice.map_or("--".to_string(), mv_text));
            game.play(choice);
            // Check every few plies, and at the end.
            if !history.len().is_multiple_of(7)
                && history.len() < length
                && game.outcome().is_none()
            {
                continue;
            }
            let mut args = vec!["--fen", start, "--rules", variant, "--moves"];
            args.extend(history.iter().map(String::as_str));
            let (legal, outcome) = moves(&args);
            let mut expected: Vec<String> = game.legal_moves().into_iter().map(mv_text).collect();
            expected.sort();
            assert_eq!(legal, expected, "{variant} {start} {history:?}");
            assert_eq!(
                outcome,
                outcome_line(game.outcome()),
                "{variant} {start} {history:?}"
            );
        }
        // Perft of the final position (position rules only) against the reference.
        let fen = game.pos().jfen();
        let depth = 2 + (round % 2) as u32;
        let out = ok(&[
            "perft",
            "--fen",
            &fen,
            "--rules",
            variant,
            "--divide",
            &depth.to_string(),
        ]);
        let lines: Vec<&str> = out.lines().collect();
        let pos = game.pos();
        assert_eq!(
            lines.last().copied(),
            Some(pos.perft(depth).to_string().as_str()),
            "{fen} {variant}"
        );
        let mut expected: Vec<String> = pos
            .legal_moves()
            .into_iter()
            .map(|m| {
                let mut child = pos.clone();
                child.play(m);
                format!("{}: {}", mv_text(m), child.perft(depth - 1))
            })
            .collect();
        expected.sort();
        assert_eq!(&lines[..lines.len() - 1], &expected[..], "{fen} {variant}");
    }
}
