//! Scores, levels and coins (RULES §8.5) and the Glicko-2 rating kept alongside for pairing.

use serde::{Deserialize, Serialize};

/// Coins a new account starts with.
pub const START_COINS: i64 = 1000;
/// Coins lost by a loss by leaving or disconnecting (RULES §8.3).
pub const LEAVE_PENALTY_COINS: i64 = 10;
/// Points the loser of a decisive rated game loses (RULES §8.5).
pub const LOSER_POINTS: i64 = 2;
/// Games ending within this many plies (10 rounds, the last ply included) change no score
/// (RULES §8.5): a game scores from its 21st ply on.
pub const SHORT_GAME_PLIES: usize = 20;

/// One row of the level table: from `min_score` on, a player has this level.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Level {
    /// The level number, from 1.
    pub level: i64,
    /// The lowest score of this level.
    pub min_score: i64,
    /// Its English name.
    pub name_en: String,
    /// Its Chinese name (Simplified characters).
    pub name_zh: String,
    /// Its Chinese name in Traditional characters. Optional in a level file (older files have
    /// none): [`LevelTable::new`] fills it with `name_zh` then.
    #[serde(default)]
    pub name_zh_hant: String,
}

/// The level table (级别表), ordered by score; configurable with `--levels FILE` (a JSON list of
/// [`Level`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LevelTable(Vec<Level>);

impl Default for LevelTable {
    fn default() -> Self {
        let rows = [
            (0, "Beginner", "入门", "入門"),
            (10, "Novice", "新手", "新手"),
            (30, "Apprentice", "学徒", "學徒"),
            (60, "Amateur 1", "业余一级", "業餘一級"),
            (100, "Amateur 2", "业余二级", "業餘二級"),
            (160, "Amateur 3", "业余三级", "業餘三級"),
            (250, "Expert", "高手", "高手"),
            (400, "Master", "大师", "大師"),
            (600, "Grandmaster", "特级大师", "特級大師"),
            (900, "Legend", "传奇", "傳奇"),
        ];
        LevelTable(
            rows.iter()
                .enumerate()
                .map(|(i, (min, en, zh, hant))| Level {
                    level: i as i64 + 1,
                    min_score: *min,
                    name_en: (*en).into(),
                    name_zh: (*zh).into(),
                    name_zh_hant: (*hant).into(),
                })
                .collect(),
        )
    }
}

impl LevelTable {
    /// A table from rows; they must start at score 0 with strictly rising scores and levels.
    pub fn new(mut rows: Vec<Level>) -> Result<LevelTable, String> {
        rows.sort_by_key(|l| l.min_score);
        for l in &mut rows {
            if l.name_zh_hant.is_empty() {
                l.name_zh_hant = l.name_zh.clone();
            }
        }
        if rows.first().map(|l| l.min_score) != Some(0) {
            return Err("the level table must have a level starting at score 0".into());
        }
        if let Some(l) = rows.iter().find(|l| l.level < 1) {
            return Err(format!(
                "level {} (from score {}): levels count from 1",
                l.level, l.min_score
            ));
        }
        for w in rows.windows(2) {
            if w[0].min_score == w[1].min_score || w[0].level >= w[1].level {
                return Err(format!(
                    "levels must rise with distinct minimum scores: level {} from score {} and \
                     level {} from score {}",
                    w[0].level, w[0].min_score, w[1].level, w[1].min_score
                ));
            }
        }
        Ok(LevelTable(rows))
    }

    /// The rows.
    pub fn rows(&self) -> &[Level] {
        &self.0
    }

    /// The level of a score.
    pub fn level_of(&self, score: i64) -> i64 {
        self.0
            .iter()
            .rev()
            .find(|l| score >= l.min_score)
            .map_or(1, |l| l.level)
    }
}

/// New scores `(winner, loser)` after a decisive scoring game (RULES §8.5): the winner gains the
/// loser's level (at least 1), the loser loses 2, never below 0.
pub fn decisive_scores(table: &LevelTable, winner_score: i64, loser_score: i64) -> (i64, i64) {
    let gain = table.level_of(loser_score).max(1);
    (winner_score + gain, (loser_score - LOSER_POINTS).max(0))
}

/// A Glicko-2 rating on the Glicko scale.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rating {
    /// The rating (starts at 1500).
    pub rating: f64,
    /// The rating deviation (starts at 350).
    pub rd: f64,
    /// The volatility (starts at 0.06).
    pub vol: f64,
}

impl Default for Rating {
    fn default() -> Self {
        Rating {
            rating: 1500.0,
            rd: 350.0,
            vol: 0.06,
        }
    }
}

const GLICKO_SCALE: f64 = 173.7178;
const TAU: f64 = 0.5;

