//! Static evaluation in Jungle's own terms: material by rank, the distance of every animal to the
//! enemy den along the paths it can really take (the Rat swims, the Lion and Tiger jump), den
//! defence, the Rat/Elephant relation, attackers near the enemy den that no defender there
//! could capture, and mobility (the squares a side's animals can step to); the sum grows as
//! animals are traded off. All weights are the named constants below.

use jungle::{Bitboard, Color, Move, Piece, Position, Role, Rules, Square, JUMPS, NEIGHBORS};
use std::sync::OnceLock;

/// The evaluation weights. [`WEIGHTS`] holds the values in use; tools may evaluate with others
/// (see `examples/tune.rs`, the texel tuner).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Weights {
    /// Material value of each animal (Rat … Elephant) in the standard ranking.
    pub material: [i32; 8],
    /// Bonus for an animal by its number of moves to the enemy den on the empty board (index 0
    /// is unused: in the den the game is over).
    pub advance: [i32; 12],
    /// Scale (in 1/8) of `advance` by role, Rat … Elephant.
    pub advance_scale: [i32; 8],
    /// Bonus for having one, two, three or more own animals guarding the own den (within two
    /// steps of it).
    pub defenders: [i32; 4],
    /// Bonus while the own Rat lives and the enemy Elephant too (the Rat is its only hunter).
    pub rat_vs_elephant: i32,
    /// Bonus for an animal one, two or three steps from the enemy den when no enemy animal within
    /// three steps of that den could capture it on land (only the traps still stand in its way).
    pub free_attacker: [i32; 3],
    /// Bonus for the side to move.
    pub tempo: i32,
    /// Mobility: bonus per square that one of the side's animals can step to (see [`space`]).
    pub mobility: i32,
    /// Control: a further bonus per such square that no enemy animal can step to (see
    /// [`Space::unopposed`]); 0 in use — 3 scored +8.7 Elo (−9.1..+26.6) over 1,116 games, not
    /// enough to adopt (doc/strength.md) — kept as a weight for later screens.
    pub control: i32,
}

impl Weights {
    /// The number of tunable values.
    pub const LEN: usize = 8 + 12 + 8 + 4 + 1 + 3 + 1 + 1 + 1;

    /// The values as one flat list (for tuners).
    pub fn to_vec(&self) -> Vec<i32> {
        let mut v = Vec::with_capacity(Self::LEN);
        v.extend_from_slice(&self.material);
        v.extend_from_slice(&self.advance);
        v.extend_from_slice(&self.advance_scale);
        v.extend_from_slice(&self.defenders);
        v.push(self.rat_vs_elephant);
        v.extend_from_slice(&self.free_attacker);
        v.push(self.tempo);
        v.push(self.mobility);
        v.push(self.control);
        v
    }

    /// The weights of a flat list made by [`Weights::to_vec`].
    pub fn from_slice(v: &[i32]) -> Option<Weights> {
        if v.len() != Self::LEN {
            return None;
        }
        let mut w = WEIGHTS;
        w.material.copy_from_slice(&v[0..8]);
        w.advance.copy_from_slice(&v[8..20]);
        w.advance_scale.copy_from_slice(&v[20..28]);
        w.defenders.copy_from_slice(&v[28..32]);
        w.rat_vs_elephant = v[32];
        w.free_attacker.copy_from_slice(&v[33..36]);
        w.tempo = v[36];
        w.mobility = v[37];
        w.control = v[38];
        Some(w)
    }

    /// A bound on the magnitude of any evaluation under these weights.
    pub fn max_eval(&self) -> i64 {
        let abs = |v: &[i32]| {
            v.iter()
                .map(|x| i64::from(x.unsigned_abs()))
                .collect::<Vec<_>>()
        };
        let max = |v: &[i32]| abs(v).into_iter().max().unwrap_or(0);
        let advance = max(&self.advance);
        // Each animal's most: its material and its largest advance bonus, once per side.
        let mut animals: Vec<i64> = abs(&self.material)
            .iter()
            .zip(abs(&self.advance_scale))
            .map(|(m, s)| m + advance * s / 8)
            .flat_map(|v| [v, v])
            .collect();
        animals.sort_unstable_by(|a, b| b.cmp(a));
        let relations = max(&self.defenders)
            + i64::from(self.rat_vs_elephant.unsigned_abs())
            + 8 * max(&self.free_attacker)
            + i64::from(MAX_SPACE)
                * (i64::from(self.mobility.unsigned_abs())
                    + i64::from(self.control.unsigned_abs()));
        // With `k` animals on the board the trade scaling (`trade_scaled`) grows a lead made of
        // at most the `k` largest of them by (16 - k) / TRADE_SCALE.
        let scale = i64::from(TRADE_SCALE);
        let mut sum = 0;
        let mut bound = 0;
        for (k, v) in (1..).zip(animals) {
            sum += v;
            bound = bound.max((sum + 2 * relations) * (scale + 16 - k) / scale);
        }
        bound + i64::from(self.tempo.unsigned_abs())
    }

