//! The message catalogue: every text the terminal client shows, in English, Simplified Chinese
//! and Traditional Chinese. Nothing user-facing is written inline anywhere else.
//!
//! The texts live in `web/messages.json`, the one catalogue of both clients (and of `jungle
//! play`'s command line): the browser client fetches it and this crate embeds it at compile
//! time. Each entry is `[简体中文, 繁體中文, English]`; `{name}` marks a parameter. The terminal
//! client's own entries start with `tui_`, `jungle play`'s command line's with `cli_play_`
//! ([`text`]); where the two clients say the same thing they share the entry.

use jungle::{Color, Illegal, Role, Termination};
use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

/// The shared catalogue, as the browser client serves it.
const CATALOGUE_JSON: &str = include_str!("../../../web/messages.json");

/// The parsed catalogue: key to `[简体中文, 繁體中文, English]`. Its tests prove that it parses;
/// were it ever unreadable, its texts would fall back to their keys rather than stop the client.
fn catalogue() -> &'static HashMap<String, [String; 3]> {
    static CATALOGUE: OnceLock<HashMap<String, [String; 3]>> = OnceLock::new();
    CATALOGUE.get_or_init(|| serde_json::from_str(CATALOGUE_JSON).unwrap_or_default())
}

/// The text of catalogue entry `key` in `lang`, if there is one.
fn lookup(lang: Lang, key: &str) -> Option<&'static str> {
    catalogue().get(key).map(|e| e[lang.index()].as_str())
}

/// The text of catalogue entry `key` in `lang`, or the key itself when the entry is missing.
fn entry(lang: Lang, key: &'static str) -> &'static str {
    lookup(lang, key).unwrap_or(key)
}

/// The text of catalogue entry `key` in `lang`, for texts looked up by key rather than through
/// [`Msg`] (`jungle play`'s command line: its `cli_play_…` entries); the key itself when the
/// catalogue lacks it (its users' tests prove every key they use is there). Fill its
/// `{parameters}` with [`fill`].
pub fn text(lang: Lang, key: &'static str) -> &'static str {
    entry(lang, key)
}

/// Whether the catalogue has an entry `key` (for tests of the texts looked up by key).
pub fn has_entry(key: &str) -> bool {
    catalogue().contains_key(key)
}

/// A display language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lang {
    /// English.
    En,
    /// Simplified Chinese (简体中文).
    ZhHans,
    /// Traditional Chinese (繁體中文).
    ZhHant,
}

impl Lang {
    /// The language a locale string asks for (`LC_ALL`, `LC_MESSAGES` or `LANG` form, e.g.
    /// `zh_CN.UTF-8`, `zh_TW.UTF-8`, `en_US.UTF-8`); English when it names no Chinese.
    pub fn from_locale(locale: &str) -> Lang {
        let l = locale.to_ascii_lowercase();
        if !l.starts_with("zh") {
            return Lang::En;
        }
        if l.contains("hant") || l.contains("_tw") || l.contains("_hk") || l.contains("_mo") {
            Lang::ZhHant
        } else {
            Lang::ZhHans
        }
    }

    /// The language of the environment, as gettext reads it: the first language of `LANGUAGE`
    /// (a list of preferences, `zh_TW:en`) that is Chinese or English, unless the locale is `C`
    /// or `POSIX`; else the first non-empty of `LC_ALL`, `LC_MESSAGES`, `LANG`.
    pub fn from_env() -> Lang {
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"]
            .iter()
            .filter_map(|k| std::env::var(k).ok())
            .find(|v| !v.is_empty());
        Lang::from_env_values(std::env::var("LANGUAGE").ok().as_deref(), locale.as_deref())
    }

    /// [`Lang::from_env`] for given values of `LANGUAGE` and of the locale.
    pub fn from_env_values(language: Option<&str>, locale: Option<&str>) -> Lang {
        let plain = locale.is_none_or(|l| l == "C" || l == "POSIX" || l.starts_with("C."));
        let preferred = language.filter(|_| !plain).and_then(|list| {
            list.split(':').find(|l| {
                let l = l.to_ascii_lowercase();
                l.starts_with("zh") || l.starts_with("en")
            })
        });
        preferred.or(locale).map_or(Lang::En, Lang::from_locale)
    }

    /// Whether this is one of the Chinese languages.
    pub fn is_chinese(self) -> bool {
        self != Lang::En
    }

    /// This language's column in the catalogue.
    fn index(self) -> usize {
        match self {
            Lang::ZhHans => 0,
            Lang::ZhHant => 1,
            Lang::En => 2,
        }
    }

    /// `head` followed by `detail`, joined the way this language writes it (`Cannot open x:
    /// why` / `无法打开 x：why`).
    pub fn detail(self, head: &str, detail: impl fmt::Display) -> String {
        let colon = if self.is_chinese() { "：" } else { ": " };
        format!("{head}{colon}{detail}")
    }

    /// Something the player typed, quoted the way this language quotes it (`g3g4` in English, “g3g4”
    /// in Simplified and 「g3g4」 in Traditional Chinese).
    pub fn quote(self, typed: &str) -> String {
        match self {
            Lang::En => format!("`{typed}`"),
            Lang::ZhHans => format!("“{typed}”"),
            Lang::ZhHant => format!("「{typed}」"),
        }
    }

    /// Something the player typed or a file holds, quoted for the screen: as [`Lang::quote`], but
    /// with 「」 in both Chinese scripts, since “” are East-Asian-ambiguous (two columns wide in
    /// many CJK terminals, which would shift what follows them on the row).
    pub fn screen_quote(self, typed: &str) -> String {
        match self {
            Lang::En => format!("`{typed}`"),
            Lang::ZhHans | Lang::ZhHant => format!("「{typed}」"),
        }
    }

    /// `head` with `aside` in parentheses, the way this language writes them (`Red wins (entered
    /// the den)` / `红方胜（攻入兽穴）`).
    pub fn aside(self, head: &str, aside: impl fmt::Display) -> String {
        if self.is_chinese() {
            format!("{head}（{aside}）")
        } else {
            format!("{head} ({aside})")
        }
    }
}

/// An unknown `--lang` value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseLangError(pub String);

impl fmt::Display for ParseLangError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown language `{}` (expected en, zh-Hans or zh-Hant)",
            self.0
        )
    }
}

impl std::error::Error for ParseLangError {}

impl FromStr for Lang {
    type Err = ParseLangError;
    fn from_str(s: &str) -> Result<Lang, ParseLangError> {
        let l = s.to_ascii_lowercase().replace('_', "-");
        match l.as_str() {
            "en" => Ok(Lang::En),
            // Any English (en-US, en-GB, …), as zh-CN is read as Simplified Chinese.
            _ if l.strip_prefix("en-").is_some_and(|r| {
                !r.is_empty() && r.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
            }) =>
            {
                Ok(Lang::En)
            }
            "zh-hans" | "zh-cn" | "zh-sg" | "zh" => Ok(Lang::ZhHans),
            "zh-hant" | "zh-tw" | "zh-hk" | "zh-mo" => Ok(Lang::ZhHant),
            _ if l.starts_with("zh-hans-") => Ok(Lang::ZhHans),
            _ if l.starts_with("zh-hant-") => Ok(Lang::ZhHant),
            _ => Err(ParseLangError(s.to_string())),
        }
    }
}