impl Rating {
    /// The rating after one game against `opp` with result `score` (1 win, 0.5 draw, 0 loss),
    /// one rating period per game (Glickman's Glicko-2 algorithm).
    pub fn after_game(self, opp: Rating, score: f64) -> Rating {
        let mu = (self.rating - 1500.0) / GLICKO_SCALE;
        let phi = self.rd / GLICKO_SCALE;
        let mu_j = (opp.rating - 1500.0) / GLICKO_SCALE;
        let phi_j = opp.rd / GLICKO_SCALE;
        let g = 1.0 / (1.0 + 3.0 * phi_j * phi_j / (std::f64::consts::PI.powi(2))).sqrt();
        let e = 1.0 / (1.0 + (-g * (mu - mu_j)).exp());
        let v = 1.0 / (g * g * e * (1.0 - e));
        let delta = v * g * (score - e);
        // New volatility by the Illinois algorithm.
        let a = (self.vol * self.vol).ln();
        let f = |x: f64| {
            let ex = x.exp();
            ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex).powi(2))
                - (x - a) / (TAU * TAU)
        };
        let mut big_a = a;
        let mut big_b = if delta * delta > phi * phi + v {
            (delta * delta - phi * phi - v).ln()
        } else {
            let mut k = 1.0;
            while f(a - k * TAU) < 0.0 && k < 100.0 {
                k += 1.0;
            }
            a - k * TAU
        };
        let (mut fa, mut fb) = (f(big_a), f(big_b));
        let mut guard = 0;
        while (big_b - big_a).abs() > 1e-6 && guard < 100 {
            let c = big_a + (big_a - big_b) * fa / (fb - fa);
            let fc = f(c);
            if fc * fb <= 0.0 {
                big_a = big_b;
                fa = fb;
            } else {
                fa /= 2.0;
            }
            big_b = c;
            fb = fc;
            guard += 1;
        }
        let vol = (big_a / 2.0).exp();
        let phi_star = (phi * phi + vol * vol).sqrt();
        let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu_new = mu + phi_new * phi_new * g * (score - e);
        Rating {
            rating: mu_new * GLICKO_SCALE + 1500.0,
            rd: (phi_new * GLICKO_SCALE).clamp(30.0, 350.0),
            vol,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // RULES §8.5
    #[test]
    fn levels_are_read_from_the_table() {
        let t = LevelTable::default();
        assert_eq!(t.level_of(0), 1);
        assert_eq!(t.level_of(9), 1);
        assert_eq!(t.level_of(10), 2);
        assert_eq!(t.level_of(100_000), 10);
    }

    // RULES §8.5
    #[test]
    fn winner_gains_the_losers_level_and_loser_loses_two_never_below_zero() {
        let t = LevelTable::default();
        assert_eq!(decisive_scores(&t, 0, 0), (1, 0));
        assert_eq!(decisive_scores(&t, 5, 100), (5 + 5, 98));
        assert_eq!(decisive_scores(&t, 7, 1), (8, 0));
    }

    #[test]
    fn bad_level_tables_are_refused() {
        let l = |level, min_score| Level {
            level,
            min_score,
            name_en: "x".into(),
            name_zh: "x".into(),
            name_zh_hant: "x".into(),
        };
        assert!(LevelTable::new(vec![l(1, 5)]).is_err());
        assert!(LevelTable::new(vec![l(1, 0), l(2, 0)]).is_err());
        assert!(LevelTable::new(vec![l(1, 0), l(2, 10)]).is_ok());
        // Levels count from 1; the entries at fault are named.
        let e = LevelTable::new(vec![l(-3, 0)]).unwrap_err();
        assert_eq!(e, "level -3 (from score 0): levels count from 1");
        let e = LevelTable::new(vec![l(1, 0), l(3, 10), l(2, 20)]).unwrap_err();
        assert!(
            e.contains("level 3 from score 10 and level 2 from score 20"),
            "{e}"
        );
    }

    #[test]
    fn older_level_files_without_traditional_names_still_load() {
        let old = r#"[{"level":1,"min_score":0,"name_en":"Cub","name_zh":"幼崽"},
                      {"level":2,"min_score":5,"name_en":"Hunter","name_zh":"猎手","name_zh_hant":"獵手"}]"#;
        let rows: Vec<Level> = serde_json::from_str(old).unwrap();
        let t = LevelTable::new(rows).unwrap();
        assert_eq!(t.rows()[0].name_zh_hant, "幼崽");
        assert_eq!(t.rows()[1].name_zh_hant, "獵手");
        let d = LevelTable::default();
        assert_eq!(d.rows()[2].name_zh, "学徒");
        assert_eq!(d.rows()[2].name_zh_hant, "學徒");
    }

    #[test]
    fn glicko_matches_glickmans_worked_example_direction_and_size() {
        // Glickman's example player (1500, 200) beating a 1400/30 player gains about 60 points.
        let p = Rating {
            rating: 1500.0,
            rd: 200.0,
            vol: 0.06,
        };
        let o = Rating {
            rating: 1400.0,
            rd: 30.0,
            vol: 0.06,
        };
        let won = p.after_game(o, 1.0);
        assert!(won.rating > 1550.0 && won.rating < 1580.0, "{won:?}");
        assert!(won.rd < 200.0);
        let lost = p.after_game(o, 0.0);
        assert!(lost.rating < 1500.0);
        let drew = p.after_game(p, 0.5);
        assert!((drew.rating - 1500.0).abs() < 1e-6);
    }
}
