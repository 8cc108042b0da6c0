//! The fast bitboard rules against the independent mailbox reference of `support/reference.rs`,
//! over biased random games in every deviation of RULES §9: position moves (§4–§5), the
//! position outcome (§6.1–§6.3), "being chased" (§7.1), and the game's moves and outcome with
//! §6.3 under §7, §6.4, §7.1, §7.2 and §7.3.
//!
//! Random choices are biased towards the interesting cases: animals shuttling between two
//! squares (7-3), one animal moving again and again in a small area (17-5), both sides shuttling
//! (repetition), rats in water, lion and tiger jumps (blocked or not), captures, traps, den
//! entries, passes, and no-capture counters close to the draw limit.
//!
//! The seed is fixed so that CI is reproducible; set `JUNGLE_REF_SEED` to explore others and
//! `JUNGLE_REF_POSITIONS` to change the number of positions checked (default 200,000).

mod support;

use jungle::{
    Color, Game, Jfen, Move, Outcome, Piece, Position, Role, Rules, Setup, Square, Termination,
};
use std::collections::BTreeMap;
use support::reference::{
    self as rf, Animal, RefGame, RefMove, RefPos, RefRules, BLUE, LETTERS, RED,
};

/// A small deterministic generator (SplitMix64), so the test needs no extra crate.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, p: f64) -> bool {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 > 1.0 - p
    }
    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

/// The rule sets exercised: the standard set, each deviation alone and several combinations.
const VARIANTS: &[&str] = &[
    "standard",
    "wolf_over_dog",
    "only_enemy_rat_blocks",
    "rats_do_not_block",
    "no_shore_rat_capture",
    "no_7_3",
    "no_17_5",
    "no_7_3,no_17_5",
    "repetition_loss",
    "repetition_loss,no_7_3",
    "repetition_loss,no_7_3,no_17_5",
    "draw_plies=30",
    "draw_plies=0",
    "no_rivers",
    "wolf_over_dog,no_rivers,no_7_3",
    "wolf_over_dog,only_enemy_rat_blocks,no_shore_rat_capture,draw_plies=60",
    "rats_do_not_block,no_shore_rat_capture,repetition_loss,no_17_5",
];

/// How a game's moves are chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Style {
    /// Uniform among the legal moves.
    Uniform,
    /// Move the animal moved last straight back (triggers 7-3 and repetitions).
    Shuttle,
    /// Keep moving the same animal, preferring squares it visited recently (triggers 17-5).
    Wander,
    /// Prefer captures, jumps, swims and den approaches.
    Aggressive,
}

const STYLES: [Style; 4] = [
    Style::Uniform,
    Style::Shuttle,
    Style::Wander,
    Style::Aggressive,
];

fn to_fast_rules(text: &str) -> Rules {
    text.parse().expect("test rule sets parse")
}

fn role_of(kind: u8) -> Role {
    Role::from_letter(LETTERS[kind as usize]).expect("letter")
}

fn fast_setup(r: &RefPos) -> Setup {
    let mut s = Setup::empty();
    for sq in 0..63 {
        s.board[sq] = r.cells[sq].map(|a| {
            Piece::new(
                if a.side == RED {
                    Color::Red
                } else {
                    Color::Blue
                },
                role_of(a.kind),
            )
        });
    }
    s.turn = if r.turn == RED {
        Color::Red
    } else {
        Color::Blue
    };
    s.halfmoves = r.halfmoves;
    s.fullmoves = r.fullmoves;
    s
}

fn sq(i: usize) -> Square {
    Square::new(i as u8).expect("square")
}

fn fast_move((from, to): RefMove) -> Move {
    Move::new(sq(from), sq(to))
}

fn ref_move(m: Move) -> RefMove {
    (m.from_sq().index(), m.to_sq().index())
}

fn sorted(mut v: Vec<RefMove>) -> Vec<RefMove> {
    v.sort();
    v
}

fn fast_outcome(o: Option<Outcome>) -> Option<(Option<u8>, &'static str)> {
    o.map(|o| {
        (
            o.winner.map(|c| if c == Color::Red { RED } else { BLUE }),
            match o.termination {
                Termination::Den => "den",
                Termination::Wipeout => "wipeout",
                Termination::NoMoves => "no-moves",
                Termination::DrawPlies => "draw-plies",
            },
        )
    })
}

