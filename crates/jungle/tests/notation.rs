//! RULES §10 notation: squares, coordinate and SAN-like moves (Chinese included), JFEN and game
//! records. Round trips `parse(print(x)) == x` as property tests, the examples of RULES.md, and
//! the errors: every parse error names its field and position, invalid positions list every
//! problem.

use jungle::{
    Color, Game, GameRecord, Jfen, JfenError, JfenField, Move, MoveText, Piece, Position,
    RecordError, Role, Rules, San, Setup, Square, START_JFEN,
};
use proptest::prelude::*;

fn sq(name: &str) -> Square {
    name.parse().expect("square")
}

/// A random game from the start (or a given JFEN): each choice picks a legal move, a large one
/// passes.
fn random_game(rules: Rules, choices: &[u16]) -> Game {
    let mut game = Game::new(rules);
    for &c in choices {
        if game.outcome().is_some() {
            break;
        }
        let legal = game.legal_moves();
        let m = if c % 23 == 0 || legal.is_empty() {
            Move::PASS
        } else {
            legal[c as usize % legal.len()]
        };
        game.play(m).expect("a legal choice");
    }
    game
}

fn any_setup() -> impl Strategy<Value = Setup> {
    (
        prop::collection::vec(0u8..40, 63),
        any::<bool>(),
        any::<u32>(),
        1u32..,
    )
        .prop_map(|(cells, blue, halfmoves, fullmoves)| {
            let mut s = Setup::empty();
            for (i, c) in cells.into_iter().enumerate() {
                if c < 16 {
                    let color = if c < 8 { Color::Red } else { Color::Blue };
                    s.board[i] = Some(Piece::new(color, Role::ALL[c as usize % 8]));
                }
            }
            s.turn = if blue { Color::Blue } else { Color::Red };
            s.halfmoves = halfmoves;
            s.fullmoves = fullmoves;
            s
        })
}

