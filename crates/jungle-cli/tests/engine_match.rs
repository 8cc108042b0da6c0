//! A short `jungle match` of the engine against itself, and the forfeit of a broken engine.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn openings() -> String {
    concat!(env!("CARGO_MANIFEST_DIR"), "/../../openings/suite.txt").to_string()
}

/// A file name in a temporary directory of its own, removed with everything in it when the value
/// is dropped (so a test keeps it alive for as long as it uses the file).
struct TempFile {
    _dir: tempfile::TempDir,
    path: PathBuf,
}

impl std::ops::Deref for TempFile {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.path
    }
}

impl AsRef<Path> for TempFile {
    fn as_ref(&self) -> &Path {
        &self.path
    }
}

fn temp(name: &str) -> TempFile {
    let dir = tempfile::Builder::new()
        .prefix("jungle-engine-match-")
        .tempdir()
        .unwrap();
    let path = dir.path().join(name);
    TempFile { _dir: dir, path }
}

/// Runs `jungle match` between two engine command lines with `args`.
fn run_match(engines: [&str; 2], args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_jungle"))
        .args(["match", "--engine", engines[0], "--engine", engines[1]])
        .args(args)
        .output()
        .unwrap()
}

/// Runs `jungle match` of the engine against itself on the shipped suite with `args`, writing
/// the game records to `pgn`.
fn self_match(args: &[&str], pgn: &Path) -> Output {
    self_match_on(&openings(), args, pgn)
}

/// [`self_match`] on the opening suite `suite`.
fn self_match_on(suite: &str, args: &[&str], pgn: &Path) -> Output {
    let me = format!("{} engine", env!("CARGO_BIN_EXE_jungle"));
    let pgn = pgn.to_str().unwrap();
    let args = [args, &["--openings", suite, "--pgn", pgn]].concat();
    run_match([&me, &me], &args)
}

/// [`self_match_on`] a suite of one opening (`g3g4 a7a6`), written to the temporary file `file`.
fn one_opening_match(file: &str, args: &[&str], pgn: &Path) -> Output {
    let suite = temp(file);
    std::fs::write(&suite, "g3g4 a7a6\n").unwrap();
    self_match_on(suite.to_str().unwrap(), args, pgn)
}

/// A fake engine: it answers `uci` and `isready`, appends every `go` line to the file named by
/// `log`, and answers every `go` with the illegal move `a1a9`. Returns its command line. (The
/// script sits next to the log, so tests running at once never rewrite each other's.)
fn forfeiting_engine(log: &Path) -> String {
    let script = log.with_extension("sh");
    std::fs::write(
        &script,
        "while read cmd rest; do case $cmd in\n\
         uci) echo uciok;; isready) echo readyok;;\n\
         go) echo \"go $rest\" >> \"$1\"; echo bestmove a1a9;; quit) exit 0;;\n\
         esac; done\n",
    )
    .unwrap();
    let _ = std::fs::remove_file(log);
    format!("sh {} {}", script.display(), log.display())
}

/// A fake engine that plays the real engine's depth-1 moves, but each `bestmove` `delay`
/// seconds late; for every `go` it appends `<position>|go …` (the position's arguments, then the
/// `go` line it received) to the file named by `log`. Returns its command line.
fn slow_engine(log: &Path, delay: &str) -> String {
    let script = log.with_extension("sh");
    std::fs::write(
        &script,
        "while read -r cmd rest; do case $cmd in\n\
         position) pos=$rest; echo \"position $rest\";;\n\
         go) echo \"$pos|go $rest\" >> \"$1\"; echo 'go depth 1';;\n\
         quit) echo quit; exit 0;;\n\
         *) echo \"$cmd $rest\";;\n\
         esac; done | \"$3\" engine | while read -r line; do\n\
         case $line in bestmove*) sleep \"$2\";; esac; echo \"$line\"; done\n",
    )
    .unwrap();
    let _ = std::fs::remove_file(log);
    format!(
        "sh {} {} {delay} {}",
        script.display(),
        log.display(),
        env!("CARGO_BIN_EXE_jungle")
    )
}

/// The games of a file of game records, each replayed under the rules.
fn replayed_games(pgn: &Path) -> Vec<jungle::Game> {
    let records = std::fs::read_to_string(pgn).unwrap();
    records
        .split("[Event ")
        .skip(1)
        .map(|chunk| {
            let rec: jungle::GameRecord = format!("[Event {chunk}").parse().expect("record parses");
            rec.to_game().expect("record replays")
        })
        .collect()
}

