//! Check programs: a reachability check whose automaton (from its start, not
//! going on from its target) has no cycle is unfolded into a tree and laid
//! out as a straight program in the walk's order, so it runs with no frames
//! and no pending nodes.
//!
//! Each edge is one instruction in preorder (a node's edges last to first,
//! as [`crate::walk`] tries them); an instruction that holds goes on with the
//! next one (the first edge of its target), one that fails jumps past its
//! subtree (`skip`). Every instruction knows how many writes the walk made
//! before it (`depth`): the interpreter undoes the later ones on arrival. An
//! any-assignment's subtree ends in a `Retry` that takes its next symbol.
//! Where the walk has a visited check, the program has a `Visit` (same keys,
//! same order: the same states are dropped); pure checks (`shortcut.rs`)
//! leave them out, since a pure check's states are all equal. So a program
//! decides exactly what the walk decides, with the same errors first.
//!
//! Not for `@disjoint` nodes or map assignments, nor past a size bound
//! (a DAG's unfolding can grow exponentially): those checks keep the walk.
//!
//! A program of comparisons only (no write, no visited check, no nested
//! check) whose comparisons all have a specialised form (`code.rs`) is a
//! leaf check ([`leaves`]): sealed with the walk's instructions and run
//! from `Walker::check` without the check's bookkeeping (the kept
//! semistate's hash and comparison, the nesting stack, the program's
//! dispatch over every kind of step). Callgrind instructions per playout
//! (`rbg --engine interp bench`, seed 1) on translations: reversi -22.8%,
//! ticTacToe -11.0%, chess -5.0%, connect4 -3.3%, englishDraughts -0.8%,
//! hex and breakthrough -0.35%, amazons -0.03%. Its test read from a
//! table of its own at every check cost HRG reversi +1.1%: it is one
//! value of the one-slot route's (`Walker`'s `direct`).

mod fold;

pub use fold::Consts;

use crate::code::{is_cmp, Kind};
use crate::tables::{Check, Edge, Fast, Guard, NodeInfo, Op, Operand, Place, NO_NODE};

/// Instructions of one program at most.
const MAX_PROGRAM: usize = 1 << 12;
/// Instructions of all programs at most.
const MAX_PROGRAMS: usize = 1 << 20;

/// What an instruction does. A plain byte tag (`repr(u8)`): the
/// interpreter's step loop (`walk/program.rs`) dispatches on it with one
/// load and a jump table, where the tag folded into [`Operand`]'s (a
/// niche) took a subtraction, a compare and a conditional move first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Step {
    /// Holds if the symbols are equal (`true`) or differ.
    Cmp(Operand, Operand, bool),
    /// The same for `Operand::Ind(slot, table)` and an immediate symbol
    /// (fields in that order; the commonest shapes get their own steps).
    IndImm(u32, u32, u16, bool),
    /// The same for `Operand::Ind(slot, table)` and `Operand::Tab(slot2,
    /// table2)`.
    IndTab(u32, u32, u32, u32, bool),
    /// The same on maps (index into `Tables::map_pairs`).
    CmpMap(u32, bool),
    /// `? check` (`true`) or `! check`.
    Reach(u32, bool),
    /// Writes the value (also `player = v`); holds.
    Assign(Place, Operand),
    /// `place = T(*)`: writes the last symbol of the range of
    /// `Tables::any_syms` and remembers the choice; holds unless no symbol
    /// is left. Filtered (`true`) when the next instruction is its
    /// target's only edge, a comparison: symbols failing it are skipped
    /// without a step (as `shortcut.rs` does for the walk).
    Any(Place, (u32, u32), bool),
    /// End of an any-assignment's subtree: the next symbol (last to first)
    /// and back into the subtree, or, all tried, on.
    Retry,
    /// Visited check of the node (holds when the key is new).
    Visit(u32),
    /// Holds (a no-op into the target).
    Pass,
    /// The check does not hold.
    End,
}

