//! Proptest strategies shared by the integration tests.

use jungle::Rules;
use proptest::prelude::*;

/// Any rule set: every deviation of RULES §9 on or off, and the no-capture draw at its standard
/// 200 plies or anywhere below 1 000.
pub fn any_rules() -> impl Strategy<Value = Rules> {
    (any::<[bool; 8]>(), prop_oneof![Just(200u32), 0u32..1000]).prop_map(|(f, n)| Rules {
        wolf_over_dog: f[0],
        only_enemy_rat_blocks: f[1],
        rats_do_not_block: f[2],
        no_shore_rat_capture: f[3],
        rule_7_3: f[4],
        rule_17_5: f[5],
        repetition_loss: f[6],
        no_rivers: f[7],
        draw_plies: n,
    })
}
