//! The runtime around the [`App`]: the terminal (raw mode, alternate screen, restored on every
//! exit path, panics included), the event loop, the engine thread and the server connection.

use crate::app::{App, Command, Config, Event, Key};
use crate::net::{self, Connection, ServerUrl, SocketEvent};
use crate::ui;
use crossterm::event::{self, Event as TermEvent, KeyCode, KeyEventKind, KeyModifiers};
use crossterm::terminal::{self, EnterAlternateScreen, LeaveAlternateScreen};
use crossterm::{cursor, execute};
use jungle::{Game, Move};
use ratatui::backend::CrosstermBackend;
use ratatui::Terminal;
use std::io::{self, Stdout};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The engine as the client calls it: a move for `game` at `level`, blocking.
pub type AiFn = Arc<dyn Fn(&Game, u8) -> Option<Move> + Send + Sync>;

/// The engine of `jungle-engine`, with a thinking budget that grows with the level.
pub fn default_ai() -> AiFn {
    Arc::new(|game: &Game, level: u8| {
        let ms = match level {
            0..=5 => 1_000,
            6..=8 => 2_000,
            9 => 3_000,
            _ => 5_000,
        };
        jungle_engine::choose_move(game, level, Duration::from_millis(ms))
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
    /// Talking to the server.
    #[error(transparent)]
    Net(#[from] net::NetError),
    /// The terminal.
    #[error("terminal: {0}")]
    Terminal(#[from] io::Error),
}

/// Puts the terminal back as it was; runs on drop, so on every return path and on unwinding.
struct TerminalGuard;

impl TerminalGuard {
    fn enter() -> io::Result<TerminalGuard> {
        terminal::enable_raw_mode()?;
        let guard = TerminalGuard;
        execute!(io::stdout(), EnterAlternateScreen, cursor::Hide)?;
        Ok(guard)
    }
}

fn restore_terminal() {
    let _ = terminal::disable_raw_mode();
    let _ = execute!(io::stdout(), LeaveAlternateScreen, cursor::Show);
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore_terminal();
    }
}

/// Also restores the terminal before a panic message is printed (the guard would only run
/// after it, leaving the message garbled by raw mode).
fn install_panic_hook() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore_terminal();
        previous(info);
    }));
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
pub fn run(config: Config, server: Option<Server>, ai: AiFn) -> Result<(), RunError> {
    let (tx, rx) = mpsc::channel::<Event>();
    let connection = match &server {
        Some(s) => {
            let url = ServerUrl::parse(&s.url)?;
            let login = s.login.as_ref().map(|(n, p)| (n.as_str(), p.as_str()));
            let cookie = net::sign_in(&url, login)?;
            Some(net::connect(&url, &cookie, tx.clone(), wrap_socket)?)
        }
        None => None,
    };
    install_panic_hook();
    let _guard = TerminalGuard::enter()?;
    let mut terminal = Terminal::new(CrosstermBackend::new(io::stdout()))?;
    terminal.clear()?;
    let (mut app, cmds) = App::new(config, Instant::now());
    let mut quit = apply(cmds, &tx, connection.as_ref(), &ai);
    while !quit {
        draw(&mut terminal, &app)?;
        let mut events = Vec::new();
        if event::poll(Duration::from_millis(100))? {
            // Drain everything already typed, so a pasted move arrives at once.
            loop {
                match event::read()? {
                    TermEvent::Key(k) => events.extend(key_of(k).map(Event::Key)),
                    TermEvent::Resize(_, _) => terminal.autoresize()?,
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
            let cmds = app.handle(e, Instant::now());
            if apply(cmds, &tx, connection.as_ref(), &ai) {
                quit = true;
                break;
            }
        }
    }
    Ok(())
}

fn draw(terminal: &mut Terminal<CrosstermBackend<Stdout>>, app: &App) -> io::Result<()> {
    terminal.draw(|f| ui::draw(f, app, Instant::now()))?;
    Ok(())
}

/// Carries out commands; whether to quit.
fn apply(
    cmds: Vec<Command>,
    tx: &mpsc::Sender<Event>,
    connection: Option<&Connection>,
    ai: &AiFn,
) -> bool {
    let mut quit = false;
    for c in cmds {
        match c {
            Command::Quit => quit = true,
            Command::Send(msg) => {
                if let Some(conn) = connection {
                    conn.send(msg);
                }
            }
            Command::Think {
                generation,
                game,
                level,
            } => {
                // The search runs on its own thread so the screen keeps drawing; a stale
                // answer (after an undo or a new game) is dropped by the app.
                let tx = tx.clone();
                let ai = Arc::clone(ai);
                std::thread::spawn(move || {
                    let mv =
                        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| ai(&game, level)))
                            .unwrap_or(None);
                    let _ = tx.send(Event::AiMove { generation, mv });
                });
            }
        }
    }
    quit
}
