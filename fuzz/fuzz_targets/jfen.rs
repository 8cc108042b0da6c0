//! JFEN parser (RULES §10): never panics; what parses prints back to the same setup; what
//! validates is a consistent position whose moves can all be played.
#![no_main]

use jungle::{Jfen, Position, Rules};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(jfen) = text.parse::<Jfen>() else {
        return;
    };
    let printed = jfen.to_string();
    let again: Jfen = printed.parse().expect("a printed JFEN parses");
    assert_eq!(again, jfen);
    for rules in [Rules::STANDARD, "no_rivers".parse().unwrap()] {
        let Ok(pos) = jfen.to_position(rules) else {
            continue;
        };
        pos.assert_consistent();
        assert_eq!(Jfen::from_position(&pos).to_string(), printed);
        assert_eq!(pos.count_moves() as usize, pos.legal_moves().len());
        let _ = pos.outcome();
        for &m in pos.legal_moves().iter() {
            let mut child: Position = pos;
            let expected = pos.hash_after(m);
            child.play(m).expect("a legal move plays");
            child.assert_consistent();
            assert_eq!(child.hash(), expected);
        }
    }
});
