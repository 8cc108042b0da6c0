//! Forged WebSocket traffic: two players in a game and a stranger send hundreds of random
//! messages — every message type with fields of the wrong type, out of range, missing or
//! unknown, moves for other plies and games, broken JSON. Every refusal must be an `error` with a
//! documented code naming the message refused, nothing may take a connection or a game down, and
//! the game must stay one the rules allow and playable.

mod common;

use common::{challenge_game, untimed, TestServer};
use jungle::{Game, Jfen, MoveText, Position, Rules};
use serde_json::{json, Value};
use std::time::Duration;

/// Codes a WebSocket `error` may carry (doc/protocol.md); `internal` would mean a server fault.
const CODES: &[&str] = &[
    "bad_json",
    "too_large",
    "rate_limited",
    "unauthorized",
    "not_found",
    "not_your_game",
    "spectator",
    "not_your_turn",
    "wrong_ply",
    "illegal_move",
    "game_over",
    "bad_request",
    "abort_too_late",
    "no_draw_offer",
    "takeback_ai_only",
    "nothing_to_take_back",
    "game_not_over",
    "already_rematched",
    "aborted_no_rematch",
    "rematch_closed",
    "shutting_down",
];

/// Every client message type with its fields (doc/protocol.md), and two that do not exist.
const TYPES: &[(&str, &[&str])] = &[
    ("ping", &[]),
    ("lobby", &[]),
    ("seek", &["tc", "rated", "rules"]),
    ("cancel_seek", &["id"]),
    ("accept_seek", &["id"]),
    ("quick", &["tc"]),
    ("challenge", &["tc", "rated", "color"]),
    ("accept_challenge", &["id"]),
    ("play_ai", &["level", "color", "tc"]),
    ("play_hotseat", &["tc", "rules"]),
    ("watch", &["game"]),
    ("unwatch", &["game"]),
    ("move", &["game", "ply", "move"]),
    ("move", &["game", "ply", "move"]),
    ("move", &["game", "ply", "move"]),
    ("move", &["game", "ply", "move"]),
    ("move", &["game", "ply", "move"]),
    ("draw_offer", &["game"]),
    ("draw_accept", &["game"]),
    ("draw_decline", &["game"]),
    ("resign", &["game"]),
    ("abort", &["game"]),
    ("leave", &["game"]),
    ("takeback", &["game"]),
    ("rematch", &["game"]),
    ("welcome", &["user"]),
    ("nonsense", &[]),
];

const FIELDS: &[&str] = &[
    "game", "ply", "move", "tc", "rated", "rules", "color", "level", "id", "extra",
];

/// xorshift64*: a fixed seed makes every run send the same traffic.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

/// What the traffic aims at: the game between the two players as it stands.
struct Target<'a> {
    game: &'a str,
    ply: usize,
    legal: &'a [Value],
}

/// A value for `field` that could be right (the game, its ply, one of its legal moves, a sane
/// time control), or one of [`value`]'s.
fn plausible(rng: &mut Rng, field: &str, to: &Target) -> Value {
    match field {
        "game" => json!(to.game),
        "ply" => json!(to.ply),
        "move" if !to.legal.is_empty() => to.legal[rng.below(to.legal.len())].clone(),
        "tc" => json!({"clock_s": 300, "inc_s": 0, "move_s": 30}),
        "rated" => json!(rng.chance(50)),
        "color" => json!(["red", "blue", "random"][rng.below(3)]),
        "level" => json!(1 + rng.below(10)),
        "rules" => json!("standard"),
        _ => value(rng, to),
    }
}

