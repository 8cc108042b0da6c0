//! The store and restart recovery, against SQLite (default) or the PostgreSQL server named by
//! `DATABASE_URL` (as `scripts/test-postgres.sh` runs them).

mod common;

use common::*;
use jungle_server::scoring::LevelTable;
use jungle_server::store::{GameEnd, GameRow, PlyRow, StartStanding, Store, StoreError, TcMs};
use jungle_server::{GameId, UserId};
use serde_json::json;
use std::sync::Arc;

/// The PostgreSQL database of the test whose data directory is `dir`, or `None` on SQLite (the
/// database file then lives in `dir`). Each test gets a database of its own on the server named
/// by `DATABASE_URL`, made on first use and named after `dir`, so the servers of one test (which
/// resume every live game they find) never see another test's games.
async fn database_url(dir: &std::path::Path) -> Option<String> {
    use sqlx::Connection;
    let base = std::env::var("DATABASE_URL")
        .ok()
        .filter(|u| !u.is_empty())?;
    // FNV-1a of the path: a stable, valid database name for the same directory.
    let hash = dir
        .to_string_lossy()
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
        });
    let name = format!("jt_{hash:016x}");
    let mut admin = sqlx::PgConnection::connect(&base).await.unwrap();
    let exists: Option<i32> = sqlx::query_scalar("SELECT 1 FROM pg_database WHERE datname = $1")
        .bind(&name)
        .fetch_optional(&mut admin)
        .await
        .unwrap();
    if exists.is_none() {
        sqlx::query(&format!("CREATE DATABASE {name}"))
            .execute(&mut admin)
            .await
            .unwrap();
    }
    admin.close().await.unwrap();
    let (server, _db) = base.rsplit_once('/').unwrap();
    Some(format!("{server}/{name}"))
}

async fn store(dir: &std::path::Path) -> Store {
    let url = database_url(dir)
        .await
        .unwrap_or_else(|| format!("sqlite://{}?mode=rwc", dir.join("t.db").display()));
    Store::connect(&url, Arc::new(LevelTable::default()))
        .await
        .unwrap()
}

/// A live, casual, untimed game from the start position: `red` against the AI at level 3.
fn live_ai_game(id: &GameId, red: &UserId) -> GameRow {
    GameRow {
        id: id.clone(),
        red_user: Some(red.clone()),
        blue_user: None,
        red_ai: None,
        blue_ai: Some(3),
        hotseat: false,
        rated: false,
        tc: TcMs {
            clock_ms: 0,
            inc_ms: 0,
            move_ms: 0,
        },
        rules: "standard".into(),
        start_fen: jungle::START_JFEN.into(),
        status: "live".into(),
        winner: None,
        reason: None,
        plies: 0,
        started_at: 1,
        ended_at: None,
        changes: None,
        red_start: None,
        blue_start: None,
        end_clocks: None,
        end_timeouts: None,
        aborted_by: None,
    }
}

fn unique(prefix: &str) -> String {
    format!("{prefix}{}", rand::random::<u32>())
}

#[tokio::test]
async fn accounts_sessions_and_names_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let s = store(dir.path()).await;
    s.ping().await.unwrap();
    let name = unique("Erin");
    let u = s
        .create_user(&name, Some("$argon2id$fake"), 5)
        .await
        .unwrap();
    assert!(!u.guest);
    assert_eq!((u.score, u.coins, u.level), (0, 1000, 1));
    assert!(matches!(
        s.create_user(&name.to_uppercase(), None, 5).await,
        Err(StoreError::NameTaken)
    ));
    let (found, hash) = s.login_lookup(&name.to_lowercase()).await.unwrap().unwrap();
    assert_eq!(found, u);
    assert_eq!(hash.as_deref(), Some("$argon2id$fake"));
    s.create_session("tok-1", &u.id, 6).await.unwrap();
    assert_eq!(s.session_user("tok-1", 7).await.unwrap().unwrap().id, u.id);
    assert!(s.session_user("tok-2", 7).await.unwrap().is_none());
    // A session lasts a year (as its cookie), not for ever.
    let year = jungle_server::store::SESSION_LIFETIME_MS;
    assert!(s
        .session_user("tok-1", 6 + year - 1)
        .await
        .unwrap()
        .is_some());
    assert!(s.session_user("tok-1", 6 + year).await.unwrap().is_none());
    s.delete_sessions(&u.id).await.unwrap();
    assert!(s.session_user("tok-1", 7).await.unwrap().is_none());
    let g = s.create_user(&unique("Guest-"), None, 7).await.unwrap();
    assert!(g.guest);
    let reg = s
        .register_guest(&g.id, &unique("Frank"), "$h")
        .await
        .unwrap();
    assert_eq!(reg.id, g.id);
    assert!(!reg.guest);
}

