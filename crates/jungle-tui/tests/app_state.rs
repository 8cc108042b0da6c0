//! The client's state machine driven by events, without a terminal: input → state.

use jungle::{Color, Game, Jfen, Move, Position, Rules, Square};
use jungle_engine::{Score, SearchLine, SearchResult};
use jungle_tui::app::{App, Command, Config, Event, Glyphs, Key, Opponent, Prompt};
use jungle_tui::proto::{Seat, ServerMsg, Side};
use jungle_tui::Lang;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

fn config(opponent: Opponent, fen: Option<&str>) -> Config {
    let start = match fen {
        Some(f) => Jfen::parse_position(f, Rules::STANDARD).unwrap(),
        None => Position::start(Rules::STANDARD),
    };
    Config {
        lang: Lang::En,
        glyphs: Glyphs::Letters,
        start,
        opponent,
        online_start: Some(json!({"t":"quick","tc":{"clock_s":60,"inc_s":0,"move_s":10}})),
        save_dir: std::env::temp_dir(),
    }
}

fn engine(human: Color) -> Opponent {
    Opponent::Engine { level: 3, human }
}

fn new(opponent: Opponent, fen: Option<&str>) -> (App, Vec<Command>, Instant) {
    let now = Instant::now();
    let (app, cmds) = App::new(config(opponent, fen), now);
    (app, cmds, now)
}

fn press(app: &mut App, now: Instant, keys: &[Key]) -> Vec<Command> {
    let mut out = Vec::new();
    for k in keys {
        out.extend(app.handle(Event::Key(*k), now));
    }
    out
}

fn type_text(app: &mut App, now: Instant, text: &str) -> Vec<Command> {
    let mut out = Vec::new();
    for c in text.chars() {
        out.extend(app.handle(Event::Key(Key::Char(c)), now));
    }
    out.extend(app.handle(Event::Key(Key::Enter), now));
    out
}

fn mv(s: &str) -> Move {
    let from: Square = s[..2].parse().unwrap();
    let to: Square = s[2..].parse().unwrap();
    Move::new(from, to)
}

fn think_generation(cmds: &[Command]) -> Option<(u64, usize)> {
    cmds.iter().find_map(|c| match c {
        Command::Think {
            generation, game, ..
        } => Some((*generation, game.len())),
        _ => None,
    })
}

fn sent(cmds: &[Command]) -> Vec<Value> {
    cmds.iter()
        .filter_map(|c| match c {
            Command::Send(v) => Some(v.clone()),
            _ => None,
        })
        .collect()
}

fn status(app: &App) -> String {
    app.status
        .as_ref()
        .map(|s| s.text.clone())
        .unwrap_or_default()
}

#[test]
fn default_game_waits_for_red_and_an_engine_playing_red_starts_at_once() {
    let (app, cmds, _) = new(engine(Color::Red), None);
    assert!(cmds.is_empty());
    assert!(app.can_move());
    assert!(!app.flipped);
    let (app, cmds, _) = new(engine(Color::Blue), None);
    assert_eq!(think_generation(&cmds), Some((1, 0)));
    assert!(app.thinking.is_some());
    assert!(app.flipped, "Blue plays from the bottom");
    assert!(!app.can_move());
}

#[test]
fn arrows_and_enter_select_show_targets_and_move() {
    let (mut app, _, now) = new(engine(Color::Red), None);
    assert_eq!(app.cursor, Square::D3);
    press(
        &mut app,
        now,
        &[Key::Right, Key::Right, Key::Right, Key::Right],
    );
    assert_eq!(app.cursor, Square::G3, "the cursor stops at the edge");
    press(&mut app, now, &[Key::Enter]);
    assert_eq!(app.selected, Some(Square::G3));
    let targets = app.targets();
    for sq in [Square::G4, Square::F3, Square::G2] {
        assert!(targets.contains(sq), "{sq}");
    }
    assert!(!targets.contains(Square::G3));
    let cmds = press(&mut app, now, &[Key::Up, Key::Enter]);
    assert_eq!(app.game.moves().collect::<Vec<_>>(), vec![mv("g3g4")]);
    assert_eq!(app.selected, None);
    assert_eq!(think_generation(&cmds), Some((1, 1)), "the engine answers");
    assert!(!app.can_move());
    press(&mut app, now, &[Key::Enter]);
    assert!(status(&app).contains("not your turn"));
}

#[test]
fn enter_on_empty_or_enemy_squares_explains_why_and_changes_nothing() {
    let (mut app, _, now) = new(Opponent::Hotseat, None);
    press(&mut app, now, &[Key::Right, Key::Enter]); // e3 holds Red's leopard
    assert_eq!(app.selected, Some(Square::E3));
    // d4 is not a leopard move: an error with the reason, the selection stays.
    press(&mut app, now, &[Key::Left, Key::Up, Key::Enter]);
    assert_eq!(app.cursor, Square::D4);
    assert!(
        status(&app).starts_with("That move is not allowed: "),
        "{}",
        status(&app)
    );
    assert!(app.game.is_empty());
    press(&mut app, now, &[Key::Esc]);
    assert_eq!(app.selected, None);
    press(&mut app, now, &[Key::Enter]);
    assert!(status(&app).contains("your own animals"));
    // A square of the enemy (Blue's den here, then its lion) is refused like an empty one.
    for _ in 0..5 {
        press(&mut app, now, &[Key::Up]);
    }
    assert_eq!(app.cursor, Square::D9);
    press(&mut app, now, &[Key::Enter]);
    assert!(status(&app).contains("your own animals"));
}

#[test]
fn the_engine_answer_is_played_and_stale_answers_are_dropped() {
    let (mut app, _, now) = new(engine(Color::Red), None);
    let cmds = type_text(&mut app, now, "g3g4");
    let (g, _) = think_generation(&cmds).unwrap();
    // An answer to an older search is ignored.
    app.handle(
        Event::AiMove {
            generation: g - 1,
            mv: Some(mv("a7a6")),
        },
        now,
    );
    assert_eq!(app.game.len(), 1);
    // An illegal answer is refused with a message.
    app.handle(
        Event::AiMove {
            generation: g,
            mv: Some(mv("a7a5")),
        },
        now,
    );
    assert_eq!(app.game.len(), 1);
    assert!(status(&app).contains("AI found no move"));
    // Waiting on a fresh search: a legal answer is played and the turn comes back.
    let (mut app, _, now) = new(engine(Color::Red), None);
    let (g, _) = think_generation(&type_text(&mut app, now, "g3g4")).unwrap();
    let later = now + Duration::from_millis(1500);
    assert_eq!(app.thinking_for(later), Some(Duration::from_millis(1500)));
    app.handle(
        Event::AiMove {
            generation: g,
            mv: Some(mv("a7a6")),
        },
        later,
    );
    assert_eq!(app.game.len(), 2);
    assert!(app.thinking.is_none());
    assert!(app.can_move());
}

#[test]
fn typed_moves_in_both_notations_and_clear_errors() {
    let (mut app, _, now) = new(Opponent::Hotseat, None);
    type_text(&mut app, now, "Rg4");
    type_text(&mut app, now, "a7a6");
    assert_eq!(app.game.len(), 2);
    type_text(&mut app, now, "g4g6");
    assert!(
        status(&app).starts_with("That move is not allowed: `g4g6`"),
        "{}",
        status(&app)
    );
    type_text(&mut app, now, "zz9");
    assert!(status(&app).contains("Cannot read that move"));
    // Why not, in the player's language.
    app.lang = Lang::ZhHant;
    type_text(&mut app, now, "c3c4");
    assert_eq!(status(&app), "這步棋不能走：「c3c4」：只有鼠能下水");
    type_text(&mut app, now, "Lxf1");
    assert_eq!(
        status(&app),
        "這步棋不能走：「Lxf1」：x 表示吃子，但 f1 是空的"
    );
    app.lang = Lang::En;
    type_text(&mut app, now, "c3c4");
    assert_eq!(
        status(&app),
        "That move is not allowed: `c3c4`: only the rat may enter the water"
    );
    type_text(&mut app, now, "--");
    assert!(status(&app).contains("online"));
    type_text(&mut app, now, "鼠g5");
    assert_eq!(app.game.len(), 3);
    // Backspace edits, Esc abandons.
    press(
        &mut app,
        now,
        &[Key::Char('a'), Key::Char('x'), Key::Backspace],
    );
    assert_eq!(app.input, "a");
    press(&mut app, now, &[Key::Esc]);
    assert_eq!(app.input, "");
    assert_eq!(app.game.len(), 3);
}

#[test]
fn undo_against_the_engine_takes_back_the_pair_and_cancels_a_search() {
    let (mut app, _, now) = new(engine(Color::Red), None);
    let (g, _) = think_generation(&type_text(&mut app, now, "g3g4")).unwrap();
    app.handle(
        Event::AiMove {
            generation: g,
            mv: Some(mv("a7a6")),
        },
        now,
    );
    assert_eq!(app.game.len(), 2);
    press(&mut app, now, &[Key::Char('u')]);
    assert!(
        app.game.is_empty(),
        "the AI's reply and the own move are gone"
    );
    assert!(app.can_move());
    // Undo while the engine thinks: the own move goes and the late answer is dropped.
    let (g, _) = think_generation(&type_text(&mut app, now, "g3g4")).unwrap();
    let cmds = press(&mut app, now, &[Key::Char('u')]);
    assert!(
        matches!(cmds.as_slice(), [Command::StopThinking]),
        "the search is stopped and none started"
    );
    assert!(app.game.is_empty());
    assert!(app.thinking.is_none());
    app.handle(
        Event::AiMove {
            generation: g,
            mv: Some(mv("a7a6")),
        },
        now,
    );
    assert!(app.game.is_empty());
    let cmds = press(&mut app, now, &[Key::Char('u')]);
    assert!(cmds.is_empty());
    assert!(status(&app).contains("Nothing to undo"));
}

#[test]
fn undo_when_the_engine_opened_the_game_lets_it_move_again() {
    let (mut app, cmds, now) = new(engine(Color::Blue), None);
    let (g, _) = think_generation(&cmds).unwrap();
    app.handle(
        Event::AiMove {
            generation: g,
            mv: Some(mv("g3g4")),
        },
        now,
    );
    assert!(app.can_move());
    let cmds = type_text(&mut app, now, "a7a6");
    let (g2, _) = think_generation(&cmds).unwrap();
    app.handle(
        Event::AiMove {
            generation: g2,
            mv: Some(mv("g4g5")),
        },
        now,
    );
    press(&mut app, now, &[Key::Char('u')]);
    assert_eq!(
        app.game.len(),
        1,
        "back to the position after the engine's first move"
    );
    assert!(app.can_move());
}

#[test]
fn hotseat_plays_both_sides_and_undoes_one_ply() {
    let (mut app, _, now) = new(Opponent::Hotseat, None);
    type_text(&mut app, now, "g3g4");
    assert!(app.can_move(), "Blue moves at the same keyboard");
    assert_eq!(app.turn_text(), "Blue's turn");
    type_text(&mut app, now, "a7a6");
    press(&mut app, now, &[Key::Char('u')]);
    assert_eq!(app.game.len(), 1);
    assert_eq!(app.game.position().turn(), Color::Blue);
}

#[test]
fn flipping_turns_the_arrow_keys_too() {
    let (mut app, _, now) = new(Opponent::Hotseat, None);
    press(&mut app, now, &[Key::Char('v')]);
    assert!(app.flipped);
    let start = app.cursor;
    press(&mut app, now, &[Key::Up, Key::Right]);
    assert_eq!(app.cursor.rank(), start.rank() - 1, "up goes toward rank 1");
    assert_eq!(
        app.cursor.file(),
        start.file() - 1,
        "right goes toward file a"
    );
    press(&mut app, now, &[Key::Char('v')]);
    assert!(!app.flipped);
}

#[test]
fn a_den_entry_ends_the_game_with_winner_and_reason_and_n_starts_again() {
    let fen = "l6/3R3/7/7/7/7/7/7/6L r 0 1";
    let (mut app, _, now) = new(engine(Color::Red), Some(fen));
    let cmds = type_text(&mut app, now, "d8d9");
    assert!(cmds.is_empty(), "no engine search after the end");
    // The player at the keyboard is told first that they won.
    assert_eq!(
        app.result_text().as_deref(),
        Some("You won: Red wins (entered the den)")
    );
    assert!(!app.can_move());
    press(&mut app, now, &[Key::Enter]);
    assert!(status(&app).contains("game is over"));
    press(&mut app, now, &[Key::Char('n')]);
    assert!(app.game.is_empty());
    assert_eq!(
        Jfen::from_position(app.game.position()).to_string(),
        "l6/3R3/7/7/7/7/7/7/6L r 0 1",
        "a new game starts from --fen"
    );
    assert!(app.result_text().is_none());
}

