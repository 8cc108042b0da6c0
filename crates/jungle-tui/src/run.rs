//! The runtime around the [`App`]: the terminal (raw mode, alternate screen, restored on every
//! exit path, panics included), the event loop, the engine thread and the server connection.

use crate::app::{App, Command, Config, Event, Key};
use crate::net::{self, Connection, ServerUrl, SocketEvent};
use crate::{i18n, ui};
use crossterm::event::{
    self, Event as TermEvent, KeyCode, KeyEventKind, KeyModifiers, MouseButton, MouseEventKind,
};
use crossterm::terminal::{self, EnterAlternateScreen, LeaveAlternateScreen};
use crossterm::{cursor, execute};
use jungle::Game;
use jungle_engine::{Engine, EngineOptions, Limits, SearchResult, StopHandle};
use ratatui::backend::CrosstermBackend;
use ratatui::Terminal;
use std::io::{self, Stdout};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How long the engine looks for a hint (at full strength).
const HINT_TIME: Duration = Duration::from_secs(1);
/// How long the engine analyses a position (`x`, at full strength).
const ANALYSIS_TIME: Duration = Duration::from_secs(2);
/// How many best moves an analysis shows.
const ANALYSIS_LINES: usize = 3;

/// Starts a search of `game` at `level` (for its `lines` best moves) for `time` in `search`'s
/// place (a search still running there, a hint's or an analysis's, has been given up: it is
/// stopped); the answer comes back as the event `answer` makes of the result (several lines
/// come at one depth, best first: [`jungle_engine::SearchResult::lines`]). The search runs on
/// the engine's own thread so the screen keeps drawing (`go` returns at once) and a waiter
/// thread reports the result. A stopped search's answer carries an old generation and is
/// dropped by the app.
fn think(
    search: &mut Option<StopHandle>,
    game: &Game,
    level: u8,
    lines: usize,
    time: Duration,
    tx: mpsc::Sender<Event>,
    answer: impl FnOnce(SearchResult) -> Event + Send + 'static,
) {
    if let Some(h) = search.take() {
        h.stop();
    }
    let mut engine = Engine::new(EngineOptions {
        threads: 1,
        hash_mb: 16,
        level,
        multi_pv: lines,
        ..EngineOptions::default()
    });
    let limits = Limits {
        movetime: Some(time),
        ..Limits::default()
    };
    engine.go(game, limits, Box::new(|_| {}));
    *search = Some(engine.stop_handle());
    std::thread::spawn(move || {
        let _ = tx.send(answer(engine.wait()));
    });
}

/// The thinking time of a level: the lower levels are bounded by nodes long before this.
fn budget(level: u8) -> Duration {
    Duration::from_millis(match level {
        0..=5 => 1_000,
        6..=8 => 2_000,
        9 => 3_000,
        _ => 5_000,
    })
}

/// Where an online game is played.
#[derive(Debug, Clone)]
pub struct Server {
    /// `http://host:port`.
    pub url: String,
    /// Name and password; a new guest account when `None`.
    pub login: Option<(String, String)>,
}

/// What the runtime can fail at (before or while drawing).
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// Reaching the server, signing in or connecting failed before the screen opened; the text
    /// is in the player's language, the system's own detail on a line of its own after it
    /// ([`crate::i18n::net_error_text`]).
    #[error("{0}")]
    Server(String),
    /// The terminal (its error is said in this one's text, not again as its source).
    #[error("terminal: {0}")]
    Terminal(io::Error),
    /// There is no terminal to draw on (the program's input and output are not one: a pipe, a
    /// service), found when entering full-screen mode.
    #[error("a terminal is needed: {0}")]
    NoTerminal(io::Error),
    /// The session ended on something the player must read once the screen is gone, already
    /// in the player's language ([`App::exit_error`]): e.g. a game to watch that does not exist.
    #[error("{0}")]
    Ended(String),
}

impl From<io::Error> for RunError {
    fn from(e: io::Error) -> Self {
        RunError::Terminal(e)
    }
}

