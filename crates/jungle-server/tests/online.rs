//! The server over real sockets on loopback, with an injected clock: games to the end, clocks,
//! timeouts, disconnects, draws, scores, the lobby and refused messages.

mod common;

use common::*;
use serde_json::json;
use std::time::Duration;

fn tmp() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

#[tokio::test]
async fn two_players_play_to_a_den_win_with_a_spectator_record_and_history() {
    let dir = tmp();
    let srv = TestServer::start(dir.path()).await;
    let (mut red, mut blue, game) = guests_playing(&srv, untimed()).await;
    let mut fan = srv.guest().await;
    fan.send(json!({"t": "watch", "game": game})).await;
    let st = fan.expect("game").await;
    assert_eq!(st["game"]["you"], serde_json::Value::Null);
    assert_eq!(st["game"]["ply"], 0);
    assert_eq!(st["game"]["legal"].as_array().unwrap().len(), 24);

    play(&srv, &mut red, &mut blue, &game, 0, &DEN_WIN[..16]).await;
    red.mv(&game, 16, "d8d9").await;
    let ended = red.expect("ended").await;
    assert_eq!(ended["result"], json!({"winner": "red", "reason": "den"}));
    assert_eq!(blue.expect("ended").await["result"]["reason"], "den");
    // The spectator saw every move and the end.
    for ply in 0..17 {
        let m = fan.expect("moved").await;
        assert_eq!(m["ply"], ply);
        // The ply that ends the game stops the clocks, as the game's state does.
        let running = if ply == 16 {
            json!(null)
        } else {
            json!(["blue", "red"][ply % 2])
        };
        assert_eq!(m["clocks"]["running"], running, "{m}");
    }
    assert_eq!(fan.expect("ended").await["result"]["winner"], "red");
    // Spectators cannot act.
    let e = fan.expect_error(json!({"t": "resign", "game": game})).await;
    assert_eq!(e["code"], "spectator");

    let g = srv.get(&format!("/api/games/{game}"), None).await.json();
    assert_eq!(g["game"]["status"], "finished");
    assert_eq!(g["game"]["moves"].as_array().unwrap().len(), 17);
    assert_eq!(g["game"]["moves"][16]["san"], "Rd9#");
    let rec = srv.get(&format!("/api/games/{game}/record"), None).await;
    assert_eq!(rec.status, 200);
    assert!(rec.content_type.unwrap().starts_with("text/plain"));
    let parsed: jungle::GameRecord = rec.body.parse().expect("a valid record");
    assert_eq!(parsed.result, "1-0");
    assert_eq!(parsed.tag("Termination"), Some("den"));
    assert_eq!(parsed.to_game().unwrap().len(), 17);
    // The tags in the order of RULES §10's example.
    let names: Vec<&str> = parsed.tags.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(
        names,
        [
            "Event",
            "Site",
            "Date",
            "Red",
            "Blue",
            "Result",
            "Variant",
            "TimeControl",
            "Termination"
        ]
    );

    let hist = srv
        .get(&format!("/api/users/{}/games", red.name()), None)
        .await
        .json();
    assert_eq!(hist["games"][0]["id"], game);
    assert_eq!(hist["games"][0]["result"]["reason"], "den");
    // Guests' games count in their history but never in scores.
    let me = srv.get("/api/me", Some(&red.token)).await.json();
    assert_eq!(me["user"]["wins"], 1);
    assert_eq!(me["user"]["score"], 0);
}

#[tokio::test]
async fn duplicate_forged_out_of_turn_and_malformed_messages_are_refused() {
    let dir = tmp();
    let srv = TestServer::start(dir.path()).await;
    let (mut red, mut blue, game) = guests_playing(&srv, untimed()).await;
    let stats = srv.get("/api/stats", None).await.json();
    assert_eq!(
        (stats["games"].as_u64(), stats["online"].as_u64()),
        (Some(1), Some(2))
    );
    assert!(stats["memory_bytes"].as_u64().unwrap() > 1 << 20, "{stats}");
    let first = red.mv(&game, 0, "g3g4").await;
    blue.expect("moved").await;
    // The same move re-sent for the same ply: the same answer, nothing changes.
    let again = red.mv(&game, 0, "g3g4").await;
    assert_eq!(again, first);
    let e = red
        .expect_error(json!({"t": "move", "game": game, "ply": 0, "move": "a3a4"}))
        .await;
    assert_eq!(e["code"], "wrong_ply");
    let e = red
        .expect_error(json!({"t": "move", "game": game, "ply": 1, "move": "a3a4"}))
        .await;
    assert_eq!(e["code"], "not_your_turn");
    let e = blue
        .expect_error(json!({"t": "move", "game": game, "ply": 5, "move": "a9a8"}))
        .await;
    assert_eq!(e["code"], "wrong_ply");
    let e = blue
        .expect_error(json!({"t": "move", "game": game, "ply": 1, "move": "a9a7"}))
        .await;
    assert_eq!(e["code"], "illegal_move");
    // Why, in English and as data a client can say in its own language.
    assert_eq!(e["message"], "the lion on a9 cannot reach a7");
    assert_eq!(
        e["why"],
        json!({"code": "cannot_reach", "animal": "L", "from": "a9", "to": "a7"})
    );
    let e = blue
        .expect_error(json!({"t": "move", "game": game, "ply": 1, "move": "--"}))
        .await;
    assert_eq!(e["code"], "illegal_move");
    assert_eq!(e["why"], json!({"code": "pass"}), "{e}");
    let e = blue
        .expect_error(json!({"t": "move", "game": game, "ply": 1, "move": "zz"}))
        .await;
    assert_eq!(e["code"], "illegal_move");
    assert!(
        e.get("why").is_none(),
        "unreadable text has no rules reason: {e}"
    );
    assert_eq!(e["re"], "move");
    // Someone else's move for this game, and a spectator's.
    let mut other = srv.guest().await;
    let e = other
        .expect_error(json!({"t": "move", "game": game, "ply": 1, "move": "a9a8"}))
        .await;
    assert_eq!(e["code"], "not_your_game");
    other.send(json!({"t": "watch", "game": game})).await;
    other.expect("game").await;
    let e = other
        .expect_error(json!({"t": "move", "game": game, "ply": 1, "move": "a9a8"}))
        .await;
    assert_eq!(e["code"], "spectator");
    let e = other
        .expect_error(json!({"t": "move", "game": "nosuchgame", "ply": 1, "move": "a9a8"}))
        .await;
    assert_eq!(e["code"], "not_found");
    // Malformed messages.
    red.ws.send_text("{not json").await.unwrap();
    assert_eq!(red.expect("error").await["code"], "bad_json");
    let e = red
        .expect_error(json!({"t": "move", "game": game, "ply": 1, "move": "a9a8", "clock": 5}))
        .await;
    assert_eq!(e["code"], "bad_json");
    assert_eq!(e["re"], "move");
    red.ws
        .send_text(&format!(
            "{{\"t\":\"ping\",\"pad\":\"{}\"}}",
            "x".repeat(5000)
        ))
        .await
        .unwrap();
    assert_eq!(red.expect("error").await["code"], "too_large");
    // Nothing changed: the game is still at ply 1, Blue to move.
    let g = srv.get(&format!("/api/games/{game}"), None).await.json();
    assert_eq!(g["game"]["ply"], 1);
    assert_eq!(g["game"]["turn"], "blue");
    let blues = blue.mv(&game, 1, "a9a8").await;
    red.expect("moved").await;
    red.mv(&game, 2, "g4g5").await;
    // Re-sent moves of earlier plies get the very answers they got then.
    assert_eq!(red.mv(&game, 0, "g3g4").await, first);
    assert_eq!(blue.mv(&game, 1, "a9a8").await, blues);
}

#[tokio::test]
async fn message_floods_are_rate_limited() {
    let dir = tmp();
    let srv = TestServer::start(dir.path()).await;
    let mut p = srv.guest().await;
    // The bucket holds 20 messages and the test clock never moves: the 21st is refused.
    for _ in 0..21 {
        p.send(json!({"t": "ping"})).await;
    }
    for _ in 0..20 {
        p.expect("pong").await;
    }
    assert_eq!(p.expect("error").await["code"], "rate_limited");
    srv.clock.advance(1000);
    p.send(json!({"t": "ping"})).await;
    p.expect("pong").await;
}

#[tokio::test]
async fn a_burst_of_refusals_disconnects_but_a_long_session_is_never_cut_off() {
    let dir = tmp();
    let srv = TestServer::start(dir.path()).await;
    let mut p = srv.guest().await;
    // 150 refused messages over ten minutes: each answered, and the socket stays.
    for _ in 0..150 {
        srv.clock.advance(4000);
        p.send(json!({"t": "nonsense"})).await;
        assert_eq!(p.expect("error").await["code"], "bad_json");
    }
    p.send(json!({"t": "ping"})).await;
    p.expect("pong").await;
    // 101 within a moment (the clock stands still: most are over the message rate too): the
    // client is flooding, and the server closes the socket after answering them.
    srv.clock.advance(60_000);
    for _ in 0..101 {
        let _ = p.ws.send_text("{").await;
    }
    let mut refused = 0;
    let end = loop {
        match p.ws.recv_timeout(Duration::from_secs(10)).await {
            Ok(Some(m)) => {
                assert_eq!(m["t"], "error", "{m}");
                refused += 1;
            }
            Ok(None) => break "closed".to_string(),
            Err(e) => break e.to_string(),
        }
    };
    assert_eq!(refused, 101);
    assert!(!end.contains("timed out"), "the socket stayed open: {end}");
}

