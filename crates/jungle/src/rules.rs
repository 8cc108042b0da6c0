//! The rule set: the standard rules or a list of named deviations. RULES §9.

use crate::Role;
use std::fmt;
use std::str::FromStr;

/// A rule set: `standard` or a set of deviations from it (RULES §9). A value, passed explicitly.
///
/// ```
/// use jungle::Rules;
/// let r: Rules = "no_7_3,wolf_over_dog".parse().unwrap();
/// assert_eq!(r.to_string(), "wolf_over_dog,no_7_3");
/// assert_eq!("standard".parse::<Rules>().unwrap(), Rules::STANDARD);
/// assert!("no_such_rule".parse::<Rules>().unwrap_err().to_string().contains("no_such_rule"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rules {
    /// `wolf_over_dog`: Wolf has rank 4, Dog rank 3.
    pub wolf_over_dog: bool,
    /// `only_enemy_rat_blocks`: only an enemy Rat in the water blocks a jump.
    pub only_enemy_rat_blocks: bool,
    /// `rats_do_not_block`: Rats never block jumps.
    pub rats_do_not_block: bool,
    /// `no_shore_rat_capture`: no Rat capture between a water and a land square.
    pub no_shore_rat_capture: bool,
    /// `no_7_3` turns this off: the 7-3 rule of §7.1.
    pub rule_7_3: bool,
    /// `no_17_5` turns this off: the 17-5 rule of §7.2.
    pub rule_17_5: bool,
    /// `repetition_loss`: the repetition rule of §7.3.
    pub repetition_loss: bool,
    /// `draw_plies=N`: plies without capture before a draw (§6.4); 0 = never. Standard 200.
    pub draw_plies: u32,
    /// `no_rivers`: no water, so no swimming and no jumps.
    pub no_rivers: bool,
}

impl Default for Rules {
    fn default() -> Self {
        Rules::STANDARD
    }
}

/// An error in a rule-set string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseRulesError {
    /// The offending item.
    pub item: String,
    /// What is wrong with it.
    pub reason: &'static str,
}

impl fmt::Display for ParseRulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid rules `{}`: {}", self.item, self.reason)
    }
}

impl std::error::Error for ParseRulesError {}

impl Rules {
    /// The standard rules of RULES.md.
    pub const STANDARD: Rules = Rules {
        wolf_over_dog: false,
        only_enemy_rat_blocks: false,
        rats_do_not_block: false,
        no_shore_rat_capture: false,
        rule_7_3: true,
        rule_17_5: true,
        repetition_loss: false,
        draw_plies: 200,
        no_rivers: false,
    };

    /// The deviation names, in printing order.
    pub const DEVIATIONS: [&'static str; 9] = [
        "wolf_over_dog",
        "only_enemy_rat_blocks",
        "rats_do_not_block",
        "no_shore_rat_capture",
        "no_7_3",
        "no_17_5",
        "repetition_loss",
        "draw_plies=N",
        "no_rivers",
    ];

    /// The rank of `role` under these rules (Wolf and Dog swap under `wolf_over_dog`).
    #[inline]
    pub const fn rank(&self, role: Role) -> u8 {
        match (role, self.wolf_over_dog) {
            (Role::Wolf, true) => 4,
            (Role::Dog, true) => 3,
            _ => role.standard_rank(),
        }
    }

    /// Whether `attacker` may capture `defender`, both on land and outside the attacker's traps
    /// (RULES §5.3–5.4).
    #[inline]
    pub const fn outranks(&self, attacker: Role, defender: Role) -> bool {
        match (attacker, defender) {
            (Role::Rat, Role::Elephant) => true,
            (Role::Elephant, Role::Rat) => false,
            _ => self.rank(attacker) >= self.rank(defender),
        }
    }

    /// Whether the rules are those of the standard set.
    pub fn is_standard(&self) -> bool {
        *self == Rules::STANDARD
    }
}

impl FromStr for Rules {
    type Err = ParseRulesError;

    fn from_str(s: &str) -> Result<Rules, ParseRulesError> {
        let s = s.trim();
        let mut r = Rules::STANDARD;
        if s.is_empty() || s.eq_ignore_ascii_case("standard") {
            return Ok(r);
        }
        for item in s.split(',') {
            let item = item.trim();
            let lower = item.to_ascii_lowercase();
            let err = |reason| ParseRulesError {
                item: item.to_string(),
                reason,
            };
            match lower.as_str() {
                "standard" => {}
                "wolf_over_dog" => r.wolf_over_dog = true,
                "only_enemy_rat_blocks" => r.only_enemy_rat_blocks = true,
                "rats_do_not_block" => r.rats_do_not_block = true,
                "no_shore_rat_capture" => r.no_shore_rat_capture = true,
                "no_7_3" => r.rule_7_3 = false,
                "no_17_5" => r.rule_17_5 = false,
                "repetition_loss" => r.repetition_loss = true,
                "no_rivers" => r.no_rivers = true,
                "" => return Err(err("empty deviation (stray comma?)")),
                other => {
                    if let Some(n) = other.strip_prefix("draw_plies=") {
                        r.draw_plies = n.parse().map_err(|_| {
                            err("draw_plies needs a whole number of plies, like draw_plies=100")
                        })?;
                    } else {
                        return Err(err(
                            "unknown deviation; known: wolf_over_dog, only_enemy_rat_blocks, rats_do_not_block, \
                             no_shore_rat_capture, no_7_3, no_17_5, repetition_loss, draw_plies=N, no_rivers",
                        ));
                    }
                }
            }
        }
        Ok(r)
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut items: Vec<String> = Vec::new();
        let flags = [
            (self.wolf_over_dog, "wolf_over_dog"),
            (self.only_enemy_rat_blocks, "only_enemy_rat_blocks"),
            (self.rats_do_not_block, "rats_do_not_block"),
            (self.no_shore_rat_capture, "no_shore_rat_capture"),
            (!self.rule_7_3, "no_7_3"),
            (!self.rule_17_5, "no_17_5"),
            (self.repetition_loss, "repetition_loss"),
        ];
        for (on, name) in flags {
            if on {
                items.push(name.to_string());
            }
        }
        if self.draw_plies != 200 {
            items.push(format!("draw_plies={}", self.draw_plies));
        }
        if self.no_rivers {
            items.push("no_rivers".to_string());
        }
        if items.is_empty() {
            f.write_str("standard")
        } else {
            f.write_str(&items.join(","))
        }
    }
}
