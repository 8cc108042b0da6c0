//! The screen drawn on ratatui's test backend: long messages, online players' lines and the keys
//! are shown whole at the sizes people use (80 × 24) and at the smallest one (64 × 16), and the
//! board is never cut for them.

use jungle::{Jfen, Position, Rules};
use jungle_tui::app::{App, Config, Event, Glyphs, Key, Opponent};
use jungle_tui::i18n::Msg;
use jungle_tui::proto::ServerMsg;
use jungle_tui::Lang;
use ratatui::backend::TestBackend;
use ratatui::Terminal;
use serde_json::{json, Value};
use std::time::Instant;

const LANGS: [Lang; 3] = [Lang::En, Lang::ZhHans, Lang::ZhHant];

/// A screen as drawn: each row's cells, a wide character in the first of its two cells and
/// nothing in the second.
struct Screen {
    rows: Vec<Vec<String>>,
}

impl Screen {
    fn draw(app: &App, w: u16, h: u16, now: Instant) -> Screen {
        let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
        term.draw(|f| jungle_tui::ui::draw(f, app, now)).unwrap();
        let buf = term.backend().buffer().clone();
        let rows = (0..h)
            .map(|y| {
                let mut row = Vec::new();
                let mut x = 0;
                while x < w {
                    let sym = buf[(x, y)].symbol().to_string();
                    let wide = is_wide(&sym);
                    row.push(sym);
                    if wide {
                        row.push(String::new());
                        x += 1;
                    }
                    x += 1;
                }
                row
            })
            .collect();
        Screen { rows }
    }

    /// Row `y` from column `x` on.
    fn row_from(&self, x: usize, y: usize) -> String {
        self.rows[y][x.min(self.rows[y].len())..].concat()
    }

    fn row(&self, y: usize) -> String {
        self.row_from(0, y)
    }

