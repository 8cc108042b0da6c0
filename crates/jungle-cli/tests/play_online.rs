//! The terminal client against a real `jungle serve` on loopback: two client state machines
//! playing each other through the server, and the real binary online in a pseudo-terminal.
#![cfg(all(feature = "tui", feature = "server"))]

mod play_support;

use jungle::{Color, Position, Rules};
use jungle_tui::app::{App, Command, Config, Event, Glyphs, Key, Opponent};
use jungle_tui::net::{self, Connection, ServerUrl, SocketEvent};
use jungle_tui::proto::{send, Seat, ServerMsg};
use jungle_tui::Lang;
use play_support::{Pty, ServerProcess, WAIT};
use std::sync::mpsc;
use std::time::{Duration, Instant};

fn wrap(e: SocketEvent) -> Event {
    match e {
        SocketEvent::Message(m) => Event::Server(m),
        SocketEvent::Closed(why) => Event::Disconnected(why),
    }
}

/// One client: its state machine, its connection and its incoming events.
struct Client {
    app: App,
    conn: Connection,
    rx: mpsc::Receiver<Event>,
}

impl Client {
    fn connect(url: &str) -> Client {
        Client::connect_to(url, |_| {})
    }

    /// A client whose configuration `edit` changes (its first message, say).
    fn connect_to(url: &str, edit: impl FnOnce(&mut Config)) -> Client {
        let url = ServerUrl::parse(url).unwrap();
        let cookie = net::sign_in(&url, None).expect("guest sign-in");
        assert!(cookie.starts_with("jungle_session="));
        let (tx, rx) = mpsc::channel();
        let conn = net::connect(&url, &cookie, tx, wrap).expect("WebSocket");
        let mut config = Config {
            lang: Lang::En,
            glyphs: Glyphs::Letters,
            start: Position::start(Rules::STANDARD),
            opponent: Opponent::Online,
            online_start: Some(send::quick("300+0/30".parse().unwrap())),
            save_dir: std::env::temp_dir(),
        };
        edit(&mut config);
        let (app, _) = App::new(config, Instant::now());
        Client { app, conn, rx }
    }

    fn apply(&mut self, cmds: Vec<Command>) {
        for c in cmds {
            if let Command::Send(v) = c {
                self.conn.send(v);
            }
        }
    }

    fn keys(&mut self, text: &str) {
        for c in text.chars() {
            let cmds = self.app.handle(Event::Key(Key::Char(c)), Instant::now());
            self.apply(cmds);
        }
    }

    fn typed_move(&mut self, text: &str) {
        self.keys(text);
        let cmds = self.app.handle(Event::Key(Key::Enter), Instant::now());
        self.apply(cmds);
    }

    /// Handles whatever has arrived (waiting at most `wait` for the first event).
    fn pump(&mut self, wait: Duration) {
        if let Ok(e) = self.rx.recv_timeout(wait) {
            let cmds = self.app.handle(e, Instant::now());
            self.apply(cmds);
        }
        while let Ok(e) = self.rx.try_recv() {
            let cmds = self.app.handle(e, Instant::now());
            self.apply(cmds);
        }
    }
}

/// Pumps both clients until `done` holds (bounded).
fn until(clients: &mut [&mut Client], what: &str, done: impl Fn(&[&mut Client]) -> bool) {
    let start = Instant::now();
    while !done(clients) {
        assert!(start.elapsed() < WAIT, "timed out waiting for {what}");
        for c in clients.iter_mut() {
            c.pump(Duration::from_millis(20));
        }
    }
}