#[tokio::test]
async fn the_game_clock_flags_and_the_increment_is_added() {
    let dir = tmp();
    let srv = TestServer::start(dir.path()).await;
    let (mut red, mut blue, game) =
        guests_playing(&srv, json!({"clock_s": 10, "inc_s": 2, "move_s": 0})).await;
    srv.clock.advance(3000);
    let m = red.mv(&game, 0, "g3g4").await;
    // 10 s - 3 s + 2 s increment.
    assert_eq!(m["clocks"]["red_ms"], 9000);
    assert_eq!(m["clocks"]["blue_ms"], 10000);
    assert_eq!(m["clocks"]["running"], "blue");
    blue.expect("moved").await;
    srv.clock.advance(9999);
    red.send(json!({"t": "ping"})).await;
    red.expect("pong").await;
    srv.clock.advance(1);
    let e = red.expect("ended").await;
    assert_eq!(e["result"], json!({"winner": "red", "reason": "time"}));
    let g = srv.get(&format!("/api/games/{game}"), None).await.json();
    assert_eq!(g["game"]["result"]["reason"], "time");
    let e = blue
        .expect_error(json!({"t": "move", "game": game, "ply": 1, "move": "a9a8"}))
        .await;
    assert_eq!(e["code"], "game_over");
}

#[tokio::test]
async fn the_move_limit_passes_and_the_fourth_timeout_forfeits() {
    let dir = tmp();
    let srv = TestServer::start(dir.path()).await;
    let (mut red, mut blue, game) =
        guests_playing(&srv, json!({"clock_s": 0, "inc_s": 0, "move_s": 30})).await;
    let mut ply = 0;
    for n in 1..=3 {
        srv.clock.advance(30_000);
        let m = red.expect("moved").await;
        assert_eq!(m["move"], "--");
        assert_eq!(m["ply"], ply);
        assert_eq!(m["timeouts"]["red"], n);
        blue.expect("moved").await;
        ply += 1;
        let shuffle = if n % 2 == 1 { "a9a8" } else { "a8a9" };
        blue.mv(&game, ply, shuffle).await;
        red.expect("moved").await;
        ply += 1;
    }
    srv.clock.advance(29_999);
    red.send(json!({"t": "ping"})).await;
    red.expect("pong").await;
    srv.clock.advance(1);
    let e = red.expect("ended").await;
    assert_eq!(e["result"], json!({"winner": "blue", "reason": "timeouts"}));
    // The fourth timeout, which ended the game, is counted in `ended` (no `moved` tells it).
    assert_eq!(e["timeouts"], json!({"red": 4, "blue": 0}));
    let rec = srv
        .get(&format!("/api/games/{game}/record"), None)
        .await
        .body;
    assert!(rec.contains("1. -- "), "{rec}");
    assert!(rec.contains("[Termination \"timeouts\"]"), "{rec}");
}

#[tokio::test]
async fn a_dropped_player_can_reconnect_and_past_the_grace_loses() {
    let dir = tmp();
    let srv = TestServer::start(dir.path()).await;
    let (mut red, mut blue, game) = guests_playing(&srv, untimed()).await;
    play(&srv, &mut red, &mut blue, &game, 0, &["g3g4", "a9a8"]).await;
    // Red drops; Blue sees it; the game waits.
    let token = red.token.clone();
    let red_user = red.user.clone();
    red.ws.close_ref().await;
    let p = blue.expect("presence").await;
    assert_eq!(p["red"], false);
    // The moment the grace runs out, as ms left at sending, for the away seat only.
    assert_eq!(p["away_ms"], json!({"red": 60_000, "blue": null}), "{p}");
    srv.clock.advance(20_000);
    blue.send(json!({"t": "watch", "game": game})).await;
    let st = blue.expect("game").await;
    assert_eq!(st["game"]["away_ms"], json!({"red": 40_000, "blue": null}));
    srv.clock.advance(39_000);
    // Red comes back on another "device": the game is where it was.
    let mut red = Player::connect(srv.addr, token.clone(), red_user.clone()).await;
    assert_eq!(red.welcome["games"], json!([game]));
    let p = blue.expect("presence").await;
    assert_eq!(p["red"], true);
    assert_eq!(p["away_ms"], json!({"red": null, "blue": null}), "{p}");
    red.send(json!({"t": "watch", "game": game})).await;
    let st = red.expect("game").await;
    assert_eq!(st["game"]["away_ms"], json!({"red": null, "blue": null}));
    assert_eq!(st["game"]["you"], "red");
    assert_eq!(st["game"]["ply"], 2);
    assert_eq!(st["game"]["moves"][1]["move"], "a9a8");
    srv.clock.advance(59_000); // the grace restarted on reconnecting
    red.mv(&game, 2, "g4g5").await;
    blue.expect("moved").await;
    // Drops again and does not come back in time.
    red.ws.close_ref().await;
    blue.expect("presence").await;
    srv.clock.advance(60_000);
    let e = blue.expect("ended").await;
    assert_eq!(
        e["result"],
        json!({"winner": "blue", "reason": "disconnect"})
    );
    assert_eq!(e["changes"]["red"]["coins_before"], 1000);
    assert_eq!(e["changes"]["red"]["coins_after"], 990);
    let me = srv.get("/api/me", Some(&token)).await.json();
    assert_eq!(me["user"]["disconnects"], 1);
    assert_eq!(me["user"]["losses"], 1);
}

#[tokio::test]
async fn leaving_on_purpose_loses_at_once_and_costs_coins() {
    let dir = tmp();
    let srv = TestServer::start(dir.path()).await;
    let (mut red, mut blue, game) = guests_playing(&srv, untimed()).await;
    play(&srv, &mut red, &mut blue, &game, 0, &["g3g4", "a9a8"]).await;
    blue.send(json!({"t": "leave", "game": game})).await;
    let e = red.expect("ended").await;
    assert_eq!(e["result"], json!({"winner": "red", "reason": "left"}));
    assert_eq!(e["changes"]["blue"]["coins_after"], 990);
    let me = srv.get("/api/me", Some(&blue.token)).await.json();
    assert_eq!(me["user"]["escapes"], 1);
    assert_eq!(me["user"]["coins"], 990);
}

#[tokio::test]
async fn draw_offers_lapse_can_be_declined_and_accepted() {
    let dir = tmp();
    let srv = TestServer::start(dir.path()).await;
    let (mut red, mut blue, game) = guests_playing(&srv, untimed()).await;
    red.send(json!({"t": "draw_offer", "game": game})).await;
    assert_eq!(blue.expect("draw_offered").await["by"], "red");
    // The offerer cannot accept its own offer.
    let e = red
        .expect_error(json!({"t": "draw_accept", "game": game}))
        .await;
    assert_eq!(e["code"], "no_draw_offer");
    blue.send(json!({"t": "draw_decline", "game": game})).await;
    red.expect("draw_declined").await;
    let e = blue
        .expect_error(json!({"t": "draw_accept", "game": game}))
        .await;
    assert_eq!(e["code"], "no_draw_offer");
    // An offer lapses when either player moves: both are told, right after the move.
    red.send(json!({"t": "draw_offer", "game": game})).await;
    blue.expect("draw_offered").await;
    play(&srv, &mut red, &mut blue, &game, 0, &["g3g4"]).await;
    for p in [&mut red, &mut blue] {
        let lapsed = p.ws.recv().await.unwrap();
        assert_eq!(
            lapsed,
            json!({"t": "draw_lapsed", "game": game, "by": "red"})
        );
    }
    let e = blue
        .expect_error(json!({"t": "draw_accept", "game": game}))
        .await;
    assert_eq!(e["code"], "no_draw_offer");
    blue.send(json!({"t": "draw_offer", "game": game})).await;
    red.expect("draw_offered").await;
    // Offering again while the offer stands announces nothing new.
    blue.send(json!({"t": "draw_offer", "game": game})).await;
    srv.clock.advance(100);
    blue.send(json!({"t": "ping"})).await;
    blue.expect("pong").await;
    red.send(json!({"t": "ping"})).await;
    assert_eq!(red.ws.recv().await.unwrap()["t"], "pong");
    red.send(json!({"t": "draw_accept", "game": game})).await;
    let e = blue.expect("ended").await;
    assert_eq!(e["result"], json!({"winner": null, "reason": "agreed"}));
}

