//! Rays into a move's end, recorded at once (`walk/ray.rs`).
//!
//! A translation's ray that ends a move (amazons' arrow: `dir {e}
//! (dir {e})*` then the keeper) is a chain of choice nodes, unrolled
//! (`rbg-to-rg`'s `fuse.rs`): node `n_i` either lands, `x = f_i[y]` into
//! the move's end ([`crate::sealed::Tail`]: comparisons, leaf checks,
//! no-ops, then `player = v`), or goes on, a comparison into `n_{i+1}`;
//! the last node only lands. Every landing writes the same slot from the
//! same key slot and goes on along the same instructions; the edges are
//! in that order (the walk takes the last first: landing `i`, then the
//! rest of the ray), no visited check, step count, switch, `@disjoint` or
//! local check's frame on the way. Nothing on the way writes, so the key
//! and every comparison read the semistate the walk entered the ray in.
//!
//! The walk then records the ray's moves in one loop, landing by landing
//! while the comparisons hold, one record per landing (`Sink::push`):
//! no frame pushed, restored and popped per square,
//! no logged write, no dispatch along the tail. Only in walks whose tags
//! are no-ops (the instructions into a ray's first node say
//! [`crate::code::RAY`] in that table only), and only where the frames
//! below leave room for the ray's ([`MAX_RAY`]): elsewhere the walk
//! takes the nodes one by one, as written.
//!
//! Callgrind instructions per playout (`rbg bench --engine interp`, seed
//! 1, in `play_random`; ttt 2000, c4 400, bt/hex 40, dr 60, rev 10,
//! amazons 8, chess 6 playouts) on the suite's translations, against
//! 585fa43: amazons 14,881,843 -> 9,065,319 (-39.1%: ~97,000 moves a
//! playout, each an arrow's landing, from ~150 instructions to ~90);
//! the others, which have no ray, within +0.33% (breakthrough; the walk's
//! loop has one more arm), ticTacToe -0.12%, connect4 -0.25%.
//!
//! A fan is the other shape recorded so (breakthrough's step forward or
//! diagonally): a node whose every edge is a landing `x = f_i[y]` into a
//! move's end, or a comparison followed inline by one, all writing the
//! same slot from the same key slot into equal tails; a landing whose
//! comparison fails is passed over. Each landing that passes is recorded
//! as it is found (`Sink::push`), nothing gathered first. Callgrind
//! instructions per playout against cc31286: breakthrough 838,642 ->
//! 707,044 (-15.7%), amazons 9,376,198 -> 8,849,533 (-5.6%: its rays'
//! landings recorded as found, not gathered, and the steps' `Kind::Skip`
//! told by `matches!`, not by a call of `PartialEq`), the others within
//! 0.001%. With the landings still gathered first: breakthrough -6.9%,
//! amazons +4.9%.
//!
//! A star is a node whose every edge is a comparison into a ray's first
//! node, every ray writing the same slot (amazons' arrow, shot along one
//! of eight rays from where the queen landed): the walk records all its
//! rays in one call, no frame pushed at the star, and the log's changes
//! of the slots the rays do not write are read once per star
//! ([`Sink::push_landing`](crate::Sink::push_landing)): each landing's
//! record copies them, then the ray's slot (its earlier changes left
//! out: amazons' `coord`, written three times before) and `player`.
//! Callgrind instructions per playout (interp, seed 1) against 5456932:
//! amazons 9,102,266 -> 7,345,295 (-19.3%; with the straight keeper
//! walks of `walk/straight.rs`, ~0.3% of it theirs); breakthrough, whose
//! fans are rays of their own recorded from the log as before, -0.1%
//! (from the log read once per fan, +1.6%).
//!
//! Tried and dropped: the ray's moves recorded by the tail's template
//! (`Sink::push_syms`, shared with `Walker::tail_moves`): called from two
//! places it was no longer inlined in the tail's (ticTacToe +2.0%,
//! connect4 +1.3%), forced inline in both, hex +7.2%, ticTacToe +3.4%;
//! `moves::push_each` called from here, hex +0.9% (the tail's code laid
//! out anew). The template with the earlier changes of the assigned slot
//! left out (amazons' log writes `coord` three times, so the template
//! falls back to one record per walk): per walk through a filtered
//! iterator, amazons +12.5% against one record per walk; the kept
//! changes copied from a template on the stack, +4.7%.

