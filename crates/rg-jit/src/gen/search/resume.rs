//! Direct resumes in searches: where the frame on top and what was written
//! since it resumed are known at generation time, a failing edge undoes
//! exactly those log entries and goes on at the frame's next (symbol,
//! edge) itself, and an exhausted frame resumes the frame below it where
//! that is known, instead of the frames' loop (its undo loop and its jump
//! table over every edge).
//!
//! A frame node's edges are entered only from its frame (`fresh`, the
//! seek, the frames' loop); a node without a frame has one edge, entered
//! inline from the edges into it. So per edge, on entering its body: the
//! top frame (its node, its edge taken) and the log entries written since,
//! if every way in agrees ([`flow`]); per frame node, the same of the frame
//! below it where every push of it agrees.

use std::collections::HashMap;

use cranelift_codegen::ir::types::I32;
use cranelift_codegen::ir::{Block, BlockArg, InstBuilder};
use rg_engine::raw::{Next, Op, Tables};

use super::{Region, Search};
use crate::gen::{Gen, FLAGS};
use crate::rt::Off;

/// Known log entries past a frame at most (beyond: not known).
const MAX_LOGS: u32 = 16;

/// Where a search's walk is: the top frame is region node `k`'s, taking
/// its local edge `local`, and `logs` log entries were written since.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(super) struct At {
    pub k: u32,
    pub local: u32,
    pub logs: u32,
}

/// What the walk knows at a point: nothing reaches it yet, one [`At`],
/// or not known.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Known {
    Unset,
    At(At),
    Unknown,
}

impl Known {
    /// The meet of two ways in.
    fn join(self, other: Known) -> Known {
        match (self, other) {
            (Known::Unset, x) | (x, Known::Unset) => x,
            (a, b) if a == b => a,
            _ => Known::Unknown,
        }
    }

    fn at(self) -> Option<At> {
        match self {
            Known::At(a) => Some(a),
            _ => None,
        }
    }
}

/// The log entries edge operation `op` writes.
pub(super) fn writes(op: Op) -> u32 {
    match op {
        Op::Assign(..) | Op::AssignAny(..) | Op::SetPlayer(_) => 1,
        _ => 0,
    }
}

/// Per local edge, what holds on entering its body; per region node, what
/// holds below its frame, where it is pushed.
pub(super) struct Flow {
    pub entry: Vec<Option<At>>,
    pub below: Vec<Option<At>>,
}

/// The [`Flow`] of the search over `region` (`at`: per node, its index in
/// the region) from `starts` to `target`.
pub(super) fn flow(t: &Tables, region: &Region, at: &[u32], starts: &[u32], target: u32) -> Flow {
    let nodes = &region.nodes;
    let mut entry = vec![Known::Unset; region.edges];
    let mut below = vec![Known::Unset; nodes.len()];
    // Nodes with frames: the starts (nothing known below) and the targets
    // of frame pushes.
    let mut framed = vec![false; nodes.len()];
    for &s in starts {
        framed[at[s as usize] as usize] = true;
        below[at[s as usize] as usize] = Known::Unknown;
    }
    for &n in nodes {
        let info = t.nodes[n as usize];
        for e in &t.edges[info.first as usize..info.end as usize] {
            if e.to != target && matches!(e.next, Next::Frame) {
                framed[at[e.to as usize] as usize] = true;
            }
        }
    }
    for (k, &n) in nodes.iter().enumerate() {
        if !framed[k] {
            continue;
        }
        let info = t.nodes[n as usize];
        let first = region.first[k];
        for l in first..first + (info.end - info.first) {
            let a = At {
                k: k as u32,
                local: l,
                logs: 0,
            };
            entry[l as usize] = entry[l as usize].join(Known::At(a));
        }
    }
    // Per local edge, its node's region index and its edge.
    let mut edge_of = Vec::with_capacity(region.edges);
    for (k, &n) in nodes.iter().enumerate() {
        let info = t.nodes[n as usize];
        edge_of.extend((info.first..info.end).map(|i| (k, i)));
    }
    let local_of = |n: u32, i: u32| {
        let k = at[n as usize] as usize;
        (region.first[k] + (i - t.nodes[n as usize].first)) as usize
    };
    // To a fixed point: each way in only lowers what is known.
    let mut work: Vec<usize> = (0..region.edges).collect();
    let mut queued = vec![true; region.edges];
    while let Some(l) = work.pop() {
        queued[l] = false;
        let (_, i) = edge_of[l];
        let e = t.edges[i as usize];
        if e.to == target {
            continue;
        }
        let out = match entry[l] {
            Known::At(a) if a.logs + writes(e.op) <= MAX_LOGS => Known::At(At {
                logs: a.logs + writes(e.op),
                ..a
            }),
            Known::Unset => continue,
            _ => Known::Unknown,
        };
        match e.next {
            Next::Inline(j) => {
                let m = local_of(e.to, j);
                let joined = entry[m].join(out);
                if joined != entry[m] {
                    entry[m] = joined;
                    if !queued[m] {
                        queued[m] = true;
                        work.push(m);
                    }
                }
            }
            Next::Frame => {
                let k = at[e.to as usize] as usize;
                below[k] = below[k].join(out);
            }
            Next::Dead => {}
        }
    }
    Flow {
        entry: entry.into_iter().map(Known::at).collect(),
        below: below.into_iter().map(Known::at).collect(),
    }
}

