//! Benchmarks for move generation, make/unmake (copy-make) and perft.
#![allow(missing_docs)]

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use jungle::{perft, Jfen, Position, Rules};

const MIDGAME: &str = "l5t/1d1r1c1/2p1w1e/1R5/3L3/7/E1W1P2/1C3D1/T6 b 3 7";

fn positions() -> Vec<(&'static str, Position)> {
    vec![
        ("start", Position::start(Rules::STANDARD)),
        (
            "midgame",
            Jfen::parse_position(MIDGAME, Rules::STANDARD).expect("valid bench position"),
        ),
    ]
}

fn bench(c: &mut Criterion) {
    for (name, pos) in positions() {
        c.bench_function(&format!("legal_moves/{name}"), |b| {
            b.iter(|| black_box(&pos).legal_moves())
        });
        c.bench_function(&format!("count_moves/{name}"), |b| {
            b.iter(|| black_box(&pos).count_moves())
        });
        let moves = pos.legal_moves();
        c.bench_function(&format!("copy_make/{name}"), |b| {
            b.iter(|| {
                let mut n = 0u64;
                for &m in moves.as_slice() {
                    let mut child = *black_box(&pos);
                    child.play_unchecked(m);
                    n ^= child.hash();
                }
                n
            })
        });
    }
    let start = Position::start(Rules::STANDARD);
    c.bench_function("perft/start/4", |b| b.iter(|| perft(black_box(&start), 4)));
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = bench
}
criterion_main!(benches);