#[test]
fn two_clients_play_each_other_through_the_server() {
    let server = ServerProcess::start("two");
    let mut a = Client::connect(&server.url);
    let mut b = Client::connect(&server.url);
    until(&mut [&mut a], "a's seek", |c| c[0].app.online.waiting);
    until(&mut [&mut a, &mut b], "the game", |c| {
        c.iter().all(|c| c.app.online.game_id.is_some())
    });
    assert_eq!(a.app.online.game_id, b.app.online.game_id);
    let (red, blue) = if a.app.online.you == Some(Seat::Red) {
        (&mut a, &mut b)
    } else {
        (&mut b, &mut a)
    };
    assert_eq!(blue.app.online.you, Some(Seat::Blue));
    assert!(red.app.can_move() && !blue.app.can_move());
    assert!(blue.app.flipped, "Blue sees its side at the bottom");

    red.typed_move("g3g4");
    until(
        &mut [&mut *red, &mut *blue],
        "the first move on both boards",
        |c| c.iter().all(|c| c.app.game.len() == 1),
    );
    assert!(blue.app.can_move());
    assert!(
        red.app.clock_of(Color::Red, Instant::now()).is_some(),
        "the server sends clocks"
    );
    blue.typed_move("Ra6");
    until(&mut [&mut *red, &mut *blue], "the second move", |c| {
        c.iter().all(|c| c.app.game.len() == 2)
    });

    // The binary watches the game as a spectator and follows a further move.
    let id = red.app.online.game_id.clone().unwrap();
    let watcher = Pty::start(
        "watch",
        &[
            "--server",
            &server.url,
            "--watch",
            id.as_str().expect("a string id"),
            "--lang",
            "en",
            "--glyphs",
            "letters",
        ],
        (110, 30),
    );
    let s = watcher.wait_for("1. Rg4     Ra6");
    assert!(s.contains("Online - you are watching"), "{s}");
    red.typed_move("g4g5");
    until(&mut [&mut *red, &mut *blue], "the third move", |c| {
        c.iter().all(|c| c.app.game.len() == 3)
    });
    watcher.wait_for("2. Rg5");
    watcher.keys(&["q"]);
    watcher.assert_exited_cleanly();

    // Red offers a draw; Blue plays on instead of answering: the offer lapses, and Red (only)
    // is told so.
    red.keys("=");
    until(&mut [&mut *red, &mut *blue], "the offer", |c| {
        c.iter().all(|c| c.app.online.draw_offer.is_some())
    });
    blue.typed_move("a6a5");
    let lapsed = "The game moved on: your draw offer has lapsed";
    until(&mut [&mut *red, &mut *blue], "the lapse", |c| {
        c.iter().all(|c| c.app.game.len() == 4)
            && c[0].app.status.as_ref().is_some_and(|s| s.text == lapsed)
    });
    assert_eq!(red.app.online.draw_offer, None);
    assert_eq!(blue.app.online.draw_offer, None);
    assert!(
        blue.app.status.as_ref().is_none_or(|s| s.text != lapsed),
        "{:?}",
        blue.app.status
    );

    // A move for a wrong ply is refused by the server and shown in the player's words.
    red.conn.send(send::play(&id, 7, "a6a5"));
    until(&mut [&mut *red], "the refusal", |c| {
        c[0].app.status.as_ref().is_some_and(|s| s.error)
    });
    assert_eq!(
        red.app.status.as_ref().unwrap().text,
        "The game moved on, try again."
    );

    red.keys("!!");
    until(&mut [&mut *red, &mut *blue], "the resignation", |c| {
        c.iter().all(|c| c.app.result_text().is_some())
    });
    // Each player hears first whether they won, then who did what.
    assert_eq!(
        red.app.result_text().as_deref(),
        Some("You lost: Red resigned — Blue wins")
    );
    assert_eq!(
        blue.app.result_text().as_deref(),
        Some("You won: Red resigned — Blue wins")
    );
    assert!(!red.app.can_move() && !blue.app.can_move());
}

#[test]
fn a_wrong_password_is_reported_before_the_screen_opens() {
    let server = ServerProcess::start("pw");
    // Said in the player's language, from the catalogue's text of the refusal's code.
    for (lang, said) in [
        ("en", "sign-in refused (401): Wrong name or password."),
        ("zh-Hans", "登录被拒绝（401）：用户名或密码不对。"),
    ] {
        let out = std::process::Command::new(play_support::BIN)
            .args(["play", "--server", &server.url, "--name", "nobody-here"])
            .args(["--lang", lang])
            .env("JUNGLE_PASSWORD", "wrong-password")
            .output()
            .unwrap();
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(said), "{lang}: {err}");
    }
    // So is a server that cannot be reached, or a wrong address: a first line in the player's
    // language with the address, and the system's own words (English) on the next, apart.
    for (args, said, detail) in [
        (
            ["http://127.0.0.1:1", "en"],
            "error: connection to http://127.0.0.1:1 failed (connection refused: ",
            Some("  detail: "),
        ),
        (
            ["http://127.0.0.1:1", "zh-Hans"],
            "错误：连接 http://127.0.0.1:1 失败（连接被拒绝：",
            Some("  详情："),
        ),
        (
            ["http://127.0.0.1:1", "zh-Hant"],
            "錯誤：連線到 http://127.0.0.1:1 失敗（連線被拒絕：",
            Some("  詳情："),
        ),
        (
            ["ftp://x", "zh-Hant"],
            "錯誤：伺服器位址 `ftp://x` 不能用：應為 http://主機:連接埠",
            None,
        ),
    ] {
        let out = std::process::Command::new(play_support::BIN)
            .args(["play", "--server", args[0], "--lang", args[1]])
            .output()
            .unwrap();
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        let lines: Vec<&str> = err.lines().collect();
        assert!(lines[0].starts_with(said), "{args:?}: {err}");
        assert!(!lines[0].contains("os error"), "{args:?}: {err}");
        match detail {
            Some(d) => {
                assert_eq!(lines.len(), 2, "{args:?}: {err}");
                assert!(lines[1].starts_with(d), "{args:?}: {err}");
                assert!(lines[1].contains("os error"), "{args:?}: {err}");
            }
            None => assert_eq!(lines.len(), 1, "{args:?}: {err}"),
        }
    }
}

