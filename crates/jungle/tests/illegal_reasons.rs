//! The reason given for an illegal move names the rule that forbids it (RULES §4–§5).

use jungle::{Jfen, Move, Position, Rules, Square};

fn reason(jfen: &str, from: Square, to: Square) -> String {
    let pos = Jfen::parse_position(jfen, Rules::STANDARD).expect("valid test position");
    pos.illegal_reason(Move::new(from, to))
        .expect("the move is illegal")
}

#[test]
fn out_of_reach_is_said_before_anything_about_the_target_square() {
    // RULES §4.1: one step at a time; g9 is out of reach though it holds an enemy animal.
    let start = Position::start(Rules::STANDARD);
    let r = start
        .illegal_reason(Move::new(Square::G3, Square::G9))
        .expect("illegal");
    assert!(r.contains("cannot reach g9"), "{r}");
}

#[test]
fn each_rule_has_its_own_reason() {
    // RULES §4.2: no animal enters its own den.
    let r = reason("l6/7/7/7/7/7/7/3D3/R6 r 0 1", Square::D2, Square::D1);
    assert!(r.contains("own den"), "{r}");
    // RULES §4.3: only the rat enters water.
    let r = reason(jungle::START_JFEN, Square::C3, Square::C4);
    assert!(r.contains("only the rat"), "{r}");
    // RULES §4.1: not onto an own animal.
    let r = reason(
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C4D/T5L r 0 1",
        Square::G1,
        Square::G2,
    );
    assert!(r.contains("own animal"), "{r}");
    // RULES §5.4: the cat may not capture the dog.
    let r = reason(
        "l5t/5c1/r1p1w1e/7/7/7/E1W1P1R/1Cd3D/T5L r 0 1",
        Square::B2,
        Square::C2,
    );
    assert!(r.contains("may not capture the dog"), "{r}");
    // RULES §4.4: a rat in the river blocks the jump.
    let r = reason("l6/7/7/7/Lr5/7/7/7/R6 r 0 1", Square::A5, Square::D5);
    assert!(r.contains("blocks the jump"), "{r}");
}

#[test]
fn each_reason_comes_as_data_with_a_code_and_the_facts_it_names() {
    use jungle::{Color, Game, Illegal, MoveText, Role};
    let why = |jfen: &str, from: Square, to: Square| {
        let pos = Jfen::parse_position(jfen, Rules::STANDARD).unwrap();
        let why = pos.why_illegal(Move::new(from, to)).expect("illegal");
        assert_eq!(
            pos.illegal_reason(Move::new(from, to)),
            Some(why.to_string()),
            "the text is the data's English"
        );
        why
    };
    let coord = |s: &str| Move::new(s[..2].parse().unwrap(), s[2..].parse().unwrap());
    let start = jungle::START_JFEN;
    let w = why(start, Square::C3, Square::C4);
    assert_eq!((w, w.code()), (Illegal::WaterOnlyRat, "water_only_rat"));
    assert!(w.params().is_empty());
    let w = why(start, Square::G3, Square::G9);
    assert_eq!(w.code(), "cannot_reach");
    assert_eq!(
        w.params(),
        [
            ("animal", "R".to_string()),
            ("from", "g3".to_string()),
            ("to", "g9".to_string())
        ]
    );
    let w = why(start, Square::A7, Square::A6);
    assert_eq!(
        w,
        Illegal::NotYourAnimal {
            role: Role::Rat,
            from: Square::A7,
            owner: Color::Blue,
            turn: Color::Red
        }
    );
    assert_eq!(w.params()[2], ("owner", "blue".to_string()));
    let w = why(
        "l5t/5c1/r1p1w1e/7/7/7/E1W1P1R/1Cd3D/T5L r 0 1",
        Square::B2,
        Square::C2,
    );
    assert_eq!(w.code(), "may_not_capture");
    assert_eq!(w.params()[1], ("victim", "D".to_string()));
    assert_eq!(why(start, Square::D4, Square::D5).code(), "no_animal");

    // §7 by the game's history: the 7-3 rule, with the square and the count.
    let mut game = Game::new(Rules::STANDARD);
    for m in [
        "g3g4", "a7a6", "g4g5", "a6a5", "g5g4", "a5a4", "g4g5", "a9a8", "g5g4", "a8a7", "g4g5",
        "e7d7",
    ] {
        game.play(coord(m)).unwrap();
    }
    let m = coord("g5g4");
    let w = game.why_illegal(m).expect("forbidden by §7.1");
    assert_eq!(w.code(), "rule_7_3");
    assert_eq!(
        w.params(),
        [
            ("animal", "R".to_string()),
            ("to", "g4".to_string()),
            ("times", "3".to_string())
        ]
    );
    let e = game.play(m).unwrap_err();
    assert_eq!((e.why, e.reason.clone()), (w, w.to_string()));

    // A written move that does not fit the position.
    let pos = Position::start(Rules::STANDARD);
    let e = "Rxg4"
        .parse::<MoveText>()
        .unwrap()
        .to_move(&pos)
        .unwrap_err();
    assert_eq!(e.why, Illegal::NotACapture { to: Square::G4 });
    assert_eq!(e.reason, "`x` marks a capture, but g4 is empty");
    let e = "Rg4#"
        .parse::<MoveText>()
        .unwrap()
        .to_move(&pos)
        .unwrap_err();
    assert_eq!(e.why.code(), "not_the_den");
}

/// The RULES section cited in the doc comment just above the variant `variant` of `Illegal`.
fn cited_section(variant: &str) -> String {
    let source = include_str!("../src/illegal.rs");
    let lines: Vec<&str> = source.lines().collect();
    let at = lines
        .iter()
        .position(|l| {
            let l = l.trim();
            l.strip_prefix(variant)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with([',', ' ']))
        })
        .unwrap_or_else(|| panic!("no variant {variant}"));
    let doc: Vec<&str> = lines[..at]
        .iter()
        .rev()
        .take_while(|l| l.trim().starts_with("///"))
        .copied()
        .collect();
    let doc = doc.into_iter().rev().collect::<Vec<_>>().join(" ");
    let from = doc
        .find('§')
        .unwrap_or_else(|| panic!("{variant}: no section in {doc}"));
    doc[from..]
        .chars()
        .skip(1)
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect::<String>()
        .trim_end_matches('.')
        .to_string()
}

#[test]
fn reasons_cite_the_rules_section_that_forbids_the_move() {
    // RULES §4.2 forbids entering the own den; §5 says who may capture whom; §4.3 water; §4.4
    // the jump.
    assert_eq!(cited_section("OwnDen"), "4.2");
    assert_eq!(cited_section("MayNotCapture"), "5");
    assert_eq!(cited_section("WaterOnlyRat"), "4.3");
    assert_eq!(cited_section("RatBlocksJump"), "4.4");
}
