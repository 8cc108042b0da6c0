//! The gaps the web client reported: `you` in stored games, analysis of finished positions and
//! its legal moves, Traditional Chinese level names, a look at a challenge before accepting, and
//! JSON errors for requests refused before a handler runs.

mod common;

use common::*;
use serde_json::{json, Value};

fn tmp() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

#[tokio::test]
async fn a_finished_game_tells_its_players_which_side_they_played() {
    let dir = tmp();
    let srv = TestServer::start(dir.path()).await;
    let (mut red, mut blue, game) = guests_playing(&srv, untimed()).await;
    play(&srv, &mut red, &mut blue, &game, 0, &DEN_WIN[..16]).await;
    red.mv(&game, 16, "d8d9").await;
    red.expect("ended").await;
    blue.expect("ended").await;
    let mut fan = srv.guest().await;

    let path = format!("/api/games/{game}");
    let you = |a: jungle_server::client::HttpAnswer| {
        assert_eq!(a.status, 200, "{}", a.body);
        let j = a.json();
        assert_eq!(j["game"]["status"], "finished");
        j["game"]["you"].clone()
    };
    assert_eq!(you(srv.get(&path, Some(&red.token)).await), "red");
    assert_eq!(you(srv.get(&path, Some(&blue.token)).await), "blue");
    assert_eq!(you(srv.get(&path, Some(&fan.token)).await), Value::Null);
    assert_eq!(you(srv.get(&path, None).await), Value::Null);
    // A stale cookie is a spectator, not an error.
    assert_eq!(
        you(srv.get(&path, Some("not-a-session")).await),
        Value::Null
    );

    // `watch` of the finished game says the same.
    for (p, want) in [(&mut red, json!("red")), (&mut blue, json!("blue"))] {
        p.send(json!({"t": "watch", "game": game})).await;
        let st = p.expect("game").await;
        assert_eq!(st["game"]["status"], "finished");
        assert_eq!(st["game"]["you"], want);
    }
    fan.send(json!({"t": "watch", "game": game})).await;
    assert_eq!(fan.expect("game").await["game"]["you"], Value::Null);

    // A hot-seat game's single player holds both sides.
    let mut solo = srv.guest().await;
    let hs = solo.start(json!({"t": "play_hotseat"})).await;
    solo.mv(&hs, 0, "g3g4").await;
    solo.send(json!({"t": "resign", "game": hs})).await;
    solo.expect("ended").await;
    let a = srv
        .get(&format!("/api/games/{hs}"), Some(&solo.token))
        .await;
    assert_eq!(a.json()["game"]["you"], "both", "{}", a.body);
    let a = srv.get(&format!("/api/games/{hs}"), Some(&fan.token)).await;
    assert_eq!(a.json()["game"]["you"], Value::Null, "{}", a.body);
}