/// A field value: often plausible (the game's id, a legal-looking move, a small ply), often not.
fn value(rng: &mut Rng, to: &Target) -> Value {
    let (game, ply) = (to.game, to.ply);
    match rng.below(22) {
        0 => Value::Null,
        1 => json!(true),
        2 => json!(-1),
        3 => json!(ply),
        4 => json!(ply + 1),
        5 => json!(u64::MAX),
        6 => json!(1e300),
        7 => json!(-0.5),
        8 => json!(""),
        9 => json!("x".repeat(rng.below(300))),
        10 | 11 => json!(game),
        12 => json!(["g3g4", "a7a6", "--", "zz", "g3g5", "e3d3", "a9a8"][rng.below(7)]),
        13 => json!(["red", "blue", "random", "both", "RED"][rng.below(5)]),
        14 => json!([]),
        15 => json!({}),
        16 => {
            json!({"clock_s": rng.below(5000) as i64 - 10, "inc_s": rng.below(100), "move_s": rng.below(100)})
        }
        17 => json!({"clock_s": "ten"}),
        18 => json!(["standard", "wolf_over_dog,no_7_3", "nonsense"][rng.below(3)]),
        19 => json!(rng.below(12)),
        20 => json!("游戏"),
        _ => json!([1, "two", null]),
    }
}

/// A random message and its type: mostly a real type with its own fields (each usually
/// plausible, sometimes missing or wrong), sometimes fields at random, sometimes not JSON at all.
/// Messages that end the game seldom name it, so that games last.
fn message(rng: &mut Rng, to: &Target) -> (String, &'static str) {
    if rng.chance(6) {
        let raw = [
            "{",
            "[]",
            "null",
            "\"t\"",
            "{\"t\":",
            "{\"t\":\"move\",}",
            "\u{0}",
            "",
        ];
        return (raw[rng.below(raw.len())].to_string(), "");
    }
    let (t, fields) = TYPES[rng.below(TYPES.len())];
    let ends = matches!(t, "resign" | "abort" | "leave");
    let mut m = serde_json::Map::new();
    if !rng.chance(3) {
        m.insert("t".into(), if rng.chance(2) { json!(7) } else { json!(t) });
    }
    if rng.chance(85) {
        for f in fields {
            if rng.chance(92) {
                let v = if rng.chance(if ends { 15 } else { 80 }) {
                    plausible(rng, f, to)
                } else {
                    value(rng, to)
                };
                m.insert((*f).into(), v);
            }
        }
        if rng.chance(5) {
            m.insert("extra".into(), value(rng, to));
        }
    } else {
        for f in FIELDS {
            if rng.chance(40) {
                m.insert((*f).into(), value(rng, to));
            }
        }
    }
    (Value::Object(m).to_string(), t)
}

/// Everything that arrived on `p`'s socket within a moment.
async fn drain(p: &mut common::Player) -> Vec<Value> {
    let mut got = Vec::new();
    while let Ok(Some(m)) = p.ws.recv_timeout(Duration::from_millis(5)).await {
        got.push(m);
    }
    got
}

/// A new untimed game between `red` and `blue` by challenge, found among whatever else the
/// traffic has the two receiving (games it started, states of games they watch).
async fn new_game(red: &mut common::Player, blue: &mut common::Player) -> String {
    red.send(json!({"t": "challenge", "tc": untimed(), "rated": false, "color": "red"}))
        .await;
    let id = red.expect("challenge_created").await["id"].clone();
    blue.send(json!({"t": "accept_challenge", "id": id})).await;
    loop {
        let g = blue.expect("game").await;
        let g = &g["game"];
        if g["you"] == "blue" && g["red"]["name"] == red.user["name"] && g["ply"] == 0 {
            return g["id"].as_str().unwrap().to_string();
        }
    }
}

/// The game `g` (a GameState) replayed by the rules from its start: every move must be legal.
fn replay(g: &Value) -> Game {
    let rules: Rules = g["rules"].as_str().unwrap_or("standard").parse().unwrap();
    let start = match g["start_fen"].as_str() {
        Some(f) => Jfen::parse_position(f, rules).unwrap(),
        None => Position::start(rules),
    };
    let mut game = Game::from_position(start);
    for m in g["moves"].as_array().unwrap() {
        let text: MoveText = m["move"].as_str().unwrap().parse().unwrap();
        let mv = text.to_move(game.position()).unwrap();
        game.play(mv)
            .unwrap_or_else(|e| panic!("{mv}: {e:?} in {g}"));
    }
    game
}

