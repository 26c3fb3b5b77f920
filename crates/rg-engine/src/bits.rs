//! Sets of user variables as bit sets (`Vec<u64>`, bit `v % 64` of word
//! `v / 64`; missing words are empty), for the visited-check analyses
//! (`analysis.rs`, `local.rs`, `lower.rs`).

/// Adds `v` to `set`.
pub fn insert(set: &mut Vec<u64>, v: u32) {
    let i = v as usize / 64;
    if set.len() <= i {
        set.resize(i + 1, 0);
    }
    set[i] |= 1 << (v % 64);
}

/// `set` with `v`.
pub fn with(set: &[u64], v: u32) -> Vec<u64> {
    let mut out = set.to_vec();
    insert(&mut out, v);
    out
}

/// `set` without `v`.
pub fn without(set: &[u64], v: u32) -> Vec<u64> {
    let mut out = set.to_vec();
    if let Some(w) = out.get_mut(v as usize / 64) {
        *w &= !(1 << (v % 64));
    }
    out
}

/// Whether `v` is in `set`.
pub fn contains(set: &[u64], v: u32) -> bool {
    set.get(v as usize / 64)
        .is_some_and(|w| w >> (v % 64) & 1 == 1)
}

/// Whether every member of `a` is in `b`.
pub fn subset(a: &[u64], b: &[u64]) -> bool {
    a.iter()
        .enumerate()
        .all(|(i, &w)| w & !b.get(i).copied().unwrap_or(0) == 0)
}

/// The members of `a` or `b`.
pub fn union(a: &[u64], b: &[u64]) -> Vec<u64> {
    let at = |s: &[u64], i: usize| s.get(i).copied().unwrap_or(0);
    (0..a.len().max(b.len()))
        .map(|i| at(a, i) | at(b, i))
        .collect()
}

/// Whether `a` and `b` share a member.
pub fn intersects(a: &[u64], b: &[u64]) -> bool {
    a.iter().zip(b).any(|(x, y)| x & y != 0)
}

/// Whether `set` has no member.
pub fn is_empty(set: &[u64]) -> bool {
    set.iter().all(|&w| w == 0)
}
