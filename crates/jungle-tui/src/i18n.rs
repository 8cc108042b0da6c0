//! The message catalogue: every text the terminal client shows, in English, Simplified Chinese
//! and Traditional Chinese. Nothing user-facing is written inline anywhere else.

use jungle::{Color, Role, Termination};
use std::fmt;
use std::str::FromStr;

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

    /// The language of the environment: the first non-empty of `LC_ALL`, `LC_MESSAGES`, `LANG`.
    pub fn from_env() -> Lang {
        ["LC_ALL", "LC_MESSAGES", "LANG"]
            .iter()
            .filter_map(|k| std::env::var(k).ok())
            .find(|v| !v.is_empty())
            .map_or(Lang::En, |v| Lang::from_locale(&v))
    }

    /// Whether this is one of the Chinese languages.
    pub fn is_chinese(self) -> bool {
        self != Lang::En
    }

    fn pick(self, t: [&'static str; 3]) -> &'static str {
        match self {
            Lang::En => t[0],
            Lang::ZhHans => t[1],
            Lang::ZhHant => t[2],
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
        match s.to_ascii_lowercase().replace('_', "-").as_str() {
            "en" => Ok(Lang::En),
            "zh-hans" | "zh-cn" | "zh" => Ok(Lang::ZhHans),
            "zh-hant" | "zh-tw" | "zh-hk" => Ok(Lang::ZhHant),
            _ => Err(ParseLangError(s.to_string())),
        }
    }
}

/// A fixed message of the client.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)] // each variant is its English text below
pub enum Msg {
    Title,
    Moves,
    ToMove,
    You,
    Engine,
    Friend,
    Thinking,
    NotYourTurn,
    GameOver,
    ChooseOwnAnimal,
    AnimalCannotMove,
    IllegalMove,
    CannotReadMove,
    PassOnlyOnline,
    UndoNothing,
    Undone,
    NewGame,
    Flipped,
    SaveTo,
    OpenFile,
    Saved,
    Loaded,
    CannotSave,
    CannotOpen,
    LoadOnlyOffline,
    MoveLabel,
    KeysHelp,
    KeysOnline,
    HelpTitle,
    HelpBody,
    TooSmall,
    Draw,
    Wins,
    EngineNoMove,
    Connecting,
    Waiting,
    Disconnected,
    ServerError,
    DrawOffered,
    DrawOfferSent,
    ResignConfirm,
    TakebackOnlyAi,
    RematchOffered,
    RematchSent,
    GameStillOn,
    Spectating,
    OpponentAway,
    Clock,
    MoveTimer,
    Timeouts,
    Online,
    Hotseat,
    GlyphsLetters,
    GlyphsChinese,
}

impl Msg {
    /// The text in `lang`.
    pub fn text(self, lang: Lang) -> &'static str {
        use Msg::*;
        lang.pick(match self {
            Title => ["Jungle", "斗兽棋", "鬥獸棋"],
            Moves => ["Moves", "棋谱", "棋譜"],
            ToMove => ["to move", "走棋", "走棋"],
            You => ["you", "你", "你"],
            Engine => ["AI level", "电脑 等级", "電腦 等級"],
            Friend => ["friend", "朋友", "朋友"],
            Thinking => ["AI is thinking", "电脑思考中", "電腦思考中"],
            NotYourTurn => ["Not your turn", "还没轮到你", "還沒輪到你"],
            GameOver => [
                "The game is over: n for a new game, q to quit",
                "对局已结束：按 n 开新局，q 退出",
                "對局已結束：按 n 開新局，q 退出",
            ],
            ChooseOwnAnimal => [
                "Choose one of your own animals",
                "请选择己方的动物",
                "請選擇己方的動物",
            ],
            AnimalCannotMove => [
                "That animal has no legal move",
                "这只动物无棋可走",
                "這隻動物無棋可走",
            ],
            IllegalMove => ["Illegal move", "不合法的走法", "不合法的走法"],
            CannotReadMove => [
                "Cannot read that move (try g3g4 or Rg4)",
                "无法识别该走法（例如 g3g4 或 Rg4）",
                "無法識別該走法（例如 g3g4 或 Rg4）",
            ],
            PassOnlyOnline => [
                "A pass (--) exists only as an online timeout penalty",
                "停一步（--）只在网络对局超时时出现",
                "停一步（--）只在網路對局超時時出現",
            ],
            UndoNothing => ["Nothing to undo", "没有可悔的棋", "沒有可悔的棋"],
            Undone => ["Move taken back", "已悔棋", "已悔棋"],
            NewGame => ["New game", "新的一局", "新的一局"],
            Flipped => ["Board flipped", "棋盘已翻转", "棋盤已翻轉"],
            SaveTo => ["Save to", "保存到", "儲存到"],
            OpenFile => ["Open file", "打开文件", "開啟檔案"],
            Saved => ["Saved to", "已保存到", "已儲存到"],
            Loaded => ["Loaded", "已载入", "已載入"],
            CannotSave => ["Cannot save", "无法保存", "無法儲存"],
            CannotOpen => ["Cannot open", "无法打开", "無法開啟"],
            LoadOnlyOffline => [
                "Loading a game works only offline",
                "只能在离线对局中载入棋谱",
                "只能在離線對局中載入棋譜",
            ],
            MoveLabel => ["Move", "走法", "走法"],
            KeysHelp => [
                "? help  q quit  arrows+Enter, click or type g3g4: move  u undo  v flip  n new  s save  o open",
                "? 帮助  q 退出  方向键+回车/点击/输入 g3g4 走棋  u 悔棋  v 翻转  n 新局  s 保存  o 打开",
                "? 說明  q 離開  方向鍵+Enter/點擊/輸入 g3g4 走棋  u 悔棋  v 翻轉  n 新局  s 儲存  o 開啟",
            ],
            KeysOnline => [
                "? help  q quit  arrows+Enter, click or type g3g4: move  = draw  ! resign  u takeback  n rematch",
                "? 帮助  q 退出  方向键+回车/点击/输入 g3g4 走棋  = 求和  ! 认输  u 悔棋  n 再来一局",
                "? 說明  q 離開  方向鍵+Enter/點擊/輸入 g3g4 走棋  = 求和  ! 認輸  u 悔棋  n 再來一局",
            ],
            HelpTitle => ["Help", "帮助", "說明"],
            HelpBody => [
                "Move with the arrow keys, Enter picks an animal, then Enter on a highlighted square moves it (or click the animal, then the square).\n\
                 Or type a move: g3g4 (from, to) or Rg4 (animal letter, destination), then Enter.\n\
                 Animals: E elephant > L lion > T tiger > P leopard > D dog > W wolf > C cat > R rat; the rat takes the elephant.\n\
                 Red is uppercase, Blue lowercase. ~~ water (only the rat swims; lion and tiger jump it), ## (阱) trap, @@ (穴) den.\n\
                 Win by entering the enemy den, capturing every enemy animal, or leaving the enemy no move.\n\
                 Keys: u undo (against the AI), v flip, n new game, s save and o open a game record, Tab letters/characters.\n\
                 Online: = offer or accept a draw, ! twice resigns, u takes back against the AI, n rematch.\n\
                 Esc cancels. Ctrl-C quits at any time. Press any key to close this help.",
                "方向键移动光标，回车选中动物，再在高亮的格子上回车即可走棋（也可以用鼠标点击动物和目标格）。\n\
                 也可以直接输入走法：g3g4（起点终点）或 Rg4（动物字母加终点），再按回车。\n\
                 动物大小：象 > 狮 > 虎 > 豹 > 狗 > 狼 > 猫 > 鼠；鼠可以吃象。\n\
                 ~~ 为小河（只有鼠能下水，狮虎可以跳河），阱（##）为陷阱，穴（@@）为兽穴。\n\
                 走进对方兽穴、吃光对方动物或使对方无棋可走即获胜。\n\
                 按键：u 悔棋（对电脑），v 翻转棋盘，n 新局，s 保存、o 打开棋谱，Tab 切换字母/汉字。\n\
                 网络对局：= 求和或同意和棋，连按两次 ! 认输，u 向电脑悔棋，n 再来一局。\n\
                 Esc 取消。任何时候按 Ctrl-C 退出。按任意键关闭帮助。",
                "方向鍵移動游標，Enter 選取動物，再在高亮的格子上按 Enter 即可走棋（也可以用滑鼠點擊動物和目標格）。\n\
                 也可以直接輸入走法：g3g4（起點終點）或 Rg4（動物字母加終點），再按 Enter。\n\
                 動物大小：象 > 獅 > 虎 > 豹 > 狗 > 狼 > 貓 > 鼠；鼠可以吃象。\n\
                 ~~ 為小河（只有鼠能下水，獅虎可以跳河），阱（##）為陷阱，穴（@@）為獸穴。\n\
                 走進對方獸穴、吃光對方動物或使對方無棋可走即獲勝。\n\
                 按鍵：u 悔棋（對電腦），v 翻轉棋盤，n 新局，s 儲存、o 開啟棋譜，Tab 切換字母/漢字。\n\
                 網路對局：= 求和或同意和棋，連按兩次 ! 認輸，u 向電腦悔棋，n 再來一局。\n\
                 Esc 取消。任何時候按 Ctrl-C 離開。按任意鍵關閉說明。",
            ],
            TooSmall => [
                "The terminal is too small: make it at least 64x16",
                "终端窗口太小：至少需要 64x16",
                "終端機視窗太小：至少需要 64x16",
            ],
            Draw => ["Draw", "和棋", "和棋"],
            Wins => ["wins", "胜", "勝"],
            EngineNoMove => [
                "The AI found no move",
                "电脑没有找到走法",
                "電腦沒有找到走法",
            ],
            Connecting => ["Connecting to the server", "正在连接服务器", "正在連線伺服器"],
            Waiting => [
                "Waiting for an opponent",
                "等待对手加入",
                "等待對手加入",
            ],
            Disconnected => [
                "Disconnected (reconnecting)",
                "连接已断开（正在重连）",
                "連線已中斷（正在重新連線）",
            ],
            ServerError => ["Server", "服务器", "伺服器"],
            DrawOffered => [
                "Your opponent offers a draw: = accepts",
                "对手提和：按 = 同意",
                "對手提和：按 = 同意",
            ],
            DrawOfferSent => ["Draw offered", "已提和", "已提和"],
            ResignConfirm => [
                "Press ! again to resign",
                "再按一次 ! 认输",
                "再按一次 ! 認輸",
            ],
            TakebackOnlyAi => [
                "Takebacks exist only against the AI",
                "只有对电脑时可以悔棋",
                "只有對電腦時可以悔棋",
            ],
            RematchOffered => [
                "Your opponent wants a rematch: n accepts",
                "对手想再来一局：按 n 同意",
                "對手想再來一局：按 n 同意",
            ],
            RematchSent => ["Rematch offered", "已请求再来一局", "已請求再來一局"],
            GameStillOn => [
                "This game is still on (! twice resigns)",
                "本局尚未结束（连按两次 ! 认输）",
                "本局尚未結束（連按兩次 ! 認輸）",
            ],
            Spectating => [
                "You are watching this game",
                "你正在观战",
                "你正在觀戰",
            ],
            OpponentAway => ["disconnected", "已断线", "已斷線"],
            Clock => ["clock", "局时", "局時"],
            MoveTimer => ["move", "步时", "步時"],
            Timeouts => ["timeouts", "超时", "超時"],
            Online => ["online", "网络对局", "網路對局"],
            Hotseat => [
                "two players, one keyboard",
                "双人同机对弈",
                "雙人同機對弈",
            ],
            GlyphsLetters => ["Letters", "字母", "字母"],
            GlyphsChinese => ["Chinese characters", "汉字", "漢字"],
        })
    }
}

/// The name of a side.
pub fn color_name(lang: Lang, c: Color) -> &'static str {
    match c {
        Color::Red => lang.pick(["Red", "红方", "紅方"]),
        Color::Blue => lang.pick(["Blue", "蓝方", "藍方"]),
    }
}