/// Declares [`Msg`] from one list: each message, its catalogue key and its parameters.
macro_rules! messages {
    ($($variant:ident => $key:literal $(: $($param:literal),+)?;)*) => {
        /// A message of the client: one entry of the catalogue.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[allow(missing_docs)] // each variant is named after its English text
        pub enum Msg {
            $($variant,)*
        }

        impl Msg {
            /// Every message (for tests).
            pub const ALL: &'static [Msg] = &[$(Msg::$variant,)*];

            /// Its key in the catalogue.
            pub fn key(self) -> &'static str {
                match self {
                    $(Msg::$variant => $key,)*
                }
            }

            /// The names of its `{parameters}` (fill them with [`Msg::fill`]).
            pub fn params(self) -> &'static [&'static str] {
                match self {
                    $(Msg::$variant => &[$($($param),+)?],)*
                }
            }
        }
    };
}

messages! {
    Title => "app_name";
    Moves => "moves";
    TurnOf => "turn_of": "side";
    You => "tui_you";
    AiName => "ai_name": "level";
    GuestName => "guest_name": "n";
    Thinking => "thinking";
    NotYourTurn => "not_your_turn";
    GameOver => "tui_game_over";
    GameOverOnline => "tui_game_over_online";
    GameOverWatching => "tui_game_over_watching";
    ChooseOwnAnimal => "tui_choose_own_animal";
    AnimalCannotMove => "tui_animal_cannot_move";
    IllegalMove => "err_illegal_move": "msg";
    CannotReadMove => "tui_cannot_read_move";
    PassOnlyOnline => "tui_pass_only_online";
    UndoNothing => "tui_undo_nothing";
    Undone => "tui_undone";
    NewGame => "new_game";
    Flipped => "tui_flipped";
    SaveTo => "tui_save_to";
    OpenFile => "tui_open_file";
    Saved => "tui_saved": "path";
    Loaded => "tui_loaded": "path";
    CannotSave => "tui_cannot_save": "path";
    CannotOpen => "tui_cannot_open": "path";
    LoadOnlyOffline => "tui_load_only_offline";
    FileNotFound => "tui_file_not_found";
    FolderNotFound => "tui_folder_not_found";
    NotSentDisconnected => "tui_not_sent_disconnected";
    FileNoPermission => "tui_file_no_permission";
    FileIsFolder => "tui_file_is_folder";
    FileNotText => "tui_file_not_text";
    RecordSyntax => "tui_record_syntax": "column", "line", "msg";
    RecordMove => "tui_record_move": "msg", "mv", "ply";
    RecordInvalidResult => "tui_record_invalid_result": "value";
    RecordResultTag => "tui_record_result_tag": "result", "tag";
    RecordBoardResult => "tui_record_board_result": "outcome", "ply", "result";
    MoveLabel => "type_move";
    KeysHelp => "tui_keys_help";
    HelpTitle => "tui_help_title";
    HelpBody => "tui_help_body";
    HelpScroll => "tui_help_scroll": "first", "last", "total";
    TooSmall => "tui_too_small";
    Draw => "result_draw";
    Wins => "result_wins": "side";
    EngineNoMove => "tui_engine_no_move";
    Connecting => "conn_connecting";
    Waiting => "tui_waiting";
    Disconnected => "tui_disconnected";
    ServerError => "tui_server";
    DrawOffered => "tui_draw_offered";
    DrawOfferSent => "draw_offered_wait";
    ResignConfirm => "tui_resign_confirm";
    TakebackOnlyAi => "tui_takeback_only_ai";
    RematchOffered => "tui_rematch_offered";
    RematchClosed => "rematch_closed";
    RematchSent => "rematch_sent";
    GameStillOn => "tui_game_still_on";
    Spectating => "tui_spectating";
    SeatDisconnected => "tui_seat_disconnected";
    SeatDisconnectedLeft => "tui_seat_disconnected_left": "n";
    Clock => "tui_clock";
    MoveTimer => "move_timer";
    Timeouts => "timeouts_n": "n";
    Online => "tui_online";
    Hotseat => "tui_hotseat";
    GlyphsLetters => "tui_glyphs_letters";
    GlyphsChinese => "tui_glyphs_chinese";
    Hint => "tui_hint": "move";
    HintWait => "tui_hint_wait";
    HintPeople => "tui_hint_people";
    Evaluation => "evaluation";
    EvalFor => "eval_for": "side";
    EvalDen => "eval_den": "n", "side";
    DepthN => "depth_n": "n";
    BestMoves => "best_moves";
    AnalysisPeople => "tui_analysis_people";
    AnalysisBusy => "tui_analysis_busy";
    PlyOf => "ply_of": "n", "total";
    Review => "tui_review";
    DrawDeclined => "draw_declined";
    HintSpectator => "tui_hint_spectator";
    RematchSpectator => "tui_rematch_spectator";
    AnalysisSpectator => "tui_analysis_spectator";
    WatchNotFound => "tui_watch_not_found": "id";
    QuitConfirm => "tui_quit_confirm";
    QuitConfirmGuest => "tui_quit_confirm_guest";
    NoFileName => "tui_no_file_name";
    FenOver => "tui_fen_over": "result";
    KeysWatch => "tui_keys_watch";
    OtherSeeks => "tui_other_seeks";
    ErrorLine => "tui_error": "msg";
    Detail => "tui_detail": "msg";
    DrawLapsed => "draw_lapsed";
    ChangesPending => "changes_pending";
    Score => "score";
    Level => "level";
    Coins => "coins";
    Rating => "rating";
    Labelled => "labelled": "label", "text";
    OpponentLeftNewSeek => "tui_opponent_left_new_seek";
    RematchClosedNewSeek => "tui_rematch_closed_new_seek";
    AbortedNewSeek => "tui_aborted_new_seek";
    NoRematchNewSeek => "tui_no_rematch_new_seek";
    RematchAsked => "tui_rematch_asked";
    ReviewShort => "tui_review_short";
    OnlineWatching => "tui_online_watching";
    ResultResigned => "tui_result_resigned": "side";
    ResultAbortedBy => "tui_result_aborted_by": "side";
    ResultAbortedYou => "tui_result_aborted_you";
    ResultLeft => "tui_result_left": "side";
    ResultDisconnected => "tui_result_disconnected": "side";
    ResultTime => "tui_result_time": "side";
    ResultTimeouts => "tui_result_timeouts": "side";
    ResultThen => "tui_result_then": "result", "what";
    ResultAgreed => "tui_result_agreed";
    YouWon => "tui_you_won": "result";
    YouLost => "tui_you_lost": "result";
    OpponentAway => "tui_opponent_away";
    OpponentBack => "tui_opponent_back";
    KeyHelp => "tui_key_help";
    KeyQuit => "tui_key_quit";
    KeyMove => "tui_key_move";
    KeyDraw => "tui_key_draw";
    KeyResign => "tui_key_resign";
    KeyTakeback => "tui_key_takeback";
    KeyRematch => "tui_key_rematch";
    KeyNewGame => "tui_key_new_game";
    KeyReview => "tui_key_review";
    KeyAnalyse => "tui_key_analyse";
    KeySave => "tui_key_save";
}