use crate::code::{is_cmp, Kind, DEAD, FRAME};
use crate::sealed::{Filter, Sealed, NO_TAIL};
use crate::tables::{NodeInfo, NO_SWITCH};

/// Landings of one ray at most (a longer chain is walked as written).
pub const MAX_RAY: usize = 64;

/// No ray (see [`Rays::at`]).
pub const NO_RAY: u32 = u32::MAX;

/// A ray: its steps, each a landing `x = f[key]` and the comparison that
/// goes on to the next, and what its landings share, read once per ray
/// (`walk/ray.rs`): the steps its own slice, the tail's slot, `player`
/// and end node copied here, its tests read only where there are some.
/// Against the steps in one table and the tail looked up per call (two
/// checked slicings, ~29 of foxAndHounds' ~121 instructions fixed per
/// call), callgrind instructions per 20 playouts (interp, seed 1)
/// against the session's base: foxAndHounds -2.8%, knightthrough
/// -3.7%, breakthrough -4.0%, amazons -6.5% (with main's ce99837).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Ray {
    /// The steps, first to last.
    pub steps: Box<[Step]>,
    /// The landings' key slot (`f[key]`).
    pub key: u32,
    /// The first landing's [`crate::sealed::Tail`] (the others' are equal:
    /// the same slot, the same instructions after it).
    pub tail: u32,
    /// The tail's slot, the one the landings write.
    pub slot: u32,
    /// The tail's `player` value.
    pub player: u16,
    /// The node the tail ends at.
    pub node: u32,
    /// Whether the tail has tests ([`crate::sealed::Sealed::tail`]).
    pub tested: bool,
    /// A fan: each step's comparison guards its own landing, and a step
    /// that fails it is passed over (a ray's guards the steps after it).
    pub fan: bool,
}

/// One node of a ray: its landing's table, and the comparison into the
/// next node ([`Kind::Skip`]: none, the ray ends).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Step {
    pub table: u32,
    pub test: Kind,
}

/// One way into a ray from the node the walk records at once: the
/// comparison into its first node ([`Kind::Skip`]: none, the node starts
/// the ray) and the ray.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Arm {
    pub test: Kind,
    pub ray: u32,
}

/// The rays of a game, found at load ([`Rays::new`]).
#[derive(Clone, Debug, Default)]
pub struct Rays {
    rays: Vec<Ray>,
    /// Per node, its ray ([`NO_RAY`]: none).
    at: Vec<u32>,
    /// The arms of each node that starts a ray or a star, the node's
    /// `arms[from[n] .. from[n + 1]]`.
    arms: Vec<Arm>,
    from: Vec<u32>,
}

/// The shape every landing of a ray shares: the written slot, the key
/// slot, and where its instruction goes on.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Shape {
    to: u32,
    key: u32,
    next: u32,
    target: u32,
}

impl Rays {
    /// The rays of the table of walks whose tags are no-ops in `code`
    /// (`nodes` its nodes); marks the instructions into their first nodes
    /// ([`Sealed::mark_rays`]).
    pub(crate) fn new(nodes: &[NodeInfo], code: &mut Sealed) -> Rays {
        let mut rays = Rays {
            at: vec![NO_RAY; nodes.len()],
            ..Rays::default()
        };
        let mut steps = Vec::new();
        for n in 0..nodes.len() {
            steps.clear();
            let (found, fan) = match ray(nodes, code, n, &mut steps) {
                Some(r) => (r, false),
                None => {
                    steps.clear();
                    match fan(nodes, code, n, &mut steps) {
                        Some(r) => (r, true),
                        None => continue,
                    }
                }
            };
            let (key, tail) = found;
            rays.at[n] = rays.rays.len() as u32;
            let (t, tests) = code.tail(tail);
            rays.rays.push(Ray {
                steps: steps.as_slice().into(),
                key,
                tail,
                slot: t.slot,
                player: t.player,
                node: t.node,
                tested: !tests.is_empty(),
                fan,
            });
        }
        // Each node's arms: a ray's start its own, a star its edges'.
        rays.from.push(0);
        for n in 0..nodes.len() {
            match rays.at[n] {
                NO_RAY => {
                    if let Some(arms) = star(nodes, code, n, &rays) {
                        rays.arms.extend(arms);
                    }
                }
                ray => rays.arms.push(Arm {
                    test: Kind::Skip,
                    ray,
                }),
            }
            rays.from.push(rays.arms.len() as u32);
        }
        let starts: Vec<bool> = (0..nodes.len())
            .map(|n| rays.from[n] < rays.from[n + 1])
            .collect();
        code.mark_rays(&starts);
        rays
    }

