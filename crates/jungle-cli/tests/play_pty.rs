//! Drives the real `jungle play` in a pseudo-terminal (a detached tmux session): short games at
//! one keyboard and against the AI, resizing, and the terminal state after quitting.
//!
//! tmux is found on PATH; on a clean Debian machine running as root (CI) it is installed with
//! `apt-get install -y tmux`. Without it the tests fail with a message saying so.
#![cfg(feature = "tui")]

use std::process::{Command, Output};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_jungle");
/// How long any one expected screen may take to appear (a debug build, a loaded machine).
const WAIT: Duration = Duration::from_secs(20);

fn tmux_path() -> &'static str {
    static PATH: OnceLock<String> = OnceLock::new();
    PATH.get_or_init(|| {
        let find = || {
            std::env::var_os("PATH").and_then(|p| {
                std::env::split_paths(&p)
                    .map(|d| d.join("tmux"))
                    .find(|f| f.is_file())
                    .map(|f| f.display().to_string())
            })
        };
        if let Some(p) = find() {
            return p;
        }
        let root = Command::new("id")
            .arg("-u")
            .output()
            .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
        assert!(
            root,
            "these tests need tmux: install it (apt-get install tmux) or run them as root"
        );
        let install = || {
            Command::new("apt-get")
                .args(["install", "-y", "-q", "tmux"])
                .env("DEBIAN_FRONTEND", "noninteractive")
                .status()
                .is_ok_and(|s| s.success())
        };
        if !install() {
            let _ = Command::new("apt-get").args(["update", "-q"]).status();
            assert!(install(), "apt-get install -y tmux failed");
        }
        find().expect("tmux installed but not on PATH")
    })
}

/// A private tmux server with one session running a command; killed on drop.
struct Pty {
    socket: String,
}

