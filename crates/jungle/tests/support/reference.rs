//! A deliberately simple reference implementation of RULES.md §1–§7 and §9, written from the rules
//! text alone: a 63-square mailbox, no bitboards, no tables, no code from the crate under test.
//! It is slow on purpose; its job is to be obviously right.
//!
//! Squares are `rank * 7 + file` with file 0 = a and rank 0 = rank 1 (RULES §1).

/// The animals, by standard rank minus one (RULES §2).
pub const RAT: u8 = 0;
/// Cat.
pub const CAT: u8 = 1;
/// Wolf.
pub const WOLF: u8 = 2;
/// Dog.
pub const DOG: u8 = 3;
/// Leopard.
pub const LEOPARD: u8 = 4;
/// Tiger.
pub const TIGER: u8 = 5;
/// Lion.
pub const LION: u8 = 6;
/// Elephant.
pub const ELEPHANT: u8 = 7;

/// The sides.
pub const RED: u8 = 0;
/// Blue.
pub const BLUE: u8 = 1;

/// The animal letters, index = kind (RULES §2).
pub const LETTERS: [char; 8] = ['R', 'C', 'W', 'D', 'P', 'T', 'L', 'E'];

/// An animal of a side.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Animal {
    /// `RED` or `BLUE`.
    pub side: u8,
    /// `RAT` … `ELEPHANT`.
    pub kind: u8,
}

/// A rule set (RULES §9), parsed by the reference itself.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct RefRules {
    pub wolf_over_dog: bool,
    pub only_enemy_rat_blocks: bool,
    pub rats_do_not_block: bool,
    pub no_shore_rat_capture: bool,
    pub no_7_3: bool,
    pub no_17_5: bool,
    pub repetition_loss: bool,
    pub draw_plies: u32,
    pub no_rivers: bool,
}

impl RefRules {
    /// The standard rules.
    pub const STANDARD: RefRules = RefRules {
        wolf_over_dog: false,
        only_enemy_rat_blocks: false,
        rats_do_not_block: false,
        no_shore_rat_capture: false,
        no_7_3: false,
        no_17_5: false,
        repetition_loss: false,
        draw_plies: 200,
        no_rivers: false,
    };

    /// Parses `standard` or a comma-separated list of deviations.
    pub fn parse(text: &str) -> Result<RefRules, String> {
        let mut r = RefRules::STANDARD;
        let text = text.trim();
        if text == "standard" {
            return Ok(r);
        }
        for item in text.split(',') {
            match item.trim() {
                "wolf_over_dog" => r.wolf_over_dog = true,
                "only_enemy_rat_blocks" => r.only_enemy_rat_blocks = true,
                "rats_do_not_block" => r.rats_do_not_block = true,
                "no_shore_rat_capture" => r.no_shore_rat_capture = true,
                "no_7_3" => r.no_7_3 = true,
                "no_17_5" => r.no_17_5 = true,
                "repetition_loss" => r.repetition_loss = true,
                "no_rivers" => r.no_rivers = true,
                other => match other.strip_prefix("draw_plies=") {
                    Some(n) => r.draw_plies = n.parse().map_err(|_| other.to_string())?,
                    None => return Err(format!("unknown deviation {other}")),
                },
            }
        }
        Ok(r)
    }
}

/// File (0–6) and rank (0–8) of a square.
pub fn coords(sq: usize) -> (i32, i32) {
    ((sq % 7) as i32, (sq / 7) as i32)
}

/// The square at file `f`, rank `r`, if on the board.
pub fn square(f: i32, r: i32) -> Option<usize> {
    if (0..7).contains(&f) && (0..9).contains(&r) {
        Some((r * 7 + f) as usize)
    } else {
        None
    }
}

/// The name of a square, `a1`.
pub fn name(sq: usize) -> String {
    let (f, r) = coords(sq);
    format!("{}{}", (b'a' + f as u8) as char, r + 1)
}

/// The den of `side`: d1 for Red, d9 for Blue (RULES §1).
pub fn den_of(side: u8) -> usize {
    if side == RED {
        3
    } else {
        59
    }
}