/// Whether the terminal is in full-screen mode now. Restoring twice would be harmful: leaving
/// the alternate screen again moves the cursor back to where it was saved, over the lines
/// printed since (a panic message, say).
static FULL_SCREEN: AtomicBool = AtomicBool::new(false);

/// Puts the terminal back as it was; runs on drop, so on every return path and on unwinding.
struct TerminalGuard;

impl TerminalGuard {
    fn enter() -> io::Result<TerminalGuard> {
        terminal::enable_raw_mode()?;
        FULL_SCREEN.store(true, Ordering::SeqCst);
        let guard = TerminalGuard;
        execute!(
            io::stdout(),
            EnterAlternateScreen,
            cursor::Hide,
            event::EnableMouseCapture
        )?;
        Ok(guard)
    }
}

fn restore_terminal() {
    if !FULL_SCREEN.swap(false, Ordering::SeqCst) {
        return;
    }
    let _ = terminal::disable_raw_mode();
    let _ = execute!(
        io::stdout(),
        event::DisableMouseCapture,
        LeaveAlternateScreen,
        cursor::Show
    );
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore_terminal();
    }
}

/// Also restores the terminal before a panic message is printed (the guard would only run
/// after it, leaving the message garbled by raw mode).
fn install_panic_hook() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore_terminal();
            previous(info);
        }));
    });
}

fn key_of(k: event::KeyEvent) -> Option<Key> {
    if k.kind == KeyEventKind::Release {
        return None;
    }
    let ctrl = k.modifiers.contains(KeyModifiers::CONTROL);
    Some(match k.code {
        KeyCode::Char('c') | KeyCode::Char('C') if ctrl => Key::CtrlC,
        KeyCode::Char(_) if ctrl => return None,
        KeyCode::Char(c) => Key::Char(c),
        KeyCode::Up => Key::Up,
        KeyCode::Down => Key::Down,
        KeyCode::Left => Key::Left,
        KeyCode::Right => Key::Right,
        KeyCode::Enter => Key::Enter,
        KeyCode::Esc => Key::Esc,
        KeyCode::Backspace => Key::Backspace,
        KeyCode::Tab => Key::Tab,
        KeyCode::Home => Key::Home,
        KeyCode::End => Key::End,
        KeyCode::PageUp => Key::PageUp,
        KeyCode::PageDown => Key::PageDown,
        _ => return None,
    })
}

fn wrap_socket(e: SocketEvent) -> Event {
    match e {
        SocketEvent::Message(m) => Event::Server(m),
        SocketEvent::Closed(why) => Event::Disconnected(why),
    }
}

