//! The reason given for an illegal move names the rule that forbids it (RULES §4–§5).

use jungle::{Jfen, Move, Position, Rules, Square};

mod support;

fn reason(jfen: &str, from: Square, to: Square) -> String {
    let pos = Jfen::parse_position(jfen, Rules::STANDARD).expect("valid test position");
    pos.illegal_reason(Move::new(from, to))
        .expect("the move is illegal")
}

#[test]
fn out_of_reach_is_said_before_anything_about_the_target_square() {
    // RULES §4.1: one step at a time; g9 is out of reach though it holds an enemy animal.
    let start = Position::start(Rules::STANDARD);
    let r = start
        .illegal_reason(Move::new(Square::G3, Square::G9))
        .expect("illegal");
    assert!(r.contains("cannot reach g9"), "{r}");
}

#[test]
fn each_rule_has_its_own_reason() {
    // RULES §4.2: no animal enters its own den.
    let r = reason("l6/7/7/7/7/7/7/3D3/R6 r 0 1", Square::D2, Square::D1);
    assert!(r.contains("own den"), "{r}");
    // RULES §4.3: only the rat enters water.
    let r = reason(jungle::START_JFEN, Square::C3, Square::C4);
    assert!(r.contains("only the rat"), "{r}");
    // RULES §4.1: not onto an own animal.
    let r = reason(
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C4D/T5L r 0 1",
        Square::G1,
        Square::G2,
    );
    assert!(r.contains("own animal"), "{r}");
    // RULES §5.4: the cat may not capture the dog.
    let r = reason(
        "l5t/5c1/r1p1w1e/7/7/7/E1W1P1R/1Cd3D/T5L r 0 1",
        Square::B2,
        Square::C2,
    );
    assert!(r.contains("may not capture the dog"), "{r}");
    // RULES §4.4: a rat in the river blocks the jump.
    let r = reason("l6/7/7/7/Lr5/7/7/7/R6 r 0 1", Square::A5, Square::D5);
    assert!(r.contains("blocks the jump"), "{r}");
}

#[test]
fn each_reason_comes_as_data_with_a_code_and_the_facts_it_names() {
    use jungle::{Color, Game, Illegal, MoveText, Role};
    let why = |jfen: &str, from: Square, to: Square| {
        let pos = Jfen::parse_position(jfen, Rules::STANDARD).unwrap();
        let why = pos.why_illegal(Move::new(from, to)).expect("illegal");
        assert_eq!(
            pos.illegal_reason(Move::new(from, to)),
            Some(why.to_string()),
            "the text is the data's English"
        );
        why
    };
    let coord = |s: &str| Move::new(s[..2].parse().unwrap(), s[2..].parse().unwrap());
    let start = jungle::START_JFEN;
    let w = why(start, Square::C3, Square::C4);
    assert_eq!((w, w.code()), (Illegal::WaterOnlyRat, "water_only_rat"));
    assert!(w.params().is_empty());
    let w = why(start, Square::G3, Square::G9);
    assert_eq!(w.code(), "cannot_reach");
    assert_eq!(
        w.params(),
        [
            ("animal", "R".to_string()),
            ("from", "g3".to_string()),
            ("to", "g9".to_string())
        ]
    );
    let w = why(start, Square::A7, Square::A6);
    assert_eq!(
        w,
        Illegal::NotYourAnimal {
            role: Role::Rat,
            from: Square::A7,
            owner: Color::Blue,
            turn: Color::Red
        }
    );
    assert_eq!(w.params()[2], ("owner", "blue".to_string()));
    let w = why(
        "l5t/5c1/r1p1w1e/7/7/7/E1W1P1R/1Cd3D/T5L r 0 1",
        Square::B2,
        Square::C2,
    );
    assert_eq!(w.code(), "may_not_capture");
    assert_eq!(w.params()[1], ("victim", "D".to_string()));
    assert_eq!(why(start, Square::D4, Square::D5).code(), "no_animal");

    // §7 by the game's history: the 7-3 rule, with the square and the count.
    let mut game = Game::new(Rules::STANDARD);
    for m in [
        "g3g4", "a7a6", "g4g5", "a6a5", "g5g4", "a5a4", "g4g5", "a9a8", "g5g4", "a8a7", "g4g5",
        "e7d7",
    ] {
        game.play(coord(m)).unwrap();
    }
    let m = coord("g5g4");
    let w = game.why_illegal(m).expect("forbidden by §7.1");
    assert_eq!(w.code(), "rule_7_3");
    assert_eq!(
        w.params(),
        [
            ("animal", "R".to_string()),
            ("to", "g4".to_string()),
            ("times", "3".to_string())
        ]
    );
    let e = game.play(m).unwrap_err();
    assert_eq!((e.why, e.reason.clone()), (w, w.to_string()));

    // A written move that does not fit the position.
    let pos = Position::start(Rules::STANDARD);
    let e = "Rxg4"
        .parse::<MoveText>()
        .unwrap()
        .to_move(&pos)
        .unwrap_err();
    assert_eq!(e.why, Illegal::NotACapture { to: Square::G4 });
    assert_eq!(e.reason, "`x` marks a capture, but g4 is empty");
    let e = "Rg4#"
        .parse::<MoveText>()
        .unwrap()
        .to_move(&pos)
        .unwrap_err();
    assert_eq!(e.why.code(), "not_the_den");
}