#[tokio::test]
async fn a_guest_registered_twice_keeps_the_first_registration_and_refuses_the_second() {
    // Two registrations from one guest session at once: both found a guest, the second to write
    // used to be told it had registered (answering the first one's account) while its own name
    // and password were never stored.
    let dir = tempfile::tempdir().unwrap();
    let s = store(dir.path()).await;
    let g = s.create_user(&unique("Guest-"), None, 7).await.unwrap();
    let (first, second) = (unique("Gina"), unique("Hank"));
    let reg = s.register_guest(&g.id, &first, "$h1").await.unwrap();
    assert_eq!(
        (reg.id.clone(), reg.name.as_str()),
        (g.id.clone(), first.as_str())
    );
    assert!(matches!(
        s.register_guest(&g.id, &second, "$h2").await,
        Err(StoreError::NotAGuest)
    ));
    // The first registration stands whole; the second left nothing behind.
    let (found, hash) = s
        .login_lookup(&first.to_lowercase())
        .await
        .unwrap()
        .unwrap();
    assert_eq!((found.id, found.guest), (g.id.clone(), false));
    assert_eq!(hash.as_deref(), Some("$h1"));
    assert!(s
        .login_lookup(&second.to_lowercase())
        .await
        .unwrap()
        .is_none());
    // At the same moment, on other connections of the pool: one of them wins, the other is
    // refused, and the account is the winner's.
    let g = s.create_user(&unique("Guest-"), None, 8).await.unwrap();
    let (a, b) = (unique("Ivy"), unique("Jack"));
    let (ra, rb) = tokio::join!(
        s.register_guest(&g.id, &a, "$ha"),
        s.register_guest(&g.id, &b, "$hb")
    );
    let (won, hash) = match (ra, rb) {
        (Ok(u), Err(StoreError::NotAGuest)) => (u, "$ha"),
        (Err(StoreError::NotAGuest), Ok(u)) => (u, "$hb"),
        other => panic!("one registration wins, the other is refused: {other:?}"),
    };
    let (found, stored) = s
        .login_lookup(&won.name.to_lowercase())
        .await
        .unwrap()
        .unwrap();
    assert_eq!((found.id, stored.as_deref()), (g.id, Some(hash)));
    let lost = if won.name == a { &b } else { &a };
    assert!(s
        .login_lookup(&lost.to_lowercase())
        .await
        .unwrap()
        .is_none());
}