#[test]
fn the_binary_plays_a_hotseat_game_on_the_server_and_resigns() {
    let server = ServerProcess::start("pty-hotseat");
    let pty = Pty::start(
        "online-hotseat",
        &[
            "--server",
            &server.url,
            "--hotseat",
            "--tc",
            "600+0/60",
            "--lang",
            "en",
            "--glyphs",
            "letters",
        ],
        (110, 30),
    );
    // The players' names and clocks appear once the server has started the game.
    let s = pty.wait("the game", |s| {
        s.contains("Red: Guest-") && s.contains("Blue: Guest-")
    });
    assert!(s.contains("Clock "), "{s}");
    assert!(s.contains("Red's turn"), "{s}");
    pty.typed("g3g4");
    pty.wait_for("1. Rg4");
    pty.typed("a7a6");
    pty.wait_for("1. Rg4     Ra6");
    pty.keys(&["!"]);
    pty.wait_for("Press ! again");
    pty.keys(&["!"]);
    pty.wait("the resignation", |s| {
        s.contains("resigned — ") && s.contains(" wins")
    });
    pty.keys(&["q"]);
    pty.assert_exited_cleanly();
}

#[test]
fn the_binary_plays_the_server_ai_and_takes_a_move_back() {
    let server = ServerProcess::start("pty-ai");
    let pty = Pty::start(
        "online-ai",
        &[
            "--server",
            &server.url,
            "--level",
            "1",
            "--color",
            "red",
            "--lang",
            "en",
            "--glyphs",
            "letters",
        ],
        (110, 30),
    );
    let s = pty.wait_for("[You]");
    assert!(s.contains("Blue: Computer (level 1)"), "{s}");
    pty.typed("g3g4");
    pty.wait("the AI's answer", |s| {
        s.lines().any(|l| {
            l.split("1. Rg4").nth(1).is_some_and(|rest| {
                rest.trim_start()
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_alphabetic())
            })
        })
    });
    // The AI declines a draw offer this early, and the screen says so.
    pty.keys(&["="]);
    pty.wait_for("The draw offer was declined");
    pty.keys(&["u"]);
    pty.wait("the takeback", |s| !s.contains("1. Rg4"));
    pty.keys(&["C-c"]);
    pty.assert_exited_cleanly();
}

#[test]
fn the_binary_reconnects_after_the_server_restarts_and_the_game_goes_on() {
    let mut server = ServerProcess::start("pty-reconnect");
    let pty = Pty::start(
        "online-reconnect",
        &[
            "--server",
            &server.url,
            "--hotseat",
            "--lang",
            "en",
            "--glyphs",
            "letters",
        ],
        (110, 30),
    );
    pty.wait("the game", |s| s.contains("Red: Guest-"));
    pty.typed("g3g4");
    pty.wait_for("1. Rg4");
    server.kill();
    pty.wait_for("Disconnected (reconnecting)");
    server.restart();
    // Back in the same game, with its move, and playing on.
    pty.wait("the reconnection", |s| {
        !s.contains("Disconnected") && s.contains("1. Rg4")
    });
    pty.typed("a7a6");
    pty.wait_for("1. Rg4     Ra6");
    // Leaving a live game would lose it (a guest cannot come back): q asks first, any other
    // key stays, q twice leaves.
    pty.keys(&["q"]);
    pty.wait_for("A guest cannot come back: leaving loses the game. q again to leave");
    pty.keys(&["v"]);
    pty.wait("the question to go", |s| !s.contains("q again to leave"));
    pty.keys(&["q"]);
    pty.wait_for("q again to leave");
    pty.keys(&["q"]);
    pty.assert_exited_cleanly();
}

#[test]
fn watching_a_game_that_does_not_exist_says_so_and_exits() {
    let server = ServerProcess::start("pty-watch-missing");
    let pty = Pty::start(
        "watch-missing",
        &[
            "--server",
            &server.url,
            "--watch",
            "nonexistent",
            "--lang",
            "en",
        ],
        (110, 30),
    );
    let s = pty.assert_terminal_restored();
    assert!(
        s.contains("error: There is no game nonexistent on this server"),
        "{s}"
    );
    assert!(s.contains("EXIT=2"), "{s}");
}