/// The RULES section cited in the doc comment just above the variant `variant` of `Illegal`.
fn cited_section(variant: &str) -> String {
    let source = include_str!("../src/illegal.rs");
    let lines: Vec<&str> = source.lines().collect();
    let at = lines
        .iter()
        .position(|l| {
            let l = l.trim();
            l.strip_prefix(variant)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with([',', ' ']))
        })
        .unwrap_or_else(|| panic!("no variant {variant}"));
    let doc: Vec<&str> = lines[..at]
        .iter()
        .rev()
        .take_while(|l| l.trim().starts_with("///"))
        .copied()
        .collect();
    let doc = doc.into_iter().rev().collect::<Vec<_>>().join(" ");
    let from = doc
        .find('§')
        .unwrap_or_else(|| panic!("{variant}: no section in {doc}"));
    doc[from..]
        .chars()
        .skip(1)
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect::<String>()
        .trim_end_matches('.')
        .to_string()
}

#[test]
fn reasons_cite_the_rules_section_that_forbids_the_move() {
    // RULES §4.2 forbids entering the own den; §5 says who may capture whom; §4.3 water; §4.4
    // the jump.
    assert_eq!(cited_section("OwnDen"), "4.2");
    assert_eq!(cited_section("MayNotCapture"), "5");
    assert_eq!(cited_section("WaterOnlyRat"), "4.3");
    assert_eq!(cited_section("RatBlocksJump"), "4.4");
}