    /// The values as one comma-separated line (the protocol's `Weights` option).
    pub fn to_csv(&self) -> String {
        let v: Vec<String> = self.to_vec().iter().map(i32::to_string).collect();
        v.join(",")
    }
}

impl std::str::FromStr for Weights {
    type Err = String;

    /// Reads [`Weights::to_csv`]'s form, or `default` for [`WEIGHTS`].
    fn from_str(s: &str) -> Result<Weights, String> {
        let s = s.trim();
        if s.eq_ignore_ascii_case("default") {
            return Ok(WEIGHTS);
        }
        let mut v = Vec::with_capacity(Self::LEN);
        for (i, part) in s.split(',').enumerate() {
            let part = part.trim();
            match part.parse::<i32>() {
                Ok(n) if (-10_000..=10_000).contains(&n) => v.push(n),
                _ => {
                    return Err(format!(
                        "value {} is `{part}`, not a whole number from -10000 to 10000",
                        i + 1
                    ))
                }
            }
        }
        let w = Weights::from_slice(&v).ok_or_else(|| {
            format!(
                "expected {} comma-separated numbers, got {}",
                Self::LEN,
                v.len()
            )
        })?;
        if w.max_eval() > MAX_EVAL {
            return Err(format!(
                "these weights could score a position {} (at most {MAX_EVAL}: den scores lie beyond)",
                w.max_eval()
            ));
        }
        Ok(w)
    }
}

/// The largest evaluation [`Weights`] read from text may produce (the search's den scores start
/// near 29 000).
pub const MAX_EVAL: i64 = 20_000;

/// The weights in use. Each was put to games one at a time (doc/strength.md); the Wolf is worth
/// as much as the Dog it ranks under (400: +16.5 Elo over 1,116 games against 350).
pub const WEIGHTS: Weights = Weights {
    material: [500, 300, 400, 400, 550, 850, 950, 1000],
    advance: [0, 220, 130, 75, 45, 28, 17, 10, 5, 2, 0, 0],
    advance_scale: [6, 5, 6, 7, 8, 9, 9, 9],
    defenders: [0, 35, 60, 70],
    rat_vs_elephant: 40,
    free_attacker: [150, 120, 60],
    tempo: 15,
    mobility: 3,
    control: 0,
};

/// Steps from each square to a den for each animal class and side, on the empty board.
struct Distances {
    /// `[rivers?][color][role][square]`: moves for `color`'s `role` on that square to reach the
    /// enemy den (255 = unreachable).
    to_enemy_den: [[[[u8; 63]; 8]; 2]; 2],
}

fn den_square(color: Color) -> Square {
    Bitboard::den_of(color).first().expect("one den per side")
}

fn compute(rivers: bool) -> [[[u8; 63]; 8]; 2] {
    let water = if rivers {
        Bitboard::WATER
    } else {
        Bitboard::EMPTY
    };
    let mut out = [[[255u8; 63]; 8]; 2];
    for color in Color::ALL {
        let target = den_square(!color);
        let own_den = Bitboard::den_of(color);
        for role in Role::ALL {
            let d = &mut out[color.index()][role.index()];
            let allowed =
                |sq: Square| !own_den.contains(sq) && (role == Role::Rat || !water.contains(sq));
            let mut queue = vec![target];
            d[target.index()] = 0;
            let mut head = 0;
            while head < queue.len() {
                let sq = queue[head];
                head += 1;
                let next = d[sq.index()] + 1;
                let mut around: Vec<Square> = NEIGHBORS[sq.index()].into_iter().collect();
                if rivers && role.jumps() {
                    around.extend(JUMPS[sq.index()].as_slice().iter().map(|j| j.to));
                }
                for n in around {
                    if allowed(n) && d[n.index()] == 255 {
                        d[n.index()] = next;
                        queue.push(n);
                    }
                }
            }
        }
    }
    out
}

fn distances() -> &'static Distances {
    static D: OnceLock<Distances> = OnceLock::new();
    D.get_or_init(|| Distances {
        to_enemy_den: [compute(true), compute(false)],
    })
}

