//! Each edge's [`Pre`]: the test an edge taken from a frame must pass at
//! once, in the semistate the frame holds (`code.rs`, [`Pre`]).
//!
//! An edge whose instruction is a comparison is its own test. An edge
//! whose instruction is `x = f[y]`, followed inline (no visited check, no
//! step count) by a comparison of `x`, is tested as that comparison with
//! `f` composed into its read: `x == c` as `f[y] == c`, `g[x] == c` as
//! `(g∘f)[y] == c`, `board[x] == c` as `(board∘f)[y] == c` (a new table,
//! unless a read slot of it is `x` itself, whose old value the test would
//! read). Other edges (any-assignments, tags, other writes) take no test.

use super::exprs::Lowerer;
use crate::code::{is_cmp, Code, Kind, Pre, DEAD};

impl Lowerer<'_> {
    /// The [`Pre`] of every edge of `code`, its composed tables interned
    /// into the constant maps' tables.
    pub(super) fn pre_tests(&mut self, code: &[Code]) -> Vec<Pre> {
        (0..code.len() as u32)
            .map(|e| self.pre(code, e).unwrap_or(Pre::NONE))
            .collect()
    }

    fn pre(&mut self, code: &[Code], e: u32) -> Option<Pre> {
        let c = code[e as usize];
        if is_cmp(c.kind) {
            return Some(Pre {
                kind: c.kind,
                passed: e,
            });
        }
        let Kind::SetTab { to, slot, table: f } = c.kind else {
            return None;
        };
        if c.next >= DEAD {
            return None;
        }
        let kind = match code.get(c.next as usize)?.kind {
            Kind::CmpSlot { slot: s, value, eq } if s == to => Kind::CmpTab {
                slot,
                table: f,
                value,
                eq,
            },
            Kind::CmpTab {
                slot: s,
                table,
                value,
                eq,
            } if s == to => Kind::CmpTab {
                slot,
                table: self.compose(table, f, None)?,
                value,
                eq,
            },
            Kind::CmpInd {
                slot: s,
                table,
                value,
                eq,
            } if s == to => Kind::CmpInd {
                slot,
                table: self.compose(table, f, Some(to))?,
                value,
                eq,
            },
            Kind::CmpTabInd {
                slot: s,
                inner,
                outer,
                value,
                eq,
            } if s == to => Kind::CmpTabInd {
                slot,
                inner: self.compose(inner, f, Some(to))?,
                outer,
                value,
                eq,
            },
            _ => return None,
        };
        Some(Pre {
            kind,
            passed: c.next,
        })
    }

    /// The table `g∘f` (`g[f[v]]` for every symbol `v`), interned; `None`
    /// where `f` gives a value past the symbols, `g` runs past the tables,
    /// or (`written`) an entry is that slot.
    fn compose(&mut self, g: u32, f: u32, written: Option<u32>) -> Option<u32> {
        let n = self.symbols.len();
        let fv = self.fun.get(f as usize..f as usize + n)?;
        let mut h = Vec::with_capacity(n);
        for &v in fv {
            if v as usize >= n {
                return None;
            }
            let x = *self.fun.get(g as usize + v as usize)?;
            if Some(x) == written {
                return None;
            }
            h.push(x);
        }
        Some(self.intern(h))
    }
}