#[tokio::test]
async fn analysis_of_a_finished_position_is_its_result_and_every_answer_lists_legal_moves() {
    let dir = tmp();
    let srv = TestServer::start(dir.path()).await;
    let a = srv
        .post(
            "/api/analyze",
            None,
            Some(&json!({"moves": DEN_WIN, "ms": 20})),
        )
        .await;
    assert_eq!(a.status, 200, "{}", a.body);
    let j = a.json();
    assert_eq!(j["result"], json!({"winner": "red", "reason": "den"}));
    assert_eq!(j["best"], Value::Null);
    assert_eq!(j["pv"], json!([]));
    assert_eq!(j["legal"], json!([]));

    let a = srv
        .post(
            "/api/analyze",
            None,
            Some(&json!({"moves": ["g3g4"], "ms": 20})),
        )
        .await;
    assert_eq!(a.status, 200, "{}", a.body);
    let j = a.json();
    assert_eq!(j["result"], Value::Null);
    let legal: Vec<&str> = j["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert_eq!(legal.len(), 24, "{legal:?}");
    // Blue to move: its rat a7 may step forward, Red's moves are not listed.
    assert!(legal.contains(&"a7a6"), "{legal:?}");
    assert!(!legal.iter().any(|m| m.starts_with("g4")), "{legal:?}");
    assert!(legal.contains(&j["best"].as_str().unwrap()));
}

#[tokio::test]
async fn levels_have_traditional_chinese_names() {
    let dir = tmp();
    let srv = TestServer::start(dir.path()).await;
    let levels = srv.get("/api/levels", None).await.json();
    let l = &levels["levels"][2];
    assert_eq!(l["name_zh"], "学徒");
    assert_eq!(l["name_zh_hant"], "學徒");
    assert_eq!(levels["levels"][7]["name_zh_hant"], "大師");
}

#[tokio::test]
async fn a_challenge_can_be_looked_at_before_it_is_accepted() {
    let dir = tmp();
    let srv = TestServer::start(dir.path()).await;
    let (mut red, mut blue) = (srv.guest().await, srv.guest().await);
    let tc = json!({"clock_s": 300, "inc_s": 3, "move_s": 30});
    red.send(json!({"t": "challenge", "tc": tc, "rated": false, "color": "blue"}))
        .await;
    let id = red.expect("challenge_created").await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let path = format!("/api/challenges/{id}");
    let a = srv.get(&path, None).await;
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(
        a.json()["challenge"],
        json!({"id": id, "user": red.name(), "tc": tc, "rated": false, "color": "blue", "online": true})
    );
    // Looking does not take it.
    assert_eq!(srv.get(&path, Some(&blue.token)).await.status, 200);
    blue.send(json!({"t": "accept_challenge", "id": id})).await;
    assert_eq!(blue.expect("game").await["game"]["you"], "red");
    let gone = srv.get(&path, None).await;
    assert_eq!(gone.status, 404);
    assert_eq!(gone.json()["error"]["code"], "not_found");
    let bad = srv.get("/api/challenges/..%2Fx", None).await;
    assert_eq!(bad.status, 404);
    assert_eq!(bad.json()["error"]["code"], "not_found");
}

#[tokio::test]
async fn requests_refused_before_a_handler_get_json_errors_too() {
    let dir = tmp();
    let srv = TestServer::start(dir.path()).await;
    let error = |a: &jungle_server::client::HttpAnswer| {
        assert_eq!(
            a.content_type.as_deref(),
            Some("application/json"),
            "{}",
            a.body
        );
        a.json()["error"].clone()
    };
    // A malformed query string names the field.
    let a = srv.get("/api/users/nobody/games?limit=lots", None).await;
    assert_eq!(a.status, 400);
    let e = error(&a);
    assert_eq!(e["code"], "bad_request");
    assert!(e["message"].as_str().unwrap().contains("limit"), "{e}");
    let a = srv.get("/api/games?status=live&colour=red", None).await;
    assert_eq!(a.status, 400, "unknown query fields are refused");
    assert_eq!(error(&a)["code"], "bad_request");
    // A wrong method.
    let a = srv.get("/api/guest", None).await;
    assert_eq!(a.status, 405);
    assert_eq!(error(&a)["code"], "method_not_allowed");
    // A body over 16 KiB.
    let big = json!({"name": "x".repeat(20_000), "password": "long enough"});
    let a = srv.post("/api/register", None, Some(&big)).await;
    assert_eq!(a.status, 413);
    assert_eq!(error(&a)["code"], "too_large");
    // An unknown game's record is a JSON error; a game's record stays plain text.
    let a = srv.get("/api/games/nosuch/record", None).await;
    assert_eq!(error(&a)["code"], "not_found");
    let (_red, _blue, game) = guests_playing(&srv, untimed()).await;
    let a = srv.get(&format!("/api/games/{game}/record"), None).await;
    assert_eq!(a.status, 200);
    assert!(a.content_type.unwrap().starts_with("text/plain"));
    assert!(a.body.contains("[Red "), "{}", a.body);
}

/// A raw `POST` with an optional `Origin` header: (status, body).
async fn post_from(addr: std::net::SocketAddr, path: &str, origin: Option<&str>) -> (u16, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let origin = origin.map_or(String::new(), |o| format!("Origin: {o}\r\n"));
    let req = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\n{origin}Content-Type: text/plain\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{{}}"
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).await.unwrap();
    let status = out
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    (status, out)
}

