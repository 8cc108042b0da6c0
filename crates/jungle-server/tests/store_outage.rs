//! A game that ends while the database does not take its result (RULES §8): the players are told
//! it is over, it stays over for everyone, and its result and the players' new standings are
//! stored, once, when the database takes them again; the players then hear their changes. A
//! stopping server waits a little for such results, and says which are lost; it refuses game
//! actions meanwhile (`shutting_down`).
//!
//! The outage is a trigger put into the server's SQLite database from a connection of the test's
//! own: it refuses every update that would mark a game as over (as a database that is away or
//! times out refuses the whole result), while moves are still stored.

mod common;

use common::*;
use jungle_server::scoring::LEAVE_PENALTY_COINS;
use jungle_server::store::{Store, User};
use jungle_server::GameId;
use serde_json::json;
use sqlx::{Connection, SqliteConnection};
use std::time::Duration;

/// How long a finished game's actor stays up (`game::LINGER_MS`), and then some.
const PAST_LINGER_MS: i64 = 130_000;

async fn db(dir: &std::path::Path) -> SqliteConnection {
    let url = format!("sqlite://{}", dir.join("jungle.db").display());
    SqliteConnection::connect(&url).await.unwrap()
}

/// The database stops taking results.
async fn outage(db: &mut SqliteConnection) {
    sqlx::query(
        "CREATE TRIGGER outage BEFORE UPDATE ON games WHEN NEW.status <> 'live'
         BEGIN SELECT RAISE(ABORT, 'injected outage: the database is away'); END",
    )
    .execute(&mut *db)
    .await
    .unwrap();
}

/// The database takes results again.
async fn back(db: &mut SqliteConnection) {
    sqlx::query("DROP TRIGGER outage")
        .execute(&mut *db)
        .await
        .unwrap();
}

async fn status(store: &Store, id: &GameId) -> String {
    store.game(id).await.unwrap().unwrap().status
}

async fn user(store: &Store, name: &str) -> User {
    store.user_by_name(name).await.unwrap().unwrap()
}

/// Lets the server's tasks run a little (real time; the test clock stands still).
async fn settle() {
    tokio::time::sleep(Duration::from_millis(100)).await;
}

/// A rated game of 24 quiet plies between alice (Red) and bob (Blue), over the outage: bob leaves
/// and every player hears `ended`. Returns the server, the game, and the test's connection.
async fn ended_in_an_outage(
    dir: &std::path::Path,
) -> (TestServer, GameId, SqliteConnection, Player, Player) {
    let srv = TestServer::start(dir).await;
    let mut red = srv.registered("alice").await;
    let mut blue = srv.registered("bob").await;
    let game = challenge_game(&mut red, &mut blue, untimed(), true).await;
    play(&srv, &mut red, &mut blue, &game, 0, &QUIET_24).await;
    let mut conn = db(dir).await;
    outage(&mut conn).await;
    blue.send(json!({"t": "leave", "game": game})).await;
    for p in [&mut red, &mut blue] {
        let e = p.expect("ended").await;
        assert_eq!(e["result"], json!({"winner": "red", "reason": "left"}));
        // Nothing was stored, so no change is announced.
        assert_eq!(e["changes"], json!({"red": null, "blue": null}), "{e}");
    }
    let id: GameId = game.parse().unwrap();
    let store = srv.state.hub.store();
    assert_eq!(status(store, &id).await, "live");
    (srv, id, conn, red, blue)
}

