//! `jungle serve` killed with SIGKILL mid-game and started again on the same data directory (or
//! the PostgreSQL database named by `DATABASE_URL`): the live game resumes with every
//! acknowledged move.
#![cfg(feature = "server")]

use jungle_server::client::{self, block_on, WsClient};
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

struct Server {
    child: Child,
    addr: SocketAddr,
}

/// One test's servers at a time: with `DATABASE_URL` set they all use one PostgreSQL database,
/// which takes one server only.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start(dir: &std::path::Path) -> Server {
    try_start(dir).expect("jungle serve prints its URL")
}

/// `jungle serve` on `dir`, or None if it ends without printing its URL (a database in use).
fn try_start(dir: &std::path::Path) -> Option<Server> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_jungle"))
        .args(["serve", "--listen", "127.0.0.1:0", "--data-dir"])
        .arg(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("jungle serve starts");
    let out = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(out).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let line = match rx.recv_timeout(Duration::from_secs(60)) {
        Ok(line) => line,
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            let _ = child.wait();
            return None;
        }
        Err(e) => panic!("jungle serve prints its URL: {e}"),
    };
    let url = line
        .strip_prefix("Jungle is running: open http://")
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"));
    let addr = url.trim_end_matches('/').parse().unwrap();
    Some(Server { child, addr })
}

