//! Resolved types and symbols: the arena every checked type lives in, and the
//! assignability relations of `rg-language.md` §4.2.
//!
//! Symbols are interned once per game ([`Sym`]); a resolved type is a set of
//! symbols (declared order, duplicates dropped) or an arrow between two
//! resolved types ([`Ty`] indexes the arena). Type aliases resolve to the
//! [`Ty`] of their definition, so resolution is a DAG walk. Resolved types are
//! at most [`MAX_TYPE_DEPTH`] arrows deep, so the recursive relations below
//! are bounded whatever the input.

use std::collections::HashMap;

/// A symbol (also a tag, a key, a player).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sym(pub u32);

/// A resolved type in a [`TypeArena`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ty(pub u32);

/// How deeply arrows may nest in a resolved type (through aliases included).
pub const MAX_TYPE_DEPTH: u32 = 64;

/// A resolved type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TyKind {
    /// A finite set of symbols in declared order (no duplicates).
    Set(Vec<Sym>),
    /// `source -> target`; the source is always a set type in a checked game.
    Arrow(Ty, Ty),
}

/// The interned symbols of a game.
#[derive(Clone, Debug, Default)]
pub struct Symbols {
    names: Vec<String>,
    index: HashMap<String, Sym>,
}

impl Symbols {
    /// The symbol named `name`, added if new.
    pub fn intern(&mut self, name: &str) -> Sym {
        if let Some(&s) = self.index.get(name) {
            return s;
        }
        let s = Sym(self.names.len() as u32);
        self.names.push(name.to_string());
        self.index.insert(name.to_string(), s);
        s
    }

    /// The symbol named `name`, if it exists.
    pub fn get(&self, name: &str) -> Option<Sym> {
        self.index.get(name).copied()
    }

    /// The name of `s`.
    pub fn name(&self, s: Sym) -> &str {
        &self.names[s.0 as usize]
    }

    /// How many symbols there are.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

/// All resolved types of a game, with their arrow depths.
#[derive(Clone, Debug, Default)]
pub struct TypeArena {
    kinds: Vec<TyKind>,
    depths: Vec<u32>,
    singletons: HashMap<Sym, Ty>,
}

impl TypeArena {
    /// Adds a set type (duplicates dropped, first occurrence kept).
    pub fn set(&mut self, symbols: impl IntoIterator<Item = Sym>) -> Ty {
        let mut list: Vec<Sym> = Vec::new();
        for s in symbols {
            if !list.contains(&s) {
                list.push(s);
            }
        }
        self.push(TyKind::Set(list), 0)
    }

    /// The set type `{s}` (shared).
    pub fn singleton(&mut self, s: Sym) -> Ty {
        if let Some(&t) = self.singletons.get(&s) {
            return t;
        }
        let t = self.set([s]);
        self.singletons.insert(s, t);
        t
    }

    /// Adds `a -> b`; `None` when it would be deeper than [`MAX_TYPE_DEPTH`].
    pub fn arrow(&mut self, a: Ty, b: Ty) -> Option<Ty> {
        let depth = 1 + self.depth(a).max(self.depth(b));
        (depth <= MAX_TYPE_DEPTH).then(|| self.push(TyKind::Arrow(a, b), depth))
    }

    fn push(&mut self, kind: TyKind, depth: u32) -> Ty {
        let t = Ty(self.kinds.len() as u32);
        self.kinds.push(kind);
        self.depths.push(depth);
        t
    }

    /// The kind of `t`.
    pub fn kind(&self, t: Ty) -> &TyKind {
        &self.kinds[t.0 as usize]
    }

    /// Arrows nested in `t` (0 for a set type).
    pub fn depth(&self, t: Ty) -> u32 {
        self.depths[t.0 as usize]
    }