impl Pty {
    fn start(name: &str, args: &[&str], size: (u16, u16)) -> Pty {
        let socket = format!("jungle-pty-{}-{name}", std::process::id());
        let quoted: Vec<String> = args.iter().map(|a| format!("'{a}'")).collect();
        // After the client exits, print its status and whether the tty is back in canonical
        // mode (raw mode shows `-icanon`), then keep the pane open for inspection.
        let script = format!(
            "'{BIN}' play {}; echo \"EXIT=$?\"; stty -a | tr ' ;' '\\n\\n' | grep -x -- '-\\?icanon'; sleep 60",
            quoted.join(" ")
        );
        let pty = Pty { socket };
        let out = pty.tmux(&[
            "new-session",
            "-d",
            "-s",
            "t",
            "-x",
            &size.0.to_string(),
            "-y",
            &size.1.to_string(),
            "sh",
            "-c",
            &script,
        ]);
        assert!(
            out.status.success(),
            "tmux: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        pty
    }

    fn tmux(&self, args: &[&str]) -> Output {
        Command::new(tmux_path())
            .args(["-L", &self.socket, "-f", "/dev/null"])
            .args(args)
            .env("TERM", "xterm-256color")
            .env_remove("TMUX")
            .output()
            .expect("run tmux")
    }

    fn screen(&self) -> String {
        String::from_utf8_lossy(&self.tmux(&["capture-pane", "-p", "-t", "t"]).stdout).to_string()
    }

    /// Waits (bounded) until the screen satisfies `ok`; panics with the screen otherwise.
    fn wait(&self, what: &str, ok: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let s = self.screen();
            if ok(&s) {
                return s;
            }
            if start.elapsed() > WAIT {
                panic!("timed out waiting for {what}; the screen:\n{s}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn wait_for(&self, text: &str) -> String {
        self.wait(&format!("`{text}`"), |s| s.contains(text))
    }

    fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "t"];
        args.extend_from_slice(keys);
        assert!(self.tmux(&args).status.success());
    }

    fn typed(&self, text: &str) {
        assert!(self
            .tmux(&["send-keys", "-t", "t", "-l", text])
            .status
            .success());
        self.keys(&["Enter"]);
    }

    fn assert_exited_cleanly(&self) {
        let mode_line = |s: &str| {
            s.lines()
                .skip_while(|l| !l.contains("EXIT="))
                .nth(1)
                .map(|l| l.trim().to_string())
                .filter(|l| l.ends_with("icanon"))
        };
        let s = self.wait("the exit status and the tty mode", |s| {
            mode_line(s).is_some()
        });
        assert!(s.contains("EXIT=0"), "{s}");
        assert_eq!(
            mode_line(&s).as_deref(),
            Some("icanon"),
            "the terminal is left in raw mode:\n{s}"
        );
    }
}

impl Drop for Pty {
    fn drop(&mut self) {
        let _ = self.tmux(&["kill-server"]);
    }
}

#[test]
fn a_short_hotseat_game_to_the_den_with_arrows_typing_and_a_resize() {
    // Red's rat on d7, two steps from Blue's den; Blue's lion in the corner.
    let pty = Pty::start(
        "hotseat",
        &[
            "--hotseat",
            "--lang",
            "en",
            "--glyphs",
            "letters",
            "--fen",
            "l6/7/3R3/7/7/7/7/7/6L r 0 1",
        ],
        (100, 30),
    );
    pty.wait_for("Red to move");
    // Red types a move.
    pty.typed("d7d8");
    pty.wait_for("Blue to move");
    // Blue with the arrow keys: the cursor starts on d3; the lion is on a9.
    pty.keys(&["Left", "Left", "Left"]);
    for _ in 0..6 {
        pty.keys(&["Up"]);
    }
    pty.keys(&["Enter", "Right", "Enter"]);
    pty.wait_for("1. Rd8     Lb9");
    // Too small a window gets a message; the board comes back when it grows again.
    assert!(pty
        .tmux(&["resize-window", "-t", "t", "-x", "40", "-y", "10"])
        .status
        .success());
    pty.wait_for("too small");
    assert!(pty
        .tmux(&["resize-window", "-t", "t", "-x", "100", "-y", "30"])
        .status
        .success());
    pty.wait_for("1. Rd8     Lb9");
    // Red enters the den with the SAN-like form.
    pty.typed("Rd9#");
    let s = pty.wait_for("Red wins (entered the den)");
    assert!(s.contains("2. Rd9#"), "{s}");
    pty.keys(&["q"]);
    pty.assert_exited_cleanly();
}

#[test]
fn a_move_against_the_ai_its_answer_an_undo_and_ctrl_c() {
    let pty = Pty::start(
        "ai",
        &["--level", "1", "--lang", "en", "--glyphs", "letters"],
        (100, 30),
    );
    pty.wait_for("Red: you");
    pty.typed("g3g4");
    // The AI's reply fills the second column of the first move line.
    let line_done = |s: &str| {
        s.lines().any(|l| {
            l.split("1. Rg4").nth(1).is_some_and(|rest| {
                rest.trim_start()
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_alphabetic())
            })
        })
    };
    pty.wait("the AI's answer", line_done);
    pty.wait_for("Red to move");
    pty.keys(&["u"]);
    pty.wait("the undo", |s| {
        !s.contains("1. Rg4") && s.contains("Red to move")
    });
    pty.keys(&["C-c"]);
    pty.assert_exited_cleanly();
}

#[test]
fn traditional_chinese_screen() {
    let pty = Pty::start("zh", &["--hotseat", "--lang", "zh-Hant"], (100, 30));
    let s = pty.wait_for("紅方走棋");
    assert!(s.contains('獅') && s.contains('貓'), "{s}");
    pty.keys(&["q"]);
    pty.assert_exited_cleanly();
}

#[test]
fn bad_arguments_are_refused_before_the_screen_opens() {
    let out = Command::new(BIN)
        .args(["play", "--fen", "not a position"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--fen"), "{err}");
    let out = Command::new(BIN)
        .args(["play", "--rules", "no_such_rule"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("no_such_rule"));
    let out = Command::new(BIN)
        .args(["play", "--level", "11"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let out = Command::new(BIN)
        .args(["play", "--server", "https://example.org"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("https"));
    let help = Command::new(BIN).args(["play", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    for flag in [
        "--level",
        "--color",
        "--hotseat",
        "--rules",
        "--fen",
        "--server",
        "--lang",
    ] {
        assert!(help.contains(flag), "{flag} missing from --help:\n{help}");
    }
}
