//! The lowerer's state: the slot layout of the variables and constants,
//! and expressions lowered to operands and places (constant parts folded,
//! common computed reads matched as [`Fast`] shapes), edge labels to
//! [`Op`]s.

use std::collections::HashMap;

use rg_lang::checked::{CExpr, CLabel, CheckedGame};
use rg_lang::types::Ty;

use crate::layout::{Layouts, MAX_SLOTS};
use crate::maps::{self, MapPlan};
use crate::tables::{Access, Check, Fast, KeyStep, MapRef, Mem, Op, Operand, Place, NO_SLOT};
use crate::LoadError;

/// The lowerer: the game, the layouts and the tables built so far.
pub(super) struct Lowerer<'a> {
    pub(super) g: &'a CheckedGame,
    pub(super) layouts: Layouts<'a>,
    pub(super) var_offsets: Vec<u32>,
    const_offsets: Vec<u32>,
    pub(super) consts: Vec<u16>,
    pub(super) reads: Vec<Access>,
    pub(super) steps: Vec<KeyStep>,
    pub(super) fun: Vec<u32>,
    fun_index: HashMap<Vec<u32>, u32>,
    pub(super) fast: Vec<Fast>,
    /// Every symbol in order: the keys of a table indexed by a symbol.
    pub(super) symbols: Vec<u32>,
}

/// What the edges' labels add besides their [`Op`]s.
#[derive(Default)]
pub(super) struct EdgeParts {
    /// The checks, each once.
    pub(super) checks: Vec<Check>,
    check_ids: HashMap<Check, u32>,
    /// The symbols of the any-assignments.
    pub(super) any_syms: Vec<u16>,
    /// Map assignments' and comparisons' operands, and their plans.
    pub(super) map_pairs: Vec<(MapRef, MapRef)>,
    pub(super) map_plans: Vec<MapPlan>,
}

