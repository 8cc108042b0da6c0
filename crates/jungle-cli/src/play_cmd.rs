//! `jungle play`: the full-screen terminal client (the `jungle-tui` library).
//!
//! Its command line speaks the player's language too: the language is known before the
//! arguments are parsed (`--lang`, else the environment: [`args_lang`]), so that in Chinese its
//! `--help` ([`localize`]) and its argument errors ([`usage_error_text`]) are in Chinese. English
//! is clap's own, from the doc comments below.

use anyhow::{anyhow, bail, Result};
use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{Arg, ArgAction, Args, ValueEnum};
use jungle::{Color, Game, Jfen, Position, Rules};
use jungle_tui::i18n::Msg;
use jungle_tui::proto::{send, TimeControl};
use jungle_tui::{Config, Glyphs, Lang, Opponent, Server};
use std::ffi::OsString;
use std::process::ExitCode;

/// A side, as given on the command line.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Side {
    /// Red moves first, from the bottom.
    Red,
    /// Blue moves second, from the top.
    Blue,
}

/// How animals are drawn.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GlyphArg {
    /// Letters: uppercase Red, lowercase Blue (E L T P D W C R).
    Letters,
    /// Chinese characters (象 狮 虎 豹 狗 狼 猫 鼠).
    Chinese,
}

/// What `jungle play --help` shows after the options.
const AFTER_HELP: &str = "\
Keys while playing:
  arrow keys + Enter   pick an animal, then Enter on a highlighted square moves it
  mouse                click an animal, then a highlighted square
  g3g4 / Rg4 + Enter   type a move (from-to squares, or animal letter + destination)
  u undo (against the AI)   v flip the board   n new game   s save / o open a game record
  i hint: the engine's best move picked on the board (not against people), Enter plays it
  x analyse: the evaluation and the engine's three best moves with their lines (x hides it;
    not while a game against people is on)
  after the game: Left/Right step through its moves, Home/End its start/end (x analyses them)
  Tab letters or Chinese characters   ? help   Esc cancel   q or Ctrl-C quit
  online: = offer or accept a draw   ! twice resigns   n rematch   u take back (server AI)
    q asks first while your game is on (leaving loses it unless you return in time)
Animals: E elephant > L lion > T tiger > P leopard > D dog > W wolf > C cat > R rat
  (the rat takes the elephant); Red is uppercase, Blue lowercase.
  ~~ water, ## trap, @@ den. Win by entering the enemy den.

Examples:
  jungle play                          you (Red) against the AI at level 3
  jungle play --level 7 --color blue   Blue against a stronger AI
  jungle play --hotseat                two people at one keyboard
  jungle play --server http://127.0.0.1:8080            online against the next player
  jungle play --server http://127.0.0.1:8080 --level 5  online against the server's AI
  jungle play --server http://127.0.0.1:8080 --hotseat  an online game at one keyboard
  jungle play --server http://127.0.0.1:8080 --watch ID  watch a game";

/// Arguments of `jungle play`.
#[derive(Args)]
#[command(after_help = AFTER_HELP)]
pub struct PlayArgs {
    /// Play the AI at this level, 1 (beginner) to 10 (strongest). Default 3. With --server,
    /// plays the server's AI instead of waiting for a person.
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=10), conflicts_with = "hotseat")]
    level: Option<u8>,
    /// Your colour against the AI (Red moves first).
    #[arg(long, value_enum, default_value = "red")]
    color: Side,
    /// Two people at the same keyboard, taking turns (no AI).
    #[arg(long)]
    hotseat: bool,
    /// Rule set: `standard` or deviations like `wolf_over_dog,no_7_3` (RULES §9).
    #[arg(long, default_value = "standard", value_parser = rules_arg)]
    rules: String,
    /// Start position as JFEN (default: the start position).
    #[arg(long)]
    fen: Option<String>,
    /// Play online on this server, e.g. `http://127.0.0.1:8080` (a guest account unless
    /// --name is given).
    #[arg(long)]
    server: Option<String>,
    /// Watch this online game (its id) instead of playing.
    #[arg(long, requires = "server", conflicts_with_all = ["hotseat", "level"])]
    watch: Option<String>,
    /// Online account name (the password comes from --password or JUNGLE_PASSWORD).
    #[arg(long, requires = "server")]
    name: Option<String>,
    /// Online account password.
    #[arg(long, env = "JUNGLE_PASSWORD", hide_env_values = true)]
    password: Option<String>,
    /// Online time control CLOCK+INCREMENT/PER-MOVE in seconds (0 = none).
    #[arg(long, default_value = "600+0/60")]
    tc: TimeControl,
    /// Language of the screen: en, zh-Hans or zh-Hant (default: from LANG).
    #[arg(long)]
    lang: Option<Lang>,
    /// Draw animals as letters or Chinese characters (default: characters for Chinese, else
    /// letters). Tab switches while playing.
    #[arg(long, value_enum)]
    glyphs: Option<GlyphArg>,
}