/// The number of moves the animal `role` of `color` on `sq` needs to reach the enemy den on an
/// empty board (255 when it cannot).
pub fn den_distance(pos: &Position, color: Color, role: Role, sq: Square) -> u8 {
    let r = usize::from(pos.rules().no_rivers);
    distances().to_enemy_den[r][color.index()][role.index()][sq.index()]
}

/// Material value of `role` under the position's rules (Wolf and Dog swap under
/// `wolf_over_dog`).
#[inline]
pub fn material(pos: &Position, role: Role) -> i32 {
    material_under(pos.rules(), role)
}

/// Material value of `role` under `rules` (as [`material`], without a position).
pub(crate) fn material_under(rules: &Rules, role: Role) -> i32 {
    material_with(rules, role, &WEIGHTS)
}

#[inline]
fn material_with(rules: &Rules, role: Role, w: &Weights) -> i32 {
    // Material goes with rank: under `wolf_over_dog` the Wolf and the Dog swap values.
    w.material[usize::from(rules.rank(role)) - 1]
}

/// Squares one to `max` steps from the den square `den`.
const fn den_zone(den: usize, max: usize) -> Bitboard {
    let df = den % 7;
    let dr = den / 7;
    let mut bits = 0u64;
    let mut sq: usize = 0;
    while sq < 63 {
        let f = sq % 7;
        let r = sq / 7;
        let dist = f.abs_diff(df) + r.abs_diff(dr);
        if dist >= 1 && dist <= max {
            bits |= 1 << sq;
        }
        sq += 1;
    }
    Bitboard(bits)
}
/// Squares within two steps of each den: the guards' posts.
const GUARDS: [Bitboard; 2] = [den_zone(3, 2), den_zone(59, 2)];
/// Squares within three steps of each den. An animal within three moves of the enemy den stands
/// here (a jump over a river always lands farther away), and a defender here can still meet it.
const HOME: [Bitboard; 2] = [den_zone(3, 3), den_zone(59, 3)];

/// For each role (by index), the roles that capture it on land, one bit per role index (the
/// rules crate's [`Rules::outranks`]); `[1]` under `wolf_over_dog`.
const CATCHER_ROLES: [[u8; 8]; 2] = [
    catcher_roles(&Rules::STANDARD),
    catcher_roles(&Rules {
        wolf_over_dog: true,
        ..Rules::STANDARD
    }),
];

const fn catcher_roles(rules: &Rules) -> [u8; 8] {
    let mut out = [0u8; 8];
    let mut victim = 0;
    while victim < 8 {
        let mut role = 0;
        while role < 8 {
            if rules.outranks(Role::ALL[role], Role::ALL[victim]) {
                out[victim] |= 1 << role;
            }
            role += 1;
        }
        victim += 1;
    }
    out
}

/// The static evaluation of `pos` for the side to move, in centipawn-like units.
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, &WEIGHTS)
}

/// The static evaluation of `pos` for the side to move under the weights `w`.
pub fn evaluate_with(pos: &Position, w: &Weights) -> i32 {
    let table = &distances().to_enemy_den[usize::from(pos.rules().no_rivers)];
    let mut score = [0i32; 2];
    let reaches = Color::ALL.map(|color| reach(pos, color));
    for color in Color::ALL {
        let c = color.index();
        let mine = pos.by_color(color);
        let mut s = 0;
        for role in Role::ALL {
            let bb = mine & pos.by_role(role);
            if let Some(sq) = bb.first() {
                s += animal_value(pos.rules(), w, table[c][role.index()][sq.index()], role);
            }
        }
        score[c] = s + relations(pos, color, w, &reaches);
    }
    let us = pos.turn().index();
    trade_scaled(pos.occupied().count() as i32, score[us] - score[1 - us]) + w.tempo
}

/// For each animal off the board, the evaluation (either side's lead) grows by its
/// `1 / TRADE_SCALE`: a lead converts more surely with fewer animals left to defend and counter,
/// so the side ahead is drawn to trade and the side behind to avoid trades.
const TRADE_SCALE: i32 = 32;

/// `side` (the evaluation before the tempo bonus) grown as animals leave the board
/// ([`TRADE_SCALE`]).
#[inline(always)]
fn trade_scaled(animals: i32, side: i32) -> i32 {
    let gone = 16 - animals;
    side + side * gone / TRADE_SCALE
}

/// The value of one animal of `role` that is `steps` moves from the enemy den: its material and
/// its advance bonus.
#[inline]
fn animal_value(rules: &Rules, w: &Weights, steps: u8, role: Role) -> i32 {
    let d = usize::from(steps).min(w.advance.len() - 1);
    material_with(rules, role, w) + w.advance[d] * w.advance_scale[role.index()] / 8
}

