//! Perft from the start position (RULES §6): depths 1–6 in the normal suite, 7–8 ignored.

use jungle::{perft, Position, Rules};

const START: [u64; 8] = [
    24,
    576,
    12_240,
    260_099,
    5_111_620,
    100_453_636,
    1_908_199_299,
    36_245_152_212,
];

#[test]
fn perft_start_1_to_5() {
    // RULES §6: perft figures from the start position.
    let pos = Position::start(Rules::STANDARD);
    for d in 1..=5 {
        assert_eq!(perft(&pos, d), START[d as usize - 1], "depth {d}");
    }
}

#[test]
fn perft_start_6() {
    // RULES §6
    assert_eq!(perft(&Position::start(Rules::STANDARD), 6), START[5]);
}

#[test]
#[ignore = "slow: ~10 s in release"]
fn perft_start_7() {
    // RULES §6
    assert_eq!(perft(&Position::start(Rules::STANDARD), 7), START[6]);
}

#[test]
#[ignore = "slow: minutes"]
fn perft_start_8() {
    // RULES §6
    assert_eq!(perft(&Position::start(Rules::STANDARD), 8), START[7]);
}