/// The one-character Chinese name of an animal in `lang`'s script (the simplified form for
/// English, which shows Chinese characters only when asked).
pub fn role_char(lang: Lang, r: Role) -> char {
    match (lang, r) {
        (Lang::ZhHant, Role::Lion) => '獅',
        (Lang::ZhHant, Role::Cat) => '貓',
        _ => r.chinese(),
    }
}

/// Why a game ended, for people.
pub fn reason_text(lang: Lang, reason: &str) -> &'static str {
    lang.pick(match reason {
        "den" => ["entered the den", "入穴", "入穴"],
        "wipeout" => ["captured every animal", "吃光", "吃光"],
        "no-moves" => ["no legal move left", "困毙", "困斃"],
        "draw-plies" => [
            "100 rounds without a capture",
            "百回合无吃子",
            "百回合無吃子",
        ],
        "time" => ["time ran out", "超时负", "超時負"],
        "timeouts" => ["too many timeouts", "超时弃权", "超時棄權"],
        "resign" => ["resignation", "认输", "認輸"],
        "left" => ["left the game", "逃跑", "逃跑"],
        "disconnect" => ["did not reconnect", "断线未归", "斷線未歸"],
        "agreed" => ["agreed draw", "双方同意和棋", "雙方同意和棋"],
        "aborted" => ["aborted", "对局取消", "對局取消"],
        _ => ["game over", "对局结束", "對局結束"],
    })
}

