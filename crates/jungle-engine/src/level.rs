//! Playing levels 1–10 for the server's AI seats and the clients.
//!
//! | level | depth cap | node cap | evaluation noise |
//! |---|---|---|---|
//! | 1 | 1 | 2 000 | ±500 |
//! | 2 | 1 | 5 000 | ±200 |
//! | 3 | 2 | 10 000 | ±150 |
//! | 4 | 3 | 30 000 | ±100 |
//! | 5 | 4 | 100 000 | ±70 |
//! | 6 | 5 | 300 000 | ±45 |
//! | 7 | 7 | 1 000 000 | ±25 |
//! | 8 | 9 | 3 000 000 | ±12 |
//! | 9 | 12 | — | ±5 |
//! | 10 | — | — | none |
//!
//! Noise is a pseudo-random term added to every static evaluation, seeded afresh per search, so a
//! weak level misjudges positions like a beginner and varies its play. Every level keeps the exact
//! den rules of the search: even level 1 takes a den entry in one and stops one when it can.

/// What a level changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LevelSettings {
    /// Maximum depth (plies), if capped.
    pub max_depth: Option<u32>,
    /// Maximum nodes, if capped.
    pub max_nodes: Option<u64>,
    /// Amplitude of the evaluation noise in centipawns.
    pub noise: i32,
}

/// The settings of `level` (clamped to 1..=10).
pub fn settings(level: u8) -> LevelSettings {
    let (d, n, noise) = match level.clamp(1, 10) {
        1 => (Some(1), Some(2_000), 500),
        2 => (Some(1), Some(5_000), 200),
        3 => (Some(2), Some(10_000), 150),
        4 => (Some(3), Some(30_000), 100),
        5 => (Some(4), Some(100_000), 70),
        6 => (Some(5), Some(300_000), 45),
        7 => (Some(7), Some(1_000_000), 25),
        8 => (Some(9), Some(3_000_000), 12),
        9 => (Some(12), None, 5),
        _ => (None, None, 0),
    };
    LevelSettings {
        max_depth: d,
        max_nodes: n,
        noise,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_grow_monotonically() {
        let mut prev = settings(1);
        for l in 2..=10 {
            let s = settings(l);
            assert!(s.noise <= prev.noise);
            assert!(s.max_depth.unwrap_or(u32::MAX) >= prev.max_depth.unwrap_or(u32::MAX));
            prev = s;
        }
        assert_eq!(settings(10).noise, 0);
        assert_eq!(settings(0), settings(1));
        assert_eq!(settings(200), settings(10));
    }
}