#[test]
fn self_match_at_low_depth() {
    let pgn = temp("self.pgn");
    let out = self_match(
        &[
            "--games",
            "4",
            "--depth",
            "2",
            "--concurrency",
            "2",
            "--sprt",
            "0",
            "10",
        ],
        &pgn,
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let score = text
        .lines()
        .find(|l| l.starts_with("Score of A vs B: "))
        .expect("a score line");
    assert!(score.ends_with(" 4"), "{score}");
    assert!(
        text.contains("Forfeits (illegal move, timeout, crash): A 0, B 0"),
        "{text}"
    );
    assert!(text.contains("Elo difference: "));
    assert!(text.contains("Score 95% interval: "), "{text}");
    assert!(text.contains("SPRT elo0=0 elo1=10"));
    let records = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(records.matches("[Event \"jungle match\"]").count(), 4);
    // Every record replays under the rules.
    assert_eq!(replayed_games(&pgn).len(), 4);
}

#[test]
fn the_shipped_suite_is_the_default_from_any_directory() {
    // Run from a directory without `openings/`: the suite is built into the binary.
    let pgn = temp("default.pgn");
    let me = format!("{} engine", env!("CARGO_BIN_EXE_jungle"));
    let out = Command::new(env!("CARGO_BIN_EXE_jungle"))
        .args(["match", "--engine", &me, "--engine", &me])
        .args([
            "--games",
            "2",
            "--depth",
            "1",
            "--pgn",
            pgn.to_str().unwrap(),
        ])
        .current_dir(pgn.parent().unwrap())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The first opening of the shipped suite, in both games.
    let first: Vec<String> = std::fs::read_to_string(openings())
        .unwrap()
        .lines()
        .map(|l| l.split('#').next().unwrap().trim())
        .find(|l| !l.is_empty())
        .unwrap()
        .split_whitespace()
        .map(String::from)
        .collect();
    for game in replayed_games(&pgn) {
        let played: Vec<String> = game.plies()[..first.len()]
            .iter()
            .map(|p| p.mv.to_string())
            .collect();
        assert_eq!(played, first);
    }
}

#[test]
fn games_replayed_at_a_fixed_depth_are_counted_and_warned_about() {
    let pgn = temp("repeats.pgn");
    let out = one_opening_match("one-opening.txt", &["--games", "6", "--depth", "2"], &pgn);
    let text = String::from_utf8_lossy(&out.stdout);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{text}\n{err}");
    assert!(
        err.contains("warning: 6 games on 1 openings at a fixed depth"),
        "{err}"
    );
    // One opening, both colours: games 3–6 replay games 1 and 2 (one thread, fixed depth).
    let games: Vec<Vec<String>> = replayed_games(&pgn)
        .iter()
        .map(|g| g.moves().map(|m| m.to_string()).collect())
        .collect();
    assert_eq!(games.len(), 6);
    assert_eq!(games[2], games[0]);
    assert_eq!(games[5], games[1]);
    assert!(
        text.contains("Repeated games: 4 of 6 repeat an earlier game move for move"),
        "{text}"
    );
    // Two games per opening repeat nothing, and nothing is said.
    let out = one_opening_match("one-opening.txt", &["--games", "2", "--depth", "2"], &pgn);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains("Repeated games"), "{text}");
    assert!(!String::from_utf8_lossy(&out.stderr).contains("warning"));
}

#[test]
fn a_ply_cap_draws_the_games_that_reach_it() {
    let pgn = temp("cap.pgn");
    let args = ["--games", "2", "--depth", "1", "--max-plies", "10"];
    let out = one_opening_match("cap-opening.txt", &args, &pgn);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("Score of A vs B: 0 - 0 - 2"), "{text}");
    let records = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(records.matches("[Termination \"max plies\"]").count(), 2);
    for game in replayed_games(&pgn) {
        assert_eq!(game.moves().count(), 10);
    }
}