/// The resume blocks made so far, by where they resume, and those still
/// to emit.
#[derive(Default)]
pub(super) struct Resumes {
    made: HashMap<At, Block>,
    pending: Vec<(At, Block)>,
}

impl Search<'_> {
    /// Where edge body `local` goes when it fails after its action: the
    /// block resuming its known top frame, else the frames' loop.
    pub(super) fn fail(&self, g: &mut Gen<'_, '_>, local: u32, op: Op) -> Block {
        match self.flow.entry[local as usize] {
            Some(a) => self.resume(
                g,
                At {
                    logs: a.logs + writes(op),
                    ..a
                },
            ),
            None => self.dispatch,
        }
    }

    /// The block that resumes the walk at `a` (made when first asked for,
    /// emitted by [`Search::emit_resumes`]).
    pub(super) fn resume(&self, g: &mut Gen<'_, '_>, a: At) -> Block {
        let mut r = self.resumes.borrow_mut();
        if let Some(&blk) = r.made.get(&a) {
            return blk;
        }
        let blk = g.b.create_block();
        r.made.insert(a, blk);
        r.pending.push((a, blk));
        blk
    }

    /// Emits the resume blocks asked for, and those they ask for: the
    /// `logs` newest entries undone (the key hash and version back from
    /// the frame), then the frame's next symbol of its any-assignment, else
    /// its next edge, else it is popped.
    pub(super) fn emit_resumes(&self, g: &mut Gen<'_, '_>, (again, fresh): (&[Block], &[Block])) {
        loop {
            let next = self.resumes.borrow_mut().pending.pop();
            let Some((a, blk)) = next else {
                break;
            };
            g.b.switch_to_block(blk);
            if a.logs > 0 {
                g.undo_log(a.logs);
                let f = self.top(g);
                self.restore_keys(g, f);
            }
            let k = a.k as usize;
            let n = self.region.nodes[k];
            let first = self.region.first[k];
            let i = g.t.nodes[n as usize].first + (a.local - first);
            if let Op::AssignAny(_, (_, len)) = g.t.edges[i as usize].op {
                if len > 1 {
                    let f = self.top(g);
                    let sub = g.b.ins().load(I32, FLAGS, f, Off::F_SUB);
                    let [more, none] = g.blocks();
                    g.b.ins().brif(sub, more, &[], none, &[]);
                    g.b.switch_to_block(more);
                    let sub1 = g.b.ins().iadd_imm(sub, -1);
                    g.b.ins().store(FLAGS, sub1, f, Off::F_SUB);
                    g.b.ins()
                        .jump(again[a.local as usize], &[BlockArg::Value(sub1)]);
                    g.b.switch_to_block(none);
                }
            }
            self.next_edge(g, (a.k, a.local), first, fresh);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Check `s0 -> s9`'s flow: a frame at `s0` (two edges), each edge's
    /// chain inline to a comparison that knows the frame, the edge and the
    /// writes since (two on one chain, one on the other); the start's
    /// frame has nothing known below it.
    #[test]
    fn comparisons_on_inline_chains_know_their_frame() {
        let text = "type Player = {a, b};\ntype Score = {0, 1};\ntype C = {p, q, r};\n\
                    var x: C = p;\nvar y: C = p;\nbegin, n0: player = a;\n\
                    n0, n1: ? s0 -> s9;\nn1, end: player = keeper;\n\
                    s0, s1: x = q;\ns0, s3: x = r;\ns1, s2: y = q;\ns2, s9: x == r;\n\
                    s3, s9: y == q;\n";
        let game = rg_engine::GameModel::from_text(text).unwrap();
        let t = game.tables();
        let check = t.checks[0];
        let region = crate::gen::region(t, &[check.start], check.target, &|_| true).unwrap();
        let mut at = vec![u32::MAX; t.nodes.len()];
        for (k, &n) in region.nodes.iter().enumerate() {
            at[n as usize] = k as u32;
        }
        let flow = flow(t, &region, &at, &[check.start], check.target);
        let k0 = at[check.start as usize];
        assert_eq!(flow.below[k0 as usize], None);
        // Per comparison of the region: what its body knows.
        let mut cmps = Vec::new();
        for (k, &n) in region.nodes.iter().enumerate() {
            let info = t.nodes[n as usize];
            for (j, e) in t.edges[info.first as usize..info.end as usize]
                .iter()
                .enumerate()
            {
                if let Op::Cmp(..) = e.op {
                    cmps.push(flow.entry[region.first[k] as usize + j]);
                }
            }
        }
        assert_eq!(cmps.len(), 2, "{cmps:?}");
        let mut logs: Vec<u32> = cmps.iter().map(|a| a.expect("known").logs).collect();
        logs.sort();
        assert_eq!(logs, [1, 2]);
        let (a, b) = (cmps[0].unwrap(), cmps[1].unwrap());
        assert_eq!((a.k, b.k), (k0, k0));
        assert_ne!(a.local, b.local);
    }
}
