//! Drawing the app with ratatui: the board, the side panel (players, clocks, turn, result, move
//! list) and the bottom lines (status or input, keys). Where Chinese is shown (likely in a CJK
//! terminal) only ASCII and wide CJK characters are drawn, never East-Asian-ambiguous symbols
//! (the catalogue's `…` or `“”` are drawn as `...` and `「」`: [`screen_text`]), so columns stay
//! aligned there too.

use crate::app::{Analysis, App, Glyphs, Opponent, Prompt};
use crate::i18n::{color_name, role_char, Msg};
use jungle::{Bitboard, Color, Piece, Square};
use ratatui::layout::Rect;
use ratatui::style::{Color as Tc, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use ratatui::Frame;
use std::ops::Range;
use std::time::Instant;

/// Columns of one square.
const CELL_W: u16 = 4;
/// Other players' seeks listed at most while this client's waits (then how many more).
const MAX_SEEKS_SHOWN: usize = 5;
/// The smallest terminal drawn; smaller ones get a message.
pub const MIN_SIZE: (u16, u16) = (64, 16);

/// ASCII borders: box-drawing characters are East-Asian-ambiguous, two columns wide in many
/// CJK terminals, which would break the layout there.
const ASCII_BORDER: ratatui::symbols::border::Set = ratatui::symbols::border::Set {
    top_left: "+",
    top_right: "+",
    bottom_left: "+",
    bottom_right: "+",
    vertical_left: "|",
    vertical_right: "|",
    horizontal_top: "-",
    horizontal_bottom: "-",
};

/// A bordered block; ASCII borders when Chinese is shown (likely in a CJK terminal).
fn block(app: &App) -> Block<'static> {
    let b = Block::default().borders(Borders::ALL);
    if app.lang.is_chinese() || app.glyphs == Glyphs::Chinese {
        b.border_set(ASCII_BORDER)
    } else {
        b
    }
}

/// Where the parts of the screen go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Areas {
    board: Rect,
    cell_h: u16,
    panel: Rect,
    status: Rect,
    keys: Rect,
}

/// Rows the side panel keeps at least (borders included) where the keys or the status line
/// take the rest of its column: the mode, both players and the turn.
const MIN_PANEL_H: u16 = 7;

/// The layout of a screen of size `area` whose status line takes `status_rows(width)` lines and
/// whose keys take `key_rows(width)` lines when as wide as `width`; `None` when it is too small
/// to draw.
///
/// The board's size is chosen first (two rows a square where the screen has 23 rows or more)
/// and it is never cut; the side panel is at its right, at least as tall as it. The keys' place
/// depends on the screen and the keys only, never on the status line, so that a message does
/// not move them: at the bottom, below the board, wrapped between their entries, where the rows
/// below the board hold them and at least one row more; else at the bottom of the side panel's
/// column (the panel ends above them, level with the board). The status line takes the rows
/// below the board the keys leave, wrapped over the rows it needs; where it needs more, it goes
/// to the side column, above the keys where they are there too.
fn areas(
    area: Rect,
    status_rows: impl Fn(u16) -> usize,
    key_rows: impl Fn(u16) -> usize,
) -> Option<Areas> {
    if area.width < MIN_SIZE.0 || area.height < MIN_SIZE.1 {
        return None;
    }
    // Two rows per square when there is room (squares then look square), else one.
    let cell_h: u16 = if area.height >= 9 * 2 + 3 + 2 { 2 } else { 1 };
    let board_w = 3 + 7 * CELL_W + 2;
    let board_h = 9 * cell_h + 1 + 2;
    let (x, y, width, height) = (area.x, area.y, area.width, area.height);
    let below = height - board_h;
    let side_w = width - board_w;
    let rows = |n: usize| u16::try_from(n).unwrap_or(u16::MAX).max(1);
    let board = Rect::new(x, y, board_w, board_h);
    // A part of the side column: `height` rows from row `top` of the screen.
    let side = |top: u16, height: u16| Rect::new(x + board_w, y + top, side_w, height);
    let full = |top: u16, height: u16| Rect::new(x, y + top, width, height);
    let (status_full, keys_full) = (rows(status_rows(width)), rows(key_rows(width)));
    let room = board_h - MIN_PANEL_H;
    if keys_full < below {
        // The keys at the bottom, below the board.
        let keys = full(height - keys_full, keys_full);
        let free = below - keys_full;
        if status_full <= free {
            // All below the board; the panel reaches down to the status line, except where it
            // would be one row longer than the board: that looks like a mistake, and the
            // status line gets the row.
            let mut top = height - status_full - keys_full;
            if top == board_h + 1 {
                top = board_h;
            }
            return Some(Areas {
                board,
                cell_h,
                panel: side(0, top),
                status: full(top, height - keys_full - top),
                keys,
            });
        }
        // A status too long for its rows below the board: in the side column, above the keys
        // (the column one row longer than the board ends level with it, that row left blank).
        let mut column = height - keys_full;
        if column == board_h + 1 {
            column = board_h;
        }
        let status = rows(status_rows(side_w)).min(column.saturating_sub(MIN_PANEL_H).max(1));
        return Some(Areas {
            board,
            cell_h,
            panel: side(0, column - status),
            status: side(column - status, status),
            keys,
        });
    }
    // The keys beside the board, at the bottom of the side column.
    let keys = rows(key_rows(side_w)).min(room);
    if status_full <= below {
        // The status line below the board, on all its rows.
        return Some(Areas {
            board,
            cell_h,
            panel: side(0, board_h - keys),
            status: full(board_h, below),
            keys: side(board_h - keys, keys),
        });
    }
    // A status too long for the rows below the board: in the side column too, above the keys.
    let column = board_h - keys;
    let status = rows(status_rows(side_w)).min(column.saturating_sub(MIN_PANEL_H).max(1));
    Some(Areas {
        board,
        cell_h,
        panel: side(0, column - status),
        status: side(column - status, status),
        keys: side(board_h - keys, keys),
    })
}