#[test]
fn online_results_say_who_did_what_then_who_wins_and_a_player_whether_they_won() {
    // (you, winner, reason, language, the result line)
    let cases = [
        (
            "both",
            "red",
            "disconnect",
            Lang::ZhHans,
            "蓝方断线未归，红方胜",
        ),
        ("both", "blue", "resign", Lang::ZhHans, "红方认输，蓝方胜"),
        (
            "both",
            "blue",
            "resign",
            Lang::En,
            "Red resigned — Blue wins",
        ),
        ("both", "red", "left", Lang::ZhHant, "藍方中途離開，紅方勝"),
        ("both", "red", "time", Lang::ZhHans, "蓝方超时，红方胜"),
        (
            "both",
            "blue",
            "timeouts",
            Lang::En,
            "Red ran out of move time 4 times — Blue wins",
        ),
        ("both", "red", "den", Lang::ZhHans, "红方胜（攻入兽穴）"),
        (
            "red",
            "red",
            "disconnect",
            Lang::ZhHans,
            "你赢了：蓝方断线未归，红方胜",
        ),
        (
            "red",
            "blue",
            "resign",
            Lang::ZhHans,
            "你输了：红方认输，蓝方胜",
        ),
        (
            "blue",
            "blue",
            "resign",
            Lang::En,
            "You won: Red resigned — Blue wins",
        ),
        (
            "blue",
            "red",
            "den",
            Lang::ZhHant,
            "你輸了：紅方勝（攻入獸穴）",
        ),
        ("x", "red", "resign", Lang::ZhHans, "蓝方认输，红方胜"),
    ];
    for (you, winner, reason, lang, said) in cases {
        let (mut app, _, now) = new(Opponent::Online, None);
        app.lang = lang;
        let seat = if you == "x" {
            json!({"you": null})
        } else {
            json!({})
        };
        app.handle(Event::Server(state(you, &["g3g4"], seat)), now);
        server(
            &mut app,
            now,
            json!({"t":"ended","game":"g1","result":{"winner":winner,"reason":reason},"changes":{}}),
        );
        assert_eq!(app.result_text().as_deref(), Some(said), "{you} {reason}");
        assert_eq!(status(&app), said);
    }
    // A draw agreed: said as such, for players and spectators alike.
    for (you, lang, said) in [
        ("red", Lang::ZhHans, "双方同意和棋"),
        ("both", Lang::ZhHant, "雙方同意和棋"),
        ("blue", Lang::En, "Drawn by agreement"),
    ] {
        let (mut app, _, now) = new(Opponent::Online, None);
        app.lang = lang;
        app.handle(Event::Server(state(you, &["g3g4"], json!({}))), now);
        server(
            &mut app,
            now,
            json!({"t":"ended","game":"g1","result":{"winner":null,"reason":"agreed"},"changes":{}}),
        );
        assert_eq!(app.result_text().as_deref(), Some(said));
    }
    // Against the engine on this machine, the person hears whether they won.
    let (mut app, _, now) = new(engine(Color::Blue), Some("l6/7/7/7/7/7/7/3r3/6L b 0 1"));
    app.lang = Lang::ZhHans;
    type_text(&mut app, now, "d2d1");
    assert_eq!(
        app.result_text().as_deref(),
        Some("你赢了：蓝方胜（攻入兽穴）")
    );
}

#[test]
fn results_are_in_the_display_language() {
    let mut c = config(Opponent::Hotseat, Some("l6/3R3/7/7/7/7/7/7/6L r 0 1"));
    c.lang = Lang::ZhHant;
    let now = Instant::now();
    let (mut app, _) = App::new(c, now);
    assert_eq!(app.turn_text(), "輪到紅方走");
    type_text(&mut app, now, "d8d9");
    assert_eq!(app.result_text().as_deref(), Some("紅方勝（攻入獸穴）"));
}

/// A temporary directory of the test's own, removed with its files when dropped.
fn temp_dir() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("jungle-tui-test-")
        .tempdir()
        .unwrap()
}

fn enter_path(app: &mut App, now: Instant, key: char, path: &str) {
    press(app, now, &[Key::Char(key)]);
    let len = match &app.prompt {
        Some(Prompt::Save(b)) | Some(Prompt::Open(b)) => b.chars().count(),
        None => panic!("no prompt after `{key}`"),
    };
    for _ in 0..len {
        press(app, now, &[Key::Backspace]);
    }
    type_text(app, now, path);
}

#[test]
fn save_then_load_restores_the_game_and_bad_files_are_refused() {
    let (mut app, _, now) = new(Opponent::Hotseat, None);
    for m in ["g3g4", "a7a6", "g4g5"] {
        type_text(&mut app, now, m);
    }
    let dir = temp_dir();
    let path = dir.path().join("save.pgn");
    let p = path.display().to_string();
    press(&mut app, now, &[Key::Char('s')]);
    assert!(
        matches!(&app.prompt, Some(Prompt::Save(b)) if b.ends_with(".pgn")),
        "a default file name is offered"
    );
    press(&mut app, now, &[Key::Esc]);
    assert!(app.prompt.is_none());
    enter_path(&mut app, now, 's', &p);
    assert!(status(&app).starts_with("Saved to"), "{}", status(&app));
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("[Variant \"standard\"]"), "{text}");
    assert!(text.contains("1. Rg4 Ra6 2. Rg5 *"), "{text}");

    press(&mut app, now, &[Key::Char('n')]);
    assert!(app.game.is_empty());
    enter_path(&mut app, now, 'o', &p);
    assert_eq!(
        app.game.moves().collect::<Vec<_>>(),
        vec![mv("g3g4"), mv("a7a6"), mv("g4g5")]
    );
    assert!(status(&app).starts_with("Loaded"));

    let bad = dir.path().join("bad.pgn");
    std::fs::write(&bad, "1. Rg4 Rg5 *\n").unwrap();
    enter_path(&mut app, now, 'o', &bad.display().to_string());
    assert!(status(&app).starts_with("Cannot open"), "{}", status(&app));
    assert_eq!(app.game.len(), 3, "the shown game is kept");
    enter_path(&mut app, now, 'o', "/nonexistent/dir/x.pgn");
    assert!(status(&app).starts_with("Cannot open"));
    enter_path(&mut app, now, 's', "/nonexistent/dir/x.pgn");
    assert!(status(&app).starts_with("Cannot save"));
}

#[test]
fn file_and_record_errors_are_said_in_the_players_language() {
    let (mut app, _, now) = new(Opponent::Hotseat, None);
    app.lang = Lang::ZhHans;
    let dir = temp_dir();
    let open = |app: &mut App, path: &str| {
        enter_path(app, now, 'o', path);
        status(app)
    };
    assert_eq!(
        open(&mut app, "/nonexistent/dir/x.pgn"),
        "无法打开 /nonexistent/dir/x.pgn：找不到这个文件"
    );
    let folder = dir.path().display().to_string();
    assert_eq!(
        open(&mut app, &folder),
        format!("无法打开 {folder}：这是文件夹，不是文件")
    );
    let binary = dir.path().join("bin.pgn");
    std::fs::write(&binary, [0xff, 0xfe, 0x00]).unwrap();
    assert!(open(&mut app, &binary.display().to_string())
        .ends_with("这不是文本文件（需要 UTF-8 文字）"));
    // A move that breaks the rules: which one, and why, in Chinese.
    let bad = dir.path().join("bad.pgn");
    std::fs::write(&bad, "1. Rg4 Rg5 *\n").unwrap();
    let said = open(&mut app, &bad.display().to_string());
    assert!(said.contains("棋谱第 2 步 Rg5 不能走："), "{said}");
    assert!(!said.contains("ply"), "{said}");
    // Text that is not a record: where.
    std::fs::write(&bad, "[Event \"x\"\n1. Rg4 *\n").unwrap();
    let said = open(&mut app, &bad.display().to_string());
    assert!(said.contains("棋谱第 1 行第"), "{said}");
    // Saving where no folder is: the folder is not there (not "no such file").
    enter_path(&mut app, now, 's', "/nonexistent/dir/x.pgn");
    assert_eq!(
        status(&app),
        "无法保存 /nonexistent/dir/x.pgn：这个文件夹不存在"
    );
    app.lang = Lang::En;
    enter_path(&mut app, now, 's', "/nonexistent/dir/x.pgn");
    assert_eq!(
        status(&app),
        "Cannot save /nonexistent/dir/x.pgn: there is no such folder"
    );
    app.lang = Lang::ZhHans;
    assert!(app.game.is_empty(), "nothing was loaded");
}

#[test]
fn a_records_result_that_does_not_hold_is_said_in_the_players_language() {
    let dir = temp_dir();
    let path = dir.path().join("ended.pgn");
    let file = path.display().to_string();
    // (A [Result] tag that is no result, or one against the result after the moves, is refused
    // as the text is read: RecordError::InvalidResult and ResultTagMismatch come only from
    // records made in code, and are tested with record_error_text itself.)
    let records = [
        // Moves that end the game (Red's rat enters the den) with another result.
        "[FEN \"l6/3R3/7/7/7/7/7/7/6L r 0 1\"]\n[Result \"0-1\"]\n\n1. Rd9# 0-1\n",
        // A [Variant] that is no rule set.
        "[Variant \"nonsense\"]\n\n1. Rg4 *\n",
    ];
    let said = |lang: Lang| -> Vec<String> {
        records
            .iter()
            .map(|text| {
                std::fs::write(&path, text).unwrap();
                let (mut app, _, now) = new(Opponent::Hotseat, None);
                app.lang = lang;
                enter_path(&mut app, now, 'o', &file);
                assert!(app.game.is_empty(), "nothing was loaded from {text}");
                status(&app)
            })
            .collect()
    };
    let head = format!("无法打开 {file}：");
    let zh = said(Lang::ZhHans);
    let board = "棋谱的着法在第 1 步就分出了结果（红方胜，攻入兽穴），棋谱写的结果却是 0-1";
    assert_eq!(zh[0], format!("{head}{board}"));
    let variant = format!("{head}棋谱的 [Variant] 标签有误：没有「nonsense」这个规则变化");
    assert_eq!(zh[1], variant);
    for line in &zh {
        assert!(
            !line.contains("result") && !line.contains("invalid"),
            "{line}"
        );
    }
    let hant = said(Lang::ZhHant);
    let board = "棋譜的著法在第 1 步就分出了結果（紅方勝，攻入獸穴），棋譜寫的結果卻是 0-1";
    assert!(hant[0].ends_with(board), "{}", hant[0]);
    let en = said(Lang::En);
    let board = "the game record's moves end the game at move 1 (Red wins, entered the den), \
                 but its result is `0-1`";
    assert!(en[0].ends_with(board), "{}", en[0]);
}

#[test]
fn every_fault_of_a_records_text_is_said_in_the_players_language() {
    let dir = temp_dir();
    let path = dir.path().join("bad.pgn");
    let file = path.display().to_string();
    // The text, then what the status line says after "无法打开 FILE：" in Simplified Chinese.
    let cases = [
        (
            "garbage not pgn\n",
            "棋谱第 1 行第 1 列有误：「garbage」不是着法",
        ),
        (
            "[Event \"x\"]\n\n1. Rg4 Zz9 *\n",
            "棋谱第 3 行第 8 列有误：「Zz9」不是着法",
        ),
        (
            "[Event \"x\"]\n[Result \"1-0\"]\n\n1. Rg4 Tf9 *\n",
            "棋谱第 4 行第 12 列有误：结果 * 和第 2 行第 1 列的 [Result] 标签 1-0 不一致",
        ),
        (
            "[Result \"2-0\"]\n\n1. Rg4 Ra6 *\n",
            "棋谱第 1 行第 1 列有误：棋谱的结果「2-0」不是对局结果（应为 1-0、0-1、1/2-1/2 或 *）",
        ),
        (
            "[Result \"1-0\"]\n[Result \"0-1\"]\n",
            "两个 [Result] 标签不一致：第 1 行第 1 列是 1-0，这里是 0-1",
        ),
        (
            "[Event \"x\n\"]\n",
            "棋谱第 1 行第 10 列有误：标签 Event 的值到行尾还没结束",
        ),
        ("[Event x]\n", "标签 Event 的值前面缺少引号"),
        ("[Event \"x\" y\n", "标签 Event 缺少结尾的 ]"),
        ("[ \"x\"]\n", "[ 后面缺少标签名"),
        ("1. Rg4 {x\n", "注释缺少结尾的 }"),
        ("1. Rg4 * Ra6\n", "结果后面还有「Ra6」"),
        ("1. Rg4 [Event \"x\"]\n", "着法之后不能再写标签"),
        (
            "[Variant \"foo\"]\n\n1. Rg4 *\n",
            "棋谱的 [Variant] 标签有误：没有「foo」这个规则变化",
        ),
        // An empty file is no game, not a new one.
        ("", "棋谱是空的"),
        (" \n\n", "棋谱是空的"),
    ];
    for (text, said) in cases {
        std::fs::write(&path, text).unwrap();
        let (mut app, _, now) = new(Opponent::Hotseat, None);
        type_text(&mut app, now, "g3g4");
        app.lang = Lang::ZhHans;
        enter_path(&mut app, now, 'o', &file);
        let status = status(&app);
        let head = format!("无法打开 {file}：");
        assert!(status.starts_with(&head), "{text:?}: {status}");
        assert!(status.contains(said), "{text:?}: {status}");
        // No English words of the rules library's left in it.
        let words: Vec<&str> = status[head.len()..]
            .split(|c: char| !c.is_ascii_alphabetic())
            .filter(|w| w.len() > 2)
            .filter(|w| !["garbage", "Event", "Result", "Variant", "foo"].contains(w))
            .collect();
        assert_eq!(words, Vec::<&str>::new(), "{text:?}: {status}");
        assert!(app.status.as_ref().unwrap().error);
        assert_eq!(app.game.len(), 1, "{text:?}: the game shown is kept");
    }
    // English says the same (the kind's own words, not the reader's message twice).
    std::fs::write(&path, "").unwrap();
    let (mut app, _, now) = new(Opponent::Hotseat, None);
    enter_path(&mut app, now, 'o', &file);
    assert_eq!(
        status(&app),
        format!("Cannot open {file}: the game record is empty (no tags and no moves)")
    );
    std::fs::write(&path, "1. Rg4 Zz9 *\n").unwrap();
    enter_path(&mut app, now, 'o', &file);
    assert_eq!(
        status(&app),
        format!(
            "Cannot open {file}: the game record is wrong at line 1, column 8: `Zz9` is not a \
             move (write moves like g3g4 or Rg4, -- for a pass)"
        )
    );
}

