//! The client's state machine: keys, AI answers and server messages in, a new state and
//! [`Command`]s out. It never touches the terminal, the network or a clock of its own, so every
//! behaviour is tested by feeding it events.

use crate::i18n::{
    aborted_text, color_name, illegal_text, io_error_text, reason_text, record_error_text,
    role_char, server_error_text, shown_name, tc_text, termination_text, why_text, Lang, Msg,
    RecordProblem,
};
use crate::proto::{
    send, Changes, Clocks, GameResult, GameState, OpenSeek, Seat, ServerMsg, Side, TimeControl,
    Timeouts,
};
use jungle::{
    Bitboard, Color, Game, GameRecord, Jfen, Move, MoveText, Position, Rules, San, Square,
};
use jungle_engine::{Score, SearchResult};
use serde::Deserialize;
use serde_json::Value;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// A key press, already decoded from the terminal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    /// A printable character.
    Char(char),
    /// Arrow up.
    Up,
    /// Arrow down.
    Down,
    /// Arrow left.
    Left,
    /// Arrow right.
    Right,
    /// Enter.
    Enter,
    /// Escape.
    Esc,
    /// Backspace.
    Backspace,
    /// Tab.
    Tab,
    /// Home.
    Home,
    /// End.
    End,
    /// Page up.
    PageUp,
    /// Page down.
    PageDown,
    /// Ctrl-C: quit at once.
    CtrlC,
}

/// How animals are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Glyphs {
    /// Letters, uppercase Red and lowercase Blue (`E`, `l`).
    Letters,
    /// Chinese characters (`象`, `狮`), two columns wide.
    Chinese,
}

/// Who plays whom.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opponent {
    /// The local engine at `level` (1–10); the person plays `human`.
    Engine {
        /// 1–10.
        level: u8,
        /// The person's colour.
        human: Color,
    },
    /// Two people at one keyboard.
    Hotseat,
    /// A game on a server; the seat comes from the server.
    Online,
}

/// Everything the app needs to start.
#[derive(Debug, Clone)]
pub struct Config {
    /// Display language.
    pub lang: Lang,
    /// How animals are drawn at the start.
    pub glyphs: Glyphs,
    /// The start position (its rules included).
    pub start: Position,
    /// The opponent.
    pub opponent: Opponent,
    /// The first message sent once the server welcomes us when no live game is waiting
    /// (online only), e.g. [`send::quick`].
    pub online_start: Option<Value>,
    /// Directory for saved games.
    pub save_dir: PathBuf,
}

/// An analysis of one position (the `x` key).
#[derive(Debug, Clone)]
pub struct Analysis {
    /// The generation of its [`Command::Analyse`].
    generation: u64,
    /// The position analysed.
    position: Position,
    /// The search's answer, once it has come.
    pub result: Option<SearchResult>,
}

/// What the app asks its runtime to do.
#[derive(Debug, Clone)]
pub enum Command {
    /// Think on `game` at `level` and answer with [`Event::AiMove`] carrying `generation`.
    Think {
        /// Stale answers (after an undo or a new game) carry an older generation.
        generation: u64,
        /// The game to move in.
        game: Box<Game>,
        /// 1–10.
        level: u8,
    },
    /// Look for the best move in `game` for the person at the keyboard (a hint) and answer with
    /// [`Event::Hint`] carrying `generation`. Full strength, about a second.
    Hint {
        /// Stale answers (the game changed since) carry an older generation.
        generation: u64,
        /// The game to move in.
        game: Box<Game>,
    },
    /// Analyse `game`'s position at full strength (its best moves, each with its score and line)
    /// and answer with [`Event::Analysis`] carrying `generation`.
    Analyse {
        /// Stale answers (the game changed since) carry an older generation.
        generation: u64,
        /// The game whose position is analysed.
        game: Box<Game>,
    },
    /// Stop the running search: its answer is no longer wanted (it still arrives, with an
    /// old generation, and is dropped).
    StopThinking,
    /// Send a message to the server.
    Send(Value),
    /// Leave the program.
    Quit,
}

/// Something that happened.
#[derive(Debug, Clone)]
pub enum Event {
    /// A key.
    Key(Key),
    /// The engine's answer.
    AiMove {
        /// The generation of the [`Command::Think`] answered.
        generation: u64,
        /// Its move, if it found one.
        mv: Option<Move>,
    },
    /// The engine's answer to a [`Command::Hint`].
    Hint {
        /// The generation of the [`Command::Hint`] answered.
        generation: u64,
        /// The move it suggests, if it found one.
        mv: Option<Move>,
    },
    /// The engine's answer to a [`Command::Analyse`].
    Analysis {
        /// The generation of the [`Command::Analyse`] answered.
        generation: u64,
        /// What the search found.
        result: SearchResult,
    },
    /// A message from the server.
    Server(ServerMsg),
    /// A mouse click on a square: the cursor goes there and it is picked as with Enter.
    Click(Square),
    /// The server connection ended, and why.
    Disconnected(String),
    /// The terminal now has `width` columns and `height` rows (sent at the start and after
    /// every resize): the help's scroll position is kept within its text.
    Resize {
        /// Columns.
        width: u16,
        /// Rows.
        height: u16,
    },
    /// Time passed (redraw clocks).
    Tick,
}

/// A status line message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Status {
    /// The text, already in the display language.
    pub text: String,
    /// Whether it reports a problem.
    pub error: bool,
}

/// A line being edited at the bottom.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Prompt {
    /// The path to save to.
    Save(String),
    /// The path to load from.
    Open(String),
}

/// The server side of an online game.
#[derive(Debug, Clone, Default)]
pub struct OnlineState {
    /// The current game's id.
    pub game_id: Option<Value>,
    /// Our seat (none while spectating or before a game).
    pub you: Option<Seat>,
    /// Player names.
    pub names: [String; 2],
    /// The game's time control, as the server gave it.
    pub tc: Option<crate::proto::TimeControl>,
    /// AI levels of the seats.
    pub ai_levels: [Option<u8>; 2],
    /// The last clocks and when they arrived.
    pub clocks: Option<(Clocks, Instant)>,
    /// Timeouts.
    pub timeouts: Timeouts,
    /// The result, once over.
    pub result: Option<GameResult>,
    /// Who offers a draw.
    pub draw_offer: Option<Side>,
    /// Connection state of the seats.
    pub presence: [bool; 2],
    /// Of an aborted game: the side that aborted it, as `ended` said (a state says it in its result).
    pub aborted_by: Option<Side>,
    /// The reconnect grace left to each away seat (ms, as the server last said) and when that
    /// arrived.
    pub away: Option<([Option<i64>; 2], Instant)>,
    /// Connected and welcomed.
    pub welcomed: bool,
    /// Our seek is open and nobody has joined yet.
    pub waiting: bool,
    /// This connection gets the lobby's open seeks (`lobby` was sent on it while waiting).
    pub lobby: bool,
    /// The lobby's open seeks, as last sent (while waiting: see [`App::other_seeks`]).
    pub seeks: Vec<OpenSeek>,
    /// The account's name (from `welcome`).
    pub name: Option<String>,
    /// The connection ended, with the transport's own (English) words for it. The player is
    /// told only the catalogue's message: the detail is the WebSocket library's, in English
    /// whatever the language, and says nothing a player can act on.
    pub disconnected: Option<String>,
    /// `!` was pressed once.
    pub resign_armed: bool,
    /// `q` was pressed once in a live game with a seat (leaving would lose it).
    pub quit_armed: bool,
    /// The account is a guest's (from `welcome`): it cannot come back once the program ends.
    pub guest: bool,
    /// What the finished game changed for its players (as `ended`, the game's state or the
    /// `changes` that followed told it).
    pub changes: Option<Changes>,
    /// The game ended while the database did not take its result: its changes follow in a
    /// `changes` message (see [`App::changes_lines`]).
    pub changes_pending: bool,
    /// Of a finished game: whether the server still takes a rematch (as its state last said;
    /// `None` where it did not say).
    pub rematch_open: Option<bool>,
    /// This client asked for a rematch of the finished game shown (between people): `n` again
    /// looks for a new opponent instead.
    pub rematch_asked: bool,
}