#[test]
fn a_killed_server_resumes_its_live_games_with_every_acknowledged_move() {
    let _one = one_at_a_time();
    let dir = tempfile_dir();
    let srv = start(&dir);
    let addr = srv.addr;
    let (game, red_tok, blue_tok) = block_on(async move {
        let (rt, _) = client::guest(addr).await.unwrap();
        let (bt, _) = client::guest(addr).await.unwrap();
        let mut red = WsClient::connect(addr, &rt, None).await.unwrap();
        let mut blue = WsClient::connect(addr, &bt, None).await.unwrap();
        red.recv_type("welcome").await.unwrap();
        blue.recv_type("welcome").await.unwrap();
        red.send_text(r#"{"t":"challenge","tc":{"clock_s":600,"inc_s":0,"move_s":0},"rated":false,"color":"red"}"#).await.unwrap();
        let id = red.recv_type("challenge_created").await.unwrap()["id"].clone();
        blue.send_text(&format!(r#"{{"t":"accept_challenge","id":{id}}}"#))
            .await
            .unwrap();
        let game = red.recv_type("game").await.unwrap()["game"]["id"].clone();
        for (ply, mv) in ["g3g4", "a9a8", "g4g5"].iter().enumerate() {
            let mover = if ply % 2 == 0 { &mut red } else { &mut blue };
            mover
                .send_text(&format!(
                    r#"{{"t":"move","game":{game},"ply":{ply},"move":"{mv}"}}"#
                ))
                .await
                .unwrap();
            let mut acked = false;
            for _ in 0..10 {
                if mover.recv_type("moved").await.unwrap()["ply"] == ply {
                    acked = true;
                    break;
                }
            }
            assert!(acked, "ply {ply} acknowledged");
        }
        (game, rt, bt)
    });
    drop(srv); // SIGKILL: no shutdown of any kind
    let srv = start(&dir);
    let addr = srv.addr;
    block_on(async move {
        let mut blue = WsClient::connect(addr, &blue_tok, None).await.unwrap();
        let welcome = blue.recv_type("welcome").await.unwrap();
        assert!(welcome["games"].as_array().unwrap().contains(&game));
        blue.send_text(&format!(r#"{{"t":"watch","game":{game}}}"#))
            .await
            .unwrap();
        let st = blue.recv_type("game").await.unwrap()["game"].clone();
        assert_eq!(st["status"], "live");
        assert_eq!(st["you"], "blue");
        let moves: Vec<&str> = st["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["move"].as_str().unwrap())
            .collect();
        assert_eq!(moves, ["g3g4", "a9a8", "g4g5"]);
        assert!(st["clocks"]["blue_ms"].as_i64().unwrap() > 500_000);
        blue.send_text(&format!(
            r#"{{"t":"move","game":{game},"ply":3,"move":"a8a9"}}"#
        ))
        .await
        .unwrap();
        assert_eq!(blue.recv_type("moved").await.unwrap()["ply"], 3);
        let mut red = WsClient::connect(addr, &red_tok, None).await.unwrap();
        red.recv_type("welcome").await.unwrap();
        red.send_text(&format!(r#"{{"t":"resign","game":{game}}}"#))
            .await
            .unwrap();
        red.recv_type("ended").await.ok();
    });
    drop(srv);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sigterm_stops_the_server_cleanly() {
    // What a service manager sends to stop a service: the same clean stop as Ctrl-C (the store
    // closed), exit status 0.
    let _one = one_at_a_time();
    let dir = tempfile_dir();
    let mut srv = start(&dir);
    let pid = srv.child.id().to_string();
    let killed = Command::new("kill").args(["-TERM", &pid]).status().unwrap();
    assert!(killed.success());
    let mut status = None;
    for _ in 0..200 {
        if let Some(s) = srv.child.try_wait().unwrap() {
            status = Some(s);
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let status = status.expect("the server stops within 10 s of SIGTERM");
    assert!(status.success(), "{status:?}");
    drop(srv);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn startup_errors_say_what_failed() {
    // SQLite in the data directory, whatever database the other tests use.
    let serve = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_jungle"))
            .arg("serve")
            .args(args)
            .env_remove("DATABASE_URL")
            .output()
            .unwrap();
        assert!(!out.status.success());
        String::from_utf8_lossy(&out.stderr).to_string()
    };
    // A data directory that is a file.
    let dir = tempfile_dir();
    let file = dir.join("not-a-dir");
    std::fs::write(&file, "x").unwrap();
    let path = file.to_str().unwrap();
    let err = serve(&["--listen", "127.0.0.1:0", "--data-dir", path]);
    assert!(
        err.contains(&format!("cannot create the data directory {path}")),
        "{err}"
    );
    // An address already in use.
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    let data = dir.join("data");
    let err = serve(&["--listen", &addr, "--data-dir", data.to_str().unwrap()]);
    assert!(err.contains(&format!("cannot listen on {addr}")), "{err}");
    drop(taken);
    // A database file that is not one: said at once, with the file and the cause.
    let garbage = dir.join("garbage");
    std::fs::create_dir_all(&garbage).unwrap();
    std::fs::write(garbage.join("jungle.db"), vec![0x5a_u8; 8192]).unwrap();
    let started = std::time::Instant::now();
    let err = serve(&[
        "--listen",
        "127.0.0.1:0",
        "--data-dir",
        garbage.to_str().unwrap(),
    ]);
    let db = garbage.join("jungle.db");
    assert!(err.contains(db.to_str().unwrap()), "{err}");
    assert!(err.contains("file is not a database"), "{err}");
    // Not after the pool's half a minute of retries (a generous bound for a loaded machine).
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn one_server_per_database() {
    // Two servers on one database would resume the same games twice: the second is refused,
    // on SQLite (a lock file) and on PostgreSQL (an advisory lock) alike.
    let _one = one_at_a_time();
    let dir = tempfile_dir();
    let first = start(&dir);
    let out = Command::new(env!("CARGO_BIN_EXE_jungle"))
        .args(["serve", "--listen", "127.0.0.1:0", "--data-dir"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("another jungle server is using"), "{err}");
    assert!(String::from_utf8_lossy(&out.stdout).is_empty());
    // Once the first is gone, the database is free again: at once on SQLite; on PostgreSQL as
    // soon as the database has noticed that the killed server's connection is closed (its
    // advisory lock goes with it), which may take a moment.
    drop(first);
    let since = std::time::Instant::now();
    let again = loop {
        match try_start(&dir) {
            Some(server) => break server,
            None if since.elapsed() < Duration::from_secs(20) => {
                std::thread::sleep(Duration::from_millis(200))
            }
            None => panic!("the database is still held 20 s after its server was killed"),
        }
    };
    drop(again);
    let _ = std::fs::remove_dir_all(&dir);
}

fn tempfile_dir() -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!(
        "jungle-serve-restart-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos())
    ));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// PostgreSQL only (run by `scripts/test-postgres.sh`, in CI too): the advisory lock lives as long
/// as its connection. A server whose lock connection is ended takes the lock again on a new one;
/// and if another server took it meanwhile, it stops with an error instead of running the same
/// games twice.
#[test]
fn a_server_keeps_its_postgresql_lock_or_stops() {
    let Ok(url) = std::env::var("DATABASE_URL") else {
        eprintln!(
            "DATABASE_URL not set: the PostgreSQL lock test runs in scripts/test-postgres.sh"
        );
        return;
    };
    if !url.starts_with("postgres") {
        return;
    }
    let _one = one_at_a_time();
    let dir = tempfile_dir();
    // One runtime for the test's connections (its waits block it: nothing else runs on it).
    block_on(pg_lock_kept_or_lost(&url, &dir));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The lock's key ("jungle" in ASCII), as the server takes it.
const PG_LOCK_KEY: &str = "106117110103108101";

/// The sessions holding the server's advisory lock (its key split over classid and objid).
async fn pg_lock_holders(conn: &mut sqlx::AnyConnection) -> Vec<i32> {
    use sqlx::Row;
    let q = format!(
        "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted \
         AND ((classid::bigint << 32) | objid::bigint) = {PG_LOCK_KEY}"
    );
    let rows = sqlx::query(&q).fetch_all(conn).await.unwrap();
    rows.iter().map(|r| r.get::<i32, _>(0)).collect()
}

/// Waits (20 s at most) until the lock's holders are as `ok` wants them.
async fn pg_wait_for(
    what: &str,
    conn: &mut sqlx::AnyConnection,
    ok: impl Fn(&[i32]) -> bool,
) -> Vec<i32> {
    let since = std::time::Instant::now();
    loop {
        let h = pg_lock_holders(conn).await;
        if ok(&h) {
            return h;
        }
        assert!(since.elapsed() < Duration::from_secs(20), "{what}: {h:?}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

async fn pg_lock_kept_or_lost(url: &str, dir: &std::path::Path) {
    use sqlx::{Connection, Row};
    sqlx::any::install_default_drivers();
    let mut conn = sqlx::AnyConnection::connect(url).await.unwrap();
    let end = |pid: i32| format!("SELECT pg_terminate_backend({pid})");

    // The lock's connection ends: the server takes the lock again and goes on serving.
    let mut server = start(dir);
    let first = pg_wait_for("the server holds the lock", &mut conn, |h| h.len() == 1).await[0];
    sqlx::query(&end(first)).execute(&mut conn).await.unwrap();
    pg_wait_for("the server takes the lock again", &mut conn, |h| {
        h.len() == 1 && h[0] != first
    })
    .await;
    let health = client::http(server.addr, "GET", "/api/health", None, None)
        .await
        .unwrap();
    assert_eq!(health.status, 200, "{}", health.body);
    // Another server is refused as before.
    let out = Command::new(env!("CARGO_BIN_EXE_jungle"))
        .args(["serve", "--listen", "127.0.0.1:0", "--data-dir"])
        .arg(dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");

    // The lock's connection ends and another session takes the lock first: the server stops
    // with an error.
    let held = pg_wait_for("the server holds the lock", &mut conn, |h| h.len() == 1).await[0];
    let mut other = sqlx::AnyConnection::connect(url).await.unwrap();
    sqlx::query(&end(held)).execute(&mut conn).await.unwrap();
    let since = std::time::Instant::now();
    loop {
        let got: bool = sqlx::query(&format!("SELECT pg_try_advisory_lock({PG_LOCK_KEY})"))
            .fetch_one(&mut other)
            .await
            .unwrap()
            .get(0);
        if got {
            break;
        }
        assert!(
            since.elapsed() < Duration::from_secs(20),
            "the ended connection's lock was never released"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    let since = std::time::Instant::now();
    let status = loop {
        if let Some(status) = server.child.try_wait().unwrap() {
            break status;
        }
        assert!(
            since.elapsed() < Duration::from_secs(30),
            "the server did not stop after losing its database"
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(!status.success(), "{status:?}");
}