/// A `--rules` value, checked: refused here, it is refused as a bad value of the option.
fn rules_arg(s: &str) -> Result<String, String> {
    s.parse::<Rules>()
        .map(|_| s.to_string())
        .map_err(|e| e.to_string())
}

fn color_of(s: Side) -> Color {
    match s {
        Side::Red => Color::Red,
        Side::Blue => Color::Blue,
    }
}

/// Runs `jungle play`. In Chinese its errors are said here, as "错误：…" (English ones go back
/// to `main`, which says them as "error: …").
pub fn play(a: PlayArgs) -> Result<ExitCode> {
    let lang = a.lang.unwrap_or_else(Lang::from_env);
    match play_in(a, lang) {
        Err(e) if lang.is_chinese() => {
            eprintln!(
                "{}",
                Msg::ErrorLine.fill(lang, &[("msg", &format!("{e:#}"))])
            );
            Ok(ExitCode::from(2))
        }
        done => done,
    }
}

fn play_in(a: PlayArgs, lang: Lang) -> Result<ExitCode> {
    // Checked by clap already.
    let rules: Rules = a.rules.parse().map_err(|e| anyhow!("--rules: {e}"))?;
    let start = match &a.fen {
        // A refused JFEN is said in the player's language.
        Some(f) => Jfen::parse_position(f, rules)
            .map_err(|e| anyhow!("--fen: {}", jungle_tui::i18n::invalid_jfen_text(lang, &e)))?,
        None => Position::start(rules),
    };
    // Every end the rules know (a den entered, a side wiped out or left without a move, the
    // no-capture draw), said in the player's language.
    if let Some(outcome) = Game::from_position(start).outcome() {
        bail!(jungle_tui::i18n::finished_position_text(lang, outcome));
    }
    let glyphs = match a.glyphs {
        Some(GlyphArg::Letters) => Glyphs::Letters,
        Some(GlyphArg::Chinese) => Glyphs::Chinese,
        None if lang.is_chinese() => Glyphs::Chinese,
        None => Glyphs::Letters,
    };
    let tc = a.tc;
    let (opponent, server, online_start) = match &a.server {
        Some(url) => {
            if a.fen.is_some() {
                bail!(said(
                    lang,
                    "--fen cannot be used with --server (the server sets up online games)",
                    &FEN_WITH_SERVER
                ));
            }
            if !a.hotseat && !rules.is_standard() {
                bail!(said(
                    lang,
                    "--rules with --server applies to --hotseat games only",
                    &RULES_WITH_SERVER
                ));
            }
            let first = if let Some(id) = &a.watch {
                send::watch_id(id)
            } else if a.hotseat {
                send::play_hotseat(tc, &a.rules)
            } else if let Some(level) = a.level {
                send::play_ai(level, color_of(a.color).name(), tc)
            } else {
                send::quick(tc)
            };
            let login = match (&a.name, &a.password) {
                (Some(n), Some(p)) => Some((n.clone(), p.clone())),
                (Some(_), None) => bail!(said(
                    lang,
                    "--name needs a password: --password or JUNGLE_PASSWORD",
                    &NAME_WITHOUT_PASSWORD
                )),
                _ => None,
            };
            let server = Server {
                url: url.clone(),
                login,
            };
            (Opponent::Online, Some(server), Some(first))
        }
        None if a.hotseat => (Opponent::Hotseat, None, None),
        None => (
            Opponent::Engine {
                level: a.level.unwrap_or(3),
                human: color_of(a.color),
            },
            None,
            None,
        ),
    };
    let config = Config {
        lang,
        glyphs,
        start,
        opponent,
        online_start,
        save_dir: std::env::current_dir().unwrap_or_default(),
    };
    jungle_tui::run(config, server)?;
    Ok(ExitCode::SUCCESS)
}