impl Step {
    /// Whether the step is a comparison of symbols.
    pub fn is_comparison(&self) -> bool {
        matches!(self, Step::Cmp(..) | Step::IndImm(..) | Step::IndTab(..))
    }
}

/// The step comparing `a` and `b`.
fn comparison(a: Operand, b: Operand, eq: bool) -> Step {
    match (a, b) {
        (Operand::Ind(s, t), Operand::Imm(v)) | (Operand::Imm(v), Operand::Ind(s, t)) => {
            Step::IndImm(s, t, v, eq)
        }
        (Operand::Ind(s, t), Operand::Tab(s2, t2)) | (Operand::Tab(s2, t2), Operand::Ind(s, t)) => {
            Step::IndTab(s, t, s2, t2, eq)
        }
        _ => Step::Cmp(a, b, eq),
    }
}

/// One instruction.
#[derive(Clone, Copy, Debug)]
pub struct Ins {
    /// The action.
    pub step: Step,
    /// Where the program goes on when the step fails: past its subtree.
    pub skip: u32,
    /// Writes made on the way to this instruction (later ones are undone
    /// on arrival).
    pub depth: u32,
    /// The edge leads to the target: if the step holds, so does the check.
    pub accept: bool,
}

/// A check's program: where it starts in `Tables::program` (its jumps are
/// indices there too).
#[derive(Clone, Copy, Debug)]
pub struct Program {
    /// Its first instruction.
    pub start: u32,
    /// Whether it has `Visit`s (then it needs a fresh visited set).
    pub visits: bool,
    /// Whether it writes (else nothing is ever undone).
    pub writes: bool,
    /// Whether it has any-assignments (`Any`, `Retry`: choices kept).
    pub choices: bool,
}

/// No instruction (a placeholder while laying out).
const NONE: u32 = u32::MAX;

/// The comparisons that filter the symbols of an any-assignment of a
/// program for the interpreter (`walk/program.rs`): those its subtree
/// starts with (siblings, each a comparison). A symbol for which all of
/// them fail would reach its `Retry` with no effect, so it is skipped
/// unwritten. Generalises [`Step::Any`]'s `filter` (one comparison, the
/// target's only edge), which `rg-jit` reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AnyFilter {
    /// The comparisons' instructions: `Tables::any_filter_list[first ..
    /// first + count]` (none: `count` 0).
    pub first: u32,
    /// See `first`.
    pub count: u32,
    /// The table when every comparison is [`Step::IndImm`] of the
    /// assigned slot through it (`board[x] == c`, one read per symbol),
    /// else [`NO_TABLE`].
    pub table: u32,
    /// With `table`: the values of the square that pass some comparison,
    /// as bit `v - low` for `v` in `low .. low + 64` ...
    pub pass: u64,
    /// ... the lowest value compared with ...
    pub low: u16,
    /// ... and whether the values outside that range pass (some
    /// comparison is `!=`).
    pub outside: bool,
}

impl AnyFilter {
    /// Whether value `v` of the square passes some comparison (a filter
    /// with a table).
    #[inline(always)]
    pub fn passes(&self, v: u16) -> bool {
        match v.wrapping_sub(self.low) {
            d if d < 64 => self.pass >> d & 1 != 0,
            _ => self.outside,
        }
    }
}

/// [`AnyFilter::table`] of comparisons of other shapes.
pub const NO_TABLE: u32 = u32::MAX;