impl Msg {
    /// The text in `lang` (a message with parameters shows them as `{name}`: use [`Msg::fill`]).
    pub fn text(self, lang: Lang) -> &'static str {
        entry(lang, self.key())
    }

    /// The text in `lang` with its `{parameters}` filled in.
    pub fn fill(self, lang: Lang, params: &[(&str, &dyn fmt::Display)]) -> String {
        fill(self.text(lang), params)
    }
}

/// A player's name as shown: a guest's generated name (`Guest-123456`, a form no registered
/// name can take) reads in the display language (`游客123456`); records keep the real name.
pub fn shown_name(lang: Lang, name: &str) -> String {
    match name.strip_prefix("Guest-") {
        Some(n) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => {
            Msg::GuestName.fill(lang, &[("n", &n)])
        }
        _ => name.to_string(),
    }
}

/// `text` with its `{parameters}` filled in.
pub fn fill(text: &str, params: &[(&str, &dyn fmt::Display)]) -> String {
    let mut s = text.to_string();
    for (name, value) in params {
        s = s.replace(&format!("{{{name}}}"), &value.to_string());
    }
    s
}

/// The name of a side.
pub fn color_name(lang: Lang, c: Color) -> &'static str {
    match c {
        Color::Red => entry(lang, "red"),
        Color::Blue => entry(lang, "blue"),
    }
}

/// The one-character Chinese name of an animal in `lang`'s script (the simplified form for
/// English, which shows Chinese characters only when asked): the catalogue's `animal_…` entry.
pub fn role_char(lang: Lang, r: Role) -> char {
    // Looked up once per script (the board asks for it at every redraw of every animal).
    static CHARS: OnceLock<[[char; 8]; 2]> = OnceLock::new();
    let chars = CHARS.get_or_init(|| {
        [Lang::ZhHans, Lang::ZhHant].map(|script| {
            Role::ALL.map(|r| {
                lookup(script, &format!("animal_{}", r.letter()))
                    .and_then(|name| name.chars().next())
                    .unwrap_or_else(|| r.chinese())
            })
        })
    });
    chars[usize::from(lang == Lang::ZhHant)][r.index()]
}

/// The result line of an aborted game, "Game aborted" (the browser's title for it).
pub fn aborted_text(lang: Lang) -> &'static str {
    entry(lang, "result_aborted")
}

/// Why a game ended, for people: the catalogue's `reason_…` entry of a wire or rules reason
/// (`no-moves` → `reason_no_moves`), or a plain "game over" for one it does not know.
pub fn reason_text(lang: Lang, reason: &str) -> &'static str {
    lookup(lang, &format!("reason_{}", reason.replace('-', "_")))
        .unwrap_or_else(|| entry(lang, "game_over_position"))
}

/// A refusal from the server, for people: the catalogue's `err_…` entry of its code (the same
/// texts the browser shows); a refused move without a reason this client knows is not allowed
/// (the server's words in brackets in English); a code the catalogue does not know (or a `bad_request`) gets a general line, with the
/// server's own words in brackets in English only ([`with_detail`]): never English words inside a
/// Chinese sentence.
pub fn server_error_text(lang: Lang, code: &str, message: &str) -> String {
    if code == "illegal_move" {
        return with_detail(lang, entry(lang, "move_illegal"), message);
    }
    let own = if code == "generic" || code == "bad_request" {
        None
    } else {
        lookup(lang, &format!("err_{code}"))
    };
    match own {
        Some(text) => text.to_string(),
        None => {
            let general = if code == "bad_request" {
                "err_bad_request"
            } else {
                "err_generic"
            };
            let detail = if message.is_empty() { code } else { message };
            with_detail(lang, entry(lang, general), detail)
        }
    }
}

/// `text` with `detail` (words of the server or a library, in English) in brackets before its
/// full stop, in English only: `Something went wrong (detail).`; Chinese text stays as it is.
pub fn with_detail(lang: Lang, text: &str, detail: &str) -> String {
    if lang != Lang::En || detail.is_empty() {
        return text.to_string();
    }
    let head = text.strip_suffix('.').unwrap_or(text);
    format!("{head} ({detail}).")
}

/// Why the server at `server` (the `--server` value) could not be used, for people: a main
/// line in the player's language — a bad address and why, a connection that failed (with why
/// where the system says something common: refused, timed out, cut off, no route, unknown host),
/// a refused sign-in ("sign-in refused (401): " and the catalogue's text of its code,
/// [`server_error_text`], e.g. "登录被拒绝（401）：用户名或密码不对。"; a refused guest session
/// said as such), another program than a Jungle server at the address (its answer not
/// repeated), or an unexpected answer — and, apart, the system's or the library's own detail,
/// as it said it (in English, whatever the language), where there is one.
pub fn net_error_parts(
    lang: Lang,
    server: &str,
    e: &crate::net::NetError,
) -> (String, Option<String>) {
    use crate::net::{NetError, UrlProblem};
    let failed = || fill(entry(lang, "tui_net_failed"), &[("server", &server)]);
    match e {
        NetError::Url(url, why) => {
            let why = entry(
                lang,
                match why {
                    UrlProblem::Https => "tui_url_https",
                    UrlProblem::Scheme => "tui_url_scheme",
                    UrlProblem::NoHost => "tui_url_no_host",
                    UrlProblem::Port => "tui_url_port",
                },
            );
            let text = fill(entry(lang, "tui_net_url"), &[("url", url), ("msg", &why)]);
            (text, None)
        }
        NetError::Io(_, why) => {
            let head = match io_problem_key(why) {
                Some(key) => lang.aside(&failed(), entry(lang, key)),
                None => failed(),
            };
            (head, Some(why.to_string()))
        }
        NetError::WebSocket(_) => (failed(), Some(e.to_string())),
        NetError::Refused {
            status,
            code,
            message,
            guest,
        } => {
            let key = if *guest {
                "tui_guest_refused"
            } else {
                "tui_sign_in_refused"
            };
            let text = fill(
                entry(lang, key),
                &[
                    ("status", status),
                    ("msg", &server_error_text(lang, code, message)),
                ],
            );
            (text, None)
        }
        NetError::Protocol(why) => (
            fill(entry(lang, "tui_net_answer"), &[("server", &server)]),
            Some(why.clone()),
        ),
        NetError::NotJungle { status } => (
            fill(
                entry(lang, "tui_not_jungle"),
                &[("server", &server), ("status", status)],
            ),
            None,
        ),
        NetError::TooManyConnections => (entry(lang, "tui_too_many_connections").to_string(), None),
    }
}

/// The catalogue's key for why a connection failed, for the system's common reasons.
fn io_problem_key(e: &std::io::Error) -> Option<&'static str> {
    use std::io::ErrorKind;
    Some(match e.kind() {
        ErrorKind::ConnectionRefused => "tui_net_why_refused",
        ErrorKind::TimedOut | ErrorKind::WouldBlock => "tui_net_why_timeout",
        ErrorKind::ConnectionReset
        | ErrorKind::ConnectionAborted
        | ErrorKind::BrokenPipe
        | ErrorKind::UnexpectedEof => "tui_net_why_cut",
        ErrorKind::HostUnreachable
        | ErrorKind::NetworkUnreachable
        | ErrorKind::AddrNotAvailable => "tui_net_why_unreachable",
        // A name the resolver does not know has no kind of its own (glibc's words).
        _ if e.to_string().contains("failed to lookup address") => "tui_net_why_unknown_host",
        _ => return None,
    })
}