#[tokio::test]
async fn requests_that_change_something_are_refused_from_pages_of_other_origins() {
    let dir = tmp();
    let srv = TestServer::start(dir.path()).await;
    // Another port of the same host is the same site: the cookie would go along.
    for evil in ["http://127.0.0.1:1", "http://evil.example.test", "null"] {
        let (status, body) = post_from(srv.addr, "/api/guest", Some(evil)).await;
        assert_eq!(status, 403, "{evil}: {body}");
        assert!(body.contains(r#""code":"forbidden""#), "{body}");
    }
    // The page's own origin, and programs that send none, are served.
    let own = format!("http://{}", srv.addr);
    assert_eq!(post_from(srv.addr, "/api/guest", Some(&own)).await.0, 200);
    assert_eq!(post_from(srv.addr, "/api/guest", None).await.0, 200);
    // Reading is not refused.
    assert_eq!(srv.get("/api/health", None).await.status, 200);
}

#[tokio::test]
async fn one_player_holds_a_few_seeks_at_most() {
    let dir = tmp();
    let srv = TestServer::start(dir.path()).await;
    let mut p = srv.guest().await;
    let mut ids = Vec::new();
    for clock_s in 1..=7 {
        let tc = json!({"clock_s": clock_s * 60, "inc_s": 0, "move_s": 0});
        p.send(json!({"t": "seek", "tc": tc, "rated": false})).await;
        ids.push(p.expect("seek_created").await["id"].clone());
    }
    p.send(json!({"t": "lobby"})).await;
    let seeks = p.expect("seeks").await["seeks"].clone();
    let listed: Vec<Value> = seeks
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].clone())
        .collect();
    // The newest five; the two oldest went.
    assert_eq!(listed.len(), jungle_server::hub::MAX_SEEKS_PER_USER);
    for id in &ids[2..] {
        assert!(listed.contains(id), "{id} missing from {listed:?}");
    }
}

#[tokio::test]
async fn a_client_too_slow_with_its_headers_is_disconnected_but_websockets_stay() {
    use std::time::Duration;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let dir = tmp();
    let config = jungle_server::hub::ServerConfig {
        header_read_timeout: Duration::from_millis(300),
        ..test_config()
    };
    let srv = TestServer::start_with(dir.path(), config).await;
    // A request whose headers never end, and a connection that says nothing at all.
    let mut slow = tokio::net::TcpStream::connect(srv.addr).await.unwrap();
    slow.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")
        .await
        .unwrap();
    let mut silent = tokio::net::TcpStream::connect(srv.addr).await.unwrap();
    let mut player = srv.guest().await;
    for s in [&mut slow, &mut silent] {
        let mut buf = [0u8; 512];
        let n = tokio::time::timeout(Duration::from_secs(10), s.read(&mut buf))
            .await
            .expect("the server closes the connection")
            .unwrap_or(0);
        let answer = String::from_utf8_lossy(&buf[..n]);
        assert!(n == 0 || answer.starts_with("HTTP/1.1 408"), "{answer}");
    }
    // A WebSocket is no longer HTTP: open for longer than the deadline, it still plays.
    tokio::time::sleep(Duration::from_millis(500)).await;
    player
        .send(json!({"t": "play_ai", "level": 1, "color": "red"}))
        .await;
    assert_eq!(player.expect("game").await["game"]["you"], "red");
    // Clients that send their requests at once are served.
    assert_eq!(srv.get("/api/health", None).await.status, 200);
}

#[tokio::test]
async fn history_pages_reach_every_game_even_those_started_in_the_same_millisecond() {
    let dir = tmp();
    let srv = TestServer::start(dir.path()).await;
    let mut p = srv.guest().await;
    // The test clock stands still: every game starts at the same millisecond.
    for _ in 0..5 {
        p.send(json!({"t": "play_hotseat"})).await;
        p.expect("game").await;
    }
    let name = p.name();
    let mut seen = Vec::new();
    let mut before: Option<String> = None;
    for _ in 0..10 {
        let q = before
            .as_ref()
            .map_or(String::new(), |b| format!("&before={b}"));
        let page = srv
            .get(&format!("/api/users/{name}/games?limit=2{q}"), None)
            .await
            .json();
        let games = page["games"].as_array().unwrap().clone();
        if games.is_empty() {
            break;
        }
        for g in &games {
            seen.push(g["id"].as_str().unwrap().to_string());
        }
        before = seen.last().cloned();
    }
    let mut unique = seen.clone();
    unique.sort();
    unique.dedup();
    assert_eq!((seen.len(), unique.len()), (5, 5), "{seen:?}");
}