/// Runs the client until the player quits. For online play, signs in and connects first, so
/// that a wrong URL or password is reported on the plain terminal.
pub fn run(config: Config, server: Option<Server>) -> Result<(), RunError> {
    let (tx, rx) = mpsc::channel::<Event>();
    let mut link = match &server {
        Some(s) => {
            let said =
                |e: net::NetError| RunError::Server(i18n::net_error_text(config.lang, &s.url, &e));
            let url = ServerUrl::parse(&s.url).map_err(said)?;
            let login = s.login.as_ref().map(|(n, p)| (n.as_str(), p.as_str()));
            let cookie = net::sign_in(&url, login).map_err(said)?;
            let conn = net::connect(&url, &cookie, tx.clone(), wrap_socket).map_err(said)?;
            Some(Link {
                url,
                cookie,
                conn: Some(conn),
                retry_at: None,
                attempts: 0,
            })
        }
        None => None,
    };
    let ended = with_terminal(|terminal| {
        let (mut app, cmds) = App::new(config, Instant::now());
        let size = terminal.size()?;
        app.handle(
            Event::Resize {
                width: size.width,
                height: size.height,
            },
            Instant::now(),
        );
        let mut search: Option<StopHandle> = None;
        let mut quit = apply(cmds, &tx, conn_of(&link), &mut search);
        while !quit {
            draw(terminal, &app)?;
            let mut events = Vec::new();
            if event::poll(Duration::from_millis(100))? {
                // Drain everything already typed, so a pasted move arrives at once.
                loop {
                    match event::read()? {
                        TermEvent::Key(k) => events.extend(key_of(k).map(Event::Key)),
                        TermEvent::Mouse(m)
                            if m.kind == MouseEventKind::Down(MouseButton::Left) =>
                        {
                            let size = terminal.size()?;
                            let area = ratatui::layout::Rect::new(0, 0, size.width, size.height);
                            if let Some(sq) = ui::square_at(&app, area, m.column, m.row) {
                                events.push(Event::Click(sq));
                            }
                        }
                        TermEvent::Resize(width, height) => {
                            terminal.autoresize()?;
                            events.push(Event::Resize { width, height });
                        }
                        _ => {}
                    }
                    if !event::poll(Duration::ZERO)? {
                        break;
                    }
                }
            }
            events.extend(rx.try_iter());
            events.push(Event::Tick);
            for e in events {
                if let (Event::Disconnected(_), Some(l)) = (&e, link.as_mut()) {
                    l.conn = None;
                    l.retry_at = Some(Instant::now() + RECONNECT_PAUSE);
                }
                let cmds = app.handle(e, Instant::now());
                if apply(cmds, &tx, conn_of(&link), &mut search) {
                    quit = true;
                    break;
                }
            }
            if let Some(l) = link.as_mut() {
                l.maybe_reconnect(&tx);
            }
        }
        Ok(app.exit_error.take())
    })?;
    // Said on the restored terminal, where it stays after the program ends.
    match ended {
        Some(why) => Err(RunError::Ended(why)),
        None => Ok(()),
    }
}

/// The full-screen terminal for `f`: raw mode, the alternate screen and mouse capture, all
/// undone when `f` returns, fails or panics (the panic message then prints on the restored
/// screen).
pub fn with_terminal<T>(f: impl FnOnce(&mut Tui) -> Result<T, RunError>) -> Result<T, RunError> {
    install_panic_hook();
    let _guard = TerminalGuard::enter().map_err(RunError::NoTerminal)?;
    let mut terminal = Terminal::new(CrosstermBackend::new(io::stdout()))?;
    terminal.clear()?;
    f(&mut terminal)
}

/// The terminal the client draws on.
pub type Tui = Terminal<CrosstermBackend<Stdout>>;

/// Pause between reconnection attempts.
const RECONNECT_PAUSE: Duration = Duration::from_secs(2);
/// Attempts at [`RECONNECT_PAUSE`] (about a minute, the server's default reconnect grace); after
/// them the client keeps trying every [`RECONNECT_PAUSE_LATER`], as its status line says, until
/// the server is back or the player quits.
const RECONNECT_ATTEMPTS: u32 = 30;
/// Pause between reconnection attempts after the first [`RECONNECT_ATTEMPTS`].
const RECONNECT_PAUSE_LATER: Duration = Duration::from_secs(10);

/// The server connection and what is needed to open it again after a drop.
struct Link {
    url: ServerUrl,
    cookie: String,
    conn: Option<Connection>,
    retry_at: Option<Instant>,
    attempts: u32,
}

impl Link {
    /// Reconnects with the same session when a retry is due; the server's `welcome` then
    /// makes the app watch its game again.
    fn maybe_reconnect(&mut self, tx: &mpsc::Sender<Event>) {
        let Some(at) = self.retry_at else { return };
        if Instant::now() < at {
            return;
        }
        self.attempts = self.attempts.saturating_add(1);
        let pause = if self.attempts < RECONNECT_ATTEMPTS {
            RECONNECT_PAUSE
        } else {
            RECONNECT_PAUSE_LATER
        };
        match net::connect(&self.url, &self.cookie, tx.clone(), wrap_socket) {
            Ok(c) => {
                self.conn = Some(c);
                self.retry_at = None;
                self.attempts = 0;
            }
            Err(_) => self.retry_at = Some(Instant::now() + pause),
        }
    }
}

