//! The facts the generated code relies on instead of bounds checks,
//! verified on the tables before any code is generated (a game that fails
//! them is played by the interpreter).
//!
//! Every semistate value is a symbol below `symbols`: the initial values,
//! the constants, immediates, any-assignment symbols and every table entry
//! that is read as a value are, and the code only ever writes such values
//! (Rust helpers index with checks). Then every table lookup `fun[table +
//! st[s]]` stays inside `table .. table + symbols`, which is inside `fun`;
//! entries used as slots are below the number of slots (or `NO_SLOT` where
//! a place tests for it); edges, nodes, checks and any-assignment ranges
//! are in range.

use rg_engine::raw::{Fast, Mem, Next, Op, Operand, Place, Step, Tables, NO_EDGE, NO_SLOT};

struct Facts<'a> {
    t: &'a Tables,
    symbols: usize,
    slots: usize,
}

type Check = Result<(), String>;

fn need(ok: bool, what: &str) -> Check {
    match ok {
        true => Ok(()),
        false => Err(format!("table fact fails: {what}")),
    }
}

impl Facts<'_> {
    /// `fun[table .. table + symbols]` exists; returns it.
    fn table(&self, table: u32) -> Result<&[u32], String> {
        let (a, b) = (table as usize, table as usize + self.symbols);
        self.t
            .fun
            .get(a..b)
            .ok_or_else(|| "table fact fails: a table past the end".to_string())
    }

    fn values(&self, table: u32) -> Check {
        let ok = self
            .table(table)?
            .iter()
            .all(|&v| (v as usize) < self.symbols);
        need(ok, "a symbol table holds a non-symbol")
    }

    fn slots(&self, table: u32, place: bool) -> Check {
        let ok = self
            .table(table)?
            .iter()
            .all(|&v| (v as usize) < self.slots || (place && v == NO_SLOT));
        need(ok, "a slot table holds a non-slot")
    }

    fn slot(&self, s: u32) -> Check {
        need((s as usize) < self.slots, "a slot out of range")
    }

    fn operand(&self, o: Operand) -> Check {
        match o {
            Operand::Imm(v) => need((v as usize) < self.symbols, "an immediate non-symbol"),
            Operand::Slot(s) => self.slot(s),
            Operand::Tab(s, table) => {
                self.slot(s)?;
                self.values(table)
            }
            Operand::Ind(s, table) => {
                self.slot(s)?;
                self.slots(table, false)
            }
            Operand::Read(i) => match self.t.fast.get(i as usize) {
                None => need(false, "a read out of range"),
                Some(Fast::General) => need((i as usize) < self.t.reads.len(), "a read"),
                Some(&Fast::TabInd(s, inner, outer)) => {
                    self.operand(Operand::Ind(s, inner))?;
                    self.values(outer)
                }
                Some(&Fast::IndInd(s, inner, outer)) => {
                    self.operand(Operand::Ind(s, inner))?;
                    self.slots(outer, false)
                }
                Some(&Fast::TabIndInd(s, inner, mid, outer)) => {
                    self.operand(Operand::Ind(s, inner))?;
                    self.slots(mid, false)?;
                    self.values(outer)
                }
                Some(&Fast::Pair {
                    first,
                    second,
                    first_table,
                    second_table,
                }) => {
                    self.operand(first)?;
                    self.operand(second)?;
                    let a = self.table(first_table)?.iter().max().copied().unwrap_or(0);
                    let b = self.table(second_table)?.iter().max().copied().unwrap_or(0);
                    need(
                        (a as usize + b as usize) < self.t.consts.len(),
                        "a pair read past the constants",
                    )
                }
            },
        }
    }

    fn place(&self, p: Place) -> Check {
        match p {
            Place::Slot(s) => self.slot(s),
            Place::Ind(s, table) => {
                self.slot(s)?;
                self.slots(table, true)
            }
            Place::Gen(i) => match self.t.fast.get(i as usize) {
                None => need(false, "a place out of range"),
                Some(&Fast::IndInd(s, inner, outer)) => {
                    self.operand(Operand::Ind(s, inner))?;
                    self.slots(outer, true)
                }
                Some(_) => need((i as usize) < self.t.reads.len(), "a place"),
            },
        }
    }

    fn any(&self, (start, len): (u32, u32)) -> Check {
        let syms = self
            .t
            .any_syms
            .get(start as usize..(start + len) as usize)
            .ok_or_else(|| "table fact fails: symbols past the end".to_string())?;
        need(
            len > 0 && syms.iter().all(|&s| (s as usize) < self.symbols),
            "an any-assignment's symbols",
        )
    }
}