#[tokio::test]
async fn one_player_has_a_bounded_number_of_games_going_on() {
    let dir = tmp();
    let config = jungle_server::hub::ServerConfig {
        ws_msgs_per_sec: 1000,
        ..test_config()
    };
    let srv = TestServer::start_with(dir.path(), config).await;
    let mut p = srv.guest().await;
    let max = jungle_server::hub::MAX_LIVE_GAMES_PER_USER;
    let mut games = Vec::new();
    for _ in 0..max {
        p.send(json!({"t": "play_hotseat"})).await;
        games.push(p.expect("game").await["game"]["id"].clone());
    }
    let e = p.expect_error(json!({"t": "play_hotseat"})).await;
    assert_eq!(e["code"], "too_many_games", "{e}");
    let e = p
        .expect_error(json!({"t": "play_ai", "level": 1, "color": "red"}))
        .await;
    assert_eq!(e["code"], "too_many_games", "{e}");
    // Another player's seek and challenge are refused, and stay open for others.
    let mut q = srv.guest().await;
    let untimed = json!({"clock_s": 0, "inc_s": 0, "move_s": 0});
    q.send(json!({"t": "seek", "tc": untimed, "rated": false}))
        .await;
    let seek = q.expect("seek_created").await["id"].clone();
    q.send(json!({"t": "challenge", "tc": untimed, "rated": false}))
        .await;
    let challenge = q.expect("challenge_created").await["id"].clone();
    for msg in [
        json!({"t": "accept_seek", "id": seek}),
        json!({"t": "quick", "tc": untimed}),
        json!({"t": "accept_challenge", "id": challenge}),
    ] {
        let e = p.expect_error(msg).await;
        assert_eq!(e["code"], "too_many_games", "{e}");
    }
    let mut r = srv.guest().await;
    r.send(json!({"t": "accept_seek", "id": seek})).await;
    assert_eq!(r.expect("game").await["game"]["status"], "live");
    r.send(json!({"t": "accept_challenge", "id": challenge}))
        .await;
    assert_eq!(r.expect("game").await["game"]["status"], "live");
    // One resigned, one may start again.
    p.send(json!({"t": "resign", "game": games[0]})).await;
    p.expect("ended").await;
    p.send(json!({"t": "play_hotseat"})).await;
    assert_eq!(p.expect("game").await["game"]["status"], "live");
}

#[tokio::test]
async fn the_ais_search_ends_with_its_game_and_frees_its_place() {
    use std::time::Duration;
    let dir = tmp();
    // One search at a time, and a level-10 search of 30 s.
    let config = jungle_server::hub::ServerConfig {
        ai_ms_per_level: 3_000,
        max_searches: 1,
        ..test_config()
    };
    let srv = TestServer::start_with(dir.path(), config).await;
    let mut a = srv.guest().await;
    a.send(json!({"t": "play_ai", "level": 10, "color": "blue"}))
        .await;
    let game = a.expect("game").await["game"]["id"].clone();
    // The AI (Red) is thinking; its opponent resigns.
    tokio::time::sleep(Duration::from_millis(100)).await;
    a.send(json!({"t": "resign", "game": game})).await;
    a.expect("ended").await;
    // Another player's level-1 AI (3 s) gets the pool's one place at once, not in half a minute.
    let mut b = srv.guest().await;
    b.send(json!({"t": "play_ai", "level": 1, "color": "blue"}))
        .await;
    b.expect("game").await;
    let moved = tokio::time::timeout(Duration::from_secs(15), b.expect("moved")).await;
    assert!(
        moved.is_ok(),
        "the resigned game's search still held the pool"
    );
}

#[tokio::test]
async fn a_request_whose_body_never_comes_is_answered_408() {
    use std::time::Duration;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let dir = tmp();
    let config = jungle_server::hub::ServerConfig {
        request_timeout: Duration::from_millis(300),
        ..test_config()
    };
    let srv = TestServer::start_with(dir.path(), config).await;
    let mut s = tokio::net::TcpStream::connect(srv.addr).await.unwrap();
    // Headers at once, a body that says 100 bytes and sends one.
    s.write_all(
        b"POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{",
    )
    .await
    .unwrap();
    let mut out = vec![0u8; 1024];
    let n = tokio::time::timeout(Duration::from_secs(10), s.read(&mut out))
        .await
        .expect("answered in time")
        .unwrap();
    let answer = String::from_utf8_lossy(&out[..n]);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains(r#""code":"timeout""#), "{answer}");
}