/// The reason text of a rules termination.
pub fn termination_text(lang: Lang, t: Termination) -> &'static str {
    reason_text(lang, t.as_str())
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
    }

    #[test]
    fn lang_flag_values_parse_and_bad_ones_are_named() {
        assert_eq!("zh-Hant".parse::<Lang>(), Ok(Lang::ZhHant));
        assert_eq!("zh-Hans".parse::<Lang>(), Ok(Lang::ZhHans));
        assert_eq!("en".parse::<Lang>(), Ok(Lang::En));
        let e = "fr".parse::<Lang>().unwrap_err();
        assert!(e.to_string().contains("`fr`"));
    }

    #[test]
    fn every_message_differs_between_english_and_chinese() {
        use Msg::*;
        let all = [
            Title,
            Moves,
            ToMove,
            You,
            Engine,
            Friend,
            Thinking,
            NotYourTurn,
            GameOver,
            ChooseOwnAnimal,
            AnimalCannotMove,
            IllegalMove,
            CannotReadMove,
            PassOnlyOnline,
            UndoNothing,
            Undone,
            NewGame,
            Flipped,
            SaveTo,
            OpenFile,
            Saved,
            Loaded,
            CannotSave,
            CannotOpen,
            LoadOnlyOffline,
            MoveLabel,
            KeysHelp,
            KeysOnline,
            HelpTitle,
            HelpBody,
            TooSmall,
            Draw,
            Wins,
            EngineNoMove,
            Connecting,
            Waiting,
            Disconnected,
            ServerError,
            DrawOffered,
            DrawOfferSent,
            ResignConfirm,
            TakebackOnlyAi,
            RematchOffered,
            RematchSent,
            GameStillOn,
            Spectating,
            OpponentAway,
            Clock,
            MoveTimer,
            Timeouts,
            Online,
            Hotseat,
            GlyphsLetters,
            GlyphsChinese,
        ];
        for m in all {
            assert!(!m.text(Lang::En).is_empty());
            assert_ne!(m.text(Lang::En), m.text(Lang::ZhHans), "{m:?}");
            assert_ne!(m.text(Lang::En), m.text(Lang::ZhHant), "{m:?}");
        }
    }

    #[test]
    fn traditional_script_uses_traditional_animal_characters() {
        assert_eq!(role_char(Lang::ZhHant, Role::Lion), '獅');
        assert_eq!(role_char(Lang::ZhHans, Role::Lion), '狮');
        assert_eq!(role_char(Lang::ZhHant, Role::Cat), '貓');
        assert_eq!(role_char(Lang::ZhHant, Role::Rat), '鼠');
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
        assert_eq!(reason_text(Lang::En, "???"), "game over");
    }
}
