//! A [`Run`](super::runs::Run)'s passing symbols as one bit mask, when its
//! passing values are one range of `u16`s and it has at most 64 symbols
//! ([`Range`]): the values compared eight at a time (SSE2 on x86-64, a
//! loop elsewhere) instead of one table lookup and one branch each.
//!
//! A check's program scans its any-assignment's symbols as one mask,
//! highest first (`walk/program.rs`, englishDraughts' "some piece of mine
//! can capture"); the walk's filter (`Filter::Mask`, `walk/filter.rs`)
//! takes one mask when its frame's scan starts and every later symbol
//! from it (a whole mask per symbol taken cost englishDraughts 0.7% more
//! than the table's scan); [`Range::last`] resumes below a symbol, eight
//! values a step, where no frame keeps the mask. Callgrind instructions per playout (`rbg bench --engine interp`,
//! seed 1, in `play_random`) against 5d4e544: englishDraughts 573,565
//! -> 560,162 (-2.3%) for the masks alone (`Sealed::leaf_of_key` for
//! the rest).

/// Passing values `lo ..= lo + width` (every `u16` among them passes, no
/// other does) of a run of at most [`MAX_LEN`] symbols.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Range {
    pub(crate) lo: u16,
    pub(crate) width: u16,
}

/// Symbols of a run at most that a mask ([`u64`]) holds.
pub(crate) const MAX_LEN: usize = 64;

impl Range {
    /// The range of the values `pass` accepts, if they are one (and some).
    pub(crate) fn of(pass: &[bool; 1 << 16]) -> Option<Range> {
        let lo = pass.iter().position(|&p| p)?;
        let hi = pass.iter().rposition(|&p| p)?;
        pass[lo..=hi].iter().all(|&p| p).then_some(Range {
            lo: lo as u16,
            width: (hi - lo) as u16,
        })
    }

    /// Whether `v` passes.
    #[inline(always)]
    fn passes(self, v: u16) -> bool {
        v.wrapping_sub(self.lo) <= self.width
    }

    /// Bit `i` set iff `vals[i]` passes (`vals` at most [`MAX_LEN`] long).
    #[inline(always)]
    pub(crate) fn mask(self, vals: &[u16]) -> u64 {
        debug_assert!(vals.len() <= MAX_LEN);
        #[cfg(target_arch = "x86_64")]
        {
            self.mask_sse2(vals)
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            self.mask_of(vals, 0)
        }
    }

    /// [`Range::mask`] of `vals` from `from` on, one value at a time.
    #[inline(always)]
    fn mask_of(self, vals: &[u16], from: usize) -> u64 {
        let mut m = 0;
        for (i, &v) in vals.iter().enumerate().skip(from) {
            m |= (self.passes(v) as u64) << i;
        }
        m
    }

    /// [`Range::mask`] with SSE2 (part of x86-64): sixteen values a
    /// step, then eight, then the last eight again (overlapping) or,
    /// fewer than eight in all, one at a time.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn mask_sse2(self, vals: &[u16]) -> u64 {
        use std::arch::x86_64::*;
        let n = vals.len();
        // SAFETY: SSE2 is enabled on every x86-64 target; each load reads
        // eight values at `i .. i + 8 <= n` of `vals`.
        unsafe {
            let lo = _mm_set1_epi16(self.lo as i16);
            let width = _mm_set1_epi16(self.width as i16);
            let zero = _mm_setzero_si128();
            // Each lane all ones iff its value passes: `v - lo`
            // (wrapping), less `width` (saturating), is 0.
            let lanes = |i: usize| {
                let v = _mm_loadu_si128(vals.as_ptr().add(i) as *const __m128i);
                _mm_cmpeq_epi16(_mm_subs_epu16(_mm_sub_epi16(v, lo), width), zero)
            };
            // One bit a lane (of `a`, then `b`).
            let bits = |a, b| _mm_movemask_epi8(_mm_packs_epi16(a, b)) as u32 as u64;
            let mut m = 0;
            let mut i = 0;
            while i + 16 <= n {
                m |= bits(lanes(i), lanes(i + 8)) << i;
                i += 16;
            }
            if i + 8 <= n {
                m |= bits(lanes(i), zero) << i;
                i += 8;
            }
            match i < n {
                true if n >= 8 => m | bits(lanes(n - 8), zero) << (n - 8),
                true => m | self.mask_of(vals, i),
                false => m,
            }
        }
    }
}