#[test]
fn loading_a_game_with_the_engine_to_move_starts_it() {
    let dir = temp_dir();
    let path = dir.path().join("engine.pgn");
    let mut g = Game::new(Rules::STANDARD);
    g.play(mv("g3g4")).unwrap();
    std::fs::write(&path, jungle::GameRecord::from_game(&g, &[]).to_string()).unwrap();
    let (mut app, _, now) = new(engine(Color::Red), None);
    press(&mut app, now, &[Key::Char('o')]);
    let cmds = type_text(&mut app, now, &path.display().to_string());
    assert_eq!(think_generation(&cmds).map(|t| t.1), Some(1));
}

#[test]
fn tab_help_and_quit_keys() {
    let (mut app, _, now) = new(Opponent::Hotseat, None);
    press(&mut app, now, &[Key::Tab]);
    assert_eq!(app.glyphs, Glyphs::Chinese);
    press(&mut app, now, &[Key::Char('?')]);
    assert!(app.help);
    let cmds = press(&mut app, now, &[Key::Char('q')]);
    assert!(!app.help, "any key closes the help");
    assert!(cmds.is_empty(), "and does nothing else");
    press(&mut app, now, &[Key::Char('s')]);
    let cmds = press(&mut app, now, &[Key::CtrlC]);
    assert!(
        matches!(cmds.as_slice(), [Command::Quit]),
        "Ctrl-C quits even in a prompt"
    );
    let (mut app, _, now) = new(Opponent::Hotseat, None);
    let cmds = press(&mut app, now, &[Key::Char('q')]);
    assert!(matches!(cmds.as_slice(), [Command::Quit]));
    assert!(app.quit);
}

#[test]
fn the_help_scrolls_on_a_small_terminal_and_keeps_its_keys_from_the_game() {
    // A finished game, where Home, End, Left and Right step through its moves.
    let (mut app, _, now) = new(Opponent::Hotseat, Some("l6/3R3/7/7/7/7/7/7/6L r 0 1"));
    type_text(&mut app, now, "Rd9#");
    assert!(app.finished());
    app.handle(
        Event::Resize {
            width: 64,
            height: 16,
        },
        now,
    );
    press(&mut app, now, &[Key::Char('?')]);
    let max = app.help_max_scroll();
    assert!(max > 0, "the help is longer than 14 rows");
    let cmds = press(&mut app, now, &[Key::End, Key::Home, Key::PageDown]);
    assert!(cmds.is_empty());
    assert!(app.help && app.help_scroll > 0);
    for _ in 0..100 {
        press(&mut app, now, &[Key::Down]);
    }
    assert_eq!(app.help_scroll, max, "never past the end");
    for _ in 0..100 {
        press(&mut app, now, &[Key::Up]);
    }
    assert_eq!(app.help_scroll, 0, "never above the top");
    assert!(app.help);
    assert_eq!(app.shown_ply(), 1, "the game was not stepped through");
    // The keys the help's last line names close it while it scrolls too.
    for close in [Key::Esc, Key::Char('?')] {
        press(&mut app, now, &[Key::PageDown, close]);
        assert!(!app.help, "{close:?} closes the help");
        press(&mut app, now, &[Key::Char('?')]);
        assert!(app.help);
    }
    // Left scrolls nothing: it closes the help, and does only that.
    press(&mut app, now, &[Key::End, Key::Left]);
    assert!(!app.help);
    assert_eq!(app.shown_ply(), 1);
    // Reopened, it starts at the top.
    press(&mut app, now, &[Key::Char('?')]);
    assert_eq!(app.help_scroll, 0);
    press(&mut app, now, &[Key::PageDown]);
    assert!(app.help_scroll > 0);
    // Where it all fits, it goes back to the top, and Down closes it as any key.
    app.handle(
        Event::Resize {
            width: 100,
            height: 40,
        },
        now,
    );
    assert_eq!((app.help_max_scroll(), app.help_scroll), (0, 0));
    press(&mut app, now, &[Key::Down]);
    assert!(!app.help);
    // Ctrl-C still quits from the help.
    press(&mut app, now, &[Key::Char('?')]);
    let cmds = press(&mut app, now, &[Key::CtrlC]);
    assert!(matches!(cmds.as_slice(), [Command::Quit]));
}

// ----- online -----

fn state(you: &str, moves: &[&str], extra: Value) -> ServerMsg {
    let mut g = json!({
        "id": "g1",
        "red": {"name": "alice", "ai_level": null, "rating": 1500, "level": 1, "guest": true},
        "blue": {"name": "bob", "ai_level": null, "rating": 1500, "level": 1, "guest": true},
        "you": you, "rated": false, "tc": {"clock_s": 60, "inc_s": 0, "move_s": 10},
        "rules": "standard", "start_fen": jungle::START_JFEN,
        "moves": moves.iter().map(|m| json!({"move": m, "san": "?"})).collect::<Vec<_>>(),
        "ply": moves.len(), "turn": "red", "fen": "", "legal": [],
        "clocks": {"red_ms": 60000, "blue_ms": 60000, "move_ms": 10000, "running": "red"},
        "timeouts": {"red": 0, "blue": 0}, "status": "live", "result": null,
        "draw_offer": null, "presence": {"red": true, "blue": true}
    });
    if let (Some(o), Some(e)) = (g.as_object_mut(), extra.as_object()) {
        for (k, v) in e {
            o.insert(k.clone(), v.clone());
        }
    }
    ServerMsg::parse(&json!({"t": "game", "game": g}).to_string()).unwrap()
}

fn server(app: &mut App, now: Instant, text: Value) -> Vec<Command> {
    app.handle(
        Event::Server(ServerMsg::parse(&text.to_string()).unwrap()),
        now,
    )
}

#[test]
fn online_welcome_starts_or_rejoins() {
    let (mut app, _, now) = new(Opponent::Online, None);
    assert!(status(&app).contains("Connecting"));
    let cmds = server(&mut app, now, json!({"t":"welcome","user":{},"games":[]}));
    assert_eq!(sent(&cmds)[0]["t"], "quick");
    let cmds = server(&mut app, now, json!({"t":"seek_created","id":"s1"}));
    // While the seek waits, the lobby's other seeks are asked for.
    assert_eq!(sent(&cmds), vec![json!({"t":"lobby"})]);
    assert!(app.online.waiting);
    let (mut app, _, now) = new(Opponent::Online, None);
    let cmds = server(
        &mut app,
        now,
        json!({"t":"welcome","user":{},"games":["g9"]}),
    );
    assert_eq!(sent(&cmds), vec![json!({"t":"watch","game":"g9"})]);
}

#[test]
fn online_moves_go_to_the_server_and_the_board_follows_its_answers() {
    let (mut app, _, now) = new(Opponent::Online, None);
    app.handle(Event::Server(state("red", &[], json!({}))), now);
    assert_eq!(app.online.you, Some(Seat::Red));
    assert!(app.can_move());
    let cmds = type_text(&mut app, now, "g3g4");
    assert_eq!(
        sent(&cmds),
        vec![json!({"t":"move","game":"g1","ply":0,"move":"g3g4"})]
    );
    assert!(app.game.is_empty(), "the server is the referee");
    let clocks = json!({"red_ms": 58000, "blue_ms": 60000, "move_ms": 10000, "running": "blue"});
    server(
        &mut app,
        now,
        json!({"t":"moved","game":"g1","ply":0,"move":"g3g4","san":"Rg4","fen":"",
               "clocks": clocks,"timeouts":{"red":0,"blue":0},"legal":[],"last_move_at":0}),
    );
    assert_eq!(app.game.len(), 1);
    assert!(!app.can_move(), "Blue's turn");
    // A repeat of the same ply is ignored; a ply from the future asks for the whole state.
    let again = json!({"t":"moved","game":"g1","ply":0,"move":"g3g4","legal":[]});
    assert!(server(&mut app, now, again).is_empty());
    assert_eq!(app.game.len(), 1);
    let future = json!({"t":"moved","game":"g1","ply":5,"move":"a7a6","legal":[]});
    assert_eq!(
        sent(&server(&mut app, now, future)),
        vec![json!({"t":"watch","game":"g1"})]
    );
    // Another game's moves do not touch this one.
    let other = json!({"t":"moved","game":"g2","ply":1,"move":"a7a6","legal":[]});
    assert!(server(&mut app, now, other).is_empty());
    assert_eq!(app.game.len(), 1);
}

#[test]
fn online_clocks_count_down_locally_for_the_running_side() {
    let (mut app, _, now) = new(Opponent::Online, None);
    app.handle(Event::Server(state("blue", &[], json!({}))), now);
    assert!(app.flipped, "Blue plays from the bottom");
    let later = now + Duration::from_millis(2500);
    assert_eq!(
        app.clock_of(Color::Red, later),
        Some((Some(57500), Some(7500)))
    );
    assert_eq!(app.clock_of(Color::Blue, later), Some((Some(60000), None)));
    // The clock never shows less than zero.
    let much_later = now + Duration::from_secs(120);
    assert_eq!(
        app.clock_of(Color::Red, much_later),
        Some((Some(0), Some(0)))
    );
    // Disconnected, the clock counts on as the server's does (it jumped back to the last
    // report before).
    app.handle(Event::Disconnected("reset".into()), later);
    assert_eq!(
        app.clock_of(Color::Red, now + Duration::from_millis(3000)),
        Some((Some(57000), Some(7000)))
    );
}

#[test]
fn online_draw_resign_takeback_and_rematch_keys() {
    let (mut app, _, now) = new(Opponent::Online, None);
    app.handle(
        Event::Server(state("red", &["g3g4", "a7a6"], json!({}))),
        now,
    );
    assert_eq!(app.game.len(), 2);
    assert!(press(&mut app, now, &[Key::Char('n')]).is_empty());
    assert!(
        status(&app).contains("still on"),
        "no rematch during the game"
    );
    let cmds = press(&mut app, now, &[Key::Char('=')]);
    assert_eq!(sent(&cmds), vec![json!({"t":"draw_offer","game":"g1"})]);
    server(
        &mut app,
        now,
        json!({"t":"draw_offered","game":"g1","by":"blue"}),
    );
    assert!(status(&app).contains("offers a draw"));
    let cmds = press(&mut app, now, &[Key::Char('=')]);
    assert_eq!(sent(&cmds), vec![json!({"t":"draw_accept","game":"g1"})]);
    let cmds = press(&mut app, now, &[Key::Char('u')]);
    assert!(cmds.is_empty());
    assert!(status(&app).contains("only against the AI"));
    assert!(
        press(&mut app, now, &[Key::Char('!')]).is_empty(),
        "asks first"
    );
    let cmds = press(&mut app, now, &[Key::Char('!')]);
    assert_eq!(sent(&cmds), vec![json!({"t":"resign","game":"g1"})]);
    server(
        &mut app,
        now,
        json!({"t":"ended","game":"g1","result":{"winner":"blue","reason":"resign"},"changes":{}}),
    );
    assert_eq!(
        app.result_text().as_deref(),
        Some("You lost: Red resigned — Blue wins")
    );
    assert!(!app.can_move());
    let cmds = press(&mut app, now, &[Key::Char('n')]);
    assert_eq!(sent(&cmds), vec![json!({"t":"rematch","game":"g1"})]);
    let rec = app.record().to_string();
    assert!(rec.contains("[Result \"0-1\"]"), "{rec}");
    assert!(rec.contains("[Termination \"resign\"]"), "{rec}");
    assert!(rec.contains("[Red \"alice\"]"), "{rec}");
}

