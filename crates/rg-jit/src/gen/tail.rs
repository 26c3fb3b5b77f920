//! *Deferred last writes*: an assignment to a constant slot followed, along
//! an inline chain, only by tags and skips and then the move's end (`x = v
//! $$ x player = keeper`, how moves commonly end) is, in playouts (moves
//! recorded inline), not written at all: the record takes the value as the
//! slot's, and the walk backtracks without the log entry, its undo and the
//! chain's tag bookkeeping. Exact: nothing reads the state between the
//! write and the record (the tags are not counted in playouts where
//! `rg_engine::raw::few_tags` holds and no visited check reads them; no
//! visited checks on the chain), and the record is the only reader of the
//! written value (a log entry of a computed place, `board[coord] = e`,
//! records the deferred value where its slot is the deferred one). Where
//! the log's entries are not known (paths of different logs joined on the
//! way), the record copies the log with the value written in the
//! semistate for the while, then adds the deferred slot's entry.

use cranelift_codegen::entity::packed_option::ReservedValue;
use cranelift_codegen::ir::types::{I16, I32};
use cranelift_codegen::ir::{Block, InstBuilder, Value};
use rg_engine::raw::{Next, Op, Operand, Place};

use super::Gen;
use crate::rt::Off;

/// A chain [`Gen::tail`] defers a write into.
pub(super) struct Tail {
    /// The edge that ends the move (`player = v`).
    end: usize,
    /// The log's slots at that edge (the deferred slot last), where the
    /// generator knows them (else the record copies the log as it is,
    /// then the deferred slot's entry).
    log: Option<Vec<u32>>,
}

impl Gen<'_, '_> {
    /// The end of the move edge `i` leads to, where `i` assigns a constant
    /// slot whose write can be deferred into the record ([`Tail`]).
    pub(super) fn tail(&self, i: usize) -> Option<Tail> {
        let t = self.t;
        let e = t.edges[i];
        let (Op::Assign(Place::Slot(s), _) | Op::AssignAny(Place::Slot(s), _)) = e.op else {
            return None;
        };
        // (Step counting and visible tags read the walk as it goes.)
        if e.guard || t.has_unique || t.visible_slots.is_some() || !self.few_tags {
            return None;
        }
        let log = self.log_at[self.edge_node[i] as usize].as_ref();
        let log = || log.map(|l| l.iter().copied().chain([s]).collect());
        let mut next = e.next;
        if let (Some(_), Next::Inline(k)) = (self.filter(i), e.next) {
            // A filtered symbol skips its comparison, which holds.
            let ek = t.edges[k as usize];
            let skips = self.after[k as usize] != Block::reserved_value();
            if !skips || ek.guard || !self.mine(self.edge_node[k as usize]) {
                return None;
            }
            next = ek.next;
        }
        // (A chain of inline edges visits each edge at most once.)
        for _ in 0..t.edges.len() {
            let Next::Inline(k) = next else {
                return None;
            };
            let (k, n) = (k as usize, self.edge_node[k as usize]);
            let ek = t.edges[k];
            if !self.mine(n) || ek.guard {
                return None;
            }
            match ek.op {
                Op::Skip => {}
                Op::Tag(_) | Op::TagVar(_) if !self.keep_at[n as usize].tags => {}
                Op::SetPlayer(Operand::Imm(_)) => return Some(Tail { end: k, log: log() }),
                Op::SetPlayer(Operand::Slot(x)) if x != s => {
                    return Some(Tail { end: k, log: log() })
                }
                _ => return None,
            }
            next = ek.next;
        }
        None
    }

    /// Edge `i`'s write of `v` deferred into `tail`'s record when moves are
    /// recorded inline (then backtracks); goes on with the write otherwise.
    pub(super) fn defer(&mut self, i: usize, tail: Tail, v: Value) {
        let (Op::Assign(Place::Slot(s), _) | Op::AssignAny(Place::Slot(s), _)) = self.t.edges[i].op
        else {
            unreachable!("deferred writes are to constant slots");
        };
        let [lazy, write] = self.blocks();
        let flag = self.ws_load(Off::REC_INLINE);
        self.b.ins().brif(flag, lazy, &[], write, &[]);
        self.b.switch_to_block(lazy);
        // The state holds 16 bits: the record takes the value as stored.
        let v16 = self.b.ins().ireduce(I16, v);
        let v = self.b.ins().uextend(I32, v16);
        let end = self.t.edges[tail.end];
        let Op::SetPlayer(p) = end.op else {
            unreachable!("a tail ends in `player = v`");
        };
        let p = self.operand(p);
        self.record(p, end.to, tail.log.as_deref(), Some((s, v)));
        let tops = &self.tops.0[i];
        match self.chain[i] {
            // What the path pushed before the write.
            Some(c) => {
                let here = std::mem::replace(&mut self.here, self.keep);
                self.undo(c, tops);
                self.here = here;
            }
            None => {
                self.b.ins().jump(self.back, &[]);
            }
        }
        self.b.switch_to_block(write);
    }
}