impl<'a> Lowerer<'a> {
    /// A lowerer for `g`, nothing laid out yet.
    pub(super) fn new(g: &'a CheckedGame) -> Lowerer<'a> {
        Lowerer {
            g,
            layouts: Layouts::new(&g.types, g.symbols.len()),
            var_offsets: Vec::new(),
            const_offsets: Vec::new(),
            consts: Vec::new(),
            reads: Vec::new(),
            steps: Vec::new(),
            fun: Vec::new(),
            fun_index: HashMap::new(),
            fast: Vec::new(),
            symbols: (0..g.symbols.len() as u32).collect(),
        }
    }

    /// Lays out the constants (stored) and the variables: their initial
    /// semistate and the number of user slots (the variables before the
    /// first non-user one).
    pub(super) fn lay_out(&mut self) -> Result<(Vec<u16>, usize), LoadError> {
        let g = self.g;
        let l = self;
        let mut total = 0usize;
        for c in &g.constants {
            l.const_offsets.push(total as u32);
            total += l.layouts.size(c.ty)?;
            if total > MAX_SLOTS {
                return Err(LoadError(format!(
                    "the constants need more than {MAX_SLOTS} slots"
                )));
            }
        }
        l.consts = vec![0; total];
        for (i, c) in g.constants.iter().enumerate() {
            let mut mem = std::mem::take(&mut l.consts);
            l.layouts
                .store(&c.value, c.ty, &mut mem, l.const_offsets[i] as usize)?;
            l.consts = mem;
        }
        let mut total = 0usize;
        let mut user_slots = 0;
        for (i, v) in g.variables.iter().enumerate() {
            if i == g.user_variables() {
                user_slots = total;
            }
            l.var_offsets.push(total as u32);
            total += l.layouts.size(v.ty)?;
            if total > MAX_SLOTS {
                return Err(LoadError(format!(
                    "the variables need more than {MAX_SLOTS} slots"
                )));
            }
        }
        let mut initial = vec![0; total];
        for (i, v) in g.variables.iter().enumerate() {
            l.layouts
                .store(&v.value, v.ty, &mut initial, l.var_offsets[i] as usize)?;
        }
        Ok((initial, user_slots))
    }

    /// The [`Op`] of an edge's label (its checks, symbols and map pairs
    /// added to `p`).
    pub(super) fn op(&mut self, label: &CLabel, p: &mut EdgeParts) -> Result<Op, LoadError> {
        Ok(match label {
            CLabel::Skip => Op::Skip,
            CLabel::Tag(s) => Op::Tag(s.0 as u16),
            CLabel::TagVariable(v) => Op::TagVar(self.var_offsets[*v]),
            CLabel::Assign(CExpr::Var(v), value) if *v == self.g.player => {
                Op::SetPlayer(self.operand(value)?)
            }
            CLabel::Assign(target, value) => {
                if self.is_map(target) {
                    let pair = (self.map_ref(target)?, self.map_ref(value)?);
                    p.map_plans
                        .push(maps::plan(&mut self.layouts, pair.0.ty, pair.1.ty, false)?);
                    p.map_pairs.push(pair);
                    Op::AssignMap(p.map_pairs.len() as u32 - 1)
                } else {
                    Op::Assign(self.place(target)?, self.operand(value)?)
                }
            }
            CLabel::AssignAny(target, syms) => {
                let start = p.any_syms.len() as u32;
                p.any_syms.extend(syms.iter().map(|s| s.0 as u16));
                Op::AssignAny(self.place(target)?, (start, syms.len() as u32))
            }
            CLabel::Compare(a, b, eq) => {
                if self.is_map(a) || self.is_map(b) {
                    let pair = (self.map_ref(a)?, self.map_ref(b)?);
                    p.map_plans
                        .push(maps::plan(&mut self.layouts, pair.0.ty, pair.1.ty, true)?);
                    p.map_pairs.push(pair);
                    Op::CmpMap(p.map_pairs.len() as u32 - 1, *eq)
                } else {
                    Op::Cmp(self.operand(a)?, self.operand(b)?, *eq)
                }
            }
            CLabel::Reach(positive, a, b) => {
                let c = Check {
                    start: a.0,
                    target: b.0,
                };
                let checks = &mut p.checks;
                let id = *p.check_ids.entry(c).or_insert_with(|| {
                    checks.push(c);
                    checks.len() as u32 - 1
                });
                Op::Reach(id, *positive)
            }
        })
    }
}

impl Lowerer<'_> {
    /// The storage type of an expression: the declared type of its root
    /// followed through the accesses (casts are gone); `None` for a symbol.
    fn storage(&self, e: &CExpr) -> Option<Ty> {
        match e {
            CExpr::Const(c) => Some(self.g.constants[*c].ty),
            CExpr::Var(v) => Some(self.g.variables[*v].ty),
            CExpr::Sym(_) => None,
            CExpr::Access(m, _) => self.layouts.arrow(self.storage(m)?).map(|(_, b)| b),
        }
    }

    fn is_map(&self, e: &CExpr) -> bool {
        self.storage(e)
            .is_some_and(|t| self.layouts.arrow(t).is_some())
    }

    /// Per player, the slot of its entry in the map variable `var` (`goals`,
    /// `visible`); the default entry for a player outside the map's keys.
    pub(super) fn player_slots(&mut self, var: usize) -> Result<Vec<u32>, LoadError> {
        let ty = self.g.variables[var].ty;
        let Some((keys, target)) = self.layouts.arrow(ty) else {
            return Err(LoadError(format!(
                "`{}` is not a map",
                self.g.variables[var].name
            )));
        };
        let step = self.layouts.size(target)? as u32;
        Ok(self
            .g
            .players
            .iter()
            .map(|p| {
                let i = keys.iter().position(|k| k == p).unwrap_or(keys.len()) as u32;
                self.var_offsets[var] + i * step
            })
            .collect())
    }