    fn all(&self) -> String {
        (0..self.rows.len())
            .map(|y| self.row(y))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Where `text` first starts (column, row).
    fn find(&self, text: &str) -> Option<(usize, usize)> {
        (0..self.rows.len()).find_map(|y| {
            (0..self.rows[y].len())
                .find_map(|x| self.row_from(x, y).starts_with(text).then_some((x, y)))
        })
    }

    /// The text from column `x` of row `y` to the end of the screen, read row by row from
    /// column `x`, without its spaces: a text wrapped there reads whole in it.
    fn block_from(&self, x: usize, y: usize) -> String {
        squeeze(
            &(y..self.rows.len())
                .map(|y| self.row_from(x, y))
                .collect::<String>(),
        )
    }

    /// The row of the board's bottom border, checking on the way that all of the board is there
    /// (nine ranks, then the files, then the border).
    fn board_bottom(&self) -> usize {
        let ranks: Vec<usize> = (1..=9)
            .map(|r| {
                let label = format!("{r:>2} ");
                (0..self.rows.len())
                    .find(|&y| self.row_from(1, y).starts_with(&label))
                    .unwrap_or_else(|| panic!("rank {r} missing:\n{}", self.all()))
            })
            .collect();
        let files = (0..self.rows.len())
            .find(|&y| self.row(y).contains("a   b   c   d   e   f   g"))
            .unwrap_or_else(|| panic!("files missing:\n{}", self.all()));
        assert!(files > ranks[0], "{}", self.all());
        let bottom = self.row(files + 1);
        assert!(
            bottom.starts_with('└') || bottom.starts_with('+'),
            "{}",
            self.all()
        );
        files + 1
    }
}

fn is_wide(s: &str) -> bool {
    s.chars().any(|c| c >= '\u{2E80}')
}

fn squeeze(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

fn app(lang: Lang, opponent: Opponent, fen: Option<&str>) -> (App, Instant) {
    let start = match fen {
        Some(f) => Jfen::parse_position(f, Rules::STANDARD).unwrap(),
        None => Position::start(Rules::STANDARD),
    };
    let config = Config {
        lang,
        glyphs: Glyphs::Letters,
        start,
        opponent,
        online_start: None,
        save_dir: std::env::temp_dir(),
    };
    let now = Instant::now();
    (App::new(config, now).0, now)
}

fn type_move(app: &mut App, now: Instant, m: &str) {
    for c in m.chars() {
        app.handle(Event::Key(Key::Char(c)), now);
    }
    app.handle(Event::Key(Key::Enter), now);
}

/// A rat that went back and forth between g4 and g5 three times, then tried g5 again: the
/// 7-3 rule forbids it, and the status line says why.
fn seven_three(lang: Lang) -> (App, Instant, String) {
    let (mut a, now) = app(lang, Opponent::Hotseat, Some("l6/7/7/7/7/6R/7/7/7 r 0 1"));
    for _ in 0..3 {
        for m in ["g4g5", "a9b9", "g5g4", "b9a9"] {
            type_move(&mut a, now, m);
        }
    }
    assert_eq!(a.game.len(), 12);
    type_move(&mut a, now, "g4g5");
    assert_eq!(a.game.len(), 12, "refused");
    let status = a.status.clone().expect("a message");
    assert!(status.error);
    assert!(status.text.contains("7-3"), "{}", status.text);
    (a, now, status.text)
}

/// The status text is on screen whole, below the board or beside it, and the board is whole.
fn assert_shown_whole(s: &Screen, text: &str) {
    let bottom = s.board_bottom();
    let head: String = text.chars().take(8).collect();
    let (x, y) = s
        .find(&head)
        .unwrap_or_else(|| panic!("{text:?} not shown:\n{}", s.all()));
    assert!(
        s.block_from(x, y).contains(&squeeze(text)),
        "{text:?} not shown whole:\n{}",
        s.all()
    );
    assert!(y > bottom || x > 30, "{}", s.all());
}

/// Every entry of the keys is on screen, whole.
fn assert_keys_shown(s: &Screen, keys: &str) {
    let first: String = keys.chars().take(4).collect();
    let (x, y) = s
        .find(&first)
        .unwrap_or_else(|| panic!("no keys:\n{}", s.all()));
    let block = s.block_from(x, y);
    for entry in keys.split("  ") {
        assert!(
            block.contains(&squeeze(entry)),
            "{entry:?} missing:\n{}",
            s.all()
        );
    }
}

#[test]
fn a_long_7_3_explanation_is_shown_whole() {
    for lang in LANGS {
        let (a, now, text) = seven_three(lang);
        assert!(text.contains("g5"), "{text}");
        for (w, h) in [(80, 24), (64, 16), (64, 22), (64, 23), (100, 30)] {
            let s = Screen::draw(&a, w, h, now);
            assert_shown_whole(&s, &text);
            assert_keys_shown(&s, &a.keys_text());
        }
        // At 80 × 24 the squares keep their two rows, and the keys stay where they are
        // without the message (it does not push them aside: the screen does not jump).
        let s = Screen::draw(&a, 80, 24, now);
        let r9 = s.find(" 9 ").unwrap().1;
        let r8 = s.find(" 8 ").unwrap().1;
        assert_eq!(r8 - r9, 2);
        let mut quiet = a.clone();
        quiet.status = None;
        let q = Screen::draw(&quiet, 80, 24, now);
        for y in 21..24 {
            if q.row(y).trim().is_empty() {
                continue;
            }
            assert_eq!(s.row(y), q.row(y), "{lang:?}:\n{}\n{}", s.all(), q.all());
        }
    }
    // English on the smallest screen: the end of it is there, on the next row.
    let (a, now, text) = seven_three(Lang::En);
    let s = Screen::draw(&a, 64, 16, now);
    assert!(s.all().contains("the 7-3 rule"), "{}", s.all());
    assert!(text.ends_with("moves"));
    assert!(s.block_from(0, 12).contains("last7moves"), "{}", s.all());
}

#[test]
fn a_message_that_wraps_leaves_the_keys_where_they_are() {
    for lang in LANGS {
        for opponent in [Opponent::Hotseat, Opponent::Online] {
            let (mut a, now) = app(lang, opponent, None);
            for (w, h) in [(80, 24), (64, 16), (100, 30), (64, 23), (120, 24)] {
                a.status = None;
                let quiet = Screen::draw(&a, w, h, now);
                let keys = a.keys_text();
                let first: String = keys.chars().take(4).collect();
                let at = quiet.find(&first).expect("keys");
                // One line, two lines, and a long message.
                for n in [1, 3, 8] {
                    let text = match lang {
                        Lang::En => "a message that goes on and on ".repeat(n),
                        _ => "一条很长很长的消息，".repeat(n),
                    };
                    a.status = Some(jungle_tui::app::Status {
                        text: text.clone(),
                        error: true,
                    });
                    let s = Screen::draw(&a, w, h, now);
                    assert_eq!(
                        s.find(&first),
                        Some(at),
                        "{lang:?} {w}x{h} {n}:\n{}",
                        s.all()
                    );
                    assert_keys_shown(&s, &keys);
                    s.board_bottom();
                    if n < 8 {
                        assert_shown_whole(&s, &text);
                    }
                }
            }
        }
    }
}

#[test]
fn an_illegal_move_into_the_water_is_explained_whole_on_the_smallest_screen() {
    for lang in LANGS {
        let (mut a, now) = app(lang, Opponent::Hotseat, None);
        type_move(&mut a, now, "e3e4");
        assert!(a.game.is_empty());
        let text = a.status.clone().unwrap().text;
        assert!(text.contains("e3e4"), "{text}");
        let s = Screen::draw(&a, 64, 16, now);
        assert_shown_whole(&s, &text);
        assert_keys_shown(&s, &a.keys_text());
    }
    let (mut a, now) = app(Lang::En, Opponent::Hotseat, None);
    type_move(&mut a, now, "e3e4");
    let s = Screen::draw(&a, 64, 16, now);
    assert!(
        s.block_from(0, 12).contains("onlytheratmayenterthewater"),
        "{}",
        s.all()
    );
}

/// An online game as the server sends it: we are Red (Guest-540969), Blue is away, ten
/// minutes and two seconds a move, Red to move with 9:58 left and three timeouts, Blue one.
fn online(lang: Lang) -> (App, Instant) {
    let (mut a, now) = app(lang, Opponent::Online, None);
    let g: Value = json!({
        "id": "g1",
        "red": {"name": "Guest-540969", "ai_level": null, "rating": 1500, "level": 1, "guest": true},
        "blue": {"name": "Guest-913010", "ai_level": null, "rating": 1500, "level": 1, "guest": true},
        "you": "red", "rated": false, "tc": {"clock_s": 600, "inc_s": 0, "move_s": 2},
        "rules": "standard", "start_fen": jungle::START_JFEN,
        "moves": [], "ply": 0, "turn": "red", "fen": "", "legal": [],
        "clocks": {"red_ms": 598000, "blue_ms": 600000, "move_ms": 2000, "running": "red"},
        "timeouts": {"red": 3, "blue": 1}, "status": "live", "result": null,
        "draw_offer": null, "presence": {"red": true, "blue": false}
    });
    let msg = ServerMsg::parse(&json!({"t": "game", "game": g}).to_string()).unwrap();
    a.handle(Event::Server(msg), now);
    (a, now)
}

#[test]
fn the_timeout_that_ends_a_game_shows_as_the_last_allowed_not_past_it() {
    let (mut a, now) = online(Lang::En);
    let ended = json!({"t": "ended", "game": "g1", "result": {"winner": "blue", "reason": "timeouts"},
        "changes": {}, "timeouts": {"red": 4, "blue": 1}});
    a.handle(
        Event::Server(ServerMsg::parse(&ended.to_string()).unwrap()),
        now,
    );
    let all = Screen::draw(&a, 80, 24, now).all();
    assert!(all.contains("Timeouts 3/3"), "{all}");
    assert!(!all.contains("4/3"), "{all}");
}

#[test]
fn online_players_are_shown_with_all_their_parts_at_80_by_24() {
    for lang in LANGS {
        let (a, now) = online(lang);
        let s = Screen::draw(&a, 80, 24, now);
        let all = s.all();
        let clock = |t: &str| format!("{} {t}", a.t(Msg::Clock));
        let timeouts = |n: u32| Msg::Timeouts.fill(lang, &[("n", &n)]);
        // Guests' names in the display language.
        let (red, blue) = (
            jungle_tui::i18n::shown_name(lang, "Guest-540969"),
            jungle_tui::i18n::shown_name(lang, "Guest-913010"),
        );
        let (red, blue) = (red.as_str(), blue.as_str());
        // Each part on one row, inside the panel.
        for part in [
            red.to_string(),
            format!("[{}]", a.t(Msg::You)),
            clock("9:58"),
            format!("{} 0:02", a.t(Msg::MoveTimer)),
            timeouts(3),
            blue.to_string(),
            a.t(Msg::SeatDisconnected).to_string(),
            clock("10:00"),
            timeouts(1),
        ] {
            assert!(all.contains(&part), "{lang:?}: {part:?} missing:\n{all}");
        }
        // Red's parts follow Red's name, Blue's Blue's.
        let row = |t: &str| s.find(t).unwrap().1;
        assert!(row(blue) < row(&clock("10:00")));
        assert!(row(&clock("10:00")) < row(red));
        assert!(row(red) < row(&clock("9:58")));
        assert!(row(&clock("9:58")) <= row(&timeouts(3)));
        // Nothing runs into the panel's border, and all of the keys are there.
        for y in 1..20 {
            let r = s.row(y);
            assert!(r.ends_with('|') || r.ends_with('│'), "{r:?}\n{all}");
        }
        s.board_bottom();
        assert_keys_shown(&s, &a.keys_text());
    }
}

#[test]
fn both_keys_lines_are_shown_on_a_64_by_23_terminal() {
    for lang in LANGS {
        for opponent in [Opponent::Hotseat, Opponent::Online] {
            let (mut a, now) = app(lang, opponent, None);
            let keys = a.keys_text();
            let s = Screen::draw(&a, 64, 23, now);
            assert_keys_shown(&s, &keys);
            // Squares keep two rows, and the board is whole.
            let r9 = s.find(" 9 ").unwrap().1;
            let r8 = s.find(" 8 ").unwrap().1;
            assert_eq!(r8 - r9, 2, "{}", s.all());
            assert_eq!(s.board_bottom(), 20);
            // A move being typed does not move them.
            if opponent == Opponent::Hotseat {
                a.handle(Event::Key(Key::Char('g')), now);
                a.handle(Event::Key(Key::Char('3')), now);
                let typed = Screen::draw(&a, 64, 23, now);
                // A Chinese label is followed by a full-width colon.
                let colon = if lang == Lang::En { ": " } else { "：" };
                let label = format!("{}{colon}g3_", a.t(Msg::MoveLabel));
                assert_eq!(typed.find(&label), Some((0, 21)), "{}", typed.all());
                for y in 0..21 {
                    assert_eq!(typed.row(y), s.row(y), "{}", typed.all());
                }
            }
        }
    }
}

#[test]
fn the_panel_ends_level_with_the_board_on_the_smallest_terminal() {
    for lang in LANGS {
        let (a, now) = app(lang, Opponent::Hotseat, None);
        let s = Screen::draw(&a, 64, 16, now);
        let bottom = s.board_bottom();
        let row = s.row(bottom);
        // The board's frame and the panel's end on the same row.
        assert!(
            row.trim_end().ends_with('┘') || row.trim_end().ends_with('+'),
            "{}",
            s.all()
        );
        assert_eq!(row.trim_end().chars().count(), 64, "{}", s.all());
        assert!(!s.row(bottom + 1).contains(['│', '|']), "{}", s.all());
    }
}

/// The online game of [`online`] with both players' timeouts and Blue away; then, where
/// `link_down`, this client's own connection lost too.
fn away(lang: Lang, link_down: bool) -> (App, Instant) {
    let (mut a, now) = online(lang);
    let t = json!({"t": "moved", "game": "g1", "ply": 0, "move": "g3g4",
        "clocks": {"red_ms": 598000, "blue_ms": 600000, "move_ms": 2000, "running": "blue"},
        "timeouts": {"red": 1, "blue": 1}});
    a.handle(
        Event::Server(ServerMsg::parse(&t.to_string()).unwrap()),
        now,
    );
    if link_down {
        a.handle(Event::Disconnected("connection reset".into()), now);
    }
    (a, now)
}

#[test]
fn a_disconnected_players_clock_says_so_without_clipping_on_the_smallest_screen() {
    for lang in LANGS {
        for link_down in [false, true] {
            let (a, now) = away(lang, link_down);
            let marker = a.t(Msg::SeatDisconnected);
            let clock = |t: &str| format!("{} {t}", a.t(Msg::Clock));
            let (blue, red) = (
                jungle_tui::i18n::shown_name(lang, "Guest-913010"),
                jungle_tui::i18n::shown_name(lang, "Guest-540969"),
            );
            for (w, h) in [(64, 16), (80, 24)] {
                let s = Screen::draw(&a, w, h, now);
                let all = s.all();
                let row = |t: &str| {
                    s.find(t)
                        .unwrap_or_else(|| panic!("{lang:?} {w}x{h}: {t:?} missing:\n{all}"))
                        .1
                };
                // Blue's clock row says that Blue is away, under Blue's name, above Red's.
                let blue_clock = row(&clock("10:00"));
                assert!(
                    s.row(blue_clock)
                        .contains(&format!("{marker}  {}", clock("10:00"))),
                    "{lang:?} {w}x{h}:\n{all}"
                );
                assert!(row(&blue) < blue_clock && blue_clock < row(&red), "{all}");
                // Red's says so too where this client's own link is down, and only then.
                let red_clock = row(&clock("9:58"));
                assert_eq!(
                    s.row(red_clock).contains(marker),
                    link_down,
                    "{lang:?} {w}x{h}:\n{all}"
                );
                let timeouts = Msg::Timeouts.fill(lang, &[("n", &1)]);
                assert_eq!(all.matches(&timeouts).count(), 2, "{all}");
                // Nothing is cut: the turn is still said in the panel, whose lines all end at
                // its border, and the board and the keys are whole.
                assert!(row(&a.turn_text()) > red_clock, "{all}");
                let bottom = s.board_bottom();
                for y in 1..bottom {
                    let r = s.row(y);
                    let r = r.trim_end();
                    assert!(r.ends_with('|') || r.ends_with('│'), "{r:?}\n{all}");
                }
                assert_keys_shown(&s, &a.keys_text());
            }
        }
    }
}

#[test]
fn an_away_players_clock_line_counts_down_their_reconnect_grace_on_the_smallest_screen() {
    for lang in LANGS {
        let (mut a, now) = away(lang, false);
        let p = json!({"t": "presence", "game": "g1", "red": true, "blue": false,
            "away_ms": {"red": null, "blue": 45000}});
        a.handle(
            Event::Server(ServerMsg::parse(&p.to_string()).unwrap()),
            now,
        );
        let clock = |t: &str| format!("{} {t}", a.t(Msg::Clock));
        for (secs, shown) in [(0, 45), (2, 43), (44, 1)] {
            let at = now + std::time::Duration::from_millis(secs * 1000 + 500);
            let left = Msg::SeatDisconnectedLeft.fill(lang, &[("n", &shown)]);
            for (w, h) in [(64, 16), (80, 24)] {
                let s = Screen::draw(&a, w, h, at);
                let all = s.all();
                let (_, y) = s
                    .find(&left)
                    .unwrap_or_else(|| panic!("{lang:?} {w}x{h}: {left:?} missing:\n{all}"));
                // On Blue's clock line (or the line of Blue's details just before it), whole.
                let (_, clock_row) = s.find(&clock("")).unwrap();
                assert!(y < s.find(&a.turn_text()).unwrap().1, "{all}");
                assert!(y >= clock_row.saturating_sub(1), "{all}");
                // Blue's, not Red's: above Red's name.
                let red = jungle_tui::i18n::shown_name(lang, "Guest-540969");
                assert!(y < s.find(&red).unwrap().1, "{all}");
                let bottom = s.board_bottom();
                for r in 1..bottom {
                    let r = s.row(r);
                    let r = r.trim_end();
                    assert!(r.ends_with('|') || r.ends_with('│'), "{r:?}\n{all}");
                }
            }
        }
        // Back: the countdown goes.
        let p = json!({"t": "presence", "game": "g1", "red": true, "blue": true,
            "away_ms": {"red": null, "blue": null}});
        a.handle(
            Event::Server(ServerMsg::parse(&p.to_string()).unwrap()),
            now,
        );
        let all = Screen::draw(&a, 64, 16, now).all();
        assert!(!all.contains(a.t(Msg::SeatDisconnected)), "{all}");
    }
}

#[test]
fn a_waiting_seek_shows_its_time_control_and_the_other_seeks_whole() {
    for lang in LANGS {
        let start = Position::start(Rules::STANDARD);
        let config = Config {
            lang,
            glyphs: Glyphs::Letters,
            start,
            opponent: Opponent::Online,
            online_start: Some(jungle_tui::proto::send::quick("600+0/60".parse().unwrap())),
            save_dir: std::env::temp_dir(),
        };
        let now = Instant::now();
        let mut a = App::new(config, now).0;
        let seeks = json!({"t": "seeks", "seeks": [
            {"id": "s1", "user": "me", "rating": 1500.0, "rated": false, "rules": "standard",
             "tc": {"clock_s": 600, "inc_s": 0, "move_s": 60}},
            {"id": "s2", "user": "alice", "rating": 1500.0, "rated": true, "rules": "standard",
             "tc": {"clock_s": 300, "inc_s": 3, "move_s": 0}},
            {"id": "s3", "user": "Guest-777", "rating": 1500.0, "rated": false, "rules": "standard",
             "tc": {"clock_s": 90, "inc_s": 0, "move_s": 10}}]});
        for m in [
            json!({"t": "welcome", "user": {"name": "me"}, "games": []}),
            json!({"t": "seek_created", "id": "s1"}),
            seeks,
        ] {
            a.handle(
                Event::Server(ServerMsg::parse(&m.to_string()).unwrap()),
                now,
            );
        }
        let waiting = a.waiting_text();
        assert!(waiting.contains("10+0"), "{waiting}");
        let others = a.other_seeks();
        assert_eq!(others.len(), 2, "{others:?}");
        let s = Screen::draw(&a, 80, 24, now);
        let all = s.all();
        // In the panel, whole (wrapped between words at most), the `--tc` of each unbroken.
        let panel = panel_text(&s);
        for text in std::iter::once(waiting.as_str())
            .chain([a.t(Msg::OtherSeeks)])
            .chain(others.iter().map(String::as_str))
        {
            assert!(panel.contains(&squeeze(text)), "{lang:?}: {text:?}\n{all}");
        }
        assert!(all.contains("--tc=300+3/0"), "{all}");
        assert!(all.contains("--tc=90+0/10"), "{all}");
        assert!(!all.contains(a.t(Msg::Moves)), "no moves yet: {all}");
        // On the smallest screen the waiting line is there whole, wrapped in the panel.
        let s = Screen::draw(&a, 64, 16, now);
        assert!(
            panel_text(&s).contains(&squeeze(&waiting)),
            "{lang:?}:\n{}",
            s.all()
        );
    }
}

#[test]
fn what_a_game_changed_is_shown_under_its_result_once_stored() {
    for lang in LANGS {
        let (mut a, now) = online(lang);
        for m in [
            json!({"t": "ended", "game": "g1", "result": {"winner": "red", "reason": "resign"},
                   "changes": {"red": null, "blue": null}}),
            json!({"t": "changes", "game": "g1", "changes": {"red": {"score_before": 10,
                "score_after": 12, "level_before": 2, "level_after": 3, "coins_before": 100,
                "coins_after": 100, "rating_before": 1500.0, "rating_after": 1512.0},
                "blue": null}}),
        ] {
            a.handle(
                Event::Server(ServerMsg::parse(&m.to_string()).unwrap()),
                now,
            );
            let lines = a.changes_lines();
            assert!(!lines.is_empty());
            for (w, h) in [(80, 24), (100, 30)] {
                let s = Screen::draw(&a, w, h, now);
                let panel = panel_text(&s);
                let result = a.result_text().unwrap();
                assert!(panel.contains(&squeeze(&result)), "{lang:?}:\n{}", s.all());
                for line in &lines {
                    assert!(
                        panel.contains(&squeeze(line)),
                        "{lang:?} {line}:\n{}",
                        s.all()
                    );
                }
            }
        }
        assert_eq!(a.changes_lines().len(), 3, "score, level and rating");
    }
}

/// The side panel's text (right of the board, inside its borders, down to the board's bottom),
/// read row by row without its spaces: a text wrapped in it reads whole.
fn panel_text(s: &Screen) -> String {
    squeeze(
        &(1..s.board_bottom())
            .map(|y| {
                let row = &s.rows[y];
                row[34.min(row.len())..row.len().saturating_sub(1)].concat()
            })
            .collect::<String>(),
    )
}

/// The online game of [`online`] played on a few moves, then ended with `result`, with what it
/// changed for Red (score, coins, rating).
fn finished_online(lang: Lang, result: Value) -> (App, Instant) {
    let (mut a, now) = online(lang);
    for (ply, m) in ["g3g4", "a7a6", "g4g5", "a6a5", "g5g6"].iter().enumerate() {
        let moved = json!({"t": "moved", "game": "g1", "ply": ply, "move": m,
            "clocks": {"red_ms": 590000, "blue_ms": 595000, "move_ms": 2000, "running": "red"}});
        a.handle(
            Event::Server(ServerMsg::parse(&moved.to_string()).unwrap()),
            now,
        );
    }
    let ended = json!({"t": "ended", "game": "g1", "result": result,
        "changes": {"red": {"score_before": 10, "score_after": 12, "level_before": 2,
            "level_after": 2, "coins_before": 100, "coins_after": 90, "rating_before": 1500.0,
            "rating_after": 1512.0}, "blue": null}});
    a.handle(
        Event::Server(ServerMsg::parse(&ended.to_string()).unwrap()),
        now,
    );
    (a, now)
}

#[test]
fn after_an_online_game_the_smallest_screen_keeps_the_result_changes_hint_and_moves() {
    for lang in LANGS {
        let (a, now) = finished_online(lang, json!({"winner": "red", "reason": "disconnect"}));
        let s = Screen::draw(&a, 64, 16, now);
        let all = s.all();
        let panel = side_text(&s);
        let result = a.result_text().unwrap();
        assert!(panel.contains(&squeeze(&result)), "{lang:?}:\n{all}");
        for line in a.changes_lines() {
            assert!(panel.contains(&squeeze(&line)), "{lang:?} {line}:\n{all}");
        }
        // The short hint, whole, and at least the last line of the moves.
        let hint = a.t(Msg::ReviewShort);
        assert!(panel.contains(&squeeze(hint)), "{lang:?}:\n{all}");
        assert!(
            !panel.contains(&squeeze(a.t(Msg::Review))),
            "{lang:?}:\n{all}"
        );
        assert!(all.contains("3. Rg6"), "{lang:?}:\n{all}");
        // Every row of the panel ends at its border: nothing is cut inside it.
        let bottom = s.board_bottom();
        for y in 1..=bottom {
            let r = s.row(y);
            assert!(r.trim_end().ends_with(['|', '│']), "{r:?}\n{all}");
        }
        assert_keys_shown(&s, &a.keys_text());
        // Where there is room, all of it is said in full.
        let s = Screen::draw(&a, 100, 30, now);
        assert!(
            side_text(&s).contains(&squeeze(a.t(Msg::Review))),
            "{}",
            s.all()
        );
    }
}

#[test]
fn a_watchers_analysis_on_the_smallest_screen_is_never_cut_mid_line() {
    use jungle_engine::{Score, SearchLine, SearchResult};
    for lang in LANGS {
        let (mut a, now) = app(lang, Opponent::Online, None);
        let g = json!({"t": "game", "game": {
            "id": "g1", "red": {"name": "alice"}, "blue": {"name": "bob"}, "you": null,
            "tc": {"clock_s": 600, "inc_s": 0, "move_s": 60}, "rules": "standard",
            "moves": [{"move": "g3g4"}, {"move": "a7a6"}], "status": "finished",
            "clocks": {"red_ms": 500000, "blue_ms": 400000, "move_ms": null, "running": null},
            "result": {"winner": "red", "reason": "resign"},
            "presence": {"red": false, "blue": false}}});
        a.handle(
            Event::Server(ServerMsg::parse(&g.to_string()).unwrap()),
            now,
        );
        let cmds = a.handle(Event::Key(Key::Char('x')), now);
        let Some(jungle_tui::app::Command::Analyse { generation, .. }) = cmds.first().cloned()
        else {
            panic!("no analysis: {cmds:?}")
        };
        let line = |score, pv: &[(jungle::Square, jungle::Square)]| SearchLine {
            score,
            depth: 14,
            pv: pv.iter().map(|&(f, t)| jungle::Move::new(f, t)).collect(),
        };
        use jungle::Square as Sq;
        let lines = vec![
            line(Score::Cp(42), &[(Sq::G4, Sq::G5), (Sq::A6, Sq::A5)]),
            line(Score::Cp(-5), &[(Sq::A3, Sq::A4)]),
            line(Score::Den(-4), &[(Sq::F2, Sq::F3)]),
        ];
        let result = SearchResult::from_lines(lines, 1);
        a.handle(Event::Analysis { generation, result }, now);
        let s = Screen::draw(&a, 64, 16, now);
        let all = s.all();
        // The evaluation whole, brackets closed.
        let panel = side_text(&s);
        let eval = Msg::Evaluation.text(lang);
        let at = panel
            .find(&squeeze(eval))
            .unwrap_or_else(|| panic!("{lang:?}:\n{all}"));
        let close = if lang == Lang::En { ')' } else { '）' };
        assert!(panel[at..].contains(close), "{lang:?}:\n{all}");
        assert!(panel.contains(&squeeze(&a.result_text().unwrap())), "{all}");
        // Nobody is away in a finished game.
        assert!(!all.contains(a.t(Msg::SeatDisconnected)), "{all}");
    }
}

/// The side panel's text, all its rows inside its borders (below the board's bottom too, where
/// it is longer), read row by row without its spaces.
fn side_text(s: &Screen) -> String {
    squeeze(
        &(1..s.rows.len())
            .filter(|&y| matches!(s.rows[y].get(33).map(String::as_str), Some("│" | "|")))
            .map(|y| {
                let row = &s.rows[y];
                row[34.min(row.len())..row.len().saturating_sub(1)].concat()
            })
            .collect::<String>(),
    )
}

/// East-Asian-ambiguous characters: one column in ratatui's count, two in many CJK terminals.
const AMBIGUOUS: &str = "…“”‘’→—–·±×§";

/// No ambiguous character on screen `s` (see [`AMBIGUOUS`]).
fn assert_no_ambiguous(s: &Screen, what: &str) {
    let all = s.all();
    let found: Vec<char> = all.chars().filter(|c| AMBIGUOUS.contains(*c)).collect();
    assert!(found.is_empty(), "{what}: {found:?}\n{all}");
}

#[test]
fn chinese_screens_use_full_width_colons_and_no_ambiguous_characters() {
    for lang in [Lang::ZhHans, Lang::ZhHant] {
        // Connecting: the shared catalogue's "正在连接…" is shown with ASCII dots.
        let (a, now) = app(lang, Opponent::Online, None);
        let s = Screen::draw(&a, 80, 24, now);
        assert_no_ambiguous(&s, "connecting");
        assert!(s.all().contains("..."), "{}", s.all());
        // An online game that ended, with what it changed: `->`, not an arrow.
        let (a, now) = finished_online(lang, json!({"winner": "red", "reason": "resign"}));
        for (w, h) in [(64, 16), (80, 24)] {
            let s = Screen::draw(&a, w, h, now);
            assert_no_ambiguous(&s, "changes");
            assert!(side_text(&s).contains("10->12"), "{}", s.all());
            // `蓝方：`, with a full-width colon.
            let blue = Msg::Labelled.fill(
                lang,
                &[
                    (
                        "label",
                        &jungle_tui::i18n::color_name(lang, jungle::Color::Blue),
                    ),
                    ("text", &""),
                ],
            );
            assert!(s.all().contains(&blue), "{}", s.all());
            assert!(!s.all().contains(": "), "{}", s.all());
        }
        // A typed move that cannot be read: quoted 「」.
        let (mut a, now) = app(lang, Opponent::Hotseat, None);
        type_move(&mut a, now, "zz");
        let s = Screen::draw(&a, 80, 24, now);
        assert_no_ambiguous(&s, "typed");
        assert!(s.all().contains("「zz」"), "{}", s.all());
        // At one keyboard each side is its player: no 朋友.
        assert!(!s.all().contains("朋友"), "{}", s.all());
        // The move being typed and the file asked for: full-width colons after their labels.
        for c in "g3".chars() {
            a.handle(Event::Key(Key::Char(c)), now);
        }
        let s = Screen::draw(&a, 80, 24, now);
        assert!(
            s.all().contains(&format!("{}：g3_", a.t(Msg::MoveLabel))),
            "{}",
            s.all()
        );
        a.handle(Event::Key(Key::Esc), now);
        a.handle(Event::Key(Key::Char('s')), now);
        let s = Screen::draw(&a, 80, 24, now);
        assert!(
            s.all().contains(&format!("{}：", a.t(Msg::SaveTo))),
            "{}",
            s.all()
        );
        assert!(!s.all().contains(": "), "{}", s.all());
        // A spectator's mode line, without an ASCII hyphen.
        let (mut a, now) = app(lang, Opponent::Online, None);
        let g = json!({"t": "game", "game": {"id": "g1", "red": {"name": "alice"},
            "blue": {"name": "bob"}, "you": null, "rules": "standard", "moves": [],
            "status": "live", "presence": {"red": true, "blue": true}}});
        a.handle(
            Event::Server(ServerMsg::parse(&g.to_string()).unwrap()),
            now,
        );
        let s = Screen::draw(&a, 80, 24, now);
        assert!(s.all().contains(a.t(Msg::OnlineWatching)), "{}", s.all());
        assert!(a.t(Msg::OnlineWatching).contains('・'));
        assert!(!s.all().contains(" - "), "{}", s.all());
        assert_no_ambiguous(&s, "watching");
    }
    // English keeps its own words (and ASCII arrows where they were ambiguous).
    let (a, now) = finished_online(Lang::En, json!({"winner": "red", "reason": "resign"}));
    let s = Screen::draw(&a, 80, 24, now);
    assert!(s.all().contains("Score: 10 -> 12 (+2)"), "{}", s.all());
}
