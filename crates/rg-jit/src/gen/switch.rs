//! Choices between exclusive comparisons: a node (not `@disjoint`) whose
//! edges all test one symbol operand for equality with distinct constants
//! (`board[x] == A`, `board[x] == B`, ...) lets at most one edge pass. Its
//! frame's first resume reads the operand once, finds that edge through a
//! byte table and takes it past its test; its other resume blocks pop the
//! frame at once where the table says no edge left passes. The frame's
//! `next` stays what trying the edges one by one leaves, so everything
//! resuming the frame sees the same state as before.

use cranelift_codegen::entity::packed_option::ReservedValue;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::I32;
use cranelift_codegen::ir::{Block, InstBuilder, JumpTableData, Value};
use rg_engine::raw::{Fast, Op, Operand, Tables};

use super::{Gen, FLAGS};
use crate::rt::Off;

/// Fewest edges for which a node's choice is made through its table. At
/// three edges the table's extra load and indirect jump cost more than the
/// comparisons (paperSoccer, whose exclusive nodes all have three edges:
/// 7% faster without them, alternated 1,000-playout runs, median of 16).
const MIN_EDGES: u32 = 4;

/// Node `n`'s exclusive comparisons: the operand they read and, per
/// symbol, one plus the offset of the edge it passes (0: none); `None`
/// where `n` is `@disjoint`, has fewer than [`MIN_EDGES`] or more than 255
/// edges, or an edge is no such comparison. An edge may compare a
/// constant map of the operand (`isOneOf[board[x]] == 1`, with
/// `board[x] == K` beside it): it passes the operand's values that map to
/// its constant.
pub(super) fn exclusive(t: &Tables, n: u32) -> Option<(Operand, Box<[u8]>)> {
    let info = t.nodes[n as usize];
    let count = info.end - info.first;
    if info.disjoint || !(MIN_EDGES..=255).contains(&count) {
        return None;
    }
    let mut x = None;
    let mut table = vec![0u8; t.symbols as usize].into_boxed_slice();
    for (i, e) in t.edges[info.first as usize..info.end as usize]
        .iter()
        .enumerate()
    {
        let (Op::Cmp(o, Operand::Imm(k), true) | Op::Cmp(Operand::Imm(k), o, true)) = e.op else {
            return None;
        };
        // (Operands whose values are symbols: slots and tables; a map of
        // them, `Fast::TabInd`, the table `map` over the operand's value.)
        let (o, map) = match o {
            Operand::Slot(_) | Operand::Ind(..) | Operand::Tab(..) => (o, None),
            Operand::Read(r) => match t.fast[r as usize] {
                Fast::TabInd(s, inner, outer) => (Operand::Ind(s, inner), Some(outer)),
                _ => return None,
            },
            Operand::Imm(_) => return None,
        };
        if *x.get_or_insert(o) != o {
            return None;
        }
        match map {
            None => match table.get_mut(k as usize) {
                Some(p @ 0) => *p = i as u8 + 1,
                _ => return None,
            },
            Some(m) => {
                for (v, p) in table.iter_mut().enumerate() {
                    if t.fun[m as usize + v] == k as u32 {
                        if *p != 0 {
                            return None;
                        }
                        *p = i as u8 + 1;
                    }
                }
            }
        }
    }
    Some((x?, table))
}

impl Gen<'_, '_> {
    /// Whether node `n`'s choice is made through its table here: its
    /// edges' blocks are this function's, each with a block past its test
    /// ([`Gen::after`]).
    pub(super) fn switched(&self, n: u32) -> bool {
        let info = self.t.nodes[n as usize];
        info.end > info.first
            && self.after[info.first as usize] != Block::reserved_value()
            && exclusive(self.t, n).is_some()
    }

    /// Node `n`'s table's answer for its operand: the offset of the edge
    /// that passes, past every edge (wrapped) where none does.
    fn passing(&mut self, n: u32) -> Value {
        let (x, table) = exclusive(self.t, n).expect("a switched node");
        let base = self.byte_table(table);
        let v = self.operand(x);
        // (Every value read from the semistate is a symbol: `safe.rs`.)
        let i = self.widen(v);
        let at = self.b.ins().iadd_imm(i, base as i64);
        let m = self.b.ins().uload8(I32, FLAGS, at, 0);
        self.b.ins().iadd_imm(m, -1)
    }

    /// In resume block (`n`, `j`) of a [`Gen::switched`] node (`j` past
    /// its first edge, before its end): goes on at `take` (trying edge
    /// `j - 1`) only where an edge before `j` passes, else at `pop`.
    pub(super) fn pass_left(&mut self, n: u32, j: u32, take: Block, pop: Block) {
        let first = self.t.nodes[n as usize].first;
        let k = self.passing(n);
        let left = self
            .b
            .ins()
            .icmp_imm(IntCC::UnsignedLessThan, k, (j - first) as i64);
        self.b.ins().brif(left, take, &[], pop, &[]);
    }