/// The most squares [`space`] can count: the whole board but the side's own den and one animal.
const MAX_SPACE: u32 = 61;

/// The squares next to `color`'s animals that one of them could step onto by the geometry of
/// §4–§5 (into water only from the Rat; no river jumps), own animals and the own den not yet
/// taken out: what [`space`] counts from, and what it asks of the enemy's side.
#[inline(always)]
pub fn reach(pos: &Position, color: Color) -> Bitboard {
    let mine = pos.by_color(color);
    let rats = mine & pos.by_role(Role::Rat);
    ((mine & !rats).neighbors_of_all() & !pos.water()) | rats.neighbors_of_all()
}

/// A side's mobility, as [`space`] counts it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Space {
    /// The squares one of the side's animals can step to.
    pub squares: u32,
    /// Those of them no enemy animal could step onto (in [`reach`]'s sense: a land square next
    /// to any enemy animal, or a water square next to the enemy Rat, is opposed).
    pub unopposed: u32,
}

/// The mobility of `color`: the squares one of its animals can step to, each counted once (a
/// square two animals reach counts one), by the geometry of §4–§5 — not into the own den, not
/// onto an own animal, into water only for the Rat — without asking whether an enemy animal on
/// the square may be captured, and without the Lion's and Tiger's jumps; and how many of them
/// the enemy's animals could not step onto. A few shifts of the two sides' bitboards: cheap
/// enough for every evaluation, where counting each animal's legal moves was not
/// (doc/strength.md).
pub fn space(pos: &Position, color: Color) -> Space {
    let open = open_squares(pos, color, reach(pos, color));
    Space {
        squares: open.count(),
        unopposed: (open & !reach(pos, !color)).count(),
    }
}

/// The squares [`space`] counts for `color`, from its [`reach`] `ours`.
#[inline(always)]
fn open_squares(pos: &Position, color: Color, ours: Bitboard) -> Bitboard {
    ours & !pos.by_color(color) & !Bitboard::den_of(color)
}

/// The terms of `color` that depend on more than one animal: den defenders, the Rat/Elephant
/// relation, free attackers, mobility and control; `reaches` are the two sides' [`reach`]es by
/// colour index.
#[inline(always)]
fn relations(pos: &Position, color: Color, w: &Weights, reaches: &[Bitboard; 2]) -> i32 {
    let mine = pos.by_color(color);
    let mut s = w.defenders[(mine & GUARDS[color.index()]).count_up_to(3) as usize];
    let c = color.index();
    let open = open_squares(pos, color, reaches[c]);
    s += w.mobility * open.count() as i32;
    // Control is 0 in use: its count is skipped then.
    if w.control != 0 {
        s += w.control * (open & !reaches[1 - c]).count() as i32;
    }
    let enemy = pos.by_color(!color);
    if (mine & pos.by_role(Role::Rat)).any() && (enemy & pos.by_role(Role::Elephant)).any() {
        s += w.rat_vs_elephant;
    }
    let home = HOME[(!color).index()];
    let attackers = mine & home;
    if attackers.any() {
        let role_of = |sq: Square| pos.piece_at(sq).expect("an animal").role.index();
        let mut defending_roles = 0u8;
        for sq in enemy & home {
            defending_roles |= 1 << role_of(sq);
        }
        let catchers = &CATCHER_ROLES[usize::from(pos.rules().wolf_over_dog)];
        let den = den_square(!color);
        for sq in attackers {
            if defending_roles & catchers[role_of(sq)] == 0 {
                s += w.free_attacker[usize::from(sq.distance(den)) - 1];
            }
        }
    }
    s
}

/// The animals on the board as [`EvalTable`] counts them: their material and advance bonus, Red's
/// minus Blue's, and their number. The search keeps it up to date move by move
/// ([`EvalTable::move_delta`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Material {
    /// Every animal's material and advance bonus, Red's minus Blue's.
    pub sum: i32,
    /// The number of animals on the board (of a move's delta: minus one for a capture).
    pub animals: i32,
}

impl std::ops::Add for Material {
    type Output = Material;

    #[inline(always)]
    fn add(self, d: Material) -> Material {
        Material {
            sum: self.sum + d.sum,
            animals: self.animals + d.animals,
        }
    }
}

impl std::ops::AddAssign for Material {
    #[inline(always)]
    fn add_assign(&mut self, d: Material) {
        *self = *self + d;
    }
}