/// Per instruction of `program`, its [`AnyFilter`] (`count` 0 but for
/// any-assignments), and the list they index.
pub fn any_filters(program: &[Ins]) -> (Vec<AnyFilter>, Vec<u32>) {
    let mut list = Vec::new();
    let filters = program
        .iter()
        .enumerate()
        .map(|(at, ins)| {
            let start = list.len();
            let retry = ins.skip.wrapping_sub(1) as usize;
            let slot = match ins.step {
                Step::Any(Place::Slot(s), ..) if !ins.accept => Some(s),
                Step::Any(..) if !ins.accept => None,
                _ => return AnyFilter::default(),
            };
            if !matches!(program.get(retry), Some(i) if i.step == Step::Retry) {
                return AnyFilter::default();
            }
            let mut i = at + 1;
            while i < retry && program[i].step.is_comparison() {
                list.push(i as u32);
                i = program[i].skip as usize;
            }
            if i != retry {
                list.truncate(start);
                return AnyFilter::default();
            }
            let tables = list[start..]
                .iter()
                .map(|&i| match program[i as usize].step {
                    Step::IndImm(s, table, ..) if Some(s) == slot => table,
                    _ => NO_TABLE,
                });
            let table = tables.reduce(|a, b| if a == b { a } else { NO_TABLE });
            let cmps = list[start..]
                .iter()
                .filter_map(|&i| match program[i as usize].step {
                    Step::IndImm(.., v, eq) => Some((v, eq)),
                    _ => None,
                });
            let low = cmps.clone().map(|(v, _)| v).min().unwrap_or(0);
            let mut pass = 0u64;
            let mut outside = false;
            let mut table = table.unwrap_or(NO_TABLE);
            for (v, eq) in cmps {
                match (v - low, eq) {
                    (d, _) if d >= 64 => table = NO_TABLE,
                    (d, true) => pass |= 1 << d,
                    (d, false) => {
                        pass |= !(1 << d);
                        outside = true;
                    }
                }
            }
            AnyFilter {
                first: start as u32,
                count: (list.len() - start) as u32,
                table,
                pass,
                low,
                outside,
            }
        })
        .collect();
    (filters, list)
}

/// An instruction of a leaf check (a program of comparisons only): its
/// comparison as the walk's specialised form ([`Kind::Skip`]: `Step::Pass`,
/// which holds), where it goes when that fails, and whether it then
/// accepts. Run by [`crate::sealed::Sealed::leaf`], which verified it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Leaf {
    /// The comparison.
    pub kind: Kind,
    /// Where the check goes on when it fails (past its subtree; the end of
    /// the check's instructions: it does not hold).
    pub skip: u32,
    /// The comparison leads to the target: if it holds, so does the check.
    pub accept: bool,
}

/// Ranges of leaf instructions, one entry each (`None`: not a leaf check).
pub type Ranges = Vec<Option<(u32, u32)>>;

/// What [`leaves`] gives: the instructions, the checks' ranges and the
/// any-assignments' subtrees' ranges.
pub type Leaves = (Vec<Leaf>, Ranges, Ranges);

/// The leaf form of instruction `ins` at `i` (its skip made relative to
/// `base` + the range's start `start`): a comparison with a specialised
/// form, or `Pass`; `None` for others, or a jump that does not go forward.
fn leaf_of(ins: &Ins, i: usize, (start, base): (usize, usize), fast: &[Fast]) -> Option<Leaf> {
    let kind = match ins.step {
        Step::Pass => Kind::Skip,
        Step::IndImm(slot, table, value, eq) => Kind::CmpInd {
            slot,
            table,
            value,
            eq,
        },
        Step::Cmp(a, b, eq) => crate::code::kind(&Op::Cmp(a, b, eq), fast),
        _ => Kind::Other,
    };
    if !is_cmp(kind) && kind != Kind::Skip || (ins.skip as usize) <= i {
        return None;
    }
    Some(Leaf {
        kind,
        skip: (base + ins.skip as usize - start) as u32,
        accept: ins.accept,
    })
}