/// Whether `sq` is one of `side`'s own traps (around its den): c1 e1 d2 / c9 e9 d8.
pub fn is_trap_of(side: u8, sq: usize) -> bool {
    let (f, r) = coords(sq);
    if side == RED {
        (r == 0 && (f == 2 || f == 4)) || (r == 1 && f == 3)
    } else {
        (r == 8 && (f == 2 || f == 4)) || (r == 7 && f == 3)
    }
}

/// Whether `sq` is any trap.
pub fn is_any_trap(sq: usize) -> bool {
    is_trap_of(RED, sq) || is_trap_of(BLUE, sq)
}

/// Whether `sq` is water on the standard board: files b c e f, ranks 4–6.
pub fn is_river(sq: usize) -> bool {
    let (f, r) = coords(sq);
    (3..=5).contains(&r) && matches!(f, 1 | 2 | 4 | 5)
}

/// A position: the mailbox, the side to move, the counters and the rules.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RefPos {
    pub cells: [Option<Animal>; 63],
    pub turn: u8,
    pub halfmoves: u32,
    pub fullmoves: u32,
    pub rules: RefRules,
}

/// A move: from, to (squares).
pub type RefMove = (usize, usize);

impl RefPos {
    /// Parses a JFEN (RULES §10) and checks that it is a valid position; the error lists problems.
    pub fn from_jfen(text: &str, rules: RefRules) -> Result<RefPos, String> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() != 2 && fields.len() != 4 {
            return Err(format!("{} fields", fields.len()));
        }
        let ranks: Vec<&str> = fields[0].split('/').collect();
        if ranks.len() != 9 {
            return Err(format!("{} ranks", ranks.len()));
        }
        let mut cells = [None; 63];
        for (i, row) in ranks.iter().enumerate() {
            let r = 8 - i as i32;
            let mut f = 0i32;
            for ch in row.chars() {
                if let Some(d) = ch.to_digit(10) {
                    if !(1..=7).contains(&d) {
                        return Err(format!("digit {d}"));
                    }
                    f += d as i32;
                } else {
                    let kind = LETTERS
                        .iter()
                        .position(|&l| l == ch.to_ascii_uppercase())
                        .ok_or_else(|| format!("letter {ch}"))?
                        as u8;
                    let side = if ch.is_ascii_uppercase() { RED } else { BLUE };
                    let sq = square(f, r).ok_or("rank too long")?;
                    cells[sq] = Some(Animal { side, kind });
                    f += 1;
                }
                if f > 7 {
                    return Err("rank too long".into());
                }
            }
            if f != 7 {
                return Err("rank too short".into());
            }
        }
        let turn = match fields[1] {
            "r" | "w" => RED,
            "b" => BLUE,
            t => return Err(format!("turn {t}")),
        };
        let (halfmoves, fullmoves) = if fields.len() == 4 {
            (
                fields[2].parse().map_err(|_| "halfmoves")?,
                fields[3].parse().map_err(|_| "fullmoves")?,
            )
        } else {
            (0, 1)
        };
        let pos = RefPos {
            cells,
            turn,
            halfmoves,
            fullmoves,
            rules,
        };
        let problems = pos.problems();
        if problems.is_empty() && fullmoves >= 1 {
            Ok(pos)
        } else {
            Err(problems.join("; "))
        }
    }

    /// What makes this position invalid (RULES §2, §4.2, §4.3, §6.1/§6.2), if anything.
    pub fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        for side in [RED, BLUE] {
            for kind in 0..8 {
                let n = self
                    .cells
                    .iter()
                    .filter(|c| **c == Some(Animal { side, kind }))
                    .count();
                if n > 1 {
                    out.push(format!("{n} of side {side} kind {kind}"));
                }
            }
        }
        for sq in 0..63 {
            if let Some(a) = self.cells[sq] {
                if sq == den_of(a.side) {
                    out.push(format!("own den {}", name(sq)));
                }
                if self.is_water(sq) && a.kind != RAT {
                    out.push(format!("non-rat in water {}", name(sq)));
                }
            }
        }
        let has = |s: u8| self.cells.iter().flatten().any(|a| a.side == s);
        if !has(RED) && !has(BLUE) {
            out.push("empty board".into());
        } else {
            let won = |s: u8| {
                self.cells[den_of(1 - s)].is_some_and(|a| a.side == s) || (has(s) && !has(1 - s))
            };
            if won(RED) && won(BLUE) {
                out.push("both sides won".into());
            }
        }
        out
    }

    /// Whether `sq` is water under these rules (none under `no_rivers`).
    pub fn is_water(&self, sq: usize) -> bool {
        !self.rules.no_rivers && is_river(sq)
    }

    /// The rank of an animal kind (RULES §2, `wolf_over_dog` swaps Wolf and Dog).
    pub fn rank(&self, kind: u8) -> u8 {
        match kind {
            WOLF if self.rules.wolf_over_dog => 4,
            DOG if self.rules.wolf_over_dog => 3,
            k => k + 1,
        }
    }

    /// RULES §5, in its order: trap, rat and water, rat and elephant, rank.
    pub fn may_capture(&self, att: Animal, from: usize, def: Animal, to: usize) -> bool {
        if is_trap_of(att.side, to) {
            return true;
        }
        let (from_water, to_water) = (self.is_water(from), self.is_water(to));
        if att.kind == RAT && def.kind == RAT {
            return !(self.rules.no_shore_rat_capture && from_water != to_water);
        }
        if to_water && att.kind != RAT {
            return false;
        }
        if att.kind == RAT && def.kind == ELEPHANT {
            return !from_water;
        }
        if att.kind == ELEPHANT && def.kind == RAT {
            return false;
        }
        self.rank(att.kind) >= self.rank(def.kind)
    }

    /// Whether a rat on `sq` blocks a jump of `jumper` (RULES §4.4 and its deviations).
    fn blocks(&self, sq: usize, jumper: Animal) -> bool {
        match self.cells[sq] {
            Some(a) if a.kind == RAT => {
                if self.rules.rats_do_not_block {
                    false
                } else if self.rules.only_enemy_rat_blocks {
                    a.side != jumper.side
                } else {
                    true
                }
            }
            _ => false,
        }
    }

    /// Where the animal on `from` may move by §4–§5, whoever is to move. Empty if none there.
    pub fn destinations(&self, from: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let Some(a) = self.cells[from] else {
            return out;
        };
        let (f0, r0) = coords(from);
        for (df, dr) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
            let Some(mut to) = square(f0 + df, r0 + dr) else {
                continue;
            };
            if self.is_water(to) && a.kind != RAT {
                if a.kind != LION && a.kind != TIGER {
                    continue;
                }
                // Jump straight across: over every water square to the first land square.
                let (mut f, mut r) = (f0 + df, r0 + dr);
                let mut blocked = false;
                let mut landing = None;
                while let Some(s) = square(f, r) {
                    if !self.is_water(s) {
                        landing = Some(s);
                        break;
                    }
                    blocked |= self.blocks(s, a);
                    f += df;
                    r += dr;
                }
                match landing {
                    Some(l) if !blocked => to = l,
                    _ => continue,
                }
            }
            if to == den_of(a.side) {
                continue;
            }
            match self.cells[to] {
                None => out.push(to),
                Some(d) if d.side == a.side => {}
                Some(d) => {
                    if self.may_capture(a, from, d, to) {
                        out.push(to);
                    }
                }
            }
        }
        out
    }

    /// Whether some animal of `side` has no pieces left or an enemy animal is in its den.
    pub fn is_finished(&self) -> bool {
        self.outcome_by_material().is_some()
    }

    fn outcome_by_material(&self) -> Option<(Option<u8>, &'static str)> {
        if self.cells[den_of(BLUE)].is_some_and(|a| a.side == RED) {
            return Some((Some(RED), "den"));
        }
        if self.cells[den_of(RED)].is_some_and(|a| a.side == BLUE) {
            return Some((Some(BLUE), "den"));
        }
        for side in [RED, BLUE] {
            if !self.cells.iter().flatten().any(|a| a.side == side) {
                return Some((Some(1 - side), "wipeout"));
            }
        }
        None
    }

    /// The legal moves by the position rules §4–§6.2 (none once finished).
    pub fn legal_moves(&self) -> Vec<RefMove> {
        let mut out = Vec::new();
        if self.is_finished() {
            return out;
        }
        for from in 0..63 {
            if self.cells[from].is_some_and(|a| a.side == self.turn) {
                for to in self.destinations(from) {
                    out.push((from, to));
                }
            }
        }
        out
    }

    /// The outcome by §6.1–§6.3: (winner or `None`, reason).
    pub fn outcome(&self) -> Option<(Option<u8>, &'static str)> {
        if let Some(o) = self.outcome_by_material() {
            return Some(o);
        }
        if self.legal_moves().is_empty() {
            return Some((Some(1 - self.turn), "no-moves"));
        }
        None
    }

    /// Whether an enemy of the animal on `sq` could capture it with one move (§7.1 "chased").
    pub fn is_chased(&self, sq: usize) -> bool {
        let Some(a) = self.cells[sq] else {
            return false;
        };
        (0..63).any(|from| {
            self.cells[from].is_some_and(|e| e.side != a.side)
                && self.destinations(from).contains(&sq)
        })
    }

    /// Plays a move (assumed legal); returns the captured animal.
    pub fn play(&mut self, (from, to): RefMove) -> Option<Animal> {
        let captured = self.cells[to];
        self.cells[to] = self.cells[from];
        self.cells[from] = None;
        if captured.is_some() {
            self.halfmoves = 0;
        } else {
            self.halfmoves = self.halfmoves.saturating_add(1);
        }
        self.end_ply();
        captured
    }

    /// A pass (`--`): a ply that moves nothing.
    pub fn pass(&mut self) {
        self.halfmoves = self.halfmoves.saturating_add(1);
        self.end_ply();
    }

    fn end_ply(&mut self) {
        if self.turn == BLUE {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.turn = 1 - self.turn;
    }

    /// Perft by the position rules (RULES §6, last paragraph): a finished position is a leaf.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal_moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .into_iter()
            .map(|m| {
                let mut c = self.clone();
                c.play(m);
                c.perft(depth - 1)
            })
            .sum()
    }

    /// The position without counters: what "the same position" means in §7.3.
    pub fn key(&self) -> ([Option<Animal>; 63], u8) {
        (self.cells, self.turn)
    }

    /// The JFEN of this position.
    pub fn jfen(&self) -> String {
        let mut s = String::new();
        for r in (0..9).rev() {
            let mut empty = 0;
            for f in 0..7 {
                match self.cells[r * 7 + f] {
                    None => empty += 1,
                    Some(a) => {
                        if empty > 0 {
                            s.push_str(&empty.to_string());
                            empty = 0;
                        }
                        let l = LETTERS[a.kind as usize];
                        s.push(if a.side == RED {
                            l
                        } else {
                            l.to_ascii_lowercase()
                        });
                    }
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            if r > 0 {
                s.push('/');
            }
        }
        format!(
            "{s} {} {} {}",
            if self.turn == RED { 'r' } else { 'b' },
            self.halfmoves,
            self.fullmoves
        )
    }
}

/// One ply of a reference game: who played, which animal (`None` for a pass) and where to.
#[derive(Clone, Copy, Debug)]
pub struct RefPly {
    pub side: u8,
    pub animal: Option<Animal>,
    pub from: usize,
    pub to: usize,
}

/// A game: positions and plies, with §6.3 under §7, §6.4 and §7.
#[derive(Clone, Debug)]
pub struct RefGame {
    pub positions: Vec<RefPos>,
    pub plies: Vec<RefPly>,
}

impl RefGame {
    /// A game from `start`.
    pub fn new(start: RefPos) -> RefGame {
        RefGame {
            positions: vec![start],
            plies: Vec::new(),
        }
    }

    /// The current position.
    pub fn pos(&self) -> &RefPos {
        self.positions.last().expect("a position")
    }

    /// Which §7 rule forbids move `m` (legal in the position) now, if any.
    pub fn forbidden(&self, (from, to): RefMove) -> Option<&'static str> {
        let pos = self.pos();
        let rules = pos.rules;
        let side = pos.turn;
        let a = pos.cells[from]?;
        let own: Vec<RefPly> = self
            .plies
            .iter()
            .rev()
            .filter(|p| p.side == side)
            .copied()
            .collect();
        if !rules.no_7_3 {
            let window = &own[..own.len().min(7)];
            let entered = window
                .iter()
                .filter(|p| p.animal == Some(a) && p.to == to)
                .count();
            let trapped = window
                .iter()
                .any(|p| p.animal == Some(a) && is_any_trap(p.to));
            if entered >= 3 && !trapped && !pos.is_chased(from) {
                return Some("7-3");
            }
        }
        if !rules.no_17_5 && own.len() >= 17 {
            let window = &own[..17];
            if window.iter().all(|p| p.animal == Some(a))
                && !window.iter().any(|p| is_any_trap(p.to))
            {
                let mut squares: Vec<usize> = window.iter().map(|p| p.to).collect();
                squares.sort();
                squares.dedup();
                if squares.len() <= 5 && squares.contains(&to) {
                    return Some("17-5");
                }
            }
        }
        if rules.repetition_loss {
            let mut next = pos.clone();
            next.play((from, to));
            let mut keys: Vec<_> = self.positions.iter().map(|p| p.key()).collect();
            let new = next.key();
            if keys.iter().filter(|k| **k == new).count() >= 3 {
                keys.push(new);
                let n = keys.len() - 1;
                let last = (0..n).rev().find(|&i| keys[i] == keys[n]).expect("seen");
                let period = n - last;
                // The cycle starts at the earliest ply from which the history repeats.
                let mut q = last;
                while q > 0 && keys[q - 1] == keys[q - 1 + period] {
                    q -= 1;
                }
                if self.positions[q].turn == side {
                    return Some("repetition");
                }
            }
        }
        None
    }

    /// The legal moves of the game (§7 applied; none once over).
    pub fn legal_moves(&self) -> Vec<RefMove> {
        if self.pos().is_finished() {
            return Vec::new();
        }
        let mut moves: Vec<RefMove> = self
            .pos()
            .legal_moves()
            .into_iter()
            .filter(|&m| self.forbidden(m).is_none())
            .collect();
        if !moves.is_empty() && self.draw_reached() {
            moves.clear();
        }
        moves
    }

    fn draw_reached(&self) -> bool {
        let n = self.pos().rules.draw_plies;
        n > 0 && self.pos().halfmoves >= n
    }

    /// The outcome by §6 in its order: den, wipe-out, no legal move (with §7), draw plies.
    pub fn outcome(&self) -> Option<(Option<u8>, &'static str)> {
        let pos = self.pos();
        if let Some(o) = pos.outcome_by_material() {
            return Some(o);
        }
        let any_legal = pos
            .legal_moves()
            .into_iter()
            .any(|m| self.forbidden(m).is_none());
        if !any_legal {
            return Some((Some(1 - pos.turn), "no-moves"));
        }
        if self.draw_reached() {
            return Some((None, "draw-plies"));
        }
        None
    }

    /// Plays a move or a pass (`None`), assumed allowed.
    pub fn play(&mut self, m: Option<RefMove>) {
        let mut next = self.pos().clone();
        let side = next.turn;
        let ply = match m {
            Some((from, to)) => {
                let animal = next.cells[from];
                next.play((from, to));
                RefPly {
                    side,
                    animal,
                    from,
                    to,
                }
            }
            None => {
                next.pass();
                RefPly {
                    side,
                    animal: None,
                    from: usize::MAX,
                    to: usize::MAX,
                }
            }
        };
        self.plies.push(ply);
        self.positions.push(next);
    }
}