fn conn_of(link: &Option<Link>) -> Option<&Connection> {
    link.as_ref().and_then(|l| l.conn.as_ref())
}

fn draw(terminal: &mut Tui, app: &App) -> io::Result<()> {
    terminal.draw(|f| ui::draw(f, app, Instant::now()))?;
    Ok(())
}

/// Carries out commands; whether to quit.
fn apply(
    cmds: Vec<Command>,
    tx: &mpsc::Sender<Event>,
    connection: Option<&Connection>,
    search: &mut Option<StopHandle>,
) -> bool {
    let mut quit = false;
    for c in cmds {
        match c {
            Command::Quit => {
                if let Some(h) = search.take() {
                    h.stop();
                }
                quit = true;
            }
            Command::Send(msg) => {
                if let Some(conn) = connection {
                    conn.send(msg);
                }
            }
            Command::StopThinking => {
                if let Some(h) = search.take() {
                    h.stop();
                }
            }
            Command::Think {
                generation,
                game,
                level,
            } => {
                think(
                    search,
                    &game,
                    level,
                    1,
                    budget(level),
                    tx.clone(),
                    move |r| Event::AiMove {
                        generation,
                        mv: r.best,
                    },
                );
            }
            Command::Hint { generation, game } => {
                think(search, &game, 10, 1, HINT_TIME, tx.clone(), move |r| {
                    Event::Hint {
                        generation,
                        mv: r.best,
                    }
                });
            }
            Command::Analyse { generation, game } => {
                think(
                    search,
                    &game,
                    10,
                    ANALYSIS_LINES,
                    ANALYSIS_TIME,
                    tx.clone(),
                    move |result| Event::Analysis { generation, result },
                );
            }
        }
    }
    quit
}

impl RunError {
    /// The error in `lang`, as said on the plain terminal: a main line, and the system's own
    /// words (in English) on an indented line of their own where there are some ("jungle play
    /// 需要在终端里运行" / "  详情：No such device or address (os error 6)").
    pub fn text(&self, lang: i18n::Lang) -> String {
        let with_detail = |key: &'static str, e: &io::Error| {
            let detail = i18n::Msg::Detail.fill(lang, &[("msg", e)]);
            format!("{}\n  {detail}", i18n::text(lang, key))
        };
        match self {
            RunError::Server(text) | RunError::Ended(text) => text.clone(),
            RunError::NoTerminal(e) => with_detail("tui_needs_terminal", e),
            RunError::Terminal(e) => with_detail("tui_terminal_failed", e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_a_terminal_the_player_is_told_so_in_their_language() {
        let e = RunError::NoTerminal(io::Error::other("No such device or address (os error 6)"));
        assert_eq!(
            e.text(i18n::Lang::ZhHans),
            "jungle play 需要在终端里运行\n  详情：No such device or address (os error 6)"
        );
        assert_eq!(
            e.text(i18n::Lang::En).lines().next(),
            Some("jungle play needs a terminal to run in")
        );
        let e = RunError::Terminal(io::Error::other("broken pipe"));
        assert_eq!(
            e.text(i18n::Lang::ZhHant),
            "終端機出錯\n  詳情：broken pipe"
        );
        assert_eq!(RunError::Ended("x".into()).text(i18n::Lang::En), "x");
    }

    #[test]
    fn a_terminal_error_is_said_once() {
        // The text and its source chain, as `jungle play` prints it (`{:#}` of an error chain):
        // the terminal's own error appears once.
        let e = RunError::from(io::Error::other("No such device or address (os error 6)"));
        let mut chain = e.to_string();
        let mut source = std::error::Error::source(&e);
        while let Some(s) = source {
            chain.push_str(&format!(": {s}"));
            source = s.source();
        }
        assert_eq!(chain, "terminal: No such device or address (os error 6)");
    }
}
