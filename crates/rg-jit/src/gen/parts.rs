//! What the generator decides about the graph before emitting code: the
//! walk's split into functions ([`Parts`]), where a walk may start
//! ([`roots`]), what the walks through each node keep ([`Keep`]), the undo
//! log's length on entry ([`log_lengths`]), the known chains a frame pops
//! onto ([`frames`]) and each node's resume blocks
//! ([`frame_bases`]).

use rg_engine::raw::{self, Next, Op, Place, Tables, NO_SLOT};

/// An edge that runs on the top frame's state changed by a known path: the
/// frame's resume block, and the log entries and tags pushed since it was
/// pushed or resumed.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(super) struct Chain {
    /// The frame's resume block ([`ANY_RESUME`]: the paths that meet here
    /// run on different ones, read from the frame).
    pub(super) resume: u32,
    /// Log entries pushed since.
    pub(super) logs: u32,
    /// Tags pushed since.
    pub(super) tags: u32,
}

impl Chain {
    /// After edge action `op` (`None`: a map assignment, whose log entries
    /// are not known).
    pub(super) fn after(self, op: Op) -> Option<Chain> {
        let (logs, tags) = match op {
            Op::AssignMap(_) => return None,
            Op::Assign(..) | Op::AssignAny(..) => (1, 0),
            Op::Tag(_) | Op::TagVar(_) => (0, 1),
            _ => (0, 0),
        };
        Some(Chain {
            logs: self.logs + logs,
            tags: self.tags + tags,
            ..self
        })
    }

    /// What two paths that meet run on: the same chain, or where they
    /// pushed as much since their top frames but resume them at different
    /// blocks, that with [`ANY_RESUME`].
    pub(super) fn meet(a: Option<Chain>, b: Option<Chain>) -> Option<Chain> {
        match (a, b) {
            (Some(a), Some(b)) if a == b => Some(a),
            (Some(a), Some(b)) if (a.logs, a.tags) == (b.logs, b.tags) => Some(Chain {
                resume: ANY_RESUME,
                ..a
            }),
            _ => None,
        }
    }
}

/// [`Chain::resume`] of paths that resume different blocks: the top
/// frame's own (`Frame::next`) is resumed through the dispatch on it, or
/// the walk ends where there is none.
pub(super) const ANY_RESUME: u32 = u32::MAX;

/// [`Chain::resume`] below the frame of a node only walks start at: there
/// is no frame, and what the chain pushed undone, the walk ends.
pub(super) const NO_FRAME: u32 = u32::MAX - 1;

/// Per node, whether move walks can reach it (from the nodes holding
/// frames: walks start at them). The others are only searched by checks.
fn walked(t: &Tables, bases: &[u32]) -> Vec<bool> {
    let mut reached: Vec<bool> = bases.iter().map(|&b| b != u32::MAX).collect();
    let mut stack: Vec<u32> = (0..reached.len() as u32)
        .filter(|&n| reached[n as usize])
        .collect();
    while let Some(n) = stack.pop() {
        let info = t.nodes[n as usize];
        for e in &t.edges[info.first as usize..info.end as usize] {
            if !reached[e.to as usize] {
                reached[e.to as usize] = true;
                stack.push(e.to);
            }
        }
    }
    reached
}

/// Edges (and resume blocks) of one walk function at most, a node's all in
/// one: Cranelift's time grows faster than a function's size, so a large
/// game is several functions. Passing between them costs a return to
/// `rt.rs`'s loop and a call (and split games go without Cranelift's
/// optimiser): englishDraughts.hrg and chess.hrg run 1.2-1.4x as fast as
/// one function as in 7 and 17 of 500.
pub const PART_EDGES: u32 = 10_000;

/// The move walk split into functions: each holds the edge and resume
/// blocks of a run of consecutive nodes. Control passes between them by a
/// *target* number: edge `i` is `i` (entered with no any-assignment
/// symbol), resume block `r` is `edges + r` (on the top frame), and
/// `edges + resumes + first` pushes the root frame (`first .. next`, its
/// resume block `next` the second argument). A function returns 0 (done),
/// 1 (error) or 2 + the target to go on at. With what the walks keep
/// ([`keep`]).
pub(crate) struct Parts {
    /// Per node, its function (`u32::MAX`: walks never reach it, so it has
    /// no blocks).
    pub node: Vec<u32>,
    /// Per target (edges, then resume blocks), its function.
    pub target: Vec<u32>,
    /// Number of functions.
    pub count: u32,
    /// What any walk keeps, and per node what the walks through it keep.
    pub keep: (Keep, Vec<Keep>),
    /// Per node, whether `moves` may start a walk there ([`starts`]).
    pub starts: Vec<bool>,
    /// Per node, the log on entry where its length is known: its entries'
    /// slots where known ([`log_lengths`]).
    pub log_at: Vec<Option<Vec<u32>>>,
    /// Whether move walks push few tags ([`raw::few_tags`]).
    pub few_tags: bool,
    /// The native local visited checks ([`super::local::native_locals`]).
    pub locals: (Vec<u32>, Vec<bool>),
    /// The nodes whose walks the entry starts at their own push block
    /// (or at their edge, pushing no frame), in order: target `edges +
    /// resumes + k` starts at the `k`th ([`direct_starts`]).
    pub direct: Vec<u32>,
    /// Per check, whether a walk's `? c` speculates
    /// ([`crate::plan::speculates`]).
    pub speculate: Vec<bool>,
    /// Per node, the node whose walks `moves` takes first (a lazy root's,
    /// [`lazy_roots`]), or [`raw::NO_NODE`].
    pub lazy: Vec<u32>,
    /// Per edge, its node ([`edge_nodes`]).
    pub(super) edge_node: Vec<u32>,
    /// Per node, whether its frame is popped before its last edge
    /// ([`early_pops`]).
    pub(super) early: Vec<bool>,
    /// Per edge and per node, what it runs on ([`frames`]): computed
    /// once for [`roots`], [`lazy_roots`] and every function's
    /// generation.
    pub(super) frames: (Vec<Option<Chain>>, Vec<Option<Chain>>),
    /// Per edge, the resume numbers its top frame can hold, and per node
    /// those below its frames ([`tops`]).
    pub(super) tops: (Vec<Tops>, Vec<Tops>),
}