/// Squares next to a river, where lions and tigers can jump from.
const BANKS: [&str; 17] = [
    "a4", "a5", "a6", "d4", "d5", "d6", "g4", "g5", "g6", "b3", "c3", "e3", "f3", "b7", "c7", "e7",
    "f7",
];

fn parse_sq(name: &str) -> usize {
    name.parse::<Square>().expect("square").index()
}

/// A random position, biased to rats in water, jumpers on the banks and animals near traps.
fn random_position(rng: &mut Rng, rules: RefRules) -> RefPos {
    let density = if rng.chance(0.3) {
        // Sparse boards: lone animals, wipe-outs and blocked sides.
        0.05 + 0.15 * (rng.below(100) as f64 / 100.0)
    } else {
        0.3 + 0.6 * (rng.below(100) as f64 / 100.0)
    };
    let mut cells = [None; 63];
    for side in [RED, BLUE] {
        for kind in 0..8u8 {
            if !rng.chance(density) {
                continue;
            }
            for _attempt in 0..20 {
                let sq = match kind {
                    rf::RAT if rng.chance(0.4) => {
                        rng.pick(&[22, 23, 29, 30, 36, 37, 25, 26, 32, 33, 39, 40])
                    }
                    rf::LION | rf::TIGER if rng.chance(0.5) => parse_sq(rng.pick(&BANKS)),
                    _ if rng.chance(0.15) => {
                        // Near a trap or den.
                        rng.pick(&[2, 4, 10, 58, 60, 52, 9, 11, 17, 51, 53, 45, 1, 5, 57, 61])
                    }
                    _ => rng.below(63),
                };
                let enemy_den = rf::den_of(1 - side);
                if cells[sq].is_some()
                    || sq == rf::den_of(side)
                    || (sq == enemy_den && !rng.chance(0.05))
                    || (kind != rf::RAT && !rules.no_rivers && rf::is_river(sq))
                {
                    continue;
                }
                cells[sq] = Some(Animal { side, kind });
                break;
            }
        }
    }
    let halfmoves = if rules.draw_plies > 0 && rng.chance(0.1) {
        rules.draw_plies.saturating_sub(rng.below(4) as u32)
    } else {
        rng.below(20) as u32
    };
    if rng.chance(0.1) {
        hem_in(rng, &mut cells, rules);
    }
    if rng.chance(0.08) {
        corrupt(rng, &mut cells);
    }
    RefPos {
        cells,
        turn: if rng.chance(0.5) { RED } else { BLUE },
        halfmoves,
        fullmoves: 1 + rng.below(60) as u32,
        rules,
    }
}

/// Surrounds the animals of one side with strong enemies, to reach sides without a legal move.
fn hem_in(rng: &mut Rng, cells: &mut [Option<Animal>; 63], rules: RefRules) {
    let side = if rng.chance(0.5) { RED } else { BLUE };
    let mine: Vec<usize> = (0..63)
        .filter(|&s| cells[s].is_some_and(|a| a.side == side))
        .collect();
    for s in mine {
        let (f, r) = rf::coords(s);
        for (df, dr) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
            let Some(n) = rf::square(f + df, r + dr) else {
                continue;
            };
            if cells[n].is_some()
                || n == rf::den_of(1 - side)
                || (!rules.no_rivers && rf::is_river(n))
            {
                continue;
            }
            let kind = rng.pick(&[rf::ELEPHANT, rf::LION, rf::TIGER, rf::LEOPARD]);
            if !cells.contains(&Some(Animal {
                side: 1 - side,
                kind,
            })) {
                cells[n] = Some(Animal {
                    side: 1 - side,
                    kind,
                });
            }
        }
    }
}

/// Breaks a position in one of the ways RULES forbids, to compare validation (§1–§4, §6).
fn corrupt(rng: &mut Rng, cells: &mut [Option<Animal>; 63]) {
    let side = if rng.chance(0.5) { RED } else { BLUE };
    let land: Vec<usize> = (0..63).filter(|&s| !rf::is_river(s)).collect();
    match rng.below(5) {
        0 => {
            // A second animal of a kind.
            let kind = rng.below(8) as u8;
            for _ in 0..2 {
                let s = rng.pick(&land);
                if s != rf::den_of(side) {
                    cells[s] = Some(Animal { side, kind });
                }
            }
        }
        1 => {
            cells[rf::den_of(side)] = Some(Animal {
                side,
                kind: rng.below(8) as u8,
            })
        }
        2 => {
            cells[rng.pick(&[22, 30, 39, 26])] = Some(Animal {
                side,
                kind: 1 + rng.below(7) as u8,
            })
        }
        3 => *cells = [None; 63],
        _ => {
            cells[rf::den_of(RED)] = Some(Animal {
                side: BLUE,
                kind: rf::CAT,
            });
            cells[rf::den_of(BLUE)] = Some(Animal {
                side: RED,
                kind: rf::CAT,
            });
        }
    }
}

