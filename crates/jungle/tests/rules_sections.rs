//! One test (or more) for every section of RULES.md §1–§7 and §9, each naming its section. The
//! examples of RULES.md are tests here: the 7-3 rat shuttle, the jumps b3→b7, a5→d5, d5→g5, the
//! capture table of §5 and the start JFEN. Notation (§10) is in `notation.rs`.

use jungle::{
    Bitboard, Color, Game, Jfen, Move, Outcome, Piece, Position, Role, Rules, Setup, Square,
    Termination, START_JFEN,
};

fn sq(name: &str) -> Square {
    name.parse().expect("square name")
}

fn rules(text: &str) -> Rules {
    text.parse().expect("rule set")
}

/// A position from `(square, JFEN letter)` pairs.
fn board(pieces: &[(&str, char)], turn: Color, rules_text: &str) -> Position {
    let mut s = Setup::empty();
    for &(name, letter) in pieces {
        s.board[sq(name).index()] = Some(Piece::from_char(letter).expect("animal letter"));
    }
    s.turn = turn;
    Position::from_setup(&s, rules(rules_text)).expect("valid test position")
}

/// Where the animal on `from` may move, sorted square names.
fn targets(pos: &Position, from: &str) -> Vec<String> {
    let mut v: Vec<String> = pos
        .targets(sq(from))
        .into_iter()
        .map(|s| s.to_string())
        .collect();
    v.sort();
    v
}

/// A coordinate move `g3g4`.
fn mv(text: &str) -> Move {
    Move::new(sq(&text[..2]), sq(&text[2..]))
}

fn play_all(game: &mut Game, moves: &[&str]) {
    for m in moves {
        let m = if *m == "--" { Move::PASS } else { mv(m) };
        game.play(m).unwrap_or_else(|e| panic!("{e}"));
    }
}

// ---------------------------------------------------------------------------------------------
// §1 Board and coordinates

#[test]
fn section_1_square_indices() {
    // RULES §1: sq = (rank-1)*7 + file, a1 = 0, g1 = 6, a2 = 7, g9 = 62.
    assert_eq!(sq("a1").index(), 0);
    assert_eq!(sq("g1").index(), 6);
    assert_eq!(sq("a2").index(), 7);
    assert_eq!(sq("g9").index(), 62);
    assert_eq!(Square::all().count(), 63);
    for s in Square::all() {
        assert_eq!(s.index(), s.rank() as usize * 7 + s.file() as usize);
        assert_eq!(s.to_string().parse::<Square>().unwrap(), s);
    }
    assert!("h1".parse::<Square>().is_err());
    assert!("a0".parse::<Square>().is_err());
    assert!("a10".parse::<Square>().is_err());
}

#[test]
fn section_1_terrain() {
    // RULES §1: dens, traps (品 shape) and the two rivers; everything else is land.
    let set = |names: &[&str]| names.iter().map(|n| sq(n)).collect::<Bitboard>();
    assert_eq!(Bitboard::RED_DEN, set(&["d1"]));
    assert_eq!(Bitboard::BLUE_DEN, set(&["d9"]));
    assert_eq!(Bitboard::RED_TRAPS, set(&["c1", "e1", "d2"]));
    assert_eq!(Bitboard::BLUE_TRAPS, set(&["c9", "e9", "d8"]));
    assert_eq!(
        Bitboard::WATER,
        set(&["b4", "c4", "b5", "c5", "b6", "c6", "e4", "f4", "e5", "f5", "e6", "f6"])
    );
    assert_eq!(Bitboard::den_of(Color::Red), Bitboard::RED_DEN);
    assert_eq!(Bitboard::traps_of(Color::Blue), Bitboard::BLUE_TRAPS);
    // The bridges: files a, d and g between the rivers are land.
    for b in ["a4", "a5", "a6", "d4", "d5", "d6", "g4", "g5", "g6"] {
        assert!(!Bitboard::WATER.contains(sq(b)), "{b}");
    }
    // Under no_rivers there is no water at all.
    assert!(Position::start(rules("no_rivers")).water().is_empty());
    assert_eq!(Position::start(Rules::STANDARD).water(), Bitboard::WATER);
}

// ---------------------------------------------------------------------------------------------
// §2 Animals and ranks

#[test]
fn section_2_ranks() {
    // RULES §2: Elephant 8 … Rat 1; Dog (4) outranks Wolf (3); wolf_over_dog swaps them.
    let std = Rules::STANDARD;
    let expected = [
        (Role::Elephant, 8),
        (Role::Lion, 7),
        (Role::Tiger, 6),
        (Role::Leopard, 5),
        (Role::Dog, 4),
        (Role::Wolf, 3),
        (Role::Cat, 2),
        (Role::Rat, 1),
    ];
    for (role, rank) in expected {
        assert_eq!(std.rank(role), rank, "{role}");
    }
    let wod = rules("wolf_over_dog");
    assert_eq!(wod.rank(Role::Wolf), 4);
    assert_eq!(wod.rank(Role::Dog), 3);
    assert_eq!(wod.rank(Role::Lion), 7);
    // Letters and Chinese characters of the table.
    let letters: String = Role::ALL.iter().map(|r| r.letter()).collect();
    assert_eq!(letters, "RCWDPTLE");
    let chinese: String = Role::ALL.iter().map(|r| r.chinese()).collect();
    assert_eq!(chinese, "鼠猫狼狗豹虎狮象");
}