// ----- the command line in Chinese -----

/// A text of `jungle play`'s command line in Simplified and Traditional Chinese (its English is
/// clap's, from the doc comments above, or written beside it).
struct Zh(&'static str, &'static str);

impl Zh {
    /// The text in `lang` (Simplified for any Chinese but Traditional).
    fn get(&self, lang: Lang) -> &'static str {
        if lang == Lang::ZhHant {
            self.1
        } else {
            self.0
        }
    }
}

/// `en` in English, else `zh` in `lang`.
fn said(lang: Lang, en: &str, zh: &Zh) -> String {
    if lang.is_chinese() {
        zh.get(lang).to_string()
    } else {
        en.to_string()
    }
}

const FEN_WITH_SERVER: Zh = Zh(
    "--fen 不能和 --server 一起用（网络对局的局面由服务器决定）",
    "--fen 不能和 --server 一起用（網路對局的局面由伺服器決定）",
);
const RULES_WITH_SERVER: Zh = Zh(
    "--rules 和 --server 一起用时只适用于 --hotseat 对局",
    "--rules 和 --server 一起用時只適用於 --hotseat 對局",
);
const NAME_WITHOUT_PASSWORD: Zh = Zh(
    "--name 需要密码：用 --password 或环境变量 JUNGLE_PASSWORD 给出",
    "--name 需要密碼：用 --password 或環境變數 JUNGLE_PASSWORD 給出",
);

/// What `jungle play --help` says first.
const ABOUT: Zh = Zh(
    "在终端里下斗兽棋：对电脑、和朋友同机对弈，或在服务器上网络对局",
    "在終端機裡下鬥獸棋：對電腦、和朋友同機對弈，或在伺服器上網路對局",
);

/// The layout of the help: clap's, with its headings in Chinese.
const HELP_TEMPLATE: Zh = Zh(
    "{about-with-newline}\n用法：{usage}\n\n选项：\n{options}{after-help}",
    "{about-with-newline}\n用法：{usage}\n\n選項：\n{options}{after-help}",
);

/// The usage line of the help.
const USAGE: Zh = Zh("jungle play [选项]", "jungle play [選項]");

/// The help of `-h, --help`.
const HELP_FLAG: Zh = Zh("显示帮助", "顯示說明");

/// Each option's help, by its id, with its possible and default values said in it (clap's
/// `[default: …]` and `Possible values:` are hidden in Chinese).
const OPTIONS: &[(&str, Zh)] = &[
    (
        "level",
        Zh(
            "和电脑对弈，电脑的级别：1（入门）到 10（最强），默认 3。和 --server 一起用时，与服务器上的电脑对弈，不等真人对手。",
            "和電腦對弈，電腦的級別：1（入門）到 10（最強），預設 3。和 --server 一起用時，與伺服器上的電腦對弈，不等真人對手。",
        ),
    ),
    (
        "color",
        Zh(
            "对电脑时你执哪一方：red（红方，先走，在下方）或 blue（蓝方，后走，在上方）。默认 red。",
            "對電腦時你執哪一方：red（紅方，先走，在下方）或 blue（藍方，後走，在上方）。預設 red。",
        ),
    ),
    (
        "hotseat",
        Zh(
            "两人在同一个键盘上轮流走棋（不用电脑）。",
            "兩人在同一個鍵盤上輪流走棋（不用電腦）。",
        ),
    ),
    (
        "rules",
        Zh(
            "规则：standard（标准），或像 wolf_over_dog,no_7_3 这样的规则变化（RULES §9）。默认 standard。",
            "規則：standard（標準），或像 wolf_over_dog,no_7_3 這樣的規則變化（RULES §9）。預設 standard。",
        ),
    ),
    (
        "fen",
        Zh(
            "用 JFEN 给出开局的局面（默认：标准开局）。",
            "用 JFEN 給出開局的局面（預設：標準開局）。",
        ),
    ),
    (
        "server",
        Zh(
            "在这台服务器上网络对局，例如 http://127.0.0.1:8080（没有 --name 时用游客账号）。",
            "在這台伺服器上網路對局，例如 http://127.0.0.1:8080（沒有 --name 時用訪客帳號）。",
        ),
    ),
    (
        "watch",
        Zh(
            "观看这局网络对局（给出对局编号），自己不下。",
            "觀看這局網路對局（給出對局編號），自己不下。",
        ),
    ),
    (
        "name",
        Zh(
            "网络对局的账号名（密码由 --password 或环境变量 JUNGLE_PASSWORD 给出）。",
            "網路對局的帳號名稱（密碼由 --password 或環境變數 JUNGLE_PASSWORD 給出）。",
        ),
    ),
    (
        "password",
        Zh(
            "网络对局的账号密码（也可以由环境变量 JUNGLE_PASSWORD 给出）。",
            "網路對局的帳號密碼（也可以由環境變數 JUNGLE_PASSWORD 給出）。",
        ),
    ),
    (
        "tc",
        Zh(
            "网络对局的用时：局时+每步加秒/步时，单位秒（0 表示不限）。默认 600+0/60。",
            "網路對局的用時：局時+每步加秒/步時，單位秒（0 表示不限）。預設 600+0/60。",
        ),
    ),
    (
        "lang",
        Zh(
            "界面语言：en、zh-Hans 或 zh-Hant（默认：按环境变量 LANG）。",
            "介面語言：en、zh-Hans 或 zh-Hant（預設：依環境變數 LANG）。",
        ),
    ),
    (
        "glyphs",
        Zh(
            "动物的画法：letters（字母）或 chinese（汉字）（默认：中文界面用汉字，否则用字母）。下棋时按 Tab 切换。",
            "動物的畫法：letters（字母）或 chinese（漢字）（預設：中文介面用漢字，否則用字母）。下棋時按 Tab 切換。",
        ),
    ),
];