    /// The number of rays (one per node that starts one).
    pub fn len(&self) -> usize {
        self.rays.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.rays.is_empty()
    }

    /// The number of stars (nodes whose edges lead into rays).
    pub fn stars(&self) -> usize {
        (0..self.at.len())
            .filter(|&n| self.at[n] == NO_RAY && self.from[n] < self.from[n + 1])
            .count()
    }

    /// The ray starting at `node` (checked).
    #[inline(always)]
    pub(crate) fn at(&self, node: u32) -> Option<&Ray> {
        self.rays.get(*self.at.get(node as usize)? as usize)
    }

    /// The arms of `node` (checked): its ray's, or its star's in the
    /// walk's order (none: neither).
    #[inline(always)]
    pub(crate) fn arms(&self, node: u32) -> &[Arm] {
        match self.from.get(node as usize..node as usize + 2) {
            Some(&[a, b]) => &self.arms[a as usize..b as usize],
            _ => &[],
        }
    }

    /// Ray `r` (checked).
    #[inline(always)]
    pub(crate) fn ray(&self, r: u32) -> &Ray {
        &self.rays[r as usize]
    }
}

/// The star at node `n`, its arms in the walk's order (the edges last to
/// first), if each of `n`'s edges (two at least) is a comparison going on
/// (a frame, no visited check) into a ray's first node, every ray writing
/// the same slot: amazons' arrow, shot along one of eight rays from where
/// the queen landed.
fn star(nodes: &[NodeInfo], code: &Sealed, n: usize, rays: &Rays) -> Option<Vec<Arm>> {
    let table = code.table(false);
    let info = plain(nodes, n)?;
    let count = info.end.checked_sub(info.first)?;
    if !(2..=MAX_RAY as u32).contains(&count) {
        return None;
    }
    let mut slot = None;
    (info.first..info.end)
        .rev()
        .map(|e| {
            let (c, p, pre) = (table.at(e), code.pick(e), code.pre(e).kind);
            let tested = pre == Kind::Skip || pre == c.kind;
            if p.len != 0 || p.test != Filter::None || !is_cmp(c.kind) || !tested {
                return None;
            }
            let ray = match (c.next, rays.at.get(c.to as usize)) {
                (FRAME, Some(&r)) if r != NO_RAY => r,
                _ => return None,
            };
            let s = rays.rays[ray as usize].slot;
            (*slot.get_or_insert(s) == s).then_some(Arm { test: c.kind, ray })
        })
        .collect()
}

/// The ray from node `n`, its steps appended to `steps`: its key slot and
/// tail, if `n` starts one (two edges, the second a landing).
fn ray(nodes: &[NodeInfo], code: &Sealed, n: usize, steps: &mut Vec<Step>) -> Option<(u32, u32)> {
    let table = code.table(false);
    let mut shape: Option<Shape> = None;
    let mut tail = NO_TAIL;
    let mut node = n;
    // The instruction of the landing reached inline (a last node's).
    let mut inline = None;
    for _ in 0..MAX_RAY {
        let info = plain(nodes, node)?;
        let (test, landing) = match (info.end.checked_sub(info.first)?, inline) {
            (2, None) => (Some(info.first), info.first + 1),
            (1, Some(e)) if e == info.first => (None, e),
            _ => return None,
        };
        let (l, f, t) = self::landing(code, landing)?;
        if *shape.get_or_insert(l) != l {
            return None;
        }
        let key = l.key;
        if tail == NO_TAIL {
            tail = t;
        }
        let Some(test) = test else {
            steps.push(Step {
                table: f,
                test: Kind::Skip,
            });
            return Some((key, tail));
        };
        let c = table.at(test);
        if !is_cmp(c.kind) {
            return None;
        }
        steps.push(Step {
            table: f,
            test: c.kind,
        });
        match c.next {
            DEAD => {
                steps.last_mut()?.test = Kind::Skip;
                return Some((key, tail));
            }
            FRAME => inline = None,
            e if e < DEAD => inline = Some(e),
            _ => return None,
        }
        node = c.to as usize;
    }
    None
}