#[tokio::test]
async fn names_stored_before_nfkc_are_brought_to_it_unless_taken() {
    let dir = tempfile::tempdir().unwrap();
    let s = store(dir.path()).await;
    let n = rand::random::<u16>();
    // Kept as typed, before names were normalised: full-width letters and digits.
    let wide = |t: &str| {
        t.chars()
            .map(|c| char::from_u32(c as u32 + 0xFEE0).unwrap())
            .collect::<String>()
    };
    let bobby = s
        .create_user(&wide(&format!("Bobby{n}")), None, 1)
        .await
        .unwrap();
    let alice_wide = s
        .create_user(&wide(&format!("Alice{n}")), None, 1)
        .await
        .unwrap();
    let alice = s.create_user(&format!("alice{n}"), None, 1).await.unwrap();
    let form = jungle_server::accounts::normalize_name;
    assert!(s.normalize_names(form).await.unwrap() >= 1);
    // Bobby reads as he looks: a new `bobby…` would now be taken.
    let found = s.user_by_name(&format!("bobby{n}")).await.unwrap().unwrap();
    assert_eq!((found.id, found.name), (bobby.id, format!("Bobby{n}")));
    assert!(matches!(
        s.create_user(&format!("BOBBY{n}"), None, 2).await,
        Err(StoreError::NameTaken)
    ));
    // The full-width Alice's normal form is taken: both accounts stay as they were.
    assert_eq!(
        s.user_by_name(&format!("alice{n}"))
            .await
            .unwrap()
            .unwrap()
            .id,
        alice.id
    );
    let kept = s.user(&alice_wide.id).await.unwrap().unwrap();
    assert_eq!(kept.name, alice_wide.name);
    // A second pass finds nothing more to do.
    assert_eq!(s.normalize_names(form).await.unwrap(), 0);
}

#[tokio::test]
async fn games_plies_and_results_are_stored_and_read_back() {
    let dir = tempfile::tempdir().unwrap();
    let s = store(dir.path()).await;
    let a = s.create_user(&unique("Gina"), None, 1).await.unwrap();
    let b = s.create_user(&unique("Hank"), None, 1).await.unwrap();
    let id = GameId::random();
    let row = GameRow {
        blue_user: Some(b.id.clone()),
        blue_ai: None,
        rated: true,
        tc: TcMs {
            clock_ms: 60_000,
            inc_ms: 1000,
            move_ms: 0,
        },
        started_at: 10,
        red_start: Some(StartStanding {
            rating: 1523.0,
            level: 3,
        }),
        blue_start: Some(StartStanding {
            rating: 1488.0,
            level: 1,
        }),
        ..live_ai_game(&id, &a.id)
    };
    s.insert_game(&row).await.unwrap();
    assert_eq!(s.game(&id).await.unwrap().unwrap(), row);
    for (i, mv) in ["g3g4", "--", "g4g5"].iter().enumerate() {
        let p = PlyRow {
            ply: i as i64,
            mv: mv.to_string(),
            timeout: *mv == "--",
            red_ms: 59_000,
            blue_ms: 60_000 - i as i64,
            at: 20 + i as i64,
        };
        s.append_ply(&id, &p).await.unwrap();
    }
    // The same ply twice is refused by the key: an acknowledged ply is never overwritten.
    let dup = PlyRow {
        ply: 1,
        mv: "a9a8".into(),
        timeout: false,
        red_ms: 0,
        blue_ms: 0,
        at: 0,
    };
    assert!(s.append_ply(&id, &dup).await.is_err());
    let plies = s.plies(&id).await.unwrap();
    assert_eq!(
        plies.iter().map(|p| p.mv.as_str()).collect::<Vec<_>>(),
        ["g3g4", "--", "g4g5"]
    );
    assert!(plies[1].timeout);
    assert!(s.live_games().await.unwrap().iter().any(|g| g.id == id));
    s.truncate_plies(&id, 2).await.unwrap();
    assert_eq!(s.plies(&id).await.unwrap().len(), 2);
    let changed = s
        .finish_game(
            &id,
            [Some(a.id.clone()), Some(b.id.clone())],
            &GameEnd {
                winner: Some("red"),
                reason: "resign",
                aborted_by: None,
                plies: 2,
                at: 99,
                clocks: Some([41_000, 7_500]),
                timeouts: [0, 1],
            },
            |mut us| {
                if let Some(u) = us[0].as_mut() {
                    u.score += 3;
                    u.wins += 1;
                }
                us
            },
        )
        .await
        .unwrap();
    assert_eq!(changed[0].as_ref().unwrap().1.score, 3);
    let done = s.game(&id).await.unwrap().unwrap();
    assert_eq!(done.status, "finished");
    assert_eq!(done.winner.as_deref(), Some("red"));
    assert_eq!(done.reason.as_deref(), Some("resign"));
    assert_eq!(done.end_clocks, Some([41_000, 7_500]));
    assert_eq!(done.end_timeouts, Some([0, 1]));
    assert_eq!(done.aborted_by, None);
    assert!(done.changes.unwrap().contains("\"score_after\":3"));
    assert!(!s.live_games().await.unwrap().iter().any(|g| g.id == id));
    assert_eq!(s.user(&a.id).await.unwrap().unwrap().score, 3);
    assert_eq!(s.user_games(&a.id, None, 10).await.unwrap()[0].id, id);
    assert!(s.user(&UserId::random()).await.unwrap().is_none());
}