/// The leaf checks' instructions, and per check the range of its own
/// (`None`: not a leaf check). A leaf check's program has no write, no
/// visited check and no nested check, and every comparison has a
/// specialised form (`code.rs`): it is run as those, without the check's
/// bookkeeping (a kept semistate, a speculation: a speculated check is not
/// a leaf). Its `End` is the end of its range.
///
/// Also, per instruction of `program`, the range of the subtree of an
/// any-assignment (past it, up to its `Retry`) of the same shape: the
/// symbol's subtree decided as a leaf check ([`Ins`]'s order, `Retry`
/// its end: not accepted), then the next symbol (`walk/program.rs`).
pub fn leaves(
    program: &[Ins],
    programs: &[Option<Program>],
    speculated: &[u32],
    fast: &[Fast],
) -> Leaves {
    let mut out = Vec::new();
    let ranges = programs
        .iter()
        .zip(speculated)
        .map(|(p, &spec)| {
            let p = p.filter(|p| !p.visits && !p.writes && spec == NO_NODE)?;
            let start = p.start as usize;
            let base = out.len();
            for (i, ins) in program.iter().enumerate().skip(start) {
                if ins.step == Step::End {
                    return Some((base as u32, out.len() as u32));
                }
                let Some(l) = leaf_of(ins, i, (start, base), fast) else {
                    break;
                };
                out.push(l);
            }
            out.truncate(base);
            None
        })
        .collect();
    let subtrees = program
        .iter()
        .enumerate()
        .map(|(at, ins)| {
            let retry = (ins.skip as usize).checked_sub(1)?;
            let any = matches!(ins.step, Step::Any(Place::Slot(_), ..)) && !ins.accept;
            if !any || !matches!(program.get(retry), Some(r) if r.step == Step::Retry) {
                return None;
            }
            let base = out.len();
            for (i, ins) in program.iter().enumerate().take(retry).skip(at + 1) {
                match leaf_of(ins, i, (at + 1, base), fast) {
                    Some(l) if (ins.skip as usize) <= retry => out.push(l),
                    _ => {
                        out.truncate(base);
                        return None;
                    }
                }
            }
            (out.len() > base).then_some((base as u32, out.len() as u32))
        })
        .collect();
    (out, ranges, subtrees)
}

enum Task {
    /// Lay out an edge and its subtree (edge index, writes before it).
    Edge(u32, u32),
    /// Close the subtree of an edge into `node`: set the skips of its
    /// instruction and visit (`NONE`: none), add the `Retry` of an
    /// any-assignment (writes before it: `depth`).
    Close {
        at: u32,
        visit: u32,
        node: u32,
        any: bool,
        depth: u32,
    },
}

/// The programs of the checks that have one (laid out in `out`).
pub fn programs(
    nodes: &[NodeInfo],
    edges: &[Edge],
    checks: &[Check],
    pure: &[bool],
    skip: &[bool],
    (player_slot, consts): (u32, &Consts),
    out: &mut Vec<Ins>,
) -> Vec<Option<Program>> {
    let mut on_path = vec![false; nodes.len()];
    let mut tasks = Vec::new();
    checks
        .iter()
        .enumerate()
        .map(|(i, &c)| {
            if skip[i] || c.start == c.target || out.len() >= MAX_PROGRAMS {
                return None;
            }
            let start = out.len();
            let cx = Layout {
                nodes,
                edges,
                check: c,
                pure: pure[i],
                player_slot,
            };
            let ok = cx.lay_out(&mut on_path, &mut tasks, out);
            // Leave the workspace clean whether or not it worked.
            for t in tasks.drain(..) {
                if let Task::Close { node, .. } = t {
                    on_path[node as usize] = false;
                }
            }
            on_path[c.start as usize] = false;
            if !ok {
                out.truncate(start);
                return None;
            }
            fold::fold(out, start, consts);
            let visits = out[start..]
                .iter()
                .any(|i| matches!(i.step, Step::Visit(_)));
            let writes = out[start..]
                .iter()
                .any(|i| matches!(i.step, Step::Assign(..) | Step::Any(..)));
            let choices = out[start..]
                .iter()
                .any(|i| matches!(i.step, Step::Any(..) | Step::Retry));
            Some(Program {
                start: start as u32,
                visits,
                writes,
                choices,
            })
        })
        .collect()
}

struct Layout<'a> {
    nodes: &'a [NodeInfo],
    edges: &'a [Edge],
    check: Check,
    pure: bool,
    player_slot: u32,
}