/// The fan at node `n`, its steps appended to `steps` (the edges last to
/// first, as the walk takes them): its key slot and tail, if each of
/// `n`'s edges (two at least) is a landing `x = f_i[y]` into a move's end,
/// or a comparison followed inline by one, every landing writing the same
/// slot from the same key slot into equal tails (the same tests, `player`
/// value and end node).
fn fan(nodes: &[NodeInfo], code: &Sealed, n: usize, steps: &mut Vec<Step>) -> Option<(u32, u32)> {
    let table = code.table(false);
    let info = plain(nodes, n)?;
    let count = info.end.checked_sub(info.first)?;
    if !(2..=MAX_RAY as u32).contains(&count) {
        return None;
    }
    let mut first: Option<(Shape, u32)> = None;
    for e in (info.first..info.end).rev() {
        let c = table.at(e);
        let (test, landing) = match c.kind {
            k if is_cmp(k) && c.next < DEAD => (k, c.next),
            _ => (Kind::Skip, e),
        };
        let (l, f, t) = self::landing(code, landing)?;
        let (l0, t0) = *first.get_or_insert((l, t));
        let same = |a: u32, b: u32| {
            let ((x, xs), (y, ys)) = (code.tail(a), code.tail(b));
            (x.slot, x.player, x.node, xs) == (y.slot, y.player, y.node, ys)
        };
        if (l.to, l.key) != (l0.to, l0.key) || !same(t, t0) {
            return None;
        }
        steps.push(Step { table: f, test });
    }
    let (l, tail) = first?;
    Some((l.key, tail))
}

/// Node `n` when it is ordinary: not `@disjoint`, no switch, not a local
/// check's frame node nor a relay.
fn plain(nodes: &[NodeInfo], n: usize) -> Option<&NodeInfo> {
    let info = nodes.get(n)?;
    match info.disjoint || info.switch != NO_SWITCH || info.owner || info.relay {
        true => None,
        false => Some(info),
    }
}

/// The landing at edge `e` (in the table of walks whose tags are
/// no-ops): its shape, table and tail, if it is `x = f[y]` into a move's
/// end ([`crate::sealed::Tail`]).
fn landing(code: &Sealed, e: u32) -> Option<(Shape, u32, u32)> {
    let l = code.table(false).at(e);
    let Kind::SetTab { to, slot, table } = l.kind else {
        return None;
    };
    let tail = code.pick(e).tail;
    if l.next >= DEAD || tail == NO_TAIL {
        return None;
    }
    let shape = Shape {
        to,
        key: slot,
        next: l.next,
        target: l.to,
    };
    Some((shape, table, tail))
}

#[cfg(test)]
mod tests {
    use crate::code::Kind;
    use crate::moves::tests::after;
    use crate::{Effects, GameModel, MoveList};

    /// Pieces `w` on a line of eight squares: a move picks one and lands
    /// up to four squares on (`go` .. `go3`) while they are empty, but not
    /// on `c2` or `c5` (a comparison after the landing); the keeper puts a
    /// `w` there. Rays from `r0`, `r1` and `r2` (`r3` only lands); no
    /// visited check on the way (`@unique`, as in a translation).
    const LINE: &str = "type Player = {x};\ntype Score = {0};\n\
        type C = {null, c0, c1, c2, c3, c4, c5, c6, c7};\ntype P = {null, e, w};\n\
        type B = {0, 1};\nvar board: C -> P = { null: null, c0: w, :e };\nvar coord: C = c0;\n\
        const go: C -> C = { c0: c1, c1: c2, c2: c3, c3: c4, c4: c5, c5: c6, c6: c7, :null };\n\
        const go1: C -> C = { c0: c2, c1: c3, c2: c4, c3: c5, c4: c6, c5: c7, :null };\n\
        const go2: C -> C = { c0: c3, c1: c4, c2: c5, c3: c6, c4: c7, :null };\n\
        const go3: C -> C = { c0: c4, c1: c5, c2: c6, c3: c7, :null };\n\
        const bad: C -> B = { c2: 1, c5: 1, :0 };\n\
        begin, s0: player = x;\ns0, s1: coord = C(*);\ns1, s2: board[coord] == w;\n\
        s2, r0: board[go[coord]] == e;\n\
        r0, r1: board[go1[coord]] == e;\nr0, land: coord = go[coord];\n\
        r1, r2: board[go2[coord]] == e;\nr1, land: coord = go1[coord];\n\
        r2, r3: board[go3[coord]] == e;\nr2, land: coord = go2[coord];\n\
        r3, land: coord = go3[coord];\n\
        land, l0: bad[coord] == 0;\nl0, l1: $$ coord;\nl1, k: player = keeper;\n\
        k, k1: board[coord] = w;\nk1, k2: board[c7] == e;\nk2, s0: player = x;\n\
        k1, k3: board[c7] == w;\nk3, end: player = keeper;\n@unique land l0 l1;\n";