/// The whole client state.
#[derive(Debug, Clone)]
pub struct App {
    /// Display language.
    pub lang: Lang,
    /// How animals are drawn.
    pub glyphs: Glyphs,
    /// Blue at the bottom.
    pub flipped: bool,
    /// The game shown.
    pub game: Game,
    /// The position new games start from.
    pub start: Position,
    /// Who plays whom.
    pub opponent: Opponent,
    /// The square under the cursor.
    pub cursor: Square,
    /// The animal picked to move.
    pub selected: Option<Square>,
    /// A move being typed.
    pub input: String,
    /// A path being typed.
    pub prompt: Option<Prompt>,
    /// The status line.
    pub status: Option<Status>,
    /// The help overlay is open.
    pub help: bool,
    /// The first line of the help shown, where the help is longer than the screen (Up, Down,
    /// PageUp, PageDown, Home and End scroll it; at most [`App::help_max_scroll`]).
    pub help_scroll: u16,
    /// The terminal's size (columns, rows), once the runtime has said it with
    /// [`Event::Resize`]; the help only scrolls where it is known.
    pub screen: Option<(u16, u16)>,
    /// The engine is thinking (since when).
    pub thinking: Option<Instant>,
    /// Bumped whenever an engine answer would be stale.
    pub generation: u64,
    /// A hint is being looked for: the generation of its [`Command::Hint`] and the position it
    /// is for (an answer for any other is dropped).
    pub hint: Option<(u64, Position)>,
    /// The analysis asked for with `x`: shown while its position is on the board.
    pub analysis: Option<Analysis>,
    /// Looking back at a finished game: the plies played up to the position shown (`None`: the
    /// game's last position).
    pub review: Option<usize>,
    /// Online state, in an online game.
    pub online: OnlineState,
    online_start: Option<Value>,
    save_dir: PathBuf,
    /// The program should end.
    pub quit: bool,
    /// Why the program ends on an error (said on the plain terminal once the screen is
    /// restored, and the exit status is not 0): e.g. a game to watch that does not exist.
    pub exit_error: Option<String>,
}

impl App {
    /// A new app and the commands to run at once (the engine's first move when it is to move).
    pub fn new(config: Config, now: Instant) -> (App, Vec<Command>) {
        let flipped = match config.opponent {
            Opponent::Engine { human, .. } => human == Color::Blue,
            _ => false,
        };
        let mut app = App {
            lang: config.lang,
            glyphs: config.glyphs,
            flipped,
            game: Game::from_position(config.start),
            start: config.start,
            opponent: config.opponent,
            cursor: Square::D3,
            selected: None,
            input: String::new(),
            prompt: None,
            status: None,
            help: false,
            help_scroll: 0,
            screen: None,
            thinking: None,
            generation: 0,
            hint: None,
            analysis: None,
            review: None,
            online: OnlineState::default(),
            online_start: config.online_start,
            save_dir: config.save_dir,
            quit: false,
            exit_error: None,
        };
        app.reset_cursor();
        if app.opponent == Opponent::Online {
            app.info(Msg::Connecting);
        }
        let cmds = app.maybe_think(now);
        (app, cmds)
    }

    /// Handles one event at time `now`.
    pub fn handle(&mut self, event: Event, now: Instant) -> Vec<Command> {
        match event {
            Event::Key(k) => self.key(k, now),
            Event::Click(sq) => {
                if self.help || self.prompt.is_some() {
                    return Vec::new();
                }
                self.input.clear();
                self.cursor = sq;
                self.pick(now)
            }
            Event::AiMove { generation, mv } => self.ai_move(generation, mv, now),
            Event::Hint { generation, mv } => {
                self.hint_answer(generation, mv);
                Vec::new()
            }
            Event::Analysis { generation, result } => {
                self.analysis_answer(generation, result);
                Vec::new()
            }
            Event::Server(m) => self.server(m, now),
            Event::Disconnected(why) => {
                self.online.disconnected = Some(why.clone());
                // A new connection gets the lobby only when it asks again.
                self.online.lobby = false;
                self.error_msg(Msg::Disconnected);
                Vec::new()
            }
            Event::Resize { width, height } => {
                self.screen = Some((width, height));
                self.help_scroll = self.help_scroll.min(self.help_max_scroll());
                Vec::new()
            }
            Event::Tick => Vec::new(),
        }
    }

    // ----- queries used by the renderer and the tests -----