/// [`net_error_parts`] as the text said on the plain terminal: the main line, then the detail
/// on an indented line of its own ("  详情：Connection refused (os error 111)").
pub fn net_error_text(lang: Lang, server: &str, e: &crate::net::NetError) -> String {
    match net_error_parts(lang, server, e) {
        (head, None) => head,
        (head, Some(detail)) => {
            format!("{head}\n  {}", Msg::Detail.fill(lang, &[("msg", &detail)]))
        }
    }
}

/// The time control `tc` for people, as the browser says it: the game clock in minutes and
/// the increment in seconds (`10+5`; `0:30+0` for a clock of part minutes), then the time for
/// each move ("60s per move", "每步 60 秒"); "Unlimited" without either.
pub fn tc_text(lang: Lang, tc: crate::proto::TimeControl) -> String {
    let mut parts = Vec::new();
    if tc.clock_s > 0 {
        let (m, s) = (tc.clock_s / 60, tc.clock_s % 60);
        let clock = if s == 0 {
            m.to_string()
        } else {
            format!("{m}:{s:02}")
        };
        parts.push(format!("{clock}+{}", tc.inc_s));
    }
    if tc.move_s > 0 {
        parts.push(fill(entry(lang, "tc_per_move"), &[("s", &tc.move_s)]));
    }
    if parts.is_empty() {
        return entry(lang, "tc_unlimited").to_string();
    }
    parts.join(entry(lang, "comma"))
}

/// Why a file could not be read or written, for people: the common cases from the catalogue,
/// others in the system's words.
pub fn io_error_text(lang: Lang, e: &std::io::Error) -> String {
    use std::io::ErrorKind;
    let m = match e.kind() {
        ErrorKind::NotFound => Msg::FileNotFound,
        ErrorKind::PermissionDenied => Msg::FileNoPermission,
        ErrorKind::IsADirectory => Msg::FileIsFolder,
        ErrorKind::InvalidData => Msg::FileNotText,
        _ => return e.to_string(),
    };
    m.text(lang).to_string()
}

/// Why a game record could not be read or replayed, for people: where its text is wrong and
/// what (from its kind, [`jungle::ParseRecordErrorKind`]: never the rules library's English in a
/// Chinese sentence), that it is empty, which move is not allowed and why, or what is wrong with
/// its start position, rules or result.
pub fn record_error_text(lang: Lang, e: &RecordProblem) -> String {
    match e {
        RecordProblem::Empty => entry(lang, "tui_record_empty").to_string(),
        RecordProblem::Syntax(e) => Msg::RecordSyntax.fill(
            lang,
            &[
                ("line", &e.line),
                ("column", &e.column),
                ("msg", &record_syntax_text(lang, &e.kind)),
            ],
        ),
        RecordProblem::Replay(jungle::RecordError::Move {
            index, text, why, ..
        }) => Msg::RecordMove.fill(
            lang,
            &[
                ("ply", index),
                ("mv", text),
                ("msg", &illegal_text(lang, why)),
            ],
        ),
        RecordProblem::Replay(jungle::RecordError::Fen(e)) => {
            lang.detail("[FEN]", invalid_jfen_text(lang, e))
        }
        RecordProblem::Replay(jungle::RecordError::Variant(e)) => fill(
            entry(lang, "tui_record_variant"),
            &[(
                "msg",
                &rules_error_text(lang, e, &lang.screen_quote(&e.item), false),
            )],
        ),
        RecordProblem::Replay(jungle::RecordError::InvalidResult { value }) => {
            Msg::RecordInvalidResult.fill(lang, &[("value", value)])
        }
        RecordProblem::Replay(jungle::RecordError::ResultTagMismatch { tag, result }) => {
            Msg::RecordResultTag.fill(lang, &[("tag", tag), ("result", result)])
        }
        RecordProblem::Replay(jungle::RecordError::BoardResultMismatch {
            plies,
            outcome,
            result,
        }) => Msg::RecordBoardResult.fill(
            lang,
            &[
                ("ply", plies),
                ("outcome", &outcome_text(lang, *outcome)),
                ("result", result),
            ],
        ),
    }
}

/// What is wrong with a game record's text, for people (after "line 3, column 5: ").
fn record_syntax_text(lang: Lang, kind: &jungle::ParseRecordErrorKind) -> String {
    use jungle::ParseRecordErrorKind as K;
    let say =
        |key: &'static str, params: &[(&str, &dyn fmt::Display)]| fill(entry(lang, key), params);
    match kind {
        K::TagAfterMoves => say("tui_record_tag_after_moves", &[]),
        K::NoTagName => say("tui_record_no_tag_name", &[]),
        K::TagValueNotOpened { tag } => say("tui_record_tag_value_not_opened", &[("tag", tag)]),
        K::TagValueNotClosed { tag } => say("tui_record_tag_value_not_closed", &[("tag", tag)]),
        K::TagValuePastLineEnd { tag } => {
            say("tui_record_tag_value_past_line_end", &[("tag", tag)])
        }
        K::TagNotClosed { tag } => say("tui_record_tag_not_closed", &[("tag", tag)]),
        K::ResultTagNotAResult { value } => {
            Msg::RecordInvalidResult.fill(lang, &[("value", value)])
        }
        K::ResultTagsDisagree {
            value,
            first,
            line,
            column,
        } => say(
            "tui_record_result_tags",
            &[
                ("value", value),
                ("first", first),
                ("line", line),
                ("column", column),
            ],
        ),
        K::CommentNotClosed => say("tui_record_comment_not_closed", &[]),
        K::AfterResult { token } => say("tui_record_after_result", &[("token", token)]),
        K::ResultDisagreesWithTag {
            result,
            tag,
            line,
            column,
        } => say(
            "tui_record_result_token",
            &[
                ("result", result),
                ("tag", tag),
                ("line", line),
                ("column", column),
            ],
        ),
        K::BadMove(e) => say("tui_record_bad_move", &[("mv", &e.text)]),
    }
}

/// Why a rule set (`--rules`, a record's `[Variant]`) was refused, for people, naming the
/// deviation at fault (RULES §9) as `item` (already quoted the way its place quotes): unknown
/// (with the known ones where `with_list`), empty, or a `draw_plies=` without a number.
pub fn rules_error_text(
    lang: Lang,
    e: &jungle::ParseRulesError,
    item: &str,
    with_list: bool,
) -> String {
    let lower = e.item.to_ascii_lowercase();
    if e.item.is_empty() {
        return entry(lang, "tui_rules_empty").to_string();
    }
    if lower.starts_with("draw_plies=") {
        return fill(entry(lang, "tui_rules_draw_plies"), &[("item", &item)]);
    }
    let unknown = fill(entry(lang, "tui_rules_unknown"), &[("item", &item)]);
    if !with_list {
        return unknown;
    }
    let sep = if lang.is_chinese() { "、" } else { ", " };
    let list = jungle::Rules::DEVIATIONS.join(sep);
    let known = fill(entry(lang, "tui_rules_known"), &[("list", &list)]);
    let semi = if lang.is_chinese() { "；" } else { "; " };
    format!("{unknown}{semi}{known}")
}