impl Parts {
    /// Consecutive walked nodes in functions of at most `part_edges`
    /// edges and resume blocks (more where one node has more); `checks`:
    /// how each check is decided.
    pub(crate) fn new(
        t: &Tables,
        bases: &[u32],
        part_edges: u32,
        checks: &[crate::CheckCode],
    ) -> Parts {
        let walked = walked(t, bases);
        let (mut part, mut size) = (0, 0);
        let node: Vec<u32> = t
            .nodes
            .iter()
            .enumerate()
            .map(|(n, info)| {
                let edges = info.end - info.first;
                if !walked[n] {
                    return u32::MAX;
                }
                let w = match bases[n] != u32::MAX {
                    false => edges,
                    true => 2 * edges + 1,
                };
                if size > 0 && size + w > part_edges {
                    part += 1;
                    size = 0;
                }
                size += w;
                part
            })
            .collect();
        let mut target = Vec::with_capacity(t.edges.len());
        let mut resumes = Vec::new();
        for (n, info) in t.nodes.iter().enumerate() {
            target.extend((info.first..info.end).map(|_| node[n]));
            if bases[n] != u32::MAX {
                resumes.extend((info.first..=info.end).map(|_| node[n]));
            }
        }
        target.extend(resumes);
        let edge_node = edge_nodes(t);
        let early = early_pops(t, bases);
        let frames = frames(t, bases, &edge_node, &early);
        let roots = roots(bases, &frames.1);
        let mut starts = starts(t, bases);
        let log_at = log_lengths(t, &starts);
        let locals = super::local::native_locals(t);
        let lazy = lazy_roots(
            t,
            bases,
            (&frames.0, &frames.1),
            (&starts, &log_at),
            &locals.1,
        );
        for &b in lazy.iter().filter(|&&b| b != raw::NO_NODE) {
            starts[b as usize] = true;
        }
        let direct = direct_starts(t, &starts);
        let tops = tops(t, bases, (&early, &starts, &walked));
        Parts {
            node,
            target,
            count: part + 1,
            keep: keep(t, checks, &roots),
            log_at,
            few_tags: raw::few_tags(&t.nodes, &t.edges, &roots),
            locals,
            lazy,
            starts,
            direct,
            speculate: crate::plan::speculates(t, checks),
            edge_node,
            early,
            frames,
            tops,
        }
    }
}

/// The start nodes ([`starts`], which hold frames, and the targets of
/// [`lazy_roots`]) that have edges and are not `@disjoint` (whose first
/// edge `moves` picks per walk): the entry starts their walks at a block
/// of their own (`Gen::emit_entry`), with the frame's edges and resume
/// block constants, not through the shared push and its jump table;
/// where the node's frame is popped before its only edge
/// ([`early_pops`]), or it holds none, at that edge, with no frame.
pub(super) fn direct_starts(t: &Tables, starts: &[bool]) -> Vec<u32> {
    (0..t.nodes.len() as u32)
        .filter(|&n| {
            let info = t.nodes[n as usize];
            starts[n as usize] && !info.disjoint && info.end > info.first
        })
        .collect()
}

/// Per node `a`, the node `b` whose walks `moves` takes first: rg-engine's
/// lazy root (`mirror.rs`: `a`'s moves are `b`'s where there are any, else
/// the walk from `a` as written), where `a` is a start and the code at
/// `b` knows what a walk started there has: entered inline on no frame
/// (its edge's chain, or its frame's parent chain, is [`NO_FRAME`] with
/// nothing pushed since), with an empty log where the log is known, not
/// `@disjoint`, not a native local check's frame node (numbered as it is
/// entered: `gen/local.rs`). Else [`raw::NO_NODE`]: the check's walk is
/// run as written. `chain`, `parent`: [`frames`].
fn lazy_roots(
    t: &Tables,
    bases: &[u32],
    (chain, parent): (&[Option<Chain>], &[Option<Chain>]),
    (starts, log_at): (&[bool], &[Option<Vec<u32>>]),
    owners: &[bool],
) -> Vec<u32> {
    let fresh = Some(Chain {
        resume: NO_FRAME,
        logs: 0,
        tags: 0,
    });
    t.lazy
        .iter()
        .enumerate()
        .map(|(a, &b)| {
            if b == raw::NO_NODE || !starts[a] {
                return raw::NO_NODE;
            }
            let (n, info) = (b as usize, t.nodes[b as usize]);
            let known = match bases[n] {
                u32::MAX => chain[info.first as usize],
                _ => parent[n],
            };
            let taken = info.end > info.first
                && !info.disjoint
                && !owners[n]
                && known == fresh
                && log_at[n].as_ref().is_none_or(Vec::is_empty);
            match taken {
                true => b,
                false => raw::NO_NODE,
            }
        })
        .collect()
}