/// The keys text broken into lines of at most `width` columns, between its entries (which are
/// separated by two spaces); an entry wider than a line gets lines of its own, broken at its
/// spaces (see [`pack`]).
fn key_lines(text: &str, width: u16) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for entry in text.split("  ").filter(|e| !e.is_empty()) {
        if columns(entry) > usize::from(width) {
            if !line.is_empty() {
                lines.push(std::mem::take(&mut line));
            }
            lines.extend(pack(entry.split(' '), " ", width));
        } else if line.is_empty() {
            line.push_str(entry);
        } else if columns(&line) + 2 + columns(entry) <= usize::from(width) {
            line.push_str("  ");
            line.push_str(entry);
        } else {
            lines.push(std::mem::replace(&mut line, entry.to_string()));
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// `parts` in lines of at most `width` columns, as many to a line as fit, `sep` between them;
/// a part wider than a line gets lines of its own (see [`wrap`]).
fn pack<'a>(parts: impl IntoIterator<Item = &'a str>, sep: &str, width: u16) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for part in parts.into_iter().filter(|p| !p.is_empty()) {
        if !line.is_empty() && columns(&line) + columns(sep) + columns(part) <= usize::from(width) {
            line.push_str(sep);
            line.push_str(part);
            continue;
        }
        if !line.is_empty() {
            lines.push(std::mem::take(&mut line));
        }
        // A part that fits is one piece.
        let mut pieces = wrap(part, width);
        line = pieces.pop().unwrap_or_default();
        lines.extend(pieces);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// The layout of the screen `area` for `app`.
fn layout(app: &App, area: Rect) -> Option<Areas> {
    areas(
        area,
        |width| status_lines(app, width).len(),
        |width| key_lines(&screen_text(app, &app.keys_text()), width).len(),
    )
}

/// The square drawn at column `x`, row `y` of a screen of size `area` (for mouse clicks).
pub fn square_at(app: &App, area: Rect, x: u16, y: u16) -> Option<Square> {
    let a = layout(app, area)?;
    let inner = Block::default().borders(Borders::ALL).inner(a.board);
    let col = x.checked_sub(inner.x + 3)? / CELL_W;
    let row = y.checked_sub(inner.y)? / a.cell_h;
    if col >= 7 || row >= 9 || y >= inner.y + inner.height {
        return None;
    }
    let (file, rank) = if app.flipped {
        (6 - col as u8, row as u8)
    } else {
        (col as u8, 8 - row as u8)
    };
    Square::from_coords(file, rank)
}

/// Draws the whole screen.
pub fn draw(f: &mut Frame, app: &App, now: Instant) {
    let area = f.area();
    let Some(a) = layout(app, area) else {
        let p = Paragraph::new(app.t(Msg::TooSmall)).wrap(Wrap { trim: true });
        f.render_widget(p, area);
        return;
    };
    draw_board(f, app, a.board, a.cell_h);
    draw_panel(f, app, a.panel, now);
    f.render_widget(
        Paragraph::new(fit_rows(
            status_lines(app, a.status.width),
            a.status.width,
            a.status.height,
        )),
        a.status,
    );
    let keys: Vec<Line> = key_lines(&screen_text(app, &app.keys_text()), a.keys.width)
        .into_iter()
        .map(Line::from)
        .collect();
    f.render_widget(
        Paragraph::new(keys).style(Style::default().fg(Tc::DarkGray)),
        a.keys,
    );
    if app.help {
        draw_help(f, app, area);
    }
}

/// The text of one square (4 columns) and its style.
/// `targets` are the selected animal's legal destinations, `closed` those the game's history
/// closes to it.
fn cell(
    app: &App,
    sq: Square,
    targets: Bitboard,
    closed: Bitboard,
    last: Option<jungle::Move>,
) -> (String, Style) {
    let pos = app.shown_position();
    let bb = Bitboard::from_square(sq);
    let water = pos.water().contains(sq);
    let trap = Bitboard::TRAPS.contains(sq);
    let den = Bitboard::DENS.contains(sq);
    let mut style = Style::default();
    let bg = if water {
        Some(Tc::Blue)
    } else if trap {
        Some(Tc::Rgb(120, 80, 40))
    } else if den {
        Some(Tc::Magenta)
    } else {
        None
    };
    if let Some(bg) = bg {
        style = style.bg(bg);
    }
    let text = match pos.piece_at(sq) {
        Some(p) => {
            style = style
                .fg(match p.color {
                    Color::Red => Tc::LightRed,
                    Color::Blue => Tc::LightCyan,
                })
                .add_modifier(Modifier::BOLD);
            format!(" {} ", glyph(app, p))
        }
        None => {
            style = style.fg(Tc::Gray);
            let chinese = app.glyphs == Glyphs::Chinese;
            if water {
                " ~~ ".to_string()
            } else if trap {
                if chinese { " 阱 " } else { " ## " }.to_string()
            } else if den {
                if chinese { " 穴 " } else { " @@ " }.to_string()
            } else {
                " .  ".to_string()
            }
        }
    };
    if last.is_some_and(|m| m.from() == Some(sq) || m.to() == Some(sq)) {
        style = style.add_modifier(Modifier::UNDERLINED);
        if bg.is_none() {
            style = style.bg(Tc::Rgb(60, 60, 60));
        }
    }
    if targets.0 & bb.0 != 0 {
        style = style.bg(Tc::Green).fg(Tc::Black);
    }
    if closed.0 & bb.0 != 0 {
        style = style.bg(Tc::Red).fg(Tc::Black);
    }
    if app.selected == Some(sq) {
        style = style.bg(Tc::LightGreen).fg(Tc::Black);
    }
    if app.cursor == sq {
        style = style.bg(Tc::Yellow).fg(Tc::Black);
    }
    (text, style)
}

/// Two columns for an animal: `E ` / `e ` or `象`.
fn glyph(app: &App, p: Piece) -> String {
    match app.glyphs {
        Glyphs::Letters => format!("{} ", p.char()),
        Glyphs::Chinese => role_char(app.lang, p.role).to_string(),
    }
}

fn draw_board(f: &mut Frame, app: &App, area: Rect, cell_h: u16) {
    let block = block(app).title(format!(" {} ", app.t(Msg::Title)));
    let inner = block.inner(area);
    f.render_widget(block, area);
    let mut lines: Vec<Line> = Vec::new();
    // Computed once per frame, not per square: legal moves apply the history rules.
    let (targets, closed) = app.destinations();
    let last = app.last_move();
    for row in 0..9u8 {
        let rank = if app.flipped { row } else { 8 - row };
        for sub in 0..cell_h {
            let label = if sub + 1 == cell_h.div_ceil(2) || cell_h == 1 {
                format!("{:>2} ", rank + 1)
            } else {
                "   ".to_string()
            };
            let mut spans = vec![Span::raw(label)];
            for col in 0..7u8 {
                let file = if app.flipped { 6 - col } else { col };
                let sq = Square::from_coords(file, rank).expect("on the board");
                let (text, style) = cell(app, sq, targets, closed, last);
                let text = if sub + 1 == cell_h.div_ceil(2) || cell_h == 1 {
                    text
                } else {
                    " ".repeat(CELL_W as usize)
                };
                spans.push(Span::styled(text, style));
            }
            lines.push(Line::from(spans));
        }
    }
    let mut files = String::from("   ");
    for col in 0..7u8 {
        let file = if app.flipped { 6 - col } else { col };
        files.push_str(&format!(" {}  ", (b'a' + file) as char));
    }
    lines.push(Line::from(files));
    f.render_widget(Paragraph::new(lines), inner);
}

fn fmt_ms(ms: i64) -> String {
    let s = ms.max(0) / 1000;
    format!("{}:{:02}", s / 60, s % 60)
}

/// How soon a part of the side panel gives way where the panel is too short for all of it,
/// the lowest first (see [`fit_panel`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Rank {
    /// A blank line between parts.
    Blank,
    /// The mode ("Online", "Two players, one keyboard").
    Mode,
    /// The move list's heading (its lines say what they are).
    MovesHeading,
    /// The lobby's other seeks, and the analysis's best moves after the first, and its heading.
    Extra,
    /// The players' clocks and timeouts once the game is over.
    FinalClocks,
    /// The analysis's best move.
    BestMove,
    /// The evaluation of the analysis.
    Evaluation,
    /// Where the game is looked back at, and the keys that step through it.
    Review,
    /// Never left out: the players, the turn or the result and what it changed, a live game's
    /// clocks.
    Keep,
}

/// One part of the side panel: its lines (wrapped to the panel) and its [`Rank`].
struct Part {
    lines: Vec<Line<'static>>,
    rank: Rank,
}

/// The side panel's parts (all but the move list) for a panel `width` columns wide.
fn panel_parts(app: &App, now: Instant, width: u16, compact: bool) -> Vec<Part> {
    let mut parts: Vec<Part> = Vec::new();
    macro_rules! push {
        ($line:expr, $rank:expr $(,)?) => {
            parts.push(Part {
                lines: wrap_line(safe_line(app, $line), width),
                rank: $rank,
            })
        };
    }
    let blank = || Line::raw("");
    let mode = match app.opponent {
        Opponent::Engine { .. } => String::new(),
        Opponent::Hotseat => app.t(Msg::Hotseat).to_string(),
        Opponent::Online if app.spectating() => app.t(Msg::OnlineWatching).to_string(),
        Opponent::Online => app.t(Msg::Online).to_string(),
    };
    if !mode.is_empty() {
        push!(
            Line::from(Span::styled(
                mode,
                Style::default().add_modifier(Modifier::ITALIC),
            )),
            Rank::Mode,
        );
    }
    let clocks = if app.finished() {
        Rank::FinalClocks
    } else {
        Rank::Keep
    };
    for c in [Color::Blue, Color::Red] {
        let (names, details) = player_lines(app, c, now, width);
        parts.push(Part {
            lines: names,
            rank: Rank::Keep,
        });
        if !details.is_empty() {
            parts.push(Part {
                lines: details,
                rank: clocks,
            });
        }
    }
    push!(blank(), Rank::Blank);
    if let Some(r) = app.result_text() {
        push!(
            Line::from(Span::styled(
                r,
                Style::default().fg(Tc::Yellow).add_modifier(Modifier::BOLD),
            )),
            Rank::Keep,
        );
        // What it changed for the player (or that it will be said once the result is stored).
        for line in app.changes_lines() {
            push!(Line::raw(line), Rank::Keep);
        }
        if !app.game.is_empty() {
            let at = Msg::PlyOf.fill(
                app.lang,
                &[("n", &app.shown_ply()), ("total", &app.game.len())],
            );
            let hint = |m: Msg| Span::styled(app.t(m), Style::default().fg(Tc::DarkGray));
            if compact {
                // Where the panel is short: the ply and a short hint on one line.
                push!(
                    Line::from(vec![Span::raw(at), Span::raw("  "), hint(Msg::ReviewShort)]),
                    Rank::Review,
                );
            } else {
                push!(Line::raw(at), Rank::Review);
                push!(Line::from(hint(Msg::Review)), Rank::Review);
            }
        }
    } else if let Some(d) = app.thinking_for(now) {
        let dots = ".".repeat(1 + (d.as_millis() / 400 % 3) as usize);
        push!(
            Line::from(Span::styled(
                format!(
                    "{}{dots} {:.1}s",
                    app.t(Msg::Thinking).trim_end_matches('…'),
                    d.as_secs_f32()
                ),
                Style::default().fg(Tc::Yellow),
            )),
            Rank::Keep,
        );
    } else if app.online.waiting {
        push!(Line::raw(app.waiting_text()), Rank::Keep);
        let others = app.other_seeks();
        if !others.is_empty() {
            push!(blank(), Rank::Blank);
            push!(
                Line::from(Span::styled(
                    app.t(Msg::OtherSeeks),
                    Style::default().add_modifier(Modifier::BOLD),
                )),
                Rank::Extra,
            );
            let more = others.len().saturating_sub(MAX_SEEKS_SHOWN);
            for other in others.into_iter().take(MAX_SEEKS_SHOWN) {
                push!(Line::raw(other), Rank::Extra);
            }
            if more > 0 {
                push!(Line::raw(format!("(+{more})")), Rank::Extra);
            }
        }
    } else if app.opponent == Opponent::Online && app.online.game_id.is_none() {
        push!(Line::raw(app.t(Msg::Connecting)), Rank::Keep);
    } else {
        push!(Line::raw(app.turn_text()), Rank::Keep);
    }
    if let Some(a) = app.analysis_shown() {
        push!(blank(), Rank::Blank);
        for (i, line) in analysis_lines(app, a).into_iter().enumerate() {
            // The evaluation, the heading, then the best moves.
            let rank = match i {
                0 => Rank::Evaluation,
                2 => Rank::BestMove,
                _ => Rank::Extra,
            };
            push!(line, rank);
        }
    }
    // No moves while a seek waits: its room is the other seeks'.
    if !app.online.waiting {
        push!(blank(), Rank::Blank);
        push!(
            Line::from(Span::styled(
                app.t(Msg::Moves),
                Style::default().add_modifier(Modifier::BOLD),
            )),
            Rank::MovesHeading,
        );
    }
    parts
}

/// The side panel's lines for a panel `width` × `height` (inside its border): its parts and the
/// move list. Where they do not all fit, the look back at a finished game is said shorter, then
/// the parts of the lowest [`Rank`] go first, the lowest one at the bottom first, until the rest
/// and a line of the move list fit (the move list gets what is left, from its end or from the
/// move shown); the result, what it changed and the hint to look back are kept over the moves.
fn panel_lines(app: &App, now: Instant, width: u16, height: u16) -> Vec<Line<'static>> {
    let height = usize::from(height);
    let (move_lines, current) = move_list(app);
    let moves_min = usize::from(!move_lines.is_empty() && !app.online.waiting);
    let count = |parts: &[Part]| parts.iter().map(|p| p.lines.len()).sum::<usize>();
    let mut parts = panel_parts(app, now, width, false);
    if count(&parts) + moves_min > height {
        parts = panel_parts(app, now, width, true);
    }
    loop {
        let fits_with_moves = count(&parts) + moves_min <= height;
        let lowest = parts
            .iter()
            .enumerate()
            .filter(|(_, p)| p.rank < Rank::Keep)
            .min_by_key(|(i, p)| (p.rank, std::cmp::Reverse(*i)))
            .map(|(i, p)| (i, p.rank));
        match lowest {
            _ if fits_with_moves => break,
            // The moves give way before the look back at the game.
            Some((_, rank)) if rank >= Rank::Review && count(&parts) <= height => break,
            Some((i, _)) => {
                parts.remove(i);
            }
            None => break,
        }
    }
    let mut lines: Vec<Line<'static>> = parts.into_iter().flat_map(|p| p.lines).collect();
    let room = height.saturating_sub(lines.len());
    let last_page = move_lines.len().saturating_sub(room);
    // The end of the list, or while looking back the line of the move shown, kept in view.
    let skip = current.map_or(last_page, |c| c.saturating_sub(room / 2).min(last_page));
    lines.extend(move_lines.into_iter().skip(skip).take(room));
    lines
}