/// A game record that could not be read ([`jungle::ParseRecordError`]) or replayed
/// ([`jungle::RecordError`]), or a file with nothing in it.
#[derive(Debug)]
pub enum RecordProblem {
    /// The file holds no record at all (nothing but white space): not a new game.
    Empty,
    /// Its text is not a game record.
    Syntax(jungle::ParseRecordError),
    /// Its start position or a move is not allowed.
    Replay(jungle::RecordError),
}

/// Why a move is not allowed, for people: the catalogue's `why_…` entry of its `code` (the
/// rules library's [`Illegal::code`], or the `why` of a server's `illegal_move` refusal), filled
/// with `params`, whose animals (`animal`, `victim`: a letter) and sides (`owner`, `turn`,
/// `color`: `red`, `blue`) are named in `lang`; `None` for a code the catalogue does not know.
pub fn why_text(lang: Lang, code: &str, params: &[(&str, &str)]) -> Option<String> {
    coded_text(lang, "why_", code, params)
}

/// Why a JFEN was refused, for people, after "Bad position: ": for a text that is not JFEN the
/// catalogue's `jfen_…` entry ([`jungle::ParseJfenError::code`]), for an invalid position the
/// `position_…` entry of each of its problems ([`jungle::PositionProblem::code`], facts named as
/// in [`why_text`]), e.g. "局面有误：红方的狮在 b4 的水里（只有鼠能下水）"; a code the catalogue
/// does not know is given in the rules library's English.
pub fn invalid_jfen_text(lang: Lang, e: &jungle::JfenError) -> String {
    let said: Vec<String> = match e {
        jungle::JfenError::Syntax(e) => {
            vec![report_text(lang, "jfen_", e.code(), &e.params()).unwrap_or_else(|| e.to_string())]
        }
        jungle::JfenError::Position(e) => e
            .problems
            .iter()
            .map(|p| {
                report_text(lang, "position_", p.code(), &p.params())
                    .unwrap_or_else(|| p.to_string())
            })
            .collect(),
    };
    let said = said.join(entry(lang, "list_separator"));
    fill(entry(lang, "bad_fen_detail"), &[("msg", &said)])
}

/// The `<prefix><code>` entry, filled with `params` whose animals and sides are named in `lang`.
fn coded_text(lang: Lang, prefix: &str, code: &str, params: &[(&str, &str)]) -> Option<String> {
    let text = lookup(lang, &format!("{prefix}{code}"))?;
    let named: Vec<(&str, String)> = params
        .iter()
        .map(|&(name, value)| {
            let shown = match name {
                "animal" | "victim" => lookup(lang, &format!("animal_{value}")),
                "owner" | "turn" | "color" if value == "red" || value == "blue" => {
                    lookup(lang, value)
                }
                _ => None,
            };
            (name, shown.unwrap_or(value).to_string())
        })
        .collect();
    let params: Vec<(&str, &dyn fmt::Display)> = named
        .iter()
        .map(|(name, value)| (*name, value as &dyn fmt::Display))
        .collect();
    Some(fill(text, &params))
}

/// Why a move is not allowed, for people ([`why_text`] of the rules library's reason).
pub fn illegal_text(lang: Lang, why: &Illegal) -> String {
    report_text(lang, "why_", why.code(), &why.params()).unwrap_or_else(|| why.to_string())
}

