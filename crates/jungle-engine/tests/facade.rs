//! The facade's promises: legal moves, stop/wait, limits.

use jungle::{Game, Jfen, Move, MoveList, MoveText, Rules};
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

#[test]
fn search_moves_restrict_the_root() {
    // Red's Dog can enter the den at once (d8d9); told to consider only stepping aside, the
    // search plays the step, whatever it wins elsewhere.
    let pos = Jfen::parse_position("7/3D3/7/7/7/7/7/7/l6 r 0 1", Rules::STANDARD).unwrap();
    let game = Game::from_position(pos);
    // Read as coordinates alone, so that a move of an animal that is not there (a9a8, Blue's
    // Lion) can be named too.
    let list = |moves: &[&str]| {
        let mut l = MoveList::new();
        for m in moves {
            match m.parse::<MoveText>().unwrap() {
                MoveText::Coord { from, to } => l.push(Move::new(from, to)),
                other => panic!("{other:?} is not a coordinate move"),
            }
        }
        Some(l)
    };
    let mut e = Engine::new(EngineOptions::default());
    let limits = |search_moves| Limits {
        depth: Some(4),
        search_moves,
        ..Limits::default()
    };
    let r = e.search(&game, limits(list(&["d8c8"])));
    assert_eq!(r.best.map(|m| m.to_string()).as_deref(), Some("d8c8"));
    assert_eq!(r.pv.first().copied(), r.best);
    let r = e.search(&game, limits(list(&["d8e8", "d8c8", "d8d7"])));
    let best = r.best.unwrap().to_string();
    assert!(["d8e8", "d8c8", "d8d7"].contains(&best.as_str()), "{best}");
    // Moves that are not legal here are left out; when none is left, every move is searched.
    let r = e.search(&game, limits(list(&["a9a8", "d8e8"])));
    assert_eq!(r.best.map(|m| m.to_string()).as_deref(), Some("d8e8"));
    let r = e.search(&game, limits(list(&["a9a8"])));
    assert_eq!(r.best.map(|m| m.to_string()).as_deref(), Some("d8d9"));
}

#[test]
fn a_pondering_search_waits_for_ponderhit_then_keeps_its_time() {
    let game = Game::new(Rules::STANDARD);
    let mut e = Engine::new(EngineOptions::default());
    assert!(!e.ponderhit(), "nothing ponders yet");
    e.go(
        &game,
        Limits {
            ponder: true,
            movetime: Some(Duration::from_millis(50)),
            ..Limits::default()
        },
        Box::new(|_| {}),
    );
    // Far past its 50 ms, it still ponders: no time bound counts before `ponderhit`.
    std::thread::sleep(Duration::from_millis(300));
    assert!(e.is_running());
    assert!(e.ponderhit());
    assert!(!e.ponderhit(), "only once");
    let r = e.wait();
    assert!(game.legal_moves().contains(r.best.unwrap()));
    assert!(!e.ponderhit(), "the search is over");
}
