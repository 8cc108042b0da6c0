//! A server on loopback with an injected test clock, and players talking to it over real
//! sockets.
#![allow(dead_code)]

use jungle_server::client::{self, WsClient};
use jungle_server::clock::TestClock;
use jungle_server::hub::ServerConfig;
use jungle_server::{AppState, ServeOptions};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;

pub const START_MS: i64 = 1_795_982_400_000;

pub struct TestServer {
    pub addr: SocketAddr,
    pub clock: TestClock,
    pub state: AppState,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

pub fn test_config() -> ServerConfig {
    ServerConfig {
        ai_ms_per_level: 5,
        auth_per_ip_per_min: 0,
        ..Default::default()
    }
}

impl TestServer {
    /// A server over the database at `url` (or SQLite in `dir`), its clock at `now`.
    pub async fn start_at(
        dir: &Path,
        url: Option<String>,
        config: ServerConfig,
        now: i64,
    ) -> TestServer {
        let clock = TestClock::new(now);
        let opts = ServeOptions {
            listen: "127.0.0.1:0".parse().unwrap(),
            data_dir: dir.to_path_buf(),
            database_url: url,
            levels_file: None,
            sqlite_full_sync: true,
            config,
        };
        let state = jungle_server::build_state(&opts, Arc::new(clock.clone()))
            .await
            .expect("server state");
        let listener = tokio::net::TcpListener::bind(opts.listen).await.unwrap();
        let addr = listener.local_addr().unwrap();
        let app = jungle_server::app(state.clone());
        let header_timeout = opts.config.header_read_timeout;
        let task = tokio::spawn(jungle_server::http::serve_http(
            listener,
            app,
            header_timeout,
            std::future::pending(),
        ));
        TestServer {
            addr,
            clock,
            state,
            task,
        }
    }

    pub async fn start(dir: &Path) -> TestServer {
        Self::start_at(dir, None, test_config(), START_MS).await
    }

    pub async fn start_with(dir: &Path, config: ServerConfig) -> TestServer {
        Self::start_at(dir, None, config, START_MS).await
    }

    pub async fn get(&self, path: &str, session: Option<&str>) -> client::HttpAnswer {
        client::http(self.addr, "GET", path, session, None)
            .await
            .unwrap()
    }

    pub async fn post(
        &self,
        path: &str,
        session: Option<&str>,
        body: Option<&Value>,
    ) -> client::HttpAnswer {
        client::http(self.addr, "POST", path, session, body)
            .await
            .unwrap()
    }

    pub async fn guest(&self) -> Player {
        let (token, user) = client::guest(self.addr).await.unwrap();
        Player::connect(self.addr, token, user).await
    }

    pub async fn registered(&self, name: &str) -> Player {
        self.signed_in("/api/register", name).await
    }

    /// A new session of `name` (registered by [`TestServer::registered`]) and its socket.
    #[allow(dead_code)] // not every test file signs in twice
    pub async fn logged_in(&self, name: &str) -> Player {
        self.signed_in("/api/login", name).await
    }

    async fn signed_in(&self, path: &str, name: &str) -> Player {
        let a = self
            .post(
                path,
                None,
                Some(&json!({"name": name, "password": "correct horse"})),
            )
            .await;
        assert_eq!(a.status, 200, "{}", a.body);
        let token = a.session.clone().unwrap();
        Player::connect(self.addr, token, a.json()["user"].clone()).await
    }
}

pub struct Player {
    pub addr: SocketAddr,
    pub token: String,
    pub user: Value,
    pub ws: WsClient,
    pub welcome: Value,
}

impl Player {
    pub async fn connect(addr: SocketAddr, token: String, user: Value) -> Player {
        let mut ws = WsClient::connect(addr, &token, None).await.unwrap();
        let welcome = ws.recv_type("welcome").await.unwrap();
        Player {
            addr,
            token,
            user,
            ws,
            welcome,
        }
    }

    pub fn name(&self) -> String {
        self.user["name"].as_str().unwrap().to_string()
    }

    pub async fn send(&mut self, v: Value) {
        self.ws.send(&v).await.unwrap();
    }

    pub async fn expect(&mut self, t: &str) -> Value {
        self.ws.recv_type(t).await.unwrap()
    }

    /// Sends `v` (`play_ai`, `play_hotseat`) and returns the id of the game it starts.
    #[allow(dead_code)] // not every test file starts games so
    pub async fn start(&mut self, v: Value) -> String {
        self.send(v).await;
        self.expect("game").await["game"]["id"]
            .as_str()
            .unwrap()
            .to_string()
    }

