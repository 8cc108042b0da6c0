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
        // The bench's own range, 1 to 64: 0 was taken as 1, 100 ran for ever.
        (&["--host-speed", "0"][..], "--host-speed"),
        (&["--host-speed", "65"][..], "--host-speed"),
        (&["--host-speed", "100"][..], "--host-speed"),
        (&["--host-speed", "x"][..], "--host-speed"),
        // An option needs a name and a value.
        (&["--option1", "=3"][..], "`=3` is not `Name=Value`"),
        (&["--option2", " =3"][..], "` =3` is not `Name=Value`"),
        (&["--option1", "Level"][..], "`Level` is not `Name=Value`"),
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
            "option Hash takes a number from 1 to"
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