    /// Resume block `r`, node `n`'s last (all its edges left), frame `f`,
    /// of a [`Gen::switched`] node: takes the edge that passes past its
    /// test, leaving the frame as trying the edges after it did, or goes
    /// on at `pop`.
    pub(super) fn emit_switch(&mut self, r: usize, n: u32, f: Value, pop: Block) {
        let info = self.t.nodes[n as usize];
        let k = self.passing(n);
        let targets: Vec<Block> = (info.first..info.end)
            .map(|_| self.b.create_block())
            .collect();
        let calls: Vec<_> = targets
            .iter()
            .map(|&blk| self.b.func.dfg.block_call(blk, &[]))
            .collect();
        let def = self.b.func.dfg.block_call(pop, &[]);
        let jt = self.b.create_jump_table(JumpTableData::new(def, &calls));
        self.b.ins().br_table(k, jt);
        for (e, blk) in (info.first..info.end).zip(targets) {
            self.b.switch_to_block(blk);
            if e == info.first && self.early[n as usize] {
                // The frame's last edge: popped first (as
                // `Gen::emit_resume` takes it).
                let len = self.ws_load(Off::FRAMES_LEN);
                let len = self.b.ins().iadd_imm(len, -1);
                self.ws_store(len, Off::FRAMES_LEN);
            } else {
                // Edges `first .. e` left, as trying them in turn leaves.
                let next = (r as u32 - (info.end - e)) as i64;
                let next = self.b.ins().iconst(I32, next);
                self.b.ins().store(FLAGS, next, f, Off::F_NEXT);
            }
            self.b.ins().jump(self.after[e as usize], &[]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The edges (numbered from 1) that the symbols of the game's one
    /// exclusive choice go to, sorted, symbols that fail left out; `None`
    /// when no choice of the game is exclusive.
    fn passes(text: &str) -> Option<Vec<u8>> {
        let game = rg_engine::GameModel::from_text(text).unwrap();
        let t = game.tables();
        let (_, table) = (0..t.nodes.len() as u32).find_map(|n| exclusive(t, n))?;
        let mut passes: Vec<u8> = table.iter().copied().filter(|&m| m != 0).collect();
        passes.sort_unstable();
        Some(passes)
    }

    /// A choice between `y == p`, `y == q`, `y == r`, `y == s` after
    /// `y = C(*)` is exclusive (its table sends each symbol to its edge),
    /// one with a `!=` is not; the native walk lists the interpreter's
    /// moves (two: `y = p` and `y = q` go on, `y = r` and `y = s` fail at
    /// `x != p`).
    #[test]
    fn exclusive_comparisons_take_their_edge() {
        let text = "type Player = {a, b};\ntype Score = {0, 1};\ntype C = {p, q, r, s};\n\
                    var x: C = p;\nvar y: C = p;\nbegin, n0: player = a;\n\
                    n0, n1: y = C(*);\nn1, j1: y == p;\nn1, j2: y == q;\nn1, j3: y == r;\nn1, j4: y == s;\n\
                    j1, k: x = q;\nj2, k: x = r;\nj3, z: ;\nj4, z: ;\nz, k: x != p;\nk, end: player = keeper;\n";
        assert_eq!(passes(text), Some(vec![1, 2, 3, 4]));
        assert_eq!(passes(&text.replace("y == r", "y != r")), None);
        let game = rg_engine::GameModel::from_text(text).unwrap();
        assert_eq!(crate::gen::tests::moves_both(&game), [2, 2]);
    }

    /// An edge comparing a constant map of the operand (`f[b[y]] == 1`)
    /// passes the values that map to its constant (`q` and `r`): the
    /// choice stays exclusive beside `b[y] == p`, `== s`, `== t`, not
    /// beside `b[y] == q`; three moves, `y = p`, `q`, `r`, both engines.
    #[test]
    fn mapped_comparisons_take_their_edge() {
        let text = "type Player = {a, b};\ntype Score = {0, 1};\ntype C = {p, q, r, s, t};\n\
                    type B = {0, 1};\nconst f: C -> B = { q: 1, r: 1, :0 };\n\
                    var m: C -> C = { p: p, q: q, r: r, s: s, t: t, :p };\n\
                    var x: C = p;\nvar y: C = p;\nbegin, n0: player = a;\n\
                    n0, n1: y = C(*);\nn1, j1: m[y] == p;\nn1, j2: f[m[y]] == 1;\nn1, j3: m[y] == s;\nn1, j4: m[y] == t;\n\
                    j1, k: x = q;\nj2, k: x = r;\nj3, z: ;\nj4, z: ;\nz, k: x != p;\nk, end: player = keeper;\n";
        assert_eq!(passes(text), Some(vec![1, 2, 2, 3, 4]));
        assert_eq!(passes(&text.replace("m[y] == t", "m[y] == q")), None);
        let game = rg_engine::GameModel::from_text(text).unwrap();
        assert_eq!(crate::gen::tests::moves_both(&game), [3, 3]);
    }
}
