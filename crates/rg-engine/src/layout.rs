//! Dense layouts: every value is a symbol number in one `u16` slot, and a map
//! over a set type `A` is a fixed array of `|A| + 1` values of its target
//! type — one per symbol of `A` in declared order, then the map's default,
//! which is what a key outside `A` reads.
//!
//! Maps of maps nest (a `Sq -> Die -> Sq` takes `(5 + 1) * (2 + 1)` slots).
//! A key's index is looked up in a table per source set ([`KeyTables`]): the
//! symbol's position in the set, or `|A|` for a foreign key.

use std::collections::HashMap;

use rg_lang::checked::Val;
use rg_lang::types::{Sym, Ty, TyKind, TypeArena};

use crate::LoadError;

/// The most slots a semistate or the constants may take.
pub const MAX_SLOTS: usize = 1 << 24;

/// Sizes of types and the key tables of their sources.
pub struct Layouts<'a> {
    types: &'a TypeArena,
    sizes: HashMap<Ty, usize>,
    /// Key tables: one per distinct source set, `num_symbols` entries each.
    pub keys: KeyTables,
}

/// Key index tables, concatenated: `table[offset + sym]` is the symbol's
/// position in the set, or the set's size for a symbol outside it.
#[derive(Clone, Debug, Default)]
pub struct KeyTables {
    /// All tables.
    pub table: Vec<u16>,
    num_symbols: usize,
    by_set: HashMap<Vec<Sym>, u32>,
}

impl KeyTables {
    /// The offset of the table of `set`, made if new.
    pub fn of(&mut self, set: &[Sym]) -> u32 {
        if let Some(&o) = self.by_set.get(set) {
            return o;
        }
        let offset = self.table.len() as u32;
        self.table
            .resize(self.table.len() + self.num_symbols, set.len() as u16);
        for (i, s) in set.iter().enumerate() {
            self.table[offset as usize + s.0 as usize] = i as u16;
        }
        self.by_set.insert(set.to_vec(), offset);
        offset
    }
}

impl<'a> Layouts<'a> {
    /// Layouts over the types of a game with `num_symbols` symbols.
    pub fn new(types: &'a TypeArena, num_symbols: usize) -> Layouts<'a> {
        Layouts {
            types,
            sizes: HashMap::new(),
            keys: KeyTables {
                num_symbols,
                ..KeyTables::default()
            },
        }
    }

    /// Slots taken by a value of type `t`.
    pub fn size(&mut self, t: Ty) -> Result<usize, LoadError> {
        if let Some(&s) = self.sizes.get(&t) {
            return Ok(s);
        }
        let s = match self.types.kind(t) {
            TyKind::Set(_) => 1,
            &TyKind::Arrow(a, b) => {
                let keys = self.types.symbols(a).map_or(0, <[Sym]>::len) + 1;
                let inner = self.size(b)?;
                keys.checked_mul(inner)
                    .filter(|&n| n <= MAX_SLOTS)
                    .ok_or_else(|| {
                        LoadError(format!("a map type needs more than {MAX_SLOTS} slots"))
                    })?
            }
        };
        self.sizes.insert(t, s);
        Ok(s)
    }

    /// Source set and target of a map type.
    pub fn arrow(&self, t: Ty) -> Option<(&'a [Sym], Ty)> {
        let (a, b) = self.types.arrow_parts(t)?;
        Some((self.types.symbols(a)?, b))
    }

    /// Writes `v` (of a type assignable to `t`) into `mem[off..off + size(t)]`.
    pub fn store(&mut self, v: &Val, t: Ty, mem: &mut [u16], off: usize) -> Result<(), LoadError> {
        match (v, self.arrow(t)) {
            (Val::Sym(s), None) => {
                mem[off] = s.0 as u16;
                Ok(())
            }
            (Val::Map { default, .. }, Some((keys, target))) => {
                let step = self.size(target)?;
                for (i, &k) in keys.iter().enumerate() {
                    self.store(v.get(k), target, mem, off + i * step)?;
                }
                self.store(default, target, mem, off + keys.len() * step)
            }
            _ => Err(LoadError(
                "a value does not fit its declared type".to_string(),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rg_lang::types::Symbols;

    #[test]
    fn nested_maps_with_defaults() {
        let mut syms = Symbols::default();
        let [a, b, x, y] = ["a", "b", "x", "y"].map(|n| syms.intern(n));
        let mut types = TypeArena::default();
        let ab = types.set([a, b]);
        let xy = types.set([x, y]);
        let inner = types.arrow(ab, xy).unwrap();
        let outer = types.arrow(xy, inner).unwrap();
        let mut l = Layouts::new(&types, syms.len());
        assert_eq!(l.size(outer).unwrap(), 9);
        // { x: { a: y, :x }, :{ :y } }
        let v = Val::Map {
            default: Box::new(Val::Map {
                default: Box::new(Val::Sym(y)),
                entries: vec![],
            }),
            entries: vec![(
                x,
                Val::Map {
                    default: Box::new(Val::Sym(x)),
                    entries: vec![(a, Val::Sym(y))],
                },
            )],
        };
        let mut mem = vec![0; 9];
        l.store(&v, outer, &mut mem, 0).unwrap();
        let (y, x) = (y.0 as u16, x.0 as u16);
        assert_eq!(mem, [y, x, x, y, y, y, y, y, y]);
        let t = l.keys.of(&[x_sym(&syms, "y"), x_sym(&syms, "x")]);
        assert_eq!(
            l.keys.table[t as usize + syms.get("y").unwrap().0 as usize],
            0
        );
        assert_eq!(
            l.keys.table[t as usize + syms.get("a").unwrap().0 as usize],
            2
        );
    }

    fn x_sym(s: &Symbols, n: &str) -> Sym {
        s.get(n).unwrap()
    }
}