/// [`AFTER_HELP`] in Chinese.
const AFTER_HELP_ZH: Zh = Zh(
    "\
下棋时的按键：
  方向键 + 回车：选中动物，再在高亮的格子上按回车走棋
  鼠标：点击动物，再点击高亮的格子
  g3g4 / Rg4 + 回车：输入着法（起点终点，或动物字母加终点）
  u 悔棋（对电脑）  v 翻转棋盘  n 新局  s 保存 / o 打开棋谱
  i 提示：在棋盘上选好电脑推荐的一步（和真人对局时没有），按回车走这步
  x 分析：形势和电脑认为最好的三步及其后续（再按 x 关闭；
    和真人的对局进行中时不能用）
  对局结束后：左右键逐步查看，Home/End 到开头/结尾（x 分析所看的局面）
  Tab 字母/汉字  ? 帮助  Esc 取消  q 或 Ctrl-C 退出
  网络对局：= 求和或同意和棋  连按两次 ! 认输  n 再来一盘  u 悔棋（对服务器的电脑）
    对局进行中按 q 会先确认（离开会输掉这局，除非及时回来）
动物：E 象 > L 狮 > T 虎 > P 豹 > D 狗 > W 狼 > C 猫 > R 鼠
  （鼠可以吃象）；红方大写，蓝方小写。
  ~~ 小河，##（阱）陷阱，@@（穴）兽穴。走进对方兽穴即获胜。

示例：
  jungle play                          你（红方）对 3 级电脑
  jungle play --level 7 --color blue   执蓝方对更强的电脑
  jungle play --hotseat                两人同机对弈
  jungle play --server http://127.0.0.1:8080            网上和下一位玩家对局
  jungle play --server http://127.0.0.1:8080 --level 5  网上和服务器的电脑对局
  jungle play --server http://127.0.0.1:8080 --hotseat  网上对局，两人同机
  jungle play --server http://127.0.0.1:8080 --watch ID  观看一局",
    "\
下棋時的按鍵：
  方向鍵 + Enter：選取動物，再在高亮的格子上按 Enter 走棋
  滑鼠：點擊動物，再點擊高亮的格子
  g3g4 / Rg4 + Enter：輸入著法（起點終點，或動物字母加終點）
  u 悔棋（對電腦）  v 翻轉棋盤  n 新局  s 儲存 / o 開啟棋譜
  i 提示：在棋盤上選好電腦推薦的一步（和真人對局時沒有），按 Enter 走這步
  x 分析：形勢和電腦認為最好的三步及其後續（再按 x 關閉；
    和真人的對局進行中時不能用）
  對局結束後：左右鍵逐步檢視，Home/End 到開頭/結尾（x 分析所看的局面）
  Tab 字母/漢字  ? 說明  Esc 取消  q 或 Ctrl-C 離開
  網路對局：= 求和或同意和棋  連按兩次 ! 認輸  n 再來一盤  u 悔棋（對伺服器的電腦）
    對局進行中按 q 會先確認（離開會輸掉這局，除非及時回來）
動物：E 象 > L 獅 > T 虎 > P 豹 > D 狗 > W 狼 > C 貓 > R 鼠
  （鼠可以吃象）；紅方大寫，藍方小寫。
  ~~ 小河，##（阱）陷阱，@@（穴）獸穴。走進對方獸穴即獲勝。

範例：
  jungle play                          你（紅方）對 3 級電腦
  jungle play --level 7 --color blue   執藍方對更強的電腦
  jungle play --hotseat                兩人同機對弈
  jungle play --server http://127.0.0.1:8080            網路上和下一位玩家對局
  jungle play --server http://127.0.0.1:8080 --level 5  網路上和伺服器的電腦對局
  jungle play --server http://127.0.0.1:8080 --hotseat  網路對局，兩人同機
  jungle play --server http://127.0.0.1:8080 --watch ID  觀看一局",
);

