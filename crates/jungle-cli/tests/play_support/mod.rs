//! Shared by the `play_*` tests: a pseudo-terminal (a private tmux server) running
//! `jungle play`, and a `jungle serve` on a loopback port.
#![allow(dead_code)] // each test file uses a part

use std::process::{Child, Command, Output, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

pub const BIN: &str = env!("CARGO_BIN_EXE_jungle");
/// How long any one expected screen may take to appear (a debug build, a loaded machine).
pub const WAIT: Duration = Duration::from_secs(20);

pub fn tmux_path() -> &'static str {
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
pub struct Pty {
    socket: String,
}

impl Pty {
    /// Runs `jungle play ARGS` in the pseudo-terminal.
    pub fn start(name: &str, args: &[&str], size: (u16, u16)) -> Pty {
        let quoted: Vec<String> = args.iter().map(|a| format!("'{a}'")).collect();
        Pty::start_cmd(name, &format!("'{BIN}' play {}", quoted.join(" ")), size)
    }

    /// Runs a shell command line in the pseudo-terminal.
    pub fn start_cmd(name: &str, command: &str, size: (u16, u16)) -> Pty {
        let socket = format!("jungle-pty-{}-{name}", std::process::id());
        // After the command exits, print its status and whether the tty is back in canonical
        // mode (raw mode shows `-icanon`), then keep the pane open for inspection.
        let script = format!(
            "{command}; echo \"EXIT=$?\"; stty -a | tr ' ;' '\\n\\n' | grep -x -- '-\\?icanon'; sleep 60"
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

    pub fn tmux(&self, args: &[&str]) -> Output {
        Command::new(tmux_path())
            .args(["-L", &self.socket, "-f", "/dev/null"])
            .args(args)
            .env("TERM", "xterm-256color")
            .env_remove("TMUX")
            .output()
            .expect("run tmux")
    }

    pub fn screen(&self) -> String {
        String::from_utf8_lossy(&self.tmux(&["capture-pane", "-p", "-t", "t"]).stdout).to_string()
    }

    /// Waits (bounded) until the screen satisfies `ok`; panics with the screen otherwise.
    pub fn wait(&self, what: &str, ok: impl Fn(&str) -> bool) -> String {
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

    pub fn wait_for(&self, text: &str) -> String {
        self.wait(&format!("`{text}`"), |s| s.contains(text))
    }

    pub fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "t"];
        args.extend_from_slice(keys);
        assert!(self.tmux(&args).status.success());
    }

    pub fn typed(&self, text: &str) {
        assert!(self
            .tmux(&["send-keys", "-t", "t", "-l", text])
            .status
            .success());
        self.keys(&["Enter"]);
    }

    /// The program exited with status 0 and the terminal is back in canonical mode.
    pub fn assert_exited_cleanly(&self) {
        let s = self.assert_terminal_restored();
        assert!(s.contains("EXIT=0"), "{s}");
    }

    /// The program has exited (any status) and the terminal is back in canonical mode;
    /// returns the screen.
    pub fn assert_terminal_restored(&self) -> String {
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
        assert_eq!(
            mode_line(&s).as_deref(),
            Some("icanon"),
            "the terminal is left in raw mode:\n{s}"
        );
        s
    }
}

impl Drop for Pty {
    fn drop(&mut self) {
        let _ = self.tmux(&["kill-server"]);
    }
}

/// A `jungle serve` on a free loopback port with a fresh data directory; killed on drop.
pub struct ServerProcess {
    child: Child,
    port: u16,
    /// `http://127.0.0.1:PORT`.
    pub url: String,
    dir: std::path::PathBuf,
}

impl ServerProcess {
    /// Starts the server and waits (bounded) until `/api/health` answers 200.
    pub fn start(name: &str) -> ServerProcess {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let dir = std::env::temp_dir().join(format!("jungle-play-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let child = Self::spawn(port, &dir);
        let server = ServerProcess {
            child,
            port,
            url: format!("http://127.0.0.1:{port}"),
            dir,
        };
        server.wait_healthy();
        server
    }

    fn spawn(port: u16, dir: &std::path::Path) -> Child {
        Command::new(BIN)
            .args([
                "serve",
                "--listen",
                &format!("127.0.0.1:{port}"),
                "--data-dir",
            ])
            .arg(dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start jungle serve")
    }

    fn wait_healthy(&self) {
        let url = jungle_tui::net::ServerUrl::parse(&self.url).unwrap();
        let start = Instant::now();
        loop {
            if jungle_tui::net::http(&url, "GET", "/api/health", None)
                .is_ok_and(|a| a.status == 200)
            {
                return;
            }
            assert!(
                start.elapsed() < WAIT,
                "jungle serve did not come up on {}",
                self.url
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Kills the server (as a crash would).
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Starts it again on the same port and data directory.
    pub fn restart(&mut self) {
        self.kill();
        self.child = Self::spawn(self.port, &self.dir);
        self.wait_healthy();
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        self.kill();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
