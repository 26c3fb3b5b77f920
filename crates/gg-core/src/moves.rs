//! Lists of moves, each move a sequence of atoms, stored flat.

/// A list of moves stored flat (one allocation, reused between calls).
/// Every move is a slice of atoms (`A` is the engine's [`crate::Game::Atom`]).
#[derive(Debug)]
pub struct MoveList<A> {
    atoms: Vec<A>,
    ends: Vec<u32>,
}

impl<A: Clone> Clone for MoveList<A> {
    fn clone(&self) -> Self {
        MoveList {
            atoms: self.atoms.clone(),
            ends: self.ends.clone(),
        }
    }

    /// Reuses the buffers of `self`.
    fn clone_from(&mut self, o: &Self) {
        self.atoms.clone_from(&o.atoms);
        self.ends.clone_from(&o.ends);
    }
}

impl<A> Default for MoveList<A> {
    fn default() -> Self {
        MoveList {
            atoms: Vec::new(),
            ends: Vec::new(),
        }
    }
}

impl<A: Copy + PartialEq> MoveList<A> {
    /// Removes all moves, keeping capacity.
    #[inline]
    pub fn clear(&mut self) {
        self.atoms.clear();
        self.ends.clear();
    }

    /// Number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Number of atoms over all moves.
    #[inline]
    pub fn num_atoms(&self) -> usize {
        self.atoms.len()
    }

    /// Whether there are no moves.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The `i`-th move (panics when out of range).
    #[inline]
    pub fn get(&self, i: usize) -> &[A] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        &self.atoms[start..self.ends[i] as usize]
    }

    /// Iterates over the moves.
    #[inline]
    pub fn iter(&self) -> impl Iterator<Item = &[A]> + '_ {
        let mut start = 0;
        self.ends.iter().map(move |&end| {
            let m = &self.atoms[start..end as usize];
            start = end as usize;
            m
        })
    }

    /// Index of the first move equal to `m`.
    pub fn position(&self, m: &[A]) -> Option<usize> {
        self.iter().position(|x| x == m)
    }

    /// Appends a move given as a prefix plus its final atom.
    #[inline]
    pub fn push_with(&mut self, prefix: &[A], last: A) {
        // Moves are short: a plain loop beats a `memcpy` call.
        self.atoms.reserve(prefix.len() + 1);
        for &a in prefix {
            self.atoms.push(a);
        }
        self.atoms.push(last);
        self.ends.push(self.atoms.len() as u32);
    }

    /// Every move's atoms, one after the other, and the end of each move in
    /// them (move `i` is `atoms[ends[i - 1]..ends[i]]`): for passes over
    /// all moves without [`MoveList::get`]'s work per move.
    #[inline]
    pub fn parts(&self) -> (&[A], &[u32]) {
        (&self.atoms, &self.ends)
    }

    /// The buffers: every move's atoms, one after the other, and the end of
    /// each move in them. For code generators writing moves directly.
    #[doc(hidden)]
    pub fn raw_parts_mut(&mut self) -> (&mut Vec<A>, &mut Vec<u32>) {
        (&mut self.atoms, &mut self.ends)
    }

    /// Appends a move.
    pub fn push(&mut self, m: &[A]) {
        self.atoms.extend_from_slice(m);
        self.ends.push(self.atoms.len() as u32);
    }
}

#[cfg(test)]
mod tests {
    use super::MoveList;

    #[test]
    fn moves_are_stored_flat() {
        let mut l = MoveList::default();
        l.push(&[1u32, 2]);
        l.push_with(&[3], 4);
        l.push(&[]);
        assert_eq!(l.len(), 3);
        assert_eq!(l.get(0), &[1, 2]);
        assert_eq!(l.get(1), &[3, 4]);
        assert_eq!(l.get(2), &[] as &[u32]);
        assert_eq!(l.position(&[3, 4]), Some(1));
        assert_eq!(l.parts(), (&[1, 2, 3, 4][..], &[2, 4, 4][..]));
        assert_eq!(l.position(&[3]), None);
        l.clear();
        assert!(l.is_empty());
    }
}
