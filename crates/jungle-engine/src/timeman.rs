//! Time management: from [`Limits`] to a soft bound (do not start another iteration after it)
//! and a hard bound (stop the search at once).

use crate::Limits;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Time kept back from every budget for the move to travel (process pipes, the server) unless
/// the engine is told otherwise ([`crate::EngineOptions::move_overhead`], the protocol's
/// `MoveOverhead`).
pub const MOVE_OVERHEAD: Duration = Duration::from_millis(15);
/// Moves assumed left in the game when the clock does not say. Jungle games are long (self-play
/// games average about 110 moves a side, many run past 200), so a chess engine's 30–40 spends the
/// clock far too early: by the clock (2+0, doc/strength.md) 50 beat 30 by 135 Elo, 80 beat 50 by
/// 67, 120 beat 80 by 27 and 200 lost to 120 by 55. The share of a move is the time left over the
/// moves to go plus the whole increment.
pub const DEFAULT_MOVES_TO_GO: u32 = 120;

/// The time bounds of one search, measured from its start.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Deadline {
    /// Do not begin a new iteration after this.
    pub soft: Option<Duration>,
    /// Stop searching at this point.
    pub hard: Option<Duration>,
}

impl Deadline {
    /// The bounds for `limits` (none when `infinite`), keeping `overhead` back from every
    /// budget.
    ///
    /// Under a clock the hard bound is 4 shares or 2/5 of the time left after `overhead`,
    /// whichever is less, and at least 1 ms — but never more than 2/5 of the time left itself:
    /// with less time left than `overhead` (or none), the search is a minimal one (it still
    /// answers with a legal move).
    pub fn from_limits(limits: &Limits, overhead: Duration) -> Deadline {
        if limits.infinite {
            return Deadline::default();
        }
        let mut d = Deadline::default();
        if let Some(t) = limits.movetime {
            let t = t.saturating_sub(overhead).max(Duration::from_millis(1));
            d.soft = Some(t);
            d.hard = Some(t);
        }
        if let Some(c) = limits.clock {
            let left = c.time_left.saturating_sub(overhead);
            let mtg = c.moves_to_go.unwrap_or(DEFAULT_MOVES_TO_GO).max(1);
            let share = left / mtg + c.increment;
            let floor = Duration::from_millis(1).min(c.time_left * 2 / 5);
            let hard = (share * 4).min(left * 2 / 5).max(floor);
            let soft = (share * 6 / 10).min(hard);
            d.soft = Some(d.soft.map_or(soft, |s| s.min(soft)));
            d.hard = Some(d.hard.map_or(hard, |h| h.min(hard)));
        }
        d
    }

    /// Whether the hard bound has passed for the search timed by `time` (never while it
    /// ponders).
    #[inline]
    pub fn hard_passed(&self, time: &TimeBase) -> bool {
        Self::passed(self.hard, time)
    }

    /// Whether the soft bound has passed (never while the search ponders).
    #[inline]
    pub fn soft_passed(&self, time: &TimeBase) -> bool {
        Self::passed(self.soft, time)
    }

    #[inline]
    fn passed(bound: Option<Duration>, time: &TimeBase) -> bool {
        bound.is_some_and(|b| time.used().is_some_and(|used| used >= b))
    }
}

/// When a search's time began to count: at its start, or, for a search that ponders
/// ([`crate::Limits::ponder`]), at [`TimeBase::ponderhit`]. Until then no time bound applies.
#[derive(Debug)]
pub struct TimeBase {
    start: Instant,
    /// Nanoseconds after `start` at which the time began to count; [`TimeBase::PONDERING`] until
    /// then.
    from: AtomicU64,
}

impl TimeBase {
    const PONDERING: u64 = u64::MAX;

    /// A search starting now; its time counts from now unless it `ponder`s.
    pub fn new(ponder: bool) -> TimeBase {
        TimeBase {
            start: Instant::now(),
            from: AtomicU64::new(if ponder { Self::PONDERING } else { 0 }),
        }
    }

    /// The time since the search began (pondering included).
    #[inline]
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// The time the search has used of its budget; `None` while it ponders.
    #[inline]
    pub fn used(&self) -> Option<Duration> {
        match self.from.load(Ordering::Relaxed) {
            Self::PONDERING => None,
            from => Some(
                self.start
                    .elapsed()
                    .saturating_sub(Duration::from_nanos(from)),
            ),
        }
    }

    /// Whether the search still ponders.
    #[inline]
    pub fn pondering(&self) -> bool {
        self.from.load(Ordering::Relaxed) == Self::PONDERING
    }