fn draw_panel(f: &mut Frame, app: &App, area: Rect, now: Instant) {
    let block = block(app);
    let inner = block.inner(area);
    f.render_widget(block, area);
    let lines = panel_lines(app, now, inner.width, inner.height);
    f.render_widget(Paragraph::new(lines), inner);
}

/// A player's lines in the panel: `> Red: name  Clock 9:58  Move 0:08  Timeouts 1/3` (the
/// marker on the side to move; the clocks and timeouts in online games, after a marked
/// `Disconnected` while the player is away: [`App::seat_disconnected`]). Where that is wider than
/// `width`, the name is on its own lines, indented to follow `> Red: `, and the rest on the
/// next, as many to a line as fit, indented by [`DETAIL_INDENT`] (less than the name, so that
/// more fits on a line of the smallest screen's panel).
fn player_lines(
    app: &App,
    c: Color,
    now: Instant,
    width: u16,
) -> (Vec<Line<'static>>, Vec<Line<'static>>) {
    let marker = if app.game.position().turn() == c && app.result_text().is_none() {
        "> "
    } else {
        "  "
    };
    let style = Style::default().fg(match c {
        Color::Red => Tc::LightRed,
        Color::Blue => Tc::LightCyan,
    });
    let label = screen_text(app, &app.player_label(c));
    let mut head = vec![
        Span::raw(marker),
        Span::styled(color_name(app.lang, c), style.add_modifier(Modifier::BOLD)),
    ];
    // At one keyboard the side is the player: no name after it.
    if !label.is_empty() {
        head.push(Span::raw(if app.lang.is_chinese() { "：" } else { ": " }));
    }
    let mut details: Vec<Span<'static>> = Vec::new();
    if app.seat_disconnected(c) {
        let text = match app.away_left(c, now) {
            // Whole seconds, rounded up: "0 s" only as the game ends.
            Some(ms) => Msg::SeatDisconnectedLeft.fill(app.lang, &[("n", &((ms + 999) / 1000))]),
            None => app.t(Msg::SeatDisconnected).to_string(),
        };
        details.push(Span::styled(
            text,
            Style::default()
                .fg(Tc::Black)
                .bg(Tc::Yellow)
                .add_modifier(Modifier::BOLD),
        ));
    }
    if let Some((game, per_move)) = app.clock_of(c, now) {
        if let Some(ms) = game {
            details.push(Span::raw(format!("{} {}", app.t(Msg::Clock), fmt_ms(ms))));
        }
        if let Some(ms) = per_move {
            details.push(Span::raw(format!(
                "{} {}",
                app.t(Msg::MoveTimer),
                fmt_ms(ms)
            )));
        }
        let n = match c {
            Color::Red => app.online.timeouts.red,
            Color::Blue => app.online.timeouts.blue,
        };
        if n > 0 {
            // The 4th timeout ends the game (the result says so): "4/3" would read as a count
            // past its limit.
            details.push(Span::raw(Msg::Timeouts.fill(app.lang, &[("n", &n.min(3))])));
        }
    }
    let mut one = head.clone();
    one.push(Span::raw(label.clone()));
    for d in &details {
        one.push(Span::raw("  "));
        one.push(d.clone());
    }
    let one = Line::from(one);
    if one.width() <= usize::from(width) {
        return (vec![one], Vec::new());
    }
    let indent = Line::from(head.clone()).width();
    let room = u16::try_from(usize::from(width).saturating_sub(indent))
        .unwrap_or(1)
        .max(1);
    let pad = " ".repeat(indent);
    let detail_room = width.saturating_sub(DETAIL_INDENT).max(1);
    let mut out: Vec<Line<'static>> = Vec::new();
    for (i, text) in wrap(&label, room).into_iter().enumerate() {
        if i == 0 {
            let mut spans = head.clone();
            spans.push(Span::raw(text));
            out.push(Line::from(spans));
        } else {
            out.push(Line::raw(format!("{pad}{text}")));
        }
    }
    let mut rest: Vec<Line<'static>> = Vec::new();
    for line in pack_spans(&details, detail_room) {
        let mut spans = vec![Span::raw(" ".repeat(usize::from(DETAIL_INDENT)))];
        spans.extend(line.spans);
        rest.push(Line::from(spans));
    }
    (out, rest)
}

/// Columns before a player's clocks and timeouts on lines of their own (see [`player_lines`]).
const DETAIL_INDENT: u16 = 4;