/// Per node, whether its frame is popped before its last edge (its first)
/// is taken, so that what follows that edge backtracks onto the frame
/// below at once: nodes holding frames but `@disjoint` ones (whose first
/// edge left is the frame's), those whose first edge is an any-assignment
/// (the frame holds its symbols), those on a cycle (a walk round a
/// cycle is bounded by the frames it pushes, `MAX_FRAMES`, as the
/// interpreter's) and those whose first edge enters a node another of
/// their edges enters: there the first edge's chain (the frame below's)
/// would not meet the others' (the node's own frame's, with fewer logs),
/// so the node entered would know no chain and its frames no parent
/// ([`parents`]), popping through the generic backtrack (15puzzle's tile
/// switch after `coord = goK[coord]` x4: 3.9 mispredicted indirect jumps
/// per state).
pub(super) fn early_pops(t: &Tables, bases: &[u32]) -> Vec<bool> {
    let comp = raw::components(&t.nodes, &t.edges);
    let mut size = vec![0u32; t.nodes.len()];
    for &c in &comp {
        size[c as usize] += 1;
    }
    t.nodes
        .iter()
        .enumerate()
        .map(|(n, info)| {
            let edges = &t.edges[info.first as usize..info.end as usize];
            let cyclic = size[comp[n] as usize] > 1
                || edges
                    .iter()
                    .any(|e| e.to as usize == n && !matches!(e.op, Op::SetPlayer(_)));
            bases[n] != u32::MAX
                && !info.disjoint
                && !cyclic
                && !edges.is_empty()
                && !matches!(edges[0].op, Op::AssignAny(..))
                && !edges[1..].iter().any(|e| e.to == edges[0].to)
        })
        .collect()
}

/// The chains of the edges ([`chains`]) and the chains the nodes' frames
/// pop onto ([`parents`]), each given the other: the first edge of a node
/// whose frame is popped before it ([`early_pops`]) runs on the frame
/// below, on its node's parent chain. From no parent known, each round
/// knows more (a parent, once known, stays: every chain it agrees with
/// stays), and every round's answer holds; at most one round per node.
pub(super) fn frames(
    t: &Tables,
    bases: &[u32],
    edge_node: &[u32],
    early: &[bool],
) -> (Vec<Option<Chain>>, Vec<Option<Chain>>) {
    let mut parent = vec![None; t.nodes.len()];
    let mut chain = chains(t, bases, edge_node, early, &parent);
    for _ in 0..=t.nodes.len() {
        let next = parents(t, bases, edge_node, &chain);
        if next == parent {
            break;
        }
        parent = next;
        chain = chains(t, bases, edge_node, early, &parent);
    }
    (chain, parent)
}

/// Per edge, the top frame's resume block and what the path from the
/// frame pushed, when they are known: for the edges of a node holding
/// frames that no edge reaches inline (entered only from the node's resume
/// blocks, on the frame's state; a first edge taken after its frame's pop
/// on the frame below, where its node's `parent` chain is known), and along
/// inline chains from them into nodes without frames (where several edges
/// enter one, what they meet on: [`Chain::meet`]). Such an edge
/// backtracks by undoing what it knows and jumping to the resume block
/// (nothing to undo: a failing comparison or check resumes the frame at
/// once; [`ANY_RESUME`]: through the dispatch on the frame's own) instead
/// of the generic backtrack.
pub(super) fn chains(
    t: &Tables,
    bases: &[u32],
    edge_node: &[u32],
    early: &[bool],
    parent: &[Option<Chain>],
) -> Vec<Option<Chain>> {
    // Inline entries from the edges move walks can take.
    let reached = walked(t, bases);
    let mut inline_in = vec![0u32; t.edges.len()];
    for (e, &n) in t.edges.iter().zip(edge_node) {
        if let (Next::Inline(k), true) = (e.next, reached[n as usize]) {
            inline_in[k as usize] += 1;
        }
    }
    let mut chain = vec![None; t.edges.len()];
    let mut work = Vec::new();
    for (i, &n) in edge_node.iter().enumerate() {
        let base = bases[n as usize];
        if base != u32::MAX && inline_in[i] == 0 {
            let first = t.nodes[n as usize].first;
            chain[i] = match i as u32 == first && early[n as usize] {
                true => parent[n as usize],
                false => Some(Chain {
                    resume: base + i as u32 - first,
                    logs: 0,
                    tags: 0,
                }),
            };
            if chain[i].is_some() {
                work.push(i);
            }
        }
    }
    // Per edge entered inline by several, the entries that have arrived
    // with a chain and what they meet on ([`Chain::meet`]).
    let mut arrived = vec![(0u32, None); t.edges.len()];
    while let Some(i) = work.pop() {
        let e = t.edges[i];
        if let (Next::Inline(k), Some(c)) = (e.next, chain[i].and_then(|c| c.after(e.op))) {
            let k = k as usize;
            if bases[edge_node[k] as usize] != u32::MAX || chain[k].is_some() {
                continue;
            }
            let (n, met) = arrived[k];
            let met = if n == 0 {
                Some(c)
            } else {
                Chain::meet(met, Some(c))
            };
            arrived[k] = (n + 1, met);
            // Known once every entry has arrived (an entry without a
            // chain never does).
            if n + 1 == inline_in[k] && met.is_some() {
                chain[k] = met;
                work.push(k);
            }
        }
    }
    chain
}