    /// Sends and returns the next `error` message.
    pub async fn expect_error(&mut self, v: Value) -> Value {
        self.send(v).await;
        self.expect("error").await
    }

    /// Reconnects (a new socket, same session).
    pub async fn reconnect(&mut self) {
        let ws = WsClient::connect(self.addr, &self.token, None)
            .await
            .unwrap();
        let old = std::mem::replace(&mut self.ws, ws);
        old.close().await;
        self.welcome = self.ws.recv_type("welcome").await.unwrap();
    }

    pub async fn mv(&mut self, game: &str, ply: usize, mv: &str) -> Value {
        self.send(json!({"t": "move", "game": game, "ply": ply, "move": mv}))
            .await;
        loop {
            let m = self.ws.recv().await.unwrap();
            if m["t"] == "error" {
                panic!("move {mv} refused: {m}");
            }
            if m["t"] == "moved" && m["ply"] == ply {
                return m;
            }
        }
    }
}

/// Two new guests in a casual game by private challenge of time control `tc`: (Red, Blue, the
/// game's id).
#[allow(dead_code)] // not every test file starts its games so
pub async fn guests_playing(srv: &TestServer, tc: Value) -> (Player, Player, String) {
    let (mut red, mut blue) = (srv.guest().await, srv.guest().await);
    let game = challenge_game(&mut red, &mut blue, tc, false).await;
    (red, blue, game)
}

/// A casual (or rated) game between two players by private challenge: returns the game id,
/// with `red` holding Red.
pub async fn challenge_game(red: &mut Player, blue: &mut Player, tc: Value, rated: bool) -> String {
    red.send(json!({"t": "challenge", "tc": tc, "rated": rated, "color": "red"}))
        .await;
    let id = red.expect("challenge_created").await["id"].clone();
    blue.send(json!({"t": "accept_challenge", "id": id})).await;
    let g = red.expect("game").await;
    assert_eq!(g["game"]["you"], "red");
    let gb = blue.expect("game").await;
    assert_eq!(gb["game"]["you"], "blue");
    g["game"]["id"].as_str().unwrap().to_string()
}

pub fn untimed() -> Value {
    json!({"clock_s": 0, "inc_s": 0, "move_s": 0})
}

/// Plays `moves` alternately from ply `from`; each player sees every `moved`.
/// The test clock moves 100 ms before each move (the per-connection rate limit runs on it).
pub async fn play(
    srv: &TestServer,
    red: &mut Player,
    blue: &mut Player,
    game: &str,
    from: usize,
    moves: &[&str],
) {
    for (i, m) in moves.iter().enumerate() {
        srv.clock.advance(100);
        let ply = from + i;
        let (mover, other) = if ply.is_multiple_of(2) {
            (&mut *red, &mut *blue)
        } else {
            (&mut *blue, &mut *red)
        };
        let a = mover.mv(game, ply, m).await;
        assert_eq!(a["move"], *m);
        let b = other.expect("moved").await;
        assert_eq!(b["ply"], ply);
    }
}

/// Red's rat walks into Blue's den while Blue shuffles its lion and tiger (a legal den win).
pub const DEN_WIN: [&str; 17] = [
    "g3g4", "a9a8", "g4g5", "a8a9", "g5g6", "g9g8", "g6f6", "g8g9", "f6e6", "a9a8", "e6d6", "a8a9",
    "d6d7", "g9g8", "d7d8", "g8g9", "d8d9",
];

/// 24 quiet plies: both sides shuffle lion and tiger without breaking §7.
pub const QUIET_24: [&str; 24] = [
    "g1g2", "a9a8", "g2g1", "a8a9", "a1a2", "g9g8", "a2a1", "g8g9", "g1g2", "a9a8", "g2g1", "a8a9",
    "a1a2", "g9g8", "a2a1", "g8g9", "g1g2", "a9a8", "g2g1", "a8a9", "a1a2", "g9g8", "a2a1", "g8g9",
];

/// Waits until `cond` holds (real time, 5 s at most, letting the server's tasks run); panics
/// naming `what` if it never does.
#[allow(dead_code)] // not every test file waits so
pub async fn until(what: &str, mut cond: impl FnMut() -> bool) {
    for _ in 0..500 {
        if cond() {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    panic!("{what}: not so after 5 s");
}