/// Whether computed read `i` (`Fast::General`) can be code: its keys'
/// operands hold the facts, their key tables exist, and the largest offset
/// any symbols as keys give is inside its memory (else Rust reads it).
pub(crate) fn native_read(t: &Tables, i: u32) -> bool {
    let symbols = t.symbols as usize;
    let slots = t.initial.len();
    let f = Facts { t, symbols, slots };
    let Some(a) = t.reads.get(i as usize) else {
        return false;
    };
    let Some(steps) = t
        .steps
        .get(a.steps.0 as usize..(a.steps.0 + a.steps.1) as usize)
    else {
        return false;
    };
    let mut max = a.base as u64;
    for s in steps {
        let keys = t
            .keys
            .table
            .get(s.table as usize..s.table as usize + symbols);
        match (f.operand(s.key), keys.and_then(|k| k.iter().max())) {
            (Ok(()), Some(&k)) => max += k as u64 * s.stride as u64,
            _ => return false,
        }
    }
    let len = match a.mem {
        Mem::State => slots,
        Mem::Const => t.consts.len(),
    };
    max < len as u64
}

/// Verifies the tables' facts for a game of `symbols` symbols.
pub(crate) fn verify(t: &Tables, symbols: usize) -> Check {
    let slots = t.initial.len();
    let f = Facts { t, symbols, slots };
    need(
        t.initial.iter().all(|&v| (v as usize) < symbols)
            && t.consts.iter().all(|&v| (v as usize) < symbols)
            && t.hash_mul.len() == slots
            && (t.player_slot as usize) < slots
            && t.user_slots <= slots
            && t.probes.len() == t.checks.len(),
        "the state's layout",
    )?;
    let ne = t.edges.len();
    for n in &t.nodes {
        need(n.first <= n.end && n.end as usize <= ne, "a node's edges")?;
    }
    for e in &t.edges {
        need((e.to as usize) < t.nodes.len(), "an edge's target")?;
        need(
            e.filter == NO_EDGE || (e.filter as usize) < ne,
            "an edge's filter",
        )?;
        if let Next::Inline(j) = e.next {
            need((j as usize) < ne, "an inline successor")?;
            let single = matches!(t.edges[j as usize].op, Op::AssignAny(..));
            need(!single, "an inline any-assignment")?;
        }
        match e.op {
            Op::Skip | Op::Tag(_) => {}
            Op::TagVar(s) => f.slot(s)?,
            Op::Cmp(a, b, _) => {
                f.operand(a)?;
                f.operand(b)?;
            }
            Op::CmpMap(i, _) | Op::AssignMap(i) => {
                need((i as usize) < t.map_pairs.len(), "a map operation")?
            }
            Op::Reach(c, _) => need((c as usize) < t.checks.len(), "a check")?,
            Op::Assign(p, v) => {
                f.place(p)?;
                f.operand(v)?;
            }
            Op::AssignAny(p, syms) => {
                f.place(p)?;
                f.any(syms)?;
            }
            Op::SetPlayer(v) => f.operand(v)?,
        }
    }
    // Comparisons of check programs (generated for leaf programs).
    for ins in &t.program {
        let (a, b) = match ins.step {
            Step::Cmp(a, b, _) => (a, b),
            Step::IndImm(s, table, v, _) => (Operand::Ind(s, table), Operand::Imm(v)),
            Step::IndTab(s, table, s2, table2, _) => {
                (Operand::Ind(s, table), Operand::Tab(s2, table2))
            }
            _ => continue,
        };
        f.operand(a)?;
        f.operand(b)?;
    }
    for (c, check) in t.checks.iter().enumerate() {
        need(
            (check.start as usize) < t.nodes.len() && (check.target as usize) < t.nodes.len(),
            "a check's nodes",
        )?;
        if let Some(p) = t.probes[c] {
            let conds = t
                .probe_conds
                .get(p.conds.0 as usize..(p.conds.0 + p.conds.1) as usize)
                .ok_or_else(|| "table fact fails: a probe's comparisons".to_string())?;
            for &(a, b, _) in conds {
                f.operand(a)?;
                f.operand(b)?;
            }
            if let Some((slot, syms)) = p.any {
                f.slot(slot)?;
                f.any(syms)?;
            }
        }
    }
    Ok(())
}