#[tokio::test]
async fn a_result_the_database_refuses_is_stored_once_when_it_is_back() {
    let dir = tempfile::tempdir().unwrap();
    let (srv, id, mut conn, mut red, mut blue) = ended_in_an_outage(dir.path()).await;
    let store = srv.state.hub.store().clone();
    let (alice0, bob0) = (user(&store, "alice").await, user(&store, "bob").await);
    assert_eq!((alice0.games, bob0.games), (0, 0));

    // Long past the time a finished game's actor lingers, and through several retries, the game
    // is over for everyone who looks, though the store still has it live.
    for _ in 0..4 {
        srv.clock.advance(PAST_LINGER_MS);
        settle().await;
    }
    assert!(srv.state.hub.game(&id).is_some(), "the actor lingered out");
    let g = srv.get(&format!("/api/games/{id}"), None).await.json();
    assert_eq!(g["game"]["status"], "finished", "{g}");
    assert_eq!(g["game"]["result"]["reason"], "left", "{g}");
    assert_eq!(g["game"]["changes"], json!(null), "{g}");
    assert_eq!(status(&store, &id).await, "live");
    assert_eq!(user(&store, "alice").await, alice0);
    assert_eq!(user(&store, "bob").await, bob0);

    // The database is back: the next retry (at most 30 s later) stores the result.
    back(&mut conn).await;
    for _ in 0..50 {
        if status(&store, &id).await != "live" {
            break;
        }
        srv.clock.advance(30_000);
        settle().await;
    }
    let row = store.game(&id).await.unwrap().unwrap();
    assert_eq!(row.status, "finished");
    assert_eq!(
        (row.winner.as_deref(), row.reason.as_deref()),
        (Some("red"), Some("left"))
    );
    assert!(row.changes.is_some());

    // Counted once, however long the actor goes on.
    let check = |alice: &User, bob: &User| {
        assert_eq!(
            (alice.games, alice.wins, alice.score),
            (1, 1, 1),
            "{alice:?}"
        );
        assert_eq!(alice.coins, alice0.coins);
        assert_eq!(
            (bob.games, bob.losses, bob.escapes, bob.score),
            (1, 1, 1, 0),
            "{bob:?}"
        );
        assert_eq!(bob.coins, bob0.coins - LEAVE_PENALTY_COINS);
        assert!(alice.rating > alice0.rating && bob.rating < bob0.rating);
    };
    let (alice1, bob1) = (user(&store, "alice").await, user(&store, "bob").await);
    check(&alice1, &bob1);

    // The players, who heard `ended` without changes, hear them now.
    let said = json!({
        "red": {
            "score_before": alice0.score, "score_after": alice1.score,
            "level_before": alice0.level, "level_after": alice1.level,
            "coins_before": alice0.coins, "coins_after": alice1.coins,
            "rating_before": alice0.rating.round(), "rating_after": alice1.rating.round(),
        },
        "blue": {
            "score_before": bob0.score, "score_after": bob1.score,
            "level_before": bob0.level, "level_after": bob1.level,
            "coins_before": bob0.coins, "coins_after": bob1.coins,
            "rating_before": bob0.rating.round(), "rating_after": bob1.rating.round(),
        },
    });
    for p in [&mut red, &mut blue] {
        let c = p.expect("changes").await;
        assert_eq!(
            c,
            json!({"t": "changes", "game": id.as_str(), "changes": said})
        );
    }
    for _ in 0..3 {
        srv.clock.advance(PAST_LINGER_MS);
        settle().await;
    }
    assert_eq!(user(&store, "alice").await, alice1);
    assert_eq!(user(&store, "bob").await, bob1);

    // Stored, the actor lingers out as usual; the store shows the game over and a restart does
    // not resume it.
    for _ in 0..50 {
        if srv.state.hub.game(&id).is_none() {
            break;
        }
        settle().await;
    }
    assert!(srv.state.hub.game(&id).is_none(), "the actor stays");
    let g = srv.get(&format!("/api/games/{id}"), None).await.json();
    assert_eq!(g["game"]["status"], "finished", "{g}");
    assert!(store.live_games().await.unwrap().iter().all(|g| g.id != id));
}

#[tokio::test]
async fn a_result_stored_late_gives_the_game_state_its_changes() {
    let dir = tempfile::tempdir().unwrap();
    let (srv, id, mut conn, mut red, _blue) = ended_in_an_outage(dir.path()).await;
    let store = srv.state.hub.store().clone();
    // The database is back before the first retry, well within the time the actor lingers.
    back(&mut conn).await;
    srv.clock.advance(1_000);
    let c = red.expect("changes").await;
    assert_eq!(c["changes"]["red"]["score_after"], 1, "{c}");
    assert_eq!(status(&store, &id).await, "finished");
    // The state comes from the actor, which now shows the changes as `changes` told them.
    let h = srv.state.hub.game(&id).expect("the actor is up");
    let g = h.snapshot(None).await.unwrap();
    assert_eq!(g.changes.as_ref(), Some(&c["changes"]), "{:?}", g.changes);
    let g = srv.get(&format!("/api/games/{id}"), None).await.json();
    assert_eq!(g["game"]["changes"], c["changes"], "{g}");
}

#[tokio::test]
async fn a_retry_finds_a_result_stored_by_an_earlier_try_and_applies_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (srv, id, mut conn, mut red, _blue) = ended_in_an_outage(dir.path()).await;
    let store = srv.state.hub.store().clone();
    let (alice0, bob0) = (user(&store, "alice").await, user(&store, "bob").await);

    // As if the first try had committed after all and only its answer was lost: the game is
    // stored as over, with its changes (the players' rows are left as they are, to see what a
    // retry does).
    back(&mut conn).await;
    sqlx::query(
        "UPDATE games SET status = 'finished', winner = 'red', reason = 'left',
         changes = '[{\"score_after\": 7}, null]' WHERE id = $1",
    )
    .bind(id.as_str())
    .execute(&mut conn)
    .await
    .unwrap();
    for _ in 0..50 {
        if srv.state.hub.game(&id).is_none() {
            break;
        }
        srv.clock.advance(PAST_LINGER_MS);
        settle().await;
    }
    // The retry saw it stored: the players hear the changes stored with it, the actor went, and
    // no standing changed.
    let c = red.expect("changes").await;
    assert_eq!(
        c["changes"],
        json!({"red": {"score_after": 7}, "blue": null}),
        "{c}"
    );
    assert!(srv.state.hub.game(&id).is_none(), "the actor stays");
    assert_eq!(user(&store, "alice").await, alice0);
    assert_eq!(user(&store, "bob").await, bob0);
}