#[tokio::test]
async fn a_server_pass_lapses_a_draw_offer_as_a_move_does() {
    let dir = tmp();
    let srv = TestServer::start(dir.path()).await;
    let (mut red, mut blue, game) =
        guests_playing(&srv, json!({"clock_s": 0, "inc_s": 0, "move_s": 30})).await;
    // A move with no offer standing tells no lapse: the next message is the answer to a ping.
    play(&srv, &mut red, &mut blue, &game, 0, &["g3g4"]).await;
    for p in [&mut red, &mut blue] {
        p.send(json!({"t": "ping"})).await;
        assert_eq!(p.ws.recv().await.unwrap()["t"], "pong");
    }
    // Blue offers, then runs out of move time: the server passes for it, and the offer lapses
    // as it does when Blue moves, and both players are told so.
    blue.send(json!({"t": "draw_offer", "game": game})).await;
    for p in [&mut red, &mut blue] {
        assert_eq!(p.ws.recv().await.unwrap()["t"], "draw_offered");
    }
    srv.clock.advance(30_000);
    for p in [&mut red, &mut blue] {
        let m = p.ws.recv().await.unwrap();
        assert_eq!(
            (m["t"].as_str(), m["move"].as_str()),
            (Some("moved"), Some("--")),
            "{m}"
        );
        let lapsed = p.ws.recv().await.unwrap();
        assert_eq!(
            lapsed,
            json!({"t": "draw_lapsed", "game": game, "by": "blue"})
        );
    }
    let e = red
        .expect_error(json!({"t": "draw_accept", "game": game}))
        .await;
    assert_eq!(e["code"], "no_draw_offer");
    let g = srv.get(&format!("/api/games/{game}"), None).await.json();
    assert_eq!(g["game"]["draw_offer"], serde_json::Value::Null, "{g}");
}

#[tokio::test]
async fn abort_only_before_both_sides_moved() {
    let dir = tmp();
    let srv = TestServer::start(dir.path()).await;
    let (mut red, mut blue, game) = guests_playing(&srv, untimed()).await;
    play(&srv, &mut red, &mut blue, &game, 0, &["g3g4"]).await;
    blue.send(json!({"t": "abort", "game": game})).await;
    let e = red.expect("ended").await;
    assert_eq!(e["result"]["reason"], "aborted");
    // Who aborted is said.
    assert_eq!(e["by"], "blue", "{e}");
    let me = srv.get("/api/me", Some(&red.token)).await.json();
    assert_eq!(me["user"]["games"], 0);
    let rec = srv
        .get(&format!("/api/games/{game}/record"), None)
        .await
        .body;
    assert!(rec.contains("[Result \"*\"]"), "{rec}");
    // The players did not want this game: it has no rematch.
    let g = srv.get(&format!("/api/games/{game}"), None).await.json();
    assert_eq!(g["game"]["rematch_open"], false, "{g}");
    let e = red
        .expect_error(json!({"t": "rematch", "game": game}))
        .await;
    assert_eq!(e["code"], "aborted_no_rematch", "{e}");

    let game = challenge_game(&mut red, &mut blue, untimed(), false).await;
    play(&srv, &mut red, &mut blue, &game, 0, &["g3g4", "a9a8"]).await;
    let e = red.expect_error(json!({"t": "abort", "game": game})).await;
    assert_eq!(e["code"], "abort_too_late");
    red.send(json!({"t": "resign", "game": game})).await;
    assert_eq!(
        blue.expect("ended").await["result"],
        json!({"winner": "blue", "reason": "resign"})
    );
}

#[tokio::test]
async fn a_rated_challenge_accepted_by_a_guest_makes_a_casual_game() {
    let dir = tmp();
    let srv = TestServer::start(dir.path()).await;
    let mut red = srv.registered("alice").await;
    let mut blue = srv.guest().await;
    let game = challenge_game(&mut red, &mut blue, untimed(), true).await;
    let g = srv.get(&format!("/api/games/{game}"), None).await.json();
    assert_eq!(g["game"]["rated"], false, "{g}");
    let rec = srv
        .get(&format!("/api/games/{game}/record"), None)
        .await
        .body;
    assert!(!rec.contains("[Event \"Rated\"]"), "{rec}");
    // Between two registered players the same challenge is rated.
    let mut bob = srv.registered("bob").await;
    let game = challenge_game(&mut red, &mut bob, untimed(), true).await;
    let g = srv.get(&format!("/api/games/{game}"), None).await.json();
    assert_eq!(g["game"]["rated"], true, "{g}");
    // A guest's own seeks and challenges say they are casual, as their games will be.
    blue.send(json!({"t": "challenge", "tc": untimed(), "rated": true}))
        .await;
    let id = blue.expect("challenge_created").await["id"].clone();
    let c = srv
        .get(&format!("/api/challenges/{}", id.as_str().unwrap()), None)
        .await
        .json();
    assert_eq!(c["challenge"]["rated"], false, "{c}");
    blue.send(json!({"t": "lobby"})).await;
    blue.expect("seeks").await;
    blue.send(json!({"t": "seek", "tc": untimed(), "rated": true}))
        .await;
    blue.expect("seek_created").await;
    let seeks = blue.expect("seeks").await;
    assert_eq!(seeks["seeks"][0]["rated"], false, "{seeks}");
}

