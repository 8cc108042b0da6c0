//! `jungle loadtest` in miniature: a server in the same process, a few bot pairs for two seconds;
//! and a server whose limits refuse the bots, which stops the run at once, saying why.

mod common;

use common::{test_config, TestServer};
use jungle_server::hub::ServerConfig;
use jungle_server::loadtest::{run, LoadOptions};
use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_short_load_run_plays_moves_and_reports_its_figures() {
    let r = run(LoadOptions {
        games: 4,
        seconds: 2,
        think_ms: 20,
        server: None,
    })
    .await
    .expect("the load run");
    assert_eq!(r.errors, 0, "{r}");
    assert_eq!(r.peak_concurrent_games, 4, "{r}");
    // Four games, a move every ~20 ms per game, two seconds: hundreds of moves.
    assert!(r.moves > 50, "{r}");
    assert!(r.p50_ms > 0.0 && r.p50_ms <= r.p99_ms, "{r}");
    let (bytes, games) = r.server_memory.expect("the server's /api/stats");
    assert!(bytes > 1 << 20 && games >= 4, "{r}");
    let text = r.to_string();
    assert!(
        text.contains("ack latency p99") && text.contains("server memory"),
        "{text}"
    );
}

/// A load run of `games` pairs against a server with `config`: its error, within 20 s.
async fn refused_run(config: ServerConfig, games: usize) -> String {
    let dir = tempfile::tempdir().unwrap();
    let srv = TestServer::start_with(dir.path(), config).await;
    let run = run(LoadOptions {
        games,
        seconds: 2,
        think_ms: 20,
        server: Some(srv.addr),
    });
    match tokio::time::timeout(Duration::from_secs(20), run).await {
        Ok(Ok(r)) => panic!("the run went on: {r}"),
        Ok(Err(e)) => e.to_string(),
        Err(_) => panic!("the run did not stop within 20 s"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_refusing_guest_accounts_stops_the_run_saying_which_flag_to_raise() {
    let config = ServerConfig {
        auth_per_ip_per_min: 3,
        ..test_config()
    };
    let err = refused_run(config, 4).await;
    assert!(
        err.contains("refused to create guest accounts: 429 rate_limited")
            && err.contains("--auth-per-min")
            && !err.contains('\n'),
        "{err}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_refusing_websockets_stops_the_run_saying_which_flag_to_raise() {
    let config = ServerConfig {
        max_ws_per_ip: 3,
        ..test_config()
    };
    let err = refused_run(config, 2).await;
    assert!(
        err.contains("refused a WebSocket: 429") && err.contains("--max-ws-per-ip"),
        "{err}"
    );
}
