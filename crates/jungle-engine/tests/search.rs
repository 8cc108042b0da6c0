//! What players would notice: the engine finds den entries, stops them, and always moves legally
//! and in time, at every level and under every rule set.

use jungle::{Game, Jfen, Move, Rules, Square};
use jungle_engine::{choose_move, Engine, EngineOptions, Limits, Score};
use std::time::{Duration, Instant};

fn game(jfen: &str) -> Game {
    Game::from_position(Jfen::parse_position(jfen, Rules::STANDARD).expect("valid test position"))
}

fn search(g: &Game, depth: u32) -> jungle_engine::SearchResult {
    search_with(EngineOptions::default(), g, depth)
}

fn search_with(options: EngineOptions, g: &Game, depth: u32) -> jungle_engine::SearchResult {
    Engine::new(options).search(
        g,
        Limits {
            depth: Some(depth),
            ..Limits::default()
        },
    )
}

/// A small deterministic generator for random positions.
struct XorShift(u64);
impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn random_games(n: usize, seed: u64, rules: Rules) -> Vec<Game> {
    let mut rng = XorShift(seed);
    let mut out = Vec::new();
    while out.len() < n {
        let mut g = Game::new(rules);
        let plies = rng.next() % 80;
        for _ in 0..plies {
            let legal = g.legal_moves();
            if legal.is_empty() {
                break;
            }
            g.play(legal[(rng.next() % legal.len() as u64) as usize])
                .unwrap();
        }
        if g.outcome().is_none() {
            out.push(g);
        }
    }
    out
}

#[test]
fn finds_den_in_one() {
    // Red's leopard stands on d8, next to the blue den.
    let g = game("l5t/1d1P1c1/r3w1e/7/7/7/E1W3R/1C3D1/T5L r 0 1");
    let r = search(&g, 4);
    assert_eq!(r.best, Some(Move::new(Square::D8, Square::D9)));
    assert_eq!(r.score, Score::Den(1));
}

#[test]
fn finds_den_in_three() {
    // Red's dog on d6 walks d7, d8, d9; the lone blue rat on a1 can neither stop it nor reach
    // the red den first.
    let g = game("7/7/7/3D3/7/7/7/7/r6 r 0 1");
    let r = search(&g, 8);
    assert_eq!(r.score, Score::Den(3), "pv {:?}", r.pv);
    assert_eq!(r.best, Some(Move::new(Square::D6, Square::D7)));
}

#[test]
fn stops_a_den_entry_in_one_rather_than_win_material() {
    // Blue's wolf is on d2, next to the red den. Red's elephant could take the blue lion on a6,
    // but only the cat's capture on the trap d2 saves the den.
    let g = game("7/7/l6/E6/7/7/7/2Cw3/7 r 0 1");
    let r = search(&g, 5);
    assert_eq!(
        r.best,
        Some(Move::new(Square::C2, Square::D2)),
        "pv {:?}",
        r.pv
    );
    assert!(!matches!(r.score, Score::Den(n) if n < 0));
}

#[test]
fn sees_a_lost_position_as_lost() {
    // Two blue animals at the red den's doors: one capture cannot stop both.
    let g = game("7/7/7/7/7/7/3T3/2w1c2/7 r 0 1");
    let r = search(&g, 4);
    assert!(matches!(r.score, Score::Den(n) if n < 0), "{:?}", r.score);
    assert!(g.legal_moves().contains(r.best.unwrap()));
}

#[test]
fn den_races_on_both_sides_stay_within_the_time_limit() {
    // Both sides have animals within two steps of the enemy den.
    for jfen in [
        "2t4/1P5/7/3e3/7/3E3/7/5p1/4L2 b 0 1",
        "2l4/1T5/3P3/7/7/7/2r4/2c1W2/4L2 r 0 1",
        "2p4/2D1C2/7/7/7/7/7/2d1w2/2R4 r 0 1",
    ] {
        let g = game(jfen);
        let start = Instant::now();
        let r = Engine::new(EngineOptions::default()).search(
            &g,
            Limits {
                movetime: Some(Duration::from_millis(200)),
                ..Limits::default()
            },
        );
        let took = start.elapsed();
        assert!(g.legal_moves().contains(r.best.unwrap()), "{jfen}");
        // An iteration completed in time (a release build answers a panicked search with a
        // fallback move at depth 0).
        assert!(r.depth >= 1, "{jfen}: no iteration completed");
        assert!(took < Duration::from_millis(1500), "{jfen} took {took:?}");
    }
}