/// "参数错误：" (what a refused command line is said after).
const BAD_ARGS: Zh = Zh("参数错误：", "參數錯誤：");
/// The hint on the line after a refused command line.
const SEE_HELP: Zh = Zh(
    "提示：用 jungle play --help 查看所有选项",
    "提示：用 jungle play --help 查看所有選項",
);
const UNKNOWN_OPTION: Zh = Zh("没有 {arg} 这个选项", "沒有 {arg} 這個選項");
const DID_YOU_MEAN: Zh = Zh("（是不是 {arg}？）", "（是不是 {arg}？）");
const EXTRA_ARGUMENT: Zh = Zh("多余的参数 {arg}", "多餘的參數 {arg}");
const BAD_VALUE: Zh = Zh("{arg} 的值{value}不对", "{arg} 的值{value}不對");
const NEEDS_NO_VALUE: Zh = Zh("{arg} 后面不用给值", "{arg} 後面不用給值");
const ONE_OF: Zh = Zh("：可以是 {list}", "：可以是 {list}");
const NO_VALUE: Zh = Zh("{arg} 后面缺少值", "{arg} 後面缺少值");
const CONFLICT: Zh = Zh("{arg} 不能和 {other} 一起用", "{arg} 不能和 {other} 一起用");
const TWICE: Zh = Zh("{arg} 只能给一次", "{arg} 只能給一次");
const MISSING: Zh = Zh("还需要 {arg}", "還需要 {arg}");

/// What a value of an option checked by a parser of its own must be, by the option's id.
const EXPECTED: &[(&str, Zh)] = &[
    ("level", Zh("应为 1 到 10 的整数", "應為 1 到 10 的整數")),
    (
        "tc",
        Zh(
            "应为 局时+每步加秒/步时，单位秒，例如 600+0/60",
            "應為 局時+每步加秒/步時，單位秒，例如 600+0/60",
        ),
    ),
    (
        "lang",
        Zh("应为 en、zh-Hans 或 zh-Hant", "應為 en、zh-Hans 或 zh-Hant"),
    ),
    (
        "rules",
        Zh(
            "应为 standard，或用逗号分开的规则变化，例如 wolf_over_dog,no_7_3（RULES §9）",
            "應為 standard，或用逗號分開的規則變化，例如 wolf_over_dog,no_7_3（RULES §9）",
        ),
    ),
];

