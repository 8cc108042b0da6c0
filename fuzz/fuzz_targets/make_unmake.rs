//! Make/unmake and hash consistency: plays legal moves chosen by the fuzz bytes in a `Game`
//! (first byte: the rule set), checking after every ply that the bitboards, the mailbox and the
//! incremental hash agree (`Position::assert_consistent`), that `hash_after` predicts the hash,
//! that `undo` restores the previous position exactly, and that equal positions hash equally.
#![no_main]

use jungle::{Game, Move, Rules};
use libfuzzer_sys::fuzz_target;

const RULES: [&str; 8] = [
    "standard",
    "wolf_over_dog",
    "only_enemy_rat_blocks",
    "rats_do_not_block,no_shore_rat_capture",
    "no_7_3,no_17_5",
    "repetition_loss,no_7_3",
    "draw_plies=40",
    "no_rivers",
];

fuzz_target!(|data: &[u8]| {
    let Some((&first, choices)) = data.split_first() else {
        return;
    };
    let rules: Rules = RULES[first as usize % RULES.len()].parse().unwrap();
    let mut game = Game::new(rules);
    let mut seen = std::collections::HashMap::new();
    for &c in choices.iter().take(2000) {
        if game.outcome().is_some() {
            break;
        }
        let legal = game.legal_moves();
        let m = if c == 255 || legal.is_empty() {
            Move::PASS
        } else {
            legal[c as usize % legal.len()]
        };
        let before = *game.position();
        let expected = before.hash_after(m);
        game.play(m).expect("a legal move plays");
        let pos = *game.position();
        pos.assert_consistent();
        assert_eq!(pos.hash(), expected, "hash_after");
        // Undo and redo: exactly the same positions.
        game.undo().expect("a ply to undo");
        assert_eq!(*game.position(), before);
        game.play(m).unwrap();
        assert_eq!(*game.position(), pos);
        // Equal piece placement and side to move means equal hash.
        let key = (pos.to_setup().board, pos.turn());
        let h = *seen.entry(key).or_insert(pos.hash());
        assert_eq!(h, pos.hash());
    }
});
