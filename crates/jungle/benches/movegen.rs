//! Benchmarks for move generation, make/unmake (copy-make) and perft.
#![allow(missing_docs)]

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use jungle::{perft, Game, Jfen, Move, Position, Rules, Square};

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
    let midgame = Jfen::parse_position(MIDGAME, Rules::STANDARD).expect("valid bench position");
    c.bench_function("perft/midgame/3", |b| {
        b.iter(|| perft(black_box(&midgame), 3))
    });

    // A game's legal moves apply §7 (7-3, 17-5) over the history: the cost the engine and the
    // server pay at every ply. The rat shuttle of RULES §7.1 makes the filter do real work.
    let mut game = Game::new(Rules::STANDARD);
    let shuttle = [
        (Square::G3, Square::G4),
        (Square::A7, Square::A6),
        (Square::G4, Square::G3),
        (Square::A6, Square::A7),
    ];
    for _ in 0..3 {
        for (from, to) in shuttle {
            game.play(Move::new(from, to)).expect("legal shuttle");
        }
    }
    c.bench_function("game_legal_moves/shuttle", |b| {
        b.iter(|| black_box(&game).legal_moves())
    });
    let mut rep = Game::new("repetition_loss,no_7_3".parse().expect("rules"));
    for _ in 0..3 {
        for (from, to) in shuttle {
            rep.play(Move::new(from, to)).expect("legal shuttle");
        }
    }
    c.bench_function("game_legal_moves/repetition_loss", |b| {
        b.iter(|| black_box(&rep).legal_moves())
    });
    c.bench_function("game_play_undo/start", |b| {
        let mut g = Game::new(Rules::STANDARD);
        let moves = g.legal_moves();
        b.iter(|| {
            for &m in moves.as_slice() {
                g.play(black_box(m)).expect("legal");
                g.undo();
            }
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = bench
}
criterion_main!(benches);