/// [`evaluate_with`] compiled for one set of weights and rules: each animal's material and
/// advance bonus by square sit in one table, so the search pays one lookup per animal, or keeps
/// their sum up to date move by move ([`EvalTable::material_sum`], [`EvalTable::move_delta`]) and
/// pays none. It gives exactly [`evaluate_with`]'s value for every position under those rules.
#[derive(Clone)]
pub struct EvalTable {
    /// Material plus advance bonus, by [`Piece::index`] and square, counted for Red (Blue's
    /// animals negative).
    piece_square: [[i32; 63]; 16],
    weights: Weights,
    rules: Rules,
}

impl EvalTable {
    /// The table of `w` for positions played under `rules`.
    pub fn new(w: &Weights, rules: &Rules) -> EvalTable {
        let table = &distances().to_enemy_den[usize::from(rules.no_rivers)];
        let mut piece_square = [[0; 63]; 16];
        for color in Color::ALL {
            for role in Role::ALL {
                let row = &mut piece_square[Piece::new(color, role).index()];
                let steps = &table[color.index()][role.index()];
                let sign = if color == Color::Red { 1 } else { -1 };
                for (v, &d) in row.iter_mut().zip(steps) {
                    *v = sign * animal_value(rules, w, d, role);
                }
            }
        }
        EvalTable {
            piece_square,
            weights: *w,
            rules: *rules,
        }
    }