/// The language `jungle play` speaks for the command line `args` (the program's name first),
/// known before clap reads it: its `--lang` where that names a language, else the
/// environment's ([`Lang::from_env`]). `None` where the command is not `jungle play` (nor
/// `jungle help play`).
pub fn args_lang(args: &[OsString]) -> Option<Lang> {
    let args: Vec<&str> = args.iter().skip(1).filter_map(|a| a.to_str()).collect();
    let sub = args.iter().position(|a| !a.starts_with('-'))?;
    let rest = match args[sub] {
        "play" => &args[sub + 1..],
        "help" if args.get(sub + 1) == Some(&"play") => &args[sub + 2..],
        _ => return None,
    };
    let mut lang = None;
    for (i, a) in rest.iter().enumerate() {
        if *a == "--" {
            break;
        }
        let value = match a.strip_prefix("--lang") {
            Some("") => rest.get(i + 1).copied(),
            Some(v) => v.strip_prefix('='),
            None => None,
        };
        if let Some(l) = value.and_then(|v| v.parse::<Lang>().ok()) {
            lang = Some(l);
        }
    }
    Some(lang.unwrap_or_else(Lang::from_env))
}

/// `jungle`'s command `cmd` with `play`'s help in `lang`: in Chinese its about, usage, headings,
/// every option's help (values and defaults said in it) and the keys and examples after them;
/// English is left as clap has it.
pub fn localize(cmd: clap::Command, lang: Lang) -> clap::Command {
    if !lang.is_chinese() {
        return cmd;
    }
    cmd.mut_subcommand("play", |play| {
        let mut play = play
            .about(ABOUT.get(lang))
            .long_about(None::<&str>)
            .after_help(AFTER_HELP_ZH.get(lang))
            .after_long_help(None::<&str>)
            .override_usage(USAGE.get(lang))
            .help_template(HELP_TEMPLATE.get(lang))
            .disable_help_flag(true)
            .arg(
                Arg::new("help")
                    .short('h')
                    .long("help")
                    .action(ArgAction::Help)
                    .help(HELP_FLAG.get(lang)),
            );
        for (id, text) in OPTIONS {
            let text = text.get(lang);
            play = play.mut_arg(id, |a| {
                let a = a.help(text).long_help(text).hide_env(true);
                if a.get_action().takes_values() {
                    a.hide_possible_values(true).hide_default_value(true)
                } else {
                    a
                }
            });
        }
        play
    })
}