    /// Pieces `w` on a line of eight squares: a move picks one and steps
    /// one or two squares on (`go`, `go1`) where empty, or jumps three
    /// (`go2`, no comparison before it), onto an empty square but not
    /// `c2` or `c5`: a fan at `f` (`l1`, `l2` and `l3` each lead into
    /// tails alike; `l3` by its own nodes). The keeper puts a `w` there.
    const FAN: &str = "type Player = {x};\ntype Score = {0};\n\
        type C = {null, c0, c1, c2, c3, c4, c5, c6, c7};\ntype P = {null, e, w};\n\
        type B = {0, 1};\nvar board: C -> P = { null: null, c0: w, c1: w, :e };\n\
        var coord: C = c0;\n\
        const go: C -> C = { c0: c1, c1: c2, c2: c3, c3: c4, c4: c5, c5: c6, c6: c7, :null };\n\
        const go1: C -> C = { c0: c2, c1: c3, c2: c4, c3: c5, c4: c6, c5: c7, :null };\n\
        const go2: C -> C = { c0: c3, c1: c4, c2: c5, c3: c6, c4: c7, :null };\n\
        const bad: C -> B = { c2: 1, c5: 1, :0 };\n\
        begin, s0: player = x;\ns0, s1: coord = C(*);\ns1, s2: board[coord] == w;\n\
        s2, f: board[coord] = e;\n\
        f, l1: board[go[coord]] == e;\nl1, land: coord = go[coord];\n\
        f, l2: board[go1[coord]] == e;\nl2, land: coord = go1[coord];\n\
        f, land3: coord = go2[coord];\n\
        land, l0: board[coord] == e;\nl0, la: bad[coord] == 0;\nla, lb: $$ coord;\n\
        lb, k: player = keeper;\n\
        land3, m0: board[coord] == e;\nm0, ma: bad[coord] == 0;\nma, mb: $$ coord;\n\
        mb, k: player = keeper;\n\
        k, k1: board[coord] = w;\nk1, k2: board[c7] == e;\nk2, s0: player = x;\n\
        k1, k3: board[c7] == w;\nk3, end: player = keeper;\n\
        @unique land l0 la lb land3 m0 ma mb;\n";

    /// Pieces `w` on a line of eight squares: a move lifts one and slides
    /// it right (up to three squares) or left (up to two) over empty
    /// squares, not onto `c3`: a star at `s3`, its two edges comparisons
    /// into the rays from `r0` and `q0`, both writing `coord` (which the
    /// walk wrote before, and `board` too). The keeper puts a `v` there; the
    /// play ends with a `v` on `c0`.
    const STAR: &str = "type Player = {x};\ntype Score = {0};\n\
        type C = {null, c0, c1, c2, c3, c4, c5, c6, c7};\ntype P = {null, e, w, v};\n\
        type B = {0, 1};\nvar board: C -> P = { null: null, c2: w, c5: w, c6: w, :e };\n\
        var coord: C = c0;\n\
        const go: C -> C = { c0: c1, c1: c2, c2: c3, c3: c4, c4: c5, c5: c6, c6: c7, :null };\n\
        const go1: C -> C = { c0: c2, c1: c3, c2: c4, c3: c5, c4: c6, c5: c7, :null };\n\
        const go2: C -> C = { c0: c3, c1: c4, c2: c5, c3: c6, c4: c7, :null };\n\
        const bk: C -> C = { c1: c0, c2: c1, c3: c2, c4: c3, c5: c4, c6: c5, c7: c6, :null };\n\
        const bk1: C -> C = { c2: c0, c3: c1, c4: c2, c5: c3, c6: c4, c7: c5, :null };\n\
        const bad: C -> B = { c3: 1, :0 };\n\
        begin, s0: player = x;\ns0, s1: coord = C(*);\ns1, s2: board[coord] == w;\n\
        s2, s3: board[coord] = e;\n\
        s3, r0: board[go[coord]] == e;\n\
        r0, r1: board[go1[coord]] == e;\nr0, land: coord = go[coord];\n\
        r1, r2: board[go2[coord]] == e;\nr1, land: coord = go1[coord];\n\
        r2, land: coord = go2[coord];\n\
        s3, q0: board[bk[coord]] == e;\n\
        q0, q1: board[bk1[coord]] == e;\nq0, land: coord = bk[coord];\n\
        q1, land: coord = bk1[coord];\n\
        land, l0: bad[coord] == 0;\nl0, l1: $$ coord;\nl1, k: player = keeper;\n\
        k, k1: board[coord] = v;\nk1, k2: board[c0] != v;\nk2, s0: player = x;\n\
        k1, k3: board[c0] == v;\nk3, end: player = keeper;\n@unique land l0 l1;\n";

