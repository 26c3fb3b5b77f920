//! Filtered any-assignments in searches: symbols skipped before they
//! are written, as the interpreter's filters skip them.

use cranelift_codegen::ir::types::I32;
use cranelift_codegen::ir::{Block, BlockArg, InstBuilder};
use rg_engine::raw::{Act, Op, Operand, Place, NO_EDGE};

use super::Search;
use crate::gen::{Gen, FLAGS};
use crate::rt::Off;

/// A filtered any-assignment whose symbols a search skips before it
/// writes them ([`Search::seekable`]).
pub(super) struct Seek {
    slot: u32,
    start: u32,
    len: u32,
    cmps: Vec<(Operand, Operand, bool)>,
}

impl Search<'_> {
    /// If edge `i` is a filtered any-assignment of several symbols to a
    /// fixed slot whose comparisons (`Edge::filter`'s, or the target's
    /// choice's, `Act::AnyTests`) read the slot only directly: the slot,
    /// the symbols and the comparisons, one of which must hold.
    pub(super) fn seekable(&self, g: &Gen<'_, '_>, i: u32) -> Option<Seek> {
        let t = g.t;
        let e = t.edges[i as usize];
        let Op::AssignAny(Place::Slot(slot), (start, len)) = e.op else {
            return None;
        };
        if len < 2 || e.to == self.target {
            return None;
        }
        let ks = match (e.filter, t.acts[i as usize]) {
            (f, _) if f != NO_EDGE => f..f + 1,
            (_, Act::AnyTests { first, count }) if count > 0 => first..first + count,
            _ => return None,
        };
        let mut cmps = Vec::new();
        for k in ks {
            match t.edges[k as usize].op {
                Op::Cmp(a, b, eq) if g.reads_directly(a, slot) && g.reads_directly(b, slot) => {
                    cmps.push((a, b, eq))
                }
                _ => return None,
            }
        }
        Some(Seek {
            slot,
            start,
            len,
            cmps,
        })
    }

    /// The seek block `seek` of a filtered any-assignment (parameter: the
    /// symbol index to try first): the first index from there down whose
    /// symbol passes ([`Search::seekable`]; the slot read as the symbol,
    /// nothing written) is the top frame's and goes on at the edge's body
    /// `blk`; none: the frame goes on at its next edge. The interpreter
    /// skips the same symbols before it writes them (`shortcut.rs`).
    pub(super) fn seek(
        &self,
        g: &mut Gen<'_, '_>,
        (seek, blk): (Block, Block),
        s: Seek,
        (local, first, fresh): ((u32, u32), u32, &[Block]),
    ) {
        g.b.switch_to_block(seek);
        let sub = g.b.block_params(seek)[0];
        let [lp, next, found, none] = g.blocks();
        g.b.ins().jump(lp, &[BlockArg::Value(sub)]);
        let l = g.b.append_block_param(lp, I32);
        g.b.switch_to_block(lp);
        let known = g.known.take();
        g.at = Some(crate::gen::Indexed {
            slot: s.slot,
            start: s.start,
            len: s.len,
            i: l,
        });
        let holds = g.some_holds(&s.cmps);
        g.at = None;
        g.known = known;
        g.b.ins().brif(holds, found, &[], next, &[]);
        g.b.switch_to_block(next);
        let l1 = g.b.ins().iadd_imm(l, -1);
        g.b.ins().brif(l, lp, &[BlockArg::Value(l1)], none, &[]);
        g.b.switch_to_block(found);
        let f = self.top(g);
        g.b.ins().store(FLAGS, l, f, Off::F_SUB);
        g.b.ins().jump(blk, &[BlockArg::Value(l)]);
        g.b.switch_to_block(none);
        let f = self.top(g);
        let zero = g.b.ins().iconst(I32, 0);
        g.b.ins().store(FLAGS, zero, f, Off::F_SUB);
        self.next_edge(g, local, first, fresh);
    }

    /// A symbol just written by any-assignment edge `i` (to a fixed slot)
    /// that the interpreter skips before it is taken goes back to the
    /// frames: one failing its filter comparison (`Edge::filter`), or one
    /// for which none of the target's comparisons holds (`Act::AnyTests`).
    pub(super) fn any_filter(&self, g: &mut Gen<'_, '_>, i: u32, back: Block) {
        let t = g.t;
        let e = t.edges[i as usize];
        if e.filter != NO_EDGE {
            if let Op::Cmp(a, b, eq) = t.edges[e.filter as usize].op {
                let fails = g.compare(a, b, eq);
                g.exit_if(fails, back);
            }
        } else if let Act::AnyTests { first, count } = t.acts[i as usize] {
            let passes = g.b.create_block();
            for k in first..first + count {
                if let Op::Cmp(a, b, eq) = t.edges[k as usize].op {
                    let fails = g.compare(a, b, eq);
                    let next = g.b.create_block();
                    g.b.ins().brif(fails, next, &[], passes, &[]);
                    g.b.switch_to_block(next);
                } else {
                    // (Not a comparison: the symbol is not skipped.)
                    g.b.ins().jump(passes, &[]);
                    let next = g.b.create_block();
                    g.b.switch_to_block(next);
                }
            }
            g.b.ins().jump(back, &[]);
            g.b.switch_to_block(passes);
        }
    }
}
