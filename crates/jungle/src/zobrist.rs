//! Zobrist keys, generated at compile time.

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const fn compute() -> ([[u64; 63]; 16], u64) {
    let mut keys = [[0u64; 63]; 16];
    let mut state = 0x4A75_6E67_6C65_2121u64;
    let mut p = 0;
    while p < 16 {
        let mut s = 0;
        while s < 63 {
            let (ns, v) = splitmix(state);
            state = ns;
            keys[p][s] = v;
            s += 1;
        }
        p += 1;
    }
    let (_, side) = splitmix(state);
    (keys, side)
}

const KEYS: ([[u64; 63]; 16], u64) = compute();

/// The key of piece index `piece` (0–15) on square index `sq`.
#[inline]
pub(crate) const fn piece_key(piece: usize, sq: usize) -> u64 {
    KEYS.0[piece][sq]
}

/// The key XORed in when Blue is to move.
pub(crate) const SIDE_KEY: u64 = KEYS.1;