#[test]
fn n_after_the_opponent_has_gone_looks_for_a_new_one_instead_of_a_rematch() {
    let quick = json!({"t":"quick","tc":{"clock_s":60,"inc_s":0,"move_s":10}});
    // Blue lost by not coming back: away when the game ended.
    let (mut app, _, now) = new(Opponent::Online, None);
    app.handle(
        Event::Server(state("red", &["g3g4", "a7a6"], json!({}))),
        now,
    );
    server(
        &mut app,
        now,
        json!({"t":"presence","game":"g1","red":true,"blue":false}),
    );
    server(
        &mut app,
        now,
        json!({"t":"ended","game":"g1","result":{"winner":"red","reason":"disconnect"},"changes":{}}),
    );
    assert!(app.opponent_gone());
    let cmds = press(&mut app, now, &[Key::Char('n')]);
    assert_eq!(sent(&cmds), vec![quick.clone()]);
    assert_eq!(
        status(&app),
        "Your opponent has left: looking for a new one"
    );
    assert!(app.online.game_id.is_none() && app.online.result.is_none());
    assert!(app.game.is_empty() && app.result_text().is_none());
    // The seek opens: the reason stays said, the panel says the waiting.
    server(&mut app, now, json!({"t":"seek_created","id":"s1"}));
    assert!(app.online.waiting);
    assert_eq!(
        status(&app),
        "Your opponent has left: looking for a new one"
    );
    // In Chinese.
    app.lang = Lang::ZhHans;
    assert_eq!(
        app.t(jungle_tui::i18n::Msg::OpponentLeftNewSeek),
        "对手已离开：正在找新的对手"
    );

    // An opponent who left on purpose (still connected, for all the server says).
    let (mut app, _, now) = new(Opponent::Online, None);
    app.handle(Event::Server(state("blue", &["g3g4"], json!({}))), now);
    server(
        &mut app,
        now,
        json!({"t":"ended","game":"g1","result":{"winner":"blue","reason":"left"},"changes":{}}),
    );
    assert_eq!(
        sent(&press(&mut app, now, &[Key::Char('n')])),
        vec![quick.clone()]
    );

    // Both there: a rematch is asked for; n again gives up waiting for an answer.
    let (mut app, _, now) = new(Opponent::Online, None);
    app.handle(Event::Server(state("red", &["g3g4"], json!({}))), now);
    server(
        &mut app,
        now,
        json!({"t":"ended","game":"g1","result":{"winner":"blue","reason":"resign"},"changes":{}}),
    );
    let cmds = press(&mut app, now, &[Key::Char('n')]);
    assert_eq!(sent(&cmds), vec![json!({"t":"rematch","game":"g1"})]);
    assert_eq!(
        status(&app),
        "Rematch offered (n again looks for a new opponent)"
    );
    let cmds = press(&mut app, now, &[Key::Char('n')]);
    assert_eq!(sent(&cmds), vec![quick.clone()]);
    assert_eq!(
        status(&app),
        "No answer to your rematch: looking for a new opponent"
    );

    // The server refuses the rematch: the opponent is away, or the game is no longer kept.
    for (code, said) in [
        (
            "opponent_offline",
            "Your opponent has left: looking for a new one",
        ),
        (
            "not_found",
            "This game can no longer be rematched: looking for a new opponent",
        ),
        (
            "rematch_closed",
            "This game can no longer be rematched: looking for a new opponent",
        ),
        (
            "aborted_no_rematch",
            "An aborted game has no rematch: looking for a new opponent",
        ),
    ] {
        let (mut app, _, now) = new(Opponent::Online, None);
        app.handle(Event::Server(state("red", &["g3g4"], json!({}))), now);
        server(
            &mut app,
            now,
            json!({"t":"ended","game":"g1","result":{"winner":"blue","reason":"resign"},"changes":{}}),
        );
        press(&mut app, now, &[Key::Char('n')]);
        let cmds = server(
            &mut app,
            now,
            json!({"t":"error","code":code,"message":"x","re":"rematch"}),
        );
        assert_eq!(sent(&cmds), vec![quick.clone()], "{code}");
        assert_eq!(status(&app), said);
    }
    // A state that says the rematch is closed.
    let (mut app, _, now) = new(Opponent::Online, None);
    let closed = json!({"status":"finished","result":{"winner":"red","reason":"resign"},
                        "rematch_open": false});
    app.handle(Event::Server(state("red", &["g3g4"], closed)), now);
    assert_eq!(
        sent(&press(&mut app, now, &[Key::Char('n')])),
        vec![quick.clone()]
    );
    // The server says the time for a rematch has passed: said, and n looks for a new opponent.
    let (mut app, _, now) = new(Opponent::Online, None);
    app.handle(Event::Server(state("red", &["g3g4"], json!({}))), now);
    server(
        &mut app,
        now,
        json!({"t":"ended","game":"g1","result":{"winner":"blue","reason":"resign"},"changes":{}}),
    );
    server(&mut app, now, json!({"t":"rematch_closed","game":"g1"}));
    assert_eq!(
        status(&app),
        "The time for a rematch (2 minutes after the end) has passed."
    );
    assert!(
        app.keys_text().contains("n new game"),
        "{}",
        app.keys_text()
    );
    assert_eq!(sent(&press(&mut app, now, &[Key::Char('n')])), vec![quick]);
    // Against the server's AI, n is a rematch whoever is connected.
    let (mut app, _, now) = new(Opponent::Online, None);
    let ai =
        json!({"blue": {"name": "AI", "ai_level": 4}, "presence": {"red": true, "blue": false}});
    app.handle(Event::Server(state("red", &["g3g4"], ai)), now);
    server(
        &mut app,
        now,
        json!({"t":"ended","game":"g1","result":{"winner":"blue","reason":"resign"},"changes":{}}),
    );
    assert_eq!(
        sent(&press(&mut app, now, &[Key::Char('n')])),
        vec![json!({"t":"rematch","game":"g1"})]
    );
}

#[test]
fn the_timeout_that_ends_a_game_is_counted() {
    let (mut app, _, now) = new(Opponent::Online, None);
    app.handle(Event::Server(state("red", &[], json!({}))), now);
    let ended = json!({"t":"ended","game":"g1","result":{"winner":"blue","reason":"timeouts"},
        "changes":{},"timeouts":{"red":4,"blue":0}});
    server(&mut app, now, ended);
    assert_eq!((app.online.timeouts.red, app.online.timeouts.blue), (4, 0));
}

#[test]
fn a_lapsed_draw_offer_is_cleared_and_said_once_to_the_player_who_made_it() {
    for (you, told) in [("red", true), ("blue", false), ("both", false)] {
        let (mut app, _, now) = new(Opponent::Online, None);
        app.handle(
            Event::Server(state(you, &["g3g4"], json!({"draw_offer": "red"}))),
            now,
        );
        assert_eq!(app.online.draw_offer, Some(Side::Red));
        // Blue ran out of move time: the server passes for it, which clears the offer.
        server(
            &mut app,
            now,
            json!({"t":"moved","game":"g1","ply":1,"move":"--","san":"--","legal":[],
                   "timeouts":{"red":0,"blue":1}}),
        );
        assert_eq!(app.game.len(), 2, "{you}: the pass is played");
        assert_eq!(app.online.draw_offer, None, "{you}");
        assert_eq!(app.online.timeouts.blue, 1);
        // Another game's lapse says nothing here.
        server(
            &mut app,
            now,
            json!({"t":"draw_lapsed","game":"g2","by":"red"}),
        );
        assert!(app.status.is_none(), "{you}: {}", status(&app));
        server(
            &mut app,
            now,
            json!({"t":"draw_lapsed","game":"g1","by":"red"}),
        );
        if told {
            assert_eq!(
                status(&app),
                "The game moved on: your draw offer has lapsed"
            );
        } else {
            assert!(app.status.is_none(), "{you}: {}", status(&app));
        }
    }
    // In Chinese, and the offer the state still showed (a lapse after a state) cleared too.
    let (mut app, _, now) = new(Opponent::Online, None);
    app.lang = Lang::ZhHant;
    app.handle(
        Event::Server(state("blue", &["g3g4"], json!({"draw_offer": "blue"}))),
        now,
    );
    server(
        &mut app,
        now,
        json!({"t":"draw_lapsed","game":"g1","by":"blue"}),
    );
    assert_eq!(app.online.draw_offer, None);
    assert_eq!(status(&app), "棋局已繼續，你的提和已失效");
}

/// Alice's standing before and after a rated game she won, as `Change`.
fn alice_won() -> Value {
    json!({"score_before": 10, "score_after": 12, "level_before": 2, "level_after": 2,
           "coins_before": 100, "coins_after": 100, "rating_before": 1500.0,
           "rating_after": 1512.4})
}

#[test]
fn the_changes_of_a_result_stored_late_are_shown_when_they_come() {
    let (mut app, _, now) = new(Opponent::Online, None);
    app.handle(Event::Server(state("red", &["g3g4"], json!({}))), now);
    assert!(app.changes_lines().is_empty(), "none while the game is on");
    // The database did not take the result as the game ended: no changes yet.
    server(
        &mut app,
        now,
        json!({"t":"ended","game":"g1","result":{"winner":"red","reason":"resign"},
               "changes":{"red":null,"blue":null}}),
    );
    assert_eq!(
        app.changes_lines(),
        vec!["Saving the result: what it changes will show here once it is stored."]
    );
    // Another game's changes are not these.
    server(
        &mut app,
        now,
        json!({"t":"changes","game":"g2","changes":{"red":alice_won(),"blue":null}}),
    );
    assert_eq!(app.changes_lines().len(), 1);
    assert!(app.online.changes_pending);
    server(
        &mut app,
        now,
        json!({"t":"changes","game":"g1","changes":{"red":alice_won(),"blue":null}}),
    );
    assert_eq!(
        app.changes_lines(),
        vec!["Score: 10 -> 12 (+2)", "Rating: 1500 -> 1512 (+12)"]
    );
    app.lang = Lang::ZhHans;
    assert_eq!(
        app.changes_lines(),
        vec!["积分：10 -> 12（+2）", "等级分：1500 -> 1512（+12）"]
    );
    // The state asked for again keeps them (the game's state shows them from then on).
    let told = json!({"status": "finished", "result": {"winner": "red", "reason": "resign"},
                      "changes": {"red": alice_won(), "blue": null}});
    app.handle(Event::Server(state("red", &["g3g4"], told)), now);
    assert_eq!(app.changes_lines().len(), 2);
    // Changes told with `ended` are shown at once; none for a spectator, nor where nothing
    // changed (a casual game), nor against the AI, whose seat has none.
    let (mut app, _, now) = new(Opponent::Online, None);
    app.handle(Event::Server(state("red", &["g3g4"], json!({}))), now);
    server(
        &mut app,
        now,
        json!({"t":"ended","game":"g1","result":{"winner":"red","reason":"resign"},
               "changes":{"red":alice_won(),"blue":alice_won()}}),
    );
    assert_eq!(app.changes_lines().len(), 2);
    assert!(!app.online.changes_pending);
    let unchanged = json!({"score_before": 3, "score_after": 3, "level_before": 1,
        "level_after": 1, "coins_before": 5, "coins_after": 5, "rating_before": 1500.0,
        "rating_after": 1500.0});
    for (you, extra, changes) in [
        (
            "x",
            json!({"you": null}),
            json!({"red": alice_won(), "blue": null}),
        ),
        (
            "red",
            json!({}),
            json!({"red": unchanged, "blue": unchanged}),
        ),
        ("red", blue_ai_again(), json!({"red": null, "blue": null})),
    ] {
        let (mut app, _, now) = new(Opponent::Online, None);
        app.handle(Event::Server(state(you, &["g3g4"], extra)), now);
        server(
            &mut app,
            now,
            json!({"t":"ended","game":"g1","result":{"winner":"blue","reason":"resign"},
                   "changes": changes}),
        );
        assert!(app.result_text().is_some());
        assert!(app.changes_lines().is_empty(), "{:?}", app.changes_lines());
    }
}

#[test]
fn a_refusal_while_the_server_restarts_says_to_try_again() {
    let (mut app, _, now) = new(Opponent::Online, None);
    app.handle(Event::Server(state("red", &[], json!({}))), now);
    type_text(&mut app, now, "g3g4");
    server(
        &mut app,
        now,
        json!({"t":"error","code":"shutting_down","re":"move",
               "message":"the server is restarting: nothing was changed, send it again once it is back"}),
    );
    assert!(app.game.is_empty(), "nothing was played");
    assert!(app.status.as_ref().is_some_and(|s| s.error));
    assert_eq!(
        status(&app),
        "The server is restarting: nothing was changed. Try again once it is back."
    );
    app.lang = Lang::ZhHans;
    server(
        &mut app,
        now,
        json!({"t":"error","code":"shutting_down","re":"draw_offer","message":"x"}),
    );
    assert_eq!(
        status(&app),
        "服务器正在重启，刚才的操作没有生效：等它恢复后再试一次。"
    );
    // The move can be sent again.
    app.lang = Lang::En;
    let cmds = type_text(&mut app, now, "g3g4");
    assert_eq!(sent(&cmds)[0]["t"], "move");
}

