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
    let r = analyze(&game, Duration::from_millis(100), 1);
    assert!(r.depth >= 1);
    assert!(matches!(r.score, Score::Cp(_)));
    assert!(!r.pv.is_empty());
    let r = analyze(&game, Duration::from_millis(100), 3);
    assert_eq!(r.lines.len(), 3);
    assert_eq!(r.lines[0].pv, r.pv);
}

#[test]
fn a_timed_analysis_gives_its_lines_at_one_depth_in_score_order() {
    // Several lines cut short by the clock: all from the last iteration that scored them all,
    // best first, and the result is the first line (never a deeper, partial best move ahead of
    // shallower lines that may score above it). A few positions and budgets, so that some
    // searches end in the middle of an iteration.
    let rank = |s: Score| match s {
        Score::Den(n) if n > 0 => 1_000_000 - n,
        Score::Den(n) => -1_000_000 - n,
        Score::Cp(c) => c,
    };
    let mut game = Game::new(Rules::STANDARD);
    for (text, ms) in [("g3g4", 60), ("b8c8", 90), ("a1b1", 130), ("c8d8", 170)] {
        let m = game
            .position()
            .legal_moves()
            .iter()
            .copied()
            .find(|m| m.to_string() == text);
        game.play(m.expect("a legal move")).unwrap();
        let r = analyze(&game, Duration::from_millis(ms), 3);
        assert_eq!(r.lines.len(), 3, "{r:#?}");
        assert!(r.lines.iter().all(|l| l.depth == r.depth), "{r:#?}");
        assert!(
            r.lines
                .windows(2)
                .all(|w| rank(w[0].score) >= rank(w[1].score)),
            "{r:#?}"
        );
        assert_eq!(
            (r.best, r.score, &r.pv),
            (Some(r.lines[0].pv[0]), r.lines[0].score, &r.lines[0].pv)
        );
    }
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
fn multi_pv_scores_the_best_moves_each_with_its_line() {
    // Red's Dog wins the race to the den in two moves by either of two steps; Blue's Wolf on e2
    // wins it in two moves of its own against any other move (doc/protocol.md's example).
    let pos = Jfen::parse_position("l6/2D4/7/7/7/7/7/4w2/6L r 0 1", Rules::STANDARD).unwrap();
    let game = Game::from_position(pos);
    let search = |multi_pv| {
        let mut e = Engine::new(EngineOptions {
            multi_pv,
            ..EngineOptions::default()
        });
        let infos = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let sink = std::sync::Arc::clone(&infos);
        e.go(
            &game,
            Limits {
                depth: Some(5),
                ..Limits::default()
            },
            Box::new(move |i| sink.lock().unwrap().push(i.clone())),
        );
        let r = e.wait();
        let infos = infos.lock().unwrap().clone();
        (r, infos)
    };
    let (r, infos) = search(3);
    let firsts: Vec<String> = r.lines.iter().map(|l| l.pv[0].to_string()).collect();
    assert_eq!(r.lines.len(), 3, "{r:#?}");
    let mut winners = firsts[..2].to_vec();
    winners.sort();
    assert_eq!(winners, ["c8c9", "c8d8"], "{r:#?}");
    assert_eq!(r.lines[0].score, Score::Den(2));
    assert_eq!(r.lines[1].score, Score::Den(2));
    assert!(
        matches!(r.lines[2].score, Score::Den(n) if n < 0),
        "every other move loses the race: {r:#?}"
    );
    assert_eq!((r.best, &r.pv), (Some(r.lines[0].pv[0]), &r.lines[0].pv));
    assert!(r
        .lines
        .iter()
        .all(|l| l.depth == 5 && game.legal_moves().contains(l.pv[0])));
    // Each iteration reports its lines in order, numbered from 1, and the last three are the
    // result's.
    for (k, i) in infos.iter().enumerate() {
        assert_eq!(i.depth as usize, k / 3 + 1, "{infos:#?}");
        assert_eq!(i.multipv, Some(k % 3 + 1), "{infos:#?}");
    }
    let last: Vec<_> = infos[infos.len() - 3..]
        .iter()
        .map(|i| (i.score, &i.pv))
        .collect();
    let lines: Vec<_> = r.lines.iter().map(|l| (l.score, &l.pv)).collect();
    assert_eq!(last, lines);

    // More lines than moves: every legal move once, best first.
    let (r, _) = search(jungle_engine::MAX_MULTI_PV);
    let legal = game.legal_moves();
    assert_eq!(r.lines.len(), legal.len());
    let mut seen: Vec<Move> = r.lines.iter().map(|l| l.pv[0]).collect();
    seen.sort_by_key(|m| m.to_string());
    let mut all: Vec<Move> = legal.iter().copied().collect();
    all.sort_by_key(|m| m.to_string());
    assert_eq!(seen, all);
    let rank = |s: Score| match s {
        Score::Den(n) if n > 0 => 1_000_000 - n,
        Score::Den(n) => -1_000_000 - n,
        Score::Cp(c) => c,
    };
    assert!(
        r.lines
            .windows(2)
            .all(|w| rank(w[0].score) >= rank(w[1].score)),
        "{r:#?}"
    );

    // One line: the plain report, the principal variation as the only line.
    let (r, infos) = search(1);
    assert!(infos.iter().all(|i| i.multipv.is_none()));
    assert_eq!(r.lines.len(), 1);
    assert_eq!(r.lines[0].pv, r.pv);
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

#[test]
fn games_with_passes_are_searched_at_every_level() {
    // Online, a move timeout passes the turn (RULES §8): the server's AI then searches a game
    // whose history holds passes, on either side and in a row.
    let mut game = Game::new(Rules::STANDARD);
    for m in ["g3g4", "--", "g4g5", "a7a6", "--", "--", "e3d3"] {
        let mv = match m {
            "--" => Move::PASS,
            _ => m
                .parse::<MoveText>()
                .unwrap()
                .to_move(game.position())
                .unwrap(),
        };
        game.play(mv).unwrap();
    }
    for level in [1, 5, 10] {
        let m = choose_move(&game, level, Duration::from_millis(30)).expect("a move");
        assert!(game.legal_moves().contains(m), "level {level}: {m}");
    }
    let r = analyze(&game, Duration::from_millis(30), 3);
    assert!(game.legal_moves().contains(r.best.unwrap()));
}

#[test]
fn go_then_signals_when_the_result_is_ready() {
    let game = Game::new(Rules::STANDARD);
    let mut e = Engine::new(EngineOptions::default());
    // A search that ends by itself signals at once, once.
    let (tx, rx) = std::sync::mpsc::channel();
    let done = tx.clone();
    e.go_then(
        &game,
        Limits {
            depth: Some(2),
            ..Limits::default()
        },
        Box::new(|_| {}),
        Box::new(move || done.send(1).unwrap()),
    );
    assert_eq!(rx.recv_timeout(Duration::from_secs(30)), Ok(1));
    let r = e.wait();
    assert!(game.legal_moves().contains(r.best.unwrap()));
    // `go infinite` holds its result, so it signals only once stopped.
    let done = tx.clone();
    e.go_then(
        &game,
        Limits {
            infinite: true,
            depth: Some(1),
            ..Limits::default()
        },
        Box::new(|_| {}),
        Box::new(move || done.send(2).unwrap()),
    );
    assert!(rx.recv_timeout(Duration::from_millis(200)).is_err());
    assert!(e.is_running());
    e.stop();
    assert_eq!(rx.recv_timeout(Duration::from_secs(30)), Ok(2));
    e.wait();
    // So does a pondering search, released by `ponderhit`.
    let done = tx;
    e.go_then(
        &game,
        Limits {
            ponder: true,
            depth: Some(1),
            ..Limits::default()
        },
        Box::new(|_| {}),
        Box::new(move || done.send(3).unwrap()),
    );
    assert!(rx.recv_timeout(Duration::from_millis(200)).is_err());
    assert!(e.ponderhit());
    assert_eq!(rx.recv_timeout(Duration::from_secs(30)), Ok(3));
    let r = e.wait();
    assert_eq!(r.depth, 1);
}

#[test]
fn an_infinite_search_keeps_its_depth_and_node_limits() {
    let game = Game::new(Rules::STANDARD);
    let mut e = Engine::new(EngineOptions::default());
    e.go(
        &game,
        Limits {
            infinite: true,
            depth: Some(3),
            ..Limits::default()
        },
        Box::new(|_| {}),
    );
    // Time enough to search far deeper than 3 plies; the result still waits for `stop`.
    std::thread::sleep(Duration::from_millis(200));
    assert!(e.is_running());
    e.stop();
    assert_eq!(e.wait().depth, 3);
    e.go(
        &game,
        Limits {
            infinite: true,
            nodes: Some(2000),
            ..Limits::default()
        },
        Box::new(|_| {}),
    );
    std::thread::sleep(Duration::from_millis(200));
    assert!(e.is_running());
    e.stop();
    // The node count is checked every 64th of the limit.
    assert!(e.wait().nodes <= 2000 + 2000 / 64 + 8);
}
