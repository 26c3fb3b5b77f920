//! Local visited checks of move walks in generated code: a node q with
//! one of rg-engine's local checks (`local.rs`: every walk into q passes
//! its frame node p, and q's keys repeat only within one visit of p,
//! where they differ only in one slot or none) has a stamp per (q, slot
//! value) holding the number of the visit of p it was last seen under.
//!
//! The interpreter numbers p's visits by p's frame (relays' frames carry
//! it), which tells a visit of p nested in another (a cycle back to p)
//! from the outer one. Generated frames are pushed, popped early or not
//! at all as the code's shortcuts decide, so here only frame nodes on no
//! cycle (and where no move walk starts) qualify: then a walk passes p at
//! most once, and the latest visit of p, numbered as it is entered (each
//! edge into p, after p's own visited check: [`Gen::local_visit`]), is the
//! visit on the walk's path whenever the walk reaches q, since every path
//! into q passes p. Numbers grow (`u64`, never reused), so a stamp equals
//! the number only when q was seen under that same visit: exactly the
//! drops of the visited set (the keys of two visits of p differ at q). The
//! other local checks keep the visited set (`rt::visit`), as before.

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::I64;
use cranelift_codegen::ir::{Block, InstBuilder};
use rg_engine::raw::{self, Op, Tables, NO_DENSE, NO_NODE, NO_SLOT};

use super::{Gen, FLAGS};
use crate::rt::Off;

/// Per node, its frame node if its local check is generated (else
/// [`NO_NODE`]), and per node whether it is such a frame node.
pub(crate) fn native_locals(t: &Tables) -> (Vec<u32>, Vec<bool>) {
    let n = t.nodes.len();
    let cyclic = raw::on_cycle(&t.nodes, &t.edges);
    // Where move walks start: `begin` and the targets of `player`
    // assignments.
    let mut start = vec![false; n];
    if n > 0 {
        start[0] = true;
    }
    for e in &t.edges {
        if matches!(e.op, Op::SetPlayer(_)) {
            start[e.to as usize] = true;
        }
    }
    let mut locals = vec![NO_NODE; n];
    let mut owners = vec![false; n];
    for (q, local) in locals.iter_mut().enumerate() {
        let p = t.local_frames.get(q).copied().unwrap_or(NO_NODE);
        if t.nodes[q].local == NO_DENSE || p == NO_NODE || start[p as usize] {
            continue;
        }
        if !cyclic[p as usize] {
            *local = p;
            owners[p as usize] = true;
        }
    }
    (locals, owners)
}

impl Gen<'_, '_> {
    /// The local visited check of node `n`, if it has a generated one
    /// (going `back` where its key was seen under the current visit of
    /// its frame node); false otherwise.
    pub(super) fn local_stamp(&mut self, n: u32, back: Block) -> bool {
        let p = self.locals.get(n as usize).copied().unwrap_or(NO_NODE);
        if p == NO_NODE {
            return false;
        }
        let info = self.t.nodes[n as usize];
        let ids = self.ws_load(Off::LOCAL_IDS);
        let number = self.b.ins().load(I64, FLAGS, ids, 8 * p as i32);
        let stamps = self.ws_load(Off::LOCAL);
        let at = match info.local_slot {
            NO_SLOT => stamps,
            slot => {
                let v = self.slot(slot);
                let i = self.widen(v);
                let off = self.b.ins().ishl_imm(i, 3);
                self.b.ins().iadd(stamps, off)
            }
        };
        let base = 8 * info.local as i32;
        let old = self.b.ins().load(I64, FLAGS, at, base);
        self.b.ins().store(FLAGS, number, at, base);
        let seen = self.b.ins().icmp(IntCC::Equal, old, number);
        self.exit_if(seen, back);
        true
    }

    /// Numbers the visit of frame node `p` just entered (a number no
    /// visit had).
    pub(super) fn local_visit(&mut self, p: u32) {
        let last = self.ws_load(Off::LOCAL_GEN);
        let number = self.b.ins().iadd_imm(last, 1);
        self.ws_store(number, Off::LOCAL_GEN);
        let ids = self.ws_load(Off::LOCAL_IDS);
        self.b.ins().store(FLAGS, number, ids, 8 * p as i32);
    }
}