fn start_position(rules: RefRules) -> RefPos {
    RefPos::from_jfen(jungle::START_JFEN, rules).expect("start position")
}

/// Chooses the next ply (`None` = pass) among `legal`, according to `style`.
fn choose(rng: &mut Rng, style: Style, game: &RefGame, legal: &[RefMove]) -> Option<RefMove> {
    if rng.chance(0.02) || legal.is_empty() {
        return None;
    }
    let pos = game.pos();
    let last_own = game
        .plies
        .iter()
        .rev()
        .find(|p| p.side == pos.turn)
        .copied();
    match style {
        Style::Shuttle if rng.chance(0.85) => {
            if let Some(p) = last_own.filter(|p| p.animal.is_some()) {
                if let Some(&m) = legal.iter().find(|m| **m == (p.to, p.from)) {
                    return Some(m);
                }
            }
        }
        Style::Wander if rng.chance(0.9) => {
            if let Some(p) = last_own.filter(|p| p.animal.is_some()) {
                let mine: Vec<RefMove> = legal
                    .iter()
                    .copied()
                    .filter(|&(from, _)| from == p.to)
                    .collect();
                if !mine.is_empty() {
                    let recent: Vec<usize> = game
                        .plies
                        .iter()
                        .rev()
                        .filter(|q| q.side == pos.turn)
                        .take(6)
                        .map(|q| q.to)
                        .collect();
                    let back: Vec<RefMove> = mine
                        .iter()
                        .copied()
                        .filter(|(_, to)| recent.contains(to))
                        .collect();
                    if !back.is_empty() && rng.chance(0.7) {
                        return Some(rng.pick(&back));
                    }
                    return Some(rng.pick(&mine));
                }
            }
        }
        Style::Aggressive if rng.chance(0.7) => {
            let captures: Vec<RefMove> = legal
                .iter()
                .copied()
                .filter(|&(_, to)| pos.cells[to].is_some())
                .collect();
            if !captures.is_empty() && rng.chance(0.6) {
                return Some(rng.pick(&captures));
            }
            let special: Vec<RefMove> = legal
                .iter()
                .copied()
                .filter(|&(from, to)| {
                    let (f0, r0) = rf::coords(from);
                    let (f1, r1) = rf::coords(to);
                    pos.is_water(to) || (f0 - f1).abs() + (r0 - r1).abs() > 1
                })
                .collect();
            if !special.is_empty() && rng.chance(0.5) {
                return Some(rng.pick(&special));
            }
            // Towards the enemy den.
            let den = rf::coords(rf::den_of(1 - pos.turn));
            let dist = |s: usize| {
                let (f, r) = rf::coords(s);
                (f - den.0).abs() + (r - den.1).abs()
            };
            let best = legal.iter().map(|&(_, to)| dist(to)).min().expect("moves");
            let closer: Vec<RefMove> = legal
                .iter()
                .copied()
                .filter(|&(_, to)| dist(to) == best)
                .collect();
            return Some(rng.pick(&closer));
        }
        _ => {}
    }
    Some(rng.pick(legal))
}

/// Counts of what the random games reached, to show the interesting cases were exercised.
#[derive(Default, Debug)]
struct Coverage {
    positions: u64,
    games: u64,
    by_variant: BTreeMap<&'static str, u64>,
    forbidden: BTreeMap<&'static str, u64>,
    chased_exemptions: u64,
    outcomes: BTreeMap<&'static str, u64>,
    no_moves_by_history: u64,
    jumps: u64,
    blocked_jumps: u64,
    swims: u64,
    trap_captures: u64,
    passes: u64,
    invalid_setups: u64,
}