fn any_rules() -> impl Strategy<Value = Rules> {
    (any::<[bool; 8]>(), prop_oneof![Just(200u32), 0u32..1000]).prop_map(|(f, n)| Rules {
        wolf_over_dog: f[0],
        only_enemy_rat_blocks: f[1],
        rats_do_not_block: f[2],
        no_shore_rat_capture: f[3],
        rule_7_3: f[4],
        rule_17_5: f[5],
        repetition_loss: f[6],
        no_rivers: f[7],
        draw_plies: n,
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn jfen_round_trip(setup in any_setup()) {
        // RULES §10: parse(print(x)) == x for any board, side and counters.
        let text = Jfen(setup.clone()).to_string();
        let back: Jfen = text.parse().map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
        prop_assert_eq!(&back.0, &setup);
        prop_assert_eq!(back.to_string(), text);
    }

    #[test]
    fn rules_round_trip(rules in any_rules()) {
        // RULES §9: the rule string reads back to the same rules.
        let text = rules.to_string();
        prop_assert_eq!(text.parse::<Rules>().unwrap(), rules);
    }

    #[test]
    fn games_round_trip_through_moves_jfen_and_records(
        rules in any_rules(),
        choices in prop::collection::vec(any::<u16>(), 0..120),
    ) {
        // RULES §10: every move of a game as coordinates, SAN and Chinese SAN reads back to the
        // same move; every position's JFEN reads back to the same position; the record reads
        // back to the same record and replays to the same game.
        let game = random_game(rules, &choices);
        for (i, ply) in game.plies().iter().enumerate() {
            let before = game.position_at(i).unwrap();
            let coord = ply.mv.to_string();
            let mt: MoveText = coord.parse().unwrap();
            prop_assert_eq!(mt.to_string(), coord.clone());
            prop_assert_eq!(mt.to_move(before).unwrap(), ply.mv);
            let upper: MoveText = coord.to_uppercase().parse().unwrap();
            prop_assert_eq!(upper, mt, "coordinates are case-insensitive");
            let san = San::from_move(before, ply.mv);
            let san_text = san.to_string();
            let parsed: MoveText = san_text.parse().unwrap();
            prop_assert_eq!(parsed, san.0);
            prop_assert_eq!(parsed.to_move(before).unwrap(), ply.mv);
            let chinese: MoveText = san.chinese().parse().unwrap();
            prop_assert_eq!(chinese, san.0);
            let jfen = Jfen::from_position(before).to_string();
            prop_assert_eq!(&Jfen::parse_position(&jfen, rules).unwrap(), before);
        }
        let record = GameRecord::from_game(&game, &[("Event", "Round \"trip\" \\ test"), ("Red", "红方")]);
        let text = record.to_string();
        let back: GameRecord = text.parse().map_err(|e| TestCaseError::fail(format!("{text}\n{e}")))?;
        prop_assert_eq!(&back, &record);
        let replayed = back.to_game().unwrap();
        prop_assert_eq!(replayed.moves().collect::<Vec<_>>(), game.moves().collect::<Vec<_>>());
        prop_assert_eq!(replayed.outcome(), game.outcome());
        prop_assert_eq!(replayed.rules(), game.rules());
    }
}

#[test]
fn every_coordinate_move_round_trips() {
    // RULES §10: from-square + to-square, lowercase when printed; `--` is a pass.
    for from in Square::all() {
        for to in Square::all().filter(|&t| t != from) {
            let m = Move::new(from, to);
            let text = m.to_string();
            assert_eq!(text, format!("{from}{to}"));
            assert_eq!(text, text.to_lowercase());
            assert_eq!(
                text.parse::<MoveText>().unwrap(),
                MoveText::Coord { from, to }
            );
            assert_eq!(Move::from_u16(m.to_u16()), Some(m));
        }
    }
    assert_eq!(Move::PASS.to_string(), "--");
    assert_eq!("--".parse::<MoveText>().unwrap(), MoveText::Pass);
    assert_eq!(
        MoveText::Pass.to_move(&Position::default()).unwrap(),
        Move::PASS
    );
}

#[test]
fn san_examples() {
    // RULES §10: `Rg4`, `Lxd5`, `Ed9#`, Chinese `鼠g4`; no disambiguation is ever needed.
    let start = Position::default();
    let m = "Rg4".parse::<MoveText>().unwrap().to_move(&start).unwrap();
    assert_eq!(m, Move::new(sq("g3"), sq("g4")));
    assert_eq!(San::from_move(&start, m).to_string(), "Rg4");
    assert_eq!(San::from_move(&start, m).chinese(), "鼠g4");
    assert_eq!(
        "鼠g4".parse::<MoveText>().unwrap().to_move(&start).unwrap(),
        m
    );
    assert_eq!(
        "Lxd5".parse::<MoveText>().unwrap(),
        MoveText::San {
            role: Role::Lion,
            capture: true,
            to: sq("d5"),
            den: false
        }
    );
    assert_eq!(
        "Ed9#".parse::<MoveText>().unwrap(),
        MoveText::San {
            role: Role::Elephant,
            capture: false,
            to: sq("d9"),
            den: true
        }
    );
    // A capture by jump and a den entry in real positions.
    let pos = Jfen::parse_position("a6t/7/7/7/3L3/7/7/7/7 r 0 1", Rules::STANDARD);
    assert!(pos.is_err(), "a6t is not a rank: 8 squares");
    let pos = Jfen::parse_position("6t/7/7/7/3L2t/7/7/7/7 r 0 1", Rules::STANDARD);
    assert!(pos.is_err(), "two Blue tigers");
    let pos = Jfen::parse_position("6l/7/7/7/3L2t/7/7/7/7 r 0 1", Rules::STANDARD).unwrap();
    let jump = Move::new(sq("d5"), sq("g5"));
    assert_eq!(San::from_move(&pos, jump).to_string(), "Lxg5");
    assert_eq!(San::from_move(&pos, jump).chinese(), "狮xg5");
    let pos = Jfen::parse_position("2E3l/7/7/7/7/7/7/7/7 r 0 1", Rules::STANDARD).unwrap();
    let den = Move::new(sq("c9"), sq("d9"));
    assert_eq!(San::from_move(&pos, den).to_string(), "Ed9#");
    assert_eq!(
        "Ed9#".parse::<MoveText>().unwrap().to_move(&pos).unwrap(),
        den
    );
    // Traditional characters read too.
    assert_eq!("獅g5".parse::<MoveText>().unwrap(), "Lg5".parse().unwrap());
    assert_eq!("貓g5".parse::<MoveText>().unwrap(), "Cg5".parse().unwrap());
    // A wrong `x` or `#` is an error against the position.
    assert!("Rxg4".parse::<MoveText>().unwrap().to_move(&start).is_err());
    assert!("Rg4#".parse::<MoveText>().unwrap().to_move(&start).is_err());
}

#[test]
fn jfen_examples() {
    // RULES §10: `w` is read as `r`; the counters may be left out (read as `0 1`); printing
    // always writes all four fields.
    let board = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L";
    for text in [
        format!("{board} w 0 1"),
        format!("{board} r"),
        format!("{board} w"),
        format!("  {board}   r   0   1  "),
    ] {
        let pos = Jfen::parse_position(&text, Rules::STANDARD).unwrap();
        assert_eq!(Jfen::from_position(&pos).to_string(), START_JFEN, "{text}");
    }
    let pos = Jfen::parse_position(&format!("{board} b 17 9"), Rules::STANDARD).unwrap();
    assert_eq!(pos.turn(), Color::Blue);
    assert_eq!((pos.halfmoves(), pos.fullmoves()), (17, 9));
}

/// Asserts that `text` fails as JFEN in `field` at character `position` (0-based).
fn jfen_fails(text: &str, field: JfenField, position: usize) {
    let e = text.parse::<Jfen>().expect_err(text);
    assert_eq!((e.field, e.position), (field, position), "{text}: {e}");
    let shown = e.to_string();
    if field == JfenField::Whole {
        // The text as a whole is no field: `invalid JFEN (at character 1): empty JFEN`.
        assert!(shown.starts_with("invalid JFEN (at character "), "{shown}");
        assert!(!shown.contains(" field, "), "{shown}");
    } else {
        assert!(shown.contains(&format!("({field} field, ")), "{shown}");
    }
    assert!(
        shown.contains(&format!("character {}", position + 1)),
        "{shown}"
    );
}

#[test]
fn jfen_errors_name_field_and_position() {
    // RULES §10: errors in a JFEN are reported with the field and position at fault.
    let board = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L";
    jfen_fails("", JfenField::Whole, 0);
    jfen_fails(board, JfenField::Turn, board.len());
    jfen_fails(&format!("{board} x 0 1"), JfenField::Turn, board.len() + 1);
    jfen_fails(
        &format!("{board} r 0"),
        JfenField::Fullmoves,
        board.len() + 4,
    );
    jfen_fails(
        &format!("{board} r z 1"),
        JfenField::Halfmoves,
        board.len() + 3,
    );
    jfen_fails(
        &format!("{board} r -1 1"),
        JfenField::Halfmoves,
        board.len() + 3,
    );
    jfen_fails(
        &format!("{board} r 0 y"),
        JfenField::Fullmoves,
        board.len() + 5,
    );
    jfen_fails(
        &format!("{board} r 0 0"),
        JfenField::Fullmoves,
        board.len() + 5,
    );
    jfen_fails(
        &format!("{board} r 0 1 extra"),
        JfenField::Whole,
        board.len() + 7,
    );
    // A wrong number of fields with a bad side to move: the side to move is at fault (the one
    // forgotten before the counters, or a bad one), not the number of counters.
    jfen_fails("l6/7/7/7/7/7/7/7/6L 0 1", JfenField::Turn, 20);
    jfen_fails("l6/7/7/7/7/7/7/7/6L x 0", JfenField::Turn, 20);
    jfen_fails(
        &format!("{board} 0 1 2 3"),
        JfenField::Turn,
        board.len() + 1,
    );
    // Board: a bad letter, a digit 8, too many squares, too few ranks, too many ranks.
    jfen_fails(
        "l5x/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r",
        JfenField::Board,
        2,
    );
    jfen_fails(
        "l5t/1d3c1/r1p1w1e/8/7/7/E1W1P1R/1C3D1/T5L r",
        JfenField::Board,
        18,
    );
    jfen_fails(
        "l6t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r",
        JfenField::Board,
        2,
    );
    jfen_fails(
        "l5t/1d3c/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r",
        JfenField::Board,
        8,
    );
    jfen_fails(
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1 r",
        JfenField::Board,
        37,
    );
    jfen_fails(
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L/7 r",
        JfenField::Board,
        41,
    );
    jfen_fails(
        "鼠5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r",
        JfenField::Board,
        0,
    );
    // Positions are counted in characters, not bytes.
    jfen_fails(
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L 红",
        JfenField::Turn,
        42,
    );
}

#[test]
fn jfen_errors_say_what_is_wrong_as_data() {
    // Each syntax error has a stable code and its facts, for clients' catalogues (`jfen_<code>`).
    let check = |text: &str, code: &str, params: &[(&str, &str)]| {
        let e = text.parse::<Jfen>().expect_err(text);
        assert_eq!(e.code(), code, "{text}: {e}");
        let got = e.params();
        let got: Vec<(&str, &str)> = got.iter().map(|(k, v)| (*k, v.as_str())).collect();
        assert_eq!(got, params, "{text}: {e}");
        // The English text says it too, with the field and position.
        assert!(e.to_string().starts_with("invalid JFEN ("), "{e}");
    };
    let board = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L";
    check(&"7/".repeat(200), "too_long", &[("max", "256")]);
    check("   ", "fields", &[]);
    check(board, "fields", &[]);
    check(&format!("{board} r 0"), "fields", &[]);
    check(&format!("{board} r 0 1 x"), "fields", &[]);
    check("7/7/7/7/7/7/7/7 r", "ranks", &[("n", "8")]);
    check(&format!("{board}/7/7 r"), "ranks", &[("n", "11")]);
    let short_8 = "l5t/1d3c/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r";
    check(short_8, "rank_files", &[("rank", "8")]);
    let long_1 = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T6L r";
    check(long_1, "rank_files", &[("rank", "1")]);
    let short_1 = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5 r";
    check(short_1, "rank_files", &[("rank", "1")]);
    let bad_char = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3x1/T5L r";
    check(bad_char, "char", &[("ch", "x"), ("rank", "2")]);
    check(&format!("{board} 红"), "turn", &[("found", "红")]);
    check(&format!("{board} r -1 1"), "counters", &[]);
    check(&format!("{board} r 0 0"), "move_number_zero", &[]);
    // The side to move is read before the fields are counted.
    check("l6/7/7/7/7/7/7/7/6L 0 1", "turn", &[("found", "0")]);
    check("l6/7/7/7/7/7/7/7/6L x 0", "turn", &[("found", "x")]);
    check(&format!("{board} x 0 1 2"), "turn", &[("found", "x")]);
    // Unless the text does not start with a board: then the number of fields is at fault.
    check("not a position", "fields", &[]);
    check("not a real jfen position", "fields", &[]);
}

#[test]
fn jfen_error_texts_read_naturally() {
    let shown = |text: &str| text.parse::<Jfen>().expect_err(text).to_string();
    assert_eq!(shown(""), "invalid JFEN (at character 1): empty JFEN");
    let board = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L";
    assert_eq!(
        shown(&format!("{board} r 0 1 extra")),
        "invalid JFEN (at character 49): unexpected extra field `extra`"
    );
    assert_eq!(
        shown("7/7 r"),
        "invalid JFEN (board field, at character 4): 2 ranks, expected 9"
    );
    assert_eq!(
        shown("l6/7/7/7/7/7/7/7/6L 0 1"),
        "invalid JFEN (side to move field, at character 21): expected `r` or `b` (or `w` for Red), found `0`"
    );
    assert_eq!(JfenField::Whole.to_string(), "whole text");
}

#[test]
fn invalid_positions_list_every_problem() {
    // RULES §10: an invalid position is rejected with a clear message naming every problem:
    // two Red lions, a piece on its own den, a non-rat in water, both sides finished.
    let text = "3d3/7/7/7/2D4/7/L6/7/L6 r 0 1";
    let err = Jfen::parse_position(text, Rules::STANDARD).unwrap_err();
    let JfenError::Position(p) = &err else {
        panic!("{err}")
    };
    let shown = err.to_string();
    assert_eq!(p.problems.len(), 3, "{shown}");
    // Each problem also comes as data, for programs that say it in their own words.
    let data: Vec<(&str, Vec<(&str, String)>)> =
        p.problems.iter().map(|q| (q.code(), q.params())).collect();
    let facts = |pairs: &[(&'static str, &str)]| -> Vec<(&'static str, String)> {
        pairs.iter().map(|&(k, v)| (k, v.to_string())).collect()
    };
    assert_eq!(
        data,
        vec![
            (
                "duplicate",
                facts(&[
                    ("color", "red"),
                    ("animal", "L"),
                    ("n", "2"),
                    ("squares", "a1, a3")
                ])
            ),
            (
                "in_water",
                facts(&[("color", "red"), ("animal", "D"), ("square", "c5")])
            ),
            (
                "own_den",
                facts(&[("color", "blue"), ("animal", "D"), ("square", "d9")])
            ),
        ],
        "{shown}"
    );
    for needle in [
        "2 Red lions",
        "a1, a3",
        "Blue dog on d9, its own den",
        "Red dog on c5",
        "water",
    ] {
        assert!(shown.contains(needle), "`{needle}` missing from: {shown}");
    }
    // Both dens entered (both sides finished), plus an elephant in the water.
    let err = Jfen::parse_position("3C3/7/7/7/1E5/7/7/7/3w3 r 0 1", Rules::STANDARD).unwrap_err();
    let JfenError::Position(p) = &err else {
        panic!("{err}")
    };
    assert_eq!(p.problems.len(), 2, "{err}");
    let codes: Vec<&str> = p.problems.iter().map(|q| q.code()).collect();
    assert_eq!(codes, ["in_water", "both_won"], "{err}");
    assert!(
        err.to_string().contains("both sides") && err.to_string().contains("b5"),
        "{err}"
    );
    // Each problem alone.
    for (text, needle) in [
        ("6l/7/7/7/7/7/L6/7/L6 r 0 1", "2 Red lions"),
        ("6l/7/7/7/7/7/7/7/3T3 r 0 1", "own den"),
        ("6l/7/7/7/1E5/7/7/7/6T r 0 1", "water"),
        ("3C3/7/7/7/7/7/7/7/3c3 r 0 1", "both sides"),
        ("7/7/7/7/7/7/7/7/7 r 0 1", "empty"),
    ] {
        let e = Jfen::parse_position(text, Rules::STANDARD).unwrap_err();
        assert!(e.to_string().contains(needle), "{text}: {e}");
    }
    // Under no_rivers a dog on c5 is fine.
    assert!(
        Jfen::parse_position("6l/7/7/7/2D4/7/7/7/6T r 0 1", "no_rivers".parse().unwrap()).is_ok()
    );
    // One side already won is accepted (and finished).
    let won = Jfen::parse_position("3C3/7/7/7/7/7/7/7/6r b 0 1", Rules::STANDARD).unwrap();
    assert!(won.is_finished() && won.legal_moves().is_empty());
    let wiped = Jfen::parse_position("7/7/7/7/7/7/7/7/6R b 0 1", Rules::STANDARD).unwrap();
    assert!(wiped.is_finished());
}

#[test]
fn move_errors_name_the_position() {
    // RULES §10: a move that cannot be read says where.
    for (text, position) in [
        ("", 0),
        ("g3", 0),
        ("g3g", 0),
        ("z3g4", 0),
        ("g3z4", 2),
        ("g3g3", 2),
        ("g0g1", 0),
        ("Rz4", 1),
        ("Rxz4", 2),
        ("Rg4!", 3),
        ("Rg4##", 4),
        ("鼠g4x", 3),
        ("g3g4g5g6g", 8),
    ] {
        let e = text.parse::<MoveText>().expect_err(text);
        assert_eq!(e.position, position, "{text}: {e}");
        assert!(e
            .to_string()
            .contains(&format!("character {}", position + 1)));
    }
    // Readable but not legal: the reason is given.
    let start = Position::default();
    let e = "g3g2g".parse::<MoveText>();
    assert!(e.is_err());
    let e = "c3c4"
        .parse::<MoveText>()
        .unwrap()
        .to_move(&start)
        .unwrap_err();
    assert!(e.to_string().contains("c3c4"), "{e}");
    assert!(e.reason.contains("water"), "{e}");
    let e = "a7a6"
        .parse::<MoveText>()
        .unwrap()
        .to_move(&start)
        .unwrap_err();
    assert!(e.reason.contains("blue"), "{e}");
    let e = "d4d5"
        .parse::<MoveText>()
        .unwrap()
        .to_move(&start)
        .unwrap_err();
    assert!(e.reason.contains("no animal"), "{e}");
    let e = "Rxg4"
        .parse::<MoveText>()
        .unwrap()
        .to_move(&start)
        .unwrap_err();
    assert!(e.reason.contains("empty"), "{e}");
}

const RECORD_EXAMPLE: &str = r#"[Event "Casual"] [Site "..."] [Date "2026.11.29"] [Red "..."] [Blue "..."]
[Result "1-0"] [Variant "standard"] [TimeControl "600+0/60"] [Termination "den"]
1. Rg4 Ra6 2. Lxd5 -- 3. Ed9# 1-0
"#;

#[test]
fn record_example_reads() {
    // RULES §10: the example record (its moves are a notation example, not a legal game).
    let rec: GameRecord = RECORD_EXAMPLE.parse().unwrap();
    assert_eq!(rec.tags.len(), 9);
    assert_eq!(rec.tag("Event"), Some("Casual"));
    assert_eq!(rec.tag("TimeControl"), Some("600+0/60"));
    assert_eq!(rec.tag("Termination"), Some("den"));
    assert_eq!(rec.result, "1-0");
    let moves: Vec<String> = rec.moves.iter().map(|m| m.to_string()).collect();
    assert_eq!(moves, ["Rg4", "Ra6", "Lxd5", "--", "Ed9#"]);
    assert_eq!(rec.rules().unwrap(), Rules::STANDARD);
    // Replaying checks every move and names the first bad one by its ply.
    match rec.to_game().unwrap_err() {
        RecordError::Move { index, text, .. } => assert_eq!((index, text.as_str()), (3, "Lxd5")),
        e => panic!("{e}"),
    }
    let again: GameRecord = rec.to_string().parse().unwrap();
    assert_eq!(again, rec);
}

#[test]
fn records_with_a_fen_and_results() {
    // RULES §10: `[FEN]` gives a non-standard start; results 1-0, 0-1, 1/2-1/2, *.
    let fen = "6l/7/7/7/7/7/7/c6/R6 b 0 5";
    let text = format!("[FEN \"{fen}\"]\n[Variant \"no_7_3\"]\n\n5... Cxa1 0-1\n");
    let rec: GameRecord = text.parse().unwrap();
    let game = rec.to_game().unwrap();
    assert_eq!(game.outcome().unwrap().result_str(), "0-1");
    assert_eq!(game.rules().to_string(), "no_7_3");
    assert_eq!(rec.to_string(), text);
    for result in ["1-0", "0-1", "1/2-1/2", "*"] {
        let rec: GameRecord = format!("1. Rg4 {result}").parse().unwrap();
        assert_eq!(rec.result, result);
    }
    // A record of a whole game to a den win.
    let mut game = Game::from_position(
        Jfen::parse_position("6l/7/7/7/7/7/7/7/2E3t r 0 1", Rules::STANDARD).unwrap(),
    );
    for m in ["c1c2", "g1f1", "c2c3"] {
        let m = m
            .parse::<MoveText>()
            .unwrap()
            .to_move(game.position())
            .unwrap();
        game.play(m).unwrap();
    }
    let rec = GameRecord::from_game(&game, &[]);
    assert_eq!(rec.tag("FEN"), Some("6l/7/7/7/7/7/7/7/2E3t r 0 1"));
    assert_eq!(rec.result, "*");
}

#[test]
fn record_errors_name_line_and_column() {
    // RULES §10: a record that cannot be read says where.
    for (text, line, column) in [
        ("[Event \"x\"\n1. Rg4 *", 1, 11),
        ("[Event x]", 1, 8),
        ("[ \"x\"]", 1, 2),
        ("[Event \"x", 1, 1),
        ("[Event \"x\"]\n\n1. Rg4 Qz9 *", 3, 8),
        ("1. Rg4 *\n2. Rg5", 2, 1),
        ("1. Rg4\n[Event \"late\"]", 2, 1),
        // An unclosed comment is reported where it opens.
        ("1. Rg4 {never closed", 1, 8),
        ("1. Rg4 {good\nmove Ra6 *", 1, 8),
        ("1.g3g44", 1, 3),
    ] {
        let e = text.parse::<GameRecord>().expect_err(text);
        assert_eq!((e.line, e.column), (line, column), "{text:?}: {e}");
        assert!(e
            .to_string()
            .contains(&format!("line {line}, column {column}")));
    }
    // Meaning errors: the variant, the FEN, a move.
    let e = "[Variant \"bogus\"]\n*"
        .parse::<GameRecord>()
        .unwrap()
        .to_game()
        .unwrap_err();
    assert!(e.to_string().contains("bogus"), "{e}");
    let e = "[FEN \"7/7 r\"]\n*"
        .parse::<GameRecord>()
        .unwrap()
        .to_game()
        .unwrap_err();
    assert!(e.to_string().contains("[FEN]"), "{e}");
    let e = "1. Rg4 Rg5 *"
        .parse::<GameRecord>()
        .unwrap()
        .to_game()
        .unwrap_err();
    assert!(e.to_string().contains("ply 2"), "{e}");
}

#[test]
fn records_with_any_tags_read_back() {
    // A tag value with a newline or another control character is written on one line (as
    // spaces), and a tag name with characters a record cannot hold is stored with `_`.
    let mut rec: GameRecord = "1. Rg4 *".parse().unwrap();
    rec.set_tag("Event", "line1\nline2\r\tend\u{7}");
    rec.set_tag("My Tag", "v");
    rec.set_tag("", "empty name");
    rec.set_tag("红方", "红");
    assert_eq!(rec.tag("Event"), Some("line1 line2  end "));
    assert_eq!(rec.tag("My Tag"), Some("v"));
    assert_eq!(rec.tag("My_Tag"), Some("v"));
    let text = rec.to_string();
    let back: GameRecord = text.parse().unwrap_or_else(|e| panic!("{text}\n{e}"));
    assert_eq!(back, rec);
    assert_eq!(back.tag("My_Tag"), Some("v"));
    assert_eq!(back.tag("_"), Some("empty name"));
    assert_eq!(back.tag("__"), Some("红"));
    // Replacing keeps one tag.
    rec.set_tag("My Tag", "w");
    assert_eq!(rec.tags.iter().filter(|(k, _)| k == "My_Tag").count(), 1);
    // Tags put into the field directly are written so that they read back, too.
    let direct = GameRecord {
        tags: vec![
            ("Event".into(), "a\nb \"q\" \\".into()),
            ("Bad Name!".into(), "x".into()),
        ],
        moves: Vec::new(),
        result: "*".into(),
    };
    let text = direct.to_string();
    let back: GameRecord = text.parse().unwrap_or_else(|e| panic!("{text}\n{e}"));
    assert_eq!(back.tag("Event"), Some("a b \"q\" \\"));
    assert_eq!(back.tag("Bad_Name_"), Some("x"));
    assert_eq!(back.to_string(), text);
    // And so are the tags given to `from_game`.
    let game = Game::new(Rules::STANDARD);
    let rec = GameRecord::from_game(&game, &[("Event", "one\ntwo"), ("My Tag", "v")]);
    let back: GameRecord = rec.to_string().parse().unwrap();
    assert_eq!(back, rec);
    assert_eq!(back.tag("Event"), Some("one two"));
}

#[test]
fn record_move_numbers_stop_at_the_largest() {
    // The position's move number saturates; so do the record's, without ever writing `0.`.
    let fen = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 0 4294967295";
    let mut game = Game::from_position(Jfen::parse_position(fen, Rules::STANDARD).unwrap());
    for m in ["a7a6", "g3g4", "a6a5"] {
        let m = m
            .parse::<MoveText>()
            .unwrap()
            .to_move(game.position())
            .unwrap();
        game.play(m).unwrap();
    }
    assert_eq!(game.position().fullmoves(), u32::MAX);
    let text = GameRecord::from_game(&game, &[]).to_string();
    assert!(
        text.contains("4294967295... Ra6 4294967295. Rg4 Ra5 *"),
        "{text}"
    );
    assert!(!text.contains(" 0."), "{text}");
    let back: GameRecord = text.parse().unwrap();
    assert_eq!(back.to_game().unwrap().position(), game.position());
}

#[test]
fn record_fen_tag_is_the_games_start() {
    // A given FEN tag never hides the game's real start: dropped from the start position,
    // replaced otherwise (as Variant and Result are).
    let other = "6l/7/7/7/7/7/7/7/2E3t r 0 1";
    let mut game = Game::new(Rules::STANDARD);
    let m = "g3g4"
        .parse::<MoveText>()
        .unwrap()
        .to_move(game.position())
        .unwrap();
    game.play(m).unwrap();
    let rec = GameRecord::from_game(&game, &[("Event", "e"), ("FEN", other)]);
    assert_eq!(rec.tag("FEN"), None);
    assert_eq!(rec.tag("Event"), Some("e"));
    let back: GameRecord = rec.to_string().parse().unwrap();
    assert_eq!(back.to_game().unwrap().position(), game.position());

    let game = Game::from_position(Jfen::parse_position(other, Rules::STANDARD).unwrap());
    let rec = GameRecord::from_game(&game, &[("FEN", START_JFEN)]);
    assert_eq!(rec.tag("FEN"), Some(other));
    assert_eq!(rec.tags.iter().filter(|(k, _)| k == "FEN").count(), 1);
}