#[test]
fn an_aborted_online_game_is_neither_won_nor_drawn() {
    let (mut app, _, now) = new(Opponent::Online, None);
    app.handle(Event::Server(state("red", &[], json!({}))), now);
    let ended =
        json!({"t":"ended","game":"g1","result":{"winner":null,"reason":"aborted"},"changes":{}});
    server(&mut app, now, ended);
    assert_eq!(app.result_text().as_deref(), Some("Game aborted"));
    assert!(!app.can_move());
    // `ended` says who aborted: the other side is told who, the side that did is "you".
    for (you, by, lang, text) in [
        ("red", "blue", Lang::ZhHans, "蓝方取消了对局"),
        ("blue", "red", Lang::En, "Red aborted the game"),
        ("red", "red", Lang::ZhHant, "你取消了對局"),
        ("x", "blue", Lang::En, "Blue aborted the game"),
    ] {
        let (mut app, _, now) = new(Opponent::Online, None);
        app.lang = lang;
        // A spectator ("x") has no seat.
        let extra = if you == "x" {
            json!({"you": null})
        } else {
            json!({})
        };
        app.handle(Event::Server(state(you, &[], extra)), now);
        let ended = json!({"t":"ended","game":"g1","result":{"winner":null,"reason":"aborted"},
            "changes":{},"by":by});
        server(&mut app, now, ended);
        assert_eq!(app.result_text().as_deref(), Some(text), "{you} {by}");
    }
    // After a reconnect, the finished game's state says it in its result.
    let (mut app, _, now) = new(Opponent::Online, None);
    let over = json!({"status": "finished",
        "result": {"winner": null, "reason": "aborted", "by": "blue"}});
    app.handle(Event::Server(state("red", &[], over)), now);
    assert_eq!(app.result_text().as_deref(), Some("Blue aborted the game"));
    // An aborted game has no rematch: n is a new game, with a new opponent.
    assert!(
        app.keys_text().contains("n new game"),
        "{}",
        app.keys_text()
    );
    assert!(type_text(&mut app, now, "g3g4").is_empty());
    assert_eq!(
        status(&app),
        "The game is over: Left/Right step through it, n for a new game, q to quit"
    );
    assert!(!app.keys_text().contains("rematch"), "{}", app.keys_text());
    let cmds = press(&mut app, now, &[Key::Char('n')]);
    assert_eq!(sent(&cmds)[0]["t"], "quick");
    assert_eq!(
        status(&app),
        "An aborted game has no rematch: looking for a new opponent"
    );
}

#[test]
fn online_takeback_is_offered_against_the_server_ai() {
    let (mut app, _, now) = new(Opponent::Online, None);
    let blue_ai = json!({"blue": {"name": "AI", "ai_level": 4}});
    app.handle(Event::Server(state("red", &["g3g4", "a7a6"], blue_ai)), now);
    assert!(app.player_label(Color::Blue).contains("Computer (level 4)"));
    app.selected = Some(Square::G4);
    let cmds = press(&mut app, now, &[Key::Char('u')]);
    assert_eq!(sent(&cmds), vec![json!({"t":"takeback","game":"g1"})]);
    // What was picked (a hint's animal, say) was for the position taken back.
    assert_eq!(app.selected, None);
    assert_eq!(status(&app), "Move taken back");
    // The server answers a takeback with the new state.
    app.handle(Event::Server(state("red", &[], blue_ai_again())), now);
    assert!(app.game.is_empty());
    // Against the server's AI a hint may be asked for, on the own turn.
    let cmds = press(&mut app, now, &[Key::Char('i')]);
    assert_eq!(hint_request(&cmds).map(|(_, plies)| plies), Some(0));
}

fn blue_ai_again() -> Value {
    json!({"blue": {"name": "AI", "ai_level": 4}})
}

#[test]
fn online_spectators_and_hotseat_seats() {
    let (mut app, _, now) = new(Opponent::Online, None);
    app.handle(Event::Server(state("both", &["g3g4"], json!({}))), now);
    assert!(
        app.can_move(),
        "a hotseat game on the server plays both colours"
    );
    // At one keyboard a hint is no help against anyone else.
    let cmds = press(&mut app, now, &[Key::Char('i')]);
    assert_eq!(hint_request(&cmds).map(|(_, plies)| plies), Some(1));
    let (mut app, _, now) = new(Opponent::Online, None);
    app.handle(Event::Server(state("x", &[], json!({"you": null}))), now);
    assert!(!app.can_move());
    assert!(press(&mut app, now, &[Key::Char('!'), Key::Char('!')]).is_empty());
}

#[test]
fn online_errors_and_disconnects_are_shown() {
    let (mut app, _, now) = new(Opponent::Online, None);
    app.handle(Event::Server(state("red", &[], json!({}))), now);
    server(
        &mut app,
        now,
        json!({"t":"error","code":"illegal_move","message":"the rat cannot go there","re":"move"}),
    );
    // The code picks the catalogue's text (as in the browser); without a reason as data, the
    // server's words follow in brackets, in English only.
    assert_eq!(
        status(&app),
        "That move is not allowed (the rat cannot go there)."
    );
    // With the reason as data it is said in the player's language, facts and all.
    app.lang = Lang::ZhHans;
    server(
        &mut app,
        now,
        json!({"t":"error","code":"illegal_move","message":"the 7-3 rule: …","re":"move",
               "why":{"code":"rule_7_3","animal":"T","to":"c4","times":"3"}}),
    );
    assert_eq!(
        status(&app),
        "这步棋不能走：7-3 规则：虎在本方最近 7 步里已经 3 次走进 c4"
    );
    // A reason this client does not know: not allowed, without the server's English words in
    // a Chinese sentence.
    server(
        &mut app,
        now,
        json!({"t":"error","code":"illegal_move","message":"new rule","re":"move",
               "why":{"code":"brand_new"}}),
    );
    assert_eq!(status(&app), "这步棋不能走。");
    app.lang = Lang::En;
    server(
        &mut app,
        now,
        json!({"t":"error","code":"wrong_ply","message":"ply 3 was expected","re":"move"}),
    );
    assert_eq!(status(&app), "The game moved on, try again.");
    app.handle(Event::Disconnected("connection reset".into()), now);
    assert_eq!(status(&app), "Disconnected (reconnecting)");
    assert!(!app.can_move());
    // A move typed or clicked meanwhile is said not sent (not dropped without a word).
    let cmds = type_text(&mut app, now, "g3g4");
    assert!(sent(&cmds).is_empty());
    assert_eq!(
        status(&app),
        "Disconnected: that move was not sent (reconnecting)"
    );
    app.status = None;
    app.selected = Some(Square::G3);
    assert!(app.handle(Event::Click(Square::G4), now).is_empty());
    assert_eq!(
        status(&app),
        "Disconnected: that move was not sent (reconnecting)"
    );
    app.selected = None;
    app.lang = Lang::ZhHans;
    type_text(&mut app, now, "g3g4");
    assert_eq!(status(&app), "连接已断开，这步没有发出（正在重连）");
    app.lang = Lang::En;
    let mut bad = state("red", &["g3g5"], json!({}));
    if let ServerMsg::Game { game } = &mut bad {
        game.id = json!("g7");
    }
    app.handle(Event::Server(bad), now);
    assert!(status(&app).contains("ply 1 `g3g5`"), "{}", status(&app));
}

#[test]
fn after_a_reconnect_the_game_shown_is_watched_again() {
    let (mut app, _, now) = new(Opponent::Online, None);
    server(&mut app, now, json!({"t":"welcome","user":{},"games":[]}));
    app.handle(Event::Server(state("red", &["g3g4"], json!({}))), now);
    app.lang = Lang::ZhHans;
    app.handle(
        Event::Disconnected("Connection reset without closing handshake".into()),
        now,
    );
    // In the player's language only: the library's English detail is not shown.
    assert_eq!(status(&app), "连接已断开（正在重连）");
    assert!(!app.can_move());
    let cmds = server(&mut app, now, json!({"t":"welcome","user":{},"games":[]}));
    assert_eq!(sent(&cmds), vec![json!({"t":"watch","game":"g1"})]);
    assert!(app.online.disconnected.is_none());
    assert!(app.game.len() == 1 && app.online.you == Some(Seat::Red));
}

#[test]
fn a_new_game_while_the_engine_thinks_stops_it_and_restarts_it_when_it_moves_first() {
    let (mut app, cmds, now) = new(engine(Color::Blue), None);
    let (g, _) = think_generation(&cmds).unwrap();
    let cmds = press(&mut app, now, &[Key::Char('n')]);
    assert!(matches!(cmds.first(), Some(Command::StopThinking)));
    let (g2, len) = think_generation(&cmds).expect("a fresh search");
    assert!(g2 > g && len == 0);
}

#[test]
fn watching_a_game_asks_for_it_even_with_own_live_games() {
    let mut c = config(Opponent::Online, None);
    c.online_start = Some(jungle_tui::proto::send::watch_id("g5"));
    let now = Instant::now();
    let (mut app, _) = App::new(c, now);
    let cmds = server(
        &mut app,
        now,
        json!({"t":"welcome","user":{},"games":["g1"]}),
    );
    assert_eq!(sent(&cmds), vec![json!({"t":"watch","game":"g5"})]);
    app.handle(
        Event::Server(state("x", &["g3g4"], json!({"id": "g5", "you": null}))),
        now,
    );
    assert!(!app.can_move(), "a spectator does not move");
    let cmds = type_text(&mut app, now, "a7a6");
    assert!(cmds.is_empty());
    assert_eq!(app.game.len(), 1);
    assert!(status(&app).contains("watching"), "{}", status(&app));
    // Neither a new game nor a rematch is a spectator's to ask for: nothing is sent.
    let cmds = press(&mut app, now, &[Key::Char('n')]);
    assert!(sent(&cmds).is_empty());
    assert_eq!(
        status(&app),
        "Spectators cannot start a new game or ask for a rematch."
    );
}

#[test]
fn a_move_typed_before_an_opponent_joins_says_that_the_seek_waits() {
    let (mut app, _, now) = new(Opponent::Online, None);
    server(&mut app, now, json!({"t":"welcome","user":{},"games":[]}));
    server(&mut app, now, json!({"t":"seek_created","id":"s1"}));
    type_text(&mut app, now, "g3g4");
    // With the time control it waits for: only a seek of the same one is taken.
    assert_eq!(status(&app), "Waiting for an opponent (1+0, 10s per move)");
}

/// The lobby's `seeks` as the server sends them: `(user, clock_s, inc_s, move_s, rules)`.
fn seeks(list: &[(&str, u32, u32, u32, &str)]) -> Value {
    let seeks: Vec<Value> = list
        .iter()
        .enumerate()
        .map(|(i, (user, clock_s, inc_s, move_s, rules))| {
            json!({"id": format!("s{i}"), "user": user, "rating": 1500.0, "rated": false,
                   "tc": {"clock_s": clock_s, "inc_s": inc_s, "move_s": move_s}, "rules": rules})
        })
        .collect();
    json!({"t": "seeks", "seeks": seeks})
}

#[test]
fn a_waiting_seek_shows_its_time_control_and_the_others_waiting_with_another() {
    let (mut app, _, now) = new(Opponent::Online, None);
    server(
        &mut app,
        now,
        json!({"t":"welcome","user":{"name":"me","guest":false},"games":[]}),
    );
    server(&mut app, now, json!({"t":"seek_created","id":"s1"}));
    assert_eq!(
        app.waiting_text(),
        "Waiting for an opponent (1+0, 10s per move)"
    );
    assert!(app.other_seeks().is_empty());
    // Ours, one of the same time control (about to be paired), one with other rules (quick
    // pairing takes only standard ones), and two with other time controls.
    let list = seeks(&[
        ("me", 60, 0, 10, "standard"),
        ("bob", 60, 0, 10, "standard"),
        ("carol", 300, 3, 0, "no_7_3"),
        ("alice", 300, 3, 0, "standard"),
        ("Guest-123456", 90, 0, 30, "standard"),
    ]);
    assert!(server(&mut app, now, list.clone()).is_empty());
    assert_eq!(
        app.other_seeks(),
        [
            "alice: 5+3 (--tc=300+3/0)",
            "Guest-123456: 1:30+0, 30s per move (--tc=90+0/30)"
        ]
    );
    // In Chinese, guests' names and the time controls too.
    app.lang = Lang::ZhHant;
    assert_eq!(
        app.other_seeks()[1],
        "訪客123456：1:30+0，每步 30 秒（--tc=90+0/30）"
    );
    assert_eq!(app.waiting_text(), "等待對手加入（1+0，每步 10 秒）");
    app.lang = Lang::En;
    // Once the game starts, they are gone, and later lists are not kept.
    app.handle(Event::Server(state("red", &[], json!({}))), now);
    assert!(!app.online.waiting);
    server(&mut app, now, list);
    assert!(app.other_seeks().is_empty() && app.online.seeks.is_empty());
}

#[test]
fn a_new_connection_asks_for_the_lobby_again() {
    let (mut app, _, now) = new(Opponent::Online, None);
    server(&mut app, now, json!({"t":"welcome","user":{},"games":[]}));
    let cmds = server(&mut app, now, json!({"t":"seek_created","id":"s1"}));
    assert_eq!(sent(&cmds), vec![json!({"t":"lobby"})]);
    // The same connection asks once.
    let cmds = server(&mut app, now, json!({"t":"seek_created","id":"s2"}));
    assert!(cmds.is_empty());
    app.handle(Event::Disconnected("reset".into()), now);
    let cmds = server(&mut app, now, json!({"t":"welcome","user":{},"games":[]}));
    assert_eq!(sent(&cmds)[0]["t"], "quick");
    let cmds = server(&mut app, now, json!({"t":"seek_created","id":"s3"}));
    assert_eq!(sent(&cmds), vec![json!({"t":"lobby"})]);
}

