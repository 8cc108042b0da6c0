//! Targeted perft positions for each capture, jump, water and trap rule (RULES §4–§6), in the
//! standard set and in each deviation of §9. The golden numbers live in `tests/positions.perft`
//! (format: `JFEN ; rules ; depth ; nodes`, one line per depth, `#` comments); they were computed
//! by the independent mailbox generator of `support/reference.rs` and are checked here against
//! both `jungle::perft` and the reference again.
//!
//! To regenerate the file after changing [`SPECS`]:
//! `cargo test -p jungle --test perft_positions -- --ignored regenerate`.

mod support;

use jungle::{perft, perft_divide, Jfen, Rules};
use support::reference::{RefPos, RefRules};

/// A targeted position: what it tests, its JFEN, the rule sets and the deepest depth.
struct Spec {
    what: &'static str,
    jfen: &'static str,
    rules: &'static [&'static str],
    depth: u32,
}

const ALL_DEVIATIONS: &[&str] = &[
    "standard",
    "wolf_over_dog",
    "only_enemy_rat_blocks",
    "rats_do_not_block",
    "no_shore_rat_capture",
    "no_rivers",
];

const SPECS: &[Spec] = &[
    Spec {
        what: "RULES §3/§6: the start position under no_rivers (the only rule set that changes it)",
        jfen: "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 0 1",
        rules: &["no_rivers", "wolf_over_dog,only_enemy_rat_blocks,no_shore_rat_capture"],
        depth: 5,
    },
    Spec {
        what: "RULES §4.4: horizontal jumps a5->d5, g5->d5 blocked by an enemy and an own rat in the water",
        jfen: "l5t/7/1e3p1/7/L1r1R1T/7/1D5/7/7 r 0 1",
        rules: ALL_DEVIATIONS,
        depth: 5,
    },
    Spec {
        what: "RULES §4.4: vertical jumps b3->b7 (blocked), f3->f7 (a capture), c7->c3 for Blue",
        jfen: "7/4l2/2t2p1/7/1r5/7/1L1W1T1/7/7 r 0 1",
        rules: ALL_DEVIATIONS,
        depth: 5,
    },
    Spec {
        what: "RULES §4.4: the same, Blue to move",
        jfen: "7/4l2/2t2p1/7/1r5/7/1L1W1T1/7/7 b 0 1",
        rules: ALL_DEVIATIONS,
        depth: 5,
    },
    Spec {
        what: "RULES §4.3/§5.2: rats in water next to elephants and rats on the shore",
        jfen: "6l/7/7/1r5/eR1C3/E6/7/7/7 r 0 1",
        rules: ALL_DEVIATIONS,
        depth: 6,
    },
    Spec {
        what: "RULES §4.2/§5.1/§6.1: traps and dens on both sides, attackers and defenders on traps",
        jfen: "1dL1l2/3Tw2/7/7/7/7/3W3/3cC2/1Er1e2 r 0 1",
        rules: &["standard", "wolf_over_dog", "no_rivers"],
        depth: 5,
    },
    Spec {
        what: "RULES §4.2/§5.1/§6.1: the same, Blue to move",
        jfen: "1dL1l2/3Tw2/7/7/7/7/3W3/3cC2/1Er1e2 b 0 1",
        rules: &["standard", "wolf_over_dog"],
        depth: 5,
    },
    Spec {
        what: "RULES §2/§5.4: wolves and dogs face to face on the middle bridge",
        jfen: "7/7/7/3w3/3d3/3W3/3D3/7/7 b 0 1",
        rules: &["standard", "wolf_over_dog", "no_rivers"],
        depth: 6,
    },
    Spec {
        what: "RULES §5: a middle game with a rat in the water and a lion on the bridge",
        jfen: "l5t/1d1r1c1/2p1w1e/1R5/3L3/7/E1W1P2/1C3D1/T6 b 3 7",
        rules: &["standard", "wolf_over_dog", "only_enemy_rat_blocks", "no_shore_rat_capture"],
        depth: 5,
    },
    Spec {
        what: "RULES §6.1: Red already in Blue's den: no moves",
        jfen: "3C3/7/7/7/7/7/7/7/r6 b 0 1",
        rules: &["standard"],
        depth: 3,
    },
    Spec {
        what: "RULES §6.2/§6.3: a lone cat hemmed in (no legal move), and a lone rat",
        jfen: "cW5/D6/7/7/7/7/7/7/6R b 0 1",
        rules: &["standard"],
        depth: 4,
    },
    Spec {
        what: "RULES §6.2: one capture ends the game (a finished position is a leaf)",
        jfen: "7/7/7/7/7/7/r6/C6/7 r 0 1",
        rules: &["standard", "no_shore_rat_capture"],
        depth: 5,
    },
];

