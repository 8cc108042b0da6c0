//! Ending a session closes the WebSockets opened with it: `POST /api/logout` that session's,
//! `POST /api/logout-all` every socket of the account; other sessions and accounts play on.

mod common;

use common::*;
use jungle_server::client::WsClient;
use serde_json::{json, Value};
use std::time::Duration;

fn tmp() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

/// The socket is told `unauthorized` ("signed out") and closed; nothing it sent after the
/// sign-out was played.
async fn expect_signed_out(p: &mut Player) {
    loop {
        let m =
            p.ws.recv_timeout(Duration::from_secs(10))
                .await
                .expect("a message")
                .expect("an `unauthorized` error before the socket closes");
        assert_ne!(m["t"], "moved", "a signed-out socket played: {m}");
        assert_ne!(m["t"], "ended", "a signed-out socket ended a game: {m}");
        assert_ne!(m["t"], "pong", "a signed-out socket answered: {m}");
        if m["t"] == "error" {
            assert_eq!(m["code"], "unauthorized", "{m}");
            assert_eq!(m["message"], "signed out", "{m}");
            break;
        }
    }
    match p.ws.recv_timeout(Duration::from_secs(10)).await {
        Ok(None) => {}
        Ok(Some(m)) => panic!("the socket stays open after signing out: {m}"),
        // A reset after the close is a close too; waiting in vain is not.
        Err(e) => assert!(!e.to_string().contains("timed out"), "{e}"),
    }
}

async fn game_state(srv: &TestServer, game: &str) -> Value {
    let a = srv.get(&format!("/api/games/{game}"), None).await;
    assert_eq!(a.status, 200, "{}", a.body);
    a.json()["game"].clone()
}

#[tokio::test]
async fn logging_out_closes_the_sockets_of_the_ended_sessions() {
    let dir = tmp();
    let srv = TestServer::start(dir.path()).await;
    // Alice on two devices (two sessions, a socket each); Bob is a guest.
    let mut alice1 = srv.registered("alice").await;
    let mut alice2 = srv.logged_in("alice").await;
    let mut bob = srv.guest().await;
    let game = challenge_game(&mut alice1, &mut bob, untimed(), false).await;
    alice2.expect("game").await; // her other socket follows the game too
    play(&srv, &mut alice1, &mut bob, &game, 0, &["g3g4", "a9a8"]).await;
    alice2.expect("moved").await;
    alice2.expect("moved").await;

    // Logging out of the first session closes its socket: a move sent after is not played.
    let a = srv.post("/api/logout", Some(&alice1.token), None).await;
    assert_eq!(a.status, 200, "{}", a.body);
    let _ = alice1
        .ws
        .send(&json!({"t": "move", "game": game, "ply": 2, "move": "g4g5"}))
        .await;
    let _ = alice1.ws.send(&json!({"t": "ping"})).await;
    expect_signed_out(&mut alice1).await;
    let st = game_state(&srv, &game).await;
    assert_eq!(st["ply"], 2, "{st}");
    assert_eq!(st["status"], "live", "{st}");
    assert_eq!(srv.get("/api/me", Some(&alice1.token)).await.status, 401);
    assert!(WsClient::connect(srv.addr, &alice1.token, None)
        .await
        .is_err());

    // Her other session's socket still works and plays the game on; Alice is still online.
    alice2.send(json!({"t": "ping"})).await;
    alice2.expect("pong").await;
    srv.clock.advance(100);
    alice2.mv(&game, 2, "g4g5").await;
    let m = bob.expect("moved").await;
    assert_eq!(m["ply"], 2);
    srv.clock.advance(100);
    bob.mv(&game, 3, "a8a9").await;
    alice2.expect("moved").await;

    // A third session; then logging out everywhere closes both remaining sockets.
    let mut alice3 = srv.logged_in("alice").await;
    let a = srv.post("/api/logout-all", Some(&alice2.token), None).await;
    assert_eq!(a.status, 200, "{}", a.body);
    let _ = alice2
        .ws
        .send(&json!({"t": "move", "game": game, "ply": 4, "move": "g5g6"}))
        .await;
    let _ = alice3.ws.send(&json!({"t": "resign", "game": game})).await;
    expect_signed_out(&mut alice2).await;
    expect_signed_out(&mut alice3).await;
    for t in [&alice2.token, &alice3.token] {
        assert_eq!(srv.get("/api/me", Some(t)).await.status, 401);
    }

    // Bob sees Alice disconnect (the reconnect grace applies); the game is as it was.
    let p = bob.expect("presence").await;
    assert_eq!(p["red"], false, "{p}");
    let st = game_state(&srv, &game).await;
    assert_eq!(st["ply"], 4, "{st}");
    assert_eq!(st["status"], "live", "{st}");
    assert_eq!(st["result"], Value::Null, "{st}");
    // Another account's socket is untouched.
    bob.send(json!({"t": "ping"})).await;
    bob.expect("pong").await;

    // Logging in again, Alice gets her game back within the grace.
    srv.clock.advance(10_000);
    let mut alice4 = srv.logged_in("alice").await;
    assert_eq!(alice4.welcome["games"], json!([game]));
    assert_eq!(bob.expect("presence").await["red"], true);
    srv.clock.advance(100);
    alice4.mv(&game, 4, "g5g6").await;
    bob.expect("moved").await;
}