#[test]
fn level_one_and_level_ten_move_legally_on_random_positions() {
    for (i, g) in random_games(16, 0xDEAD_BEEF, Rules::STANDARD)
        .iter()
        .enumerate()
    {
        for level in [1, 10] {
            let m = choose_move(g, level, Duration::from_millis(20))
                .unwrap_or_else(|| panic!("position {i} level {level}: no move"));
            assert!(
                g.legal_moves().contains(m),
                "position {i} level {level}: {m}"
            );
            // The same search through the facade, whose depth tells a completed search from the
            // fallback move a release build gives when a search panics.
            let r = Engine::new(EngineOptions {
                level,
                hash_mb: 8,
                ..EngineOptions::default()
            })
            .search(
                g,
                Limits {
                    movetime: Some(Duration::from_millis(50)),
                    ..Limits::default()
                },
            );
            assert!(g.legal_moves().contains(r.best.unwrap()), "position {i}");
            assert!(
                r.depth >= 1,
                "position {i} level {level}: no iteration completed"
            );
        }
    }
}

#[test]
fn every_rule_set_gets_legal_moves() {
    for rules in [
        "wolf_over_dog",
        "only_enemy_rat_blocks",
        "rats_do_not_block",
        "no_shore_rat_capture",
        "no_7_3,no_17_5",
        "repetition_loss",
        "draw_plies=20",
        "no_rivers",
    ] {
        let rules: Rules = rules.parse().unwrap();
        for g in random_games(4, 7, rules) {
            let r = Engine::new(EngineOptions::default()).search(
                &g,
                Limits {
                    depth: Some(4),
                    ..Limits::default()
                },
            );
            assert!(g.legal_moves().contains(r.best.unwrap()), "{rules}");
            assert!(r.depth >= 1, "{rules}: no iteration completed");
        }
    }
}

#[test]
fn the_7_3_rule_is_honoured_at_the_root() {
    // Both rats shuttle until Red's g3g4 is forbidden by §7.1.
    let mut g = Game::new(Rules::STANDARD);
    for m in [
        "g3g4", "a7a6", "g4g3", "a6a7", "g3g4", "a7a6", "g4g3", "a6a7", "g3g4", "a7a6", "g4g3",
        "a6a7",
    ] {
        let mv = m
            .parse::<jungle::MoveText>()
            .unwrap()
            .to_move(g.position())
            .unwrap();
        g.play(mv).unwrap();
    }
    let forbidden = Move::new(Square::G3, Square::G4);
    assert!(!g.legal_moves().contains(forbidden));
    for depth in 1..=6 {
        let r = search(&g, depth);
        assert!(g.legal_moves().contains(r.best.unwrap()));
        assert_eq!(r.depth, depth, "the search did not complete");
    }
}

#[test]
fn lazy_smp_returns_a_legal_move() {
    let g = Game::new(Rules::STANDARD);
    let mut e = Engine::new(EngineOptions {
        threads: 2,
        hash_mb: 8,
        level: 10,
        ..EngineOptions::default()
    });
    let r = e.search(
        &g,
        Limits {
            depth: Some(7),
            ..Limits::default()
        },
    );
    assert!(g.legal_moves().contains(r.best.unwrap()));
    assert!(r.depth >= 7);
}

#[test]
fn node_limit_is_respected_roughly() {
    let g = Game::new(Rules::STANDARD);
    let r = Engine::new(EngineOptions::default()).search(
        &g,
        Limits {
            nodes: Some(20_000),
            ..Limits::default()
        },
    );
    assert!(r.nodes < 25_000, "{}", r.nodes);
    assert!(g.legal_moves().contains(r.best.unwrap()));
}

#[test]
fn fixed_depth_search_is_deterministic() {
    let g = random_games(1, 99, Rules::STANDARD).remove(0);
    let a = search(&g, 7);
    let b = search(&g, 7);
    assert_eq!(a.nodes, b.nodes);
    assert_eq!(a.best, b.best);
}

#[test]
fn contempt_scores_a_draw_against_the_side_searched_for() {
    // Two elephants far apart: no capture and no den entry is possible within the search's
    // horizon, so every line ends in a draw by the no-capture rule, one ply deep (199 plies
    // without a capture) or two (198): after the own move, or after the opponent's.
    for halfmoves in [199, 198] {
        let g = game(&format!("7/7/6e/7/7/7/E6/7/7 r {halfmoves} 100"));
        for contempt in [0, 100, -60] {
            let options = EngineOptions {
                contempt,
                ..EngineOptions::default()
            };
            let r = search_with(options, &g, 4);
            assert_eq!(r.depth, 4);
            assert_eq!(
                r.score,
                Score::Cp(-contempt),
                "contempt {contempt}, {halfmoves} plies without a capture"
            );
        }
    }
}
