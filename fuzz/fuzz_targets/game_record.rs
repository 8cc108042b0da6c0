//! Game record parser (RULES §10): never panics; what parses prints back to the same record;
//! replaying it either fails with an error or gives a game whose record reads back.
#![no_main]

use jungle::GameRecord;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(rec) = text.parse::<GameRecord>() else {
        return;
    };
    let printed = rec.to_string();
    let again: GameRecord = printed.parse().expect("a printed record parses");
    assert_eq!(again, rec);
    if let Ok(game) = rec.to_game() {
        let out = GameRecord::from_game(&game, &[]);
        let replayed = out
            .to_string()
            .parse::<GameRecord>()
            .unwrap()
            .to_game()
            .unwrap();
        assert_eq!(
            replayed.moves().collect::<Vec<_>>(),
            game.moves().collect::<Vec<_>>()
        );
    }
});