#[tokio::test]
async fn forged_traffic_is_refused_by_name_and_breaks_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let srv = TestServer::start(dir.path()).await;
    let (mut red, mut blue) = (srv.guest().await, srv.guest().await);
    let mut stranger = srv.guest().await;
    let mut game = challenge_game(&mut red, &mut blue, untimed(), false).await;
    // A fixed seed (the same traffic every run); `WS_FUZZ_SEED=<n>` plays other traffic.
    let seed = std::env::var("WS_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok());
    let mut rng = Rng(seed.unwrap_or(0x9e37_79b9_7f4a_7c15) | 1);
    let (mut refused, mut games_ended, mut plies) = (0, 0, 0);
    let mut log = Vec::new();
    for i in 0..600 {
        // 200 ms a message, so 600 ms between two of one socket: under the message rate (20 a
        // second) and the refusals allowed before a client counts as flooding (100 a minute).
        srv.clock.advance(200);
        let state = srv.get(&format!("/api/games/{game}"), None).await.json();
        let g = &state["game"];
        if g["status"] != "live" {
            // The traffic ended it (a resignation, an abort, a den): it must have ended by the
            // rules, with a result. The two play on in a new game.
            replay(g);
            assert!(g["result"]["reason"].is_string(), "{g}");
            games_ended += 1;
            plies += g["ply"].as_u64().unwrap();
            game = new_game(&mut red, &mut blue).await;
            continue;
        }
        let legal = g["legal"].as_array().cloned().unwrap_or_default();
        let to = Target {
            game: &game,
            ply: g["ply"].as_u64().unwrap() as usize,
            legal: &legal,
        };
        let (text, t) = message(&mut rng, &to);
        // Moves mostly come from the side to move, the rest from anyone.
        let p = match (t == "move" && rng.chance(70), i % 3) {
            (true, _) if g["turn"] == "red" => &mut red,
            (true, _) => &mut blue,
            (false, 0) => &mut red,
            (false, 1) => &mut blue,
            _ => &mut stranger,
        };
        let sent = p.ws.send_text(&text).await;
        let got = drain(p).await;
        log.push(format!("{i}: {text} → {got:?}"));
        let recent = || log[log.len().saturating_sub(12)..].join("\n");
        assert!(sent.is_ok(), "{sent:?}; the last messages:\n{}", recent());
        for m in got {
            if m["t"] == "error" {
                refused += 1;
                let code = m["code"].as_str().unwrap_or("");
                assert!(CODES.contains(&code), "{m} after:\n{}", recent());
                let message = m["message"].as_str().unwrap_or("");
                assert!(!message.is_empty(), "{m} after:\n{}", recent());
            }
        }
    }
    // Every connection still answers.
    for p in [&mut red, &mut blue, &mut stranger] {
        srv.clock.advance(100);
        p.send(json!({"t": "ping"})).await;
        p.expect("pong").await;
    }
    // The last game is one the rules allow and, unless it has just ended, it goes on.
    let state = srv.get(&format!("/api/games/{game}"), None).await.json();
    let g = &state["game"];
    let last = replay(g);
    plies += g["ply"].as_u64().unwrap();
    if g["status"] == "live" {
        let ply = g["ply"].as_u64().unwrap() as usize;
        let mv = last.legal_moves().iter().next().copied().unwrap();
        let mover = if g["turn"] == "red" {
            &mut red
        } else {
            &mut blue
        };
        srv.clock.advance(100);
        let moved = mover.mv(&game, ply, &mv.to_string()).await;
        assert_eq!(moved["ply"], ply);
    }
    eprintln!("{refused} refusals, {games_ended} games ended, {plies} plies played");
    // The traffic reached past the parsers: moves were played and games were ended by it.
    assert!(refused > 150, "only {refused} refusals");
    assert!(
        plies >= 8 && games_ended >= 1,
        "{plies} plies, {games_ended} games ended"
    );
}