    /// The memory, base and key steps of an expression rooted at a variable
    /// or constant; constant keys are folded into the base when inside the
    /// source set.
    fn access(&mut self, e: &CExpr) -> Result<(Access, Ty), LoadError> {
        match e {
            CExpr::Var(v) => Ok((
                Access {
                    mem: Mem::State,
                    base: self.var_offsets[*v],
                    steps: (self.steps.len() as u32, 0),
                },
                self.g.variables[*v].ty,
            )),
            CExpr::Const(c) => Ok((
                Access {
                    mem: Mem::Const,
                    base: self.const_offsets[*c],
                    steps: (self.steps.len() as u32, 0),
                },
                self.g.constants[*c].ty,
            )),
            CExpr::Sym(_) => Err(LoadError("a symbol is not a map".to_string())),
            CExpr::Access(m, k) => {
                let (mut a, mt) = self.access(m)?;
                let Some((keys, target)) = self.layouts.arrow(mt) else {
                    return Err(LoadError(
                        "an access into a value that is not a map".to_string(),
                    ));
                };
                let stride = self.layouts.size(target)? as u32;
                let key = self.operand(k)?;
                let table = self.layouts.keys.of(keys);
                let limit = keys.len() as u16;
                match key {
                    Operand::Imm(s)
                        if (self.layouts.keys.table[table as usize + s as usize]) < limit =>
                    {
                        a.base +=
                            self.layouts.keys.table[table as usize + s as usize] as u32 * stride;
                    }
                    _ => {
                        // Steps of one access are contiguous: the key's own
                        // steps were pushed before, so move ours after them.
                        let step = KeyStep {
                            key,
                            table,
                            limit,
                            stride,
                        };
                        let (start, len) = a.steps;
                        if start + len != self.steps.len() as u32 {
                            let mine: Vec<KeyStep> =
                                self.steps[start as usize..(start + len) as usize].to_vec();
                            let new_start = self.steps.len() as u32;
                            self.steps.extend(mine);
                            a.steps = (new_start, len);
                        }
                        self.steps.push(step);
                        a.steps.1 += 1;
                    }
                }
                Ok((a, target))
            }
        }
    }

    /// A symbol-valued expression as an operand.
    fn operand(&mut self, e: &CExpr) -> Result<Operand, LoadError> {
        if let CExpr::Sym(s) = e {
            return Ok(Operand::Imm(s.0 as u16));
        }
        let (a, _) = self.access(e)?;
        Ok(match (a.mem, a.steps.1) {
            (Mem::Const, 0) => Operand::Imm(self.consts[a.base as usize]),
            (Mem::State, 0) => Operand::Slot(a.base),
            _ => match self.one_slot_table(&a, false) {
                Some((slot, table)) if a.mem == Mem::Const => Operand::Tab(slot, table),
                Some((slot, table)) => Operand::Ind(slot, table),
                None => {
                    let fast = match self.two_level_table(&a, false) {
                        Some((s, inner, outer)) if a.mem == Mem::Const => {
                            Fast::TabInd(s, inner, outer)
                        }
                        Some((s, inner, outer)) => Fast::IndInd(s, inner, outer),
                        None => self
                            .tab_ind_ind(&a)
                            .or_else(|| self.pair(&a))
                            .unwrap_or(Fast::General),
                    };
                    Operand::Read(self.computed(a, fast))
                }
            },
        })
    }

    /// An assigned place (rooted at a variable).
    fn place(&mut self, e: &CExpr) -> Result<Place, LoadError> {
        let (a, _) = self.access(e)?;
        debug_assert_eq!(a.mem, Mem::State);
        Ok(match a.steps.1 {
            0 => Place::Slot(a.base),
            _ => match self.one_slot_table(&a, true) {
                Some((slot, table)) => Place::Ind(slot, table),
                None => {
                    let fast = match self.two_level_table(&a, true) {
                        Some((s, inner, outer)) => Fast::IndInd(s, inner, outer),
                        None => Fast::General,
                    };
                    Place::Gen(self.computed(a, fast))
                }
            },
        })
    }

    /// Adds a computed read or place.
    fn computed(&mut self, a: Access, fast: Fast) -> u32 {
        self.reads.push(a);
        self.fast.push(fast);
        self.reads.len() as u32 - 1
    }

    /// For an access with one key step whose key depends on one slot only
    /// (a slot, or a constant map of a slot), the table over that slot's
    /// symbol of what the access reads: the constant's symbol (constant
    /// memory) or the semistate slot. With `place`, keys outside the map
    /// give [`NO_SLOT`].
    fn one_slot_table(&mut self, a: &Access, place: bool) -> Option<(u32, u32)> {
        if a.steps.1 != 1 {
            return None;
        }
        let step = self.steps[a.steps.0 as usize];
        let (slot, keys): (u32, &[u32]) = match step.key {
            Operand::Slot(s) => (s, &self.symbols),
            Operand::Tab(s, t) => (s, &self.fun[t as usize..][..self.g.symbols.len()]),
            _ => return None,
        };
        let table = self.step_table(&step, keys, |off| self.at(a, off), place);
        Some((slot, self.intern(table)))
    }