/// Checks one game state: positions, moves, outcomes and §7 agree between both implementations.
fn check_state(game: &Game, rgame: &RefGame, cov: &mut Coverage, ctx: &str) {
    let pos = game.position();
    let rpos = rgame.pos();
    assert_eq!(
        Jfen::from_position(pos).to_string(),
        rpos.jfen(),
        "{ctx}: position"
    );
    pos.assert_consistent();

    // Position rules §4–§6.2.
    let fast_moves = sorted(pos.legal_moves().iter().map(|&m| ref_move(m)).collect());
    let ref_moves = sorted(rpos.legal_moves());
    assert_eq!(fast_moves, ref_moves, "{ctx}: position moves");
    assert_eq!(pos.count_moves() as usize, ref_moves.len(), "{ctx}: count");
    assert_eq!(
        fast_outcome(pos.outcome()),
        rpos.outcome(),
        "{ctx}: position outcome"
    );
    for &m in &ref_moves {
        assert!(pos.is_legal(fast_move(m)), "{ctx}: {m:?} legal");
        assert!(pos.illegal_reason(fast_move(m)).is_none(), "{ctx}: reason");
        let (f0, r0) = rf::coords(m.0);
        let (f1, r1) = rf::coords(m.1);
        if (f0 - f1).abs() + (r0 - r1).abs() > 1 {
            cov.jumps += 1;
        }
        if rpos.is_water(m.1) {
            cov.swims += 1;
        }
        if rpos.cells[m.1].is_some() && rf::is_trap_of(rpos.turn, m.1) {
            cov.trap_captures += 1;
        }
    }
    // Every square's targets and attacked flag, whoever is to move (§4–§5, §7.1 "chased").
    for s in 0..63 {
        let fast_t: Vec<usize> = pos.targets(sq(s)).into_iter().map(|t| t.index()).collect();
        let mut ref_t = rpos.destinations(s);
        ref_t.sort();
        assert_eq!(fast_t, ref_t, "{ctx}: targets of {}", rf::name(s));
        let outside = pos.targets(sq(s)) & !jungle::REACH[s];
        assert!(
            outside.is_empty(),
            "{ctx}: {} reaches beyond REACH",
            rf::name(s)
        );
        if let Some(a) = rpos.cells[s] {
            if matches!(a.kind, rf::LION | rf::TIGER) {
                // A jump the rules of the terrain allow but a rat blocks.
                let unblocked = RefPos {
                    rules: RefRules {
                        rats_do_not_block: true,
                        ..rpos.rules
                    },
                    ..rpos.clone()
                };
                if unblocked.destinations(s).len() > ref_t.len() {
                    cov.blocked_jumps += 1;
                }
            }
            assert_eq!(
                pos.is_attacked(sq(s)),
                rpos.is_chased(s),
                "{ctx}: chased {}",
                rf::name(s)
            );
        }
    }
    // A few moves that are not legal must be refused.
    for from in [0usize, 20, 31, 42, 59] {
        for to in [1usize, 3, 27, 30, 59, 62] {
            if from != to && !ref_moves.contains(&(from, to)) {
                assert!(!pos.is_legal(Move::new(sq(from), sq(to))), "{ctx}");
                assert!(pos.illegal_reason(Move::new(sq(from), sq(to))).is_some());
            }
        }
    }

    // Game rules: §6.3 under §7, §6.4, §7.
    let fast_game_moves = sorted(game.legal_moves().iter().map(|&m| ref_move(m)).collect());
    let ref_game_moves = sorted(rgame.legal_moves());
    assert_eq!(fast_game_moves, ref_game_moves, "{ctx}: game moves");
    let ro = rgame.outcome();
    assert_eq!(fast_outcome(game.outcome()), ro, "{ctx}: game outcome");
    if ro.is_none() {
        for &m in &ref_moves {
            let why = rgame.forbidden(m);
            assert_eq!(game.is_legal(fast_move(m)), why.is_none(), "{ctx}: {m:?}");
            assert_eq!(game.history_forbids(fast_move(m)).is_some(), why.is_some());
            if let Some(w) = why {
                *cov.forbidden.entry(w).or_default() += 1;
            } else if !rpos.rules.no_7_3 && rpos.is_chased(m.0) {
                // Would 7-3 have fired without the "being chased" exemption?
                let side = rpos.turn;
                let a = rpos.cells[m.0];
                let own: Vec<_> = rgame
                    .plies
                    .iter()
                    .rev()
                    .filter(|p| p.side == side)
                    .take(7)
                    .collect();
                let entered = own.iter().filter(|p| p.animal == a && p.to == m.1).count();
                let trapped = own.iter().any(|p| p.animal == a && rf::is_any_trap(p.to));
                if entered >= 3 && !trapped {
                    cov.chased_exemptions += 1;
                }
            }
        }
        assert!(game.is_legal(Move::PASS), "{ctx}: a pass is allowed");
    } else {
        assert!(!game.is_legal(Move::PASS), "{ctx}: no pass after the end");
        assert!(game.legal_moves().is_empty());
    }
}