/// A run of inline edges generated again for the edges that enter its
/// first on one chain: there it knows its chain, where the edges that
/// enter it on different chains left the original without one
/// ([`runs`]).
pub(super) struct Run {
    /// The edges that enter it (inline, with no symbol).
    pub(super) from: Vec<usize>,
    /// Its edges, each the previous one's inline successor.
    pub(super) edges: Vec<usize>,
    /// The chain of its first edge.
    pub(super) chain: Chain,
}

/// Edges of a [`Run`] at most: a run ends where the walk leaves it at
/// once anyway (a frame, the move's record) or after this many.
const RUN_EDGES: usize = 8;

/// Chains of one edge at most that get runs of their own.
const RUN_CHAINS: usize = 8;

/// The runs generated again ([`Run`]): from each edge of a node without a
/// frame that edges enter inline on several chains (so it knows none),
/// the inline edges that follow while one edge enters each (not past
/// a frame's push, a map assignment or the move's record), where some
/// edge of the run can backtrack (a comparison, a check, a visited check,
/// the record): per chain that enters it (at most [`RUN_CHAINS`]),
/// entered by the edges `entered` lets in (of this function, not
/// any-assignments: their filters go on past their comparisons), at most
/// `budget` edges in all.
pub(super) fn runs(
    t: &Tables,
    bases: &[u32],
    edge_node: &[u32],
    chain: &[Option<Chain>],
    entered: impl Fn(usize) -> bool,
    mut budget: usize,
) -> Vec<Run> {
    let reached = walked(t, bases);
    let mut inline_in = vec![0u32; t.edges.len()];
    let mut from: Vec<Vec<usize>> = vec![Vec::new(); t.edges.len()];
    for (i, e) in t.edges.iter().enumerate() {
        if let (Next::Inline(k), true) = (e.next, reached[edge_node[i] as usize]) {
            inline_in[k as usize] += 1;
            from[k as usize].push(i);
        }
    }
    let filtered: Vec<bool> = {
        let mut f = vec![false; t.edges.len()];
        for e in &t.edges {
            if e.filter != raw::NO_EDGE {
                f[e.filter as usize] = true;
            }
        }
        f
    };
    let mut runs = Vec::new();
    for k in 0..t.edges.len() {
        if inline_in[k] < 2
            || chain[k].is_some()
            || bases[edge_node[k] as usize] != u32::MAX
            || filtered[k]
            || !entered(k)
        {
            continue;
        }
        // The edges of the run, and whether one can backtrack.
        let mut edges = vec![k];
        let mut exits = false;
        loop {
            let e = t.edges[*edges.last().unwrap()];
            exits |= e.guard
                || e.next == Next::Dead
                || matches!(
                    e.op,
                    Op::Cmp(..) | Op::CmpMap(..) | Op::Reach(..) | Op::SetPlayer(_)
                );
            let Next::Inline(j) = e.next else { break };
            let j = j as usize;
            let stop = matches!(e.op, Op::SetPlayer(_) | Op::AssignMap(_))
                || inline_in[j] != 1
                || bases[edge_node[j] as usize] != u32::MAX
                || filtered[j]
                || !entered(j)
                || edges.len() == RUN_EDGES;
            if stop {
                break;
            }
            edges.push(j);
        }
        if !exits {
            continue;
        }
        let mut chains: Vec<(Chain, Vec<usize>)> = Vec::new();
        for &i in &from[k] {
            let e = t.edges[i];
            let c = chain[i].and_then(|c| c.after(e.op));
            let (Some(c), false) = (c, matches!(e.op, Op::AssignAny(..))) else {
                continue;
            };
            if !entered(i) {
                continue;
            }
            match chains.iter_mut().find(|(d, _)| *d == c) {
                Some((_, f)) => f.push(i),
                None => chains.push((c, vec![i])),
            }
        }
        if chains.len() > RUN_CHAINS || chains.len() * edges.len() > budget {
            continue;
        }
        budget -= chains.len() * edges.len();
        for (c, f) in chains {
            runs.push(Run {
                from: f,
                edges: edges.clone(),
                chain: c,
            });
        }
    }
    runs
}

/// The resume numbers a top frame can hold (its `next`), where at most
/// [`MAX_TOPS`] are possible, sorted ([`NO_FRAME`]: there may be no frame);
/// `None`: more, or not known.
pub(super) type Tops = Option<Vec<u32>>;

/// Resume numbers a [`Tops`] set holds at most.
const MAX_TOPS: usize = 256;