/// One line of the data file.
#[derive(Debug)]
struct Line {
    jfen: String,
    rules: String,
    depth: u32,
    nodes: u64,
}

fn data_path() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/positions.perft")
}

fn read_lines() -> Vec<Line> {
    let text = std::fs::read_to_string(data_path()).expect("tests/positions.perft");
    text.lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split(';').map(str::trim).collect();
            assert_eq!(f.len(), 4, "malformed line `{l}`");
            Line {
                jfen: f[0].to_string(),
                rules: f[1].to_string(),
                depth: f[2].parse().expect("depth"),
                nodes: f[3].parse().expect("nodes"),
            }
        })
        .collect()
}

#[test]
fn fast_perft_matches_the_golden_numbers() {
    // RULES §4–§6, §9: every targeted position, rule set and depth.
    let lines = read_lines();
    assert!(lines.len() >= 100, "the data file lost lines");
    let mut rule_sets = std::collections::BTreeSet::new();
    for line in &lines {
        let rules: Rules = line.rules.parse().expect("rule set");
        rule_sets.insert(line.rules.clone());
        let pos = Jfen::parse_position(&line.jfen, rules).expect("valid position");
        assert_eq!(perft(&pos, line.depth), line.nodes, "{line:?}");
        // The divided counts add up to the same total.
        if line.depth >= 1 {
            let divided: u64 = perft_divide(&pos, line.depth).iter().map(|d| d.1).sum();
            assert_eq!(divided, line.nodes, "divide {line:?}");
        }
    }
    for deviation in ALL_DEVIATIONS {
        assert!(rule_sets.contains(*deviation), "{deviation} not covered");
    }
}

#[test]
fn reference_perft_matches_the_golden_numbers() {
    // The independent generator agrees with the data file (cheap lines only, to stay quick).
    for line in read_lines().iter().filter(|l| l.nodes <= 1_000_000) {
        let rules = RefRules::parse(&line.rules).expect("rule set");
        let pos = RefPos::from_jfen(&line.jfen, rules).expect("valid position");
        assert_eq!(pos.perft(line.depth), line.nodes, "{line:?}");
    }
}

#[test]
fn reference_perft_from_the_start_matches_rules() {
    // RULES §6: the independent generator reproduces the published start figures (1-4 here;
    // the fast generator checks 1-6 in perft_start.rs and 7-8 as ignored tests).
    let pos = RefPos::from_jfen(jungle::START_JFEN, RefRules::STANDARD).unwrap();
    let expected = [24, 576, 12_240, 260_099];
    for (d, n) in (1..).zip(expected) {
        assert_eq!(pos.perft(d), n, "depth {d}");
    }
}

#[test]
fn targeted_positions_differ_between_deviations() {
    // Each deviation changes the count of at least one targeted position (otherwise the
    // positions would not test it).
    let lines = read_lines();
    let count = |jfen: &str, rules: &str, depth: u32| {
        lines
            .iter()
            .find(|l| l.jfen == jfen && l.rules == rules && l.depth == depth)
            .map(|l| l.nodes)
    };
    for deviation in &ALL_DEVIATIONS[1..] {
        let differs = lines
            .iter()
            .filter(|l| l.rules == *deviation)
            .any(|l| count(&l.jfen, "standard", l.depth).is_some_and(|n| n != l.nodes));
        assert!(differs, "{deviation} changes no targeted count");
    }
}

#[test]
#[ignore = "rewrites tests/positions.perft from SPECS with the reference generator"]
fn regenerate() {
    let mut out = String::from(
        "# Targeted perft positions for RULES §4-§6 and the deviations of §9.\n\
         # Format: JFEN ; rules ; depth ; nodes   (one line per depth; `#` starts a comment)\n\
         # Perft counts legal move sequences of a position (§4-§6.2, no §6.4, no §7); a move\n\
         # that ends the game is a leaf. Numbers from the reference mailbox generator\n\
         # (tests/support/reference.rs), cross-checked with jungle::perft by perft_positions.rs.\n\
         # Regenerate: cargo test -p jungle --test perft_positions -- --ignored regenerate\n",
    );
    for spec in SPECS {
        out.push_str(&format!("\n# {}\n", spec.what));
        for r in spec.rules {
            let pos = RefPos::from_jfen(spec.jfen, RefRules::parse(r).unwrap())
                .unwrap_or_else(|e| panic!("{}: {e}", spec.jfen));
            for d in 1..=spec.depth {
                out.push_str(&format!("{} ; {r} ; {d} ; {}\n", spec.jfen, pos.perft(d)));
            }
        }
    }
    std::fs::write(data_path(), out).expect("write tests/positions.perft");
}
