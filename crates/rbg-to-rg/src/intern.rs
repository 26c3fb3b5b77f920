//! Values numbered in order of first appearance, up to a cap: the analyses'
//! composed shifts (`simulate.rs`) and fact maps (`history.rs`), bounded so
//! that no description makes them grow without limit.

use std::collections::HashMap;
use std::hash::Hash;
use std::ops::Index;

/// Distinct values numbered `0, 1, ...` as first seen, at most `cap` of them.
pub(crate) struct Capped<T> {
    values: Vec<T>,
    ids: HashMap<T, usize>,
    cap: usize,
}

impl<T: Clone + Eq + Hash> Capped<T> {
    /// An empty numbering that takes at most `cap` values.
    pub(crate) fn new(cap: usize) -> Self {
        Capped {
            values: Vec::new(),
            ids: HashMap::new(),
            cap,
        }
    }

    /// The same numbering, taking `more` values beyond those it has.
    pub(crate) fn with_room(&self, more: usize) -> Self {
        Capped {
            values: self.values.clone(),
            ids: self.ids.clone(),
            cap: self.values.len() + more,
        }
    }

    /// `v`'s number; `None` when `v` is new and `cap` values are numbered.
    pub(crate) fn id(&mut self, v: T) -> Option<usize> {
        if let Some(&id) = self.ids.get(&v) {
            return Some(id);
        }
        if self.values.len() == self.cap {
            return None;
        }
        self.values.push(v.clone());
        self.ids.insert(v, self.values.len() - 1);
        Some(self.values.len() - 1)
    }
}

impl<T> Index<usize> for Capped<T> {
    type Output = T;

    fn index(&self, id: usize) -> &T {
        &self.values[id]
    }
}