/// Per edge, the resume numbers the top frame can hold when the edge runs,
/// and per node holding frames, those the frame below its frames can hold
/// (what its pops resume): the frame's own resume number on a node's edges
/// entered from its resume blocks (a first edge taken after its frame's
/// early pop, [`early_pops`], runs on the frame below), carried along
/// inline edges and into the frames that edges push; no frame below the
/// frames of nodes walks start at. The union over every path, so chains
/// whose [`Chain::resume`] is `ANY_RESUME` still know a few blocks: their
/// resumptions dispatch over those (`gen/frames.rs` `Gen::resume_top`),
/// each set with its own branches, not through the one jump table of every
/// resume block. (The generic backtrack of unknown chains stays shared: a
/// copy of its undo loop per set cost amazons 1.6% more instructions.)
/// Edges walks never reach get `None`. `reached`: [`walked`].
pub(super) fn tops(
    t: &Tables,
    bases: &[u32],
    (early, starts, reached): (&[bool], &[bool], &[bool]),
) -> (Vec<Tops>, Vec<Tops>) {
    // `Some(None)`: not reached yet; `None`: too many or unknown.
    let mut edge: Vec<Option<Tops>> = vec![Some(None); t.edges.len()];
    let mut node: Vec<Option<Tops>> = vec![Some(None); t.nodes.len()];
    fn add(to: &mut Option<Tops>, from: &Option<Tops>) -> bool {
        let next = match (&*to, from) {
            (_, Some(None)) | (None, _) => return false,
            (Some(None), f) => f.clone(),
            (Some(Some(_)), None) => None,
            (Some(Some(a)), Some(Some(b))) => {
                let mut u = a.clone();
                u.extend(b);
                u.sort_unstable();
                u.dedup();
                match u.len() > MAX_TOPS {
                    true => None,
                    false => Some(Some(u)),
                }
            }
        };
        let changed = next != *to;
        *to = next;
        changed
    }
    let mut work = Vec::new();
    for (n, info) in t.nodes.iter().enumerate() {
        if !reached[n] {
            continue;
        }
        if starts[n] || (n == 0 && bases[n] != u32::MAX) {
            let none = Some(Some(vec![NO_FRAME]));
            match bases[n] {
                u32::MAX if info.end > info.first => {
                    add(&mut edge[info.first as usize], &none);
                    work.push(info.first as usize);
                }
                u32::MAX => {}
                _ => {
                    add(&mut node[n], &none);
                }
            }
        }
        if bases[n] == u32::MAX {
            continue;
        }
        for i in info.first..info.end {
            if i == info.first && early[n] {
                let p = node[n].clone();
                add(&mut edge[i as usize], &p);
            } else {
                let own = Some(Some(vec![bases[n] + i - info.first]));
                add(&mut edge[i as usize], &own);
            }
            work.push(i as usize);
        }
    }
    while let Some(i) = work.pop() {
        let e = t.edges[i];
        let v = edge[i].clone();
        match e.next {
            _ if matches!(e.op, Op::SetPlayer(_)) => {}
            Next::Inline(k) => {
                if add(&mut edge[k as usize], &v) {
                    work.push(k as usize);
                }
            }
            Next::Frame => {
                let to = e.to as usize;
                if add(&mut node[to], &v) && early[to] && bases[to] != u32::MAX {
                    let first = t.nodes[to].first as usize;
                    let p = node[to].clone();
                    if add(&mut edge[first], &p) {
                        work.push(first);
                    }
                }
            }
            Next::Dead => {}
        }
    }
    let done = |v: Vec<Option<Tops>>| v.into_iter().map(|x| x.and_then(|x| x)).collect();
    (done(edge), done(node))
}

/// Per node holding frames, what its frames run on when they are pushed:
/// the chain after the action of every edge that pushes one, where they
/// meet ([`Chain::meet`]; `None` when they push differently or are
/// unknown, and for the nodes a walk can start at, `begin` and where
/// moves end, whose frame may be the root; [`NO_FRAME`] for those that
/// no other edge enters, whose frame is always the root). An exhausted
/// frame of such a node is popped by undoing that chain and resuming the
/// frame below it directly, instead of through the generic backtrack.
pub(super) fn parents(
    t: &Tables,
    bases: &[u32],
    edge_node: &[u32],
    chain: &[Option<Chain>],
) -> Vec<Option<Chain>> {
    let reached = walked(t, bases);
    // `Some(None)`: pushed along chains that differ (or are unknown).
    let mut parent: Vec<Option<Option<Chain>>> = vec![None; t.nodes.len()];
    let mut root = vec![false; t.nodes.len()];
    root[0] = true;
    // Entered other than where walks start.
    let mut entered = vec![false; t.nodes.len()];
    for (i, e) in t.edges.iter().enumerate() {
        if !reached[edge_node[i] as usize] {
            continue;
        }
        let to = e.to as usize;
        if matches!(e.op, Op::SetPlayer(_)) {
            root[to] = true;
            continue;
        }
        entered[to] = true;
        if e.next != Next::Frame {
            root[to] = true;
            continue;
        }
        let c = chain[i].and_then(|c| c.after(e.op));
        parent[to] = match parent[to] {
            None => Some(c),
            Some(p) => Some(Chain::meet(p, c)),
        };
    }
    parent
        .into_iter()
        .zip(root)
        .zip(entered)
        .zip(bases)
        .map(|(((p, root), entered), &base)| match (root, entered) {
            _ if base == u32::MAX => None,
            (true, false) => Some(Chain {
                resume: NO_FRAME,
                logs: 0,
                tags: 0,
            }),
            (true, true) => None,
            (false, _) => p.flatten(),
        })
        .collect()
}