impl Range {
    /// The highest index `i <= hi` (`hi` below `vals.len()`) whose value
    /// passes, if any: eight values a step down from `hi` (SSE2 on
    /// x86-64), where a scan resumed after the last passing symbol finds
    /// the next one in its first step when passing values are dense.
    /// Tried and dropped: the values below the last step of eight read
    /// as the run's first eight, not one at a time (englishDraughts
    /// +0.14%).
    #[inline(always)]
    pub(crate) fn last(self, vals: &[u16], hi: u32) -> Option<u32> {
        debug_assert!((hi as usize) < vals.len());
        #[cfg(target_arch = "x86_64")]
        {
            self.last_sse2(vals, hi as usize)
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            vals[..=hi as usize]
                .iter()
                .rposition(|&v| self.passes(v))
                .map(|i| i as u32)
        }
    }

    /// [`Range::last`] with SSE2.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn last_sse2(self, vals: &[u16], hi: usize) -> Option<u32> {
        use std::arch::x86_64::*;
        let vals = &vals[..=hi];
        // SAFETY: SSE2 is enabled on every x86-64 target; each load reads
        // eight values at `end - 8 .. end <= vals.len()`.
        unsafe {
            let lo = _mm_set1_epi16(self.lo as i16);
            let width = _mm_set1_epi16(self.width as i16);
            let zero = _mm_setzero_si128();
            // Two bits a lane, both set iff its value passes.
            let bits = |end: usize| {
                let v = _mm_loadu_si128(vals.as_ptr().add(end - 8) as *const __m128i);
                let c = _mm_cmpeq_epi16(_mm_subs_epu16(_mm_sub_epi16(v, lo), width), zero);
                _mm_movemask_epi8(c) as u32
            };
            let mut end = vals.len();
            while end >= 8 {
                if let Some(b) = bits(end).checked_ilog2() {
                    return Some((end - 8) as u32 + b / 2);
                }
                end -= 8;
            }
            vals[..end]
                .iter()
                .rposition(|&v| self.passes(v))
                .map(|i| i as u32)
        }
    }
}

/// The bits of `m` at `0 ..= hi` (`hi` below 64).
#[inline(always)]
pub(crate) fn up_to(m: u64, hi: u32) -> u64 {
    m & (u64::MAX >> (63 - hi))
}

/// The highest set bit of `m`, if any.
#[inline(always)]
pub(crate) fn highest(m: u64) -> Option<u32> {
    m.checked_ilog2()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mask_has_the_bits_of_the_passing_values() {
        let r = Range { lo: 5, width: 2 };
        let mut x: u32 = 12345;
        for n in 0..=MAX_LEN {
            for _ in 0..20 {
                let vals: Vec<u16> = (0..n)
                    .map(|_| {
                        x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                        [0, 4, 5, 6, 7, 8, 9, u16::MAX][(x >> 16) as usize % 8]
                    })
                    .collect();
                let want = (0..n).fold(0, |m, i| m | ((5..=7).contains(&vals[i]) as u64) << i);
                assert_eq!(r.mask(&vals), want, "{vals:?}");
                assert_eq!(r.mask_of(&vals, 0), want, "{vals:?}");
                for hi in 0..n as u32 {
                    assert_eq!(r.last(&vals, hi), highest(up_to(want, hi)), "{vals:?} {hi}");
                }
            }
        }
    }

    #[test]
    fn a_range_is_all_the_passing_values_and_only_them() {
        let mut pass: Box<[bool; 1 << 16]> = vec![false; 1 << 16].try_into().unwrap();
        assert_eq!(Range::of(&pass), None);
        pass[7] = true;
        pass[8] = true;
        assert_eq!(Range::of(&pass), Some(Range { lo: 7, width: 1 }));
        pass[10] = true;
        assert_eq!(Range::of(&pass), None);
        // `!= 0`: every value but one, not a range.
        let all_but: Box<[bool; 1 << 16]> = (0..=u16::MAX)
            .map(|v| v != 0)
            .collect::<Vec<_>>()
            .try_into()
            .unwrap();
        assert_eq!(
            Range::of(&all_but),
            Some(Range {
                lo: 1,
                width: u16::MAX - 1
            })
        );
        let all_but: Box<[bool; 1 << 16]> = (0..=u16::MAX)
            .map(|v| v != 9)
            .collect::<Vec<_>>()
            .try_into()
            .unwrap();
        assert_eq!(Range::of(&all_but), None);
        assert_eq!(up_to(0b1011, 1), 0b11);
        assert_eq!(up_to(u64::MAX, 63), u64::MAX);
        assert_eq!(highest(0b1010), Some(3));
        assert_eq!(highest(0), None);
    }
}