#[test]
fn a_blocked_jump_is_explained_as_blocked_whatever_stands_beyond() {
    // RULES §4.4: a rat in the water forbids the jump; the landing square matters only for a
    // clear jump (§4.4, §5). The audit's case: the lion on d5 jumps toward the dog on g5, which
    // it could capture, but its own rat swims on f5 (any rat blocks).
    use jungle::Illegal;
    let why = |jfen: &str, rules: Rules, m: &str| {
        let pos = Jfen::parse_position(jfen, rules).expect("valid test position");
        let m = Move::new(m[..2].parse().unwrap(), m[2..].parse().unwrap());
        let why = pos.why_illegal(m);
        assert_eq!(why.is_none(), pos.legal_moves().contains(m), "{jfen} {m}");
        why
    };
    let std = Rules::STANDARD;
    let only_enemy = Rules {
        only_enemy_rat_blocks: true,
        ..Rules::STANDARD
    };
    let no_block = Rules {
        rats_do_not_block: true,
        ..Rules::STANDARD
    };
    let no_rivers = Rules {
        no_rivers: true,
        ..Rules::STANDARD
    };
    // Onto an enemy the jumper could capture: blocked by the rat, of either side.
    let own_rat = "7/7/7/7/3L1Rd/7/7/7/7 r 0 1";
    assert_eq!(why(own_rat, std, "d5g5"), Some(Illegal::RatBlocksJump));
    assert_eq!(
        why(own_rat, std, "d5g5").unwrap().to_string(),
        "a rat in the water blocks the jump"
    );
    let enemy_rat = "7/7/7/7/3L1rd/7/7/7/7 r 0 1";
    assert_eq!(why(enemy_rat, std, "d5g5"), Some(Illegal::RatBlocksJump));
    // Deviations: only the enemy's rat blocks, or no rat does: the capture is then legal.
    assert_eq!(why(own_rat, only_enemy, "d5g5"), None);
    assert_eq!(
        why(enemy_rat, only_enemy, "d5g5"),
        Some(Illegal::RatBlocksJump)
    );
    assert_eq!(why(own_rat, no_block, "d5g5"), None);
    // Onto an enemy the jumper may not capture: blocked comes first; clear, the capture is
    // refused (the tiger and the lion, the lion and the elephant).
    let blocked_lion = "7/7/7/7/3T1Rl/7/7/7/7 r 0 1";
    assert_eq!(why(blocked_lion, std, "d5g5"), Some(Illegal::RatBlocksJump));
    let to = Square::G5;
    let may_not = |role, victim| Some(Illegal::MayNotCapture { role, victim, to });
    use jungle::Role::{Elephant, Lion, Tiger};
    assert_eq!(why(blocked_lion, no_block, "d5g5"), may_not(Tiger, Lion));
    assert_eq!(why(blocked_lion, only_enemy, "d5g5"), may_not(Tiger, Lion));
    let clear_elephant = "7/7/7/7/3L2e/7/7/7/7 r 0 1";
    assert_eq!(why(clear_elephant, std, "d5g5"), may_not(Lion, Elephant));
    // Onto an own animal: blocked first; clear, the own animal.
    let blocked_own = "l6/7/7/7/3L1rD/7/7/7/7 r 0 1";
    assert_eq!(why(blocked_own, std, "d5g5"), Some(Illegal::RatBlocksJump));
    assert_eq!(
        why(blocked_own, no_block, "d5g5"),
        Some(Illegal::OwnAnimal { to })
    );
    // Onto an empty square, vertically over three water squares.
    let vertical = "l6/7/7/7/7/1r5/1L5/7/7 r 0 1";
    assert_eq!(why(vertical, std, "b3b7"), Some(Illegal::RatBlocksJump));
    assert_eq!(why(vertical, no_block, "b3b7"), None);
    // Without rivers there is no jump: out of reach.
    assert_eq!(
        why("7/7/7/7/3L1Rd/7/7/7/7 r 0 1", no_rivers, "d5g5"),
        Some(Illegal::CannotReach {
            role: Lion,
            from: Square::D5,
            to
        })
    );
}

mod every_pair {
    //! The explanations agree with the legal moves for all 3,906 from/to pairs of random
    //! positions under every rule set, and each names a reason that holds on the board.
    use jungle::{
        Bitboard, Color, Illegal, Jfen, Move, Piece, Position, Role, Setup, Square, JUMPS,
        NEIGHBORS,
    };
    use proptest::prelude::*;

    use super::support::strategies::any_rules;

    /// A random valid position: each of the 16 animals present or not, non-rats on land and
    /// rats often in the water (so that jumps are often blocked), never in the own den.
    fn any_position() -> impl Strategy<Value = Position> {
        (
            any_rules(),
            prop::collection::vec((0u8..4, any::<u8>()), 16),
            any::<bool>(),
        )
            .prop_filter_map("a valid position", |(rules, cells, blue)| {
                let water: Vec<Square> = Bitboard::WATER.into_iter().collect();
                let mut s = Setup::empty();
                for (i, (present, at)) in cells.into_iter().enumerate() {
                    if present == 0 {
                        continue;
                    }
                    let piece = Piece::new(Color::ALL[i / 8], Role::ALL[i % 8]);
                    let land: Vec<Square> = Square::all()
                        .filter(|&q| !Bitboard::WATER.contains(q))
                        .filter(|&q| !Bitboard::den_of(piece.color).contains(q))
                        .collect();
                    let sq = if piece.role == Role::Rat && present >= 2 {
                        water[at as usize % water.len()]
                    } else {
                        land[at as usize % land.len()]
                    };
                    s.board[sq.index()] = Some(piece);
                }
                s.turn = if blue { Color::Blue } else { Color::Red };
                Position::from_setup(&s, rules).ok()
            })
    }