/// Per node, whether its frame may be the root, as far as the generator
/// knows: nodes holding frames whose frames are not all pushed on a known
/// chain ([`parents`]), so they pop through the generic backtrack, and
/// those only walks start at. Walks start only at some of them
/// ([`starts`]). `parent`: [`frames`]' second.
fn roots(bases: &[u32], parent: &[Option<Chain>]) -> Vec<bool> {
    parent
        .iter()
        .zip(bases)
        .map(|(p, &base)| base != u32::MAX && p.is_none_or(|c| c.resume == NO_FRAME))
        .collect()
}

/// Per node, whether `moves` may start a walk there (with an empty log):
/// `begin` and where moves end. The other [`roots`] (frames pushed on
/// chains that differ) are only entered mid-walk, so the log's length
/// there is what the paths into them write ([`log_lengths`]); the
/// walker hands walks from any other node to the interpreter.
fn starts(t: &Tables, bases: &[u32]) -> Vec<bool> {
    let mut start = vec![false; t.nodes.len()];
    start[0] = bases[0] != u32::MAX;
    for e in &t.edges {
        if matches!(e.op, Op::SetPlayer(_)) {
            start[e.to as usize] = bases[e.to as usize] != u32::MAX;
        }
    }
    start
}

/// What of the semistate's bookkeeping the walk functions keep up to
/// date: the key hash (read by visited checks and by checks that the
/// interpreter or writing programs decide), the version (read by the
/// memo of reachability checks) and the tags in playouts (read by visited
/// checks; `Effects` sinks record none, so only their number, for the
/// bound, is kept). A game whose walks never read one skips its update at
/// every write, tag, frame push and backtrack.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Keep {
    pub hash: bool,
    pub version: bool,
    pub tags: bool,
}

impl Keep {
    /// Everything (checks' own code).
    pub(crate) const ALL: Keep = Keep {
        hash: true,
        version: true,
        tags: true,
    };
}

/// What `t`'s walks read ([`Keep`]), given how each check is decided:
/// per node, what the walks through it read (a walk starts at a root, and
/// `moves` computes the hash afresh there), and what any walk reads.
fn keep(t: &Tables, checks: &[crate::CheckCode], roots: &[bool]) -> (Keep, Vec<Keep>) {
    use crate::CheckCode;
    // (Checks decided by the interpreter, writing programs and searches read the
    // hash; `@disjoint` nodes test their reachability checks through the
    // interpreter.)
    let slow = t.nodes.iter().any(|n| n.disjoint)
        || checks.iter().any(|c| {
            matches!(
                c,
                CheckCode::Interpreted | CheckCode::Writing(..) | CheckCode::Search
            )
        });
    let none = Keep {
        hash: false,
        version: false,
        tags: false,
    };
    let mut node = vec![none; t.nodes.len()];
    let mut seen = vec![u32::MAX; t.nodes.len()];
    let mut region = Vec::new();
    for (root, &is_root) in roots.iter().enumerate() {
        if !is_root {
            continue;
        }
        // The nodes walks from `root` enter, and what they read.
        region.clear();
        region.push(root as u32);
        seen[root] = root as u32;
        let (mut guard, mut reach, mut k) = (false, false, 0);
        while k < region.len() {
            let info = t.nodes[region[k] as usize];
            k += 1;
            for e in &t.edges[info.first as usize..info.end as usize] {
                guard |= e.guard;
                reach |= matches!(e.op, Op::Reach(..));
                if !matches!(e.op, Op::SetPlayer(_)) && seen[e.to as usize] != root as u32 {
                    seen[e.to as usize] = root as u32;
                    region.push(e.to);
                }
            }
        }
        for &n in &region {
            let n = &mut node[n as usize];
            n.hash |= guard || (reach && slow);
            n.version |= reach;
            n.tags |= guard;
        }
    }
    let any = node.iter().fold(none, |a, k| Keep {
        hash: a.hash || k.hash,
        version: a.version || k.version,
        tags: a.tags || k.tags,
    });
    (any, node)
}

/// Logs longer than this are not tracked by [`log_lengths`] (a record then
/// copies them in a loop): the entries kept per node stay bounded (a
/// chain of assignments would otherwise keep a quadratic number).
const MAX_KNOWN_LOG: usize = 256;

/// Per node, the undo log whenever a move walk enters it (from `starts`),
/// where every walk agrees on its length (`None`: map assignments, paths
/// that differ, or more than [`MAX_KNOWN_LOG`] entries): per entry, its
/// slot where every walk writes that slot there (a constant place), else
/// [`NO_SLOT`].
fn log_lengths(t: &Tables, starts: &[bool]) -> Vec<Option<Vec<u32>>> {
    #[derive(Clone, PartialEq)]
    enum Log {
        Unseen,
        Known(Vec<u32>),
        Varies,
    }
    let mut log = vec![Log::Unseen; t.nodes.len()];
    let mut work = Vec::new();
    for (n, &start) in starts.iter().enumerate() {
        if start {
            log[n] = Log::Known(Vec::new());
            work.push(n);
        }
    }
    while let Some(n) = work.pop() {
        let info = t.nodes[n];
        for e in &t.edges[info.first as usize..info.end as usize] {
            let written = |slots: &Vec<u32>, p: Place| {
                if slots.len() >= MAX_KNOWN_LOG {
                    return Log::Varies;
                }
                let s = match p {
                    Place::Slot(s) => s,
                    _ => NO_SLOT,
                };
                Log::Known(slots.iter().copied().chain([s]).collect())
            };
            let after = match (&log[n], e.op) {
                (_, Op::SetPlayer(_)) => continue,
                (Log::Known(k), Op::Assign(p, _) | Op::AssignAny(p, _)) => written(k, p),
                (_, Op::AssignMap(_)) => Log::Varies,
                (l, _) => l.clone(),
            };
            let to = e.to as usize;
            let merged = match (&log[to], after) {
                (Log::Unseen, after) => after,
                (Log::Known(a), Log::Known(b)) if a.len() == b.len() => Log::Known(
                    a.iter()
                        .zip(&b)
                        .map(|(&x, &y)| if x == y { x } else { NO_SLOT })
                        .collect(),
                ),
                (l, after) if *l == after => after,
                _ => Log::Varies,
            };
            if merged != log[to] {
                log[to] = merged;
                work.push(to);
            }
        }
    }
    log.into_iter()
        .map(|l| match l {
            Log::Known(k) => Some(k),
            _ => None,
        })
        .collect()
}