#[test]
fn opening_offset_starts_further_into_the_suite() {
    let suite = jungle_engine::matches::load_openings(
        std::path::Path::new(&openings()),
        jungle::Rules::STANDARD,
    )
    .unwrap();
    // One past the end wraps around to the second opening.
    let offset = (suite.len() + 1).to_string();
    let pgn = temp("offset.pgn");
    let out = self_match(
        &["--games", "2", "--depth", "1", "--opening-offset", &offset],
        &pgn,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let games = replayed_games(&pgn);
    assert_eq!(games.len(), 2);
    for game in games {
        let played: Vec<String> = game.moves().map(|m| m.to_string()).collect();
        let opening = &suite[1];
        assert!(
            played.len() >= opening.len() && played[..opening.len()] == opening[..],
            "game {played:?} does not start with the second opening {opening:?}"
        );
    }
}

#[test]
fn an_illegal_move_forfeits_and_is_reported() {
    let good = format!("{} engine", env!("CARGO_BIN_EXE_jungle"));
    let log = temp("bad-go.log");
    let bad = forfeiting_engine(&log);
    let out = run_match(
        [&good, &bad],
        &[
            "--games",
            "2",
            "--depth",
            "1",
            "--name",
            "good",
            "--name",
            "bad",
            "--openings",
            &openings(),
        ],
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("Score of good vs bad: 2 - 0 - 0"), "{text}");
    assert!(text.contains("bad played an illegal move `a1a9`"), "{text}");
    assert!(text.contains("good 0, bad 2"), "{text}");
}

#[test]
fn nodes2_gives_the_second_engine_its_own_node_count() {
    let logs = [temp("first-go.log"), temp("second-go.log")];
    let engines = [forfeiting_engine(&logs[0]), forfeiting_engine(&logs[1])];
    let out = run_match(
        [&engines[0], &engines[1]],
        &[
            "--games",
            "2",
            "--nodes",
            "300",
            "--nodes2",
            "4321",
            "--openings",
            &openings(),
        ],
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    // Each engine had Red once and forfeited its first move.
    assert!(text.contains("Score of A vs B: 1 - 1 - 0"), "{text}");
    let first = std::fs::read_to_string(&logs[0]).unwrap();
    let second = std::fs::read_to_string(&logs[1]).unwrap();
    assert_eq!(first, "go nodes 300\n");
    assert_eq!(second, "go nodes 4321\n");
    // `--nodes2` needs `--nodes`.
    let out = run_match(["x", "y"], &["--nodes2", "5"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--nodes"));
}

#[test]
fn host_speed_is_measured_before_and_after_the_games() {
    let pgn = temp("speed.pgn");
    let out = one_opening_match(
        "speed-suite.txt",
        &[
            "--games",
            "2",
            "--depth",
            "2",
            "--quiet",
            "--host-speed",
            "3",
        ],
        &pgn,
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    let line = text
        .lines()
        .find(|l| l.starts_with("Host speed (jungle bench 3, one thread): "))
        .unwrap_or_else(|| panic!("no host speed line: {text}"));
    // "… 6.92 M nodes/s before the games, 6.81 M after": two positive speeds.
    let speeds: Vec<f64> = line
        .split(' ')
        .filter_map(|w| w.parse::<f64>().ok())
        .collect();
    assert_eq!(speeds.len(), 2, "{line}");
    assert!(speeds.iter().all(|&v| v > 0.0), "{line}");
    // Without the option no bench runs and no such line is printed.
    let out = one_opening_match("speed-suite2.txt", &["--games", "2", "--depth", "2"], &pgn);
    assert!(!String::from_utf8_lossy(&out.stdout).contains("Host speed"));
}

#[test]
fn zero_games_or_zero_concurrency_is_a_usage_error() {
    let me = format!("{} engine", env!("CARGO_BIN_EXE_jungle"));
    for (args, flag) in [
        (&["--games", "0"][..], "--games"),
        (&["--concurrency", "0"][..], "--concurrency"),
        (&["--concurrency", "65"][..], "--concurrency"),
        (&["--depth", "0"][..], "--depth"),
        // Beyond the type's range: the range is named (the count of games overflowed to 0
        // when it was rounded up to pairs, and the depth was "not a whole number").
        (
            &["--games", "18446744073709551615"][..],
            "it must be from 1 to 1000000",
        ),
        (
            &["--depth", "4294967296"][..],
            "it must be from 1 to 4294967295",
        ),
        (
            &["--depth", "x"][..],
            "it must be a whole number from 1 to 4294967295",
        ),
        // The bench's own range, 1 to 64: 0 was taken as 1, 100 ran for ever.
        (&["--host-speed", "0"][..], "--host-speed"),
        (&["--host-speed", "65"][..], "--host-speed"),
        (&["--host-speed", "100"][..], "--host-speed"),
        (&["--host-speed", "x"][..], "--host-speed"),
        // An option needs a name and a value.
        (&["--option1", "=3"][..], "`=3` is not `Name=Value`"),
        (&["--option2", " =3"][..], "` =3` is not `Name=Value`"),
        (&["--option1", "Level"][..], "`Level` is not `Name=Value`"),
        // Names: two at most, one line each, and not the same (the results name them).
        (
            &["--name", "a", "--name", "b", "--name", "c"][..],
            "at most twice",
        ),
        (&["--name", "a\nb"][..], "one line"),
        (&["--name", " "][..], "one line"),
        (&["--name", "x", "--name", "x"][..], "different names"),
    ] {
        let out = run_match([&me, &me], args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(flag), "{args:?}: {err}");
        // Nothing was played.
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn an_option_the_engine_refuses_stops_the_match_before_any_game() {
    let me = format!("{} engine", env!("CARGO_BIN_EXE_jungle"));
    let pgn = temp("refused.pgn");
    for (flag, value, engine) in [
        ("--option1", "Bogus=3", "engine `first`"),
        ("--option2", "Hash=0", "engine `second`"),
    ] {
        let out = run_match(
            [&me, &me],
            &[
                flag,
                value,
                "--option1",
                "Hash=8",
                "--games",
                "2",
                "--depth",
                "1",
                "--name",
                "first",
                "--name",
                "second",
                "--openings",
                &openings(),
                "--pgn",
                pgn.to_str().unwrap(),
            ],
        );
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{flag} {value}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.contains(engine), "{err}");
        assert!(err.contains(&format!("`{value}`")), "{err}");
        // The engine's own reason.
        let reason = if value.starts_with("Bogus") {
            "unknown option `Bogus`"
        } else {
            "option `Hash` takes a number from 1 to"
        };
        assert!(err.contains(reason), "{err}");
        assert!(
            out.stdout.is_empty(),
            "{}",
            String::from_utf8_lossy(&out.stdout)
        );
        assert_eq!(std::fs::read_to_string(&pgn).unwrap_or_default(), "");
    }
    // Options the engine takes still work.
    let out = run_match(
        [&me, &me],
        &[
            "--option1",
            "Hash=8",
            "--option2",
            "Level=3",
            "--games",
            "2",
            "--depth",
            "1",
            "--quiet",
            "--openings",
            &openings(),
        ],
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("Score of A vs B: "), "{text}");
}

#[test]
fn overruns_of_the_clock_add_up_over_the_game() {
    // 0.1 s + 0 and a margin of 0.4 s: the slow engine takes at least 0.2 s a move, each move
    // within the time left plus the margin, but its third move takes its use past 0.5 s. (When
    // every move was forgiven its overrun, the game ran on to the ply cap.)
    let logs = [temp("fast-go.log"), temp("slow-go.log")];
    let fast = slow_engine(&logs[0], "0");
    let slow = slow_engine(&logs[1], "0.2");
    let suite = temp("clock-suite.txt");
    std::fs::write(&suite, "g3g4 a7a6\n").unwrap();
    let out = run_match(
        [&fast, &slow],
        &[
            "--games",
            "2",
            "--tc",
            "0.1+0",
            "--timeout-margin",
            "400",
            "--max-plies",
            "30",
            "--name",
            "fast",
            "--name",
            "slow",
            "--openings",
            suite.to_str().unwrap(),
        ],
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("Score of fast vs slow: 2 - 0 - 0"), "{text}");
    assert!(text.contains("fast 0, slow 2"), "{text}");
    for game in text.lines().filter(|l| l.starts_with("game ")) {
        assert!(
            game.contains("slow lost on time") || game.contains("slow timed out"),
            "{game}"
        );
    }
    // The slow engine was told its true time: all of it at its first move of a game, then none,
    // its clock being below zero (it was told the same before, the clock stopping at zero).
    let gos = std::fs::read_to_string(&logs[1]).unwrap();
    let own: Vec<String> = gos
        .lines()
        .map(|l| {
            let (position, go) = l.split_once('|').unwrap();
            // The suite's opening has two plies: Red is to move after an even number of moves.
            let red = position.split(' ').skip(2).count() % 2 == 0;
            let words: Vec<&str> = go.split(' ').collect();
            words[if red { 2 } else { 4 }].to_string()
        })
        .collect();
    assert_eq!(own.iter().filter(|t| *t == "100").count(), 2, "{gos}");
    assert!(own.iter().all(|t| t == "100" || t == "0"), "{own:?}: {gos}");
    // At most three moves a game: never a fourth, at 0.8 s of use or more.
    assert!((2..=6).contains(&own.len()), "{own:?}: {gos}");
}

/// A fake engine: a `sh` script in `dir` named `name` that answers `uci` and `isready`, appends
/// every line it reads to `input.log` in `dir`, and runs `on_go` (shell commands) for every
/// `go`. Returns its command line.
fn fake_engine(dir: &Path, name: &str, on_go: &str) -> String {
    let script = dir.join(name);
    std::fs::write(
        &script,
        format!(
            "while read -r cmd rest; do echo \"$cmd $rest\" >> \"{log}\"; case $cmd in\n\
             uci) echo uciok;; isready) echo readyok;;\n\
             go) {on_go};;\n\
             quit) exit 0;;\n\
             esac; done\n",
            log = dir.join("input.log").display()
        ),
    )
    .unwrap();
    format!("sh {}", script.display())
}

/// A fake engine that is the real one, with `filter` (a `sh` `case` branch on `$line`, the
/// engine's output line, which it must echo itself) applied to its output.
fn filtered_engine(dir: &Path, name: &str, filter: &str) -> String {
    let script = dir.join(name);
    std::fs::write(
        &script,
        format!(
            "\"$1\" engine | while IFS= read -r line; do case $line in\n\
             {filter}\n\
             *) printf '%s\\n' \"$line\";;\n\
             esac; done\n"
        ),
    )
    .unwrap();
    format!("sh {} {}", script.display(), env!("CARGO_BIN_EXE_jungle"))
}

/// What a match run to its end (or killed after `limit`) left.
struct Finished {
    out: Output,
    /// The match process's largest resident set seen while it ran, in KiB (0 where unknown).
    peak_kib: u64,
    took: std::time::Duration,
}

/// Runs `jungle match` between two engine command lines with `args`, killing it after `limit`
/// (the test then fails), and watches its memory while it runs.
fn run_match_watched(engines: [&str; 2], args: &[&str], limit: std::time::Duration) -> Finished {
    use std::io::Read;
    use std::process::Stdio;
    use std::time::Instant;
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_jungle"))
        .args(["match", "--engine", engines[0], "--engine", engines[1]])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out_thread = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = stdout.read_to_end(&mut v);
        v
    });
    let err_thread = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = stderr.read_to_end(&mut v);
        v
    });
    let status_file = format!("/proc/{}/status", child.id());
    let mut peak_kib = 0;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the match ran past {limit:?} (peak {peak_kib} KiB)");
        }
        let rss = std::fs::read_to_string(&status_file)
            .ok()
            .and_then(|s| {
                s.lines()
                    .find_map(|l| l.strip_prefix("VmRSS:"))
                    .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            })
            .unwrap_or(0);
        peak_kib = peak_kib.max(rss);
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    Finished {
        out: Output {
            status,
            stdout: out_thread.join().unwrap(),
            stderr: err_thread.join().unwrap(),
        },
        peak_kib,
        took: started.elapsed(),
    }
}

fn suite_file(dir: &Path) -> String {
    let suite = dir.join("suite.txt");
    std::fs::write(&suite, "g3g4 a7a6\n").unwrap();
    suite.to_str().unwrap().to_string()
}

fn text_of(out: &Output) -> String {
    format!(
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn the_rules_of_the_match_are_sent_to_both_engines_first() {
    let dir = tempfile::tempdir().unwrap();
    let dirs = [dir.path().join("a"), dir.path().join("b")];
    for d in &dirs {
        std::fs::create_dir(d).unwrap();
    }
    let engines = [
        fake_engine(&dirs[0], "a.sh", "echo bestmove a1a9"),
        fake_engine(&dirs[1], "b.sh", "echo bestmove a1a9"),
    ];
    let suite = suite_file(dir.path());
    let out = run_match(
        [&engines[0], &engines[1]],
        &[
            "--rules",
            "no_rivers",
            "--option1",
            "Hash=8",
            "--option2",
            "rules=NO_RIVERS",
            "--games",
            "2",
            "--depth",
            "1",
            "--openings",
            &suite,
        ],
    );
    assert!(out.status.success(), "{}", text_of(&out));
    for (d, other) in dirs.iter().zip(["setoption name Hash value 8", ""]) {
        let log = std::fs::read_to_string(d.join("input.log")).unwrap();
        let options: Vec<&str> = log.lines().filter(|l| l.starts_with("setoption")).collect();
        // Once per start: the check before the games, and the start of the worker's engines.
        let mut expected = vec!["setoption name Rules value no_rivers"];
        if !other.is_empty() {
            expected.push(other);
        }
        assert_eq!(options, [expected.clone(), expected].concat(), "{log}");
    }
    // Another rule set for one engine is refused before anything runs.
    let out = run_match(
        [&engines[0], &engines[1]],
        &[
            "--rules",
            "no_rivers",
            "--option2",
            "Rules=standard",
            "--openings",
            &suite,
        ],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(
        err.contains(
            "engine `B`: its option `Rules=standard` is not the match's rule set `no_rivers`"
        ),
        "{err}"
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn the_engine_plays_by_the_rules_of_the_match() {
    // Under `no_rivers` the Lion walks through the water squares, which a standard engine
    // cannot even read in a `position`: before the rules were sent, such games were forfeited.
    let pgn = temp("no-rivers.pgn");
    let out = self_match(
        &["--rules", "no_rivers", "--games", "4", "--depth", "2"],
        &pgn,
    );
    let text = text_of(&out);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("Forfeits (illegal move, timeout, crash): A 0, B 0"),
        "{text}"
    );
}

#[test]
fn an_engine_that_floods_its_output_loses_on_time_in_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    let good = format!("{} engine", env!("CARGO_BIN_EXE_jungle"));
    let suite = suite_file(dir.path());
    for (name, on_go) in [
        // Lines without end, as fast as the pipe takes them.
        ("flood.sh", "yes 'info depth 1 score cp 0 pv a1b1'"),
        // One line without end.
        ("endless.sh", "tr -d '\\n' < /dev/zero | tr '\\0' x"),
    ] {
        let bad = fake_engine(dir.path(), name, on_go);
        let done = run_match_watched(
            [&good, &bad],
            &[
                "--games",
                "2",
                "--movetime",
                "1000",
                "--timeout-margin",
                "500",
                "--quiet",
                "--openings",
                &suite,
            ],
            std::time::Duration::from_secs(60),
        );
        let text = text_of(&done.out);
        assert!(done.out.status.success(), "{name}: {text}");
        assert!(
            text.contains("Score of A vs B: 2 - 0 - 0"),
            "{name}: {text}"
        );
        assert!(text.contains("A 0, B 2"), "{name}: {text}");
        // Two moves of 1.5 s at most, and the engines' ends.
        assert!(
            done.took < std::time::Duration::from_secs(20),
            "{name}: {text}"
        );
        // The runner's memory stays small (it grew by hundreds of MB a second before).
        if cfg!(target_os = "linux") {
            assert!(
                done.peak_kib > 0 && done.peak_kib < 100_000,
                "{name}: {} KiB",
                done.peak_kib
            );
        }
    }
}

#[test]
fn output_that_is_not_utf8_or_very_long_is_only_output() {
    let dir = tempfile::tempdir().unwrap();
    let suite = suite_file(dir.path());
    // Before each `bestmove`: an `info string` in GBK (你好), and a line of 200 000 bytes.
    let noisy = filtered_engine(
        dir.path(),
        "noisy.sh",
        "bestmove*) printf 'info string \\304\\343\\272\\303\\n'; \
         head -c 200000 /dev/zero | tr '\\0' y; echo; printf '%s\\n' \"$line\";;",
    );
    let good = format!("{} engine", env!("CARGO_BIN_EXE_jungle"));
    let out = run_match(
        [&good, &noisy],
        &["--games", "2", "--depth", "1", "--openings", &suite],
    );
    let text = text_of(&out);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("A 0, B 0"), "{text}");
}

#[test]
fn a_failing_engine_is_reported_with_its_exit_status_and_stderr() {
    // A command line the engine does not take: it exits with status 2 and says why on stderr.
    let me = env!("CARGO_BIN_EXE_jungle");
    let out = run_match(
        [&format!("{me} engine --hash 64"), &format!("{me} engine")],
        &["--games", "2", "--depth", "1", "--openings", &openings()],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(
        err.contains("engine `A`: no `uciok`: it exited (status 2); stderr: ")
            && err.contains("--hash"),
        "{err}"
    );
    assert!(!err.contains("Crash") && !err.contains("Timeout"), "{err}");

    // An engine that dies at its first `go`, saying why.
    let dir = tempfile::tempdir().unwrap();
    let suite = suite_file(dir.path());
    let crash = fake_engine(
        dir.path(),
        "crash.sh",
        "echo 'thread main panicked: boom' >&2; exit 3",
    );
    let out = run_match(
        [&format!("{me} engine"), &crash],
        &["--games", "2", "--depth", "1", "--openings", &suite],
    );
    let text = text_of(&out);
    assert!(out.status.success(), "{text}");
    assert_eq!(
        text.matches("B exited (status 3); stderr: thread main panicked: boom")
            .count(),
        2,
        "{text}"
    );
}

#[test]
#[cfg(target_os = "linux")]
fn a_hung_engine_is_killed_with_what_it_started() {
    // At `go` the script starts a `sleep` and waits for it; the runner must kill both (the
    // `sleep` outlived the match before, holding the engine's pipes).
    let dir = tempfile::tempdir().unwrap();
    let suite = suite_file(dir.path());
    let pids = dir.path().join("pids");
    let hang = fake_engine(
        dir.path(),
        "hang.sh",
        &format!("sleep 1000 & echo $! >> \"{}\"; wait", pids.display()),
    );
    let good = format!("{} engine", env!("CARGO_BIN_EXE_jungle"));
    let out = run_match(
        [&good, &hang],
        &[
            "--games",
            "2",
            "--movetime",
            "50",
            "--timeout-margin",
            "100",
            "--openings",
            &suite,
        ],
    );
    let text = text_of(&out);
    assert!(out.status.success(), "{text}");
    assert_eq!(text.matches("B timed out").count(), 2, "{text}");
    let pids = std::fs::read_to_string(&pids).unwrap();
    assert_eq!(pids.lines().count(), 2, "{pids}");
    for pid in pids.lines() {
        // Gone, or at most a zombie waiting for its new parent to reap it.
        let state = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        let alive = state
            .rsplit(") ")
            .next()
            .is_some_and(|rest| !rest.starts_with('Z'));
        assert!(
            !alive,
            "the sleep {pid} of the hung engine lives on: {state}"
        );
    }
}

#[test]
fn a_pass_is_an_illegal_move() {
    let dir = tempfile::tempdir().unwrap();
    let suite = suite_file(dir.path());
    let pass = fake_engine(dir.path(), "pass.sh", "echo 'bestmove --'");
    let good = format!("{} engine", env!("CARGO_BIN_EXE_jungle"));
    let out = run_match(
        [&good, &pass],
        &["--games", "2", "--depth", "1", "--openings", &suite],
    );
    let text = text_of(&out);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("Score of A vs B: 2 - 0 - 0"), "{text}");
    assert_eq!(
        text.matches("B played an illegal move `--`: a pass is not a move in play (RULES §4)")
            .count(),
        2,
        "{text}"
    );
    assert!(text.contains("A 0, B 2"), "{text}");
}

#[test]
fn sprt_bounds_may_be_negative_but_must_be_finite_and_ordered() {
    let pgn = temp("sprt.pgn");
    let out = one_opening_match(
        "sprt-suite.txt",
        &["--games", "2", "--depth", "1", "--sprt", "-5", "0"],
        &pgn,
    );
    let text = text_of(&out);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("SPRT elo0=-5 elo1=0 "), "{text}");
    let me = format!("{} engine", env!("CARGO_BIN_EXE_jungle"));
    for (sprt, why) in [
        (["0", "nan"], "an Elo bound must be a finite number"),
        (["-inf", "0"], "an Elo bound must be a finite number"),
        (["5", "5"], "--sprt needs ELO0 < ELO1, not 5 and 5"),
        (["0", "-5"], "--sprt needs ELO0 < ELO1, not 0 and -5"),
    ] {
        let out = run_match([&me, &me], &["--sprt", sprt[0], sprt[1]]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{sprt:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{sprt:?}: {err}");
        assert!(err.contains(why), "{sprt:?}: {err}");
        assert!(out.stdout.is_empty(), "{sprt:?}");
    }
}