    /// The jump from `from` to `to` of the animal there, if it is one, and whether a rat
    /// blocks it under the position's rules.
    fn jump(pos: &Position, piece: Piece, from: Square, to: Square) -> Option<bool> {
        let rules = pos.rules();
        if !piece.role.jumps() || rules.no_rivers {
            return None;
        }
        let j = JUMPS[from.index()].as_slice().iter().find(|j| j.to == to)?;
        let blockers = if rules.rats_do_not_block {
            Bitboard::EMPTY
        } else if rules.only_enemy_rat_blocks {
            pos.by_role(Role::Rat) & pos.by_color(!piece.color)
        } else {
            pos.by_role(Role::Rat)
        };
        Some((j.over & blockers).any())
    }

    /// Checks that `why` (the explanation of `m`, a move of the side to move's animal in an
    /// unfinished position) holds on the board.
    fn reason_holds(pos: &Position, piece: Piece, m: Move, why: Illegal) -> Result<(), String> {
        let (from, to) = (m.from_sq(), m.to_sq());
        let jump = jump(pos, piece, from, to);
        let step = NEIGHBORS[from.index()].contains(to);
        let target = pos.piece_at(to);
        let ok = match why {
            Illegal::CannotReach {
                role,
                from: f,
                to: t,
            } => (role, f, t) == (piece.role, from, to) && !step && jump.is_none(),
            Illegal::OwnDen => Bitboard::den_of(piece.color).contains(to),
            // A blocked jump is always explained as blocked (not by its landing square).
            Illegal::RatBlocksJump => jump == Some(true),
            Illegal::OwnAnimal { to: t } => {
                t == to && target.is_some_and(|q| q.color == piece.color) && jump != Some(true)
            }
            Illegal::WaterOnlyRat => piece.role != Role::Rat && pos.water().contains(to),
            Illegal::MayNotCapture {
                role,
                victim,
                to: t,
            } => {
                let enemy = target.is_some_and(|q| q.color != piece.color && q.role == victim);
                // Without the victim the move would be legal: only the capture is refused.
                let mut without = pos.to_setup();
                without.board[to.index()] = None;
                let reachable = Position::from_setup(&without, *pos.rules())
                    .map_or(true, |p| p.targets(from).contains(to));
                role == piece.role && t == to && enemy && jump != Some(true) && reachable
            }
            _ => false,
        };
        if ok {
            Ok(())
        } else {
            Err(format!("{} {m}: {why:?}", Jfen::from_position(pos)))
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn explanations_agree_with_the_legal_moves(pos in any_position()) {
            let legal = pos.legal_moves();
            let finished = pos.is_finished();
            for from in Square::all() {
                for to in Square::all().filter(|&t| t != from) {
                    let m = Move::new(from, to);
                    let why = pos.why_illegal(m);
                    let listed = legal.contains(m);
                    prop_assert_eq!(why.is_none(), listed, "{:?} {} {:?}", pos, m, why);
                    prop_assert_eq!(pos.is_legal(m), listed, "{:?} {}", pos, m);
                    prop_assert_eq!(pos.illegal_reason(m), why.map(|w| w.to_string()));
                    let Some(why) = why else { continue };
                    match pos.piece_at(from) {
                        _ if finished => {
                            prop_assert!(matches!(why, Illegal::GameOver(_)), "{:?} {} {:?}", pos, m, why);
                        }
                        None => prop_assert_eq!(why, Illegal::NoAnimal { from }),
                        Some(p) if p.color != pos.turn() => {
                            prop_assert_eq!(why.code(), "not_your_animal");
                        }
                        Some(p) => reason_holds(&pos, p, m, why).map_err(TestCaseError::fail)?,
                    }
                }
            }
        }
    }
}