    /// Every state reached from `text`'s initial one: its walks' effects
    /// (rays and fans recorded at once) against its moves and against the
    /// walks of the game with every check (no ray, no fan), walk by walk
    /// in order. Gives the rays and fans found, the states and the moves.
    fn recorded_at_once(text: &str) -> ((usize, usize), usize, usize) {
        let g = GameModel::from_text(text).unwrap();
        let rays = &g.tables().rays;
        let fans = rays.rays.iter().filter(|r| r.fan).count();
        let every = rg_lang::parse_str(text).unwrap().1;
        let every = GameModel::with_every_check(every).unwrap();
        assert!(every.tables().rays.is_empty());
        let (mut r, mut e) = (g.reasoner(), every.reasoner());
        let (mut list, mut effects, mut expected) =
            (MoveList::default(), Effects::default(), Effects::default());
        let mut stack = vec![g.initial_state()];
        let (mut states, mut moves) = (0, 0);
        while let Some(mut s) = stack.pop() {
            r.complete_keeper(&mut s).unwrap();
            if g.is_terminal(&s) {
                continue;
            }
            states += 1;
            r.moves(&mut s, &mut list).unwrap();
            r.walks(&mut s, &mut effects).unwrap();
            e.walks(&mut s, &mut expected).unwrap();
            assert_eq!(effects.len(), list.len());
            assert_eq!(expected.len(), list.len());
            for i in 0..list.len() {
                let next = after(&s, &list, i);
                assert_eq!(after(&s, &effects, i), next);
                assert_eq!(after(&s, &expected, i), next);
                stack.push(next);
            }
            moves += list.len();
        }
        ((rays.len() - fans, fans), states, moves)
    }

    #[test]
    fn a_ray_into_a_moves_end_is_recorded_at_once() {
        let (found, states, moves) = recorded_at_once(LINE);
        assert_eq!(found, (3, 0), "rays from r0, r1 and r2");
        assert_eq!((states, moves), (44, 85), "states and moves of the line");
    }

    #[test]
    fn a_star_of_rays_into_a_moves_end_is_recorded_at_once() {
        let g = GameModel::from_text(STAR).unwrap();
        assert_eq!(g.tables().rays.stars(), 1, "a star at s3");
        let (found, states, moves) = recorded_at_once(STAR);
        assert_eq!(found, (3, 0), "rays from r0, r1 and q0");
        assert_eq!((states, moves), (31, 37), "states and moves of the star");
    }

    #[test]
    fn a_fan_into_a_moves_end_is_recorded_at_once() {
        let (found, states, moves) = recorded_at_once(FAN);
        assert_eq!(found, (0, 1), "a fan at f");
        assert_eq!((states, moves), (87, 206), "states and moves of the fan");
    }

    #[test]
    fn a_fan_guarded_by_other_comparisons_is_recorded_at_once() {
        // Steps guarded by `f[x] == c` of a constant map (a comparison the
        // ray's loop tests out of line, `walk/ray.rs`), not `board[x] == c`.
        let far = "const far: C -> B = { c3: 1, c4: 1, :0 };\n";
        let fan = FAN
            .replace("const bad", &format!("{far}const bad"))
            .replace(
                "f, l2: board[go1[coord]] == e;",
                "f, l2: far[go1[coord]] == 0;",
            );
        let g = GameModel::from_text(&fan).unwrap();
        let mut steps = g.tables().rays.rays.iter().flat_map(|r| &r.steps);
        let other = steps.any(|s| matches!(s.test, Kind::CmpTab { .. }));
        assert!(other, "a step's test `f[x] == c`");
        let (found, states, moves) = recorded_at_once(&fan);
        assert_eq!(found, (0, 1), "a fan at f");
        assert_eq!((states, moves), (24, 54), "states and moves of the fan");
    }
}