#[test]
fn a_seat_is_disconnected_when_the_server_says_so_or_this_clients_link_is_down() {
    let (mut app, _, now) = new(Opponent::Online, None);
    assert!(!app.seat_disconnected(Color::Red), "no game yet");
    let away = json!({"presence": {"red": true, "blue": false}});
    app.handle(Event::Server(state("red", &[], away)), now);
    assert!(app.seat_disconnected(Color::Blue));
    assert!(!app.seat_disconnected(Color::Red));
    // The label is the name alone: being away is said beside the clock.
    assert_eq!(app.player_label(Color::Blue), "bob");
    server(
        &mut app,
        now,
        json!({"t":"presence","game":"g1","red":true,"blue":true}),
    );
    assert!(!app.seat_disconnected(Color::Blue));
    // This client's own link down: its own seat is away (as the server sees it).
    app.handle(Event::Disconnected("reset".into()), now);
    assert!(app.seat_disconnected(Color::Red));
    assert!(!app.seat_disconnected(Color::Blue));
    server(&mut app, now, json!({"t":"welcome","user":{},"games":[]}));
    assert!(!app.seat_disconnected(Color::Red));
    // Offline games have no such thing.
    let (app, _, _) = new(Opponent::Hotseat, None);
    assert!(!app.seat_disconnected(Color::Red));
}

#[test]
fn the_reconnect_grace_left_counts_down_and_never_past_the_away_players_running_clock() {
    let (mut app, _, now) = new(Opponent::Online, None);
    // Red away and to move: 60 s of Red's clock, 45 s of grace.
    let away = json!({"you": "blue", "presence": {"red": false, "blue": true},
        "away_ms": {"red": 45000, "blue": null}});
    app.handle(Event::Server(state("blue", &[], away)), now);
    assert_eq!(app.away_left(Color::Red, now), Some(45000));
    assert_eq!(app.away_left(Color::Blue, now), None);
    let later = now + Duration::from_secs(10);
    assert_eq!(app.away_left(Color::Red, later), Some(35000));
    // A running clock shorter than the grace is the end (the server cuts the grace to it when
    // that clock starts: the client counts down the smaller of the two).
    server(
        &mut app,
        later,
        json!({"t":"presence","game":"g1","red":false,"blue":true,"away_ms":{"red":55000,"blue":null}}),
    );
    assert_eq!(app.away_left(Color::Red, later), Some(50000), "Red's clock");
    // Back: nothing left to count.
    server(
        &mut app,
        later,
        json!({"t":"presence","game":"g1","red":true,"blue":true,"away_ms":{"red":null,"blue":null}}),
    );
    assert_eq!(app.away_left(Color::Red, later), None);
    // An older server without the figure: the seat is away, with no countdown.
    server(
        &mut app,
        later,
        json!({"t":"presence","game":"g1","red":false,"blue":true}),
    );
    assert!(app.seat_disconnected(Color::Red));
    assert_eq!(app.away_left(Color::Red, later), None);
}

#[test]
fn the_player_is_told_when_the_opponent_goes_away_and_comes_back() {
    let (mut app, _, now) = new(Opponent::Online, None);
    app.handle(Event::Server(state("red", &["g3g4"], json!({}))), now);
    server(
        &mut app,
        now,
        json!({"t":"presence","game":"g1","red":true,"blue":false}),
    );
    assert_eq!(
        status(&app),
        "Your opponent lost the connection: they lose unless they come back in time"
    );
    app.lang = Lang::ZhHans;
    server(
        &mut app,
        now,
        json!({"t":"presence","game":"g1","red":true,"blue":true}),
    );
    assert_eq!(status(&app), "对手回来了");
    // The player's own presence, a spectator's view, a game at one keyboard: nothing said.
    app.status = None;
    server(
        &mut app,
        now,
        json!({"t":"presence","game":"g1","red":false,"blue":true}),
    );
    assert!(app.status.is_none(), "{}", status(&app));
    for you in ["x", "both"] {
        let (mut app, _, now) = new(Opponent::Online, None);
        let extra = if you == "x" {
            json!({"you": null})
        } else {
            json!({})
        };
        app.handle(Event::Server(state(you, &["g3g4"], extra)), now);
        server(
            &mut app,
            now,
            json!({"t":"presence","game":"g1","red":true,"blue":false}),
        );
        assert!(app.status.is_none(), "{you}: {}", status(&app));
    }
}

#[test]
fn tab_says_how_the_animals_are_shown() {
    let (mut app, _, now) = new(Opponent::Hotseat, None);
    app.lang = Lang::ZhHans;
    press(&mut app, now, &[Key::Tab]);
    assert_eq!(app.glyphs, Glyphs::Chinese);
    assert_eq!(status(&app), "动物显示为汉字");
    press(&mut app, now, &[Key::Tab]);
    assert_eq!(status(&app), "动物显示为字母");
    app.lang = Lang::En;
    press(&mut app, now, &[Key::Tab]);
    assert_eq!(status(&app), "Animals shown as Chinese characters");
}

#[test]
fn a_finished_game_watched_shows_nobody_away_and_its_clocks_at_the_end() {
    // A finished game's stored state: both seats away, the clocks as stored, none running.
    let (mut app, _, now) = new(Opponent::Online, None);
    let finished = json!({"you": null, "status": "finished",
        "result": {"winner": "red", "reason": "resign"},
        "clocks": {"red_ms": 41000, "blue_ms": 37000, "move_ms": null, "running": null},
        "presence": {"red": false, "blue": false}});
    app.handle(Event::Server(state("x", &["g3g4", "a7a6"], finished)), now);
    assert!(app.finished());
    for c in [Color::Red, Color::Blue] {
        assert!(!app.seat_disconnected(c), "{c:?}");
    }
    let later = now + Duration::from_secs(30);
    assert_eq!(app.clock_of(Color::Red, later), Some((Some(41000), None)));
    assert_eq!(app.clock_of(Color::Blue, later), Some((Some(37000), None)));
    // A game that ends while its loser is away: away no more once it is over.
    let (mut app, _, now) = new(Opponent::Online, None);
    let away = json!({"presence": {"red": true, "blue": false}});
    app.handle(Event::Server(state("red", &["g3g4"], away)), now);
    assert!(app.seat_disconnected(Color::Blue));
    server(
        &mut app,
        now,
        json!({"t":"ended","game":"g1","result":{"winner":"red","reason":"disconnect"},"changes":{}}),
    );
    assert!(!app.seat_disconnected(Color::Blue));
}

#[test]
fn mouse_clicks_pick_an_animal_then_its_destination() {
    let (mut app, _, now) = new(Opponent::Hotseat, None);
    app.handle(Event::Click(Square::G3), now);
    assert_eq!(app.selected, Some(Square::G3));
    app.handle(Event::Click(Square::G4), now);
    assert_eq!(app.game.moves().collect::<Vec<_>>(), vec![mv("g3g4")]);
    assert_eq!(app.cursor, Square::G4);
    // A click while the help is open does nothing.
    press(&mut app, now, &[Key::Char('?')]);
    app.handle(Event::Click(Square::A7), now);
    assert_eq!(app.selected, None);
}

fn hint_request(cmds: &[Command]) -> Option<(u64, usize)> {
    cmds.iter().find_map(|c| match c {
        Command::Hint { generation, game } => Some((*generation, game.len())),
        _ => None,
    })
}

#[test]
fn a_hint_picks_the_suggested_animal_and_enter_plays_it() {
    let (mut app, _, now) = new(Opponent::Hotseat, None);
    type_text(&mut app, now, "Rg4");
    let cmds = press(&mut app, now, &[Key::Char('i')]);
    let (generation, plies) = hint_request(&cmds).expect("a hint is asked for");
    assert_eq!(plies, 1, "the hint is for the game as it stands");
    assert!(
        status(&app).contains("Looking for a hint"),
        "{}",
        status(&app)
    );
    assert!(app.input.is_empty(), "`i` is not the start of a typed move");
    let suggestion = mv("a7a6");
    app.handle(
        Event::Hint {
            generation,
            mv: Some(suggestion),
        },
        now,
    );
    assert_eq!(app.selected, Some(Square::A7));
    assert_eq!(app.cursor, Square::A6);
    assert_eq!(status(&app), "Hint: Ra6 (Enter plays it)");
    press(&mut app, now, &[Key::Enter]);
    assert_eq!(app.game.moves().last(), Some(suggestion));
}

#[test]
fn a_hint_for_a_position_left_behind_is_dropped() {
    let (mut app, _, now) = new(Opponent::Hotseat, None);
    let (generation, _) = hint_request(&press(&mut app, now, &[Key::Char('i')])).unwrap();
    type_text(&mut app, now, "Rg4"); // played before the answer came
    app.handle(
        Event::Hint {
            generation,
            mv: Some(mv("g3g4")),
        },
        now,
    );
    assert_eq!(app.selected, None);
    assert_eq!(app.game.len(), 1);
    assert!(!status(&app).starts_with("Hint"), "{}", status(&app));
    // A newer request is still answered after an older answer was dropped.
    let (newer, _) = hint_request(&press(&mut app, now, &[Key::Char('i')])).unwrap();
    app.handle(
        Event::Hint {
            generation,
            mv: Some(mv("a7a6")),
        },
        now,
    );
    assert_eq!(app.selected, None, "the old generation is still stale");
    app.handle(
        Event::Hint {
            generation: newer,
            mv: Some(mv("a7a6")),
        },
        now,
    );
    assert_eq!(app.selected, Some(Square::A7));
}

#[test]
fn no_hint_online_while_the_engine_thinks_or_after_the_game() {
    let (mut app, _, now) = new(Opponent::Online, None);
    let cmds = press(&mut app, now, &[Key::Char('i')]);
    assert!(hint_request(&cmds).is_none());
    assert_eq!(status(&app), "No hints in games against people");

    let (mut app, cmds, now) = new(engine(Color::Blue), None);
    assert!(think_generation(&cmds).is_some(), "the engine opens as Red");
    let cmds = press(&mut app, now, &[Key::Char('i')]);
    assert!(hint_request(&cmds).is_none());
    assert!(status(&app).contains("not your turn"), "{}", status(&app));

    let (mut app, _, now) = new(Opponent::Hotseat, Some("l6/3R3/7/7/7/7/7/7/6L r 0 1"));
    type_text(&mut app, now, "d8d9");
    let cmds = press(&mut app, now, &[Key::Char('i')]);
    assert!(hint_request(&cmds).is_none());
    assert!(
        status(&app).contains("The game is over"),
        "{}",
        status(&app)
    );
}

#[test]
fn a_hint_in_chinese_names_the_animal_by_its_character() {
    let mut c = config(Opponent::Hotseat, None);
    c.lang = Lang::ZhHans;
    c.glyphs = Glyphs::Chinese;
    let now = Instant::now();
    let (mut app, _) = App::new(c, now);
    let (generation, _) = hint_request(&press(&mut app, now, &[Key::Char('i')])).unwrap();
    app.handle(
        Event::Hint {
            generation,
            mv: Some(mv("g3g4")),
        },
        now,
    );
    assert_eq!(status(&app), "提示：鼠g4（按回车走这步）");
}

fn analysis_request(cmds: &[Command]) -> Option<(u64, usize)> {
    cmds.iter().find_map(|c| match c {
        Command::Analyse { generation, game } => Some((*generation, game.len())),
        _ => None,
    })
}

/// A search result with `lines` (score, moves), the first also the principal variation.
fn search_result(lines: &[(Score, &[&str])]) -> SearchResult {
    let lines: Vec<SearchLine> = lines
        .iter()
        .map(|(score, pv)| SearchLine {
            score: *score,
            depth: 9,
            pv: pv.iter().map(|m| mv(m)).collect(),
        })
        .collect();
    SearchResult::from_lines(lines, 1000)
}