impl Layout<'_> {
    /// Lays the check's program out at the end of `out`; false if it has
    /// none (a cycle, a `@disjoint` node, a map assignment, too large).
    fn lay_out(&self, on_path: &mut [bool], tasks: &mut Vec<Task>, out: &mut Vec<Ins>) -> bool {
        let begin = out.len();
        on_path[self.check.start as usize] = true;
        if !self.push_edges(self.check.start, 0, tasks) {
            return false;
        }
        let mut work = 0usize;
        while let Some(task) = tasks.pop() {
            work += 1;
            if out.len() - begin >= MAX_PROGRAM || work > 4 * MAX_PROGRAM {
                return false;
            }
            match task {
                Task::Edge(e, depth) => {
                    let edge = self.edges[e as usize];
                    let step = match edge.op {
                        Op::Skip | Op::Tag(_) | Op::TagVar(_) => None,
                        Op::Cmp(a, b, eq) => Some(comparison(a, b, eq)),
                        Op::CmpMap(i, eq) => Some(Step::CmpMap(i, eq)),
                        Op::Reach(c, positive) => Some(Step::Reach(c, positive)),
                        Op::Assign(p, v) => Some(Step::Assign(p, v)),
                        Op::SetPlayer(v) => Some(Step::Assign(Place::Slot(self.player_slot), v)),
                        Op::AssignAny(p, syms) => Some(Step::Any(p, syms, false)),
                        Op::AssignMap(_) => return false,
                    };
                    let writes = matches!(step, Some(Step::Assign(..) | Step::Any(..))) as u32;
                    if edge.to == self.check.target {
                        out.push(Ins {
                            step: step.unwrap_or(Step::Pass),
                            skip: out.len() as u32 + 1,
                            depth,
                            accept: true,
                        });
                        continue;
                    }
                    if on_path[edge.to as usize] {
                        return false;
                    }
                    let at = match step {
                        Some(step) => {
                            out.push(Ins {
                                step,
                                skip: NONE,
                                depth,
                                accept: false,
                            });
                            out.len() as u32 - 1
                        }
                        None => NONE,
                    };
                    let inner = depth + writes;
                    let visit = match self.nodes[edge.to as usize].guard {
                        Guard::None => NONE,
                        _ if self.pure => NONE,
                        _ => {
                            out.push(Ins {
                                step: Step::Visit(edge.to),
                                skip: NONE,
                                depth: inner,
                                accept: false,
                            });
                            out.len() as u32 - 1
                        }
                    };
                    on_path[edge.to as usize] = true;
                    tasks.push(Task::Close {
                        at,
                        visit,
                        node: edge.to,
                        any: matches!(step, Some(Step::Any(..))),
                        depth,
                    });
                    if !self.push_edges(edge.to, inner, tasks) {
                        return false;
                    }
                }
                Task::Close {
                    at,
                    visit,
                    node,
                    any,
                    depth,
                } => {
                    on_path[node as usize] = false;
                    if any {
                        out.push(Ins {
                            step: Step::Retry,
                            skip: NONE,
                            depth,
                            accept: false,
                        });
                    }
                    let end = out.len() as u32;
                    if visit != NONE {
                        // A dropped state of an any-assignment's target
                        // goes on with the next symbol.
                        out[visit as usize].skip = end - any as u32;
                    }
                    if at != NONE {
                        out[at as usize].skip = end;
                    }
                    if any {
                        let next = out[at as usize + 1];
                        let filter =
                            next.step.is_comparison() && !next.accept && next.skip == end - 1;
                        if let Step::Any(_, _, f) = &mut out[at as usize].step {
                            *f = filter;
                        }
                    }
                }
            }
        }
        out.push(Ins {
            step: Step::End,
            skip: NONE,
            depth: 0,
            accept: false,
        });
        true
    }

    /// Queues the edges of `node` (popped last to first); false at a
    /// `@disjoint` node.
    fn push_edges(&self, node: u32, depth: u32, tasks: &mut Vec<Task>) -> bool {
        let info = self.nodes[node as usize];
        if info.disjoint {
            return false;
        }
        tasks.extend((info.first..info.end).map(|e| Task::Edge(e, depth)));
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `x = T(*)` (slot 0) whose subtree starts with the comparisons
    /// `board[x] == v` / `!=` (table 10), then its `Retry` (at 4).
    fn filter_of(cmps: [(u16, bool); 2]) -> AnyFilter {
        let ins = |step, skip| Ins {
            step,
            skip,
            depth: 0,
            accept: false,
        };
        let program = [
            ins(Step::Any(Place::Slot(0), (0, 4), false), 5),
            ins(Step::IndImm(0, 10, cmps[0].0, cmps[0].1), 2),
            ins(Step::IndImm(0, 10, cmps[1].0, cmps[1].1), 4),
            ins(Step::Pass, 4),
            ins(Step::Retry, 5),
        ];
        any_filters(&program).0[0]
    }

    #[test]
    fn a_leaf_check_is_its_comparisons_with_jumps_in_its_range() {
        let ins = |step, skip, accept| Ins {
            step,
            skip,
            depth: 0,
            accept,
        };
        // Something before the check's program (it starts at 1): `a == 3`
        // then `board[a] != 7` into the target, else `Pass` into it.
        let cmp = Step::Cmp(Operand::Slot(0), Operand::Imm(3), true);
        let program = vec![
            ins(Step::End, 0, false),
            ins(cmp, 3, false),
            ins(Step::IndImm(0, 10, 7, false), 3, true),
            ins(Step::Pass, 4, true),
            ins(Step::End, 0, false),
        ];
        let p = |start| {
            Some(Program {
                start,
                visits: false,
                writes: false,
                choices: false,
            })
        };
        let (leaves, ranges, _) = leaves(&program, &[p(1), None], &[NO_NODE; 2], &[]);
        assert_eq!(ranges, [Some((0, 3)), None]);
        let kinds: Vec<Kind> = leaves.iter().map(|l| l.kind).collect();
        let ind = Kind::CmpInd {
            slot: 0,
            table: 10,
            value: 7,
            eq: false,
        };
        let slot = Kind::CmpSlot {
            slot: 0,
            value: 3,
            eq: true,
        };
        assert_eq!(kinds, [slot, ind, Kind::Skip]);
        let jumps: Vec<(u32, bool)> = leaves.iter().map(|l| (l.skip, l.accept)).collect();
        assert_eq!(jumps, [(2, false), (2, true), (3, true)]);
        // A speculated check, or one with a nested check, is none.
        assert_eq!(leaves_of(&program, p(1), 5), None);
        let mut nested = program.clone();
        nested[2].step = Step::Reach(0, true);
        assert_eq!(leaves_of(&nested, p(1), NO_NODE), None);
    }

    fn leaves_of(program: &[Ins], p: Option<Program>, spec: u32) -> Option<(u32, u32)> {
        leaves(program, &[p], &[spec], &[]).1[0]
    }

    #[test]
    fn an_any_filters_values_are_those_passing_some_comparison() {
        let f = filter_of([(7, true), (9, true)]);
        assert_eq!((f.count, f.table), (2, 10));
        let passing: Vec<u16> = (0..200).filter(|&v| f.passes(v)).collect();
        assert_eq!(passing, [7, 9]);
        // `!=` passes every other value, inside the mask's range or not.
        let f = filter_of([(7, false), (9, true)]);
        let failing: Vec<u16> = (0..200).filter(|&v| !f.passes(v)).collect();
        assert_eq!(failing, [7]);
        // Values 64 or more apart: no mask, the comparisons are tried.
        assert_eq!(filter_of([(7, true), (71, true)]).table, NO_TABLE);
        assert_eq!(filter_of([(7, true), (70, true)]).table, 10);
    }
}
