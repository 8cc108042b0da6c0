//! `jungle loadtest` in miniature: a server in the same process, a few bot pairs for two seconds.

use jungle_server::loadtest::{run, LoadOptions};

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