    /// The text of a message in the display language.
    pub fn t(&self, m: Msg) -> &'static str {
        m.text(self.lang)
    }

    /// "That move is not allowed: `why`" in the display language.
    fn illegal(&self, why: impl std::fmt::Display) -> String {
        Msg::IllegalMove.fill(self.lang, &[("msg", &why)])
    }

    /// Whether the person at the keyboard may move now.
    pub fn can_move(&self) -> bool {
        if self.game.outcome().is_some() {
            return false;
        }
        let turn = self.game.position().turn();
        match self.opponent {
            Opponent::Engine { human, .. } => turn == human && self.thinking.is_none(),
            Opponent::Hotseat => true,
            Opponent::Online => {
                self.online.result.is_none()
                    && self.online.disconnected.is_none()
                    && self.online.you.is_some_and(|s| s.plays(turn))
            }
        }
    }

    /// Whether the game is over: on the board or, online, by the server's word (a resignation, a
    /// time forfeit, an agreed draw).
    pub fn finished(&self) -> bool {
        self.game.outcome().is_some() || self.online.result.is_some()
    }

    /// The plies played up to the position shown: the game's length, or fewer while looking
    /// back at a finished game.
    pub fn shown_ply(&self) -> usize {
        self.review
            .filter(|&p| p < self.game.len() && self.finished())
            .unwrap_or(self.game.len())
    }

    /// The position shown on the board.
    pub fn shown_position(&self) -> &Position {
        self.game
            .position_at(self.shown_ply())
            .unwrap_or(self.game.position())
    }

    /// The game up to the position shown (its history counts for §7 in an analysis).
    fn shown_game(&self) -> Game {
        let mut game = self.game.clone();
        while game.len() > self.shown_ply() {
            game.undo();
        }
        game
    }

    /// The legal destinations of the selected animal.
    pub fn targets(&self) -> Bitboard {
        self.destinations().0
    }

    /// The selected animal's destinations in one pass over its moves: those it may go to, and
    /// those the game's history closes to it (RULES §7: the position allows the move, the 7-3,
    /// 17-5 or repetition rule does not), marked apart on the board. None once the game is over.
    pub fn destinations(&self) -> (Bitboard, Bitboard) {
        let (mut open, mut closed) = (Bitboard::EMPTY, Bitboard::EMPTY);
        let Some(from) = self.selected.filter(|_| self.game.outcome().is_none()) else {
            return (open, closed);
        };
        for &m in self.game.position().legal_moves().iter() {
            if m.from() == Some(from) {
                if self.game.history_forbids(m).is_some() {
                    closed |= Bitboard::from_square(m.to_sq());
                } else {
                    open |= Bitboard::from_square(m.to_sq());
                }
            }
        }
        (open, closed)
    }

    /// The move that led to the position shown, for highlighting.
    pub fn last_move(&self) -> Option<Move> {
        self.game.plies()[..self.shown_ply()]
            .last()
            .map(|p| p.mv)
            .filter(|m| !m.is_pass())
    }

    /// The result line, once the game is over: who lost how and who wins where the loser did
    /// it ("Red resigned — Blue wins", "蓝方断线未归，红方胜"), an agreed draw as such, else the
    /// winner and the reason ("Red wins (entered the den)"); for a player at this keyboard against
    /// someone else, whether they won or lost first ("你赢了：…").
    pub fn result_text(&self) -> Option<String> {
        if self
            .online
            .result
            .as_ref()
            .is_some_and(|r| r.reason == "aborted")
        {
            // No result at all, and no draw: who called it off where `ended` said, else the
            // title alone ("Game aborted").
            let mine = |s: Side| {
                matches!(
                    (self.online.you, s),
                    (Some(Seat::Red), Side::Red) | (Some(Seat::Blue), Side::Blue)
                )
            };
            let by = self
                .online
                .aborted_by
                .or(self.online.result.as_ref().and_then(|r| r.by));
            return Some(match by {
                Some(s) if mine(s) => self.t(Msg::ResultAbortedYou).to_string(),
                Some(s) => Msg::ResultAbortedBy
                    .fill(self.lang, &[("side", &color_name(self.lang, s.color()))]),
                None => aborted_text(self.lang).to_string(),
            });
        }
        let lang = self.lang;
        let (winner, said) = if let Some(r) = &self.online.result {
            let winner = r.winner.map(Side::color);
            // Reasons whose subject is the loser.
            let lost = match r.reason.as_str() {
                "resign" => Some(Msg::ResultResigned),
                "left" => Some(Msg::ResultLeft),
                "disconnect" => Some(Msg::ResultDisconnected),
                "time" => Some(Msg::ResultTime),
                "timeouts" => Some(Msg::ResultTimeouts),
                _ => None,
            };
            let said = match (winner, lost) {
                (Some(w), Some(m)) => {
                    let what = m.fill(lang, &[("side", &color_name(lang, !w))]);
                    let wins = Msg::Wins.fill(lang, &[("side", &color_name(lang, w))]);
                    Msg::ResultThen.fill(lang, &[("what", &what), ("result", &wins)])
                }
                (None, _) if r.reason == "agreed" => self.t(Msg::ResultAgreed).to_string(),
                _ => self.winner_and_reason(winner, reason_text(lang, &r.reason)),
            };
            (winner, said)
        } else {
            let o = self.game.outcome()?;
            let reason = termination_text(lang, o.termination);
            (o.winner, self.winner_and_reason(o.winner, reason))
        };
        let me = match (self.opponent, self.online.you) {
            (Opponent::Engine { human, .. }, _) => Some(human),
            (Opponent::Online, Some(Seat::Red)) => Some(Color::Red),
            (Opponent::Online, Some(Seat::Blue)) => Some(Color::Blue),
            _ => None,
        };
        Some(match (me, winner) {
            (Some(me), Some(w)) if me == w => Msg::YouWon.fill(lang, &[("result", &said)]),
            (Some(_), Some(_)) => Msg::YouLost.fill(lang, &[("result", &said)]),
            _ => said,
        })
    }

    /// "Red wins (reason)" or "Draw (reason)".
    fn winner_and_reason(&self, winner: Option<Color>, reason: &str) -> String {
        let head = match winner {
            Some(c) => Msg::Wins.fill(self.lang, &[("side", &color_name(self.lang, c))]),
            None => self.t(Msg::Draw).to_string(),
        };
        self.lang.aside(&head, reason)
    }

    /// What the finished online game changed for this client's player, one line for each of
    /// their score, level, coins and rating that changed (e.g. `Score: 10 -> 12 (+2)`), or that
    /// it will be said once the result is stored; nothing for spectators, at one keyboard, or
    /// where nothing changed (a casual game, one too short to count).
    pub fn changes_lines(&self) -> Vec<String> {
        let me = match self.online.you {
            Some(Seat::Red) => Color::Red,
            Some(Seat::Blue) => Color::Blue,
            _ => return Vec::new(),
        };
        if self.online.result.is_none() {
            return Vec::new();
        }
        if self.online.changes_pending {
            return vec![self.t(Msg::ChangesPending).to_string()];
        }
        let Some(c) = self.online.changes.and_then(|c| c.of(me)) else {
            return Vec::new();
        };
        let rows = [
            (Msg::Score, c.score_before, c.score_after),
            (Msg::Level, c.level_before, c.level_after),
            (Msg::Coins, c.coins_before, c.coins_after),
            (
                Msg::Rating,
                c.rating_before.round() as i64,
                c.rating_after.round() as i64,
            ),
        ];
        rows.iter()
            .filter(|(_, before, after)| before != after)
            .map(|&(label, before, after)| {
                let text = self.lang.aside(
                    // ASCII: `→` is East-Asian-ambiguous, two columns in many CJK terminals.
                    &format!("{before} -> {after}"),
                    format!("{:+}", after - before),
                );
                Msg::Labelled.fill(self.lang, &[("label", &self.t(label)), ("text", &text)])
            })
            .collect()
    }

    /// The label of a seat's player, e.g. `You`, `Computer (level 3)`, a server name (whether
    /// the player is away is said apart: [`App::seat_disconnected`]); none at one keyboard.
    pub fn player_label(&self, c: Color) -> String {
        match self.opponent {
            Opponent::Engine { level, human } => {
                if c == human {
                    self.t(Msg::You).to_string()
                } else {
                    Msg::AiName.fill(self.lang, &[("level", &level)])
                }
            }
            // Two people at one keyboard: each is the side they play, said already.
            Opponent::Hotseat => String::new(),
            Opponent::Online => {
                // The server names AI seats in English; ours says it in the display language.
                let mut s = match self.online.ai_levels[c.index()] {
                    Some(l) => Msg::AiName.fill(self.lang, &[("level", &l)]),
                    None => shown_name(self.lang, &self.online.names[c.index()]),
                };
                if self.online.you.is_some_and(|y| y.plays(c))
                    && self.online.you != Some(Seat::Both)
                {
                    s = format!("{s} [{}]", self.t(Msg::You));
                }
                s
            }
        }
    }

    /// Whether the player of `c` is away from an online game: the server says its seat is not
    /// connected, or it is this client's own seat while this client's connection is down (the
    /// server then counts it as away too, and runs its clock on while it is to move; the clocks
    /// shown here stop). The panel says so beside the player's clock. Never once the game is
    /// over: whoever is connected then changes nothing (a finished game's stored state says
    /// both players are away).
    pub fn seat_disconnected(&self, c: Color) -> bool {
        self.opponent == Opponent::Online
            && self.online.game_id.is_some()
            && !self.finished()
            && (!self.online.presence[c.index()]
                || (self.online.disconnected.is_some()
                    && self.online.you.is_some_and(|y| y.plays(c))))
    }

    /// The time (ms) left before the player of `c`, away as the server says, loses by
    /// disconnect: the server's figure counted down locally, and never past that side's clock
    /// while it runs (the grace is cut to it: doc/protocol.md). `None` when the server gave no
    /// such figure or the seat is not away.
    pub fn away_left(&self, c: Color, now: Instant) -> Option<i64> {
        if !self.seat_disconnected(c) || self.online.presence[c.index()] {
            return None;
        }
        let (left, at) = self.online.away?;
        let elapsed = now.saturating_duration_since(at).as_millis() as i64;
        let mut ms = (left[c.index()]? - elapsed).max(0);
        let running = self
            .online
            .clocks
            .and_then(|(k, _)| k.running)
            .map(Side::color)
            == Some(c);
        if let (true, Some((Some(game), _))) = (running, self.clock_of(c, now)) {
            ms = ms.min(game);
        }
        Some(ms)
    }

    /// The remaining game clock and per-move time of `c`, counted down locally from the last
    /// server report — also while this client is disconnected: the server's clocks run on
    /// (RULES §8.3), and the reconnect brings the exact figures.
    pub fn clock_of(&self, c: Color, now: Instant) -> Option<(Option<i64>, Option<i64>)> {
        let (clocks, at) = self.online.clocks?;
        let running = clocks.running.map(Side::color) == Some(c) && self.online.result.is_none();
        let elapsed = if running {
            now.saturating_duration_since(at).as_millis() as i64
        } else {
            0
        };
        let game = match c {
            Color::Red => clocks.red_ms,
            Color::Blue => clocks.blue_ms,
        }
        .map(|ms| (ms - elapsed).max(0));
        let per_move = if running {
            clocks.move_ms.map(|ms| (ms - elapsed).max(0))
        } else {
            None
        };
        Some((game, per_move))
    }

    /// Stops the clocks at their values counted down to `now` (the game has ended): the game
    /// clocks keep what was left, no clock runs and there is no per-move time any more.
    fn stop_clocks(&mut self, now: Instant) {
        if self.online.clocks.is_none() {
            return;
        }
        let left = |c| self.clock_of(c, now).and_then(|(game, _)| game);
        let stopped = Clocks {
            red_ms: left(Color::Red),
            blue_ms: left(Color::Blue),
            move_ms: None,
            running: None,
        };
        self.online.clocks = Some((stopped, now));
    }

    // ----- messages -----

    fn info(&mut self, m: Msg) {
        self.status = Some(Status {
            text: self.t(m).to_string(),
            error: false,
        });
    }

    fn info_text(&mut self, text: String) {
        self.status = Some(Status { text, error: false });
    }

    fn error(&mut self, text: String) {
        self.status = Some(Status { text, error: true });
    }

    fn error_msg(&mut self, m: Msg) {
        self.error(self.t(m).to_string());
    }

    /// "The game is over" with the keys that do something then: n is a new game offline, a
    /// rematch online (a new game where none can be had), and nothing to a spectator.
    fn game_over_msg(&self) -> Msg {
        if self.spectating() {
            Msg::GameOverWatching
        } else if self.opponent == Opponent::Online && self.rematch_possible() {
            Msg::GameOverOnline
        } else {
            Msg::GameOver
        }
    }

    /// Whether the status line shows `m`.
    fn status_is(&self, m: Msg) -> bool {
        self.status.as_ref().is_some_and(|s| s.text == self.t(m))
    }

    /// Clears the status line when it shows `m` (a question no longer asked).
    fn clear_status_if(&mut self, m: Msg) {
        if self.status.as_ref().is_some_and(|s| s.text == self.t(m)) {
            self.status = None;
        }
    }

    /// Whether this client watches an online game without a seat in it.
    pub fn spectating(&self) -> bool {
        self.opponent == Opponent::Online
            && self.online.game_id.is_some()
            && self.online.you.is_none()
    }

    /// The keys line for this client, its entries apart by two spaces: only the keys that do
    /// something now. A spectator's lists the keys a spectator can use (no moves, draws,
    /// resignation, takebacks or rematches); online, a live game's its moves, draw and
    /// resignation (and takebacks where the server takes them back: against its AI, at one
    /// keyboard), a finished one's looking back, analysis, the rematch and saving, and a seek
    /// waiting for an opponent only help and quit.
    pub fn keys_text(&self) -> String {
        if self.spectating() {
            return self.t(Msg::KeysWatch).to_string();
        }
        if self.opponent != Opponent::Online {
            return self.t(Msg::KeysHelp).to_string();
        }
        let mut keys = vec![Msg::KeyHelp, Msg::KeyQuit];
        if self.online.game_id.is_none() {
            // Connecting, or waiting for an opponent.
        } else if self.finished() {
            // `n`: a rematch where one can be had, else a new game (with a new opponent).
            let n = if self.rematch_possible() {
                Msg::KeyRematch
            } else {
                Msg::KeyNewGame
            };
            keys.extend([Msg::KeyReview, Msg::KeyAnalyse, n, Msg::KeySave]);
        } else {
            keys.extend([Msg::KeyMove, Msg::KeyDraw, Msg::KeyResign]);
            if !self.people_game() {
                keys.push(Msg::KeyTakeback);
            }
        }
        let keys: Vec<&str> = keys.into_iter().map(|m| self.t(m)).collect();
        keys.join("  ")
    }

    /// Whether leaving now would lose a game: a live online game in which this client has a
    /// seat (the server counts the seat as disconnected and, once the reconnect grace runs out,
    /// the game as lost; a guest's account cannot come back at all). `q` then asks first.
    pub fn leaving_loses(&self) -> bool {
        self.opponent == Opponent::Online
            && self.online.game_id.is_some()
            && self.online.you.is_some()
            && !self.finished()
    }

    /// The question `q` asks in a live online game (a guest is told it cannot come back).
    fn quit_confirm_msg(&self) -> Msg {
        if self.online.guest {
            Msg::QuitConfirmGuest
        } else {
            Msg::QuitConfirm
        }
    }

    // ----- keys -----

    fn key(&mut self, k: Key, now: Instant) -> Vec<Command> {
        if k == Key::CtrlC {
            self.quit = true;
            return vec![Command::Quit];
        }
        if self.help {
            if !self.scroll_help(k) {
                self.help = false;
                self.help_scroll = 0;
            }
            return Vec::new();
        }
        if self.prompt.is_some() {
            return self.prompt_key(k, now);
        }
        if !self.input.is_empty() {
            return self.input_key(k, now);
        }
        // A confirmation asked for (`!` to resign, `q` to leave a live game) is cancelled by
        // any other key, which then does what it does; its question leaves the status line.
        if k != Key::Char('!') && std::mem::take(&mut self.online.resign_armed) {
            self.clear_status_if(Msg::ResignConfirm);
        }
        let quit_armed = std::mem::take(&mut self.online.quit_armed);
        if quit_armed && k != Key::Char('q') {
            self.clear_status_if(self.quit_confirm_msg());
        }
        if self.finished() {
            let ply = self.shown_ply();
            match k {
                Key::Left => return self.review_to(ply.saturating_sub(1)),
                Key::Right => return self.review_to(ply + 1),
                Key::Home => return self.review_to(0),
                Key::End => return self.review_to(self.game.len()),
                _ => {}
            }
        }
        match k {
            Key::Up => self.step_cursor(0, 1),
            Key::Down => self.step_cursor(0, -1),
            Key::Left => self.step_cursor(-1, 0),
            Key::Right => self.step_cursor(1, 0),
            Key::Enter | Key::Char(' ') => return self.pick(now),
            Key::Esc => {
                self.selected = None;
                self.status = None;
            }
            Key::Tab => {
                self.glyphs = match self.glyphs {
                    Glyphs::Letters => Glyphs::Chinese,
                    Glyphs::Chinese => Glyphs::Letters,
                };
                self.info(match self.glyphs {
                    Glyphs::Letters => Msg::GlyphsLetters,
                    Glyphs::Chinese => Msg::GlyphsChinese,
                });
            }
            Key::Char('q') => {
                if self.leaving_loses() && !quit_armed {
                    self.online.quit_armed = true;
                    self.info(self.quit_confirm_msg());
                    return Vec::new();
                }
                self.quit = true;
                return vec![Command::Quit];
            }
            Key::Char('?') | Key::Char('h') => {
                self.help = true;
                self.help_scroll = 0;
            }
            Key::Char('v') => {
                self.flipped = !self.flipped;
                self.info(Msg::Flipped);
            }
            Key::Char('u') => return self.undo(now),
            Key::Char('n') => return self.new_game(now),
            Key::Char('s') => {
                let name = format!(
                    "jungle-{}.pgn",
                    chrono::Local::now().format("%Y%m%d-%H%M%S")
                );
                let path = self.save_dir.join(name);
                self.prompt = Some(Prompt::Save(path.display().to_string()));
            }
            Key::Char('o') => {
                if self.opponent == Opponent::Online {
                    self.error_msg(Msg::LoadOnlyOffline);
                } else {
                    self.prompt = Some(Prompt::Open(String::new()));
                }
            }
            Key::Char('i') => return self.hint_key(),
            Key::Char('x') => return self.analysis_key(),
            Key::Char('=') => return self.draw_key(),
            Key::Char('!') => return self.resign_key(),
            // Anything else starts a typed move (`g3g4`, `Rg4`, `鼠g4`); nonsense is reported
            // when Enter is pressed.
            Key::Char(c) if !c.is_control() => {
                self.input.push(c);
                self.status = None;
            }
            Key::Char(_)
            | Key::Backspace
            | Key::CtrlC
            | Key::Home
            | Key::End
            | Key::PageUp
            | Key::PageDown => {}
        }
        Vec::new()
    }

    /// The help's last first line: how far it scrolls on the screen the runtime reported (0
    /// where it fits, or where the size is not known or too small to draw anything).
    pub fn help_max_scroll(&self) -> u16 {
        self.help_view().map_or(0, |v| v.max_scroll())
    }

    /// The help laid out for the screen the runtime reported, by the renderer itself: the keys
    /// then scroll exactly as far as the screen draws.
    fn help_view(&self) -> Option<crate::ui::HelpView> {
        let (width, height) = self.screen?;
        crate::ui::help_view(self, ratatui::layout::Rect::new(0, 0, width, height))
    }

    /// A key pressed while the help is open: where the help does not fit, the scrolling keys
    /// move it (never past its top or its end; a page keeps the last line of the one before in
    /// view); whether `k` was one of them. Any other key, or any key where the help fits,
    /// closes it.
    fn scroll_help(&mut self, k: Key) -> bool {
        let Some(view) = self.help_view().filter(|v| v.max_scroll() > 0) else {
            return false;
        };
        let (at, page) = (self.help_scroll, view.rows.saturating_sub(1).max(1));
        let to = match k {
            Key::Up => at.saturating_sub(1),
            Key::Down => at.saturating_add(1),
            Key::PageUp => at.saturating_sub(page),
            Key::PageDown => at.saturating_add(page),
            Key::Home => 0,
            Key::End => u16::MAX,
            _ => return false,
        };
        self.help_scroll = to.min(view.max_scroll());
        true
    }

    /// Left, Right, Home and End in a finished game: show the position after `ply` plies (at
    /// most the game's length). An analysis shown goes on with the new position.
    fn review_to(&mut self, ply: usize) -> Vec<Command> {
        let analysing = self.analysis_shown().is_some();
        let ply = ply.min(self.game.len());
        self.review = (ply < self.game.len()).then_some(ply);
        self.selected = None;
        if analysing && self.analysis_shown().is_none() && self.may_analyse_shown() {
            return self.analyse();
        }
        Vec::new()
    }

    fn input_key(&mut self, k: Key, now: Instant) -> Vec<Command> {
        match k {
            Key::Char(c) if self.input.chars().count() < 12 => self.input.push(c),
            Key::Backspace => {
                self.input.pop();
            }
            Key::Esc => self.input.clear(),
            Key::Enter => {
                let text = std::mem::take(&mut self.input);
                return self.typed_move(text.trim(), now);
            }
            _ => {}
        }
        Vec::new()
    }

    fn prompt_key(&mut self, k: Key, now: Instant) -> Vec<Command> {
        let Some(p) = self.prompt.as_mut() else {
            return Vec::new();
        };
        let buf = match p {
            Prompt::Save(b) | Prompt::Open(b) => b,
        };
        match k {
            Key::Char(c) => buf.push(c),
            Key::Backspace => {
                buf.pop();
            }
            Key::Esc => self.prompt = None,
            Key::Enter => {
                if let Some(p) = self.prompt.take() {
                    let (Prompt::Save(path) | Prompt::Open(path)) = &p;
                    if path.trim().is_empty() {
                        // Nothing to save to or open: said here, the file system left alone.
                        self.error_msg(Msg::NoFileName);
                        return Vec::new();
                    }
                    match p {
                        Prompt::Save(path) => self.save(path.trim()),
                        Prompt::Open(path) => {
                            if let Some(mut out) = self.load(path.trim()) {
                                // The engine moves at once when the loaded game has it to move.
                                out.extend(self.maybe_think(now));
                                return out;
                            }
                        }
                    }
                }
            }
            _ => {}
        }
        Vec::new()
    }

    fn reset_cursor(&mut self) {
        let bottom = if self.flipped {
            Color::Blue
        } else {
            Color::Red
        };
        let rank = if bottom == Color::Red { 2 } else { 6 };
        self.cursor = Square::from_coords(3, rank).unwrap_or(Square::D3);
    }

    /// Moves the cursor by a screen direction (up = away from the player at the bottom).
    fn step_cursor(&mut self, dx: i8, dy: i8) {
        let (dx, dy) = if self.flipped { (-dx, -dy) } else { (dx, dy) };
        let f = self.cursor.file() as i8 + dx;
        let r = self.cursor.rank() as i8 + dy;
        if let Some(sq) = Square::from_coords(f.clamp(0, 6) as u8, r.clamp(0, 8) as u8) {
            self.cursor = sq;
        }
    }

    fn pick(&mut self, now: Instant) -> Vec<Command> {
        if !self.can_move() {
            // With an animal picked, this was a move.
            self.explain_cannot_move(self.selected.is_some());
            return Vec::new();
        }
        let pos = *self.game.position();
        let own = pos
            .piece_at(self.cursor)
            .is_some_and(|p| p.color == pos.turn());
        match self.selected {
            Some(from) if from == self.cursor => {
                self.selected = None;
            }
            Some(from) if self.targets().contains(self.cursor) => {
                self.selected = None;
                return self.play(Move::new(from, self.cursor), now);
            }
            _ if own => {
                let has_moves = self
                    .game
                    .legal_moves()
                    .iter()
                    .any(|m| m.from() == Some(self.cursor));
                if has_moves {
                    self.selected = Some(self.cursor);
                    self.status = None;
                } else {
                    self.selected = None;
                    self.error_msg(Msg::AnimalCannotMove);
                }
            }
            Some(from) => {
                let m = Move::new(from, self.cursor);
                if let Some(why) = self.game.why_illegal(m) {
                    self.error(self.illegal(illegal_text(self.lang, &why)));
                }
            }
            None => self.error_msg(Msg::ChooseOwnAnimal),
        }
        Vec::new()
    }

    /// Why the person at the keyboard cannot move now (`moving`: a move was made, not only an
    /// animal picked).
    fn explain_cannot_move(&mut self, moving: bool) {
        if self.finished() {
            self.error_msg(self.game_over_msg());
        } else if self.online.disconnected.is_some() {
            // A move is said not sent, even where "Disconnected" is on the status line already:
            // it would otherwise look taken, and it will not be sent once the link is back.
            self.error_msg(if moving {
                Msg::NotSentDisconnected
            } else {
                Msg::Disconnected
            });
        } else if self.spectating() {
            self.info(Msg::Spectating);
        } else if self.opponent == Opponent::Online && self.online.game_id.is_none() {
            // No game yet: the seek is still waiting for an opponent.
            self.info_text(self.waiting_text());
        } else {
            self.error_msg(Msg::NotYourTurn);
        }
    }

    fn typed_move(&mut self, text: &str, now: Instant) -> Vec<Command> {
        if text.is_empty() {
            return Vec::new();
        }
        if !self.can_move() {
            self.explain_cannot_move(true);
            return Vec::new();
        }
        let mt: MoveText = match text.parse() {
            Ok(mt) => mt,
            Err(_) => {
                self.error(
                    self.lang
                        .detail(self.t(Msg::CannotReadMove), self.lang.screen_quote(text)),
                );
                return Vec::new();
            }
        };
        if mt == MoveText::Pass {
            self.error_msg(Msg::PassOnlyOnline);
            return Vec::new();
        }
        match mt.to_move(self.game.position()) {
            Ok(m) => match self.game.why_illegal(m) {
                None => {
                    self.selected = None;
                    self.play(m, now)
                }
                Some(why) => {
                    let why = illegal_text(self.lang, &why);
                    self.error(self.illegal(self.lang.detail(&self.lang.screen_quote(text), why)));
                    Vec::new()
                }
            },
            Err(e) => {
                let why = illegal_text(self.lang, &e.why);
                self.error(self.illegal(self.lang.detail(&self.lang.screen_quote(text), why)));
                Vec::new()
            }
        }
    }

    /// Plays a legal move of the person at the keyboard.
    fn play(&mut self, m: Move, now: Instant) -> Vec<Command> {
        if self.opponent == Opponent::Online {
            let Some(id) = self.online.game_id.clone() else {
                return Vec::new();
            };
            // The server is the referee: the board changes when its `moved` arrives.
            return vec![Command::Send(send::play(
                &id,
                self.game.len(),
                &m.to_string(),
            ))];
        }
        if let Err(e) = self.game.play(m) {
            self.error(self.illegal(illegal_text(self.lang, &e.why)));
            return Vec::new();
        }
        self.cursor = m.to_sq();
        self.after_move(now)
    }

    fn after_move(&mut self, now: Instant) -> Vec<Command> {
        self.selected = None;
        if let Some(r) = self.result_text() {
            self.info_text(r);
            return Vec::new();
        }
        self.status = None;
        self.maybe_think(now)
    }

    /// Starts the engine when it is to move.
    fn maybe_think(&mut self, now: Instant) -> Vec<Command> {
        let Opponent::Engine { level, human } = self.opponent else {
            return Vec::new();
        };
        if self.game.outcome().is_some()
            || self.game.position().turn() == human
            || self.thinking.is_some()
        {
            return Vec::new();
        }
        self.generation += 1;
        self.thinking = Some(now);
        vec![Command::Think {
            generation: self.generation,
            game: Box::new(self.game.clone()),
            level,
        }]
    }

    /// Whether the engine may help the person at the keyboard (hints, analysis): in a game on this
    /// machine, or online against the server's AI or at one keyboard — not against a person
    /// elsewhere, where it would be the engine playing for them.
    fn engine_may_help(&self) -> bool {
        self.opponent != Opponent::Online
            || self.online.ai_levels.iter().any(Option::is_some)
            || self.online.you == Some(Seat::Both)
    }

    /// `i`: ask the engine for a hint, on the keyboard's turn, in a game on this machine or, online,
    /// against the server's AI or at one keyboard (a hint against a person elsewhere would be the
    /// engine playing for you).
    fn hint_key(&mut self) -> Vec<Command> {
        if self.spectating() {
            self.error_msg(Msg::HintSpectator);
            return Vec::new();
        }
        if !self.engine_may_help() {
            self.error_msg(Msg::HintPeople);
            return Vec::new();
        }
        if self.game.outcome().is_some() {
            self.error_msg(self.game_over_msg());
            return Vec::new();
        }
        if !self.can_move() {
            self.error_msg(Msg::NotYourTurn);
            return Vec::new();
        }
        self.generation += 1;
        self.hint = Some((self.generation, *self.game.position()));
        // One search at a time: a pending analysis is given up.
        self.analysis = None;
        self.info(Msg::HintWait);
        vec![Command::Hint {
            generation: self.generation,
            game: Box::new(self.game.clone()),
        }]
    }

    /// `x`: analyse the position on the board (its best moves, each with its score and line), or
    /// hide the analysis shown. Not while the engine thinks for its side (one search at a time),
    /// nor in a live online game between people (it would be the engine playing for you).
    fn analysis_key(&mut self) -> Vec<Command> {
        if self.analysis_shown().is_some() {
            self.analysis = None;
            return Vec::new();
        }
        if self.spectating() && !self.finished() {
            self.error_msg(Msg::AnalysisSpectator);
            return Vec::new();
        }
        if !self.engine_may_help() && !self.finished() {
            self.error_msg(Msg::AnalysisPeople);
            return Vec::new();
        }
        if !self.may_analyse_shown() {
            self.error_msg(self.game_over_msg());
            return Vec::new();
        }
        if self.thinking.is_some() {
            self.error_msg(Msg::AnalysisBusy);
            return Vec::new();
        }
        self.analyse()
    }

    /// Whether the position shown has moves to analyse (not the last one of a game that ended
    /// on the board).
    fn may_analyse_shown(&self) -> bool {
        self.shown_ply() < self.game.len() || self.game.outcome().is_none()
    }

    /// Asks for an analysis of the position shown.
    fn analyse(&mut self) -> Vec<Command> {
        self.generation += 1;
        // One search at a time: a pending hint is given up.
        self.hint = None;
        self.analysis = Some(Analysis {
            generation: self.generation,
            position: *self.shown_position(),
            result: None,
        });
        vec![Command::Analyse {
            generation: self.generation,
            game: Box::new(self.shown_game()),
        }]
    }

    /// The analysis arrived: kept if it is for the position still on the board.
    fn analysis_answer(&mut self, generation: u64, result: SearchResult) {
        let shown = *self.shown_position();
        if let Some(a) = self.analysis.as_mut() {
            if a.generation == generation && a.position == shown {
                a.result = Some(result);
            }
        }
    }

    /// The analysis of the position on the board, asked for or answered (none once the position
    /// has changed).
    pub fn analysis_shown(&self) -> Option<&Analysis> {
        self.analysis
            .as_ref()
            .filter(|a| a.position == *self.shown_position())
    }

    /// A search score as text, for the side to move in the position analysed: `+0.35`, or who
    /// wins in how many moves (as the browser's analysis shows it).
    pub fn score_text(&self, score: Score) -> String {
        let turn = self.shown_position().turn();
        match score {
            Score::Cp(cp) => format!("{:+.2}", f64::from(cp) / 100.0),
            Score::Den(n) => {
                let side = color_name(self.lang, if n > 0 { turn } else { !turn });
                Msg::EvalDen.fill(self.lang, &[("side", &side), ("n", &n.unsigned_abs())])
            }
        }
    }

    /// The moves of a line from the position on the board, in the notation the board shows
    /// (`Lf3 tb8 ...`), at most `max` of them (then `...`).
    pub fn line_text(&self, pv: &[Move], max: usize) -> String {
        let mut pos = *self.shown_position();
        let mut words = Vec::new();
        for &m in pv.iter().take(max) {
            if !pos.is_legal(m) {
                break;
            }
            words.push(self.san_text(San::from_move(&pos, m)));
            pos.play_unchecked(m);
        }
        if pv.len() > max {
            // ASCII: `…` is East-Asian-ambiguous, two columns in some terminals.
            words.push("...".to_string());
        }
        words.join(" ")
    }

    /// The hint arrived: its animal is picked and the cursor put on its destination, so that
    /// Enter plays it (any other key goes on as usual).
    fn hint_answer(&mut self, generation: u64, mv: Option<Move>) {
        match self.hint.take() {
            Some((g, pos)) if g == generation && pos == *self.game.position() => {}
            other => {
                self.hint = other.filter(|(g, _)| *g != generation);
                return; // an answer for a game that has changed since
            }
        }
        let step = mv
            .filter(|&m| self.game.is_legal(m))
            .and_then(|m| Some((m, m.from()?, m.to()?))); // not a pass
        match step {
            Some((m, from, to)) => {
                let text = self.san_text(San::from_move(self.game.position(), m));
                self.selected = Some(from);
                self.cursor = to;
                self.info_text(Msg::Hint.fill(self.lang, &[("move", &text)]));
            }
            None => self.error_msg(Msg::EngineNoMove),
        }
    }

    /// A move in the notation the board shows: letters (`Rg4`) or, with Chinese glyphs, the
    /// animal's character (`鼠g4`).
    pub fn san_text(&self, s: San) -> String {
        match (self.glyphs, s.0) {
            (Glyphs::Chinese, MoveText::San { role, .. }) => {
                let letters = s.to_string();
                format!("{}{}", role_char(self.lang, role), &letters[1..])
            }
            _ => s.to_string(),
        }
    }

    fn ai_move(&mut self, generation: u64, mv: Option<Move>, now: Instant) -> Vec<Command> {
        if generation != self.generation || self.thinking.is_none() {
            return Vec::new(); // an answer for a game that has changed since
        }
        self.thinking = None;
        match mv {
            Some(m) if self.game.is_legal(m) && !m.is_pass() => {
                self.game.play_unchecked(m);
                self.after_move(now)
            }
            Some(m) => {
                self.error(self.lang.detail(self.t(Msg::EngineNoMove), m));
                Vec::new()
            }
            None => {
                self.error_msg(Msg::EngineNoMove);
                Vec::new()
            }
        }
    }

    fn undo(&mut self, now: Instant) -> Vec<Command> {
        match self.opponent {
            Opponent::Online => {
                let is_ai_game = self.online.ai_levels.iter().any(Option::is_some);
                match (&self.online.game_id, is_ai_game) {
                    (Some(id), true) => {
                        // The server answers with the game as it was: the hint shown (and the
                        // animal picked) were for the position taken back.
                        let cmd = Command::Send(send::about("takeback", id));
                        self.hint = None;
                        self.selected = None;
                        self.info(Msg::Undone);
                        vec![cmd]
                    }
                    _ => {
                        self.error_msg(Msg::TakebackOnlyAi);
                        Vec::new()
                    }
                }
            }
            Opponent::Hotseat => {
                self.review = None;
                if self.game.undo().is_some() {
                    self.selected = None;
                    self.info(Msg::Undone);
                } else {
                    self.error_msg(Msg::UndoNothing);
                }
                Vec::new()
            }
            Opponent::Engine { human, .. } => {
                // Cancel a search in progress: its answer is for a game that no longer is.
                let mut out = self.stop_search();
                let was_thinking = !out.is_empty();
                let mut undone = 0;
                self.review = None;
                while let Some(p) = self.game.undo() {
                    undone += 1;
                    if p.color == human {
                        break;
                    }
                }
                self.selected = None;
                if undone == 0 && !was_thinking {
                    self.error_msg(Msg::UndoNothing);
                } else {
                    self.info(Msg::Undone);
                }
                out.extend(self.maybe_think(now));
                out
            }
        }
    }

    /// Invalidates the running search, if any, and asks the runtime to stop it.
    fn stop_search(&mut self) -> Vec<Command> {
        self.generation += 1;
        if self.thinking.take().is_some() {
            vec![Command::StopThinking]
        } else {
            Vec::new()
        }
    }

    fn new_game(&mut self, now: Instant) -> Vec<Command> {
        if self.opponent == Opponent::Online {
            let Some(id) = self.online.game_id.clone() else {
                return Vec::new();
            };
            if self.spectating() {
                self.info(Msg::RematchSpectator);
                return Vec::new();
            }
            if self.online.result.is_none() {
                self.error_msg(Msg::GameStillOn);
                return Vec::new();
            }
            // An aborted game has none (the server refuses it): a new opponent, or against
            // the AI and at one keyboard the same kind of game anew.
            if self.aborted() {
                let again = self
                    .online_start
                    .clone()
                    .filter(|m| m["t"] == "play_ai" || m["t"] == "play_hotseat");
                return match again {
                    Some(first) if !self.people_game() => {
                        self.info(Msg::NewGame);
                        vec![Command::Send(first)]
                    }
                    _ => self.seek_new_opponent(Msg::AbortedNewSeek),
                };
            }
            // A rematch waits for an opponent who is gone (or for a game the server no longer
            // keeps) for ever: a new opponent is looked for instead.
            if self.opponent_gone() {
                return self.seek_new_opponent(Msg::OpponentLeftNewSeek);
            }
            if self.people_game() && self.online.rematch_open == Some(false) {
                return self.seek_new_opponent(Msg::RematchClosedNewSeek);
            }
            if self.people_game() && self.online.rematch_asked {
                return self.seek_new_opponent(Msg::NoRematchNewSeek);
            }
            if self.people_game() {
                self.online.rematch_asked = true;
                self.info(Msg::RematchAsked);
            } else {
                self.info(Msg::RematchSent);
            }
            return vec![Command::Send(send::about("rematch", &id))];
        }
        let mut out = self.stop_search();
        self.game = Game::from_position(self.start);
        self.review = None;
        self.selected = None;
        self.reset_cursor();
        self.info(Msg::NewGame);
        out.extend(self.maybe_think(now));
        out
    }

    /// Whether the shown online game was aborted.
    fn aborted(&self) -> bool {
        self.online
            .result
            .as_ref()
            .is_some_and(|r| r.reason == "aborted")
    }

    /// Whether `n` can ask for a rematch of the finished online game shown: not of an aborted
    /// game, and between people only while the opponent is there and the server still takes
    /// one.
    fn rematch_possible(&self) -> bool {
        !self.aborted()
            && (!self.people_game()
                || (!self.opponent_gone() && self.online.rematch_open != Some(false)))
    }

    /// Whether the shown online game is this client's against a person elsewhere (one seat,
    /// no AI in the other).
    pub fn people_game(&self) -> bool {
        self.opponent == Opponent::Online
            && matches!(self.online.you, Some(Seat::Red | Seat::Blue))
            && self.online.ai_levels.iter().all(Option::is_none)
    }

    /// The colour of this client's opponent in a game against a person elsewhere.
    fn opponent_color(&self) -> Option<Color> {
        match self.online.you {
            Some(Seat::Red) if self.people_game() => Some(Color::Blue),
            Some(Seat::Blue) if self.people_game() => Some(Color::Red),
            _ => None,
        }
    }

    /// Whether the opponent of this client's finished game against a person has gone: away
    /// when it ended (the server says no more presence of a finished game), or it lost by
    /// leaving or by not coming back.
    pub fn opponent_gone(&self) -> bool {
        let (Some(them), Some(r)) = (self.opponent_color(), &self.online.result) else {
            return false;
        };
        let lost_by_going = matches!(r.reason.as_str(), "left" | "disconnect")
            && r.winner.map(Side::color) == Some(!them);
        !self.online.presence[them.index()] || lost_by_going
    }

    /// Leaves the finished game shown for a new seek (`quick`, with the time control of this
    /// client's seek, else of that game), saying `why`.
    fn seek_new_opponent(&mut self, why: Msg) -> Vec<Command> {
        let tc = self.seek_tc().or(self.online.tc).unwrap_or(TimeControl {
            clock_s: 600,
            inc_s: 0,
            move_s: 60,
        });
        let first = send::quick(tc);
        // After a reconnect, the seek is made again rather than the old game watched.
        self.online_start = Some(first.clone());
        let mut out = self.stop_search();
        self.online = OnlineState {
            welcomed: self.online.welcomed,
            name: self.online.name.take(),
            guest: self.online.guest,
            lobby: self.online.lobby,
            disconnected: self.online.disconnected.take(),
            ..OnlineState::default()
        };
        self.start = Position::start(Rules::STANDARD);
        self.game = Game::from_position(self.start);
        self.review = None;
        self.analysis = None;
        self.hint = None;
        self.selected = None;
        self.info(why);
        out.push(Command::Send(first));
        out
    }

    fn draw_key(&mut self) -> Vec<Command> {
        let Some(id) = self.online.game_id.clone() else {
            return Vec::new();
        };
        if self.online.result.is_some() || self.online.you.is_none() {
            return Vec::new();
        }
        let offered_by_other = self
            .online
            .draw_offer
            .is_some_and(|s| self.online.you.is_some_and(|y| !y.plays(s.color())));
        if offered_by_other {
            vec![Command::Send(send::about("draw_accept", &id))]
        } else {
            self.info(Msg::DrawOfferSent);
            vec![Command::Send(send::about("draw_offer", &id))]
        }
    }

    fn resign_key(&mut self) -> Vec<Command> {
        let Some(id) = self.online.game_id.clone() else {
            return Vec::new();
        };
        if self.online.result.is_some() || self.online.you.is_none() {
            return Vec::new();
        }
        if self.online.resign_armed {
            self.online.resign_armed = false;
            vec![Command::Send(send::about("resign", &id))]
        } else {
            self.online.resign_armed = true;
            self.info(Msg::ResignConfirm);
            Vec::new()
        }
    }

    // ----- records -----

    /// The game record of the game shown (RULES §10).
    pub fn record(&self) -> GameRecord {
        let date = chrono::Local::now().format("%Y.%m.%d").to_string();
        let red = self.record_name(Color::Red);
        let blue = self.record_name(Color::Blue);
        let event = if self.opponent == Opponent::Online {
            "Online"
        } else {
            "Casual"
        };
        let tc = self
            .online
            .tc
            .filter(|_| self.opponent == Opponent::Online)
            .map(|tc| tc.to_string());
        // In the order of RULES §10's example: `from_game` fills in Result and Variant.
        let mut tags = vec![
            ("Event", event),
            ("Site", "jungle play"),
            ("Date", date.as_str()),
            ("Red", red.as_str()),
            ("Blue", blue.as_str()),
            ("Result", "*"),
            ("Variant", "standard"),
        ];
        if let Some(tc) = &tc {
            tags.push(("TimeControl", tc));
        }
        let mut rec = GameRecord::from_game(&self.game, &tags);
        if let Some(r) = &self.online.result {
            let result = match r.winner {
                Some(Side::Red) => "1-0",
                Some(Side::Blue) => "0-1",
                None => "1/2-1/2",
            };
            // Refused only against an end the board shows (the server ends such a game with
            // the board's result): the record then keeps the board's.
            let _ = rec.set_result(result, &r.reason);
        }
        rec
    }

    fn record_name(&self, c: Color) -> String {
        match self.opponent {
            Opponent::Engine { level, human } if c != human => format!("Jungle AI level {level}"),
            Opponent::Online => self.online.names[c.index()].clone(),
            _ => "Player".to_string(),
        }
    }

    fn save(&mut self, path: &str) {
        let text = self.record().to_string();
        match std::fs::write(path, text) {
            Ok(()) => self.info_text(Msg::Saved.fill(self.lang, &[("path", &path)])),
            Err(e) => {
                let head = Msg::CannotSave.fill(self.lang, &[("path", &path)]);
                // Not found, when writing: the folder it would go in is not there.
                let folder = std::path::Path::new(path)
                    .parent()
                    .filter(|p| !p.as_os_str().is_empty());
                let why = match folder {
                    Some(f) if e.kind() == std::io::ErrorKind::NotFound && !f.is_dir() => {
                        self.t(Msg::FolderNotFound).to_string()
                    }
                    _ => io_error_text(self.lang, &e),
                };
                self.error(self.lang.detail(&head, why))
            }
        }
    }

    /// Loads a record; on success, the commands that stop a search of the game replaced.
    fn load(&mut self, path: &str) -> Option<Vec<Command>> {
        let fail = |app: &mut App, why: String| {
            let head = Msg::CannotOpen.fill(app.lang, &[("path", &path)]);
            app.error(app.lang.detail(&head, why));
            None
        };
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => return fail(self, io_error_text(self.lang, &e)),
        };
        // An empty file is no game (the reader would take it for a new one).
        let blank = text.chars().all(|c| c.is_whitespace() || c == '\u{feff}');
        let game = match text.parse::<GameRecord>() {
            _ if blank => Err(RecordProblem::Empty),
            Err(e) => Err(RecordProblem::Syntax(e)),
            Ok(rec) => rec.to_game().map_err(RecordProblem::Replay),
        };
        let game = match game {
            Ok(g) => g,
            Err(e) => return fail(self, record_error_text(self.lang, &e)),
        };
        let out = self.stop_search();
        self.start = *game.start_position();
        self.game = game;
        self.review = None;
        self.selected = None;
        self.info_text(Msg::Loaded.fill(self.lang, &[("path", &path)]));
        Some(out)
    }

    // ----- server -----

    fn server(&mut self, msg: ServerMsg, now: Instant) -> Vec<Command> {
        let is_ours = |app: &App, g: &Value| app.online.game_id.as_ref() == Some(g);
        match msg {
            ServerMsg::Welcome { user, games } => {
                self.online.welcomed = true;
                self.online.guest = user["guest"].as_bool().unwrap_or(false);
                self.online.name = user["name"].as_str().map(str::to_string);
                self.online.disconnected = None;
                self.status = None;
                // After a reconnect: the game shown, whatever became of it meanwhile.
                if let Some(g) = self.online.game_id.clone() {
                    return vec![Command::Send(send::watch(&g))];
                }
                // Asked to watch a game: that one, not our own live games.
                let watching = self
                    .online_start
                    .as_ref()
                    .is_some_and(|m| m["t"] == "watch");
                if let (Some(g), false) = (games.first(), watching) {
                    return vec![Command::Send(send::watch(g))];
                }
                if let Some(first) = self.online_start.clone() {
                    return vec![Command::Send(first)];
                }
            }
            ServerMsg::SeekCreated { .. } | ServerMsg::ChallengeCreated { .. } => {
                self.online.waiting = true;
                // Why a new opponent is looked for stays said (the panel says the waiting).
                let why = [
                    Msg::OpponentLeftNewSeek,
                    Msg::RematchClosedNewSeek,
                    Msg::NoRematchNewSeek,
                ];
                if !why.iter().any(|&m| self.status_is(m)) {
                    self.info_text(self.waiting_text());
                }
                // While it waits, the other seeks show why none was taken (another time
                // control) and what to start with to play one.
                if !self.online.lobby {
                    self.online.lobby = true;
                    return vec![Command::Send(send::lobby())];
                }
            }
            // Kept only while waiting (the lobby goes on sending them during the game).
            ServerMsg::Seeks { seeks } if self.online.waiting => {
                self.online.seeks = OpenSeek::read_all(&seeks);
            }
            ServerMsg::Game { game } => self.adopt_state(*game, now),
            ServerMsg::Moved {
                game,
                ply,
                mv,
                clocks,
                timeouts,
            } if is_ours(self, &game) => {
                if ply < self.game.len() {
                    // A repeat of a ply already applied (the server answers re-sends again).
                    return Vec::new();
                }
                let parsed = mv
                    .parse::<MoveText>()
                    .ok()
                    .and_then(|t| t.to_move(self.game.position()).ok());
                let applied =
                    ply == self.game.len() && parsed.is_some_and(|m| self.game.play(m).is_ok());
                if !applied {
                    // Out of step with the server: ask for the whole state again.
                    return vec![Command::Send(send::watch(&game))];
                }
                self.online.draw_offer = None;
                if let Some(c) = clocks {
                    self.online.clocks = Some((c, now));
                }
                if let Some(t) = timeouts {
                    self.online.timeouts = t;
                }
                self.selected = None;
                self.status = None;
            }
            ServerMsg::DrawOffered { game, by } if is_ours(self, &game) => {
                let side = if by == "red" { Side::Red } else { Side::Blue };
                self.online.draw_offer = Some(side);
                if self.online.you.is_some_and(|y| !y.plays(side.color())) {
                    self.info(Msg::DrawOffered);
                }
            }
            ServerMsg::DrawDeclined { game, by } if is_ours(self, &game) => {
                self.online.draw_offer = None;
                // Said to the players whose offer it was (not to the one declining, nor to
                // spectators); it replaces "Draw offered".
                let declined_by_us = by.is_some_and(|s| {
                    self.online.you != Some(Seat::Both)
                        && self.online.you.is_some_and(|y| y.plays(s.color()))
                });
                if self.online.you.is_some() && !declined_by_us {
                    self.info(Msg::DrawDeclined);
                }
            }
            ServerMsg::DrawLapsed { game, by } if is_ours(self, &game) => {
                // After the ply's `moved` (which cleared the offer already): said to the player
                // whose offer it was, once (not at one keyboard, where both offered nothing
                // apart, nor to spectators). A ply that ends the game is said by its `ended`.
                self.online.draw_offer = None;
                let ours = matches!(
                    (self.online.you, by),
                    (Some(Seat::Red), Side::Red) | (Some(Seat::Blue), Side::Blue)
                );
                if ours && self.game.outcome().is_none() {
                    self.info(Msg::DrawLapsed);
                }
            }
            ServerMsg::Presence {
                game,
                red,
                blue,
                away_ms,
            } if is_ours(self, &game) => {
                let before = self.online.presence;
                self.online.presence = [red, blue];
                self.online.away = away_ms.map(|a| ([a.red, a.blue], now));
                // The player is told when their opponent goes away during the game and when
                // they come back (the time left to come back is shown beside their clock).
                if let Some(them) = self.opponent_color().filter(|_| !self.finished()) {
                    let (was, is) = (before[them.index()], self.online.presence[them.index()]);
                    if was && !is {
                        self.info(Msg::OpponentAway);
                    } else if !was && is {
                        self.info(Msg::OpponentBack);
                    }
                }
            }
            ServerMsg::Ended {
                game,
                result,
                timeouts,
                changes,
                by,
            } if is_ours(self, &game) => {
                self.online.aborted_by = by.filter(|_| result.reason == "aborted");
                // Changes for nobody, in a game between two people apart (whose seats each have
                // theirs): the result is not stored yet, and a `changes` message follows.
                let people = self.online.you != Some(Seat::Both)
                    && self.online.ai_levels.iter().all(Option::is_none);
                self.online.changes_pending = people
                    && result.reason != "aborted"
                    && changes.is_none_or(|c| c.red.is_none() && c.blue.is_none());
                self.online.changes = changes;
                // `ended` has no clocks: they stop where they were counted down to, not at the
                // last report (which would put back the time used since).
                self.stop_clocks(now);
                if let Some(t) = timeouts {
                    self.online.timeouts = t;
                }
                self.online.result = Some(result);
                self.online.draw_offer = None;
                self.selected = None;
                if let Some(r) = self.result_text() {
                    self.info_text(r);
                }
            }
            ServerMsg::Changes { game, changes } if is_ours(self, &game) => {
                self.online.changes = Some(changes);
                self.online.changes_pending = false;
            }
            ServerMsg::RematchClosed { game } if is_ours(self, &game) => {
                self.online.rematch_open = Some(false);
                if self.people_game() {
                    self.info(Msg::RematchClosed);
                }
            }
            ServerMsg::RematchOffered { game, by } if is_ours(self, &game) => {
                let side = if by == "red" { Side::Red } else { Side::Blue };
                if self.online.you.is_some_and(|y| !y.plays(side.color())) {
                    self.info(Msg::RematchOffered);
                }
            }
            ServerMsg::Error {
                code,
                message,
                why,
                re,
            } => {
                if code == "not_found" && re.as_deref() == Some("watch") {
                    if let Some(id) = self
                        .watch_target()
                        .filter(|_| self.online.game_id.is_none())
                    {
                        // The game asked for on the command line does not exist: nothing to
                        // show, so the program ends and says so on the plain terminal.
                        let text = Msg::WatchNotFound.fill(self.lang, &[("id", &id)]);
                        self.error(text.clone());
                        self.exit_error = Some(text);
                        self.quit = true;
                        return vec![Command::Quit];
                    }
                }
                let why = why.as_ref().and_then(|w| {
                    let params: Vec<(&str, &str)> = w
                        .as_object()?
                        .iter()
                        .filter_map(|(k, v)| Some((k.as_str(), v.as_str()?)))
                        .collect();
                    let code = w.get("code")?.as_str()?;
                    why_text(self.lang, code, &params)
                });
                // A rematch the server will not start (the opponent is away, or the game is no
                // longer kept): a new opponent is looked for instead of waiting.
                if re.as_deref() == Some("rematch") && self.people_game() && self.finished() {
                    match code.as_str() {
                        "opponent_offline" => {
                            return self.seek_new_opponent(Msg::OpponentLeftNewSeek)
                        }
                        "not_found" | "rematch_closed" | "game_over" => {
                            return self.seek_new_opponent(Msg::RematchClosedNewSeek)
                        }
                        "aborted_no_rematch" => return self.seek_new_opponent(Msg::AbortedNewSeek),
                        _ => {}
                    }
                }
                match why {
                    Some(why) if code == "illegal_move" => self.error(self.illegal(why)),
                    _ => self.error(server_error_text(self.lang, &code, &message)),
                }
            }
            _ => {}
        }
        Vec::new()
    }

    /// The id of the game this client was started to watch (`--watch`), as written.
    fn watch_target(&self) -> Option<String> {
        let start = self.online_start.as_ref().filter(|m| m["t"] == "watch")?;
        Some(match &start["game"] {
            Value::String(id) => id.clone(),
            other => other.to_string(),
        })
    }

    /// Replaces the shown game by the server's state.
    fn adopt_state(&mut self, st: GameState, now: Instant) {
        let rules: Rules = match st.rules.as_deref().unwrap_or("standard").parse() {
            Ok(r) => r,
            Err(e) => return self.error(self.lang.detail(self.t(Msg::ServerError), e)),
        };
        let start = match st.start_fen.as_deref() {
            Some(f) => match Jfen::parse_position(f, rules) {
                Ok(p) => p,
                Err(e) => return self.error(self.lang.detail(self.t(Msg::ServerError), e)),
            },
            None => Position::start(rules),
        };
        let mut game = Game::from_position(start);
        for (i, entry) in st.moves.iter().enumerate() {
            let played = entry
                .mv
                .parse::<MoveText>()
                .map_err(|e| e.to_string())
                .and_then(|t| t.to_move(game.position()).map_err(|e| e.reason))
                .and_then(|m| game.play(m).map_err(|e| e.reason));
            if let Err(why) = played {
                let detail = format!("ply {} `{}`: {why}", i + 1, entry.mv);
                return self.error(self.lang.detail(self.t(Msg::ServerError), detail));
            }
        }
        let new_game = self.online.game_id.as_ref() != Some(&st.id);
        if new_game || game.len() != self.game.len() {
            self.review = None;
        }
        self.game = game;
        self.start = start;
        self.online.game_id = Some(st.id);
        self.online.you = st.you;
        self.online.names = [st.red.name, st.blue.name];
        self.online.tc = st.tc;
        self.online.ai_levels = [st.red.ai_level, st.blue.ai_level];
        self.online.clocks = st.clocks.map(|c| (c, now));
        self.online.timeouts = st.timeouts.unwrap_or_default();
        self.online.result = st.result.filter(|_| st.status != "live");
        self.online.draw_offer = st.draw_offer;
        self.online.presence = st.presence.map_or([true, true], |p| [p.red, p.blue]);
        self.online.away = st.away_ms.map(|a| ([a.red, a.blue], now));
        // Still pending (a state asked for again before the `changes` came) until it says them.
        let told = st
            .changes
            .is_some_and(|c| c.red.is_some() || c.blue.is_some());
        self.online.changes_pending &= !new_game && !told && st.status != "live";
        if new_game || st.status == "live" {
            self.online.aborted_by = None;
        }
        self.online.changes = st.changes;
        self.online.rematch_open = st.rematch_open.filter(|_| st.status != "live");
        self.online.waiting = false;
        self.online.seeks.clear();
        self.selected = None;
        if new_game {
            self.online.rematch_asked = false;
            self.flipped = self.online.you == Some(Seat::Blue);
            self.reset_cursor();
            self.status = None;
        }
        if let Some(r) = self.result_text() {
            self.info_text(r);
        }
    }

    /// The time control this client's seek waits for (that of its `quick`), if it sent one.
    pub fn seek_tc(&self) -> Option<TimeControl> {
        let start = self.online_start.as_ref().filter(|m| m["t"] == "quick")?;
        TimeControl::deserialize(&start["tc"]).ok()
    }

    /// "Waiting for an opponent", with the time control waited for where it is known, e.g.
    /// "Waiting for an opponent (10+0, 60s per move)": only a seek of the same one is taken.
    pub fn waiting_text(&self) -> String {
        let waiting = self.t(Msg::Waiting);
        match self.seek_tc() {
            Some(tc) => self.lang.aside(waiting, tc_text(self.lang, tc)),
            None => waiting.to_string(),
        }
    }

    /// The lobby's other open seeks that quick pairing does not take for this client's seek (of
    /// other players, with another time control, standard rules), each as its player, its time
    /// control and the `--tc` to start with to play it, e.g. "alice: 5+3 (--tc=300+3/0)" (in
    /// one piece, which no line breaks).
    pub fn other_seeks(&self) -> Vec<String> {
        let ours = self.seek_tc();
        self.online
            .seeks
            .iter()
            .filter(|s| {
                Some(&s.user) != self.online.name.as_ref()
                    && Some(s.tc) != ours
                    && s.rules == "standard"
            })
            .map(|s| {
                let who = shown_name(self.lang, &s.user);
                let tc = self.lang.detail(&who, tc_text(self.lang, s.tc));
                self.lang.aside(&tc, format!("--tc={}", s.tc))
            })
            .collect()
    }

    /// The status line text for the side to move, e.g. `Red's turn`.
    pub fn turn_text(&self) -> String {
        let c = self.game.position().turn();
        let side = color_name(self.lang, c);
        Msg::TurnOf.fill(self.lang, &[("side", &side)])
    }

    /// How long the engine has been thinking.
    pub fn thinking_for(&self, now: Instant) -> Option<Duration> {
        self.thinking.map(|t| now.saturating_duration_since(t))
    }
}