/// `parts` in lines of at most `width` columns, as many to a line as fit, two spaces between
/// them, each keeping its style; a part wider than a line gets lines of its own (see
/// [`wrap_line`]).
fn pack_spans(parts: &[Span<'static>], width: u16) -> Vec<Line<'static>> {
    let mut lines: Vec<Line<'static>> = Vec::new();
    let mut line: Vec<Span<'static>> = Vec::new();
    let mut used = 0;
    for part in parts.iter().filter(|p| p.width() > 0) {
        if !line.is_empty() && used + 2 + part.width() <= usize::from(width) {
            line.push(Span::raw("  "));
            line.push(part.clone());
            used += 2 + part.width();
            continue;
        }
        if !line.is_empty() {
            lines.push(Line::from(std::mem::take(&mut line)));
        }
        // A part that fits is one piece.
        let mut pieces = wrap_line(Line::from(part.clone()), width);
        let last = pieces.pop().unwrap_or_default();
        used = last.width();
        line = last.spans;
        lines.extend(pieces);
    }
    if !line.is_empty() {
        lines.push(Line::from(line));
    }
    lines
}

/// The move list, two plies a line (`12. Rg4     ra6`; a game starting with Blue begins with
/// `1. ...`), and while looking back at a finished game the line of the move shown, that move
/// highlighted.
fn move_list(app: &App) -> (Vec<Line<'static>>, Option<usize>) {
    let sans = app.game.sans();
    let shown = app.shown_ply();
    let start_no = app.game.start_position().fullmoves() as usize;
    // A game starting with Blue's move has `...` in its first line's first column.
    let skip = usize::from(app.game.start_position().turn() == Color::Blue && !sans.is_empty());
    // The ply highlighted (the move that led to the position shown) while looking back.
    let marked = (shown < sans.len()).then(|| shown.checked_sub(1));
    let lines = (0..(sans.len() + skip).div_ceil(2))
        .map(|n| {
            let mut spans = vec![Span::raw(format!("{:>3}. ", start_no + n))];
            for k in 0..2 {
                let ply = (2 * n + k).checked_sub(skip).filter(|&p| p < sans.len());
                let text = match ply {
                    Some(p) => app.san_text(sans[p]),
                    None if k == 0 => "...".to_string(),
                    None => String::new(),
                };
                let text = if k == 0 { format!("{text:<8}") } else { text };
                if ply.is_some() && marked == Some(ply) {
                    spans.push(Span::styled(
                        text,
                        Style::default().add_modifier(Modifier::REVERSED),
                    ));
                } else {
                    spans.push(Span::raw(text));
                }
            }
            Line::from(spans)
        })
        .collect();
    // The line of the marked move; at the start position (nothing marked) the first line.
    let current = marked.map(|ply| ply.map_or(0, |p| (p + skip) / 2));
    (lines, current)
}

/// Moves of each best line shown in the analysis (the rest is cut to `...`).
const ANALYSIS_MOVES: usize = 6;

/// The analysis of the position on the board: the evaluation (for whom, how deep), then the best
/// moves, each with its score and the start of its line; "Thinking…" until it comes.
fn analysis_lines(app: &App, a: &Analysis) -> Vec<Line<'static>> {
    let bold = Style::default().add_modifier(Modifier::BOLD);
    let head = labelled(app, app.t(Msg::Evaluation));
    let Some(r) = &a.result else {
        return vec![Line::from(vec![
            Span::styled(head, bold),
            // Without the `…`: it is East-Asian-ambiguous, two columns in some terminals.
            Span::styled(
                app.t(Msg::Thinking).trim_end_matches('…'),
                Style::default().fg(Tc::Yellow),
            ),
        ])];
    };
    if r.lines.is_empty() {
        return vec![Line::from(vec![
            Span::styled(head, bold),
            Span::raw(app.t(Msg::EngineNoMove)),
        ])];
    }
    let side = color_name(app.lang, app.shown_position().turn());
    let comma = if app.lang.is_chinese() { "，" } else { ", " };
    let about = format!(
        "{}{comma}{}",
        Msg::EvalFor.fill(app.lang, &[("side", &side)]),
        Msg::DepthN.fill(app.lang, &[("n", &r.depth)])
    );
    let mut out = vec![
        Line::from(vec![
            Span::styled(head, bold),
            Span::raw(app.lang.aside(&app.score_text(r.score), about)),
        ]),
        Line::from(Span::styled(app.t(Msg::BestMoves), bold)),
    ];
    for (i, l) in r.lines.iter().enumerate() {
        out.push(Line::raw(format!(
            "{:>3}. {:>6}  {}",
            i + 1,
            app.score_text(l.score),
            app.line_text(&l.pv, ANALYSIS_MOVES)
        )));
    }
    out
}

/// The status line in one line: the path or move being typed, else the last message.
fn status_line(app: &App) -> Line<'static> {
    safe_line(app, status_line_as_said(app))
}

/// `label` followed by the colon its language writes after a label (`Save to: ` / `保存到：`).
fn labelled(app: &App, label: &str) -> String {
    if app.lang.is_chinese() {
        format!("{label}：")
    } else {
        format!("{label}: ")
    }
}

/// [`status_line`] before [`safe_line`].
fn status_line_as_said(app: &App) -> Line<'static> {
    if let Some(p) = &app.prompt {
        let (label, buf) = match p {
            Prompt::Save(b) => (app.t(Msg::SaveTo), b),
            Prompt::Open(b) => (app.t(Msg::OpenFile), b),
        };
        Line::from(vec![
            Span::styled(
                labelled(app, label),
                Style::default().add_modifier(Modifier::BOLD),
            ),
            Span::raw(format!("{buf}_")),
        ])
    } else if !app.input.is_empty() {
        Line::from(vec![
            Span::styled(
                labelled(app, app.t(Msg::MoveLabel)),
                Style::default().add_modifier(Modifier::BOLD),
            ),
            Span::raw(format!("{}_", app.input)),
        ])
    } else if let Some(s) = &app.status {
        let style = if s.error {
            Style::default().fg(Tc::LightRed)
        } else {
            Style::default().fg(Tc::Yellow)
        };
        Line::from(Span::styled(s.text.clone(), style))
    } else {
        Line::raw("")
    }
}

/// Whether the screen is likely in a CJK terminal (Chinese shown: the language or the animals),
/// where East-Asian-ambiguous characters take two columns.
fn cjk_screen(app: &App) -> bool {
    app.lang.is_chinese() || app.glyphs == Glyphs::Chinese
}

/// The East-Asian-ambiguous characters the texts shown may hold (the catalogue's, shared with
/// the browser), and what a CJK screen shows instead: ASCII, or wide forms.
const AMBIGUOUS: &[(char, &str)] = &[
    ('…', "..."),
    ('“', "「"),
    ('”', "」"),
    ('‘', "「"),
    ('’', "」"),
    ('→', "->"),
    ('—', "-"),
    ('–', "-"),
    ('·', "・"),
    ('±', "+/-"),
    ('×', "x"),
    ('§', "S"),
];

/// `text` as a CJK screen shows it (`…` as `...`, `“”` as `「」`, `→` as `->`, and so on); as
/// it is elsewhere. Ambiguous characters take two columns in many CJK terminals, one in
/// ratatui's count: what follows them on the row, the panel's border included, would be drawn
/// a column off.
pub fn screen_text(app: &App, text: &str) -> String {
    if !cjk_screen(app) || !text.chars().any(|c| AMBIGUOUS.iter().any(|(a, _)| *a == c)) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match AMBIGUOUS.iter().find(|(a, _)| *a == c) {
            Some((_, with)) => out.push_str(with),
            None => out.push(c),
        }
    }
    out
}

/// `line` with each part's text as [`screen_text`] says it.
fn safe_line(app: &App, line: Line<'static>) -> Line<'static> {
    let style = line.style;
    let spans: Vec<Span<'static>> = line
        .spans
        .into_iter()
        .map(|s| Span::styled(screen_text(app, &s.content), s.style))
        .collect();
    Line::from(spans).style(style)
}

/// `lines` cut to `rows` rows of `width` columns: where some are left out, the last row shown
/// ends with `...` (it is cut, not ended there).
fn fit_rows(mut lines: Vec<Line<'static>>, width: u16, rows: u16) -> Vec<Line<'static>> {
    let rows = usize::from(rows);
    if lines.len() <= rows || rows == 0 {
        return lines;
    }
    lines.truncate(rows);
    if let Some(last) = lines.last_mut() {
        let style = last.spans.last().map(|s| s.style).unwrap_or_default();
        let mut text: String = last.spans.iter().map(|s| s.content.as_ref()).collect();
        while columns(&text) + 3 > usize::from(width) && text.pop().is_some() {}
        text.push_str("...");
        *last = Line::from(Span::styled(text, style));
    }
    lines
}

/// The status line broken into lines of at most `width` columns (see [`wrap_line`]).
fn status_lines(app: &App, width: u16) -> Vec<Line<'static>> {
    wrap_line(status_line(app), width)
}

/// The help overlay's place on a screen of size `area`: all of it, up to 100 columns wide.
fn help_area(area: Rect) -> Rect {
    let width = area.width.min(100);
    Rect {
        x: area.x + (area.width - width) / 2,
        width,
        ..area
    }
}

/// The help text laid out for one screen size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HelpView {
    /// The text broken into lines as wide as the overlay.
    pub lines: Vec<String>,
    /// How many lines the overlay shows at once.
    pub rows: u16,
}

impl HelpView {
    /// The highest first line shown: 0 where the whole text fits, else the first line of its
    /// last screenful.
    pub fn max_scroll(&self) -> u16 {
        u16::try_from(self.lines.len())
            .unwrap_or(u16::MAX)
            .saturating_sub(self.rows)
    }
}

/// The help laid out for a screen of size `area`; `None` where the screen is too small to draw
/// anything (it then shows only a message).
pub fn help_view(app: &App, area: Rect) -> Option<HelpView> {
    layout(app, area)?;
    let inner = block(app).inner(help_area(area));
    Some(HelpView {
        lines: wrap(&screen_text(app, app.t(Msg::HelpBody)), inner.width),
        rows: inner.height,
    })
}

/// Chinese punctuation no line starts with.
const CLOSING: &[char] = &[
    '，', '。', '、', '；', '：', '）', '！', '？', '」', '』', '》',
];
/// Chinese punctuation no line ends with.
const OPENING: &[char] = &['（', '「', '『', '《'];