    /// The rules this table was compiled for.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The static evaluation of `pos` (played under this table's rules) for the side to move.
    #[inline]
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.evaluate_from(pos, self.material_sum(pos))
    }

    /// Every animal's material and advance bonus, Red's minus Blue's, and their number.
    #[inline]
    pub fn material_sum(&self, pos: &Position) -> Material {
        debug_assert_eq!(
            pos.rules(),
            &self.rules,
            "an evaluation table of other rules"
        );
        let mut m = Material::default();
        for sq in pos.occupied() {
            let p = pos.piece_at(sq).expect("bitboards match the board");
            m.sum += self.piece_square[p.index()][sq.index()];
            m.animals += 1;
        }
        m
    }

    /// How the legal move `m` of `pos` changes [`EvalTable::material_sum`].
    #[inline]
    pub fn move_delta(&self, pos: &Position, m: Move) -> Material {
        let (from, to) = (m.from_sq(), m.to_sq());
        let row = &self.piece_square[pos.piece_at(from).expect("moves move animals").index()];
        let mut delta = Material {
            sum: row[to.index()] - row[from.index()],
            animals: 0,
        };
        if let Some(victim) = pos.piece_at(to) {
            delta.sum -= self.piece_square[victim.index()][to.index()];
            delta.animals = -1;
        }
        delta
    }

    /// The static evaluation of `pos` for the side to move, given its
    /// [`EvalTable::material_sum`].
    #[inline]
    pub fn evaluate_from(&self, pos: &Position, material: Material) -> i32 {
        let w = &self.weights;
        let reaches = Color::ALL.map(|color| reach(pos, color));
        let red = material.sum + relations(pos, Color::Red, w, &reaches)
            - relations(pos, Color::Blue, w, &reaches);
        let side = if pos.turn() == Color::Red { red } else { -red };
        trade_scaled(material.animals, side) + w.tempo
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jungle::Rules;

    /// `pos` turned half a circle with the colours swapped: the same game seen from the other
    /// side (RULES §1 and §3: the board and the start position are symmetric under this turn).
    fn mirrored(pos: &Position) -> Position {
        let setup = pos.to_setup();
        let mut m = setup.clone();
        for (i, p) in setup.board.iter().enumerate() {
            m.board[62 - i] = p.map(|p| Piece {
                color: !p.color,
                ..p
            });
        }
        m.turn = !setup.turn;
        Position::from_setup(&m, *pos.rules()).expect("a mirrored position is valid")
    }

    #[test]
    fn the_evaluation_favours_neither_colour() {
        // Positions of random games (captures, raids, animals at the traps and in the water):
        // each scores the same, for its side to move, as its mirror image, in the full
        // evaluation and in the search's table-driven one.
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut rand = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let mut checked = 0;
        for rules in [
            Rules::STANDARD,
            "wolf_over_dog".parse::<Rules>().expect("a rule set"),
            "no_rivers".parse::<Rules>().expect("a rule set"),
        ] {
            let table = EvalTable::new(&WEIGHTS, &rules);
            for _ in 0..40 {
                let mut pos = Position::start(rules);
                for _ in 0..120 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() || pos.is_finished() {
                        break;
                    }
                    let twin = mirrored(&pos);
                    assert_eq!(mirrored(&twin), pos);
                    assert_eq!(evaluate(&pos), evaluate(&twin), "{pos:?} against {twin:?}");
                    assert_eq!(table.evaluate(&pos), table.evaluate(&twin), "{pos:?}");
                    checked += 1;
                    // Captures when there are any, half the time, so that games thin out.
                    let captures: Vec<Move> = moves
                        .iter()
                        .copied()
                        .filter(|&m| pos.is_capture(m))
                        .collect();
                    let m = if !captures.is_empty() && rand(2) == 0 {
                        captures[rand(captures.len())]
                    } else {
                        moves[rand(moves.len())]
                    };
                    pos.play(m).expect("a legal move");
                }
            }
        }
        assert!(checked > 5_000, "{checked} positions");
    }

    #[test]
    fn start_position_is_balanced() {
        let pos = Position::start(Rules::STANDARD);
        assert_eq!(evaluate(&pos), WEIGHTS.tempo);
    }

    #[test]
    fn weights_round_trip_through_a_flat_list() {
        let v = WEIGHTS.to_vec();
        assert_eq!(v.len(), Weights::LEN);
        assert_eq!(Weights::from_slice(&v), Some(WEIGHTS));
        assert_eq!(Weights::from_slice(&v[1..]), None);
        assert_eq!(WEIGHTS.to_csv().parse::<Weights>(), Ok(WEIGHTS));
        assert_eq!("default".parse::<Weights>(), Ok(WEIGHTS));
        let short = "1,2,3".parse::<Weights>().unwrap_err();
        assert!(
            short.contains("expected 39") && short.contains("got 3"),
            "{short}"
        );
        let bad = "1,x".parse::<Weights>().unwrap_err();
        assert!(bad.contains("value 2 is `x`"), "{bad}");
        assert!(WEIGHTS.max_eval() <= MAX_EVAL);
        let mut big = WEIGHTS;
        big.material = [9000; 8];
        let e = big.to_csv().parse::<Weights>().unwrap_err();
        assert!(e.contains("at most 20000"), "{e}");
    }

    #[test]
    fn the_table_evaluates_exactly_like_evaluate_with() {
        let mut weights = WEIGHTS;
        weights.advance_scale = [3, 11, 6, 7, 13, 9, 2, 9];
        weights.defenders = [5, 20, 61, 90];
        weights.control = 3;
        let rule_sets = [
            Rules::STANDARD,
            Rules {
                no_rivers: true,
                ..Rules::STANDARD
            },
            Rules {
                wolf_over_dog: true,
                ..Rules::STANDARD
            },
        ];
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut checked = 0;
        for rules in rule_sets {
            for w in [WEIGHTS, weights] {
                let table = EvalTable::new(&w, &rules);
                for _game in 0..40 {
                    let mut pos = Position::start(rules);
                    let mut sum = table.material_sum(&pos);
                    for _ply in 0..120 {
                        assert_eq!(table.evaluate(&pos), evaluate_with(&pos, &w));
                        // The sum kept up to date move by move is the sum counted afresh.
                        assert_eq!(sum, table.material_sum(&pos));
                        assert_eq!(table.evaluate_from(&pos, sum), evaluate_with(&pos, &w));
                        checked += 1;
                        let moves = pos.legal_moves();
                        if moves.is_empty() {
                            break;
                        }
                        seed ^= seed << 13;
                        seed ^= seed >> 7;
                        seed ^= seed << 17;
                        let m = moves[(seed % moves.len() as u64) as usize];
                        sum += table.move_delta(&pos, m);
                        pos.play_unchecked(m);
                    }
                }
            }
        }
        assert!(checked > 10_000, "only {checked} positions compared");
    }

    #[test]
    fn material_goes_with_rank_under_every_rule_set() {
        let wolf_over_dog = Rules {
            wolf_over_dog: true,
            ..Rules::STANDARD
        };
        let m = WEIGHTS.material;
        assert_eq!(material_under(&Rules::STANDARD, Role::Wolf), m[2]);
        assert_eq!(material_under(&Rules::STANDARD, Role::Dog), m[3]);
        assert_eq!(material_under(&wolf_over_dog, Role::Wolf), m[3]);
        assert_eq!(material_under(&wolf_over_dog, Role::Dog), m[2]);
        for (i, role) in Role::ALL.into_iter().enumerate() {
            if !matches!(role, Role::Wolf | Role::Dog) {
                assert_eq!(material_under(&wolf_over_dog, role), m[i]);
            }
        }
        // Only the Rat catches the Elephant, and the Elephant never the Rat.
        assert_eq!(CATCHER_ROLES[0][Role::Elephant.index()], 0b1000_0001);
        assert_eq!(CATCHER_ROLES[0][Role::Rat.index()], 0b0111_1111);
    }

    #[test]
    fn mobility_counts_each_square_the_side_can_step_to_once() {
        use jungle::Jfen;
        let no_rivers = Rules {
            no_rivers: true,
            ..Rules::STANDARD
        };
        let space_of = |jfen: &str, rules: Rules, color: Color| {
            space(
                &Jfen::parse_position(jfen, rules).expect("a valid position"),
                color,
            )
            .squares
        };
        let red = |jfen: &str| space_of(jfen, Rules::STANDARD, Color::Red);
        // Between the rivers only the Rat may step sideways into the water.
        assert_eq!(red("r6/7/7/7/3E3/7/7/7/7 r 0 1"), 2);
        assert_eq!(red("r6/7/7/7/3R3/7/7/7/7 r 0 1"), 4);
        assert_eq!(
            space_of("r6/7/7/7/3E3/7/7/7/7 r 0 1", no_rivers, Color::Red),
            4
        );
        // Corners and edges: no step wraps around to the other side of the board.
        assert_eq!(red("r6/7/7/7/7/7/7/W6/7 r 0 1"), 3);
        assert_eq!(red("r6/7/7/7/7/7/7/7/6D r 0 1"), 2);
        assert_eq!(
            space_of("r6/7/7/7/7/7/7/7/6D r 0 1", Rules::STANDARD, Color::Blue),
            2
        );
        // Never into the own den; own animals block, and a square two animals reach counts once.
        assert_eq!(red("r6/7/7/7/7/7/7/7/2C4 r 0 1"), 2);
        assert_eq!(red("r6/7/7/7/7/7/7/E6/L6 r 0 1"), 3);
        assert_eq!(red("r6/7/7/7/7/7/7/1E5/L6 r 0 1"), 4);
        // Enemy animals stand on squares that count (capturable or not).
        assert_eq!(red("7/7/7/7/7/7/7/e6/L6 r 0 1"), 2);
        // The evaluation moves with it by the weights (the Blue Rat far away opposes nothing).
        let pos = |jfen: &str| Jfen::parse_position(jfen, Rules::STANDARD).expect("valid");
        // (`control` is 0 in use; 4 here shows it counted.)
        let w = Weights {
            control: 4,
            ..WEIGHTS
        };
        let edge = relations_of(&pos("r6/7/7/7/7/7/7/7/6D r 0 1"), Color::Red, &w);
        let inland = relations_of(&pos("r6/7/7/7/7/7/6D/7/7 r 0 1"), Color::Red, &w);
        assert_eq!(inland - edge, w.mobility + w.control);
    }

    /// [`relations`] with the two sides' reaches computed here.
    fn relations_of(pos: &Position, color: Color, w: &Weights) -> i32 {
        relations(pos, color, w, &Color::ALL.map(|c| reach(pos, c)))
    }

    #[test]
    fn control_counts_the_squares_no_enemy_animal_can_step_to() {
        use jungle::Jfen;
        let space_of = |jfen: &str, color: Color| {
            space(
                &Jfen::parse_position(jfen, Rules::STANDARD).expect("a valid position"),
                color,
            )
        };
        let red = |jfen: &str| space_of(jfen, Color::Red);
        // A Blue Rat far away opposes nothing.
        assert_eq!(
            red("r6/7/7/7/3E3/7/7/7/7 r 0 1"),
            Space {
                squares: 2,
                unopposed: 2
            }
        );
        // The Blue Rat in the water opposes the land square next to it.
        assert_eq!(
            red("7/7/7/2r4/3E3/7/7/7/7 r 0 1"),
            Space {
                squares: 2,
                unopposed: 1
            }
        );
        // A Blue Elephant next to both squares the Red Lion could step to opposes both; the
        // square it stands on counts for Red, and is not one the Elephant steps to.
        assert_eq!(
            red("7/7/7/7/7/7/7/1e5/L6 r 0 1"),
            Space {
                squares: 2,
                unopposed: 0
            }
        );
        assert_eq!(
            red("7/7/7/7/7/7/7/e6/L6 r 0 1"),
            Space {
                squares: 2,
                unopposed: 2
            }
        );
        // A side's animals never oppose their own squares: Blue's reach is Blue's alone.
        assert_eq!(
            space_of("7/7/7/7/7/7/7/1e5/L6 r 0 1", Color::Blue),
            Space {
                squares: 4,
                unopposed: 2
            }
        );
    }

    #[test]
    fn attackers_no_defender_can_capture_earn_the_free_attacker_bonus() {
        use jungle::Jfen;
        let standard = Rules::STANDARD;
        let wolf_over_dog = Rules {
            wolf_over_dog: true,
            ..Rules::STANDARD
        };
        // Red's term for a position, mobility aside (its own test is above): only the
        // free-attacker bonus differs between the pairs below.
        let weights = Weights {
            mobility: 0,
            control: 0,
            ..WEIGHTS
        };
        let red = |jfen: &str, rules: Rules| {
            let pos = Jfen::parse_position(jfen, rules).expect("a valid position");
            relations_of(&pos, Color::Red, &weights)
        };
        let [one, two, three] = WEIGHTS.free_attacker;
        // The Red Elephant two steps from the Blue den: the Blue Rat far away cannot stop it, at
        // home it can.
        let far = red("7/7/3E3/7/7/7/7/7/r5R r 0 1", standard);
        let home = red("7/2r4/3E3/7/7/7/7/7/6R r 0 1", standard);
        assert_eq!(far - home, two);
        // A Lion one step away: a Blue Tiger cannot take it, the Elephant can.
        let tiger = red("7/3L3/2t4/7/7/7/7/7/7 r 0 1", standard);
        let elephant = red("7/3L3/2e4/7/7/7/7/7/7 r 0 1", standard);
        assert_eq!(tiger - elephant, one);
        // The Elephant never takes the Rat: a Red Rat three steps away stays free, unlike next to
        // a Blue Cat.
        let rat = red("7/7/2e4/3R3/7/7/7/7/7 r 0 1", standard);
        assert_eq!(rat, three + WEIGHTS.rat_vs_elephant);
        assert_eq!(red("7/7/2c4/3R3/7/7/7/7/7 r 0 1", standard), 0);
        // The Dog outranks the Wolf, except under `wolf_over_dog`.
        assert_eq!(red("7/2wD3/7/7/7/7/7/7/7 r 0 1", standard), one);
        assert_eq!(red("7/2wD3/7/7/7/7/7/7/7 r 0 1", wolf_over_dog), 0);
    }

    #[test]
    fn a_lead_counts_for_more_with_fewer_animals_on_the_board() {
        use jungle::Jfen;
        let eval = |jfen: &str| {
            let pos = Jfen::parse_position(jfen, Rules::STANDARD).expect("a valid position");
            let table = EvalTable::new(&WEIGHTS, pos.rules());
            assert_eq!(table.evaluate(&pos), evaluate(&pos), "{jfen}");
            evaluate(&pos)
        };
        // Red a Dog up (Blue's Dog taken away from the start position).
        let crowded = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 0 1";
        let lead = |jfen: &str| eval(&jfen.replace("1d3c1", "5c1")) - eval(jfen);
        let lead_crowded = lead(crowded);
        assert!(lead_crowded > 0, "{lead_crowded}");
        // The same with both Elephants and both Leopards gone: 5 animals off the board instead
        // of 1, so 5/32 of the Dog's worth added instead of 1/32.
        let sparse = "l5t/1d3c1/r3w2/7/7/7/2W3R/1C3D1/T5L r 0 1";
        let lead_sparse = lead(sparse);
        assert!(
            lead_sparse > lead_crowded,
            "{lead_sparse} vs {lead_crowded}"
        );
        // A drawn-level position stays level (only the tempo bonus) however many animals are gone.
        assert_eq!(eval("l5t/7/7/7/7/7/7/7/T5L r 0 1"), WEIGHTS.tempo);
    }

    #[test]
    fn jumpers_and_rat_use_their_real_paths() {
        let pos = Position::start(Rules::STANDARD);
        // From b3 the Lion jumps to b7 and walks c7 d7 d8 d9: 5 moves; the Dog walks 8.
        let lion_b3 = den_distance(&pos, Color::Red, Role::Lion, Square::B3);
        let dog_b3 = den_distance(&pos, Color::Red, Role::Dog, Square::B3);
        assert!(lion_b3 < dog_b3, "lion {lion_b3} dog {dog_b3}");
        assert_eq!(lion_b3, 5);
        assert_eq!(dog_b3, 8);
        // The Rat swims: from the middle of the left river it goes straight.
        assert_eq!(den_distance(&pos, Color::Red, Role::Rat, Square::B5), 6);
        assert_eq!(den_distance(&pos, Color::Red, Role::Dog, Square::B5), 255);
        assert_eq!(den_distance(&pos, Color::Red, Role::Dog, Square::D8), 1);
        assert_eq!(den_distance(&pos, Color::Blue, Role::Dog, Square::C1), 1);
        // The own den is never a path.
        assert_eq!(den_distance(&pos, Color::Red, Role::Dog, Square::D1), 255);
        let plain = Position::start(Rules {
            no_rivers: true,
            ..Rules::STANDARD
        });
        assert_eq!(den_distance(&plain, Color::Red, Role::Dog, Square::B3), 8);
    }
}