#[test]
fn the_clocks_keep_the_servers_final_times_once_a_game_ends() {
    let server = ServerProcess::start("clocks");
    let tc = "600+0/60".parse().unwrap();
    let mut c = Client::connect_to(&server.url, |c| {
        c.online_start = Some(send::play_ai(1, "red", tc));
    });
    until(&mut [&mut c], "the game", |c| {
        c[0].app.online.you == Some(Seat::Red)
    });
    c.typed_move("g3g4");
    until(&mut [&mut c], "the AI's answer", |c| {
        c[0].app.game.len() == 2
    });
    // Red's clock runs for a while (counted down on the screen), then Red resigns.
    std::thread::sleep(Duration::from_millis(2000));
    c.keys("!!");
    until(&mut [&mut c], "the end", |c| {
        c[0].app.result_text().is_some()
    });
    let shown = |c: &Client| {
        c.app
            .clock_of(Color::Red, Instant::now())
            .and_then(|(game, _)| game)
            .expect("a game clock")
    };
    let at_end = shown(&c);
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(shown(&c), at_end, "the clock stands still");
    // The server's final state (`GET /api/games/{id}`).
    let id = c.app.online.game_id.clone().unwrap();
    let url = ServerUrl::parse(&server.url).unwrap();
    let path = format!("/api/games/{}", id.as_str().expect("a string id"));
    let answer = net::http(&url, "GET", &path, None).unwrap();
    // `{"game": GameState}`, read as the `game` message that carries the same state.
    let text = format!(r#"{{"t":"game",{}"#, &answer.body.trim()[1..]);
    let Ok(ServerMsg::Game { game }) = ServerMsg::parse(&text) else {
        panic!("not a game state: {}", answer.body)
    };
    let final_ms = game.clocks.and_then(|c| c.red_ms).expect("red_ms");
    assert!(
        final_ms < 600_000 - 2000,
        "Red's clock ran: {final_ms} ms left"
    );
    assert!(
        (at_end - final_ms).abs() < 500,
        "the screen shows {at_end} ms, the server {final_ms} ms"
    );
}

#[test]
fn another_program_at_the_address_is_said_in_one_line_without_its_page() {
    // What `python3 -m http.server` answers to the guest session's POST.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        use std::io::{Read, Write};
        for s in listener.incoming().take(3) {
            let Ok(mut s) = s else { continue };
            let mut buf = [0u8; 4096];
            let _ = s.read(&mut buf);
            let _ = s.write_all(
                b"HTTP/1.0 501 Unsupported method ('POST')\r\nContent-Type: text/html\r\n\r\n\
                  <!DOCTYPE HTML>\n<html lang=\"en\">\n<head><title>Error response</title></head>\n\
                  <body><h1>Error response</h1><p>Error code: 501</p></body></html>\n",
            );
        }
    });
    for (lang, said) in [
        (
            "zh-Hans",
            format!("错误：{url} 上不是斗兽棋服务器（HTTP 501）"),
        ),
        (
            "en",
            format!("error: {url} is not a Jungle server (HTTP 501)"),
        ),
    ] {
        let out = std::process::Command::new(play_support::BIN)
            .args(["play", "--server", &url, "--lang", lang])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err, format!("{said}\n"), "{lang}");
    }
}

#[test]
fn n_after_the_opponent_left_looks_for_a_new_opponent_on_the_server() {
    let server = ServerProcess::start("gone");
    let mut a = Client::connect(&server.url);
    let mut b = Client::connect(&server.url);
    until(&mut [&mut a, &mut b], "the game", |c| {
        c.iter().all(|c| c.app.online.game_id.is_some())
    });
    let id = a.app.online.game_id.clone().unwrap();
    // B leaves the game on purpose (逃跑), and its program ends.
    b.conn.send(send::about("leave", &id));
    until(&mut [&mut a, &mut b], "the end", |c| {
        c.iter().all(|c| c.app.finished())
    });
    drop(b);
    assert!(a.app.opponent_gone());
    // A's n looks for a new opponent instead of asking the one gone for a rematch.
    a.keys("n");
    assert_eq!(
        a.app.status.as_ref().map(|s| s.text.as_str()),
        Some("Your opponent has left: looking for a new one")
    );
    until(&mut [&mut a], "the new seek", |c| c[0].app.online.waiting);
    assert!(a.app.online.game_id.is_none());
    // A newcomer is paired with it.
    let mut c = Client::connect(&server.url);
    until(&mut [&mut a, &mut c], "the new game", |cs| {
        cs.iter().all(|c| c.app.online.game_id.is_some())
    });
    assert_ne!(a.app.online.game_id.as_ref(), Some(&id));
    assert_eq!(a.app.online.game_id, c.app.online.game_id);
}
