//! `jungle bench` is deterministic and ends with `<N> nodes <M> nps`.

use std::process::Command;

fn bench(depth: &str) -> Vec<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_jungle"))
        .args(["bench", depth])
        .output()
        .expect("jungle bench runs");
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

fn total(lines: &[String]) -> u64 {
    let last: Vec<&str> = lines.last().expect("output").split(' ').collect();
    assert_eq!(last.len(), 4, "{last:?}");
    assert_eq!(last[1], "nodes");
    assert_eq!(last[3], "nps");
    last[2].parse::<u64>().expect("nps is a number");
    last[0].parse().expect("nodes is a number")
}

#[test]
fn bench_is_deterministic_and_covers_thirty_positions() {
    let a = bench("5");
    let b = bench("5");
    assert!(a.len() > 30, "{} lines", a.len());
    assert_eq!(total(&a), total(&b));
    assert!(total(&a) > 1000);
    // Per-position lines agree too.
    assert_eq!(a[..a.len() - 1], b[..b.len() - 1]);
    let deeper = bench("6");
    assert!(total(&deeper) > total(&a));
}

#[test]
fn bench_rejects_a_silly_depth() {
    for depth in ["0", "65", "x"] {
        let out = Command::new(env!("CARGO_BIN_EXE_jungle"))
            .args(["bench", depth])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        // A usage error: one line, exit status 2, nothing searched.
        assert_eq!(out.status.code(), Some(2), "{depth}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{depth}: {err}");
        assert!(
            err.contains("depth must be a whole number from 1 to 64"),
            "{err}"
        );
        assert!(out.stdout.is_empty(), "{depth}");
    }
}
