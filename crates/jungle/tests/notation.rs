//! RULES §10 notation: squares, coordinate and SAN-like moves (Chinese included), JFEN and game
//! records. Round trips `parse(print(x)) == x` as property tests, the examples of RULES.md, and
//! the errors: every parse error names its field and position, invalid positions list every
//! problem.

use jungle::{
    Color, Game, GameRecord, Jfen, JfenError, JfenField, Move, MoveText, Piece, Position,
    RecordError, Role, Rules, San, Setup, Square, START_JFEN,
};
use proptest::prelude::*;

mod support;
use support::strategies::any_rules;

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
    // A text that does not start with a board is told what is wrong with its board, whatever
    // its number of fields (RULES §10: the field and position at fault).
    check("not a position", "char", &[("ch", "n"), ("rank", "9")]);
    check(
        "not a real jfen position",
        "char",
        &[("ch", "n"), ("rank", "9")],
    );
    check("/////////", "rank_files", &[("rank", "9")]);
}

#[test]
fn jfen_errors_blame_the_board_before_the_number_of_fields() {
    // RULES §10: errors are reported with the field and position at fault. A board that does
    // not read is that fault, whatever the number of fields (the audit's cases: these were
    // blamed on a missing move number, a missing side to move, an extra field).
    let board = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L";
    for (text, position, code) in [
        ("hello world again", 0, "char"),
        ("xyz", 0, "char"),
        ("/////////", 0, "rank_files"),
        ("xx r 0 1 z", 0, "char"),
        ("7/7/7 r 0 1 z", 5, "ranks"),
        ("l6/7/7/7/7/7/7/7/6Lx", 19, "char"),
    ] {
        jfen_fails(text, JfenField::Board, position);
        let e = text.parse::<Jfen>().unwrap_err();
        assert_eq!(e.code(), code, "{text}: {e}");
        assert!(e.to_string().contains("(board field, "), "{e}");
    }
    let shown = |text: &str| text.parse::<Jfen>().expect_err(text).to_string();
    assert_eq!(
        shown("xyz"),
        "invalid JFEN (board field, at character 1): unexpected `x`: expected an animal letter \
         (ELTPDWCR, uppercase Red, lowercase Blue), a digit 1-7 or `/`"
    );
    assert_eq!(
        shown("/////////"),
        "invalid JFEN (board field, at character 1): rank 9 has 0 squares, expected 7"
    );
    // With a board that reads, the fields are read in order: the first one at fault is named,
    // and the number of fields only when the fields before the missing or extra one are right
    // (a board alone and `r 0`: see above).
    for (tail, field, at) in [
        (" r x", JfenField::Halfmoves, 3),
        (" r x 1 z", JfenField::Halfmoves, 3),
        (" r 0 0 z", JfenField::Fullmoves, 5),
        (" r 0 1 z", JfenField::Whole, 7),
    ] {
        jfen_fails(&format!("{board}{tail}"), field, board.len() + at);
    }
    assert_eq!(
        shown(&format!("{board} r 0 1 z")),
        "invalid JFEN (at character 49): unexpected extra field `z`"
    );
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
    let game = game_from("6l/7/7/7/7/7/7/7/2E3t r 0 1", &["c1c2", "g1f1", "c2c3"]);
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

/// Plays coordinate moves from `jfen` under the standard rules.
fn game_from(jfen: &str, moves: &[&str]) -> Game {
    let mut game = Game::from_position(Jfen::parse_position(jfen, Rules::STANDARD).unwrap());
    for m in moves {
        let m = m
            .parse::<MoveText>()
            .unwrap()
            .to_move(game.position())
            .unwrap();
        game.play(m).unwrap();
    }
    game
}

#[test]
fn a_record_result_must_be_the_boards_when_the_moves_end_the_game() {
    // RULES §6, §10: when the moves end the game on the board, the record's result is the
    // board's. The audit's case: Red's lion enters the den, but the record says Blue won.
    use jungle::{Outcome, Termination};
    let den = "[FEN \"6l/7/3L3/7/7/7/7/7/7 r 0 1\"]\n\n1. Ld8 lg8 2. Ld9#";
    let rec: GameRecord = format!("{den} 0-1").parse().unwrap();
    let e = rec.to_game().unwrap_err();
    let red_den = Outcome {
        winner: Some(Color::Red),
        termination: Termination::Den,
    };
    assert_eq!(
        e,
        RecordError::BoardResultMismatch {
            plies: 3,
            outcome: red_den,
            result: "0-1".into()
        }
    );
    assert_eq!(
        e.to_string(),
        "the game ended on the board after 3 plies (red den: 1-0), but the record's result is `0-1`"
    );
    // `*` and a draw are contradictions too; the board's result is accepted.
    for result in ["*", "1/2-1/2"] {
        let rec: GameRecord = format!("{den} {result}").parse().unwrap();
        assert!(
            matches!(rec.to_game(), Err(RecordError::BoardResultMismatch { .. })),
            "{result}"
        );
    }
    let rec: GameRecord = format!("{den} 1-0").parse().unwrap();
    assert_eq!(rec.to_game().unwrap().outcome(), Some(red_den));
    // Without a result token, a `[Result]` tag gives the result; without either, `*`.
    let rec: GameRecord = format!("[Result \"0-1\"]\n{den}").parse().unwrap();
    assert_eq!(rec.result, "0-1");
    assert!(rec.to_game().is_err());
    let rec: GameRecord = den.parse().unwrap();
    assert_eq!(rec.result, "*");
    assert!(rec.to_game().is_err());

    // The other ends by the rules: no legal move (the blue rat boxed in on a9) ...
    let boxed = "[FEN \"r6/CD5/7/7/7/7/7/7/7 r 0 1\"]\n\n1. Db9";
    let rec: GameRecord = format!("{boxed} 0-1").parse().unwrap();
    let e = rec.to_game().unwrap_err();
    assert!(
        matches!(e, RecordError::BoardResultMismatch { plies: 1, outcome, .. }
            if outcome.termination == Termination::NoMoves),
        "{e}"
    );
    let rec: GameRecord = format!("{boxed} 1-0").parse().unwrap();
    assert!(rec.to_game().unwrap().outcome().is_some());
    // ... a wipe-out ...
    let wipe = "[FEN \"6l/7/7/7/7/7/7/c6/R6 b 0 5\"]\n\n5... Cxa1";
    let rec: GameRecord = format!("{wipe} 1-0").parse().unwrap();
    assert!(matches!(
        rec.to_game(),
        Err(RecordError::BoardResultMismatch { .. })
    ));
    // ... and the no-capture draw (RULES §6.4, 200 plies).
    let draw = "[FEN \"l6/7/7/7/7/7/7/7/6L r 199 1\"]\n\n1. Lg2";
    let rec: GameRecord = format!("{draw} 1-0").parse().unwrap();
    let e = rec.to_game().unwrap_err();
    assert!(e.to_string().contains("draw draw-plies: 1/2-1/2"), "{e}");
    let rec: GameRecord = format!("{draw} 1/2-1/2").parse().unwrap();
    assert!(rec.to_game().is_ok());

    // A game not ended on the board may carry any result (time, resignation, agreement).
    for result in ["1-0", "0-1", "1/2-1/2", "*"] {
        let rec: GameRecord = format!("[Result \"{result}\"]\n\n1. Rg4 {result}")
            .parse()
            .unwrap();
        assert!(rec.to_game().unwrap().outcome().is_none(), "{result}");
    }
}

#[test]
fn a_result_tag_must_agree_with_the_result_token() {
    // RULES §10: the `[Result]` tag and the result after the moves are the same result.
    let e = "[Result \"0-1\"] 1. Rg4 1-0"
        .parse::<GameRecord>()
        .unwrap_err();
    assert_eq!((e.line, e.column), (1, 23), "{e}");
    assert_eq!(
        e.message,
        "the result `1-0` disagrees with the [Result] tag `0-1` at line 1, column 1"
    );
    // Two `[Result]` tags must agree too; a `[Result]` tag is one of the four results.
    let e = "[Result \"0-1\"]\n[Result \"1-0\"]\n*"
        .parse::<GameRecord>()
        .unwrap_err();
    assert_eq!((e.line, e.column), (2, 1), "{e}");
    assert!(
        e.message.contains("`1-0`") && e.message.contains("`0-1`"),
        "{e}"
    );
    let e = "[Event \"x\"]\n[Result \"resign\"]\n1. Rg4 *"
        .parse::<GameRecord>()
        .unwrap_err();
    assert_eq!((e.line, e.column), (2, 1), "{e}");
    assert!(e.message.contains("`resign` is not a result"), "{e}");
    // Agreeing ones read.
    let rec: GameRecord = "[Result \"0-1\"]\n[Result \"0-1\"]\n1. Rg4 0-1"
        .parse()
        .unwrap();
    assert_eq!(rec.result, "0-1");
    // A record built field by field that contradicts itself is refused when replayed.
    let mut rec: GameRecord = "[Result \"0-1\"] 1. Rg4 0-1".parse().unwrap();
    rec.result = "1-0".into();
    assert_eq!(
        rec.to_game().unwrap_err(),
        RecordError::ResultTagMismatch {
            tag: "0-1".into(),
            result: "1-0".into()
        }
    );
}

#[test]
fn from_game_writes_the_boards_end_over_the_callers_tags() {
    // The audit's case: a den win given a time forfeit and a Blue win by the caller. The board's
    // end wins: its result and its termination.
    let game = game_from("6l/7/3L3/7/7/7/7/7/7 r 0 1", &["d7d8", "g9g8", "d8d9"]);
    assert_eq!(game.outcome().unwrap().result_str(), "1-0");
    let rec = GameRecord::from_game(&game, &[("Termination", "time forfeit"), ("Result", "0-1")]);
    assert_eq!(rec.tag("Termination"), Some("den"));
    assert_eq!(rec.tag("Result"), Some("1-0"));
    assert_eq!(rec.result, "1-0");
    let text = rec.to_string();
    assert!(!text.contains("time forfeit"), "{text}");
    let back: GameRecord = text.parse().unwrap();
    assert_eq!(back, rec);
    assert_eq!(back.to_game().unwrap().outcome(), game.outcome());
    // A game that goes on keeps the caller's termination (and its result is the board's `*`
    // until `set_result` ends it).
    let game = game_from(START_JFEN, &["g3g4"]);
    let rec = GameRecord::from_game(&game, &[("Termination", "time forfeit"), ("Result", "0-1")]);
    assert_eq!(rec.tag("Termination"), Some("time forfeit"));
    assert_eq!((rec.tag("Result"), rec.result.as_str()), (Some("*"), "*"));
}

#[test]
fn set_result_takes_only_results_and_not_against_the_board() {
    // RULES §10: results are 1-0, 0-1, 1/2-1/2 and *; anything else is refused, the record
    // unchanged.
    let game = game_from(START_JFEN, &["g3g4"]);
    let mut rec = GameRecord::from_game(&game, &[("Event", "e")]);
    let before = rec.clone();
    for bad in ["resign", "", "1-0 ", "2-0", "½-½"] {
        assert_eq!(
            rec.set_result(bad, "resign"),
            Err(RecordError::InvalidResult { value: bad.into() })
        );
        assert_eq!(rec, before);
    }
    assert_eq!(
        RecordError::InvalidResult {
            value: "resign".into()
        }
        .to_string(),
        "`resign` is not a result (1-0, 0-1, 1/2-1/2 or *)"
    );
    // An end the board does not show.
    rec.set_result("0-1", "resign").unwrap();
    assert_eq!(
        (rec.tag("Result"), rec.tag("Termination")),
        (Some("0-1"), Some("resign"))
    );
    let back: GameRecord = rec.to_string().parse().unwrap();
    assert_eq!(back, rec);
    assert!(back.to_game().is_ok());
    // Against an end the board shows: refused; the board's result keeps the board's
    // termination.
    let den = game_from("6l/7/3L3/7/7/7/7/7/7 r 0 1", &["d7d8", "g9g8", "d8d9"]);
    let mut rec = GameRecord::from_game(&den, &[]);
    let before = rec.clone();
    let e = rec.set_result("0-1", "time").unwrap_err();
    assert!(
        matches!(e, RecordError::BoardResultMismatch { plies: 3, .. }),
        "{e}"
    );
    assert_eq!(rec, before);
    rec.set_result("1-0", "time").unwrap();
    assert_eq!(rec, before);
}

#[test]
fn records_with_any_result_field_read_back() {
    // `Display` promises text that reads back, whatever the public fields hold: a result that is
    // not one is written as the `[Result]` tag's (or `*`), and `[Result]` tags as the result.
    let mut rec: GameRecord = "1. Rg4 *".parse().unwrap();
    rec.result = "resign".into();
    let text = rec.to_string();
    assert!(text.ends_with("1. Rg4 *\n"), "{text}");
    let back: GameRecord = text.parse().unwrap();
    assert_eq!(back.result, "*");
    // The struct itself is refused as a game: its result is not one.
    assert_eq!(
        rec.to_game().unwrap_err(),
        RecordError::InvalidResult {
            value: "resign".into()
        }
    );
    rec.set_tag("Result", "0-1");
    let text = rec.to_string();
    assert!(
        text.contains("[Result \"0-1\"]") && text.ends_with(" 0-1\n"),
        "{text}"
    );
    assert_eq!(text.parse::<GameRecord>().unwrap().result, "0-1");
    rec.result = "1-0".into();
    let text = rec.to_string();
    assert!(
        text.contains("[Result \"1-0\"]") && text.ends_with(" 1-0\n"),
        "{text}"
    );
    rec.set_tag("Result", "resign");
    rec.result = String::new();
    let text = rec.to_string();
    assert!(
        text.contains("[Result \"*\"]") && text.ends_with(" *\n"),
        "{text}"
    );
    assert!(text.parse::<GameRecord>().is_ok(), "{text}");
}

#[test]
fn control_characters_in_tag_values_read_as_spaces() {
    // As `set_tag` stores them and `Display` writes them: a tab, DEL, or a newline escaped with
    // `\` in a value are read as spaces, so that parse, print, parse gives the same record.
    for (text, value) in [
        ("[Event \"a\tb\"]\n*", "a b"),
        ("[Event \"a\u{7f}b\"]\n*", "a b"),
        ("[Event \"a\\\nb\"]\n*", "a b"),
        ("[Event \"a\\\tb\\\"\\\\\"]\n*", "a b\"\\"),
        ("[Event \"a\rb\u{85}c\"]\n*", "a b c"),
    ] {
        let rec: GameRecord = text.parse().unwrap_or_else(|e| panic!("{text:?}: {e}"));
        assert_eq!(rec.tag("Event"), Some(value), "{text:?}");
        let again: GameRecord = rec.to_string().parse().unwrap();
        assert_eq!(again, rec, "{text:?}");
        let mut set = GameRecord::default();
        set.set_tag("Event", value);
        assert_eq!(set.tag("Event"), Some(value));
    }
    // Positions after an escaped newline still count its line.
    let e = "[Event \"a\\\nb\"]\n1. Qz9 *"
        .parse::<GameRecord>()
        .unwrap_err();
    assert_eq!((e.line, e.column), (3, 4), "{e}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn records_with_arbitrary_tags_and_results_read_back(
        tags in prop::collection::vec((any_text(), any_text()), 0..6),
        raw in prop::collection::vec((any_text(), any_text()), 0..4),
        result in prop_oneof![
            Just("1-0".to_string()),
            Just("0-1".to_string()),
            Just("1/2-1/2".to_string()),
            Just("*".to_string()),
            any_text(),
        ],
        moves in prop::collection::vec(any::<u16>(), 0..10),
    ) {
        // `Display` writes text that `str::parse` reads back, and reading is stable: whatever
        // the tags (set with `set_tag` or put in the field directly) and the result field hold,
        // parse(print(x)) prints as x does and reads back to itself; tags set with `set_tag`
        // (other than `Result`) read back as stored.
        let mut rec = GameRecord::from_game(&random_game(Rules::STANDARD, &moves), &[]);
        for (k, v) in &tags {
            rec.set_tag(k, v.as_str());
        }
        rec.tags.extend(raw.iter().cloned());
        rec.result = result;
        let text = rec.to_string();
        let back: GameRecord = text
            .parse()
            .map_err(|e| TestCaseError::fail(format!("{text:?}\n{e}")))?;
        prop_assert_eq!(back.to_string(), text.clone());
        let again: GameRecord = back.to_string().parse().unwrap();
        prop_assert_eq!(&again, &back);
        // (Tags set with `set_tag` come before the raw ones, so `tag` finds them first.)
        for (k, _) in tags.iter().filter(|(k, _)| k != "Result") {
            prop_assert_eq!(back.tag(k), rec.tag(k), "{}", text);
        }
    }
}

/// Any text, control characters (C0, DEL, C1) and the record's own `"`, `\`, `[`, `]`, `{`
/// often among them (`any::<String>()` has no control characters).
fn any_text() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            any::<char>(),
            prop::char::range('\0', '\u{9f}'),
            prop::sample::select(vec![
                '"', '\\', '[', ']', '{', '}', '\n', '\t', '\r', '\u{7f}'
            ]),
        ],
        0..16,
    )
    .prop_map(|cs| cs.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn any_written_tag_value_reads_stably(value in any_text(), name in "[A-Za-z0-9_]{1,8}") {
        // A value as anyone may write it between the quotes (only `"`, `\` and the newline need
        // a `\`): parse, print, parse gives the same record, and the value is read as
        // `set_tag` stores it.
        let mut quoted = String::new();
        for c in value.chars() {
            if matches!(c, '"' | '\\' | '\n') {
                quoted.push('\\');
            }
            quoted.push(c);
        }
        let text = format!("[{name} \"{quoted}\"]\n\n1. Rg4 *\n");
        let rec: GameRecord = text
            .parse()
            .map_err(|e| TestCaseError::fail(format!("{text:?}\n{e}")))?;
        if name == "Result" {
            return Ok(());
        }
        let mut set = GameRecord::default();
        set.set_tag(&name, value.as_str());
        prop_assert_eq!(rec.tag(&name), set.tag(&name));
        let again: GameRecord = rec.to_string().parse().unwrap();
        prop_assert_eq!(&again, &rec);
        prop_assert_eq!(again.to_string(), rec.to_string());
    }
}
