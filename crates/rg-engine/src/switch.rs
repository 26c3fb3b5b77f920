//! Choices between comparisons of one read (lowering only).
//!
//! A node whose edges all compare the same board read with symbols
//! (`board[x] == c`, `f[board[x]] == c`: chess's and draughts' "which piece
//! of mine stands here", one branch per kind of piece) is a *switch*: the
//! read's symbol decides which edges can pass, and every edge of a frame is
//! tried in the state the frame was pushed in. So the frame is pushed with
//! only the edges from the first to the last that pass for that symbol
//! (none: an empty frame), and the others are never tried. As the RBG
//! engine's "switch on the piece at the target". `GameModel::with_every_check`
//! takes no switches.

use crate::tables::{Edge, Fast, NodeInfo, Op, Operand, Switch};

/// Edge ranges of all switches at most (a node per symbol each: the
/// nodes past it are no switches).
const MAX_RANGES: usize = 1 << 20;

/// The read of one comparison of a switch: the slot and table of
/// `st[fun[table + st[slot]]]`, and the test of its symbol `v`.
fn compared(op: Op, fast: &[Fast]) -> Option<((u32, u32), Test)> {
    let Op::Cmp(a, b, eq) = op else {
        return None;
    };
    let (read, value) = match (a, b) {
        (Operand::Imm(v), r) | (r, Operand::Imm(v)) => (r, v),
        _ => return None,
    };
    match read {
        Operand::Ind(slot, table) => Some(((slot, table), Test::Is(value, eq))),
        Operand::Read(i) => match fast[i as usize] {
            Fast::TabInd(slot, inner, outer) => Some(((slot, inner), Test::Maps(outer, value, eq))),
            _ => None,
        },
        _ => None,
    }
}

/// How a comparison tests the read's symbol `v`.
#[derive(Clone, Copy)]
enum Test {
    /// `v == value` (`eq`) or `!=`.
    Is(u16, bool),
    /// `fun[outer + v] == value` (`eq`) or `!=`.
    Maps(u32, u16, bool),
}

impl Test {
    fn passes(self, fun: &[u32], v: u16) -> bool {
        match self {
            Test::Is(value, eq) => (v == value) == eq,
            Test::Maps(outer, value, eq) => {
                fun.get((outer + v as u32) as usize)
                    .is_some_and(|&x| x as u16 == value)
                    == eq
            }
        }
    }
}

/// The switches among `nodes` (setting [`NodeInfo::switch`]) and their
/// edge ranges per symbol (`symbols` entries each).
pub fn switches(
    nodes: &mut [NodeInfo],
    edges: &[Edge],
    fast: &[Fast],
    fun: &[u32],
    symbols: usize,
) -> (Vec<Switch>, Vec<(u32, u32)>) {
    let mut out = Vec::new();
    let mut ranges = Vec::new();
    let mut tests = Vec::new();
    for info in nodes.iter_mut() {
        if info.disjoint || info.end < info.first + 2 {
            continue;
        }
        if ranges.len() + symbols > MAX_RANGES {
            break;
        }
        tests.clear();
        let mut key = None;
        for e in &edges[info.first as usize..info.end as usize] {
            match compared(e.op, fast) {
                Some((k, test)) if key.is_none() || key == Some(k) => {
                    key = Some(k);
                    tests.push(test);
                }
                _ => break,
            }
        }
        let Some((slot, table)) = key.filter(|_| tests.len() == (info.end - info.first) as usize)
        else {
            continue;
        };
        info.switch = out.len() as u32;
        out.push(Switch {
            slot,
            table,
            ranges: ranges.len() as u32,
        });
        for v in 0..symbols {
            let mut pass = tests
                .iter()
                .enumerate()
                .filter(|(_, t)| t.passes(fun, v as u16));
            let range = match pass.next() {
                None => (info.first, info.first),
                Some((lo, _)) => {
                    let hi = pass.next_back().map_or(lo, |(i, _)| i);
                    (info.first + lo as u32, info.first + hi as u32 + 1)
                }
            };
            ranges.push(range);
        }
    }
    (out, ranges)
}