/// Per edge, its node.
pub(super) fn edge_nodes(t: &Tables) -> Vec<u32> {
    let mut edge_node = vec![0; t.edges.len()];
    for (n, info) in t.nodes.iter().enumerate() {
        for i in info.first..info.end {
            edge_node[i as usize] = n as u32;
        }
    }
    edge_node
}

/// Per node, the number of its first resume block, for the nodes that can
/// hold a frame (`begin`, where moves end, the targets of `Next::Frame`
/// edges that move walks reach: nodes only checks search, such as a
/// translation's copies of the rules, get no code, and what their walks
/// keep does not burden the moves'); `u32::MAX` for the others. A frame's
/// `next` is its resume block's number.
pub(crate) fn frame_bases(t: &Tables) -> Vec<u32> {
    let mut framed = vec![false; t.nodes.len()];
    framed[0] = true;
    for e in &t.edges {
        if matches!(e.op, Op::SetPlayer(_)) {
            framed[e.to as usize] = true;
        }
    }
    // Move walks start at `begin` and where moves end.
    let mut moving = framed.clone();
    let mut stack: Vec<u32> = (0..t.nodes.len() as u32)
        .filter(|&n| moving[n as usize])
        .collect();
    while let Some(n) = stack.pop() {
        let info = t.nodes[n as usize];
        for e in &t.edges[info.first as usize..info.end as usize] {
            framed[e.to as usize] |= e.next == Next::Frame;
            if !moving[e.to as usize] {
                moving[e.to as usize] = true;
                stack.push(e.to);
            }
        }
    }
    let mut count = 0;
    t.nodes
        .iter()
        .zip(framed)
        .map(|(n, f)| match f {
            true => {
                count += n.end - n.first + 1;
                count - (n.end - n.first + 1)
            }
            false => u32::MAX,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gen::tests::moves_both;

    /// `text`'s game, its edges' and nodes' chains ([`frames`]) and its
    /// first comparison edge.
    fn framed(
        text: &str,
    ) -> (
        rg_engine::GameModel,
        Vec<Option<Chain>>,
        Vec<Option<Chain>>,
        usize,
    ) {
        let game = rg_engine::GameModel::from_text(text).unwrap();
        let t = game.tables();
        let bases = frame_bases(t);
        let (chain, parent) = frames(t, &bases, &edge_nodes(t), &early_pops(t, &bases));
        let cmp = t.edges.iter().position(|e| matches!(e.op, Op::Cmp(..)));
        (game, chain, parent, cmp.unwrap())
    }

    /// A choice of three edges whose chains meet at `k` before a comparison.
    const MEET: &str = "type Player = {a, b};\ntype Score = {0, 1};\ntype C = {p, q, r};\n\
                        var x: C = p;\nvar y: C = p;\nbegin, n0: player = a;\n\
                        n0, j1: x = q;\nn0, j2: x = r;\nn0, j3: x = p;\nj1, k: y = q;\n\
                        j2, k: y = r;\nj3, k: y = p;\nk, m: x == q;\nm, end: player = keeper;\n";

    /// A node without a frame entered inline from every edge of a choice
    /// (each resuming the choice's frame at another block, the first after
    /// the frame's early pop, on no frame at all: the choice is where the
    /// player's walks start) knows what was pushed since (two log
    /// entries): its failing comparison undoes them and resumes the
    /// frame's own block, or ends the walk ([`ANY_RESUME`]); and the
    /// native walk lists the interpreter's moves.
    #[test]
    fn chains_that_meet_resume_the_frames_own_block() {
        let (game, chain, parent, cmp) = framed(MEET);
        let t = game.tables();
        let met = Chain {
            resume: ANY_RESUME,
            logs: 2,
            tags: 0,
        };
        assert!(chain[cmp] == Some(met));
        let start = t.edges[t.nodes[0].first as usize].to as usize;
        let none = Chain {
            resume: NO_FRAME,
            logs: 0,
            tags: 0,
        };
        assert!(parent[start] == Some(none));
        assert_eq!(moves_both(&game), [1, 1]);
    }

    /// The node entered inline from every edge of the choice (whose
    /// comparison resumes the top frame through a dispatch on its own
    /// resume number, `ANY_RESUME`) knows which numbers that frame can
    /// hold ([`tops`]): the choice's second and third edges' (its first is
    /// taken after the frame's early pop, on no frame), so its backtrack
    /// dispatches over those two alone.
    #[test]
    fn tops_are_the_resume_numbers_that_meet() {
        let (game, _, _, cmp) = framed(MEET);
        let t = game.tables();
        let bases = frame_bases(t);
        let early = early_pops(t, &bases);
        let (edge, _) = tops(t, &bases, (&early, &starts(t, &bases), &walked(t, &bases)));
        let n0 = t.edges[t.nodes[0].first as usize].to as usize;
        let base = bases[n0];
        assert_eq!(edge[cmp], Some(vec![base + 1, base + 2, NO_FRAME]));
        assert_eq!(moves_both(&game), [1, 1]);
    }

    /// A node without a frame entered inline on two chains that pushed
    /// different numbers of log entries (so it knows none) gets its run,
    /// the failing comparison and the move's end, generated once per
    /// incoming chain, each knowing its chain ([`runs`]); the native walk
    /// lists the interpreter's move (only the path that wrote `x = q`
    /// passes).
    #[test]
    fn runs_after_a_join_know_each_incoming_chain() {
        let text = "type Player = {a, b};\ntype Score = {0, 1};\ntype C = {p, q, r};\n\
                    var x: C = p;\nvar y: C = p;\nbegin, n0: player = a;\n\
                    n0, j1: x = q;\nn0, k: y = r;\nj1, k: y = q;\nk, m: x == q;\n\
                    m, end: player = keeper;\n";
        let (game, chain, _, cmp) = framed(text);
        let t = game.tables();
        assert!(chain[cmp].is_none(), "the join knows no chain");
        let runs = runs(t, &frame_bases(t), &edge_nodes(t), &chain, |_| true, 64);
        assert_eq!(runs.len(), 2);
        let mut logs: Vec<u32> = runs.iter().map(|r| r.chain.logs).collect();
        logs.sort();
        assert_eq!(logs, [1, 2]);
        for r in &runs {
            assert_eq!(r.edges[0], cmp);
            assert_eq!(r.from.len(), 1);
        }
        assert_eq!(moves_both(&game), [1, 1]);
    }

    /// A choice whose two edges both enter the choice `j` is not popped
    /// early ([`early_pops`]): its edges' chains meet, so `j`'s frames
    /// know what they pop onto (the top frame's own block, past the log
    /// of `y`), not the generic backtrack; the native walk lists the
    /// interpreter's moves.
    #[test]
    fn choices_into_one_node_keep_their_frame() {
        let text = "type Player = {a, b};\ntype Score = {0, 1};\ntype C = {p, q, r};\n\
                    var x: C = p;\nvar y: C = p;\nbegin, n0: player = a;\n\
                    n0, n1: x = C(*);\nn1, j: y = q;\nn1, j: y = r;\nj, k: x = p;\n\
                    j, k: x = q;\nk, end: player = keeper;\n";
        let game = rg_engine::GameModel::from_text(text).unwrap();
        let t = game.tables();
        let bases = frame_bases(t);
        let early = early_pops(t, &bases);
        let parent = frames(t, &bases, &edge_nodes(t), &early).1;
        let n1 = t.edges[t.nodes[0].first as usize].to as usize;
        let n1 = t.edges[t.nodes[n1].first as usize].to as usize;
        let j = t.edges[t.nodes[n1].first as usize].to as usize;
        assert!(!early[n1]);
        let met = Chain {
            resume: ANY_RESUME,
            logs: 1,
            tags: 0,
        };
        assert!(parent[j] == Some(met));
        assert_eq!(moves_both(&game), [4, 4]);
    }

    /// A choice node entered from two edges of another choice on chains
    /// that do not meet (the first, taken after its frame's early pop,
    /// pushed two log entries, the other one; so its frames' parent chain
    /// is unknown: a root, popped through the generic backtrack) still
    /// knows the log that walks enter it with, and so does the move's end
    /// after it: walks start only at `begin` and where moves end.
    #[test]
    fn logs_are_known_past_a_root_entered_mid_walk() {
        let text = "type Player = {a, b};\ntype Score = {0, 1};\ntype C = {p, q, r};\n\
                    var x: C = p;\nvar y: C = p;\nbegin, n0: player = a;\n\
                    n0, n1: x = C(*);\nn1, j: y = q;\nn1, i: y = r;\ni, j: x == p;\n\
                    j, k: x = p;\nj, k: x = q;\nk, end: player = keeper;\n";
        let game = rg_engine::GameModel::from_text(text).unwrap();
        let t = game.tables();
        let bases = frame_bases(t);
        let parent = frames(t, &bases, &edge_nodes(t), &early_pops(t, &bases)).1;
        let (roots, starts) = (roots(&bases, &parent), starts(t, &bases));
        let mid = (0..t.nodes.len()).filter(|&n| roots[n] && !starts[n]);
        assert_eq!(mid.count(), 1, "a root entered mid-walk");
        let log = log_lengths(t, &starts);
        let ends = edge_nodes(t)
            .into_iter()
            .zip(&t.edges)
            .filter(|(_, e)| matches!(e.op, Op::SetPlayer(_)))
            .map(|(n, _)| n as usize)
            .filter(|&n| n != 0 && !starts[n])
            .collect::<Vec<_>>();
        assert!(!ends.is_empty());
        for n in ends {
            assert_eq!(log[n].as_ref().map(Vec::len), Some(3), "node {n}");
        }
    }
}