fn run(seed: u64, target: u64) -> Coverage {
    let mut rng = Rng(seed);
    let mut cov = Coverage::default();
    while cov.positions < target {
        let variant = VARIANTS[cov.games as usize % VARIANTS.len()];
        let style = STYLES[(cov.games as usize / VARIANTS.len()) % STYLES.len()];
        cov.games += 1;
        let rrules = RefRules::parse(variant).expect("reference parses the rules");
        let rules = to_fast_rules(variant);
        let start = if rng.chance(0.35) {
            start_position(rrules)
        } else {
            random_position(&mut rng, rrules)
        };
        let problems = start.problems();
        let fast = Position::from_setup(&fast_setup(&start), rules);
        assert_eq!(
            fast.is_ok(),
            problems.is_empty(),
            "validity of {} ({variant}): reference {problems:?}, fast {fast:?}",
            start.jfen()
        );
        let Ok(fast) = fast else {
            cov.invalid_setups += 1;
            continue;
        };
        let mut game = Game::from_position(fast);
        let mut rgame = RefGame::new(start);
        let max_plies = 60 + rng.below(240);
        for ply in 0..max_plies {
            let ctx = format!(
                "seed {seed}, game {} ({variant}, {style:?}), ply {ply}, start {}, moves {}",
                cov.games,
                rgame.positions[0].jfen(),
                game.moves()
                    .map(|m| m.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            );
            check_state(&game, &rgame, &mut cov, &ctx);
            cov.positions += 1;
            *cov.by_variant.entry(variant).or_default() += 1;
            if let Some((_, why)) = rgame.outcome() {
                *cov.outcomes.entry(why).or_default() += 1;
                if why == "no-moves" && rgame.pos().outcome().is_none() {
                    cov.no_moves_by_history += 1;
                }
                break;
            }
            let legal = rgame.legal_moves();
            let choice = choose(&mut rng, style, &rgame, &legal);
            match choice {
                None => {
                    cov.passes += 1;
                    game.play(Move::PASS).expect("pass allowed");
                }
                Some(m) => game
                    .play(fast_move(m))
                    .unwrap_or_else(|e| panic!("{ctx}: {e}")),
            }
            rgame.play(choice);
        }
    }
    cov
}

#[test]
fn fast_rules_match_the_reference_over_random_games() {
    // RULES §4, §5, §6, §7, §9: every position, move and outcome of 200,000 positions.
    let seed = std::env::var("JUNGLE_REF_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x4A55_4E47_4C45);
    let target = std::env::var("JUNGLE_REF_POSITIONS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(200_000);
    let cov = run(seed, target);
    eprintln!("{cov:#?}");
    assert!(cov.positions >= target);
    // The random games must have reached every interesting case, in every variant.
    assert_eq!(cov.by_variant.len(), VARIANTS.len(), "{cov:#?}");
    for rule in ["7-3", "17-5", "repetition"] {
        assert!(
            cov.forbidden.get(rule).copied().unwrap_or(0) >= 10,
            "{rule} rarely fired: {cov:#?}"
        );
    }
    for end in ["den", "wipeout", "no-moves", "draw-plies"] {
        assert!(
            cov.outcomes.get(end).copied().unwrap_or(0) >= 5,
            "{end} rarely reached: {cov:#?}"
        );
    }
    assert!(cov.chased_exemptions >= 10, "{cov:#?}");
    assert!(cov.no_moves_by_history >= 1, "{cov:#?}");
    assert!(cov.jumps >= 1000 && cov.blocked_jumps >= 1000, "{cov:#?}");
    assert!(cov.swims >= 1000 && cov.trap_captures >= 100, "{cov:#?}");
    assert!(cov.passes >= 100 && cov.invalid_setups >= 10, "{cov:#?}");
}
