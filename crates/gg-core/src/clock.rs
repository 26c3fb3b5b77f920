//! When a loop of short iterations (playouts, search iterations) reads the
//! clock. Reading it is not free on every machine (over a hundred
//! nanoseconds on this project's virtual machine, next to a tic-tac-toe
//! playout's one or two microseconds), so a loop reads it only every so
//! many iterations, by the rate it has run at so far.

use std::time::{Duration, Instant};

/// Says which iterations of a loop read the clock: about one every
/// `every` of running time, going by the iterations per second so far.
#[derive(Clone, Debug)]
pub struct ClockReads {
    start: Instant,
    every: f64,
    stride: u64,
    next: u64,
}

impl ClockReads {
    /// A loop that started at `start` and reads the clock about once every
    /// `every`; its first iteration reads it.
    pub fn new(start: Instant, every: Duration) -> ClockReads {
        ClockReads {
            start,
            every: every.as_secs_f64(),
            stride: 1,
            next: 0,
        }
    }

    /// The time now when the loop, with `done` iterations finished, should
    /// look at the clock, else `None`. The gap between reads at most
    /// doubles from one read to the next, so a few quick iterations at the
    /// start do not make it skip far past a deadline.
    #[inline]
    pub fn now(&mut self, done: u64) -> Option<Instant> {
        if done < self.next {
            return None;
        }
        let now = Instant::now();
        self.read_at(done, now);
        Some(now)
    }

    /// Sets the next read after one at `now` with `done` iterations finished.
    fn read_at(&mut self, done: u64, now: Instant) {
        let secs = now.saturating_duration_since(self.start).as_secs_f64();
        if done > 0 && secs > 0.0 {
            let wanted = done as f64 / secs * self.every;
            self.stride = wanted.clamp(1.0, (2 * self.stride) as f64) as u64;
        }
        self.next = done + self.stride;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The iterations among `0..n` that read, iteration `i` finishing at
    /// `start + i * each`.
    fn reads(each: Duration, n: u64) -> Vec<u64> {
        let start = Instant::now();
        let mut r = ClockReads::new(start, Duration::from_millis(1));
        (0..n)
            .filter(|&i| {
                let due = i >= r.next;
                if due {
                    r.read_at(i, start + each * i as u32);
                }
                due
            })
            .collect()
    }

    #[test]
    fn gaps_follow_the_rate_and_at_most_double() {
        // A microsecond per iteration: about every 1,000th reads, reached
        // by doubling the gap.
        let fast = reads(Duration::from_micros(1), 5000);
        assert_eq!(
            fast[..12],
            [0, 1, 3, 7, 15, 31, 63, 127, 255, 511, 1023, 2023]
        );
        // A millisecond per iteration: every one reads.
        assert_eq!(reads(Duration::from_millis(1), 5), [0, 1, 2, 3, 4]);
        // Ten milliseconds: every one too (never fewer than one).
        assert_eq!(reads(Duration::from_millis(10), 3), [0, 1, 2]);
    }
}
