//! The facade's promises: legal moves, stop/wait, limits.

use jungle::{Game, Jfen, Rules};
use jungle_engine::{analyze, choose_move, Engine, EngineOptions, Limits, Score};
use std::time::Duration;

#[test]
fn search_returns_a_legal_move_from_the_start() {
    let game = Game::new(Rules::STANDARD);
    let mut e = Engine::new(EngineOptions::default());
    let r = e.search(
        &game,
        Limits {
            depth: Some(5),
            ..Limits::default()
        },
    );
    assert!(game.legal_moves().contains(r.best.unwrap()));
    assert_eq!(r.depth, 5);
    assert!(r.nodes > 0);
    assert_eq!(r.pv.first().copied(), r.best);
}

#[test]
fn finished_game_has_no_move() {
    let pos = Jfen::parse_position("7/3D3/7/7/7/7/7/7/l6 r 0 1", Rules::STANDARD).unwrap();
    let mut game = Game::from_position(pos);
    let m = choose_move(&game, 10, Duration::from_millis(50)).unwrap();
    assert_eq!(m.to_string(), "d8d9", "the den entry in one");
    game.play(m).unwrap();
    assert!(game.outcome().is_some());
    assert_eq!(choose_move(&game, 10, Duration::from_millis(10)), None);
    let r = Engine::new(EngineOptions::default()).search(&game, Limits::default());
    assert_eq!(r.best, None);
}

#[test]
fn stop_ends_an_infinite_search_with_a_legal_move() {
    let game = Game::new(Rules::STANDARD);
    let mut e = Engine::new(EngineOptions::default());
    e.go(
        &game,
        Limits {
            infinite: true,
            ..Limits::default()
        },
        Box::new(|_| {}),
    );
    let h = e.stop_handle();
    std::thread::spawn(move || h.stop()).join().unwrap();
    let r = e.wait();
    assert!(game.legal_moves().contains(r.best.unwrap()));
}

#[test]
fn analyze_reports_a_score_and_pv() {
    let game = Game::new(Rules::STANDARD);
    let r = analyze(&game, Duration::from_millis(100));
    assert!(r.depth >= 1);
    assert!(matches!(r.score, Score::Cp(_)));
    assert!(!r.pv.is_empty());
}

#[test]
fn engine_and_stop_handle_cross_threads() {
    fn send<T: Send>(_: &T) {}
    fn sync<T: Sync>(_: &T) {}
    let mut e = Engine::new(EngineOptions::default());
    let h = e.stop_handle();
    send(&e);
    send(&h);
    sync(&h);
    // An engine moved to another thread searches there.
    let game = Game::new(Rules::STANDARD);
    let g2 = game.clone();
    let r = std::thread::spawn(move || {
        e.search(
            &g2,
            Limits {
                depth: Some(3),
                ..Limits::default()
            },
        )
    })
    .join()
    .unwrap();
    assert!(game.legal_moves().contains(r.best.unwrap()));
}

#[test]
fn info_callback_sees_every_iteration() {
    use std::sync::{Arc, Mutex};
    let game = Game::new(Rules::STANDARD);
    let depths = Arc::new(Mutex::new(Vec::new()));
    let d2 = Arc::clone(&depths);
    let mut e = Engine::new(EngineOptions::default());
    e.go(
        &game,
        Limits {
            depth: Some(5),
            ..Limits::default()
        },
        Box::new(move |i| d2.lock().unwrap().push(i.depth)),
    );
    let r = e.wait();
    assert_eq!(*depths.lock().unwrap(), vec![1, 2, 3, 4, 5]);
    assert_eq!(r.depth, 5);
}