    /// For an access with one key step whose key is an [`Operand::Ind`]
    /// read (`f[board[x]]`): its slot, its table and the table over the
    /// key's symbol of what the access reads (as [`Lowerer::one_slot_table`]).
    fn two_level_table(&mut self, a: &Access, place: bool) -> Option<(u32, u32, u32)> {
        if a.steps.1 != 1 {
            return None;
        }
        let step = self.steps[a.steps.0 as usize];
        let Operand::Ind(slot, inner) = step.key else {
            return None;
        };
        let table = self.step_table(&step, &self.symbols, |off| self.at(a, off), place);
        Some((slot, inner, self.intern(table)))
    }

    /// For a read of a constant map with one key step whose key is a
    /// [`Fast::IndInd`] read (`dec[counters[board[coord]]]`), its
    /// [`Fast::TabIndInd`]: the map as a table over symbols.
    fn tab_ind_ind(&mut self, a: &Access) -> Option<Fast> {
        if a.mem != Mem::Const || a.steps.1 != 1 {
            return None;
        }
        let step = self.steps[a.steps.0 as usize];
        let Operand::Read(j) = step.key else {
            return None;
        };
        let Some(&Fast::IndInd(s, inner, mid)) = self.fast.get(j as usize) else {
            return None;
        };
        let table = self.step_table(&step, &self.symbols, |off| self.at(a, off), false);
        Some(Fast::TabIndInd(s, inner, mid, self.intern(table)))
    }

    /// For a read of a constant map of maps with two key steps whose keys
    /// are not computed reads themselves (`arrive[piece][cur]`), its
    /// [`Fast::Pair`].
    fn pair(&mut self, a: &Access) -> Option<Fast> {
        let simple = |k: Operand| !matches!(k, Operand::Read(_));
        if a.mem != Mem::Const || a.steps.1 != 2 {
            return None;
        }
        let (s1, s2) = (
            self.steps[a.steps.0 as usize],
            self.steps[a.steps.0 as usize + 1],
        );
        if !simple(s1.key) || !simple(s2.key) {
            return None;
        }
        let first = self.step_table(&s1, &self.symbols, |off| a.base + off, false);
        let second = self.step_table(&s2, &self.symbols, |off| off, false);
        Some(Fast::Pair {
            first: s1.key,
            second: s2.key,
            first_table: self.intern(first),
            second_table: self.intern(second),
        })
    }

    /// Over symbols `x`, `f` of the offset that key `keys[x]` selects in
    /// `step` (a key outside the map's keys selects the default; with
    /// `place` it gives [`NO_SLOT`] instead).
    fn step_table(
        &self,
        step: &KeyStep,
        keys: &[u32],
        f: impl Fn(u32) -> u32,
        place: bool,
    ) -> Vec<u32> {
        keys.iter()
            .map(|&k| {
                let i = self.layouts.keys.table[(step.table + k) as usize];
                match place && i == step.limit {
                    true => NO_SLOT,
                    false => f(i as u32 * step.stride),
                }
            })
            .collect()
    }

    /// What a table of `a` holds for offset `off` from its base: the
    /// constant's symbol, or the semistate slot.
    fn at(&self, a: &Access, off: u32) -> u32 {
        match a.mem {
            Mem::Const => self.consts[(a.base + off) as usize] as u32,
            Mem::State => a.base + off,
        }
    }

    /// The offset in `fun` of `table` (shared with equal tables).
    pub(super) fn intern(&mut self, table: Vec<u32>) -> u32 {
        match self.fun_index.get(&table) {
            Some(&o) => o,
            None => {
                let o = self.fun.len() as u32;
                self.fun.extend_from_slice(&table);
                self.fun_index.insert(table, o);
                o
            }
        }
    }

    /// A whole map value.
    fn map_ref(&mut self, e: &CExpr) -> Result<MapRef, LoadError> {
        let (at, ty) = self.access(e)?;
        Ok(MapRef { at, ty })
    }
}
