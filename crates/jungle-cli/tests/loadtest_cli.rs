//! `jungle loadtest` as a command: a server it cannot reach ends it at once with the reason, and
//! SIGTERM removes the data directory of the server it started.
#![cfg(feature = "server")]

use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// Waits for `child` at most `limit`; kills it and fails the test after that.
fn wait_at_most(child: &mut Child, limit: Duration, what: &str) -> ExitStatus {
    let t0 = Instant::now();
    loop {
        if let Some(s) = child.try_wait().unwrap() {
            return s;
        }
        if t0.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn stderr_of(child: &mut Child) -> String {
    use std::io::Read;
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    err
}

#[test]
fn an_unreachable_server_ends_the_run_at_once_with_the_reason() {
    // A port nothing listens on.
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let server = format!("127.0.0.1:{port}");
    let mut child = Command::new(env!("CARGO_BIN_EXE_jungle"))
        .args([
            "loadtest",
            "--games",
            "3",
            "--seconds",
            "1",
            "--server",
            &server,
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let status = wait_at_most(&mut child, Duration::from_secs(10), "loadtest");
    let err = stderr_of(&mut child);
    assert_eq!(status.code(), Some(2), "{err}");
    assert_eq!(
        err.trim_end(),
        format!("error: cannot reach the server at {server}: connection refused")
    );
}

#[test]
fn sigterm_removes_the_data_directory_of_the_server_it_started() {
    let tmp = tempfile::tempdir().unwrap();
    let ours = || -> Vec<String> {
        std::fs::read_dir(tmp.path())
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().to_string())
            .filter(|n| n.starts_with("jungle-loadtest-"))
            .collect()
    };
    let mut child = Command::new(env!("CARGO_BIN_EXE_jungle"))
        .args([
            "loadtest",
            "--games",
            "2",
            "--seconds",
            "60",
            "--think-ms",
            "50",
        ])
        .env("TMPDIR", tmp.path())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    while ours().is_empty() {
        assert!(
            t0.elapsed() < Duration::from_secs(30),
            "no data directory within 30 s"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // Into the games.
    std::thread::sleep(Duration::from_millis(500));
    let pid = child.id().to_string();
    assert!(Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .unwrap()
        .success());
    let status = wait_at_most(
        &mut child,
        Duration::from_secs(10),
        "loadtest after SIGTERM",
    );
    let err = stderr_of(&mut child);
    assert!(!status.success(), "{err}");
    assert!(err.contains("stopped by SIGTERM"), "{err}");
    assert_eq!(ours(), Vec::<String>::new());
}