#[tokio::test]
async fn games_start_with_the_players_as_they_are_now_not_as_their_socket_first_saw_them() {
    let dir = tmp();
    let srv = TestServer::start(dir.path()).await;
    let mut red = srv.registered("alice").await;
    let mut blue = srv.guest().await;
    // The guest registers while its socket stays open, then accepts a rated challenge there.
    let r = srv
        .post(
            "/api/register",
            Some(&blue.token),
            Some(&json!({"name": "dave", "password": "long enough"})),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let game = challenge_game(&mut red, &mut blue, untimed(), true).await;
    let g = srv.get(&format!("/api/games/{game}"), None).await.json();
    assert_eq!(g["game"]["rated"], true, "{g}");
    assert_eq!(g["game"]["blue"]["name"], "dave", "{g}");
    assert_eq!(g["game"]["blue"]["guest"], false, "{g}");
    // After a rated game, its rematch starts with the new ratings.
    play(&srv, &mut red, &mut blue, &game, 0, &QUIET_24).await;
    blue.send(json!({"t": "resign", "game": game})).await;
    red.expect("ended").await;
    blue.expect("ended").await;
    red.send(json!({"t": "rematch", "game": game})).await;
    blue.send(json!({"t": "rematch", "game": game})).await;
    let next = red.expect("game").await;
    let alice = srv.get("/api/users/alice", None).await.json();
    let rating = alice["user"]["rating"].as_f64().unwrap().round();
    assert!(rating > 1500.0, "{alice}");
    let side = if next["game"]["red"]["name"] == "alice" {
        "red"
    } else {
        "blue"
    };
    assert_eq!(next["game"][side]["rating"], rating, "{next}");
}

#[tokio::test]
async fn rated_scores_levels_and_the_ten_round_rule() {
    let dir = tmp();
    let srv = TestServer::start(dir.path()).await;
    let mut red = srv.registered("alice").await;
    let mut blue = srv.registered("bob").await;
    // Within 10 rounds, the 20th ply included: no score changes.
    let game = challenge_game(&mut red, &mut blue, untimed(), true).await;
    play(&srv, &mut red, &mut blue, &game, 0, &QUIET_24[..20]).await;
    red.send(json!({"t": "resign", "game": game})).await;
    let e = blue.expect("ended").await;
    assert_eq!(e["changes"]["blue"]["score_after"], 0);
    assert_eq!(e["changes"]["blue"]["rating_after"], 1500.0);
    // Beyond 10 rounds: the winner gains the loser's level (1), the loser loses 2 (not below 0).
    let game = challenge_game(&mut red, &mut blue, untimed(), true).await;
    play(&srv, &mut red, &mut blue, &game, 0, &QUIET_24).await;
    blue.send(json!({"t": "resign", "game": game})).await;
    let e = red.expect("ended").await;
    assert_eq!(e["result"]["winner"], "red");
    let c = &e["changes"];
    assert_eq!(
        (
            c["red"]["score_before"].as_i64(),
            c["red"]["score_after"].as_i64()
        ),
        (Some(0), Some(1))
    );
    assert_eq!(c["blue"]["score_after"], 0);
    assert!(c["red"]["rating_after"].as_f64().unwrap() > 1500.0);
    assert!(c["blue"]["rating_after"].as_f64().unwrap() < 1500.0);
    assert_eq!(c["red"]["coins_after"], 1000);
    // The finished game shows its players as they were when it started, not as they are now.
    let g = srv.get(&format!("/api/games/{game}"), None).await.json();
    assert_eq!(g["game"]["red"]["rating"], 1500.0, "{g}");
    assert_eq!(g["game"]["blue"]["rating"], 1500.0, "{g}");
    // ... and with what it changed, as `ended` said it; also once it is only in the store.
    assert_eq!(g["game"]["changes"], e["changes"], "{g}");
    srv.clock.advance(jungle_server::game::LINGER_MS + 1);
    let id: jungle_server::GameId = game.parse().unwrap();
    until("the actor is gone", || srv.state.hub.game(&id).is_none()).await;
    let g = srv.get(&format!("/api/games/{game}"), None).await.json();
    assert_eq!(g["game"]["changes"], e["changes"], "{g}");
    assert_eq!(g["game"]["rematch_open"], false, "{g}");
    let hist = srv.get("/api/users/alice/games", None).await.json();
    assert_eq!(hist["games"][0]["id"], game.as_str(), "{hist}");
    assert_eq!(hist["games"][0]["red"]["rating"], 1500.0, "{hist}");
    let lb = srv.get("/api/leaderboard", None).await.json();
    assert_eq!(lb["users"][0]["name"], "alice");
    assert_eq!(lb["users"][0]["score"], 1);
    // A casual game changes no score.
    let game = challenge_game(&mut red, &mut blue, untimed(), false).await;
    play(&srv, &mut red, &mut blue, &game, 0, &QUIET_24).await;
    blue.send(json!({"t": "resign", "game": game})).await;
    let e = red.expect("ended").await;
    assert_eq!(e["changes"]["red"]["score_after"], 1);
    let alice = srv.get("/api/users/alice", None).await.json();
    assert_eq!(alice["user"]["wins"], 2);
    assert_eq!(alice["user"]["losses"], 1);
}

#[tokio::test]
async fn a_takeback_gives_back_the_clocks_as_they_were_with_no_increment_kept() {
    let dir = tmp();
    let srv = TestServer::start(dir.path()).await;
    let mut p = srv.guest().await;
    let game = p.start(json!({"t": "play_ai", "level": 1, "color": "red", "tc": {"clock_s": 60, "inc_s": 30, "move_s": 0}})).await;
    for _ in 0..3 {
        srv.clock.advance(1_000);
        let m = p.mv(&game, 0, "a3a4").await;
        assert_eq!(m["clocks"]["red_ms"], 89_000);
        p.expect("moved").await; // the AI's reply
        p.send(json!({"t": "takeback", "game": game})).await;
        let st = p.expect("game").await;
        assert_eq!(st["game"]["ply"], 0);
        assert_eq!(st["game"]["clocks"]["red_ms"], 60_000, "{st}");
        assert_eq!(st["game"]["clocks"]["blue_ms"], 60_000, "{st}");
    }
}

#[tokio::test]
async fn against_the_ai_with_takeback_and_rematch() {
    let dir = tmp();
    let srv = TestServer::start(dir.path()).await;
    let mut p = srv.guest().await;
    p.send(json!({"t": "play_ai", "level": 1, "color": "red"}))
        .await;
    let g = p.expect("game").await;
    assert_eq!(g["game"]["you"], "red");
    assert_eq!(g["game"]["blue"]["ai_level"], 1);
    let game = g["game"]["id"].as_str().unwrap().to_string();
    p.mv(&game, 0, "g3g4").await;
    let reply = p.expect("moved").await;
    assert_eq!(reply["ply"], 1);
    p.send(json!({"t": "takeback", "game": game})).await;
    let st = p.expect("game").await;
    assert_eq!(st["game"]["ply"], 0);
    assert_eq!(st["game"]["turn"], "red");
    p.mv(&game, 0, "a3a4").await;
    assert_eq!(p.expect("moved").await["ply"], 1);
    p.send(json!({"t": "draw_offer", "game": game})).await;
    assert_eq!(
        p.expect("draw_declined").await["by"],
        "blue",
        "the AI declines"
    );
    p.send(json!({"t": "resign", "game": game})).await;
    assert_eq!(p.expect("ended").await["result"]["winner"], "blue");
    p.send(json!({"t": "rematch", "game": game})).await;
    let g2 = p.expect("game").await;
    assert_eq!(g2["game"]["you"], "blue");
    assert_ne!(g2["game"]["id"], game.as_str());
    // The AI (Red now) opens.
    assert_eq!(p.expect("moved").await["ply"], 0);
    // Each refusal has its own code, for clients to say in their players' language.
    let game2 = g2["game"]["id"].as_str().unwrap().to_string();
    let e = p
        .expect_error(json!({"t": "takeback", "game": game2}))
        .await;
    assert_eq!(e["code"], "nothing_to_take_back", "{e}");
    let e = p.expect_error(json!({"t": "rematch", "game": game2})).await;
    assert_eq!(e["code"], "game_not_over", "{e}");
    // The first game's rematch has started: no second one.
    let e = p.expect_error(json!({"t": "rematch", "game": game})).await;
    assert_eq!(e["code"], "already_rematched", "{e}");
    for level in [0, 11, 300, -1] {
        let e = p
            .expect_error(json!({"t": "play_ai", "level": level, "color": "red"}))
            .await;
        assert_eq!(e["code"], "bad_request", "{level}: {e}");
        assert_eq!(e["message"], "the AI level is 1 to 10");
    }
}

#[tokio::test]
async fn takebacks_only_against_the_ai() {
    let dir = tmp();
    let srv = TestServer::start(dir.path()).await;
    let (mut red, mut blue, game) = guests_playing(&srv, untimed()).await;
    play(&srv, &mut red, &mut blue, &game, 0, &["g3g4"]).await;
    let e = red
        .expect_error(json!({"t": "takeback", "game": game}))
        .await;
    assert_eq!(e["code"], "takeback_ai_only");
}

#[tokio::test]
async fn at_one_device_the_last_move_can_be_taken_back() {
    let dir = tmp();
    let srv = TestServer::start(dir.path()).await;
    let mut p = srv.guest().await;
    let game = p.start(json!({"t": "play_hotseat"})).await;
    let e = p.expect_error(json!({"t": "takeback", "game": game})).await;
    assert_eq!(e["code"], "nothing_to_take_back");
    p.mv(&game, 0, "g3g4").await;
    p.mv(&game, 1, "a7a6").await;
    // Blue's move goes back: Blue is to move again, Red's stays.
    p.send(json!({"t": "takeback", "game": game})).await;
    let st = p.expect("game").await;
    assert_eq!(
        (&st["game"]["ply"], &st["game"]["turn"]),
        (&json!(1), &json!("blue"))
    );
    p.send(json!({"t": "takeback", "game": game})).await;
    let st = p.expect("game").await;
    assert_eq!(
        (&st["game"]["ply"], &st["game"]["turn"]),
        (&json!(0), &json!("red"))
    );
    // The store agrees: the record has no moves.
    let rec = srv
        .get(&format!("/api/games/{game}/record"), None)
        .await
        .body;
    assert!(!rec.contains("1. "), "{rec}");
}

#[tokio::test]
async fn a_hotseat_game_left_past_the_grace_is_called_off_not_won() {
    let dir = tmp();
    let srv = TestServer::start(dir.path()).await;
    let mut p = srv.guest().await;
    let game = p.start(json!({"t": "play_hotseat"})).await;
    p.mv(&game, 0, "g3g4").await;
    p.mv(&game, 1, "a7a6").await;
    p.ws.close_ref().await;
    let mut q = srv.guest().await;
    q.send(json!({"t": "watch", "game": game})).await;
    q.expect("game").await;
    srv.clock.advance(60_000);
    let e = q.expect("ended").await;
    assert_eq!(
        e["result"],
        json!({"winner": null, "reason": "aborted"}),
        "{e}"
    );
}

#[tokio::test]
async fn hotseat_one_player_holds_both_seats() {
    let dir = tmp();
    let srv = TestServer::start(dir.path()).await;
    let mut p = srv.guest().await;
    p.send(json!({"t": "play_hotseat"})).await;
    let g = p.expect("game").await;
    assert_eq!(g["game"]["you"], "both");
    assert_eq!(g["game"]["rated"], false);
    let game = g["game"]["id"].as_str().unwrap().to_string();
    for (ply, m) in DEN_WIN.iter().enumerate() {
        srv.clock.advance(100);
        p.mv(&game, ply, m).await;
    }
    assert_eq!(p.expect("ended").await["result"]["reason"], "den");
    let me = srv.get("/api/me", Some(&p.token)).await.json();
    assert_eq!(me["user"]["games"], 0, "hot-seat games are not counted");
}

#[tokio::test]
async fn moves_forbidden_by_section_7_come_with_why_and_are_refused_with_it() {
    let dir = tmp();
    let srv = TestServer::start(dir.path()).await;
    let mut p = srv.guest().await;
    p.send(json!({"t": "play_hotseat"})).await;
    let g = p.expect("game").await;
    let game = g["game"]["id"].as_str().unwrap().to_string();
    assert_eq!(g["game"]["forbidden"], json!({}));
    // Red's rat enters g4 three times in its side's last seven moves.
    let moves = [
        "g3g4", "a7a6", "g4g5", "a6a5", "g5g4", "a5a4", "g4g5", "a9a8", "g5g4", "a8a7", "g4g5",
        "e7d7",
    ];
    let mut last = serde_json::Value::Null;
    for (ply, m) in moves.iter().enumerate() {
        srv.clock.advance(100);
        last = p.mv(&game, ply, m).await;
    }
    let why = json!({"code": "rule_7_3", "animal": "R", "to": "g4", "times": "3"});
    assert_eq!(last["forbidden"], json!({"g5g4": why}), "{last}");
    assert!(!last["legal"]
        .as_array()
        .unwrap()
        .iter()
        .any(|m| m == "g5g4"));
    // The game's state says so too, and playing it anyway is refused with the same why.
    let state = srv
        .get(&format!("/api/games/{game}"), Some(&p.token))
        .await
        .json();
    assert_eq!(state["game"]["forbidden"], json!({"g5g4": why}), "{state}");
    srv.clock.advance(100);
    let e = p
        .expect_error(json!({"t": "move", "game": game, "ply": 12, "move": "g5g4"}))
        .await;
    assert_eq!(e["code"], "illegal_move");
    assert_eq!(e["why"], why);
    // Blue, to move after another of the rat's steps, has nothing forbidden.
    let after = p.mv(&game, 12, "g5f5").await;
    assert_eq!(after["forbidden"], json!({}), "{after}");
}

#[tokio::test]
async fn lobby_seeks_quick_pairing_and_challenges() {
    let dir = tmp();
    let srv = TestServer::start(dir.path()).await;
    let (mut a, mut b, mut c) = (srv.guest().await, srv.guest().await, srv.guest().await);
    c.send(json!({"t": "lobby"})).await;
    assert_eq!(c.expect("seeks").await["seeks"], json!([]));
    let tc = json!({"clock_s": 300, "inc_s": 3, "move_s": 30});
    a.send(json!({"t": "quick", "tc": tc})).await;
    let id = a.expect("seek_created").await["id"].clone();
    let seeks = c.expect("seeks").await;
    assert_eq!(seeks["seeks"][0]["id"], id);
    assert_eq!(seeks["seeks"][0]["user"], a.name());
    // B's quick pairing takes A's seek.
    b.send(json!({"t": "quick", "tc": tc})).await;
    let ga = a.expect("game").await;
    let gb = b.expect("game").await;
    assert_eq!(ga["game"]["id"], gb["game"]["id"]);
    assert_eq!(ga["game"]["tc"], tc);
    assert_ne!(ga["game"]["you"], gb["game"]["you"]);
    assert_eq!(c.expect("seeks").await["seeks"], json!([]));
    // Seek, cancel, accept of a gone seek.
    a.send(json!({"t": "seek", "tc": tc, "rated": false})).await;
    let id = a.expect("seek_created").await["id"].clone();
    a.send(json!({"t": "cancel_seek", "id": id})).await;
    let e = b.expect_error(json!({"t": "accept_seek", "id": id})).await;
    assert_eq!(e["code"], "not_found");
    // One's own seek cannot be accepted: it stays in the lobby.
    a.send(json!({"t": "seek", "tc": tc, "rated": false})).await;
    let id = a.expect("seek_created").await["id"].clone();
    let e = a.expect_error(json!({"t": "accept_seek", "id": id})).await;
    assert_eq!(e["code"], "own_offer");
    a.send(json!({"t": "cancel_seek", "id": id})).await;
    let e = a
        .expect_error(json!({"t": "seek", "tc": {"clock_s": 99999}, "rated": false}))
        .await;
    assert_eq!(e["code"], "bad_request");
    // A challenge cannot be accepted by its author, and only once.
    a.send(json!({"t": "challenge", "tc": tc, "rated": false}))
        .await;
    let id = a.expect("challenge_created").await["id"].clone();
    let e = a
        .expect_error(json!({"t": "accept_challenge", "id": id}))
        .await;
    assert_eq!(e["code"], "own_offer");
    c.send(json!({"t": "accept_challenge", "id": id})).await;
    c.expect("game").await;
    let e = b
        .expect_error(json!({"t": "accept_challenge", "id": id}))
        .await;
    assert_eq!(e["code"], "not_found");
    let live = srv.get("/api/games?status=live", None).await.json();
    assert_eq!(live["games"].as_array().unwrap().len(), 2);
}

/// `a` opens a casual untimed challenge; returns its id. One second passes first, which keeps the
/// message bucket full (the test clock never moves by itself).
async fn open_challenge(srv: &TestServer, a: &mut Player) -> String {
    srv.clock.advance(1000);
    a.send(json!({"t": "challenge", "tc": untimed(), "rated": false}))
        .await;
    a.expect("challenge_created").await["id"]
        .as_str()
        .unwrap()
        .to_string()
}

#[tokio::test]
async fn challenges_expire_after_a_day_and_a_player_keeps_at_most_twenty() {
    let dir = tmp();
    let srv = TestServer::start(dir.path()).await;
    let mut a = srv.guest().await;
    let mut b = srv.guest().await;
    let first = open_challenge(&srv, &mut a).await;
    let status = |id: &str| format!("/api/challenges/{id}");
    assert_eq!(srv.get(&status(&first), None).await.status, 200);
    srv.clock.advance(jungle_server::hub::CHALLENGE_TTL_MS);
    assert_eq!(srv.get(&status(&first), None).await.status, 404);
    let e = b
        .expect_error(json!({"t": "accept_challenge", "id": first}))
        .await;
    assert_eq!(e["code"], "not_found");
    // The 21st open challenge of a player drops their oldest.
    let mut ids = Vec::new();
    for _ in 0..=jungle_server::hub::MAX_CHALLENGES_PER_USER {
        ids.push(open_challenge(&srv, &mut a).await);
    }
    assert_eq!(srv.get(&status(&ids[0]), None).await.status, 404);
    for id in &ids[1..] {
        assert_eq!(srv.get(&status(id), None).await.status, 200, "{id}");
    }
    b.send(json!({"t": "accept_challenge", "id": ids[1]})).await;
    b.expect("game").await;
}

#[tokio::test]
async fn rematch_between_people_needs_both() {
    let dir = tmp();
    let srv = TestServer::start(dir.path()).await;
    let (mut red, mut blue, game) = guests_playing(&srv, untimed()).await;
    red.send(json!({"t": "resign", "game": game})).await;
    blue.expect("ended").await;
    red.send(json!({"t": "rematch", "game": game})).await;
    assert_eq!(blue.expect("rematch_offered").await["by"], "red");
    // The offer is part of the game's state, for a screen opened later.
    blue.send(json!({"t": "watch", "game": game})).await;
    let st = blue.expect("game").await;
    assert_eq!(st["game"]["rematch_offer"], "red", "{st}");
    assert_eq!(st["game"]["rematched"], false, "{st}");
    assert_eq!(st["game"]["rematch_open"], true, "{st}");
    blue.send(json!({"t": "rematch", "game": game})).await;
    let g = red.expect("game").await;
    assert_eq!(g["game"]["you"], "blue", "colours swap");
    blue.expect("game").await;
    // A game has one rematch: asking again starts nothing.
    let e = red
        .expect_error(json!({"t": "rematch", "game": game}))
        .await;
    assert_eq!(e["code"], "already_rematched", "{e}");
    blue.send(json!({"t": "watch", "game": game})).await;
    let st = blue.expect("game").await;
    assert_eq!(
        (&st["game"]["rematched"], &st["game"]["rematch_open"]),
        (&json!(true), &json!(false)),
        "{st}"
    );
    let live = srv.get("/api/games?status=live", None).await.json();
    assert_eq!(live["games"].as_array().unwrap().len(), 1, "{live}");
}

#[tokio::test]
async fn a_rematch_asked_for_by_a_player_who_then_left_does_not_start_without_them() {
    let dir = tmp();
    let srv = TestServer::start(dir.path()).await;
    let (mut red, mut blue, game) = guests_playing(&srv, untimed()).await;
    red.send(json!({"t": "resign", "game": game})).await;
    blue.expect("ended").await;
    red.send(json!({"t": "rematch", "game": game})).await;
    assert_eq!(blue.expect("rematch_offered").await["by"], "red");
    red.ws.close_ref().await;
    // Once the server has noticed the close (bounded wait):
    let red_id: jungle_server::UserId = red.user["id"].as_str().unwrap().parse().unwrap();
    until("the server saw Red go", || {
        !srv.state.hub.is_online(&red_id)
    })
    .await;
    let e = blue
        .expect_error(json!({"t": "rematch", "game": game}))
        .await;
    assert_eq!(e["code"], "opponent_offline", "{e}");
    // Back online, the offer still stands and the rematch starts.
    red.reconnect().await;
    blue.send(json!({"t": "rematch", "game": game})).await;
    assert_eq!(blue.expect("game").await["game"]["status"], "live");
}

#[tokio::test]
async fn accounts_sessions_and_http_errors() {
    let dir = tmp();
    let srv = TestServer::start(dir.path()).await;
    assert_eq!(
        srv.get("/api/health", None).await.json(),
        json!({"status": "ok"})
    );
    assert_eq!(srv.get("/api/me", None).await.status, 401);
    let g = srv.post("/api/guest", None, None).await;
    let guest_tok = g.session.clone().unwrap();
    assert!(g.json()["user"]["name"]
        .as_str()
        .unwrap()
        .starts_with("Guest-"));
    // A guest registering keeps its account (and history).
    let r = srv
        .post(
            "/api/register",
            Some(&guest_tok),
            Some(&json!({"name": "carol", "password": "long enough"})),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["user"]["id"], g.json()["user"]["id"]);
    assert_eq!(r.json()["user"]["guest"], false);
    assert!(!r.body.contains("argon2"), "no hash in answers");
    let dup = post_account(&srv, "/api/register", "Carol", "long enough").await;
    assert_eq!(dup.status, 409);
    assert_eq!(dup.json()["error"]["code"], "name_taken");
    // Full-width, the same name: taken too; and it signs in as it looks.
    let wide = post_account(&srv, "/api/register", "Ｃａｒｏｌ", "long enough").await;
    assert_eq!(wide.status, 409, "{}", wide.body);
    let login = post_account(&srv, "/api/login", "ｃａｒｏｌ", "long enough").await;
    assert_eq!(login.status, 200, "{}", login.body);
    assert_eq!(login.json()["user"]["name"], "carol");
    // Each broken rule has its own code (clients say it in their language) and an English
    // message naming the rule; nothing is created.
    for (name, password, code, says) in [
        ("x", "long enough", "name_length", "2 to 20 characters"),
        (
            "a-name-of-twenty-one1",
            "long enough",
            "name_length",
            "2 to 20",
        ),
        ("bad name", "long enough", "name_chars", "letters, digits"),
        ("GUEST_42", "long enough", "name_reserved", "guests"),
        // Full-width letters are the letters they look like: reserved too.
        ("Ｇuest-42", "long enough", "name_reserved", "guests"),
        // What a guest is shown as in Chinese.
        ("游客622276", "long enough", "name_reserved", "guests"),
        ("訪客12", "long enough", "name_reserved", "guests"),
        // Letters that show as nothing (Hangul fillers): a blank name, or a look-alike.
        (
            "\u{3164}\u{3164}\u{3164}",
            "long enough",
            "name_chars",
            "letters, digits",
        ),
        (
            "Carol\u{3164}",
            "long enough",
            "name_chars",
            "letters, digits",
        ),
        // Marks piled up on a letter, or standing alone, are not writing: a rule of its own.
        (
            "alice\u{64B}\u{64C}\u{64D}\u{64E}\u{64F}",
            "long enough",
            "name_marks",
            "at most 4 in a row",
        ),
        ("\u{301}abc", "long enough", "name_marks", "follow a letter"),
        (
            "abc_\u{301}",
            "long enough",
            "name_marks",
            "follow a letter",
        ),
        // A Cyrillic letter in a Latin name makes a look-alike of another name.
        (
            "al\u{456}ce",
            "long enough",
            "name_scripts",
            "mix alphabets",
        ),
        (
            "Gu\u{435}st-1",
            "long enough",
            "name_scripts",
            "mix alphabets",
        ),
        ("erin", "short", "password_length", "8 to 128 characters"),
    ] {
        let bad = post_account(&srv, "/api/register", name, password).await;
        assert_eq!(bad.status, 400, "{name}: {}", bad.body);
        assert_eq!(bad.json()["error"]["code"], code, "{name}");
        let message = bad.json()["error"]["message"].as_str().unwrap().to_string();
        assert!(message.contains(says), "{name}: {message}");
    }
    // A name in Chinese characters is a name of letters.
    let zh = post_account(&srv, "/api/register", "小明_2", "long enough").await;
    assert_eq!(zh.status, 200, "{}", zh.body);
    let erin = post_account(&srv, "/api/login", "erin", "short").await;
    assert_eq!(erin.status, 401, "the refused registration made no account");
    let bad = srv
        .post(
            "/api/register",
            None,
            Some(&json!({"name": "dave", "password": "long enough", "admin": true})),
        )
        .await;
    assert_eq!(bad.status, 400);
    let wrong = post_account(&srv, "/api/login", "carol", "wrong one").await;
    assert_eq!(wrong.status, 401);
    let l1 = post_account(&srv, "/api/login", "carol", "long enough").await;
    assert_eq!(l1.status, 200);
    let t1 = l1.session.unwrap();
    let l2 = post_account(&srv, "/api/login", "CAROL", "long enough").await;
    let t2 = l2.session.unwrap();
    assert_eq!(
        srv.get("/api/me", Some(&t1)).await.json()["user"]["name"],
        "carol"
    );
    srv.post("/api/logout", Some(&t1), None).await;
    assert_eq!(srv.get("/api/me", Some(&t1)).await.status, 401);
    assert_eq!(srv.get("/api/me", Some(&t2)).await.status, 200);
    srv.post("/api/logout-all", Some(&t2), None).await;
    assert_eq!(srv.get("/api/me", Some(&t2)).await.status, 401);
    assert_eq!(srv.get("/api/me", Some(&guest_tok)).await.status, 401);
    // Misc endpoints.
    assert_eq!(srv.get("/api/users/nobody", None).await.status, 404);
    assert_eq!(srv.get("/api/games/nosuch", None).await.status, 404);
    let presets = srv.get("/api/presets", None).await.json();
    assert!(presets["presets"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["id"] == "blitz"));
    let levels = srv.get("/api/levels", None).await.json();
    assert_eq!(levels["levels"][0]["min_score"], 0);
    assert!(levels["levels"][0]["name_zh"].as_str().is_some());
    let a = srv
        .post(
            "/api/analyze",
            None,
            Some(&json!({"moves": ["g3g4"], "ms": 50})),
        )
        .await;
    assert_eq!(a.status, 200, "{}", a.body);
    let a = a.json();
    assert!(a["best"].as_str().is_some());
    assert_eq!(a["lines"].as_array().map(Vec::len), Some(1), "{a}");
    assert_eq!(a["lines"][0]["pv"], a["pv"]);
    // Several lines: each from a different legal move, the first the main line.
    let a = srv
        .post(
            "/api/analyze",
            None,
            Some(&json!({"moves": ["g3g4"], "ms": 100, "lines": 3})),
        )
        .await;
    assert_eq!(a.status, 200, "{}", a.body);
    let a = a.json();
    let lines = a["lines"].as_array().expect("lines");
    assert_eq!(lines.len(), 3, "{a}");
    assert_eq!(lines[0]["pv"], a["pv"]);
    let firsts: std::collections::HashSet<&str> =
        lines.iter().map(|l| l["pv"][0].as_str().unwrap()).collect();
    assert_eq!(firsts.len(), 3, "{a}");
    let legal = a["legal"].as_array().unwrap();
    assert!(firsts.iter().all(|m| legal.iter().any(|l| l == m)), "{a}");
    assert!(lines
        .iter()
        .all(|l| l["score"]["cp"].is_i64() || l["score"]["den"].is_i64()));
    for bad in [0, 6] {
        let r = srv
            .post("/api/analyze", None, Some(&json!({"lines": bad, "ms": 10})))
            .await;
        assert_eq!(r.status, 400, "{}", r.body);
        assert!(r.body.contains("lines must be 1 to 5"), "{}", r.body);
    }
    let a = srv
        .post("/api/analyze", None, Some(&json!({"moves": ["g3g9"]})))
        .await;
    assert_eq!(a.status, 400);
    let e = a.json();
    assert_eq!(e["error"]["code"], "bad_request");
    assert_eq!(
        e["error"]["message"],
        "move 1: illegal move `g3g9`: the rat on g3 cannot reach g9"
    );
    assert_eq!(
        e["error"]["why"],
        json!({"code": "cannot_reach", "animal": "R", "from": "g3", "to": "g9"})
    );
    let e = srv
        .post(
            "/api/analyze",
            None,
            Some(&json!({"moves": ["g3g4", "Lxa8"]})),
        )
        .await
        .json();
    assert_eq!(
        e["error"]["message"],
        "move 2: illegal move `Lxa8`: `x` marks a capture, but a8 is empty"
    );
    assert_eq!(
        e["error"]["why"],
        json!({"code": "not_a_capture", "to": "a8"})
    );
    // A well-formed JFEN that is not a position lists its problems as data too; a malformed
    // one says what is wrong as data as well, its message naming the field.
    let a = srv
        .post(
            "/api/analyze",
            None,
            Some(&json!({"fen": "l5t/1d3c1/r1p1w1e/7/7/1L5/7/7/L6 r"})),
        )
        .await;
    assert_eq!(a.status, 400);
    let e = a.json();
    assert_eq!(e["error"]["code"], "bad_position", "{e}");
    assert_eq!(
        e["error"]["message"],
        "invalid position: 2 Red lions (a1, b4): each side has at most one animal of a kind; \
         Red lion on b4, a water square (only rats swim)"
    );
    assert_eq!(
        e["error"]["problems"],
        json!([
            {"code": "duplicate", "color": "red", "animal": "L", "n": "2", "squares": "a1, b4"},
            {"code": "in_water", "color": "red", "animal": "L", "square": "b4"},
        ])
    );
    let e = srv
        .post("/api/analyze", None, Some(&json!({"fen": "7/7 x"})))
        .await
        .json();
    assert_eq!(e["error"]["code"], "bad_jfen", "{e}");
    assert_eq!(
        e["error"]["message"],
        "invalid JFEN (board field, at character 4): 2 ranks, expected 9"
    );
    assert_eq!(e["error"]["syntax"], json!({"code": "ranks", "n": "2"}));
    assert!(e["error"]["problems"].is_null(), "{e}");
    // The WebSocket needs a session and a matching Origin.
    assert!(
        jungle_server::client::WsClient::connect(srv.addr, "nosuchtoken", None)
            .await
            .is_err()
    );
    let (tok, _) = jungle_server::client::guest(srv.addr).await.unwrap();
    assert!(
        jungle_server::client::WsClient::connect(srv.addr, &tok, Some("http://evil.example"))
            .await
            .is_err()
    );
    let own = format!("http://{}", srv.addr);
    assert!(
        jungle_server::client::WsClient::connect(srv.addr, &tok, Some(&own))
            .await
            .is_ok()
    );
}

#[tokio::test]
async fn account_requests_are_rate_limited_per_address() {
    let dir = tmp();
    let mut config = test_config();
    config.auth_per_ip_per_min = 3;
    let srv = TestServer::start_with(dir.path(), config).await;
    for _ in 0..3 {
        assert_eq!(srv.post("/api/guest", None, None).await.status, 200);
    }
    let r = srv.post("/api/guest", None, None).await;
    assert_eq!(r.status, 429);
    assert_eq!(r.json()["error"]["code"], "rate_limited");
    srv.clock.advance(20_000);
    assert_eq!(srv.post("/api/guest", None, None).await.status, 200);
}

#[tokio::test]
async fn analysis_requests_are_rate_limited_per_address() {
    let dir = tmp();
    let mut config = test_config();
    config.analyses_per_ip_per_min = 2;
    let srv = TestServer::start_with(dir.path(), config).await;
    let body = json!({"ms": 10});
    let ask = || srv.post("/api/analyze", None, Some(&body));
    for _ in 0..2 {
        let a = ask().await;
        assert_eq!(a.status, 200, "{}", a.body);
    }
    let r = ask().await;
    assert_eq!(r.status, 429);
    assert_eq!(r.json()["error"]["code"], "rate_limited");
    // Account requests have their own allowance.
    assert_eq!(srv.post("/api/guest", None, None).await.status, 200);
    srv.clock.advance(30_000);
    assert_eq!(ask().await.status, 200);
}

#[tokio::test]
async fn the_web_client_is_embedded_and_served_from_the_same_port() {
    let dir = tmp();
    let srv = TestServer::start(dir.path()).await;
    let web = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web");
    let index = srv.get("/", None).await;
    assert_eq!(index.status, 200);
    assert_eq!(
        index.content_type.as_deref(),
        Some("text/html; charset=utf-8")
    );
    assert_eq!(
        index.body,
        std::fs::read_to_string(web.join("index.html")).unwrap()
    );
    // Every other file by its name, with its content type.
    for entry in std::fs::read_dir(&web).unwrap() {
        let path = entry.unwrap().path();
        let Some(ext) = path.extension().and_then(|e| e.to_str()) else {
            continue;
        };
        if !path.is_file() {
            continue;
        }
        let name = path.file_name().unwrap().to_str().unwrap();
        let a = srv.get(&format!("/{name}"), None).await;
        assert_eq!(a.status, 200, "{name}");
        let ct = a.content_type.unwrap_or_default();
        match ext {
            "js" => assert!(
                ct.starts_with("text/javascript") || ct.starts_with("application/javascript"),
                "{name}: {ct}"
            ),
            "css" => assert!(ct.starts_with("text/css"), "{name}: {ct}"),
            "svg" => assert!(ct.starts_with("image/svg+xml"), "{name}: {ct}"),
            "html" => assert!(ct.starts_with("text/html"), "{name}: {ct}"),
            _ => {}
        }
    }
    assert_eq!(srv.get("/no-such-file.js", None).await.status, 404);
    assert_eq!(srv.get("/../Cargo.toml", None).await.status, 404);
    assert_eq!(srv.get("/api/nothing-here", None).await.status, 404);
}

#[tokio::test]
async fn the_reconnect_grace_never_outlasts_the_players_clock() {
    let dir = tmp();
    let srv = TestServer::start(dir.path()).await;
    let (mut red, mut blue, game) =
        guests_playing(&srv, json!({"clock_s": 20, "inc_s": 0, "move_s": 0})).await;
    srv.clock.advance(15_000);
    red.mv(&game, 0, "g3g4").await; // Red has 5 s left, Blue 20 s
    blue.expect("moved").await;
    // Red drops while Blue is to move: Red's clock does not run, so neither is the grace cut to
    // it yet (a reload while the opponent thinks must not lose a game low on time).
    red.ws.close_ref().await;
    let p = blue.expect("presence").await;
    assert_eq!(p["red"], false);
    assert_eq!(p["away_ms"]["red"], 60_000, "{p}");
    srv.clock.advance(10_000);
    blue.send(json!({"t": "ping"})).await;
    blue.expect("pong").await;
    // Blue moves: Red's clock starts, and Red has until it would run out, 5 s, not 50 s.
    blue.mv(&game, 1, "a9a8").await;
    blue_wins_by_disconnect_after(&srv, &mut blue, 5_000).await;
}

#[tokio::test]
async fn a_grace_cut_to_the_clock_of_the_player_to_move_ends_as_a_disconnect_not_on_time() {
    let dir = tmp();
    let srv = TestServer::start(dir.path()).await;
    let (mut red, mut blue, _game) =
        guests_playing(&srv, json!({"clock_s": 5, "inc_s": 0, "move_s": 0})).await;
    // Red, to move with 5 s on the clock, leaves: grace and clock end together, and Red has
    // left, not run out of time.
    red.ws.close_ref().await;
    assert_eq!(blue.expect("presence").await["red"], false);
    blue_wins_by_disconnect_after(&srv, &mut blue, 5_000).await;
}

#[tokio::test]
async fn a_clock_that_runs_out_with_the_move_limit_loses_on_time_without_a_pass() {
    let dir = tmp();
    let srv = TestServer::start(dir.path()).await;
    let (_red, mut blue, _game) =
        guests_playing(&srv, json!({"clock_s": 2, "inc_s": 0, "move_s": 2})).await;
    srv.clock.advance(2_000);
    let e = blue.expect("ended").await;
    assert_eq!(e["result"], json!({"winner": "blue", "reason": "time"}));
    assert_eq!(e["timeouts"]["red"], 0, "{e}");
}

/// Red, to move at the start of `game`, lets its `move_ms` pass three times (Blue sees each
/// pass, with the count, and shuffles its elephant in between): one more timeout forfeits.
async fn red_times_out_thrice(srv: &TestServer, blue: &mut Player, game: &str, move_ms: i64) {
    for n in 1..=3 {
        srv.clock.advance(move_ms);
        let pass = blue.expect("moved").await;
        assert_eq!(
            (pass["move"].as_str(), pass["timeouts"]["red"].as_u64()),
            (Some("--"), Some(n))
        );
        let shuffle = if n % 2 == 1 { "a9a8" } else { "a8a9" };
        blue.mv(game, 2 * n as usize - 1, shuffle).await;
    }
}

/// The test clock moves `ms`: Red's grace runs out at its very end, not a millisecond sooner.
async fn blue_wins_by_disconnect_after(srv: &TestServer, blue: &mut Player, ms: i64) {
    srv.clock.advance(ms - 1);
    blue.send(json!({"t": "ping"})).await;
    blue.expect("pong").await;
    srv.clock.advance(1);
    let e = blue.expect("ended").await;
    assert_eq!(
        e["result"],
        json!({"winner": "blue", "reason": "disconnect"})
    );
}

#[tokio::test]
async fn open_sockets_are_limited_per_address() {
    let dir = tmp();
    let mut config = test_config();
    config.max_ws_per_ip = 2;
    let srv = TestServer::start_with(dir.path(), config).await;
    let a = srv.guest().await;
    let _b = srv.guest().await;
    let (tok, _) = jungle_server::client::guest(srv.addr).await.unwrap();
    assert!(
        jungle_server::client::WsClient::connect(srv.addr, &tok, None)
            .await
            .is_err()
    );
    a.ws.close().await;
    // The slot frees once the server has seen the close: retry (each try is a round trip).
    let mut ok = false;
    for _ in 0..500 {
        if let Ok(c) = jungle_server::client::WsClient::connect(srv.addr, &tok, None).await {
            c.close().await;
            ok = true;
            break;
        }
        tokio::task::yield_now().await;
    }
    assert!(ok, "a closed socket frees its slot");
}

#[tokio::test]
async fn the_reconnect_grace_runs_from_the_disconnect_whatever_the_opponent_plays() {
    let dir = tmp();
    let srv = TestServer::start(dir.path()).await;
    let (mut red, mut blue, game) =
        guests_playing(&srv, json!({"clock_s": 600, "inc_s": 0, "move_s": 0})).await;
    play(&srv, &mut red, &mut blue, &game, 0, &["g3g4"]).await;
    // Red drops on Blue's turn; Blue thinks 40 s and moves: Red has 20 s of the grace left, not
    // a fresh 60 s.
    red.ws.close_ref().await;
    assert_eq!(blue.expect("presence").await["red"], false);
    srv.clock.advance(40_000);
    blue.mv(&game, 1, "a7a6").await;
    blue_wins_by_disconnect_after(&srv, &mut blue, 20_000).await;
}

#[tokio::test]
async fn both_players_away_past_the_grace_the_side_to_move_is_found_gone() {
    let dir = tmp();
    let srv = TestServer::start(dir.path()).await;
    let (mut red, mut blue, game) = guests_playing(&srv, untimed()).await;
    play(&srv, &mut red, &mut blue, &game, 0, &["g3g4"]).await;
    // Both drop at the same moment (the test clock stands still), Blue to move.
    red.ws.close_ref().await;
    assert_eq!(blue.expect("presence").await["red"], false);
    blue.ws.close_ref().await;
    // The server has seen Blue go once a look at the game says so.
    let mut seen = false;
    for _ in 0..500 {
        let g = srv.get(&format!("/api/games/{game}"), None).await.json();
        if g["game"]["presence"]["blue"] == false {
            seen = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(seen, "the server never saw Blue disconnect");
    srv.clock.advance(60_000);
    let mut result = serde_json::Value::Null;
    for _ in 0..500 {
        let g = srv.get(&format!("/api/games/{game}"), None).await.json();
        if !g["game"]["result"].is_null() {
            result = g["game"]["result"].clone();
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(result, json!({"winner": "red", "reason": "disconnect"}));
}

#[tokio::test]
async fn a_challenge_waits_for_its_challenger_to_be_online() {
    let dir = tmp();
    let srv = TestServer::start(dir.path()).await;
    let (mut alice, mut bob) = (srv.guest().await, srv.guest().await);
    alice
        .send(json!({"t": "challenge", "tc": untimed(), "rated": false, "color": "red"}))
        .await;
    let id = alice.expect("challenge_created").await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let path = format!("/api/challenges/{id}");
    let look = || srv.get(&path, None);
    assert_eq!(look().await.json()["challenge"]["online"], true);
    alice.ws.close_ref().await;
    let mut offline = false;
    for _ in 0..500 {
        if look().await.json()["challenge"]["online"] == false {
            offline = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(offline, "the challenge page never said the challenger left");
    // Accepting now would start a game its challenger is away from: refused, the link kept.
    let e = bob
        .expect_error(json!({"t": "accept_challenge", "id": id}))
        .await;
    assert_eq!(e["code"], "challenger_offline", "{e}");
    assert_eq!(look().await.status, 200);
    // Back online, the challenge is accepted.
    alice.reconnect().await;
    bob.send(json!({"t": "accept_challenge", "id": id})).await;
    assert_eq!(alice.expect("game").await["game"]["you"], "red");
    assert_eq!(bob.expect("game").await["game"]["you"], "blue");
}

/// `POST` of a name and a password (`/api/register`, `/api/login`) without a session.
async fn post_account(
    srv: &TestServer,
    path: &str,
    name: &str,
    password: &str,
) -> jungle_server::client::HttpAnswer {
    srv.post(
        path,
        None,
        Some(&json!({"name": name, "password": password})),
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_players_asking_for_a_quick_game_at_once_are_paired() {
    // Taking a waiting seek and opening one's own are one step: two players asking at the same
    // moment could both find nothing and both wait (it happened to the terminal's tests).
    let dir = tmp();
    let srv = TestServer::start(dir.path()).await;
    let tc = json!({"clock_s": 300, "inc_s": 0, "move_s": 30});
    for round in 0..20 {
        let (mut a, mut b) = (srv.guest().await, srv.guest().await);
        let msg = json!({"t": "quick", "tc": tc});
        tokio::join!(a.send(msg.clone()), b.send(msg));
        let wait = std::time::Duration::from_secs(10);
        let (ga, gb) = tokio::join!(
            tokio::time::timeout(wait, a.expect("game")),
            tokio::time::timeout(wait, b.expect("game")),
        );
        let (ga, gb) = (ga.expect("a paired"), gb.expect("b paired"));
        assert_eq!(ga["game"]["id"], gb["game"]["id"], "round {round}");
    }
}

/// A finished game reads the same from the store as from its actor: the clocks at the end
/// (a flag's turn has no ply), the fourth timeout (no ply either) and who aborted.
#[tokio::test]
async fn a_finished_game_reads_the_same_from_the_store() {
    let dir = tmp();
    let srv = TestServer::start(dir.path()).await;
    let same = |game: String| {
        let srv = &srv;
        async move {
            let live = srv.get(&format!("/api/games/{game}"), None).await.json()["game"].clone();
            let id: jungle_server::GameId = game.parse().unwrap();
            let stored = jungle_server::games_api::stored_state(&srv.state, &id, None)
                .await
                .unwrap()
                .unwrap();
            let stored = serde_json::to_value(stored).unwrap();
            for k in ["clocks", "timeouts", "result", "status"] {
                assert_eq!(stored[k], live[k], "{k}: stored {stored} live {live}");
            }
            live
        }
    };
    // Lost on time: Red's clock ends at 0, not at its last ply's 2 s.
    let (mut red, mut blue, game) =
        guests_playing(&srv, json!({"clock_s": 2, "inc_s": 0, "move_s": 0})).await;
    srv.clock.advance(2_000);
    blue.expect("ended").await;
    let g = same(game).await;
    assert_eq!(g["clocks"]["red_ms"], 0, "{g}");
    assert_eq!(g["result"]["reason"], "time", "{g}");
    // The fourth timeout is counted.
    let game = challenge_game(
        &mut red,
        &mut blue,
        json!({"clock_s": 0, "inc_s": 0, "move_s": 30}),
        false,
    )
    .await;
    red_times_out_thrice(&srv, &mut blue, &game, 30_000).await;
    srv.clock.advance(30_000);
    red.expect("ended").await;
    let g = same(game).await;
    assert_eq!(g["timeouts"]["red"], 4, "{g}");
    // Who aborted.
    let game = challenge_game(&mut red, &mut blue, untimed(), false).await;
    red.send(json!({"t": "abort", "game": game})).await;
    blue.expect("ended").await;
    let g = same(game.clone()).await;
    assert_eq!(g["result"]["by"], "red", "{g}");
    // The history lists say it too.
    let hist = srv
        .get(&format!("/api/users/{}/games", blue.name()), None)
        .await
        .json();
    assert_eq!(hist["games"][0]["id"], game.as_str(), "{hist}");
    assert_eq!(hist["games"][0]["result"]["by"], "red", "{hist}");
}

#[tokio::test]
async fn server_passes_are_no_moves_for_the_abort() {
    let dir = tmp();
    let srv = TestServer::start(dir.path()).await;
    let (mut red, mut blue, game) =
        guests_playing(&srv, json!({"clock_s": 0, "inc_s": 0, "move_s": 30})).await;
    // Red moves, Blue is passed for twice, Red moves again: Blue has not moved yet.
    red.mv(&game, 0, "g3g4").await;
    srv.clock.advance(30_000);
    assert_eq!(red.expect("moved").await["move"], "--");
    red.mv(&game, 2, "g4g5").await;
    srv.clock.advance(30_000);
    assert_eq!(red.expect("moved").await["move"], "--");
    red.send(json!({"t": "abort", "game": game})).await;
    let e = blue.expect("ended").await;
    assert_eq!(e["result"]["reason"], "aborted", "{e}");
}

#[tokio::test]
async fn a_rematch_offer_not_taken_up_in_time_closes_and_says_so() {
    let dir = tmp();
    let srv = TestServer::start(dir.path()).await;
    let (mut red, mut blue, game) = guests_playing(&srv, untimed()).await;
    red.send(json!({"t": "resign", "game": game})).await;
    blue.expect("ended").await;
    red.send(json!({"t": "rematch", "game": game})).await;
    blue.expect("rematch_offered").await;
    srv.clock.advance(jungle_server::game::LINGER_MS + 1);
    // Both players hear that the time for a rematch has passed.
    for p in [&mut red, &mut blue] {
        let m = p.expect("rematch_closed").await;
        assert_eq!(m["game"], game.as_str(), "{m}");
    }
    let id: jungle_server::GameId = game.parse().unwrap();
    until("the actor is gone", || srv.state.hub.game(&id).is_none()).await;
    // Accepting now is refused as too late, not as "the game is over".
    let e = blue
        .expect_error(json!({"t": "rematch", "game": game}))
        .await;
    assert_eq!(e["code"], "rematch_closed", "{e}");
    // Someone else's game stays someone else's.
    let mut carol = srv.guest().await;
    let e = carol
        .expect_error(json!({"t": "rematch", "game": game}))
        .await;
    assert_eq!(e["code"], "not_your_game", "{e}");
    // An aborted game has no rematch, in memory or not.
    let game = challenge_game(&mut red, &mut blue, untimed(), false).await;
    red.send(json!({"t": "abort", "game": game})).await;
    blue.expect("ended").await;
    srv.clock.advance(jungle_server::game::LINGER_MS + 1);
    let id: jungle_server::GameId = game.parse().unwrap();
    until("the actor is gone", || srv.state.hub.game(&id).is_none()).await;
    let e = blue
        .expect_error(json!({"t": "rematch", "game": game}))
        .await;
    assert_eq!(e["code"], "aborted_no_rematch", "{e}");
}

#[tokio::test]
async fn an_away_player_forfeiting_by_timeouts_loses_by_disconnect() {
    let dir = tmp();
    let srv = TestServer::start(dir.path()).await;
    let (mut red, mut blue, game) =
        guests_playing(&srv, json!({"clock_s": 0, "inc_s": 0, "move_s": 10})).await;
    // Red closes the page: its passes come every 10 s, long before its 60 s grace ends.
    red.ws.close_ref().await;
    assert_eq!(blue.expect("presence").await["red"], false);
    red_times_out_thrice(&srv, &mut blue, &game, 10_000).await;
    srv.clock.advance(10_000);
    let e = blue.expect("ended").await;
    assert_eq!(
        e["result"],
        json!({"winner": "blue", "reason": "disconnect"}),
        "{e}"
    );
    let c = &e["changes"]["red"];
    assert_eq!(c["coins_after"], 990, "{e}");
    let me = srv.get("/api/me", Some(&red.token)).await.json();
    assert_eq!(me["user"]["disconnects"], 1, "{me}");
    // The store keeps the fourth timeout, which no ply tells.
    let id: jungle_server::GameId = game.parse().unwrap();
    let stored = jungle_server::games_api::stored_state(&srv.state, &id, None)
        .await
        .unwrap()
        .unwrap();
    assert_eq!((stored.timeouts.red, stored.timeouts.blue), (4, 0));
}