#[tokio::test]
async fn logging_out_a_guest_closes_its_socket_and_leaves_other_accounts_alone() {
    let dir = tmp();
    let srv = TestServer::start(dir.path()).await;
    let mut guest = srv.guest().await;
    let mut other = srv.guest().await;
    // A stale or missing cookie ends nothing.
    let a = srv.post("/api/logout", Some("not-a-session"), None).await;
    assert_eq!(a.status, 200, "{}", a.body);
    let a = srv.post("/api/logout", None, None).await;
    assert_eq!(a.status, 200, "{}", a.body);
    guest.send(json!({"t": "ping"})).await;
    guest.expect("pong").await;
    // logout-all of one account leaves the other's socket open.
    let a = srv.post("/api/logout-all", Some(&guest.token), None).await;
    assert_eq!(a.status, 200, "{}", a.body);
    let _ = guest.ws.send(&json!({"t": "ping"})).await;
    expect_signed_out(&mut guest).await;
    other.send(json!({"t": "ping"})).await;
    other.expect("pong").await;
    let (_, n) = srv.state.hub.counts();
    assert_eq!(n, 1, "only the other guest is online");
}

#[tokio::test]
async fn changing_the_password_signs_out_the_other_devices_only() {
    let dir = tmp();
    let srv = TestServer::start(dir.path()).await;
    let mut here = srv.registered("alice").await;
    let mut other = srv.logged_in("alice").await;
    let change = |old: &str, new: &str| json!({"old": old, "new": new});
    // Refusals, each with its code; nothing changes.
    let a = srv
        .post(
            "/api/password",
            Some(&here.token),
            Some(&change("wrong password", "a new secret")),
        )
        .await;
    assert_eq!(
        (a.status, a.json()["error"]["code"].clone()),
        (403, json!("wrong_password")),
        "{}",
        a.body
    );
    let a = srv
        .post(
            "/api/password",
            Some(&here.token),
            Some(&change("correct horse", "short")),
        )
        .await;
    assert_eq!(
        (a.status, a.json()["error"]["code"].clone()),
        (400, json!("password_length")),
        "{}",
        a.body
    );
    let a = srv
        .post(
            "/api/password",
            None,
            Some(&change("correct horse", "a new secret")),
        )
        .await;
    assert_eq!(a.status, 401, "{}", a.body);
    let guest = srv.guest().await;
    let a = srv
        .post(
            "/api/password",
            Some(&guest.token),
            Some(&change("", "a new secret")),
        )
        .await;
    assert_eq!(
        (a.status, a.json()["error"]["code"].clone()),
        (403, json!("guest_account")),
        "{}",
        a.body
    );
    other.send(json!({"t": "ping"})).await;
    other.expect("pong").await;

    let a = srv
        .post(
            "/api/password",
            Some(&here.token),
            Some(&change("correct horse", "a new secret")),
        )
        .await;
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(a.json()["user"]["name"], "alice");
    // The other device is signed out; this one plays on.
    expect_signed_out(&mut other).await;
    assert_eq!(srv.get("/api/me", Some(&other.token)).await.status, 401);
    here.send(json!({"t": "ping"})).await;
    here.expect("pong").await;
    assert_eq!(srv.get("/api/me", Some(&here.token)).await.status, 200);
    // The old password no longer signs in; the new one does.
    let login = |password: &str| json!({"name": "alice", "password": password});
    let a = srv
        .post("/api/login", None, Some(&login("correct horse")))
        .await;
    assert_eq!(a.status, 401, "{}", a.body);
    let a = srv
        .post("/api/login", None, Some(&login("a new secret")))
        .await;
    assert_eq!(a.status, 200, "{}", a.body);
}