#[test]
fn x_analyses_the_position_until_it_changes_and_x_again_hides_it() {
    let (mut app, _, now) = new(Opponent::Hotseat, None);
    type_text(&mut app, now, "Rg4");
    let cmds = press(&mut app, now, &[Key::Char('x')]);
    let (generation, plies) = analysis_request(&cmds).expect("an analysis is asked for");
    assert_eq!(plies, 1, "the analysis is of the game as it stands");
    assert!(app.input.is_empty(), "`x` is not the start of a typed move");
    assert!(app.analysis_shown().is_some_and(|a| a.result.is_none()));
    // Blue to move: the scores are Blue's, the lines start with Blue's moves.
    let result = search_result(&[
        (Score::Cp(35), &["a7a6", "g4g5", "a6a5"]),
        (Score::Cp(-120), &["g7g6"]),
        (Score::Den(-3), &["a9b9"]),
    ]);
    app.handle(Event::Analysis { generation, result }, now);
    let shown = app.analysis_shown().and_then(|a| a.result.as_ref());
    assert_eq!(shown.map(|r| r.lines.len()), Some(3));
    assert_eq!(app.score_text(Score::Cp(35)), "+0.35");
    assert_eq!(app.score_text(Score::Cp(-120)), "-1.20");
    assert_eq!(app.score_text(Score::Den(-3)), "Red wins in 3");
    assert_eq!(app.score_text(Score::Den(2)), "Blue wins in 2");
    let line = [mv("a7a6"), mv("g4g5"), mv("a6a5")];
    assert_eq!(app.line_text(&line, 6), "Ra6 Rg5 Ra5");
    assert_eq!(app.line_text(&line, 2), "Ra6 Rg5 ...");
    // x again hides it; x once more asks again.
    press(&mut app, now, &[Key::Char('x')]);
    assert!(app.analysis_shown().is_none());
    let (again, _) = analysis_request(&press(&mut app, now, &[Key::Char('x')])).unwrap();
    assert!(again > generation);
    // A move leaves the analysed position: the analysis goes, and its late answer is dropped.
    type_text(&mut app, now, "ra6");
    assert!(app.analysis_shown().is_none());
    let late = search_result(&[(Score::Cp(0), &["g4g5"])]);
    app.handle(
        Event::Analysis {
            generation: again,
            result: late,
        },
        now,
    );
    assert!(app.analysis_shown().is_none());
}

#[test]
fn an_analysis_gives_up_a_pending_hint_and_a_hint_a_pending_analysis() {
    let (mut app, _, now) = new(Opponent::Hotseat, None);
    let (hint, _) = hint_request(&press(&mut app, now, &[Key::Char('i')])).unwrap();
    let (analysis, _) = analysis_request(&press(&mut app, now, &[Key::Char('x')])).unwrap();
    // The hint's search was stopped for the analysis: its early answer is not shown.
    app.handle(
        Event::Hint {
            generation: hint,
            mv: Some(mv("a7a6")),
        },
        now,
    );
    assert_eq!(app.selected, None);
    let (hint, _) = hint_request(&press(&mut app, now, &[Key::Char('i')])).unwrap();
    assert!(app.analysis_shown().is_none(), "the analysis was given up");
    app.handle(
        Event::Analysis {
            generation: analysis,
            result: search_result(&[(Score::Cp(0), &["g3g4"])]),
        },
        now,
    );
    assert!(app.analysis_shown().is_none());
    app.handle(
        Event::Hint {
            generation: hint,
            mv: Some(mv("a3a4")),
        },
        now,
    );
    assert_eq!(app.selected, Some(Square::A3));
}

#[test]
fn no_analysis_while_the_engine_thinks_or_in_a_live_game_between_people() {
    let (mut app, cmds, now) = new(engine(Color::Blue), None);
    assert!(think_generation(&cmds).is_some(), "the engine opens as Red");
    let cmds = press(&mut app, now, &[Key::Char('x')]);
    assert!(analysis_request(&cmds).is_none());
    assert_eq!(
        status(&app),
        "The computer is thinking: analyse once it has moved"
    );
    assert!(app.thinking.is_some(), "the engine's search goes on");

    // Online between people: not while the game is on; once it is over, yes.
    let (mut app, _, now) = new(Opponent::Online, None);
    app.handle(Event::Server(state("red", &["g3g4"], json!({}))), now);
    assert!(analysis_request(&press(&mut app, now, &[Key::Char('x')])).is_none());
    assert_eq!(
        status(&app),
        "No analysis while a game against people is on"
    );
    server(
        &mut app,
        now,
        json!({"t":"ended","game":"g1","result":{"winner":"blue","reason":"resign"},"changes":{}}),
    );
    let cmds = press(&mut app, now, &[Key::Char('x')]);
    assert_eq!(analysis_request(&cmds).map(|(_, plies)| plies), Some(1));

    // Online against the server's AI: at any time.
    let (mut app, _, now) = new(Opponent::Online, None);
    let ai =
        json!({"blue": {"name": "AI", "ai_level": 5, "rating": 1500, "level": 1, "guest": true}});
    app.handle(Event::Server(state("red", &[], ai)), now);
    assert!(analysis_request(&press(&mut app, now, &[Key::Char('x')])).is_some());

    // A finished position has nothing to analyse.
    let (mut app, _, now) = new(Opponent::Hotseat, Some("l6/3R3/7/7/7/7/7/7/6L r 0 1"));
    type_text(&mut app, now, "d8d9");
    assert!(analysis_request(&press(&mut app, now, &[Key::Char('x')])).is_none());
    assert!(
        status(&app).contains("The game is over"),
        "{}",
        status(&app)
    );
}

#[test]
fn an_analysis_in_chinese_names_sides_and_animals_in_chinese() {
    let mut c = config(Opponent::Hotseat, None);
    c.lang = Lang::ZhHant;
    c.glyphs = Glyphs::Chinese;
    let now = Instant::now();
    let (app, _) = App::new(c, now);
    assert_eq!(app.score_text(Score::Den(2)), "紅方在 2 步內獲勝");
    assert_eq!(app.line_text(&[mv("g3g4"), mv("a7a6")], 6), "鼠g4 鼠a6");
}

/// A hotseat game played to Red's den entry: g3g4 a7a6 … d8d9 from a short start.
fn finished_hotseat() -> (App, Instant) {
    let (mut app, _, now) = new(Opponent::Hotseat, Some("l6/7/3R3/7/7/7/7/7/6L r 0 1"));
    for m in ["d7d8", "a9b9", "d8d9"] {
        type_text(&mut app, now, m);
    }
    assert!(app.game.outcome().is_some());
    (app, now)
}

#[test]
fn a_finished_game_is_stepped_through_with_the_arrows_home_and_end() {
    let (mut app, now) = finished_hotseat();
    let fen = |app: &App| Jfen::from_position(app.shown_position()).to_string();
    let end = fen(&app);
    assert_eq!(app.shown_ply(), 3);
    assert_eq!(app.last_move(), Some(mv("d8d9")));
    // Left goes back a ply: the board, the last move and the side to move follow.
    press(&mut app, now, &[Key::Left]);
    assert_eq!(app.shown_ply(), 2);
    assert_eq!(fen(&app), "1l5/3R3/7/7/7/7/7/7/6L r 2 2");
    assert_eq!(app.last_move(), Some(mv("a9b9")));
    assert_eq!(
        app.game.len(),
        3,
        "looking back changes nothing in the game"
    );
    assert!(!app.can_move(), "no moves from a position looked back at");
    press(&mut app, now, &[Key::Home]);
    assert_eq!(app.shown_ply(), 0);
    assert_eq!(fen(&app), "l6/7/3R3/7/7/7/7/7/6L r 0 1");
    assert_eq!(app.last_move(), None);
    press(&mut app, now, &[Key::Left]);
    assert_eq!(app.shown_ply(), 0, "the start is as far back as it goes");
    press(&mut app, now, &[Key::Right]);
    assert_eq!(app.shown_ply(), 1);
    press(&mut app, now, &[Key::End, Key::Right]);
    assert_eq!(app.shown_ply(), 3, "the end is as far on as it goes");
    assert_eq!(fen(&app), end);
    // A new game starts at its beginning, not at an old ply.
    press(&mut app, now, &[Key::Left, Key::Char('n')]);
    assert_eq!(app.shown_ply(), 0);
    assert!(app.game.is_empty());
    type_text(&mut app, now, "d7d8");
    assert_eq!(app.shown_ply(), 1, "the new game is shown as it is played");
    // In a game still on, the arrows move the cursor, not the board.
    let (mut app, _, now) = new(Opponent::Hotseat, None);
    type_text(&mut app, now, "g3g4");
    let cursor = app.cursor;
    press(&mut app, now, &[Key::Left]);
    assert_eq!(app.shown_ply(), 1);
    assert_ne!(app.cursor, cursor);
    press(&mut app, now, &[Key::Home, Key::End]);
    assert_eq!(app.shown_ply(), 1);
}

#[test]
fn looking_back_at_a_finished_game_analyses_the_position_shown() {
    let (mut app, now) = finished_hotseat();
    // At the end of a game won on the board there is nothing to analyse.
    assert!(analysis_request(&press(&mut app, now, &[Key::Char('x')])).is_none());
    assert!(status(&app).contains("Left/Right"), "{}", status(&app));
    // One ply back: the game up to there is analysed (its history counts for §7).
    press(&mut app, now, &[Key::Left]);
    let (generation, plies) = analysis_request(&press(&mut app, now, &[Key::Char('x')])).unwrap();
    assert_eq!(plies, 2);
    let result = search_result(&[(Score::Den(1), &["d8d9"]), (Score::Cp(50), &["d8c8"])]);
    app.handle(Event::Analysis { generation, result }, now);
    assert!(app.analysis_shown().is_some_and(|a| a.result.is_some()));
    assert_eq!(app.score_text(Score::Den(1)), "Red wins in 1");
    assert_eq!(app.line_text(&[mv("d8d9")], 6), "Rd9#");
    // Stepping on with the analysis shown analyses the next position shown; its answer is
    // kept only while that position is shown.
    let (next, plies) = analysis_request(&press(&mut app, now, &[Key::Left])).unwrap();
    assert_eq!(plies, 1);
    assert!(next > generation);
    assert!(app.analysis_shown().is_some_and(|a| a.result.is_none()));
    // Back to the end: nothing to analyse there, so nothing is asked for and nothing shown.
    assert!(analysis_request(&press(&mut app, now, &[Key::End])).is_none());
    let late = search_result(&[(Score::Cp(10), &["a9b9"])]);
    app.handle(
        Event::Analysis {
            generation: next,
            result: late,
        },
        now,
    );
    assert!(app.analysis_shown().is_none());
    // With the analysis hidden, stepping asks for none.
    assert!(analysis_request(&press(&mut app, now, &[Key::Left])).is_none());
}

#[test]
fn an_online_game_ended_by_the_server_can_be_stepped_through() {
    let (mut app, _, now) = new(Opponent::Online, None);
    app.handle(
        Event::Server(state("red", &["g3g4", "a7a6"], json!({}))),
        now,
    );
    press(&mut app, now, &[Key::Left]);
    assert_eq!(app.shown_ply(), 2, "not while the game is on");
    server(
        &mut app,
        now,
        json!({"t":"ended","game":"g1","result":{"winner":"blue","reason":"resign"},"changes":{}}),
    );
    press(&mut app, now, &[Key::Left]);
    assert_eq!(app.shown_ply(), 1);
    assert_eq!(app.last_move(), Some(mv("g3g4")));
    // The last position of a resigned game has moves: x analyses it there too.
    press(&mut app, now, &[Key::End]);
    let cmds = press(&mut app, now, &[Key::Char('x')]);
    assert_eq!(analysis_request(&cmds).map(|(_, plies)| plies), Some(2));
}

// ----- defects found by the exploratory test -----

#[test]
fn a_declined_draw_offer_is_said_and_the_offer_cleared() {
    let (mut app, _, now) = new(Opponent::Online, None);
    app.handle(
        Event::Server(state("red", &["g3g4", "a7a6"], blue_ai_again())),
        now,
    );
    let cmds = press(&mut app, now, &[Key::Char('=')]);
    assert_eq!(sent(&cmds), vec![json!({"t":"draw_offer","game":"g1"})]);
    server(
        &mut app,
        now,
        json!({"t":"draw_offered","game":"g1","by":"red"}),
    );
    assert_eq!(status(&app), "Draw offered");
    server(
        &mut app,
        now,
        json!({"t":"draw_declined","game":"g1","by":"blue"}),
    );
    assert_eq!(status(&app), "The draw offer was declined");
    assert_eq!(app.online.draw_offer, None);
    // The side declining is not told its own answer, nor is a spectator told anything.
    server(
        &mut app,
        now,
        json!({"t":"draw_offered","game":"g1","by":"blue"}),
    );
    server(
        &mut app,
        now,
        json!({"t":"draw_declined","game":"g1","by":"red"}),
    );
    assert_ne!(status(&app), "The draw offer was declined");
    assert_eq!(app.online.draw_offer, None);
    let (mut watcher, _, now) = new(Opponent::Online, None);
    watcher.handle(Event::Server(state("x", &[], json!({"you": null}))), now);
    server(
        &mut watcher,
        now,
        json!({"t":"draw_declined","game":"g1","by":"blue"}),
    );
    assert_eq!(status(&watcher), "");
}

#[test]
fn online_clocks_stop_where_they_were_counted_down_to_when_the_game_ends() {
    let (mut app, _, now) = new(Opponent::Online, None);
    // Red's clock runs from 60 s (the state's clocks); five seconds later Red resigns.
    app.handle(
        Event::Server(state("red", &["g3g4", "a7a6"], json!({}))),
        now,
    );
    let resigned = now + Duration::from_secs(5);
    assert_eq!(
        app.clock_of(Color::Red, resigned),
        Some((Some(55000), Some(5000)))
    );
    server(
        &mut app,
        resigned,
        json!({"t":"ended","game":"g1","result":{"winner":"blue","reason":"resign"},"changes":{}}),
    );
    // The clocks stay as they were, with no per-move time, however long the screen stays.
    let later = resigned + Duration::from_secs(30);
    assert_eq!(app.clock_of(Color::Red, later), Some((Some(55000), None)));
    assert_eq!(app.clock_of(Color::Blue, later), Some((Some(60000), None)));
    // The server's final state, when it comes (a reconnect, a watch), has the last word.
    let final_clocks = json!({"clocks": {"red_ms": 54700, "blue_ms": 60000, "move_ms": null,
        "running": null}, "status": "finished",
        "result": {"winner": "blue", "reason": "resign"}});
    app.handle(
        Event::Server(state("red", &["g3g4", "a7a6"], final_clocks)),
        later,
    );
    assert_eq!(
        app.clock_of(Color::Red, later + Duration::from_secs(9)),
        Some((Some(54700), None))
    );
}