#[test]
fn section_2_one_of_each_animal() {
    // RULES §2: each side has exactly one of each animal at the start (16 pieces).
    let pos = Position::start(Rules::STANDARD);
    assert_eq!(pos.occupied().count(), 16);
    for c in Color::ALL {
        for r in Role::ALL {
            assert!(pos.square_of(Piece::new(c, r)).is_some(), "{c} {r}");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// §3 Start position

#[test]
fn section_3_start_position() {
    // RULES §3: Red's and Blue's squares, the JFEN of the start position, Red moves first.
    let pos = Position::start(Rules::STANDARD);
    let red = [
        ("a1", Role::Tiger),
        ("g1", Role::Lion),
        ("b2", Role::Cat),
        ("f2", Role::Dog),
        ("a3", Role::Elephant),
        ("c3", Role::Wolf),
        ("e3", Role::Leopard),
        ("g3", Role::Rat),
    ];
    let blue = [
        ("a9", Role::Lion),
        ("g9", Role::Tiger),
        ("b8", Role::Dog),
        ("f8", Role::Cat),
        ("a7", Role::Rat),
        ("c7", Role::Leopard),
        ("e7", Role::Wolf),
        ("g7", Role::Elephant),
    ];
    for (s, r) in red {
        assert_eq!(pos.piece_at(sq(s)), Some(Piece::new(Color::Red, r)), "{s}");
    }
    for (s, r) in blue {
        assert_eq!(pos.piece_at(sq(s)), Some(Piece::new(Color::Blue, r)), "{s}");
    }
    assert_eq!(pos.turn(), Color::Red);
    assert_eq!(
        START_JFEN,
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 0 1"
    );
    assert_eq!(Jfen::from_position(&pos).to_string(), START_JFEN);
    assert_eq!(
        Jfen::parse_position(START_JFEN, Rules::STANDARD).unwrap(),
        pos
    );
    // Blue's set is Red's turned 180°.
    for s in Square::all() {
        let turned = Square::new(62 - s.index() as u8).unwrap();
        let p = pos.piece_at(s).map(|p| (!p.color, p.role));
        assert_eq!(pos.piece_at(turned).map(|p| (p.color, p.role)), p);
    }
}

// ---------------------------------------------------------------------------------------------
// §4 Moving

#[test]
fn section_4_1_steps_are_orthogonal() {
    // RULES §4.1: one square up, down, left or right, never diagonally.
    let pos = board(&[("d3", 'D'), ("a9", 'c')], Color::Red, "standard");
    assert_eq!(targets(&pos, "d3"), ["c3", "d2", "d4", "e3"]);
    let pos = board(&[("a1", 'D'), ("g9", 'c')], Color::Red, "standard");
    assert_eq!(targets(&pos, "a1"), ["a2", "b1"]);
    // Never onto an own animal.
    let pos = board(
        &[("d3", 'D'), ("d4", 'C'), ("a9", 'c')],
        Color::Red,
        "standard",
    );
    assert_eq!(targets(&pos, "d3"), ["c3", "d2", "e3"]);
    // A turn is exactly one move of one own animal: only the side to move has legal moves.
    let pos = board(&[("d3", 'D'), ("a9", 'c')], Color::Blue, "standard");
    assert!(pos.legal_moves().iter().all(|m| m.from_sq() == sq("a9")));
    assert!(!pos.is_legal(mv("d3d4")));
}

#[test]
fn section_4_2_no_animal_enters_its_own_den() {
    // RULES §4.2
    let pos = board(
        &[("c1", 'C'), ("e1", 'c'), ("d2", 'w')],
        Color::Red,
        "standard",
    );
    assert_eq!(targets(&pos, "c1"), ["b1", "c2"]);
    assert!(pos.illegal_reason(mv("c1d1")).unwrap().contains("own den"));
    // Blue's animals may enter Red's den (and win, §6.1).
    assert_eq!(targets(&pos, "e1"), ["d1", "e2", "f1"]);
    assert_eq!(targets(&pos, "d2"), ["c2", "d1", "d3", "e2"]);
    // Likewise at the top for Blue.
    let pos = board(&[("d8", 'l'), ("c9", 'L')], Color::Blue, "standard");
    assert_eq!(targets(&pos, "d8"), ["c8", "d7", "e8"]);
    assert_eq!(targets(&pos, "c9"), ["b9", "c8", "d9"]);
}

#[test]
fn section_4_3_only_the_rat_enters_water() {
    // RULES §4.3
    let pos = board(
        &[("b3", 'R'), ("e3", 'D'), ("b5", 'r'), ("a9", 'c')],
        Color::Red,
        "standard",
    );
    assert_eq!(targets(&pos, "b3"), ["a3", "b2", "b4", "c3"]);
    assert_eq!(targets(&pos, "e3"), ["d3", "e2", "f3"]);
    assert!(pos
        .illegal_reason(mv("e3e4"))
        .unwrap()
        .contains("only the rat"));
    // In water the rat moves one square at a time, in and out freely.
    assert_eq!(targets(&pos, "b5"), ["a5", "b4", "b6", "c5"]);
    // No animal but the rat may stand in water: a dog there is an invalid position.
    let mut s = Setup::empty();
    s.board[sq("c5").index()] = Some(Piece::new(Color::Red, Role::Dog));
    s.board[sq("a9").index()] = Some(Piece::new(Color::Blue, Role::Cat));
    assert!(Position::from_setup(&s, Rules::STANDARD).is_err());
    // Under no_rivers the water squares are plain land for everyone (RULES §9).
    let pos = board(
        &[("e3", 'D'), ("c5", 'W'), ("a9", 'c')],
        Color::Red,
        "no_rivers",
    );
    assert_eq!(targets(&pos, "e3"), ["d3", "e2", "e4", "f3"]);
    assert_eq!(targets(&pos, "c5"), ["b5", "c4", "c6", "d5"]);
}

#[test]
fn section_4_4_jump_examples() {
    // RULES §4.4: b3→b7 (over 3 water squares), a5→d5 and d5→g5 (over 2).
    for jumper in ['L', 'T'] {
        let pos = board(&[("b3", jumper), ("g9", 'c')], Color::Red, "standard");
        assert_eq!(targets(&pos, "b3"), ["a3", "b2", "b7", "c3"], "{jumper}");
        let pos = board(&[("a5", jumper), ("g9", 'c')], Color::Red, "standard");
        assert_eq!(targets(&pos, "a5"), ["a4", "a6", "d5"], "{jumper}");
        let pos = board(&[("d5", jumper), ("g9", 'c')], Color::Red, "standard");
        assert_eq!(targets(&pos, "d5"), ["a5", "d4", "d6", "g5"], "{jumper}");
        let pos = board(&[("f7", jumper), ("a1", 'c')], Color::Blue, "standard");
        assert_eq!(targets(&pos, "f7"), ["e7", "f3", "f8", "g7"], "{jumper}");
    }
    // No other animal jumps.
    for other in ['E', 'P', 'D', 'W', 'C'] {
        let pos = board(&[("d5", other), ("g9", 'c')], Color::Red, "standard");
        assert_eq!(targets(&pos, "d5"), ["d4", "d6"], "{other}");
    }
    // No jumps without rivers: the lion simply steps.
    let pos = board(&[("b3", 'L'), ("g9", 'c')], Color::Red, "no_rivers");
    assert_eq!(targets(&pos, "b3"), ["a3", "b2", "b4", "c3"]);
}

#[test]
fn section_4_4_rats_block_jumps() {
    // RULES §4.4: any rat, of either side, on a water square jumped over blocks the jump;
    // `only_enemy_rat_blocks` and `rats_do_not_block` (§9) change that.
    let cases = [
        // (rules, own rat blocks, enemy rat blocks)
        ("standard", true, true),
        ("only_enemy_rat_blocks", false, true),
        ("rats_do_not_block", false, false),
    ];
    for (r, own_blocks, enemy_blocks) in cases {
        for (rat_sq, jumper_sq, landing) in [("c5", "a5", "d5"), ("b6", "b3", "b7")] {
            for (rat, blocks) in [('R', own_blocks), ('r', enemy_blocks)] {
                let pos = board(
                    &[(jumper_sq, 'L'), (rat_sq, rat), ("g9", 'c'), ("g1", 'C')],
                    Color::Red,
                    r,
                );
                assert_eq!(
                    !targets(&pos, jumper_sq).contains(&landing.to_string()),
                    blocks,
                    "{r}: rat {rat} on {rat_sq}, {jumper_sq}->{landing}"
                );
                if blocks {
                    assert!(pos
                        .illegal_reason(Move::new(sq(jumper_sq), sq(landing)))
                        .unwrap()
                        .contains("rat"));
                }
            }
        }
    }
    // A rat in the other river does not block.
    let pos = board(
        &[("d5", 'T'), ("e5", 'r'), ("g9", 'c')],
        Color::Red,
        "standard",
    );
    assert_eq!(targets(&pos, "d5"), ["a5", "d4", "d6"]);
}

#[test]
fn section_4_4_jump_landing() {
    // RULES §4.4: not onto an own animal, nor onto an enemy the jumper may not capture; a jump
    // may capture.
    let pos = board(
        &[("a5", 'L'), ("d5", 'C'), ("g9", 'c')],
        Color::Red,
        "standard",
    );
    assert!(!targets(&pos, "a5").contains(&"d5".to_string()));
    let landing = |jumper: char, enemy: char| {
        let pos = board(
            &[("b3", jumper), ("b7", enemy), ("g9", 'c')],
            Color::Red,
            "standard",
        );
        targets(&pos, "b3").contains(&"b7".to_string())
    };
    assert!(!landing('L', 'e'), "a lion may not take an elephant");
    assert!(!landing('T', 'e'), "a tiger may not take an elephant");
    assert!(!landing('T', 'l'), "a tiger may not take a lion");
    assert!(landing('L', 'l'), "equal animals capture each other");
    assert!(landing('T', 't'));
    assert!(landing('L', 't'));
    assert!(landing('T', 'r'), "a rat on land can be taken by a jump");
    let mut game = Game::from_position(board(
        &[("d5", 'L'), ("g5", 't'), ("a9", 'c')],
        Color::Red,
        "standard",
    ));
    game.play(mv("d5g5")).unwrap();
    assert_eq!(game.plies()[0].captured.map(|p| p.role), Some(Role::Tiger));
    assert_eq!(game.position().halfmoves(), 0);
}

// ---------------------------------------------------------------------------------------------
// §5 Capturing

/// RULES §5 table "outside traps, both on land", transcribed from the text.
fn table_says(attacker: Role, defender: Role, wolf_over_dog: bool) -> bool {
    use Role::*;
    // Under wolf_over_dog the Wolf has the Dog's rank and the Dog the Wolf's: the same table
    // with the two names swapped.
    let swap = |r: Role| match (r, wolf_over_dog) {
        (Wolf, true) => Dog,
        (Dog, true) => Wolf,
        _ => r,
    };
    let row: &[Role] = match swap(attacker) {
        Rat => &[Elephant, Rat],
        Cat => &[Cat, Rat],
        Wolf => &[Wolf, Cat, Rat],
        Dog => &[Dog, Wolf, Cat, Rat],
        Leopard => &[Leopard, Dog, Wolf, Cat, Rat],
        Tiger => &[Tiger, Leopard, Dog, Wolf, Cat, Rat],
        Lion => &[Lion, Tiger, Leopard, Dog, Wolf, Cat, Rat],
        Elephant => &[Elephant, Lion, Tiger, Leopard, Dog, Wolf, Cat],
    };
    row.contains(&swap(defender))
}

#[test]
fn section_5_capture_table() {
    // RULES §5: the resulting table, for both sides, in both the standard set and
    // wolf_over_dog; checked through the legal moves of a real position.
    for r in ["standard", "wolf_over_dog"] {
        let wod = r == "wolf_over_dog";
        for a in Role::ALL {
            for d in Role::ALL {
                for (attacker_color, turn) in [(Color::Red, Color::Red), (Color::Blue, Color::Blue)]
                {
                    let ap = Piece::new(attacker_color, a);
                    let dp = Piece::new(!attacker_color, d);
                    // a2 and a3: plain land, no trap.
                    let pos = board(&[("a2", ap.char()), ("a3", dp.char())], turn, r);
                    let can = pos.is_legal(mv("a2a3"));
                    assert_eq!(can, table_says(a, d, wod), "{r}: {a} takes {d}?");
                    assert_eq!(pos.is_attacked(sq("a3")), can, "{r}: {d} attacked by {a}?");
                }
            }
        }
    }
    // Spot checks straight from the prose.
    assert!(!table_says(Role::Elephant, Role::Rat, false));
    assert!(table_says(Role::Rat, Role::Elephant, false));
    assert!(table_says(Role::Dog, Role::Wolf, false));
    assert!(!table_says(Role::Dog, Role::Wolf, true));
    assert!(table_says(Role::Wolf, Role::Dog, true));
}

#[test]
fn section_5_1_traps() {
    // RULES §5.1: a defender on the attacker's side's traps has no fighting power.
    // The Elephant takes a Rat on Red's trap c1.
    let pos = board(
        &[("b1", 'E'), ("c1", 'r'), ("g9", 'c')],
        Color::Red,
        "standard",
    );
    assert!(pos.is_legal(mv("b1c1")));
    // A Cat takes the Elephant on Red's trap d2.
    let pos = board(
        &[("d3", 'C'), ("d2", 'e'), ("g9", 'c')],
        Color::Red,
        "standard",
    );
    assert!(pos.is_legal(mv("d3d2")));
    // Not on the defender's own traps: a Blue rat on Blue's trap c9 keeps its rank.
    let pos = board(
        &[("b9", 'E'), ("c9", 'r'), ("g1", 'c')],
        Color::Red,
        "standard",
    );
    assert!(!pos.is_legal(mv("b9c9")));
    // A Red lion on its own trap c1 keeps its full rank against a Blue tiger.
    let pos = board(
        &[("b1", 't'), ("c1", 'L'), ("g9", 'c')],
        Color::Blue,
        "standard",
    );
    assert!(!pos.is_legal(mv("b1c1")));
    // Decision: an animal on an enemy trap still attacks with its normal rank.
    let pos = board(
        &[("d2", 'e'), ("d3", 'L'), ("g9", 'c')],
        Color::Blue,
        "standard",
    );
    assert!(pos.is_legal(mv("d2d3")));
    let pos = board(
        &[("d2", 'c'), ("d3", 'L'), ("g9", 't')],
        Color::Blue,
        "standard",
    );
    assert!(!pos.is_legal(mv("d2d3")));
    // Same for Blue's traps and a Blue attacker.
    let pos = board(
        &[("d7", 'r'), ("d8", 'L'), ("g1", 'C')],
        Color::Blue,
        "standard",
    );
    assert!(pos.is_legal(mv("d7d8")));
}

#[test]
fn section_5_2_rat_and_water() {
    // RULES §5.2: a rat in water may not take the elephant on land; rats take each other
    // wherever they stand; no land animal takes a rat in water.
    let pos = board(
        &[("b5", 'R'), ("a5", 'e'), ("g9", 'c')],
        Color::Red,
        "standard",
    );
    assert!(!pos.is_legal(mv("b5a5")));
    let pos = board(
        &[("a4", 'R'), ("a5", 'e'), ("g9", 'c')],
        Color::Red,
        "standard",
    );
    assert!(pos.is_legal(mv("a4a5")));
    for r in ["standard", "no_shore_rat_capture"] {
        let shore = r == "standard";
        // water → land, land → water, water → water, land → land
        let cases = [
            ("b5", "a5", shore),
            ("a5", "b5", shore),
            ("b5", "b6", true),
            ("a4", "a5", true),
        ];
        for (from, to, ok) in cases {
            let pos = board(&[(from, 'R'), (to, 'r'), ("g9", 'c')], Color::Red, r);
            assert_eq!(
                pos.is_legal(Move::new(sq(from), sq(to))),
                ok,
                "{r}: {from}{to}"
            );
        }
    }
    // A lion next to a rat in water cannot take it (nor enter the water).
    let pos = board(
        &[("a5", 'L'), ("b5", 'r'), ("g9", 'c')],
        Color::Red,
        "standard",
    );
    assert!(!pos.is_legal(mv("a5b5")));
    assert!(!pos.is_attacked(sq("b5")));
}

#[test]
fn section_5_3_rat_and_elephant() {
    // RULES §5.3: the rat takes the elephant (from land); the elephant never takes the rat
    // outside its own traps.
    let pos = board(&[("a2", 'R'), ("a3", 'e')], Color::Red, "standard");
    assert!(pos.is_legal(mv("a2a3")));
    let pos = board(&[("a2", 'E'), ("a3", 'r')], Color::Red, "standard");
    assert!(!pos.is_legal(mv("a2a3")));
    assert!(pos
        .illegal_reason(mv("a2a3"))
        .unwrap()
        .contains("may not capture"));
}

#[test]
fn section_5_4_equal_animals_and_rank() {
    // RULES §5.4: equal animals capture each other; a lower rank never takes a higher one.
    for r in Role::ALL {
        let pos = board(
            &[
                ("a2", Piece::new(Color::Red, r).char()),
                ("a3", Piece::new(Color::Blue, r).char()),
            ],
            Color::Red,
            "standard",
        );
        assert!(pos.is_legal(mv("a2a3")), "{r}");
    }
    let pos = board(&[("a2", 'C'), ("a3", 'w')], Color::Red, "standard");
    assert!(!pos.is_legal(mv("a2a3")));
}

// ---------------------------------------------------------------------------------------------
// §6 End of the game

#[test]
fn section_6_1_den_entry_wins() {
    // RULES §6.1: the mover wins when an animal enters the enemy den; no moves afterwards.
    let mut game = Game::from_position(board(
        &[("c9", 'D'), ("a1", 'l'), ("g8", 'e')],
        Color::Red,
        "standard",
    ));
    game.play(mv("c9d9")).unwrap();
    let o = Outcome {
        winner: Some(Color::Red),
        termination: Termination::Den,
    };
    assert_eq!(game.outcome(), Some(o));
    assert_eq!(game.position().outcome(), Some(o));
    assert!(game.legal_moves().is_empty());
    assert!(game.position().legal_moves().is_empty());
    assert!(
        game.play(Move::PASS).is_err(),
        "a finished game takes no pass"
    );
    assert!(game.play(mv("a1a2")).is_err());
    // Blue wins the same way in Red's den.
    let mut game = Game::from_position(board(&[("e1", 'c'), ("a9", 'L')], Color::Blue, "standard"));
    game.play(mv("e1d1")).unwrap();
    assert_eq!(game.winner(), Some(Color::Blue));
}

#[test]
fn section_6_2_wipeout_wins() {
    // RULES §6.2: capturing the last enemy animal wins, and it is reported as wipe-out, not as
    // "no legal move" (§6 order).
    let mut game = Game::from_position(board(&[("a2", 'C'), ("a3", 'r')], Color::Red, "standard"));
    game.play(mv("a2a3")).unwrap();
    assert_eq!(
        game.outcome(),
        Some(Outcome {
            winner: Some(Color::Red),
            termination: Termination::Wipeout
        })
    );
}

#[test]
fn section_6_3_no_legal_move_loses() {
    // RULES §6.3: the side to move with every animal blocked loses.
    let mut game = Game::from_position(board(
        &[("a9", 'c'), ("a8", 'D'), ("c9", 'W')],
        Color::Red,
        "standard",
    ));
    assert_eq!(game.outcome(), None);
    game.play(mv("c9b9")).unwrap();
    let o = Outcome {
        winner: Some(Color::Red),
        termination: Termination::NoMoves,
    };
    assert_eq!(game.outcome(), Some(o));
    assert_eq!(game.position().outcome(), Some(o));
    // Such a position is accepted as a start and is already decided.
    let pos = board(
        &[("a9", 'c'), ("a8", 'D'), ("b9", 'W')],
        Color::Blue,
        "standard",
    );
    assert_eq!(pos.count_moves(), 0);
    assert_eq!(Game::from_position(pos).outcome(), Some(o));
}

#[test]
fn section_6_3_no_legal_move_under_section_7() {
    // RULES §6.3 with §7.2: a lone dog that made its side's last 17 moves inside 4 squares may
    // not go back onto any of them; with the third neighbour blocked it has no legal move.
    let start = board(&[("a1", 'D'), ("a3", 'e')], Color::Red, "standard");
    let mut game = Game::from_position(start);
    let lap = ["a1a2", "--", "a2b2", "--", "b2b1", "--", "b1a1", "--"];
    for _ in 0..4 {
        play_all(&mut game, &lap);
    }
    play_all(&mut game, &["a1a2", "--"]);
    assert_eq!(
        game.position().count_moves(),
        2,
        "a1 and b2 by the position rules"
    );
    assert!(game.legal_moves().is_empty());
    assert_eq!(
        game.outcome(),
        Some(Outcome {
            winner: Some(Color::Blue),
            termination: Termination::NoMoves
        })
    );
    // Without 17-5 the game goes on.
    let mut game = Game::from_position(board(&[("a1", 'D'), ("a3", 'e')], Color::Red, "no_17_5"));
    for _ in 0..4 {
        play_all(&mut game, &lap);
    }
    play_all(&mut game, &["a1a2", "--"]);
    assert_eq!(game.outcome(), None);
    assert_eq!(game.legal_moves().len(), 2);
}

#[test]
fn section_6_4_no_capture_draw() {
    // RULES §6.4: 200 plies (100 rounds) without a capture draw; a pass counts as a ply.
    let pos = Jfen::parse_position(
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 198 100",
        Rules::STANDARD,
    )
    .unwrap();
    let mut game = Game::from_position(pos);
    game.play(mv("g3g4")).unwrap();
    assert_eq!(game.outcome(), None, "199 plies");
    game.play(Move::PASS).unwrap();
    assert_eq!(
        game.outcome(),
        Some(Outcome {
            winner: None,
            termination: Termination::DrawPlies
        })
    );
    assert!(game.legal_moves().is_empty());
    // A capture resets the count.
    let pos = board(
        &[("a2", 'C'), ("a3", 'c'), ("g9", 'r')],
        Color::Red,
        "draw_plies=1",
    );
    let mut game = Game::from_position(pos);
    game.play(mv("a2a3")).unwrap();
    assert_eq!(game.position().halfmoves(), 0);
    assert_eq!(game.outcome(), None);
    game.play(mv("g9g8")).unwrap();
    assert_eq!(
        game.outcome().map(|o| o.termination),
        Some(Termination::DrawPlies)
    );
    // draw_plies=N and draw_plies=0 (never).
    let mut game = Game::new(rules("draw_plies=4"));
    play_all(&mut game, &["g3g4", "a7a6", "--"]);
    assert_eq!(game.outcome(), None);
    play_all(&mut game, &["a6a5"]);
    assert_eq!(
        game.outcome().map(|o| o.termination),
        Some(Termination::DrawPlies)
    );
    let pos = Jfen::parse_position(
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 5000 1",
        rules("draw_plies=0"),
    )
    .unwrap();
    assert_eq!(Game::from_position(pos).outcome(), None);
    // A counter already at or over the limit: the game is drawn from the start.
    for h in [200, 201, 4000] {
        let pos = Jfen::parse_position(
            &format!("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r {h} 1"),
            Rules::STANDARD,
        )
        .unwrap();
        assert_eq!(
            Game::from_position(pos).outcome().map(|o| o.termination),
            Some(Termination::DrawPlies)
        );
        // The position itself (no §6.4) still has its moves: perft ignores the counter.
        assert_eq!(pos.count_moves(), 24);
    }
}

#[test]
fn section_6_order_of_checks() {
    // RULES §6: den before wipe-out, wipe-out before no-moves, no-moves before the draw.
    // A Red animal in Blue's den and no Blue animal left: den.
    let pos = board(&[("d9", 'C')], Color::Blue, "standard");
    assert_eq!(pos.outcome().unwrap().termination, Termination::Den);
    // Blue wiped out, Red to move: wipe-out (not Red without moves).
    let pos = board(&[("a1", 'C')], Color::Red, "standard");
    assert_eq!(pos.outcome().unwrap().termination, Termination::Wipeout);
    assert_eq!(pos.outcome().unwrap().winner, Some(Color::Red));
    // Blocked side at the draw limit: no-moves wins over the draw.
    let mut s = board(
        &[("a9", 'c'), ("a8", 'D'), ("b9", 'W')],
        Color::Blue,
        "standard",
    )
    .to_setup();
    s.halfmoves = 250;
    let game = Game::from_position(Position::from_setup(&s, Rules::STANDARD).unwrap());
    assert_eq!(game.outcome().unwrap().termination, Termination::NoMoves);
    // A den entry that also leaves Blue without moves is a den win.
    let mut game = Game::from_position(board(
        &[("c9", 'D'), ("a9", 'c'), ("a8", 'E'), ("b9", 'W')],
        Color::Red,
        "standard",
    ));
    game.play(mv("c9d9")).unwrap();
    assert_eq!(game.outcome().unwrap().termination, Termination::Den);
}

// ---------------------------------------------------------------------------------------------
// §7 Anti-abuse rules

/// Red's rat on g4 with nothing near it; Blue passes.
fn shuttle_position(r: &str, extra: &[(&str, char)]) -> Game {
    let mut pieces = vec![("g4", 'R'), ("a3", 'E'), ("a9", 'c')];
    pieces.extend_from_slice(extra);
    Game::from_position(board(&pieces, Color::Red, r))
}

const SHUTTLE: [&str; 12] = [
    "g4g5", "--", "g5g4", "--", "g4g5", "--", "g5g4", "--", "g4g5", "--", "g5g4", "--",
];

#[test]
fn section_7_1_the_rat_shuttle_example() {
    // RULES §7.1 example: after g4→g5, g5→g4 three times, g4→g5 is forbidden; any other move
    // is allowed.
    let mut game = shuttle_position("standard", &[]);
    play_all(&mut game, &SHUTTLE);
    assert!(!game.is_legal(mv("g4g5")));
    assert!(game.illegal_reason(mv("g4g5")).unwrap().contains("7-3"));
    assert!(game.history_forbids(mv("g4g5")).is_some());
    assert!(
        game.position().is_legal(mv("g4g5")),
        "the position allows it"
    );
    for ok in ["g4g3", "g4f4", "a3a4", "a3a2", "a3b3"] {
        assert!(game.is_legal(mv(ok)), "{ok}");
    }
    let legal: Vec<String> = game.legal_moves().iter().map(|m| m.to_string()).collect();
    assert!(!legal.contains(&"g4g5".to_string()));
    assert_eq!(legal.len(), game.position().legal_moves().len() - 1);
    // Off under no_7_3.
    let mut game = shuttle_position("no_7_3", &[]);
    play_all(&mut game, &SHUTTLE);
    assert!(game.is_legal(mv("g4g5")));
    // Two entries are not enough.
    let mut game = shuttle_position("standard", &[]);
    play_all(&mut game, &SHUTTLE[..8]);
    assert!(game.is_legal(mv("g4g5")));
}

#[test]
fn section_7_1_window_is_seven_own_moves_with_passes() {
    // RULES §7: the window counts the side's own moves, passes included.
    // One pass: g5 was entered 3 times in the last 7 own moves.
    let mut game = shuttle_position("standard", &[]);
    play_all(
        &mut game,
        &[
            "g4g5", "--", "--", "--", "g5g4", "--", "g4g5", "--", "g5g4", "--", "g4g5", "--",
            "g5g4", "--",
        ],
    );
    assert!(!game.is_legal(mv("g4g5")));
    // Two passes push the first entry out of the window.
    let mut game = shuttle_position("standard", &[]);
    play_all(
        &mut game,
        &[
            "g4g5", "--", "--", "--", "--", "--", "g5g4", "--", "g4g5", "--", "g5g4", "--", "g4g5",
            "--", "g5g4", "--",
        ],
    );
    assert!(game.is_legal(mv("g4g5")));
    // Other animals' moves are own moves too.
    let mut game = shuttle_position("standard", &[]);
    play_all(
        &mut game,
        &[
            "g4g5", "--", "a3a4", "--", "a4a3", "--", "g5g4", "--", "g4g5", "--", "g5g4", "--",
            "g4g5", "--", "g5g4", "--",
        ],
    );
    assert!(
        game.is_legal(mv("g4g5")),
        "the first g5 entry is 8 own moves back"
    );
}

#[test]
fn section_7_1_trap_exemption() {
    // RULES §7.1: no restriction when the animal entered a trap in the window.
    let mut game = Game::from_position(board(
        &[("c2", 'R'), ("a9", 'c'), ("g9", 'e')],
        Color::Red,
        "standard",
    ));
    play_all(
        &mut game,
        &[
            "c2c1", "--", "c1c2", "--", "c2c1", "--", "c1c2", "--", "c2c1", "--", "c1c2", "--",
        ],
    );
    assert!(game.is_legal(mv("c2c1")));
    play_all(&mut game, &["c2c1", "--"]);
    assert!(game.is_legal(mv("c1c2")));
    // Blue's traps count as well.
    let mut game = Game::from_position(board(
        &[("c8", 'R'), ("a1", 'c'), ("g1", 'e')],
        Color::Red,
        "standard",
    ));
    play_all(
        &mut game,
        &[
            "c8c9", "--", "c9c8", "--", "c8c9", "--", "c9c8", "--", "c8c9", "--", "c9c8", "--",
        ],
    );
    assert!(game.is_legal(mv("c8c9")));
}

#[test]
fn section_7_1_being_chased_is_judged_before_the_move() {
    // RULES §7.1: exempt when an enemy could capture the animal *before* the move.
    // A Blue wolf on g3 attacks the rat on g4: exempt.
    let mut game = shuttle_position("standard", &[("g3", 'w')]);
    play_all(&mut game, &SHUTTLE);
    assert!(game.position().is_attacked(sq("g4")));
    assert!(game.is_legal(mv("g4g5")));
    // A Blue wolf on g6 attacks g5 (the destination) but not g4: not exempt.
    let mut game = shuttle_position("standard", &[("g6", 'w')]);
    play_all(&mut game, &SHUTTLE);
    assert!(!game.position().is_attacked(sq("g4")));
    assert!(!game.is_legal(mv("g4g5")));
    // An enemy that could reach g4 but may not capture the rat does not chase it.
    let mut game = shuttle_position("standard", &[("g3", 'e')]);
    play_all(&mut game, &SHUTTLE);
    assert!(!game.is_legal(mv("g4g5")));
    // An enemy rat in the water next to it chases it (rats take each other there).
    let mut game = shuttle_position("standard", &[("f4", 'r')]);
    play_all(&mut game, &SHUTTLE);
    assert!(game.is_legal(mv("g4g5")));
    let mut game = shuttle_position("no_shore_rat_capture", &[("f4", 'r')]);
    play_all(&mut game, &SHUTTLE);
    assert!(!game.is_legal(mv("g4g5")));
}

/// A lap of Red's dog round a2 a3 b3 b2 (Blue passes): each square is entered once per 4 own
/// moves, so 7-3 never fires and 17-5 is seen alone.
const LAP: [&str; 8] = ["a2a3", "--", "a3b3", "--", "b3b2", "--", "b2a2", "--"];

fn lap_game(r: &str) -> Game {
    Game::from_position(board(
        &[("a2", 'D'), ("a9", 'c'), ("g7", 'e')],
        Color::Red,
        r,
    ))
}

#[test]
fn section_7_2_seventeen_five() {
    // RULES §7.2: 17 own moves by one animal within at most 5 squares: the 18th may not go
    // onto any of them; other squares stay allowed.
    let mut game = lap_game("standard");
    for _ in 0..4 {
        play_all(&mut game, &LAP);
    }
    // 16 moves are not enough.
    assert!(game.is_legal(mv("a2a3")));
    play_all(&mut game, &LAP[..2]);
    assert_eq!(game.len(), 34, "17 Red moves by the dog");
    // The dog is on a3; its squares were a2 a3 b3 b2.
    assert!(!game.is_legal(mv("a3a2")));
    assert!(!game.is_legal(mv("a3b3")));
    assert!(game.illegal_reason(mv("a3b3")).unwrap().contains("17-5"));
    assert!(game.is_legal(mv("a3a4")));
    assert_eq!(game.legal_moves().len(), 1);
    // Off under no_17_5.
    let mut game = lap_game("no_17_5");
    for _ in 0..4 {
        play_all(&mut game, &LAP);
    }
    play_all(&mut game, &LAP[..2]);
    assert!(game.is_legal(mv("a3a2")) && game.is_legal(mv("a3b3")));
}

#[test]
fn section_7_2_exemptions_and_breaks() {
    // RULES §7.2: exempt when the animal entered a trap; a pass (an own move made by no
    // animal) within the 17 breaks the chain.
    let lap = ["c2c1", "--", "c1b1", "--", "b1b2", "--", "b2c2", "--"];
    let mut game = Game::from_position(board(
        &[("c2", 'D'), ("a9", 'c'), ("g7", 'e')],
        Color::Red,
        "standard",
    ));
    for _ in 0..4 {
        play_all(&mut game, &lap);
    }
    play_all(&mut game, &["c2c1", "--"]);
    assert!(game.is_legal(mv("c1b1")), "c1 is a trap");
    let mut game = lap_game("standard");
    for _ in 0..2 {
        play_all(&mut game, &LAP);
    }
    play_all(&mut game, &["--", "--"]);
    for _ in 0..2 {
        play_all(&mut game, &LAP);
    }
    play_all(&mut game, &LAP[..2]);
    assert!(
        game.is_legal(mv("a3a2")),
        "a Red pass is among the last 17 own moves"
    );
}

#[test]
fn section_7_3_repetition_loss() {
    // RULES §7.3 (repetition_loss): the move making a position occur the 4th time is forbidden
    // to the side that made the first move of the cycle; the other side may make it.
    let cycle = ["g4g5", "a9b9", "g5g4", "b9a9"];
    let mk = |r: &str| shuttle_position(r, &[]);
    let mut game = mk("repetition_loss,no_7_3");
    for _ in 0..2 {
        play_all(&mut game, &cycle);
    }
    play_all(&mut game, &cycle[..3]);
    // Blue's b9a9 makes the start position occur a 4th time, but Red began the cycle.
    assert!(game.is_legal(mv("b9a9")));
    game.play(mv("b9a9")).unwrap();
    // Red's g4g5 would make the position after Red's first move occur a 4th time.
    assert!(!game.is_legal(mv("g4g5")));
    assert!(game
        .illegal_reason(mv("g4g5"))
        .unwrap()
        .contains("repetition"));
    assert!(game.is_legal(mv("g4g3")));
    // Off by default.
    let mut game = mk("no_7_3");
    for _ in 0..3 {
        play_all(&mut game, &cycle);
    }
    assert!(game.is_legal(mv("g4g5")));
    // A cycle begun by Blue: Blue is the one restricted.
    let mut game = shuttle_position("repetition_loss,no_7_3", &[]);
    play_all(&mut game, &["a3a4"]);
    let blue_first = ["a9b9", "g4g5", "b9a9", "g5g4"];
    for _ in 0..2 {
        play_all(&mut game, &blue_first);
    }
    play_all(&mut game, &blue_first[..3]);
    assert!(game.is_legal(mv("g5g4")), "Red did not begin the cycle");
    game.play(mv("g5g4")).unwrap();
    assert!(!game.is_legal(mv("a9b9")));
}

#[test]
fn section_7_applies_to_games_not_positions() {
    // RULES §7: a bare position does not know the history; perft ignores §7.
    let mut game = shuttle_position("standard", &[]);
    play_all(&mut game, &SHUTTLE);
    let pos = *game.position();
    assert!(pos.is_legal(mv("g4g5")));
    assert!(
        Game::from_position(pos).is_legal(mv("g4g5")),
        "history starts afresh"
    );
    // undo restores the earlier legality.
    game.undo();
    game.undo();
    assert!(game.is_legal(mv("g5g4")));
}

// ---------------------------------------------------------------------------------------------
// §9 Variants

#[test]
fn section_9_rule_strings() {
    // RULES §9: `standard` or deviations, order-free, printed in the table's order; an unknown
    // deviation is an error naming it.
    assert_eq!(rules("standard"), Rules::STANDARD);
    assert_eq!(Rules::STANDARD.to_string(), "standard");
    let example = "wolf_over_dog,no_shore_rat_capture,no_7_3,no_17_5";
    let r = rules("no_17_5,no_7_3,no_shore_rat_capture,wolf_over_dog");
    assert_eq!(r.to_string(), example);
    assert_eq!(rules(example), r);
    assert!(r.wolf_over_dog && r.no_shore_rat_capture && !r.rule_7_3 && !r.rule_17_5);
    let all = "wolf_over_dog,only_enemy_rat_blocks,rats_do_not_block,no_shore_rat_capture,no_7_3,no_17_5,repetition_loss,draw_plies=50,no_rivers";
    assert_eq!(rules(all).to_string(), all);
    assert_eq!(rules("draw_plies=0").draw_plies, 0);
    assert_eq!(rules("draw_plies=200"), Rules::STANDARD);
    for bad in [
        "no_such_rule",
        "wolf_over_dog,bogus",
        "draw_plies=x",
        "draw_plies=-1",
    ] {
        let e = bad.parse::<Rules>().unwrap_err();
        let named = bad.rsplit(',').next().unwrap();
        assert!(e.to_string().contains(named), "{bad}: {e}");
    }
    assert!("wolf_over_dog,,no_7_3".parse::<Rules>().is_err());
}

#[test]
fn section_9_deviations_change_perft_only_where_they_should() {
    // RULES §6/§9: perft from the start is the same under every rule set but no_rivers.
    let start = |r: &str| Position::start(rules(r));
    for r in [
        "wolf_over_dog",
        "only_enemy_rat_blocks",
        "rats_do_not_block",
        "no_shore_rat_capture",
        "no_7_3,no_17_5,repetition_loss,draw_plies=10",
    ] {
        assert_eq!(jungle::perft(&start(r), 4), 260_099, "{r}");
    }
    assert_ne!(jungle::perft(&start("no_rivers"), 4), 260_099);
}

#[test]
fn section_10_counters_saturate_instead_of_panicking() {
    // RULES §10: a JFEN may carry any counter; playing on must not overflow. (Bug: `play`
    // panicked with "attempt to add with overflow" on `... r 4294967295 1`; now saturates.)
    let max = u32::MAX;
    let mut pos = Jfen::parse_position(
        &format!("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b {max} {max}"),
        rules("draw_plies=0"),
    )
    .unwrap();
    pos.play(mv("a7a6")).unwrap();
    assert_eq!(pos.halfmoves(), max);
    assert_eq!(pos.fullmoves(), max);
    pos.pass();
    assert_eq!(pos.halfmoves(), max);
    let mut reset = pos.to_setup();
    reset.halfmoves = 0;
    reset.fullmoves = 1;
    let reset = Position::from_setup(&reset, rules("draw_plies=0")).unwrap();
    assert_eq!(jungle::perft(&pos, 3), jungle::perft(&reset, 3));
    let mut game = Game::from_position(pos);
    game.play(Move::PASS).unwrap();
    assert_eq!(game.position().fullmoves(), max);
}