    /// The opponent played the move pondered on: the time counts from now. False when the
    /// search was not pondering.
    pub fn ponderhit(&self) -> bool {
        let now = (self.start.elapsed().as_nanos() as u64).min(Self::PONDERING - 1);
        self.from
            .compare_exchange(Self::PONDERING, now, Ordering::Relaxed, Ordering::Relaxed)
            .is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Clock;

    /// Limits of a game clock alone.
    fn clock(time_left: Duration, increment: Duration, moves_to_go: Option<u32>) -> Limits {
        Limits {
            clock: Some(Clock {
                time_left,
                increment,
                moves_to_go,
            }),
            ..Limits::default()
        }
    }

    #[test]
    fn a_pondering_search_has_no_time_until_ponderhit() {
        let t = TimeBase::new(true);
        assert!(t.pondering());
        assert_eq!(t.used(), None);
        std::thread::sleep(Duration::from_millis(20));
        assert!(t.ponderhit());
        assert!(!t.pondering());
        // The time counts from the hit, not from the start 20 ms before.
        let used = t.used().expect("counting");
        assert!(used < t.elapsed(), "{used:?} of {:?}", t.elapsed());
        assert!(t.elapsed() >= Duration::from_millis(20));
        assert!(!t.ponderhit(), "a second hit changes nothing");
        // A search that does not ponder counts from its start and cannot be hit.
        let t = TimeBase::new(false);
        assert!(!t.pondering());
        assert!(t.used().is_some());
        assert!(!t.ponderhit());
    }

    #[test]
    fn movetime_keeps_an_overhead() {
        let d = Deadline::from_limits(
            &Limits {
                movetime: Some(Duration::from_millis(100)),
                ..Limits::default()
            },
            MOVE_OVERHEAD,
        );
        assert_eq!(d.hard, Some(Duration::from_millis(85)));
    }

    #[test]
    fn the_overhead_is_the_callers() {
        let movetime = Limits {
            movetime: Some(Duration::from_millis(100)),
            ..Limits::default()
        };
        let d = Deadline::from_limits(&movetime, Duration::from_millis(60));
        assert_eq!(d.hard, Some(Duration::from_millis(40)));
        assert_eq!(d.soft, Some(Duration::from_millis(40)));
        let d = Deadline::from_limits(&movetime, Duration::ZERO);
        assert_eq!(d.hard, Some(Duration::from_millis(100)));
        // An overhead beyond the budget still leaves a millisecond to find a move.
        let d = Deadline::from_limits(&movetime, Duration::from_millis(500));
        assert_eq!(d.hard, Some(Duration::from_millis(1)));
        // Under a clock the overhead comes off the time left: 1 s less of 121 s leaves a share of
        // 1 s a move (120 moves to go), of which the soft bound is 6/10.
        let limits = clock(Duration::from_secs(121), Duration::ZERO, None);
        let d = Deadline::from_limits(&limits, Duration::from_secs(1));
        assert_eq!(d.soft, Some(Duration::from_millis(600)));
        assert_eq!(d.hard, Some(Duration::from_secs(4)));
    }

    #[test]
    fn a_given_moves_to_go_is_honoured() {
        // 200 s for 200 moves: a share of 1 s a move, however many moves the clock names.
        let limits = clock(Duration::from_secs(200), Duration::ZERO, Some(200));
        let d = Deadline::from_limits(&limits, Duration::ZERO);
        assert_eq!(d.soft, Some(Duration::from_millis(600)));
        assert_eq!(d.hard, Some(Duration::from_secs(4)));
    }

    #[test]
    fn the_whole_increment_is_spent() {
        // 120 s over 120 moves to go and a 1 s increment: a share of 2 s a move.
        let limits = clock(Duration::from_secs(120), Duration::from_secs(1), None);
        let d = Deadline::from_limits(&limits, Duration::ZERO);
        assert_eq!(d.soft, Some(Duration::from_millis(1200)));
        assert_eq!(d.hard, Some(Duration::from_secs(8)));
    }

    #[test]
    fn a_clock_without_increment_lasts_a_long_game() {
        // Spending the soft bound on each of 110 moves (a typical Jungle game's length a side)
        // leaves over half of a sudden-death clock for the moves after.
        let start = Duration::from_secs(60);
        let mut left = start;
        for _ in 0..110 {
            let d = Deadline::from_limits(&clock(left, Duration::ZERO, None), MOVE_OVERHEAD);
            left -= d.soft.unwrap();
        }
        assert!(left > start / 2, "{left:?} left of {start:?}");
    }

    #[test]
    fn clock_never_spends_more_than_two_fifths() {
        let limits = clock(
            Duration::from_millis(1000),
            Duration::from_secs(10),
            Some(1),
        );
        let d = Deadline::from_limits(&limits, MOVE_OVERHEAD);
        assert!(d.hard.unwrap() <= Duration::from_millis(400));
        assert!(d.soft.unwrap() <= d.hard.unwrap());
    }

    #[test]
    fn a_clock_below_the_overhead_never_spends_more_than_two_fifths_of_it() {
        for ms in [0, 1, 2, 3, 5, 10, 14, 15, 16, 20, 50] {
            let time_left = Duration::from_millis(ms);
            for inc in [0, 100] {
                let limits = clock(time_left, Duration::from_millis(inc), None);
                let d = Deadline::from_limits(&limits, MOVE_OVERHEAD);
                let (soft, hard) = (d.soft.unwrap(), d.hard.unwrap());
                assert!(hard <= time_left * 2 / 5, "{ms} ms + {inc}: hard {hard:?}");
                assert!(
                    soft <= hard,
                    "{ms} ms + {inc}: soft {soft:?}, hard {hard:?}"
                );
            }
        }
        // No time at all: no time to spend (the search still answers, see `search_threads`).
        let d = Deadline::from_limits(&clock(Duration::ZERO, Duration::ZERO, None), MOVE_OVERHEAD);
        assert_eq!(d.hard, Some(Duration::ZERO));
        // With enough time left the millisecond floor stays.
        let d = Deadline::from_limits(
            &clock(Duration::from_millis(20), Duration::ZERO, None),
            MOVE_OVERHEAD,
        );
        assert_eq!(d.hard, Some(Duration::from_millis(1)));
    }

    #[test]
    fn infinite_has_no_bound() {
        let d = Deadline::from_limits(
            &Limits {
                infinite: true,
                movetime: Some(Duration::from_millis(5)),
                ..Limits::default()
            },
            MOVE_OVERHEAD,
        );
        assert_eq!(d, Deadline::default());
    }
}