/// A refused `jungle play` command line said in `lang`, for Chinese: "参数错误：" and what is
/// wrong — an unknown option (and the one perhaps meant), a bad value (and what it may be), a
/// missing value, a value for a switch, options that do not go together, one missing (rarer
/// cases in clap's English) — then a line pointing to `--help`. `None` in English, which clap says itself.
pub fn usage_error_text(lang: Lang, e: &clap::Error) -> Option<String> {
    if !lang.is_chinese() {
        return None;
    }
    let text = |zh: &Zh, fills: &[(&str, &str)]| {
        fills
            .iter()
            .fold(zh.get(lang).to_string(), |t, (name, value)| {
                t.replace(&format!("{{{name}}}"), value)
            })
    };
    let one = |kind: ContextKind| match e.get(kind) {
        Some(ContextValue::String(s)) => Some(s.clone()),
        Some(ContextValue::Strings(v)) => v.first().cloned(),
        _ => None,
    };
    let all = |kind: ContextKind| match e.get(kind) {
        Some(ContextValue::String(s)) => vec![s.clone()],
        Some(ContextValue::Strings(v)) => v.clone(),
        _ => Vec::new(),
    };
    // `--level <LEVEL>` is said as `--level`.
    let option = |s: &str| s.split([' ', '=']).next().unwrap_or(s).to_string();
    let arg = one(ContextKind::InvalidArg).map(|a| option(&a));
    let value = one(ContextKind::InvalidValue);
    let what = match (e.kind(), arg) {
        (ErrorKind::UnknownArgument, Some(arg)) if arg.starts_with('-') => {
            let mut t = text(&UNKNOWN_OPTION, &[("arg", &arg)]);
            if let Some(s) = one(ContextKind::SuggestedArg) {
                t.push_str(&text(&DID_YOU_MEAN, &[("arg", &option(&s))]));
            }
            t
        }
        (ErrorKind::UnknownArgument, Some(arg)) => {
            text(&EXTRA_ARGUMENT, &[("arg", &lang.quote(&arg))])
        }
        (ErrorKind::InvalidValue, Some(arg)) if value.as_deref().is_none_or(str::is_empty) => {
            text(&NO_VALUE, &[("arg", &arg)])
        }
        (ErrorKind::InvalidValue | ErrorKind::ValueValidation, Some(arg)) => {
            let value = lang.quote(&value.unwrap_or_default());
            let mut t = text(&BAD_VALUE, &[("arg", &arg), ("value", &value)]);
            let valid = all(ContextKind::ValidValue);
            let id = arg.trim_start_matches('-');
            if !valid.is_empty() {
                t.push_str(&text(&ONE_OF, &[("list", &valid.join("、"))]));
            } else if let Some((_, expected)) = EXPECTED.iter().find(|(i, _)| *i == id) {
                t.push_str(lang.detail("", expected.get(lang)).as_str());
            }
            t
        }
        (ErrorKind::TooManyValues, Some(arg)) => text(&NEEDS_NO_VALUE, &[("arg", &arg)]),
        (ErrorKind::ArgumentConflict, Some(arg)) => {
            let other = one(ContextKind::PriorArg).map(|o| option(&o));
            match other {
                Some(other) if other != arg => text(&CONFLICT, &[("arg", &arg), ("other", &other)]),
                _ => text(&TWICE, &[("arg", &arg)]),
            }
        }
        (ErrorKind::MissingRequiredArgument, _) => {
            let missing: Vec<String> = all(ContextKind::InvalidArg)
                .iter()
                .map(|a| option(a))
                .collect();
            text(&MISSING, &[("arg", &missing.join("、"))])
        }
        // Rarer ones in clap's words.
        _ => e
            .to_string()
            .lines()
            .next()
            .unwrap_or_default()
            .trim_start_matches("error: ")
            .to_string(),
    };
    Some(format!(
        "{}{what}\n{}",
        BAD_ARGS.get(lang),
        SEE_HELP.get(lang)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::FromArgMatches;

    /// `jungle` with only `play`, its help in `lang`.
    fn command(lang: Lang) -> clap::Command {
        let play = PlayArgs::augment_args(clap::Command::new("play"));
        localize(clap::Command::new("jungle").subcommand(play), lang)
    }

    fn os(args: &[&str]) -> Vec<OsString> {
        args.iter().map(OsString::from).collect()
    }

    /// The error of `jungle play <args>` said in `lang`, if it is one.
    fn refused(lang: Lang, args: &[&str]) -> Option<String> {
        let mut all = vec!["jungle", "play"];
        all.extend(args);
        let e = command(lang).try_get_matches_from(all).err()?;
        usage_error_text(lang, &e)
    }

    #[test]
    fn the_language_is_read_from_the_command_line_before_clap_reads_it() {
        let lang = |args: &[&str]| args_lang(&os(args));
        assert_eq!(
            lang(&["jungle", "play", "--lang", "zh-Hant", "--bogus"]),
            Some(Lang::ZhHant)
        );
        assert_eq!(
            lang(&["jungle", "play", "--hotseat", "--lang=zh-Hans"]),
            Some(Lang::ZhHans)
        );
        assert_eq!(
            lang(&["jungle", "help", "play", "--lang", "en"]),
            Some(Lang::En)
        );
        assert_eq!(
            lang(&["jungle", "play", "--lang", "en", "--lang=zh"]),
            Some(Lang::ZhHans)
        );
        // Not `jungle play`: clap's English.
        assert_eq!(lang(&["jungle", "perft", "--lang", "zh-Hans"]), None);
        assert_eq!(lang(&["jungle", "--help"]), None);
        assert_eq!(lang(&["jungle"]), None);
        // A value that is no language is left to clap (and to the environment meanwhile).
        assert!(lang(&["jungle", "play", "--lang", "fr"]).is_some());
    }

    #[test]
    fn the_help_in_chinese_has_no_english_left_but_names_and_values() {
        for lang in [Lang::ZhHans, Lang::ZhHant] {
            command(lang).debug_assert();
            let e = command(lang)
                .try_get_matches_from(["jungle", "play", "--help"])
                .unwrap_err();
            assert_eq!(e.kind(), ErrorKind::DisplayHelp);
            let help = e.to_string();
            assert!(help.starts_with(ABOUT.get(lang)), "{help}");
            assert!(
                help.contains(&format!("用法：{}", USAGE.get(lang))),
                "{help}"
            );
            for (id, text) in OPTIONS {
                assert!(help.contains(&format!("--{id}")), "{id}: {help}");
                assert!(help.contains(text.get(lang)), "{id}: {help}");
            }
            assert!(help.contains(HELP_FLAG.get(lang)), "{help}");
            assert!(help.contains(AFTER_HELP_ZH.get(lang)), "{help}");
            for english in [
                "Usage",
                "Options",
                "Possible values",
                "[default",
                "[env",
                "Print help",
                "Keys",
                "Examples",
                "Play the AI",
            ] {
                assert!(!help.contains(english), "{english}: {help}");
            }
            // -h too, and `jungle help play`.
            let short = command(lang)
                .try_get_matches_from(["jungle", "play", "-h"])
                .unwrap_err()
                .to_string();
            assert!(short.contains(OPTIONS[0].1.get(lang)), "{short}");
            let help_play = command(lang)
                .try_get_matches_from(["jungle", "help", "play"])
                .unwrap_err()
                .to_string();
            assert!(help_play.contains(ABOUT.get(lang)), "{help_play}");
        }
        // Both scripts say every option, each its own way.
        assert!(OPTIONS.iter().all(|(_, t)| t.0 != t.1));
        // English is clap's, as it was.
        let help = command(Lang::En)
            .try_get_matches_from(["jungle", "play", "--help"])
            .unwrap_err()
            .to_string();
        assert!(help.contains("Usage: jungle play [OPTIONS]"), "{help}");
        assert!(help.contains("Possible values:"), "{help}");
        assert!(help.contains(AFTER_HELP), "{help}");
    }

    #[test]
    fn bad_arguments_are_said_in_chinese_with_a_hint() {
        let hans = [
            (&["--bogus"][..], "没有 --bogus 这个选项"),
            (&["--levl", "3"], "没有 --levl 这个选项（是不是 --level？）"),
            (
                &["--level", "11"],
                "--level 的值“11”不对：应为 1 到 10 的整数",
            ),
            (
                &["--level", "x"],
                "--level 的值“x”不对：应为 1 到 10 的整数",
            ),
            (&["--level"], "--level 后面缺少值"),
            (
                &["--color", "green"],
                "--color 的值“green”不对：可以是 red、blue",
            ),
            (
                &["--lang", "fr"],
                "--lang 的值“fr”不对：应为 en、zh-Hans 或 zh-Hant",
            ),
            (
                &["--tc", "5"],
                "--tc 的值“5”不对：应为 局时+每步加秒/步时，单位秒，例如 600+0/60",
            ),
            (
                &["--rules", "no_such_rule"],
                "--rules 的值“no_such_rule”不对：应为 standard",
            ),
            (
                &["--watch", "g1", "--hotseat"],
                "--watch 不能和 --hotseat 一起用",
            ),
            (
                &["--hotseat", "--level", "3"],
                "--hotseat 不能和 --level 一起用",
            ),
            (&["--watch", "g1"], "还需要 --server"),
            (&["--hotseat=1"], "--hotseat 后面不用给值"),
            (&["extra"], "多余的参数 “extra”"),
        ];
        for (args, said) in hans {
            let text = refused(Lang::ZhHans, args).unwrap_or_else(|| panic!("{args:?}"));
            let lines: Vec<&str> = text.lines().collect();
            assert_eq!(lines.len(), 2, "{args:?}: {text}");
            assert!(lines[0].starts_with("参数错误："), "{args:?}: {text}");
            assert!(lines[0].contains(said), "{args:?}: {text}");
            assert_eq!(lines[1], SEE_HELP.get(Lang::ZhHans));
            assert!(!lines[0].contains("invalid"), "{text}");
        }
        let text = refused(Lang::ZhHant, &["--glyphs", "emoji"]).unwrap();
        assert_eq!(
            text,
            "參數錯誤：--glyphs 的值「emoji」不對：可以是 letters、chinese\n\
             提示：用 jungle play --help 查看所有選項"
        );
        // English is left to clap (and `main`).
        assert_eq!(refused(Lang::En, &["--bogus"]), None);
        // What clap accepts still parses to the arguments.
        let m = command(Lang::ZhHans)
            .try_get_matches_from(["jungle", "play", "--lang", "zh-Hant", "--tc", "300+3/0"])
            .unwrap();
        let a = PlayArgs::from_arg_matches(m.subcommand_matches("play").unwrap()).unwrap();
        assert_eq!(
            (a.lang, a.tc.to_string()),
            (Some(Lang::ZhHant), "300+3/0".into())
        );
    }
}
