//! Move text parser (RULES §10): coordinates, `--`, SAN, Chinese. Never panics; what parses prints
//! back to the same move text; resolving it against a position never panics either.
#![no_main]

use jungle::{MoveText, Position, Rules};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(mt) = text.parse::<MoveText>() else {
        return;
    };
    let printed = mt.to_string();
    assert_eq!(
        printed.parse::<MoveText>().expect("printed move parses"),
        mt
    );
    let pos = Position::start(Rules::STANDARD);
    if let Ok(m) = mt.to_move(&pos) {
        assert!(m.is_pass() || pos.is_legal(m));
    }
});