/// The columns `s` takes.
fn columns(s: &str) -> usize {
    Span::raw(s).width()
}

/// Whether `c` takes two columns.
fn is_wide(c: char) -> bool {
    columns(c.encode_utf8(&mut [0; 4])) > 1
}

/// The words of one paragraph, each as the byte range of the spaces before it (empty where
/// none) and its own. Chinese has no spaces: two wide characters in a row are two words, unless
/// that would start a line with closing punctuation or end one with opening punctuation.
fn words(paragraph: &str) -> Vec<(Range<usize>, Range<usize>)> {
    let mut words = Vec::new();
    let mut gap = 0;
    let mut start: Option<usize> = None;
    let mut prev: Option<char> = None;
    for (i, c) in paragraph.char_indices() {
        if c == ' ' {
            if let Some(s) = start.take() {
                words.push((gap..s, s..i));
                gap = i;
            }
            prev = None;
            continue;
        }
        let breaks = prev.is_some_and(|p| {
            is_wide(p) && is_wide(c) && !OPENING.contains(&p) && !CLOSING.contains(&c)
        });
        if breaks {
            if let Some(s) = start.take() {
                words.push((gap..s, s..i));
                gap = i;
            }
        }
        start.get_or_insert(i);
        prev = Some(c);
    }
    if let Some(s) = start {
        words.push((gap..s, s..paragraph.len()));
    }
    words
}

/// `text` broken into lines of at most `width` columns, each line as the byte ranges of `text`
/// it shows. Each of its paragraphs (ended by `\n`) is on lines of its own, broken between words
/// (see [`words`]; the spaces at a break are dropped, others kept), and a word wider than a line
/// where the line ends.
fn break_lines(text: &str, width: u16) -> Vec<Vec<Range<usize>>> {
    let width = usize::from(width).max(1);
    let mut lines = Vec::new();
    let mut offset = 0;
    for paragraph in text.split('\n') {
        let mut line: Vec<Range<usize>> = Vec::new();
        let mut line_w = 0;
        for (gap, word) in words(paragraph) {
            let gap = offset + gap.start..offset + gap.end;
            let word = offset + word.start..offset + word.end;
            let gap_w = if line.is_empty() { 0 } else { gap.len() };
            let word_w = columns(&text[word.clone()]);
            if line_w + gap_w + word_w <= width {
                if gap_w > 0 {
                    line.push(gap);
                }
                line.push(word);
                line_w += gap_w + word_w;
                continue;
            }
            if !line.is_empty() {
                lines.push(std::mem::take(&mut line));
                line_w = 0;
            }
            let mut from = word.start;
            for (i, c) in text[word.clone()].char_indices() {
                let i = word.start + i;
                let w = columns(c.encode_utf8(&mut [0; 4]));
                if line_w + w > width && i > from {
                    line.push(from..i);
                    lines.push(std::mem::take(&mut line));
                    line_w = 0;
                    from = i;
                }
                line_w += w;
            }
            line.push(from..word.end);
        }
        lines.push(line);
        offset += paragraph.len() + 1;
    }
    lines
}

/// `text` broken into lines of at most `width` columns (see [`break_lines`]).
fn wrap(text: &str, width: u16) -> Vec<String> {
    break_lines(text, width)
        .into_iter()
        .map(|line| line.into_iter().map(|r| &text[r]).collect())
        .collect()
}

