//! Prints positions from short self-play games (used once to pick the bench positions and to
//! seed the opening suite): `cargo run -p jungle-engine --example genpos -- <games> <depth>`.

use jungle::{Game, Jfen, Rules};
use jungle_engine::{Engine, EngineOptions, Limits};

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let games = args.first().copied().unwrap_or(6);
    let depth = args.get(1).copied().unwrap_or(5) as u32;
    let mut seed = 0x1234_5678_u64;
    let mut rnd = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for g in 0..games {
        let mut game = Game::new(Rules::STANDARD);
        let mut engine = Engine::new(EngineOptions::default());
        for ply in 0..160 {
            if game.outcome().is_some() {
                break;
            }
            let legal = game.legal_moves();
            let m = if ply < 4 + (g as usize % 4) {
                legal[(rnd() % legal.len() as u64) as usize]
            } else {
                engine
                    .search(
                        &game,
                        Limits {
                            depth: Some(depth),
                            ..Limits::default()
                        },
                    )
                    .best
                    .expect("a legal move")
            };
            game.play(m).expect("legal");
            if ply % 8 == 7 {
                println!(
                    "{} ; game {g} ply {}",
                    Jfen::from_position(game.position()),
                    ply + 1
                );
            }
        }
        println!(
            "# game {g} ended {:?} after {} plies",
            game.outcome(),
            game.len()
        );
    }
}