#[tokio::test]
async fn after_a_restart_live_games_resume_with_every_move_and_fair_clocks() {
    let dir = tempfile::tempdir().unwrap();
    let url = database_url(dir.path()).await;
    let srv = TestServer::start_at(dir.path(), url.clone(), test_config(), START_MS).await;
    let (mut red, mut blue) = (srv.guest().await, srv.guest().await);
    let tc = json!({"clock_s": 60, "inc_s": 0, "move_s": 0});
    let game = challenge_game(&mut red, &mut blue, tc, false).await;
    let mut last = serde_json::Value::Null;
    for (ply, m) in ["g3g4", "a9a8", "g4g5"].iter().enumerate() {
        srv.clock.advance(1000);
        let (mover, other) = if ply % 2 == 0 {
            (&mut red, &mut blue)
        } else {
            (&mut blue, &mut red)
        };
        last = mover.mv(&game, ply, m).await;
        other.expect("moved").await;
    }
    assert_eq!(
        last["clocks"],
        json!({"red_ms": 58000, "blue_ms": 59000, "move_ms": null, "running": "blue"})
    );
    // The server goes away; the next one starts an hour later on the same database. Meanwhile
    // Red's rating changed (in another game, say): the game still shows it as it started.
    drop(srv);
    {
        sqlx::any::install_default_drivers();
        let db = url
            .clone()
            .unwrap_or_else(|| format!("sqlite://{}", dir.path().join("jungle.db").display()));
        let pool = sqlx::AnyPool::connect(&db).await.unwrap();
        sqlx::query("UPDATE users SET rating = 1234 WHERE id = $1")
            .bind(red.user["id"].as_str().unwrap())
            .execute(&pool)
            .await
            .unwrap();
        pool.close().await;
    }
    let srv2 = TestServer::start_at(dir.path(), url, test_config(), START_MS + 3_600_000).await;
    let mut red2 = Player::connect(srv2.addr, red.token.clone(), red.user.clone()).await;
    assert!(red2.welcome["games"]
        .as_array()
        .unwrap()
        .contains(&json!(game)));
    let mut blue2 = Player::connect(srv2.addr, blue.token.clone(), blue.user.clone()).await;
    red.ws.close_ref().await;
    blue.ws.close_ref().await;
    red2.send(json!({"t": "watch", "game": game})).await;
    let st = red2.expect("game").await["game"].clone();
    assert_eq!(st["ply"], 3);
    assert_eq!(st["status"], "live");
    assert_eq!(st["red"]["rating"], 1500.0, "{st}");
    assert_eq!(
        st["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["move"].as_str().unwrap())
            .collect::<Vec<_>>(),
        ["g3g4", "a9a8", "g4g5"]
    );
    // Nobody was charged for the hour the server was down.
    assert_eq!(st["clocks"]["red_ms"], 58000);
    assert_eq!(st["clocks"]["blue_ms"], 59000);
    srv2.clock.advance(2000);
    let m = blue2.mv(&game, 3, "a8a9").await;
    assert_eq!(m["clocks"]["blue_ms"], 57000);
    red2.expect("moved").await;
    srv2.clock.advance(100);
    red2.mv(&game, 4, "g5g6").await;
    blue2.send(json!({"t": "resign", "game": game})).await;
    assert_eq!(red2.expect("ended").await["result"]["reason"], "resign");
}

/// Plies of hundreds of games written at once go through the writer's multi-row inserts (more
/// rows than one insert takes) and all read back in order; with SQLite the write-ahead log is
/// copied back into the database file by the checkpointer (SQLite's own is off).
#[tokio::test]
async fn plies_of_many_games_written_at_once_are_all_stored() {
    let dir = tempfile::tempdir().unwrap();
    let s = store(dir.path()).await;
    let a = s.create_user(&unique("Ivy"), None, 1).await.unwrap();
    let db_file = dir.path().join("t.db");
    let size_before = std::fs::metadata(&db_file).map(|m| m.len()).unwrap_or(0);
    let mut ids = Vec::new();
    for _ in 0..300 {
        let id = GameId::random();
        // Finished games: on PostgreSQL the tests share one database, and a server another test
        // restarts there resumes every live game, whose AI would then move in these.
        let row = GameRow {
            status: "finished".into(),
            reason: Some("resign".into()),
            ended_at: Some(2),
            ..live_ai_game(&id, &a.id)
        };
        s.insert_game(&row).await.unwrap();
        ids.push(id);
    }
    let moves = ["g3g4", "a7a6", "g4g5", "a6a5"];
    let mut tasks = tokio::task::JoinSet::new();
    for id in ids.clone() {
        let s = s.clone();
        tasks.spawn(async move {
            for (i, mv) in moves.iter().enumerate() {
                let p = PlyRow {
                    ply: i as i64,
                    mv: mv.to_string(),
                    timeout: false,
                    red_ms: 0,
                    blue_ms: 0,
                    at: i as i64,
                };
                s.append_ply(&id, &p).await.unwrap();
            }
        });
    }
    while let Some(r) = tasks.join_next().await {
        r.unwrap();
    }
    for id in &ids {
        let plies = s.plies(id).await.unwrap();
        let got: Vec<&str> = plies.iter().map(|p| p.mv.as_str()).collect();
        assert_eq!(got, moves, "game {id}");
    }
    if database_url(dir.path()).await.is_none() {
        // The checkpointer runs every 250 ms.
        tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
        let size_after = std::fs::metadata(&db_file).unwrap().len();
        assert!(
            size_after > size_before + 64 * 1024,
            "the database file grew from {size_before} to only {size_after} bytes"
        );
        // A new database has small pages (bytes 16–17 of the file header).
        let header = std::fs::read(&db_file).unwrap();
        let page_size = u32::from(u16::from_be_bytes([header[16], header[17]]));
        assert_eq!(page_size, jungle_server::store::SQLITE_PAGE_SIZE);
    }
}

/// `p` watches `game` and offers a draw as Red; returns once the offer is broadcast.
async fn watch_and_offer_a_draw(p: &mut Player, game: &GameId) {
    p.send(json!({"t": "watch", "game": game.as_str()})).await;
    p.expect("game").await;
    p.send(json!({"t": "draw_offer", "game": game.as_str()}))
        .await;
    assert_eq!(p.expect("draw_offered").await["by"], "red");
}

/// The AI answers a draw offer by its own search: in a game resumed from a position where it has
/// only a rat left it accepts (the game ends drawn by agreement); where it is far ahead it
/// declines and plays on.
#[tokio::test]
async fn the_ai_accepts_a_draw_when_lost_and_declines_when_winning() {
    let dir = tempfile::tempdir().unwrap();
    let url = database_url(dir.path()).await;
    let srv = TestServer::start_at(dir.path(), url.clone(), test_config(), START_MS).await;
    let p = srv.guest().await;
    let me: UserId = p.user["id"].as_str().unwrap().parse().unwrap();
    let (lost, won) = (GameId::random(), GameId::random());
    // Red (the player) to move; Blue is the AI.
    let ai_lost = "7/7/7/3r3/7/7/E1W1P1R/1C3D1/T5L r 0 1";
    let ai_won = "l5t/1d3c1/r1p1w1e/7/7/7/7/7/6R r 0 1";
    for (id, fen) in [(&lost, ai_lost), (&won, ai_won)] {
        let row = GameRow {
            start_fen: fen.into(),
            ..live_ai_game(id, &me)
        };
        srv.state.hub.store().insert_game(&row).await.unwrap();
    }
    drop(srv);
    let srv2 = TestServer::start_at(dir.path(), url, test_config(), START_MS).await;
    let mut p2 = Player::connect(srv2.addr, p.token.clone(), p.user.clone()).await;
    for id in [&lost, &won] {
        assert!(p2.welcome["games"]
            .as_array()
            .unwrap()
            .contains(&json!(id.as_str())));
    }
    watch_and_offer_a_draw(&mut p2, &lost).await;
    let e = p2.expect("ended").await;
    assert_eq!(e["game"], lost.as_str());
    assert_eq!(e["result"], json!({"winner": null, "reason": "agreed"}));

    watch_and_offer_a_draw(&mut p2, &won).await;
    let d = p2.expect("draw_declined").await;
    assert_eq!(
        (d["game"].as_str(), d["by"].as_str()),
        (Some(won.as_str()), Some("blue"))
    );
    // Asked again before anyone moves: declined at once.
    p2.send(json!({"t": "draw_offer", "game": won.as_str()}))
        .await;
    assert_eq!(p2.expect("draw_offered").await["by"], "red");
    assert_eq!(p2.expect("draw_declined").await["by"], "blue");
    // The game goes on: the player moves and the AI answers.
    p2.mv(won.as_str(), 0, "g1g2").await;
    assert_eq!(p2.expect("moved").await["ply"], 1);
    let st = srv2
        .get(&format!("/api/games/{}", won.as_str()), None)
        .await
        .json();
    assert_eq!(st["game"]["status"], "live");
}

#[tokio::test]
async fn an_sqlite_database_that_cannot_be_written_is_refused_at_start() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("jungle.db");
    let url = format!("sqlite://{}", file.display());
    let levels = Arc::new(LevelTable::default());
    Store::connect(&format!("{url}?mode=rwc"), levels.clone())
        .await
        .unwrap()
        .close()
        .await;
    // Opened read-only (as a file without write permission is): refused now, not at the first
    // request with an `internal` error.
    let e = Store::connect(&format!("{url}?mode=ro"), levels)
        .await
        .err()
        .expect("a read-only database is refused");
    assert!(e.to_string().contains("readonly"), "{e}");
}

#[tokio::test]
async fn leaderboard_ties_go_by_name_byte_by_byte_on_every_store() {
    let dir = tempfile::tempdir().unwrap();
    let s = store(dir.path()).await;
    if let Some(url) = database_url(dir.path()).await {
        // A database whose locale sorts names as a dictionary does (case and punctuation
        // ignored first), as many PostgreSQL installations do.
        use sqlx::Connection;
        let mut c = sqlx::PgConnection::connect(&url).await.unwrap();
        sqlx::query(r#"ALTER TABLE users ALTER COLUMN name TYPE TEXT COLLATE "en-US-x-icu""#)
            .execute(&mut c)
            .await
            .unwrap();
    }
    let names = ["alice_x", "Bob_x", "_under", "-dash", "Zed_x", "小明"];
    for n in names {
        s.create_user(n, Some("$argon2id$fake"), 5).await.unwrap();
    }
    let board: Vec<String> = s
        .leaderboard(10)
        .await
        .unwrap()
        .into_iter()
        .map(|u| u.name)
        .collect();
    assert_eq!(
        board,
        ["-dash", "Bob_x", "Zed_x", "_under", "alice_x", "小明"]
    );
}