/// [`coded_text`] of a report the rules library made (its facts owned strings).
fn report_text(
    lang: Lang,
    prefix: &str,
    code: &str,
    facts: &[(&'static str, String)],
) -> Option<String> {
    let params: Vec<(&str, &str)> = facts.iter().map(|(n, v)| (*n, v.as_str())).collect();
    coded_text(lang, prefix, code, &params)
}

/// The reason text of a rules termination.
pub fn termination_text(lang: Lang, t: Termination) -> &'static str {
    reason_text(lang, t.as_str())
}

/// Why a start position is refused because its game is already over by the rules (a den
/// entered, a side wiped out or left without a move, a draw by the no-capture rule), e.g.
/// "--fen: the game is already over in this position (Blue wins, one side could not move)".
pub fn finished_position_text(lang: Lang, outcome: jungle::Outcome) -> String {
    Msg::FenOver.fill(lang, &[("result", &outcome_text(lang, outcome))])
}

/// How the rules ended a game: who won and why, "Blue wins, one side could not move" /
/// "蓝方胜，无棋可走判负".
pub fn outcome_text(lang: Lang, outcome: jungle::Outcome) -> String {
    let head = match outcome.winner {
        Some(c) => Msg::Wins.fill(lang, &[("side", &color_name(lang, c))]),
        None => Msg::Draw.text(lang).to_string(),
    };
    let comma = if lang.is_chinese() { "，" } else { ", " };
    format!(
        "{head}{comma}{}",
        termination_text(lang, outcome.termination)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locale_picks_the_script() {
        assert_eq!(Lang::from_locale("zh_CN.UTF-8"), Lang::ZhHans);
        assert_eq!(Lang::from_locale("zh_TW.UTF-8"), Lang::ZhHant);
        assert_eq!(Lang::from_locale("zh_HK"), Lang::ZhHant);
        assert_eq!(Lang::from_locale("en_US.UTF-8"), Lang::En);
        assert_eq!(Lang::from_locale("C"), Lang::En);
        // gettext's LANGUAGE comes first: its first Chinese or English entry, unless the locale
        // is C/POSIX (or unset), where gettext ignores it.
        for (language, locale, lang) in [
            (Some("zh_TW:en"), Some("en_US.UTF-8"), Lang::ZhHant),
            (Some("fr:zh_CN"), Some("en_US.UTF-8"), Lang::ZhHans),
            (Some("en_GB"), Some("zh_CN.UTF-8"), Lang::En),
            (Some("fr:de"), Some("zh_TW.UTF-8"), Lang::ZhHant),
            (Some("zh_CN"), Some("C"), Lang::En),
            (Some("zh_CN"), Some("C.UTF-8"), Lang::En),
            (Some("zh_CN"), None, Lang::En),
            (Some(""), Some("zh_HK.UTF-8"), Lang::ZhHant),
            (None, Some("zh_CN.UTF-8"), Lang::ZhHans),
            (None, None, Lang::En),
        ] {
            assert_eq!(
                Lang::from_env_values(language, locale),
                lang,
                "{language:?} {locale:?}"
            );
        }
    }

    #[test]
    fn lang_flag_values_parse_and_bad_ones_are_named() {
        assert_eq!("zh-Hant".parse::<Lang>(), Ok(Lang::ZhHant));
        assert_eq!("zh-Hans".parse::<Lang>(), Ok(Lang::ZhHans));
        assert_eq!("en".parse::<Lang>(), Ok(Lang::En));
        let e = "fr".parse::<Lang>().unwrap_err();
        assert!(e.to_string().contains("`fr`"));
        // Any English, as any Chinese of a region.
        for en in ["en-US", "en_GB", "EN-au", "en-001"] {
            assert_eq!(en.parse::<Lang>(), Ok(Lang::En), "{en}");
        }
        assert_eq!("zh-SG".parse::<Lang>(), Ok(Lang::ZhHans));
        assert_eq!("zh-Hant-TW".parse::<Lang>(), Ok(Lang::ZhHant));
        for bad in ["en-", "eng", "english", "en-US.UTF-8"] {
            assert!(bad.parse::<Lang>().is_err(), "{bad}");
        }
    }

    #[test]
    fn the_shared_catalogue_parses_and_has_every_message_with_its_parameters() {
        let cat: HashMap<String, [String; 3]> =
            serde_json::from_str(CATALOGUE_JSON).expect("web/messages.json parses");
        assert!(cat.len() > 200, "only {} entries", cat.len());
        assert_eq!(catalogue(), &cat);
        for &m in Msg::ALL {
            let texts = cat
                .get(m.key())
                .unwrap_or_else(|| panic!("{m:?}: no `{}`", m.key()));
            for t in texts {
                assert!(!t.trim().is_empty(), "{m:?}");
                let mut found: Vec<&str> = t
                    .split('{')
                    .skip(1)
                    .filter_map(|r| r.split_once('}').map(|(name, _)| name))
                    .collect();
                found.sort_unstable();
                assert_eq!(found, m.params(), "{m:?} in `{t}`");
            }
        }
    }

    /// The `{parameters}` of `text`, sorted.
    fn params_of(text: &str) -> Vec<&str> {
        let mut found: Vec<&str> = text
            .split('{')
            .skip(1)
            .filter_map(|r| r.split_once('}').map(|(name, _)| name))
            .collect();
        found.sort_unstable();
        found
    }

    #[test]
    fn the_terminals_entries_are_in_the_one_catalogue_complete_in_each_language() {
        // No catalogue of the terminal's own beside the shared one.
        let crate_dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        assert!(!crate_dir.join("messages.json").exists());
        let own: Vec<(&String, &[String; 3])> = catalogue()
            .iter()
            .filter(|(k, _)| k.starts_with("tui_") || k.starts_with("cli_play_"))
            .collect();
        assert!(own.len() > 100, "only {} entries", own.len());
        for (key, texts) in own {
            for t in texts {
                assert!(!t.trim().is_empty(), "{key}");
                assert_eq!(params_of(t), params_of(&texts[2]), "{key}: `{t}`");
            }
            assert_ne!(texts[2], texts[0], "{key}");
            assert_eq!(lookup(Lang::ZhHant, key), Some(texts[1].as_str()));
        }
        // The entries looked up by key, not through `Msg`, are there too.
        for key in [
            "tui_net_url",
            "tui_sign_in_refused",
            "tui_guest_refused",
            "tui_needs_terminal",
            "tui_terminal_failed",
            "tui_not_jungle",
            "tui_net_failed",
            "tui_net_answer",
            "tui_net_why_refused",
            "tui_net_why_timeout",
            "tui_net_why_cut",
            "tui_net_why_unreachable",
            "tui_net_why_unknown_host",
            "tui_url_https",
            "tui_url_scheme",
            "tui_url_no_host",
            "tui_url_port",
            "tc_per_move",
            "tc_unlimited",
            "comma",
        ] {
            assert!(lookup(Lang::En, key).is_some(), "{key}");
        }
    }

    #[test]
    fn the_panels_english_labels_are_in_sentence_case() {
        // The words that name what follows them in the side panel, or stand alone as its
        // headings and player names.
        for m in [
            Msg::Clock,
            Msg::MoveTimer,
            Msg::Timeouts,
            Msg::Online,
            Msg::Hotseat,
            Msg::You,
            Msg::SeatDisconnected,
            Msg::SeatDisconnectedLeft,
            Msg::Moves,
            Msg::Evaluation,
            Msg::BestMoves,
            Msg::Waiting,
            Msg::OtherSeeks,
            Msg::AiName,
            Msg::PlyOf,
        ] {
            let text = m.text(Lang::En);
            let mut words = text.split(' ');
            let first = words.next().unwrap_or_default();
            assert!(
                first.starts_with(|c: char| c.is_ascii_uppercase()),
                "{m:?}: `{text}`"
            );
            // Only the first word is capitalised (names and `{parameters}` aside).
            for w in words {
                assert!(
                    !w.starts_with(|c: char| c.is_ascii_uppercase()),
                    "{m:?}: `{text}`"
                );
            }
        }
    }

    #[test]
    fn network_errors_have_a_main_line_in_the_language_and_the_systems_words_apart() {
        use crate::net::{NetError, UrlProblem};
        use std::io::{Error, ErrorKind};
        let server = "http://127.0.0.1:1";
        let refused = || {
            NetError::Io(
                server.into(),
                Error::new(
                    ErrorKind::ConnectionRefused,
                    "Connection refused (os error 111)",
                ),
            )
        };
        let cases = [
            (
                Lang::ZhHans,
                refused(),
                "连接 http://127.0.0.1:1 失败（连接被拒绝：服务器在这个地址和端口上运行吗？）",
            ),
            (
                Lang::ZhHant,
                refused(),
                "連線到 http://127.0.0.1:1 失敗（連線被拒絕：伺服器在這個位址和連接埠上執行嗎？）",
            ),
            (
                Lang::En,
                refused(),
                "connection to http://127.0.0.1:1 failed (connection refused: is the server \
                 running at that address and port?)",
            ),
        ];
        for (lang, e, head) in cases {
            let (main, detail) = net_error_parts(lang, server, &e);
            assert_eq!(main, head);
            assert_eq!(detail.as_deref(), Some("Connection refused (os error 111)"));
            assert!(!main.contains("os error"), "{main}");
            let text = net_error_text(lang, server, &e);
            let lines: Vec<&str> = text.lines().collect();
            assert_eq!(lines[0], head);
            assert_eq!(
                lines[1],
                format!(
                    "  {}",
                    Msg::Detail.fill(lang, &[("msg", &"Connection refused (os error 111)")])
                )
            );
        }
        assert_eq!(
            net_error_text(Lang::ZhHans, server, &refused())
                .lines()
                .nth(1),
            Some("  详情：Connection refused (os error 111)")
        );
        // A reason the catalogue does not know: the main line without one, the words apart.
        let odd = NetError::Io(server.into(), Error::other("something odd"));
        assert_eq!(
            net_error_parts(Lang::ZhHant, server, &odd),
            (
                "連線到 http://127.0.0.1:1 失敗".to_string(),
                Some("something odd".to_string())
            )
        );
        let timeout = NetError::Io(server.into(), Error::from(ErrorKind::TimedOut));
        assert!(net_error_parts(Lang::ZhHans, server, &timeout)
            .0
            .ends_with("（服务器没有及时回应）"));
        // The WebSocket library's and the protocol's words are details too.
        let ws = NetError::WebSocket("HTTP error: 403 Forbidden".into());
        let (main, detail) = net_error_parts(Lang::ZhHans, server, &ws);
        assert_eq!(main, "连接 http://127.0.0.1:1 失败");
        assert_eq!(
            detail.as_deref(),
            Some("WebSocket: HTTP error: 403 Forbidden")
        );
        // The limit of open connections per address, said whole, with no English left.
        let (main, detail) = net_error_parts(Lang::ZhHant, server, &NetError::TooManyConnections);
        assert!(main.starts_with("這台電腦連到伺服器的連線太多了"), "{main}");
        assert_eq!(detail, None);
        let odd_answer = NetError::Protocol("bad HTTP answer: no status code".into());
        assert_eq!(
            net_error_parts(Lang::En, server, &odd_answer),
            (
                "unexpected answer from http://127.0.0.1:1".to_string(),
                Some("bad HTTP answer: no status code".to_string())
            )
        );
        // A bad address is said whole in the language, with no English left.
        let https = NetError::Url("https://x".into(), UrlProblem::Https);
        assert_eq!(
            net_error_text(Lang::ZhHans, "https://x", &https),
            "服务器地址 `https://x` 不能用：终端客户端不支持 https，请用 http://"
        );
        assert_eq!(
            net_error_text(Lang::En, "https://x", &https),
            format!("{https}")
        );
        let port = NetError::Url("h:x".into(), UrlProblem::Port);
        assert_eq!(
            net_error_text(Lang::ZhHant, "h:x", &port),
            "伺服器位址 `h:x` 不能用：連接埠不是數字"
        );
        // A refused sign-in keeps its one line.
        let refused_login = NetError::Refused {
            status: 401,
            code: "bad_login".into(),
            message: "wrong".into(),
            guest: false,
        };
        assert_eq!(net_error_parts(Lang::En, server, &refused_login).1, None);
        // A refused guest session is not a refused sign-in.
        let refused_guest = NetError::Refused {
            status: 429,
            code: "rate_limited".into(),
            message: "slow down".into(),
            guest: true,
        };
        assert_eq!(
            net_error_text(Lang::ZhHans, server, &refused_guest),
            "服务器没有让游客进入（429）：操作太快了，请稍等。"
        );
        assert!(!net_error_text(Lang::ZhHans, server, &refused_guest).contains("登录"));
        // Another program at the address: said so, nothing of its answer repeated.
        let other = NetError::NotJungle { status: 501 };
        assert_eq!(
            net_error_text(Lang::ZhHans, server, &other),
            "http://127.0.0.1:1 上不是斗兽棋服务器（HTTP 501）"
        );
        assert_eq!(
            net_error_text(Lang::En, server, &other),
            "http://127.0.0.1:1 is not a Jungle server (HTTP 501)"
        );
    }

    #[test]
    fn time_controls_read_as_the_browser_says_them() {
        use crate::proto::TimeControl;
        let tc = |s: &str| s.parse::<TimeControl>().unwrap();
        assert_eq!(tc_text(Lang::En, tc("600+0/60")), "10+0, 60s per move");
        assert_eq!(tc_text(Lang::ZhHans, tc("600+5/0")), "10+5");
        assert_eq!(tc_text(Lang::ZhHant, tc("90+0/10")), "1:30+0，每步 10 秒");
        assert_eq!(tc_text(Lang::ZhHans, tc("0+0/30")), "每步 30 秒");
        assert_eq!(tc_text(Lang::En, tc("0+0/0")), "Unlimited");
    }

    #[test]
    fn every_message_differs_between_english_and_chinese() {
        for &m in Msg::ALL {
            assert_ne!(m.text(Lang::En), m.text(Lang::ZhHans), "{m:?}");
            assert_ne!(m.text(Lang::En), m.text(Lang::ZhHant), "{m:?}");
        }
    }

    #[test]
    fn parameters_are_filled_in_each_language() {
        let side = color_name(Lang::En, Color::Red);
        assert_eq!(Msg::Wins.fill(Lang::En, &[("side", &side)]), "Red wins");
        let side = color_name(Lang::ZhHant, Color::Blue);
        assert_eq!(Msg::Wins.fill(Lang::ZhHant, &[("side", &side)]), "藍方勝");
        assert_eq!(
            Msg::AiName.fill(Lang::ZhHans, &[("level", &4)]),
            "电脑（4 级）"
        );
        assert_eq!(
            Lang::ZhHans.detail(
                &Msg::CannotOpen.fill(Lang::ZhHans, &[("path", &"a.txt")]),
                "x"
            ),
            "无法打开 a.txt：x"
        );
        assert_eq!(Lang::En.detail("Server", "busy"), "Server: busy");
    }

    #[test]
    fn traditional_script_uses_traditional_animal_characters() {
        assert_eq!(role_char(Lang::ZhHant, Role::Lion), '獅');
        assert_eq!(role_char(Lang::ZhHans, Role::Lion), '狮');
        assert_eq!(role_char(Lang::ZhHant, Role::Cat), '貓');
        assert_eq!(role_char(Lang::ZhHant, Role::Rat), '鼠');
        assert_eq!(role_char(Lang::En, Role::Cat), '猫');
        assert_eq!(role_char(Lang::En, Role::Elephant), '象');
    }

    #[test]
    fn server_refusals_read_in_the_players_language() {
        let cases = [
            (
                Lang::ZhHans,
                "not_your_turn",
                "it is blue's turn",
                "现在不是你走棋。",
            ),
            // A refused move without a reason this client knows: plainly not allowed, the
            // server's English words left out.
            (
                Lang::ZhHant,
                "illegal_move",
                "no piece on a1",
                "這步棋不能走。",
            ),
            (
                Lang::En,
                "rate_limited",
                "slow down",
                "Too fast, please wait a moment.",
            ),
            // A code this client does not know: a general line, with the server's words (or
            // the code) in English only.
            (
                Lang::En,
                "brand_new",
                "something new",
                "Something went wrong (something new).",
            ),
            (
                Lang::En,
                "brand_new",
                "",
                "Something went wrong (brand_new).",
            ),
            (
                Lang::ZhHans,
                "brand_new",
                "something new",
                "出了点问题，没能完成。",
            ),
            (
                Lang::ZhHant,
                "bad_request",
                "bad move text",
                "伺服器沒有接受這個請求。",
            ),
            (
                Lang::En,
                "bad_request",
                "bad move text",
                "The server did not accept that (bad move text).",
            ),
        ];
        for (lang, code, message, want) in cases {
            assert_eq!(server_error_text(lang, code, message), want, "{code}");
        }
    }

    #[test]
    fn a_records_result_that_is_no_result_or_disagrees_with_its_tag_reads_in_each_language() {
        let tag = RecordProblem::Replay(jungle::RecordError::ResultTagMismatch {
            tag: "1-0".to_string(),
            result: "0-1".to_string(),
        });
        assert_eq!(
            record_error_text(Lang::ZhHans, &tag),
            "棋谱的 [Result] 标签是 1-0，按着法的结果却是 0-1"
        );
        assert_eq!(
            record_error_text(Lang::En, &tag),
            "the game record's [Result] tag `1-0` disagrees with the result `0-1` after the moves"
        );
        let e = RecordProblem::Replay(jungle::RecordError::InvalidResult {
            value: "2-0".to_string(),
        });
        assert_eq!(
            record_error_text(Lang::ZhHans, &e),
            "棋谱的结果「2-0」不是对局结果（应为 1-0、0-1、1/2-1/2 或 *）"
        );
        assert_eq!(
            record_error_text(Lang::ZhHant, &e),
            "棋譜的結果「2-0」不是對局結果（應為 1-0、0-1、1/2-1/2 或 *）"
        );
        assert_eq!(
            record_error_text(Lang::En, &e),
            "the game record's result `2-0` is not a result (1-0, 0-1, 1/2-1/2 or *)"
        );
    }

    #[test]
    fn a_refused_rule_set_names_the_deviation_at_fault() {
        // RULES §9: an unknown deviation is an error that names it.
        let e = |s: &str| s.parse::<jungle::Rules>().unwrap_err();
        let unknown = e("wolf_over_dog,foo");
        assert_eq!(
            rules_error_text(Lang::ZhHans, &unknown, &Lang::ZhHans.quote("foo"), false),
            "没有“foo”这个规则变化"
        );
        let listed = rules_error_text(Lang::ZhHant, &unknown, "「foo」", true);
        assert!(listed.starts_with("沒有「foo」這個規則變化；可以用的有：wolf_over_dog、"));
        assert!(listed.ends_with("draw_plies=N、no_rivers"), "{listed}");
        assert_eq!(
            rules_error_text(Lang::En, &unknown, "`foo`", false),
            "there is no rule deviation `foo`"
        );
        assert_eq!(
            rules_error_text(Lang::ZhHans, &e("no_7_3,,"), "x", false),
            "有一项规则变化是空的（多了一个逗号？）"
        );
        assert_eq!(
            rules_error_text(Lang::En, &e("draw_plies=x"), "`draw_plies=x`", true),
            "`draw_plies=x`: draw_plies needs a whole number of plies, like draw_plies=100"
        );
    }

    #[test]
    fn every_fault_of_a_records_text_reads_without_the_readers_english() {
        // Each kind of fault, from a text that has it.
        for text in [
            "1. Rg4 [Event \"x\"]",
            "[ \"x\"]",
            "[Event x]",
            "[Event \"x",
            "[Event \"x\n\"]",
            "[Event \"x\" y",
            "[Result \"2-0\"]",
            "[Result \"1-0\"]\n[Result \"0-1\"]",
            "1. Rg4 {x",
            "1. Rg4 * Ra6",
            "[Result \"1-0\"]\n\n1. Rg4 *",
            "1. Rg4 Zz9 *",
        ] {
            let e = text.parse::<jungle::GameRecord>().unwrap_err();
            let english = e.message.clone();
            for lang in [Lang::ZhHans, Lang::ZhHant] {
                let said = record_error_text(lang, &RecordProblem::Syntax(e.clone()));
                assert!(!said.contains(&english), "{text:?}: {said}");
                assert!(
                    !said.contains("expected") && !said.contains("the "),
                    "{said}"
                );
                assert!(!said.contains('“') && !said.contains('`'), "{said}");
            }
        }
    }

    #[test]
    fn every_documented_websocket_error_code_has_its_own_text() {
        // The codes of doc/protocol.md's list of WebSocket errors.
        let doc = include_str!("../../../doc/protocol.md");
        let list = doc
            .split_once("Errors (`code`):")
            .and_then(|(_, rest)| rest.split_once("HTTP error codes"))
            .expect("doc/protocol.md lists the WebSocket error codes")
            .0;
        let codes: Vec<&str> = list.split('`').skip(1).step_by(2).collect();
        assert!(codes.len() >= 12, "{codes:?}");
        let generic = server_error_text(Lang::En, "", "x");
        for code in codes {
            let text = server_error_text(Lang::En, code, "x");
            assert_ne!(text, generic, "`{code}` has no `err_{code}` entry");
        }
    }

    #[test]
    fn every_rules_reason_reads_in_each_language_with_its_facts_named() {
        use jungle::{Outcome, Square};
        let (r, e) = (Role::Rat, Role::Elephant);
        let (from, to) = (Square::A3, Square::C4);
        let every = [
            Illegal::Pass,
            Illegal::GameOver(Outcome {
                winner: None,
                termination: Termination::DrawPlies,
            }),
            Illegal::NoAnimal { from },
            Illegal::NotYourAnimal {
                role: r,
                from,
                owner: Color::Blue,
                turn: Color::Red,
            },
            Illegal::CannotReach { role: r, from, to },
            Illegal::OwnDen,
            Illegal::OwnAnimal { to },
            Illegal::WaterOnlyRat,
            Illegal::MayNotCapture {
                role: r,
                victim: e,
                to,
            },
            Illegal::RatBlocksJump,
            Illegal::Rule73 {
                role: r,
                to,
                times: 3,
            },
            Illegal::Rule175 {
                role: r,
                squares: 4,
            },
            Illegal::Repetition,
            Illegal::NoSuchAnimal {
                color: Color::Red,
                role: e,
            },
            Illegal::NotACapture { to },
            Illegal::NotTheDen { to },
        ];
        // The protocol lists every code; the catalogue has a text for each, in which every fact
        // is filled (no `{name}` left) and animals and sides are named in the language.
        let doc = include_str!("../../../doc/protocol.md");
        for why in &every {
            assert!(doc.contains(&format!("`{}`", why.code())), "{why:?}");
            for lang in [Lang::En, Lang::ZhHans, Lang::ZhHant] {
                let params = why.params();
                let params: Vec<(&str, &str)> =
                    params.iter().map(|(n, v)| (*n, v.as_str())).collect();
                let text = why_text(lang, why.code(), &params)
                    .unwrap_or_else(|| panic!("no `why_{}` entry", why.code()));
                assert_eq!(text, illegal_text(lang, why));
                assert!(!text.contains('{'), "{lang:?} {why:?}: {text}");
                if lang.is_chinese() {
                    assert!(text.chars().any(|c| c >= '\u{2E80}'), "{lang:?}: {text}");
                }
            }
        }
        let say = |lang, why: &Illegal| illegal_text(lang, why);
        assert_eq!(
            say(Lang::ZhHans, &every[3]),
            "a3 的鼠是蓝方的，现在轮到红方"
        );
        assert_eq!(
            say(Lang::En, &every[8]),
            "the rat may not capture the elephant on c4"
        );
        assert_eq!(
            say(Lang::ZhHant, &every[10]),
            "7-3 規則：鼠在本方最近 7 步裡已經 3 次走進 c4"
        );
        assert_eq!(say(Lang::ZhHant, &every[13]), "紅方已經沒有象了");
        // A code the catalogue does not know (a newer server's) has no text; a fact that is not
        // an animal letter or a side is shown as sent, never looked up as another entry.
        assert_eq!(why_text(Lang::En, "brand_new", &[]), None);
        assert_eq!(
            why_text(
                Lang::En,
                "no_such_animal",
                &[("color", "app_name"), ("animal", "Q")]
            ),
            Some("app_name has no Q on the board".to_string())
        );
    }

    #[test]
    fn every_documented_reason_has_its_own_text() {
        let reasons = [
            "den",
            "wipeout",
            "no-moves",
            "draw-plies",
            "time",
            "timeouts",
            "resign",
            "left",
            "disconnect",
            "agreed",
            "aborted",
        ];
        let texts: std::collections::HashSet<_> =
            reasons.iter().map(|r| reason_text(Lang::En, r)).collect();
        assert_eq!(texts.len(), reasons.len());
        assert_eq!(reason_text(Lang::En, "no-moves"), "one side could not move");
        assert_eq!(reason_text(Lang::ZhHans, "draw-plies"), "长时间没有吃子");
        assert_eq!(reason_text(Lang::En, "???"), "Game over");
    }
}