#[test]
fn the_keys_line_lists_only_the_keys_that_do_something_now() {
    let has = |app: &App, key: &str| app.keys_text().split("  ").any(|k| k == key);
    // Waiting for an opponent: no game to offer a draw in or resign.
    let (mut app, _, now) = new(Opponent::Online, None);
    server(&mut app, now, json!({"t":"welcome","user":{},"games":[]}));
    server(&mut app, now, json!({"t":"seek_created","id":"s1"}));
    for key in ["= draw", "! resign", "u takeback", "n rematch"] {
        assert!(!has(&app, key), "waiting: {key} in {}", app.keys_text());
    }
    assert!(has(&app, "? help") && has(&app, "q quit"));
    // A live game against a person: moves, draw, resignation; no takeback nor rematch.
    app.handle(Event::Server(state("red", &["g3g4"], json!({}))), now);
    for key in ["= draw", "! resign"] {
        assert!(has(&app, key), "{key} missing: {}", app.keys_text());
    }
    for key in ["u takeback", "n rematch"] {
        assert!(!has(&app, key), "live: {key} in {}", app.keys_text());
    }
    // After it: looking back, analysis and the rematch; no draw nor resignation.
    server(
        &mut app,
        now,
        json!({"t":"ended","game":"g1","result":{"winner":"red","reason":"resign"},"changes":{}}),
    );
    for key in ["n rematch", "x analyse", "Left/Right step"] {
        assert!(has(&app, key), "{key} missing: {}", app.keys_text());
    }
    for key in ["= draw", "! resign", "u takeback"] {
        assert!(!has(&app, key), "over: {key} in {}", app.keys_text());
    }
    app.lang = Lang::ZhHans;
    assert!(!app.keys_text().contains("提和") && app.keys_text().contains("n 再来一盘"));
    // Against the server's AI the takeback is there while the game is on.
    let (mut app, _, now) = new(Opponent::Online, None);
    app.handle(Event::Server(state("red", &["g3g4"], blue_ai_again())), now);
    assert!(has(&app, "u takeback") && has(&app, "! resign"));
    assert!(!has(&app, "n rematch"));

    // `x` on the final position of an online game: n means a rematch there.
    let (mut app, _, now) = new(Opponent::Online, None);
    let over = json!({"fen": "", "start_fen": "l6/3R3/7/7/7/7/7/7/6L r 0 1"});
    app.handle(Event::Server(state("red", &["d8d9"], over)), now);
    server(
        &mut app,
        now,
        json!({"t":"ended","game":"g1","result":{"winner":"red","reason":"den"},"changes":{}}),
    );
    assert!(press(&mut app, now, &[Key::Char('x')]).is_empty());
    assert_eq!(
        status(&app),
        "The game is over: Left/Right step through it, n for a rematch, q to quit"
    );
    // A spectator's: no n at all.
    let (mut app, _, now) = new(Opponent::Online, None);
    app.handle(
        Event::Server(state(
            "x",
            &["d8d9"],
            json!({"you": null, "start_fen": "l6/3R3/7/7/7/7/7/7/6L r 0 1"}),
        )),
        now,
    );
    press(&mut app, now, &[Key::Char('x')]);
    assert_eq!(
        status(&app),
        "The game is over: Left/Right step through it, q to quit"
    );
    // Offline, n is a new game.
    let (mut app, _, now) = new(Opponent::Hotseat, Some("l6/3R3/7/7/7/7/7/7/6L r 0 1"));
    type_text(&mut app, now, "d8d9");
    press(&mut app, now, &[Key::Char('x')]);
    assert!(
        status(&app).contains("n for a new game"),
        "{}",
        status(&app)
    );
}

#[test]
fn spectators_are_told_that_hints_and_analysis_are_not_theirs_while_the_game_is_on() {
    for blue in [json!({"name": "AI", "ai_level": 4}), json!({"name": "bob"})] {
        let (mut app, _, now) = new(Opponent::Online, None);
        app.handle(
            Event::Server(state("x", &["g3g4"], json!({"you": null, "blue": blue}))),
            now,
        );
        assert!(app.spectating());
        // The keys line for a spectator offers no game actions.
        let keys = app.keys_text();
        assert!(keys.contains("q quit") && !keys.contains("resign") && !keys.contains("draw"));
        assert!(press(&mut app, now, &[Key::Char('i')]).is_empty());
        assert_eq!(status(&app), "Spectators get no hints");
        assert!(press(&mut app, now, &[Key::Char('x')]).is_empty());
        assert_eq!(status(&app), "Spectators can analyse once the game is over");
        // Once the game is over, a spectator analyses it like anyone.
        server(
            &mut app,
            now,
            json!({"t":"ended","game":"g1","result":{"winner":"red","reason":"resign"},"changes":{}}),
        );
        let cmds = press(&mut app, now, &[Key::Char('x')]);
        assert_eq!(analysis_request(&cmds).map(|(_, plies)| plies), Some(1));
        // Still no hint: there is no move to play.
        press(&mut app, now, &[Key::Char('x'), Key::Char('i')]);
        assert_eq!(status(&app), "Spectators get no hints");
    }
}

#[test]
fn watching_a_game_that_does_not_exist_ends_the_program_with_the_reason() {
    let mut c = config(Opponent::Online, None);
    c.online_start = Some(jungle_tui::proto::send::watch_id("nonexistent"));
    let now = Instant::now();
    let (mut app, _) = App::new(c, now);
    let cmds = server(&mut app, now, json!({"t":"welcome","user":{},"games":[]}));
    assert_eq!(sent(&cmds), vec![json!({"t":"watch","game":"nonexistent"})]);
    // Another refusal is only shown.
    let cmds = server(
        &mut app,
        now,
        json!({"t":"error","code":"rate_limited","message":"slow down","re":"watch"}),
    );
    assert!(cmds.is_empty() && !app.quit);
    let cmds = server(
        &mut app,
        now,
        json!({"t":"error","code":"not_found","message":"no such game","re":"watch"}),
    );
    assert!(matches!(cmds.as_slice(), [Command::Quit]), "{cmds:?}");
    assert!(app.quit);
    assert_eq!(
        app.exit_error.as_deref(),
        Some("There is no game nonexistent on this server")
    );
    // Said in the player's language.
    let mut c = config(Opponent::Online, None);
    c.lang = Lang::ZhHans;
    c.online_start = Some(jungle_tui::proto::send::watch_id("g404"));
    let (mut app, _) = App::new(c, now);
    server(&mut app, now, json!({"t":"welcome","user":{},"games":[]}));
    server(
        &mut app,
        now,
        json!({"t":"error","code":"not_found","message":"no such game","re":"watch"}),
    );
    assert_eq!(app.exit_error.as_deref(), Some("服务器上没有对局 g404"));
    // A player's own game gone missing is not the end of the program.
    let (mut app, _, now) = new(Opponent::Online, None);
    app.handle(Event::Server(state("red", &[], json!({}))), now);
    let cmds = server(
        &mut app,
        now,
        json!({"t":"error","code":"not_found","message":"no such game","re":"watch"}),
    );
    assert!(cmds.is_empty() && !app.quit && app.exit_error.is_none());
}

#[test]
fn q_asks_first_in_a_live_online_game_with_a_seat() {
    let (mut app, _, now) = new(Opponent::Online, None);
    app.handle(Event::Server(state("red", &["g3g4"], json!({}))), now);
    assert!(app.leaving_loses());
    assert!(press(&mut app, now, &[Key::Char('q')]).is_empty());
    assert!(!app.quit);
    assert_eq!(
        status(&app),
        "Leaving loses the game unless you return in time: q again to leave"
    );
    // Any other key cancels (and does what it does).
    assert!(press(&mut app, now, &[Key::Char('v')]).is_empty());
    assert!(app.flipped && !app.quit);
    assert!(press(&mut app, now, &[Key::Left, Key::Char('q')]).is_empty());
    press(&mut app, now, &[Key::Esc]);
    assert_eq!(status(&app), "", "the question is gone");
    let cmds = press(&mut app, now, &[Key::Char('q'), Key::Char('q')]);
    assert!(matches!(cmds.as_slice(), [Command::Quit]), "{cmds:?}");
    assert!(app.quit);
    // A guest is told it cannot come back.
    let (mut app, _, now) = new(Opponent::Online, None);
    server(
        &mut app,
        now,
        json!({"t":"welcome","user":{"name":"Guest-1","guest":true},"games":[]}),
    );
    app.handle(Event::Server(state("both", &[], json!({}))), now);
    press(&mut app, now, &[Key::Char('q')]);
    assert_eq!(
        status(&app),
        "A guest cannot come back: leaving loses the game. q again to leave"
    );
    // Ctrl-C still quits at once.
    let cmds = press(&mut app, now, &[Key::CtrlC]);
    assert!(matches!(cmds.as_slice(), [Command::Quit]));
    // Nothing to lose: a finished game, a spectator, a game on this machine.
    let (mut app, _, now) = new(Opponent::Online, None);
    app.handle(Event::Server(state("red", &[], json!({}))), now);
    server(
        &mut app,
        now,
        json!({"t":"ended","game":"g1","result":{"winner":"blue","reason":"resign"},"changes":{}}),
    );
    assert!(matches!(
        press(&mut app, now, &[Key::Char('q')]).as_slice(),
        [Command::Quit]
    ));
    let (mut app, _, now) = new(Opponent::Online, None);
    app.handle(Event::Server(state("x", &[], json!({"you": null}))), now);
    assert!(matches!(
        press(&mut app, now, &[Key::Char('q')]).as_slice(),
        [Command::Quit]
    ));
    let (mut app, _, now) = new(Opponent::Hotseat, None);
    assert!(matches!(
        press(&mut app, now, &[Key::Char('q')]).as_slice(),
        [Command::Quit]
    ));
}

#[test]
fn an_empty_file_name_is_refused_without_touching_the_file_system() {
    let (mut app, _, now) = new(Opponent::Hotseat, None);
    type_text(&mut app, now, "g3g4");
    // Open: nothing typed (or only spaces).
    press(&mut app, now, &[Key::Char('o'), Key::Char(' '), Key::Enter]);
    assert_eq!(app.prompt, None);
    assert_eq!(status(&app), "Type a file name");
    assert!(app.status.as_ref().is_some_and(|s| s.error));
    assert_eq!(app.game.len(), 1, "the game is untouched");
    // Save: the name offered erased.
    press(&mut app, now, &[Key::Char('s')]);
    let offered = match &app.prompt {
        Some(Prompt::Save(p)) => p.chars().count(),
        other => panic!("{other:?}"),
    };
    for _ in 0..offered {
        press(&mut app, now, &[Key::Backspace]);
    }
    press(&mut app, now, &[Key::Enter]);
    assert_eq!(status(&app), "Type a file name");
    app.lang = Lang::ZhHant;
    press(&mut app, now, &[Key::Char('o'), Key::Enter]);
    assert_eq!(status(&app), "請輸入檔案名稱");
}

#[test]
fn guests_names_read_in_the_display_language_and_records_keep_them() {
    let (mut app, _, now) = new(Opponent::Online, None);
    app.lang = Lang::ZhHans;
    let guests = json!({
        "red": {"name": "Guest-123456", "ai_level": null, "rating": 1500, "level": 1, "guest": true},
        "blue": {"name": "Guest-12x", "ai_level": null, "rating": 1500, "level": 1, "guest": true},
    });
    app.handle(Event::Server(state("blue", &[], guests)), now);
    assert!(
        app.player_label(Color::Red).starts_with("游客123456"),
        "{}",
        app.player_label(Color::Red)
    );
    // Not a generated guest name: shown as it is.
    assert!(
        app.player_label(Color::Blue).starts_with("Guest-12x"),
        "{}",
        app.player_label(Color::Blue)
    );
    app.lang = Lang::ZhHant;
    assert!(app.player_label(Color::Red).starts_with("訪客123456"));
    app.lang = Lang::En;
    assert!(app.player_label(Color::Red).starts_with("Guest-123456"));
    // The record keeps the real names, and has the game's time control, in RULES §10's order.
    app.lang = Lang::ZhHans;
    let rec = app.record();
    assert_eq!(rec.tag("Red"), Some("Guest-123456"));
    assert_eq!(rec.tag("TimeControl"), Some("60+0/10"));
    let names: Vec<&str> = rec.tags.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(
        names,
        [
            "Event",
            "Site",
            "Date",
            "Red",
            "Blue",
            "Result",
            "Variant",
            "TimeControl"
        ]
    );
}