    /// The symbols of a set type; `None` for an arrow.
    pub fn symbols(&self, t: Ty) -> Option<&[Sym]> {
        match self.kind(t) {
            TyKind::Set(s) => Some(s),
            TyKind::Arrow(..) => None,
        }
    }

    /// Source and target of an arrow type.
    pub fn arrow_parts(&self, t: Ty) -> Option<(Ty, Ty)> {
        match *self.kind(t) {
            TyKind::Arrow(a, b) => Some((a, b)),
            TyKind::Set(_) => None,
        }
    }

    /// Non-strict assignability (symmetric): equal types; arrows pairwise;
    /// sets that intersect.
    pub fn assignable(&self, l: Ty, r: Ty) -> bool {
        if l == r {
            return true;
        }
        match (self.kind(l), self.kind(r)) {
            (TyKind::Set(a), TyKind::Set(b)) => a.iter().any(|s| b.contains(s)),
            (&TyKind::Arrow(a1, b1), &TyKind::Arrow(a2, b2)) => {
                self.assignable(a1, a2) && self.assignable(b1, b2)
            }
            _ => false,
        }
    }

    /// Strict assignability of a set type `r` to a set type `l`: every symbol
    /// of `r` is in `l`.
    pub fn strictly_assignable(&self, l: Ty, r: Ty) -> bool {
        match (self.symbols(l), self.symbols(r)) {
            (Some(a), Some(b)) => b.iter().all(|s| a.contains(s)),
            _ => false,
        }
    }

    /// The number of types.
    pub fn len(&self) -> usize {
        self.kinds.len()
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.kinds.is_empty()
    }

    /// `t` written out (aliases expanded), for messages.
    pub fn show(&self, t: Ty, symbols: &Symbols) -> String {
        match self.kind(t) {
            TyKind::Set(s) => {
                let names: Vec<&str> = s.iter().map(|&s| symbols.name(s)).collect();
                let mut text = names.join(", ");
                if text.len() > 60 {
                    let cut = (0..=60)
                        .rev()
                        .find(|&i| text.is_char_boundary(i))
                        .unwrap_or(0);
                    text.truncate(cut);
                    text.push_str(", ...");
                }
                format!("{{{text}}}")
            }
            &TyKind::Arrow(a, b) => {
                format!("{} -> {}", self.show(a, symbols), self.show(b, symbols))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn assignability() {
        let mut syms = Symbols::default();
        let [a, b, c] = ["a", "b", "c"].map(|n| syms.intern(n));
        let mut arena = TypeArena::default();
        let ab = arena.set([a, b, a]);
        assert_eq!(arena.symbols(ab), Some(&[a, b][..]));
        let bc = arena.set([b, c]);
        let only_c = arena.singleton(c);
        assert!(arena.assignable(ab, bc));
        assert!(!arena.assignable(ab, only_c));
        assert!(arena.strictly_assignable(bc, only_c));
        assert!(!arena.strictly_assignable(ab, bc));
        let m1 = arena.arrow(ab, bc).unwrap();
        let m2 = arena.arrow(bc, ab).unwrap();
        let m3 = arena.arrow(ab, only_c).unwrap();
        assert!(arena.assignable(m1, m2));
        assert!(arena.assignable(m1, m3));
        let only_a = arena.singleton(a);
        let m4 = arena.arrow(only_a, ab).unwrap();
        let m5 = arena.arrow(only_c, ab).unwrap();
        assert!(!arena.assignable(m4, m5));
        assert!(!arena.assignable(m1, ab));
        assert_eq!(arena.show(m1, &syms), "{a, b} -> {b, c}");
    }

    #[test]
    fn depth_is_bounded() {
        let mut syms = Symbols::default();
        let mut arena = TypeArena::default();
        let s = arena.singleton(syms.intern("a"));
        let mut t = s;
        for _ in 0..MAX_TYPE_DEPTH {
            t = arena.arrow(s, t).unwrap();
        }
        assert!(arena.arrow(s, t).is_none());
    }
}
