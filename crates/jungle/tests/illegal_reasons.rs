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
