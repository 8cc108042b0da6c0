//! Perft: counting legal move sequences of a position (RULES §6, last paragraph).

use crate::{Move, Position};

/// The number of legal move sequences of `depth` plies from `pos` (position rules §4–§6.2; a
/// move that ends the game is a leaf). Counts the moves at the last ply without playing them
/// ("bulk counting").
///
/// ```
/// use jungle::{perft, Position};
/// assert_eq!(perft(&Position::default(), 2), 576);
/// ```
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_moves() as u64,
        _ => {
            let mut n = 0;
            for &m in pos.legal_moves().as_slice() {
                let mut child = *pos;
                child.play_unchecked(m);
                n += perft(&child, depth - 1);
            }
            n
        }
    }
}

/// Perft split by root move, in generation order.
pub fn perft_divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .as_slice()
        .iter()
        .map(|&m| {
            let mut child = *pos;
            child.play_unchecked(m);
            (m, perft(&child, depth - 1))
        })
        .collect()
}