/// What the server logs, in memory.
#[derive(Clone, Default)]
struct Log(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl std::io::Write for Log {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Ends a game in an outage, then stops the server as `jungle_server::serve` does (when `wait`:
/// after waiting for the result a little) or as a crash of the stop would; returns the lines the
/// server logged as errors about the game, and the game.
fn log_of_a_stop_in_an_outage(wait: bool) -> (Vec<String>, GameId) {
    let log = Log::default();
    let writer = log.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_ansi(false)
        .with_writer(move || writer.clone())
        .finish();
    let dir = tempfile::tempdir().unwrap();
    // The server's tasks run on this thread (a current-thread runtime), so they log here, and
    // dropping the runtime stops them as a stopping server does.
    let id = tracing::subscriber::with_default(subscriber, || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let id = rt.block_on(async {
            let (srv, id, _conn, _red, _blue) = ended_in_an_outage(dir.path()).await;
            srv.clock.advance(1_000);
            settle().await;
            if wait {
                srv.state.hub.begin_shutdown();
                let lost = srv
                    .state
                    .hub
                    .unstored_results()
                    .wait(Duration::from_millis(500))
                    .await;
                assert_eq!(lost, vec![id.clone()]);
            }
            // As `jungle_server::serve` stops: the store is closed, then the runtime goes.
            srv.state.hub.store().close().await;
            srv.clock.advance(2_000);
            settle().await;
            id
        });
        drop(rt);
        id
    });
    let text = String::from_utf8(log.0.lock().unwrap().clone()).unwrap();
    let errors = text
        .lines()
        .filter(|l| l.contains("ERROR") && l.contains(id.as_str()))
        .map(str::to_string)
        .collect();
    (errors, id)
}

#[test]
fn a_server_that_stops_before_the_result_is_stored_says_so() {
    let (errors, _) = log_of_a_stop_in_an_outage(false);
    let lost = errors.iter().filter(|l| l.contains("resume as live"));
    assert_eq!(lost.count(), 1, "{errors:#?}");
}

#[test]
fn a_server_that_waited_in_vain_for_a_result_says_once_that_it_is_lost() {
    let (errors, _) = log_of_a_stop_in_an_outage(true);
    let lost = errors.iter().filter(|l| l.contains("resume as live"));
    assert_eq!(lost.count(), 1, "{errors:#?}");
}

#[tokio::test]
async fn a_stopping_server_waits_for_results_the_database_takes_in_time() {
    let dir = tempfile::tempdir().unwrap();
    let (srv, id, mut conn, _red, _blue) = ended_in_an_outage(dir.path()).await;
    let store = srv.state.hub.store().clone();
    // Several retries failed: the next is 8 s away on the server's clock, which stands still.
    for _ in 0..3 {
        srv.clock.advance(30_000);
        settle().await;
    }
    assert_eq!(srv.state.hub.unstored_results().len(), 1);
    back(&mut conn).await;
    // The server stops: the retry does not wait out its back-off, and the stop waits for it.
    let t0 = std::time::Instant::now();
    srv.state.hub.begin_shutdown();
    let lost = srv
        .state
        .hub
        .unstored_results()
        .wait(Duration::from_secs(10))
        .await;
    assert!(lost.is_empty(), "{lost:?}");
    assert!(t0.elapsed() < Duration::from_secs(5), "{:?}", t0.elapsed());
    assert_eq!(status(&store, &id).await, "finished");
    assert!(srv.state.hub.unstored_results().is_empty());
    assert_eq!(user(&store, "alice").await.games, 1);
}

#[tokio::test]
async fn a_stopping_server_waits_a_bounded_time_and_names_the_results_lost() {
    let dir = tempfile::tempdir().unwrap();
    let (srv, id, _conn, _red, _blue) = ended_in_an_outage(dir.path()).await;
    let store = srv.state.hub.store().clone();
    srv.state.hub.begin_shutdown();
    let t0 = std::time::Instant::now();
    let lost = srv
        .state
        .hub
        .unstored_results()
        .wait(Duration::from_millis(700))
        .await;
    let waited = t0.elapsed();
    assert_eq!(lost, vec![id.clone()]);
    assert!(
        waited >= Duration::from_millis(700) && waited < Duration::from_secs(5),
        "{waited:?}"
    );
    assert_eq!(status(&store, &id).await, "live");
}

#[tokio::test]
async fn a_move_while_the_server_stops_is_refused_as_such() {
    let dir = tempfile::tempdir().unwrap();
    let srv = TestServer::start(dir.path()).await;
    let (mut red, mut blue, game) = guests_playing(&srv, untimed()).await;
    play(&srv, &mut red, &mut blue, &game, 0, &["g3g4"]).await;
    red.send(json!({"t": "challenge", "tc": untimed(), "rated": false}))
        .await;
    let challenge = red.expect("challenge_created").await["id"].clone();
    srv.state.hub.begin_shutdown();
    let refused = |e: &serde_json::Value| {
        assert_eq!(e["code"], "shutting_down", "{e}");
        assert_eq!(e["re"], "move", "{e}");
    };
    srv.clock.advance(100);
    let e = blue
        .expect_error(json!({"t": "move", "game": game, "ply": 1, "move": "a9a8"}))
        .await;
    refused(&e);
    // Nothing was played; a move re-sent for a ply already played is still answered.
    let id: GameId = game.parse().unwrap();
    assert_eq!(srv.state.hub.store().plies(&id).await.unwrap().len(), 1);
    srv.clock.advance(100);
    red.send(json!({"t": "move", "game": game, "ply": 0, "move": "g3g4"}))
        .await;
    assert_eq!(red.expect("moved").await["ply"], 0);
    // No game starts; a challenge refused so stays open.
    srv.clock.advance(100);
    let e = blue
        .expect_error(json!({"t": "accept_challenge", "id": challenge}))
        .await;
    assert_eq!(e["code"], "shutting_down", "{e}");
    let c = srv
        .get(
            &format!("/api/challenges/{}", challenge.as_str().unwrap()),
            None,
        )
        .await;
    assert_eq!(c.status, 200, "{}", c.body);
    // Nor are seeks and challenges opened: they live in memory and would vanish at the restart.
    for msg in [
        json!({"t": "seek", "tc": untimed(), "rated": false}),
        json!({"t": "challenge", "tc": untimed(), "rated": false}),
    ] {
        srv.clock.advance(100);
        let e = blue.expect_error(msg).await;
        assert_eq!(e["code"], "shutting_down", "{e}");
    }
    // The store closed (the last step of stopping): still `shutting_down`, not `internal`.
    srv.state.hub.store().close().await;
    srv.clock.advance(100);
    let e = blue
        .expect_error(json!({"t": "move", "game": game, "ply": 1, "move": "a9a8"}))
        .await;
    refused(&e);
    srv.clock.advance(100);
    let e = blue.expect_error(json!({"t": "play_ai", "level": 1})).await;
    assert_eq!(e["code"], "shutting_down", "{e}");
}

#[tokio::test]
async fn a_stopping_server_says_no_rematch_is_open() {
    let dir = tempfile::tempdir().unwrap();
    let srv = TestServer::start(dir.path()).await;
    let (mut red, mut blue, game) = guests_playing(&srv, untimed()).await;
    red.send(json!({"t": "resign", "game": game})).await;
    blue.expect("ended").await;
    let path = format!("/api/games/{game}");
    let g = srv.get(&path, None).await.json();
    assert_eq!(g["game"]["rematch_open"], true, "{g}");
    srv.state.hub.begin_shutdown();
    // A rematch would be refused (`shutting_down`): the state does not offer one.
    let g = srv.get(&path, None).await.json();
    assert_eq!(g["game"]["rematch_open"], false, "{g}");
    let e = red
        .expect_error(json!({"t": "rematch", "game": game}))
        .await;
    assert_eq!(e["code"], "shutting_down", "{e}");
}

#[tokio::test]
async fn a_stopping_server_lets_no_clock_run_out() {
    let dir = tempfile::tempdir().unwrap();
    let srv = TestServer::start(dir.path()).await;
    // A game clock of 20 s and 10 s a move: both would run out within the minute below.
    let (mut red, _blue, game) =
        guests_playing(&srv, json!({"clock_s": 20, "inc_s": 0, "move_s": 10})).await;
    srv.clock.advance(5_000);
    srv.state.hub.begin_shutdown();
    settle().await;
    for _ in 0..6 {
        srv.clock.advance(10_000);
        settle().await;
    }
    // No pass, no flag: the moves players could not make cost them nothing.
    red.send(json!({"t": "ping"})).await;
    loop {
        let m = red.ws.recv().await.unwrap();
        assert!(m["t"] != "moved" && m["t"] != "ended", "{m}");
        if m["t"] == "pong" {
            break;
        }
    }
    let id: GameId = game.parse().unwrap();
    let store = srv.state.hub.store();
    assert!(store.plies(&id).await.unwrap().is_empty());
    assert_eq!(status(store, &id).await, "live");
}