/// `line` broken into lines of at most `width` columns as [`wrap`] breaks its text, each part
/// keeping its style; a line that fits is kept as it is.
fn wrap_line(line: Line<'static>, width: u16) -> Vec<Line<'static>> {
    if line.width() <= usize::from(width) {
        return vec![line];
    }
    let mut text = String::new();
    let mut styled: Vec<(Range<usize>, Style)> = Vec::new();
    for span in &line.spans {
        styled.push((text.len()..text.len() + span.content.len(), span.style));
        text.push_str(&span.content);
    }
    break_lines(&text, width)
        .into_iter()
        .map(|ranges| {
            let mut spans: Vec<Span<'static>> = Vec::new();
            for r in ranges {
                for (s, style) in &styled {
                    let (from, to) = (r.start.max(s.start), r.end.min(s.end));
                    if from >= to {
                        continue;
                    }
                    match spans.last_mut() {
                        Some(last) if last.style == *style => {
                            last.content.to_mut().push_str(&text[from..to]);
                        }
                        _ => spans.push(Span::styled(text[from..to].to_string(), *style)),
                    }
                }
            }
            Line::from(spans).style(line.style)
        })
        .collect()
}

/// The help over the whole screen. Where it is longer than the screen, it shows the lines from
/// [`App::help_scroll`] on, and its bottom border says which and how to scroll.
fn draw_help(f: &mut Frame, app: &App, area: Rect) {
    let Some(view) = help_view(app, area) else {
        return;
    };
    let r = help_area(area);
    let scroll = app.help_scroll.min(view.max_scroll());
    let mut frame = block(app).title(format!(" {} ", app.t(Msg::HelpTitle)));
    if view.max_scroll() > 0 {
        let first = usize::from(scroll) + 1;
        let last = (usize::from(scroll) + usize::from(view.rows)).min(view.lines.len());
        let total = view.lines.len();
        let at = Msg::HelpScroll.fill(
            app.lang,
            &[("first", &first), ("last", &last), ("total", &total)],
        );
        frame = frame.title_bottom(Line::from(format!(" {at} ")).right_aligned());
    }
    let lines: Vec<Line> = view
        .lines
        .into_iter()
        .skip(usize::from(scroll))
        .map(Line::from)
        .collect();
    f.render_widget(Clear, r);
    f.render_widget(Paragraph::new(lines).block(frame), r);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::{Config, Event, Key};
    use crate::i18n::Lang;
    use jungle::{Position, Rules};
    use ratatui::backend::TestBackend;
    use ratatui::Terminal;

    fn app(lang: Lang, glyphs: Glyphs, opponent: Opponent) -> App {
        let config = Config {
            lang,
            glyphs,
            start: Position::start(Rules::STANDARD),
            opponent,
            online_start: None,
            save_dir: std::env::temp_dir(),
        };
        App::new(config, Instant::now()).0
    }

    fn screen(app: &App, w: u16, h: u16) -> Vec<String> {
        let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
        term.draw(|f| draw(f, app, Instant::now())).unwrap();
        let buf = term.backend().buffer().clone();
        (0..h)
            .map(|y| {
                // A wide character fills two cells; the second holds a blank to skip.
                let mut s = String::new();
                let mut x = 0;
                while x < w {
                    let sym = buf[(x, y)].symbol();
                    s.push_str(sym);
                    x += if sym.chars().any(|c| c >= '\u{2E80}') {
                        2
                    } else {
                        1
                    };
                }
                s
            })
            .collect()
    }

    #[test]
    fn draws_the_start_position_with_letters_and_ranks() {
        let a = app(Lang::En, Glyphs::Letters, Opponent::Hotseat);
        let s = screen(&a, 90, 30);
        let all = s.join("\n");
        // Rank 9 holds Blue's lion, trap, den, trap and tiger; rank 1 Red's tiger … lion.
        let r9 = s.iter().find(|l| l.contains(" 9 ")).unwrap();
        assert!(r9.contains(" l   .   ##  @@  ##  .   t  "), "{r9}");
        let r1 = s.iter().find(|l| l.contains(" 1 ")).unwrap();
        assert!(r1.contains(" T   .   ##  @@  ##  .   L  "), "{r1}");
        let r5 = s.iter().find(|l| l.contains(" 5 ")).unwrap();
        assert!(r5.contains(" ~~  ~~ "), "{r5}");
        assert!(all.contains("Red's turn"), "{all}");
        assert!(all.contains("a   b   c   d   e   f   g"));
    }

    #[test]
    fn chinese_glyphs_and_flipped_board() {
        let mut a = app(Lang::ZhHans, Glyphs::Chinese, Opponent::Hotseat);
        a.handle(Event::Key(Key::Char('v')), Instant::now());
        let s = screen(&a, 90, 30);
        // Flipped: rank 1 is at the top and file g is on the left.
        let first_rank = s.iter().position(|l| l.contains(" 1 ")).unwrap();
        let ninth = s.iter().position(|l| l.contains(" 9 ")).unwrap();
        assert!(first_rank < ninth);
        let all = s.join("\n");
        assert!(all.contains("狮"), "{all}");
        assert!(all.contains("轮到红方走"), "{all}");
        assert!(all.contains("g   f   e   d   c   b   a"));
        // Only ASCII and wide characters: no East-Asian-ambiguous box drawing.
        assert!(
            all.chars().all(|c| c.is_ascii() || c >= '\u{2E80}'),
            "{all}"
        );
    }

    #[test]
    fn a_tiny_terminal_gets_a_message_not_a_panic() {
        let a = app(Lang::En, Glyphs::Letters, Opponent::Hotseat);
        let s = screen(&a, 30, 8).join("");
        assert!(s.contains("too small"), "{s}");
        // And every size in between draws without panicking.
        for (w, h) in [(64, 16), (64, 24), (120, 50), (200, 60)] {
            screen(&a, w, h);
        }
    }

    #[test]
    fn a_message_longer_than_its_rows_ends_with_dots_where_it_is_cut() {
        let lines = |texts: &[&str]| -> Vec<Line<'static>> {
            texts.iter().map(|t| Line::raw(t.to_string())).collect()
        };
        let text = |ls: &[Line]| -> Vec<String> { ls.iter().map(|l| l.to_string()).collect() };
        assert_eq!(text(&fit_rows(lines(&["ab", "cd"]), 4, 2)), ["ab", "cd"]);
        assert_eq!(
            text(&fit_rows(lines(&["abcd", "ef", "gh"]), 4, 2)),
            ["abcd", "e..."]
        );
        assert_eq!(
            text(&fit_rows(lines(&["一二", "三四", "五"]), 4, 1)),
            ["..."]
        );
        assert_eq!(text(&fit_rows(lines(&["一二三", "四"]), 8, 1)), ["一二..."]);
    }

    #[test]
    fn the_keys_wrap_between_entries_on_a_narrow_terminal() {
        assert_eq!(
            key_lines("? help  q quit  u undo", 80),
            ["? help  q quit  u undo"]
        );
        assert_eq!(
            key_lines("? help  q quit  u undo", 14),
            ["? help  q quit", "u undo"]
        );
        // Width counts columns: a Chinese character takes two.
        assert_eq!(key_lines("? 帮助  q 退出", 10), ["? 帮助", "q 退出"]);
        // An entry wider than a line is broken at its spaces, and only there where they allow.
        assert_eq!(
            key_lines("x  a very long entry  b", 11),
            ["x", "a very long", "entry", "b"]
        );
        assert_eq!(
            key_lines("方向键+回车/点击/输入 g3g4 走棋  i 提示", 24),
            ["方向键+回车/点击/输入", "g3g4 走棋", "i 提示"]
        );
        assert_eq!(key_lines("abcdefgh  b", 3), ["abc", "def", "gh", "b"]);
        // On an 80 × 24 terminal every key is shown, and the board keeps two rows a square.
        for (lang, opponent, first, last) in [
            (Lang::En, Opponent::Hotseat, "? help", "o open"),
            (Lang::ZhHans, Opponent::Hotseat, "? 帮助", "o 打开"),
            (Lang::ZhHant, Opponent::Hotseat, "? 說明", "o 開啟"),
            // Online before a game: nothing but help and quit does anything yet.
            (Lang::En, Opponent::Online, "? help", "q quit"),
        ] {
            let a = app(lang, Glyphs::Letters, opponent);
            let s = screen(&a, 80, 24);
            let keys = s[22..].join("\n");
            let keys = keys.trim_start();
            assert!(keys.starts_with(first), "{keys}");
            assert!(keys.trim_end().ends_with(last), "{keys}");
            let r9 = s.iter().position(|l| l.contains(" 9 ")).unwrap();
            let r8 = s.iter().position(|l| l.contains(" 8 ")).unwrap();
            assert_eq!(r8 - r9, 2, "{}", s.join("\n"));
            let area = Rect::new(0, 0, 80, 24);
            assert_eq!(square_at(&a, area, 4, 1), Some(Square::A9));
            assert_eq!(square_at(&a, area, 4, 1 + 8 * 2), Some(Square::A1));
        }
        // A wide terminal keeps them on one line.
        let a = app(Lang::En, Glyphs::Letters, Opponent::Hotseat);
        let s = screen(&a, 120, 30);
        assert!(
            s[29].starts_with("? help") && s[29].contains("o open"),
            "{s:?}"
        );
    }

    #[test]
    fn the_layout_keeps_the_board_whole_and_finds_room_for_every_line() {
        use crate::app::Status;
        let long = "That move is not allowed: `g4g5`: the 7-3 rule: the rat entered g5 3 \
                    times in your last 7 moves";
        let zh = "这步棋不能走：`g4g5`：7-3 规则：鼠在本方最近 7 步里已经 3 次走进 g5";
        let huge = "a long message from the server, ".repeat(12);
        for opponent in [Opponent::Hotseat, Opponent::Online] {
            for (lang, status) in [
                (Lang::En, None),
                (Lang::En, Some("short")),
                (Lang::En, Some(long)),
                (Lang::ZhHans, Some(zh)),
                (Lang::ZhHant, None),
                (Lang::En, Some(huge.as_str())),
            ] {
                let mut a = app(lang, Glyphs::Letters, opponent);
                a.status = status.map(|t| Status {
                    text: t.to_string(),
                    error: true,
                });
                for (w, h) in (64..=130)
                    .step_by(3)
                    .flat_map(|w| (16..=45).map(move |h| (w, h)))
                {
                    let area = Rect::new(0, 0, w, h);
                    let at = format!("{w}x{h} {lang:?} {status:?}");
                    let l = layout(&a, area).unwrap();
                    // The board: whole, at the top left, two rows a square from 23 rows.
                    assert_eq!(l.cell_h, if h >= 23 { 2 } else { 1 }, "{at}");
                    assert_eq!(l.board, Rect::new(0, 0, 33, 9 * l.cell_h + 3), "{at}");
                    // Every part on the screen, none over another.
                    let parts = [l.board, l.panel, l.status, l.keys];
                    for (i, p) in parts.iter().enumerate() {
                        assert_eq!(area.intersection(*p), *p, "{at}: {p:?}");
                        for q in &parts[i + 1..] {
                            assert!(!p.intersects(*q), "{at}: {p:?} {q:?}");
                        }
                    }
                    // The panel keeps its head, and ends level with the board or well below.
                    assert!(l.panel.height >= MIN_PANEL_H, "{at}");
                    let column_end = [l.panel, l.status, l.keys]
                        .iter()
                        .filter(|r| r.x == l.panel.x)
                        .map(|r| r.bottom())
                        .max()
                        .unwrap();
                    assert_ne!(column_end, l.board.bottom() + 1, "{at}");
                    assert!(column_end >= l.board.bottom(), "{at}");
                    // All of the keys, and all of the status but for a huge one.
                    let keys = key_lines(&a.keys_text(), l.keys.width).len();
                    assert!(usize::from(l.keys.height) >= keys, "{at}: {l:?}");
                    let status = status_lines(&a, l.status.width).len();
                    if status < 6 {
                        assert!(usize::from(l.status.height) >= status, "{at}: {l:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn wrapped_lines_keep_their_styles_and_their_spaces() {
        let bold = Style::default().add_modifier(Modifier::BOLD);
        let line = Line::from(vec![
            Span::styled("Save to: ", bold),
            Span::raw("/tmp/a  b/c_"),
        ]);
        assert_eq!(wrap_line(line.clone(), 40), [line]);
        let lines = wrap_line(
            Line::from(vec![
                Span::styled("Save to: ", bold),
                Span::raw("/tmp/a  b/c_"),
            ]),
            12,
        );
        assert_eq!(
            lines,
            [
                Line::from(vec![Span::styled("Save to:", bold)]),
                Line::from(vec![Span::raw("/tmp/a  b/c_")]),
            ]
        );
        let lines = wrap_line(
            Line::from(vec![Span::styled("ab ", bold), Span::raw("cd ef")]),
            5,
        );
        assert_eq!(
            lines,
            [
                Line::from(vec![Span::styled("ab ", bold), Span::raw("cd")]),
                Line::from(vec![Span::raw("ef")]),
            ]
        );
    }

    #[test]
    fn a_player_too_long_for_the_panel_gets_more_lines() {
        let ai = Opponent::Engine {
            level: 3,
            human: Color::Red,
        };
        let a = app(Lang::En, Glyphs::Letters, ai);
        let now = Instant::now();
        let text = |(names, rest): (Vec<Line>, Vec<Line>)| -> Vec<String> {
            names.iter().chain(&rest).map(|l| l.to_string()).collect()
        };
        assert_eq!(text(player_lines(&a, Color::Red, now, 29)), ["> Red: You"]);
        assert_eq!(
            text(player_lines(&a, Color::Blue, now, 16)),
            ["  Blue: Computer", "        (level", "        3)"]
        );
        // At one keyboard each side is its own player: no name after it, in either language.
        let a = app(Lang::ZhHans, Glyphs::Letters, Opponent::Hotseat);
        assert_eq!(text(player_lines(&a, Color::Red, now, 29)), ["> 红方"]);
        assert_eq!(text(player_lines(&a, Color::Blue, now, 29)), ["  蓝方"]);
    }

    #[test]
    fn shows_the_move_list_two_plies_a_line() {
        let mut a = app(Lang::En, Glyphs::Letters, Opponent::Hotseat);
        let now = Instant::now();
        for m in ["g3g4", "a7a6"] {
            for c in m.chars() {
                a.handle(Event::Key(Key::Char(c)), now);
            }
            a.handle(Event::Key(Key::Enter), now);
        }
        let all = screen(&a, 90, 30).join("\n");
        assert!(all.contains("1. Rg4     Ra6"), "{all}");
    }

    #[test]
    fn a_finished_game_looked_back_at_shows_its_ply_and_the_move_in_the_list() {
        let mut a = app(Lang::En, Glyphs::Letters, Opponent::Hotseat);
        let now = Instant::now();
        // A long game, played to its end by a fixed choice among the legal moves.
        let mut i = 0;
        while a.game.outcome().is_none() && a.game.len() < 2000 {
            let moves = a.game.legal_moves();
            a.game.play(moves[i * 7 % moves.len()]).unwrap();
            i += 1;
        }
        let total = a.game.len();
        assert!(a.game.outcome().is_some() && total > 60, "{total} plies");
        let (w, h) = (90, 30);
        let row_of = |s: &[String], text: &str| s.iter().position(|l| l.contains(text));
        // At the end: the last line of the list is shown, nothing highlighted.
        let s = screen(&a, w, h);
        let last_no = format!("{:>3}. ", total.div_ceil(2));
        assert!(row_of(&s, &last_no).is_some(), "{}", s.join("\n"));
        assert!(row_of(&s, &format!("Ply {total} of {total} ")).is_some());
        assert!(row_of(&s, "Left/Right: step, Home/End: start/end").is_some());
        // At the start: the first line is in view and the board is the start position.
        a.handle(Event::Key(Key::Home), now);
        let s = screen(&a, w, h);
        assert!(row_of(&s, "  1. ").is_some(), "{}", s.join("\n"));
        assert!(row_of(&s, &format!("Ply 0 of {total} ")).is_some());
        let r1 = s.iter().find(|l| l.contains(" 1 ")).unwrap();
        assert!(r1.contains(" T   .   ##  @@  ##  .   L  "), "{r1}");
        // Two plies on: Blue's first move is highlighted in the first line.
        a.handle(Event::Key(Key::Right), now);
        a.handle(Event::Key(Key::Right), now);
        let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
        term.draw(|f| draw(f, &a, Instant::now())).unwrap();
        let buf = term.backend().buffer().clone();
        let s = screen(&a, w, h);
        let y = row_of(&s, "  1. ").unwrap() as u16;
        let blue = a.san_text(a.game.sans()[1]).to_string();
        let row = &s[y as usize];
        // Columns, not bytes: the borders are several bytes wide.
        let x = row[..row.find(&format!("  {blue}")).unwrap()]
            .chars()
            .count() as u16
            + 2;
        let reversed = |x: u16| buf[(x, y)].modifier.contains(Modifier::REVERSED);
        assert!(reversed(x), "{}", s[y as usize]);
        assert!(!reversed(x - 10), "Red's move is not highlighted");
        // Halfway: the line of the move shown is in view, though the list is longer.
        for _ in 0..total / 2 - 2 {
            a.handle(Event::Key(Key::Right), now);
        }
        let s = screen(&a, w, h);
        let mid_no = format!("{:>3}. ", total / 4 + 1);
        assert!(row_of(&s, &mid_no).is_some(), "{}", s.join("\n"));
        assert!(row_of(&s, "  1. ").is_none(), "the list scrolled");
    }

    #[test]
    fn the_help_fits_an_80_by_24_terminal_in_every_language() {
        for (lang, last) in [
            (Lang::En, "Esc or ? closes this help."),
            (Lang::ZhHans, "按 Esc 或 ? 关闭帮助。"),
            (Lang::ZhHant, "按 Esc 或 ? 關閉說明。"),
        ] {
            let mut a = app(lang, Glyphs::Letters, Opponent::Hotseat);
            let now = Instant::now();
            a.handle(resize(80, 24), now);
            a.handle(Event::Key(Key::Char('?')), now);
            let all = screen(&a, 80, 24).join("\n");
            assert!(all.contains(last), "{all}");
            // It fits: nothing scrolls, no position is shown, and Down closes it as any key.
            assert_eq!(a.help_max_scroll(), 0);
            assert!(!all.contains("PgUp"), "{all}");
            a.handle(Event::Key(Key::Down), now);
            assert!(!a.help);
        }
    }

    fn resize(width: u16, height: u16) -> Event {
        Event::Resize { width, height }
    }

    /// The rows of the help drawn on screen `s`, inside its borders, trailing blanks trimmed.
    fn help_rows(s: &[String]) -> Vec<String> {
        s[1..s.len() - 1]
            .iter()
            .map(|row| {
                let inside: Vec<char> = row.chars().collect();
                let inside: String = inside[1..inside.len() - 1].iter().collect();
                inside.trim_end().to_string()
            })
            .collect()
    }

    fn without_spaces(s: &str) -> String {
        s.chars().filter(|c| !c.is_whitespace()).collect()
    }

    #[test]
    fn the_help_scrolls_on_the_smallest_terminal_in_every_language() {
        let (w, h) = (64, 16);
        for lang in [Lang::En, Lang::ZhHans, Lang::ZhHant] {
            let mut a = app(lang, Glyphs::Letters, Opponent::Hotseat);
            let now = Instant::now();
            a.handle(resize(w, h), now);
            // An animal picked and the cursor moved on: the help's keys must leave them alone.
            a.handle(Event::Click(Square::G3), now);
            a.handle(Event::Key(Key::Up), now);
            let (cursor, selected) = (a.cursor, a.selected);
            assert!(selected.is_some());
            a.handle(Event::Key(Key::Char('?')), now);
            let view = help_view(&a, Rect::new(0, 0, w, h)).unwrap();
            let (rows, max, total) = (view.rows, view.max_scroll(), view.lines.len());
            assert_eq!(rows, h - 2);
            assert!(max > 0, "{lang:?}: {total} lines fit in {rows}");
            let at = |first: usize, last: usize| {
                Msg::HelpScroll.fill(
                    lang,
                    &[("first", &first), ("last", &last), ("total", &total)],
                )
            };

            // The first screen: the text's start, and where it is.
            let s = screen(&a, w, h);
            let first = help_rows(&s);
            let text = without_spaces(a.t(Msg::HelpBody));
            assert!(text.starts_with(&without_spaces(&first[0])), "{s:#?}");
            assert!(s[15].contains(&at(1, 14)), "{s:#?}");

            // Down, a line at a time, to the end and beyond: every line of the text is read
            // once, in order, and the last ends the text.
            let mut read = first.clone();
            for step in 1..=max + 5 {
                let cmds = a.handle(Event::Key(Key::Down), now);
                assert!(cmds.is_empty());
                assert_eq!(a.help_scroll, step.min(max), "never past the end");
                assert!(a.help, "Down scrolls, it does not close");
                if step <= max {
                    read.push(help_rows(&screen(&a, w, h))[usize::from(rows) - 1].clone());
                }
            }
            assert_eq!(without_spaces(&read.concat()), text, "{read:#?}");
            let s = screen(&a, w, h);
            let end = help_rows(&s);
            assert_eq!(end.last(), view.lines.last(), "{s:#?}");
            assert!(text.ends_with(&without_spaces(end.last().unwrap())));
            assert!(s[15].contains(&at(total - 13, total)), "{s:#?}");

            // Up, a line, a page, past the top; the other keys.
            a.handle(Event::Key(Key::Up), now);
            assert_eq!(a.help_scroll, max - 1);
            for _ in 0..total + 5 {
                a.handle(Event::Key(Key::Up), now);
            }
            assert_eq!(a.help_scroll, 0, "Up at the top stays there");
            assert!(a.help);
            assert_eq!(help_rows(&screen(&a, w, h)), first);
            a.handle(Event::Key(Key::PageDown), now);
            assert_eq!(a.help_scroll, (rows - 1).min(max), "a page, one line kept");
            a.handle(Event::Key(Key::PageUp), now);
            assert_eq!(a.help_scroll, 0);
            a.handle(Event::Key(Key::End), now);
            assert_eq!(a.help_scroll, max);
            a.handle(Event::Key(Key::Home), now);
            assert_eq!(a.help_scroll, 0);
            a.handle(Event::Key(Key::End), now);

            // None of it reached the board.
            assert_eq!((a.cursor, a.selected), (cursor, selected));
            assert!(a.input.is_empty() && a.game.is_empty() && a.review.is_none());

            // Another key closes it, and does nothing else; it opens again at the top.
            let cmds = a.handle(Event::Key(Key::Char('x')), now);
            assert!(!a.help && cmds.is_empty() && a.analysis.is_none());
            assert_eq!((a.cursor, a.selected), (cursor, selected));
            a.handle(Event::Key(Key::Char('?')), now);
            assert_eq!(a.help_scroll, 0);
            let s = screen(&a, w, h);
            assert_eq!(help_rows(&s), first);
            assert!(s[15].contains(&at(1, 14)), "{s:#?}");
            a.handle(Event::Key(Key::Esc), now);
            assert!(!a.help);
        }
    }

    #[test]
    fn a_resize_keeps_the_help_within_its_text() {
        let mut a = app(Lang::En, Glyphs::Letters, Opponent::Hotseat);
        let now = Instant::now();
        a.handle(resize(64, 16), now);
        a.handle(Event::Key(Key::Char('?')), now);
        a.handle(Event::Key(Key::End), now);
        let small = a.help_scroll;
        assert!(small > 0);
        // Taller: the end comes sooner, and the offset follows it, never past it.
        a.handle(resize(64, 20), now);
        let view = help_view(&a, Rect::new(0, 0, 64, 20)).unwrap();
        assert!(view.max_scroll() < small);
        assert_eq!(a.help_scroll, view.max_scroll());
        let s = screen(&a, 64, 20);
        assert_eq!(help_rows(&s).last(), view.lines.last(), "{s:#?}");
        // Where it all fits, it is at the top and no key scrolls it.
        a.handle(resize(80, 24), now);
        assert_eq!(a.help_scroll, 0);
        assert!(a.help);
        a.handle(Event::Key(Key::End), now);
        assert!(!a.help, "End closes a help that fits, as before");
        // The renderer clamps too, for a size the app was not told of.
        a.handle(resize(64, 16), now);
        a.handle(Event::Key(Key::Char('?')), now);
        a.handle(Event::Key(Key::End), now);
        let s = screen(&a, 64, 20);
        assert_eq!(help_rows(&s).last(), view.lines.last(), "{s:#?}");
        // Too small to draw: nothing scrolls.
        a.handle(resize(30, 8), now);
        assert_eq!(a.help_scroll, 0);
    }

    #[test]
    fn help_lines_break_between_words_and_chinese_characters() {
        assert_eq!(wrap("one two three\nfour", 8), ["one two", "three", "four"]);
        assert_eq!(wrap("abcdefghij k", 4), ["abcd", "efgh", "ij k"]);
        // Chinese breaks between characters, never before a comma nor after an opening
        // parenthesis; a wide character takes two columns.
        assert_eq!(wrap("象狮虎豹，狗", 8), ["象狮虎", "豹，狗"]);
        assert_eq!(wrap("象狮（虎豹）", 6), ["象狮", "（虎", "豹）"]);
        assert_eq!(wrap("", 5), [""]);
    }

    #[test]
    fn shows_the_analysis_in_the_panel() {
        use jungle_engine::{Score, SearchLine, SearchResult};
        let mut a = app(Lang::En, Glyphs::Letters, Opponent::Hotseat);
        let now = Instant::now();
        let cmds = a.handle(Event::Key(Key::Char('x')), now);
        let Some(crate::app::Command::Analyse { generation, .. }) = cmds.first().cloned() else {
            panic!("no analysis asked for: {cmds:?}");
        };
        let all = screen(&a, 90, 30).join("\n");
        assert!(all.contains("Evaluation: Thinking"), "{all}");
        let line = |score, pv: &[(Square, Square)]| SearchLine {
            score,
            depth: 14,
            pv: pv.iter().map(|&(f, t)| jungle::Move::new(f, t)).collect(),
        };
        let lines = vec![
            line(
                Score::Cp(42),
                &[(Square::G3, Square::G4), (Square::A7, Square::A6)],
            ),
            line(Score::Cp(-5), &[(Square::A3, Square::A4)]),
            line(Score::Den(-4), &[(Square::F2, Square::F3)]),
        ];
        let result = SearchResult::from_lines(lines, 1);
        a.handle(Event::Analysis { generation, result }, now);
        let all = screen(&a, 90, 30).join("\n");
        assert!(
            all.contains("Evaluation: +0.42 (for Red, depth 14)"),
            "{all}"
        );
        assert!(all.contains("Best moves"), "{all}");
        assert!(all.contains("1.  +0.42  Rg4 Ra6"), "{all}");
        assert!(all.contains("2.  -0.05  Ea4"), "{all}");
        assert!(all.contains("3. Blue wins in 4  Df3"), "{all}");
    }

    #[test]
    fn shows_the_result_with_its_reason() {
        let config = Config {
            lang: Lang::En,
            glyphs: Glyphs::Letters,
            start: jungle::Jfen::parse_position("l6/3R3/7/7/7/7/7/7/6L r 0 1", Rules::STANDARD)
                .unwrap(),
            opponent: Opponent::Hotseat,
            online_start: None,
            save_dir: std::env::temp_dir(),
        };
        let now = Instant::now();
        let mut a = App::new(config, now).0;
        for c in "Rd9#".chars() {
            a.handle(Event::Key(Key::Char(c)), now);
        }
        a.handle(Event::Key(Key::Enter), now);
        let all = screen(&a, 90, 30).join("\n");
        assert!(all.contains("Red wins (entered the den)"), "{all}");
        assert!(all.contains("1. Rd9#"), "{all}");
        assert!(!all.contains("Red's turn"), "{all}");
    }

    /// The background drawn at `sq` on a 90 x 30 screen: on the row of the square's rank label,
    /// in its file's column (border, 3-column label).
    fn background(a: &App, sq: Square) -> Tc {
        let (w, h) = (90, 30);
        let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
        term.draw(|f| draw(f, a, Instant::now())).unwrap();
        let buf = term.backend().buffer();
        let y = (0..h)
            .find(|&y| {
                let label: String = (1..4).map(|x| buf[(x, y)].symbol()).collect();
                label.trim() == (sq.rank() + 1).to_string()
            })
            .unwrap();
        buf[(1 + 3 + sq.file() as u16 * CELL_W + 1, y)].bg
    }

    #[test]
    fn the_cursor_the_selection_and_legal_targets_are_highlighted() {
        let mut a = app(Lang::En, Glyphs::Letters, Opponent::Hotseat);
        let now = Instant::now();
        for k in [Key::Right, Key::Right, Key::Right, Key::Enter, Key::Up] {
            a.handle(Event::Key(k), now);
        }
        let bg_of = |sq: Square| background(&a, sq);
        assert_eq!(bg_of(Square::G4), Tc::Yellow, "the cursor");
        assert_eq!(bg_of(Square::G3), Tc::LightGreen, "the selected rat");
        assert_eq!(bg_of(Square::F3), Tc::Green, "a legal target");
        assert_eq!(bg_of(Square::G2), Tc::Green, "a legal target");
        assert_eq!(bg_of(Square::E5), Tc::Blue, "water");
        assert_ne!(bg_of(Square::A3), Tc::Green, "not a target");

        // A square the 7-3 rule closes to the selected rat is marked apart from its targets.
        let mut a = app(Lang::En, Glyphs::Letters, Opponent::Hotseat);
        for m in [
            "g3g4", "a7a6", "g4g5", "a6a5", "g5g4", "a5a4", "g4g5", "a9a8", "g5g4", "a8a7", "g4g5",
            "e7d7",
        ] {
            for c in m.chars() {
                a.handle(Event::Key(Key::Char(c)), now);
            }
            a.handle(Event::Key(Key::Enter), now);
        }
        assert_eq!(a.game.len(), 12);
        a.handle(Event::Click(Square::G5), now);
        a.cursor = Square::A1;
        let bg_of = |sq: Square| background(&a, sq);
        assert_eq!(bg_of(Square::G4), Tc::Red, "closed by the 7-3 rule");
        assert_eq!(bg_of(Square::G6), Tc::Green, "a legal target");
        assert_eq!(
            bg_of(Square::F5),
            Tc::Green,
            "into the water: a legal target"
        );
    }

    #[test]
    fn clicks_map_to_the_squares_drawn_there() {
        let mut a = app(Lang::En, Glyphs::Letters, Opponent::Hotseat);
        let area = Rect::new(0, 0, 90, 30);
        // Top-left square: a9, or g1 when flipped; the rank labels and borders are no square.
        assert_eq!(square_at(&a, area, 4, 1), Some(Square::A9));
        assert_eq!(square_at(&a, area, 7, 2), Some(Square::A9));
        assert_eq!(
            square_at(&a, area, 4 + 6 * CELL_W + 3, 1 + 8 * 2 + 1),
            Some(Square::G1)
        );
        assert_eq!(square_at(&a, area, 2, 1), None);
        assert_eq!(square_at(&a, area, 0, 0), None);
        assert_eq!(square_at(&a, area, 4, 1 + 9 * 2), None, "the file letters");
        assert_eq!(square_at(&a, area, 60, 5), None, "the side panel");
        assert_eq!(
            square_at(&a, Rect::new(0, 0, 20, 5), 4, 1),
            None,
            "too small"
        );
        a.handle(Event::Key(Key::Char('v')), Instant::now());
        assert_eq!(square_at(&a, area, 4, 1), Some(Square::G1));
        // Every square is hit by the click at its drawn position.
        let a = app(Lang::En, Glyphs::Letters, Opponent::Hotseat);
        for sq in Square::all() {
            let x = 4 + sq.file() as u16 * CELL_W + 1;
            let y = 1 + (8 - sq.rank() as u16) * 2;
            assert_eq!(square_at(&a, area, x, y), Some(sq));
        }
    }
}
