//! Probes: patterns decided by a straight program instead of a search.
//!
//! Many patterns are small trees of steps, such as tic-tac-toe's
//! `dir {x} (dir + opp^2) {x} + ...` or reversi's ray
//! `dir {o} dir ({o} dir)* {x}`. The walk (`search.rs`) decides them with a
//! search: a level, visited marks, a stack, one dispatch per transition. A
//! probe decides them with a backtracking program that needs none of these.
//!
//! A program is a list of instructions, each one step: look the current
//! vertex up in a *column* (a board direction, the identity, a filter, or the
//! `i`-th target of a shift table), then the piece there in the
//! instruction's *row*, which says whether the step fails, goes on to the
//! instruction's `ok`, or reaches an accepting state (the pattern holds). A
//! failing step, or a column without a target, goes to the instruction's
//! `fail`. Vertices are kept in a few registers: a state with one step moves
//! in place, the alternatives of a state with several read its register and
//! write the next one, and each alternative's `fail` is the next
//! alternative (the last one's is the state's own `fail`), so backtracking
//! needs no stack.
//!
//! The next instruction is taken from the current one by a branch, never
//! loaded from a row: the processor predicts the branch and runs ahead. (A
//! first version loaded it from the row; it ran 37% fewer instructions than
//! the search on reversi but was no faster: a chain of five dependent loads
//! per step. With branches: reversi -22%, connect4 -23%, tic-tac-toe -19%,
//! mill -12% time per playout.)
//!
//! A pattern gets a program when its automaton allows it: every transition
//! is a shift, a piece test, a no-op, a filter or a shift table with few
//! targets, and every loop of the program steps along one board direction
//! that never comes back to a vertex (so the program ends), with no
//! alternatives inside the loop. Others, and programs that would be too big,
//! are left to the search.

use std::collections::HashMap;

use crate::compile::{Compiled, Op, NONE};

/// A program counter meaning "the pattern holds".
pub const ACCEPT: u32 = u32::MAX - 1;
/// A program counter meaning "the pattern does not hold".
pub const FAIL: u32 = u32::MAX;
/// Row cell: the step fails.
pub const STEP_FAILS: u8 = 0;
/// Row cell: the step goes on to `ok`.
pub const STEP_GOES_ON: u8 = 1;
/// Row cell: the step reaches an accepting state.
pub const STEP_ACCEPTS: u8 = 2;
/// Number of vertex registers.
const REGS: usize = 16;
/// Largest program (instructions) built for one pattern.
const MAX_INSTRUCTIONS: usize = 512;
/// Largest number of targets of a shift table expanded into alternatives.
const MAX_TABLE_TARGETS: usize = 4;

/// One step of a probe program.
#[derive(Clone, Copy, Debug)]
pub struct Ins {
    /// First cell of the column (`num_vertices` cells) in `Probes::cols`.
    pub col: u32,
    /// First cell of the row (`num_pieces` cells) in `Probes::rows`.
    pub row: u32,
    /// Where to go when the step goes on (`STEP_GOES_ON`).
    pub ok: u32,
    /// Where to go when the column has no target or the step fails.
    pub fail: u32,
    /// Register read.
    pub src: u8,
    /// Register written with the target.
    pub dst: u8,
}

/// The probe programs of a game's patterns.
#[derive(Clone, Debug, Default)]
pub struct Probes {
    /// First instruction of each automaton's program (`ACCEPT` or `FAIL`
    /// for a pattern decided without looking), or `NONE` without one.
    pub start: Vec<u32>,
    /// Instructions.
    pub ins: Vec<Ins>,
    /// Columns (`num_vertices` cells each).
    pub cols: Vec<u32>,
    /// Rows (`num_pieces` cells each).
    pub rows: Vec<u8>,
}

impl Probes {
    /// Builds programs for the pattern automata of `c` that allow one.
    pub fn build(c: &Compiled) -> Probes {
        let mut b = Builder {
            c,
            p: Probes::default(),
            col_ids: HashMap::new(),
            col_dir: Vec::new(),
            acyclic: (0..c.num_dirs).map(|d| acyclic(c, d)).collect(),
            memo: HashMap::new(),
            path: Vec::new(),
            program: 0,
        };
        b.p.start = vec![NONE; c.starts.len()];
        for k in 1..c.starts.len() {
            let (ins, rows) = (b.p.ins.len(), b.p.rows.len());
            b.memo.clear();
            b.path.clear();
            b.program = ins;
            match b.state(c.starts[k], 0, FAIL) {
                Some(pc) => b.p.start[k] = pc,
                None => {
                    b.p.ins.truncate(ins);
                    b.p.rows.truncate(rows);
                }
            }
        }
        b.p
    }

    /// Runs the program starting at `pc` from vertex `v` on `board`.
    ///
    /// The next instruction is always read from the current one and chosen
    /// by a branch, never loaded from a row: the processor predicts the
    /// branch and runs ahead instead of waiting for the chain of loads.
    #[inline]
    pub fn run(&self, board: &[u32], v: u32, mut pc: u32) -> bool {
        let mut regs = [0u32; REGS];
        regs[0] = v;
        while pc < ACCEPT {
            debug_assert!((pc as usize) < self.ins.len());
            // SAFETY: programs only name their own instructions, columns
            // and rows (`Builder::state`), registers are `< REGS`, vertices
            // come from the columns or the caller (`v < num_vertices`, as
            // every column has), and pieces on the board are
            // `< num_pieces`, as every row has.
            unsafe {
                let ins = *self.ins.get_unchecked(pc as usize);
                let from = *regs.get_unchecked(ins.src as usize);
                let t = *self.cols.get_unchecked((ins.col + from) as usize);
                if t != NONE {
                    let piece = *board.get_unchecked(t as usize);
                    let step = *self.rows.get_unchecked((ins.row + piece) as usize);
                    if step == STEP_ACCEPTS {
                        return true;
                    }
                    if step == STEP_GOES_ON {
                        *regs.get_unchecked_mut(ins.dst as usize) = t;
                        pc = ins.ok;
                        continue;
                    }
                }
                pc = ins.fail;
            }
        }
        pc == ACCEPT
    }
}

/// What a transition's step passes to: for each piece at its target, the
/// state reached (or none).
#[derive(Clone, Copy)]
enum Row {
    /// Every piece: this state.
    All(u32),
    /// Pieces of the set whose `on_sets` row starts here: this state.
    Set(u32, u32),
    /// `Compiled::switch_rows` row starting here.
    Switch(u32),
}

impl Row {
    /// The state reached for each piece, or `NONE`.
    fn targets(self, c: &Compiled) -> Vec<u32> {
        (0..c.num_pieces)
            .map(|p| match self {
                Row::All(to) => to,
                Row::Set(set, to) if c.on_set(set, p) => to,
                Row::Set(..) => NONE,
                Row::Switch(r) => c.switch_to(r, p).0,
            })
            .collect()
    }
}

/// What a column does to a vertex, for the termination check.
#[derive(Clone, Copy, PartialEq)]
enum Motion {
    /// Keeps the vertex (or has no target).
    Stay,
    /// Moves along a board direction.
    Dir(u32),
    /// Anything else (a shift table's target).
    Other,
}

struct Builder<'a> {
    c: &'a Compiled,
    p: Probes,
    col_ids: HashMap<ColKey, u32>,
    /// Motion of each column (indexed by column number).
    col_dir: Vec<Motion>,
    /// Whether following a direction never comes back to a vertex.
    acyclic: Vec<bool>,
    /// First instruction and number of alternatives of each (state,
    /// register, fail) already built.
    memo: HashMap<(u32, u8, u32), (u32, u32)>,
    /// Instructions whose rows are being filled, outermost first.
    path: Vec<u32>,
    /// First instruction of the program being built.
    program: usize,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum ColKey {
    Stay,
    Dir(u32),
    Filter(u32),
    Target(u32, usize),
}

impl Builder<'_> {
    /// The first cell of a column, built on first use.
    fn col(&mut self, key: ColKey) -> u32 {
        if let Some(&c) = self.col_ids.get(&key) {
            return c;
        }
        let c = self.c;
        let cells: Vec<u32> = (0..c.num_vertices)
            .map(|v| match key {
                ColKey::Stay => v,
                ColKey::Dir(d) => c.neighbor(v, d),
                ColKey::Filter(row) if c.filter(row, v) => v,
                ColKey::Filter(_) => NONE,
                ColKey::Target(t, i) => c.multi(t, v).get(i).copied().unwrap_or(NONE),
            })
            .collect();
        let motion = match key {
            ColKey::Stay | ColKey::Filter(_) => Motion::Stay,
            ColKey::Dir(d) => Motion::Dir(d),
            ColKey::Target(..) => Motion::Other,
        };
        let first = self.p.cols.len() as u32;
        self.p.cols.extend(cells);
        self.col_ids.insert(key, first);
        self.col_dir.push(motion);
        first
    }

    /// The steps a state's transitions take: a column and, for each piece
    /// at its target, the state reached (or `NONE`). Each step reaches at
    /// most one non-accepting state (a switch between several becomes one
    /// step for each). `None` when some transition cannot be probed.
    fn steps(&mut self, q: u32) -> Option<Vec<(u32, Vec<u32>)>> {
        let c = self.c;
        let np = c.num_pieces;
        let mut steps = Vec::new();
        for tr in c.transitions(q) {
            let (key, row) = match tr.op {
                Op::Shift => (ColKey::Dir(tr.arg), Row::All(tr.to)),
                Op::ShiftOn => (ColKey::Dir(tr.arg), Row::Set(tr.set, tr.to)),
                Op::ShiftSwitch => (ColKey::Dir(tr.arg), Row::Switch(tr.set)),
                Op::On => (ColKey::Stay, Row::Set(tr.arg, tr.to)),
                Op::Noop => (ColKey::Stay, Row::All(tr.to)),
                Op::Filter => (ColKey::Filter(tr.arg), Row::All(tr.to)),
                Op::Multi | Op::MultiOn => {
                    let row = if tr.op == Op::Multi {
                        Row::All(tr.to)
                    } else {
                        Row::Set(tr.set, tr.to)
                    };
                    let most = (0..c.num_vertices)
                        .map(|v| c.multi(tr.arg, v).len())
                        .max()
                        .unwrap_or(0);
                    if most > MAX_TABLE_TARGETS {
                        return None;
                    }
                    for i in 0..most {
                        let col = self.col(ColKey::Target(tr.arg, i));
                        steps.push((col, row.targets(c)));
                    }
                    continue;
                }
                _ => return None,
            };
            let col = self.col(key);
            let targets = row.targets(c);
            // Split by non-accepting target; accepting ones go with the
            // first.
            let inner = inner_states(c, &targets);
            if inner.len() <= 1 {
                steps.push((col, targets));
                continue;
            }
            for (k, &to) in inner.iter().enumerate() {
                let part = (0..np as usize)
                    .map(|p| {
                        let t = targets[p];
                        let keep = t == to || (k == 0 && t != NONE && !goes_on(c, t));
                        if keep {
                            t
                        } else {
                            NONE
                        }
                    })
                    .collect();
                steps.push((col, part));
            }
        }
        Some(merge_steps(c, steps))
    }

    /// Builds the code for being in state `q` with the vertex in register
    /// `reg`, going to `fail` when no path from there accepts. Returns its
    /// first instruction (or `ACCEPT`/`fail` when no step is needed), or
    /// `None` when the pattern cannot be probed.
    fn state(&mut self, q: u32, reg: u8, fail: u32) -> Option<u32> {
        let c = self.c;
        if c.accepting[q as usize] {
            return Some(ACCEPT);
        }
        if let Some(&(pc, n)) = self.memo.get(&(q, reg, fail)) {
            // A loop back to instructions being built: allowed when it walks
            // along one direction that never returns, through states with
            // one step each (a loop through alternatives would need their
            // register saved).
            if let Some(i) = self.path.iter().position(|&x| x >= pc && x < pc + n) {
                if n != 1 {
                    return None;
                }
                self.check_loop(i)?;
            }
            return Some(pc);
        }
        let steps = self.steps(q)?;
        if steps.is_empty() {
            return Some(fail);
        }
        let dst = if steps.len() == 1 { reg } else { reg + 1 };
        if dst as usize >= REGS || self.p.ins.len() - self.program + steps.len() > MAX_INSTRUCTIONS
        {
            return None;
        }
        let base = self.p.ins.len() as u32;
        let n = steps.len() as u32;
        for (i, (col, targets)) in steps.iter().enumerate() {
            let i = i as u32;
            let row = self.p.rows.len() as u32;
            self.p.rows.extend(targets.iter().map(|&t| match t {
                NONE => STEP_FAILS,
                t if c.accepting[t as usize] => STEP_ACCEPTS,
                _ => STEP_GOES_ON,
            }));
            self.p.ins.push(Ins {
                col: *col,
                row,
                ok: FAIL,
                fail: if i + 1 < n { base + i + 1 } else { fail },
                src: reg,
                dst,
            });
        }
        self.memo.insert((q, reg, fail), (base, n));
        for (i, (_, targets)) in steps.iter().enumerate() {
            let pc = base + i as u32;
            let Some(&to) = targets.iter().find(|&&t| goes_on(c, t)) else {
                continue;
            };
            self.path.push(pc);
            let alt_fail = self.p.ins[pc as usize].fail;
            let ok = self.state(to, dst, alt_fail)?;
            self.p.ins[pc as usize].ok = ok;
            self.path.pop();
        }
        Some(base)
    }

    /// Accepts the loop made of the instructions `path[from..]` if it moves
    /// along a single acyclic direction (each turn ends at a new vertex, so
    /// the loop ends) and tests in place otherwise.
    fn check_loop(&self, from: usize) -> Option<()> {
        let mut dir = None;
        for &pc in &self.path[from..] {
            let col = self.p.ins[pc as usize].col / self.c.num_vertices.max(1);
            match self.col_dir[col as usize] {
                Motion::Stay => {}
                Motion::Dir(d) if dir.is_none() || dir == Some(d) => dir = Some(d),
                _ => return None,
            }
        }
        let d = dir?;
        self.acyclic[d as usize].then_some(())
    }
}

/// Whether reaching state `t` (or `NONE`) continues the program: `t` is a
/// state that is not accepting.
fn goes_on(c: &Compiled, t: u32) -> bool {
    t != NONE && !c.accepting[t as usize]
}

/// The distinct non-accepting states among `targets`, ascending.
fn inner_states(c: &Compiled, targets: &[u32]) -> Vec<u32> {
    let mut states: Vec<u32> = targets.iter().copied().filter(|&t| goes_on(c, t)).collect();
    states.sort_unstable();
    states.dedup();
    states
}

/// Merges steps along the same column whose pieces do not overlap, when the
/// merged step still reaches at most one non-accepting state: the walk
/// order does not matter to a pattern, and `r {e} ... + r {x}` becomes one
/// step that branches on the piece (so a loop through it can be probed).
fn merge_steps(c: &Compiled, steps: Vec<(u32, Vec<u32>)>) -> Vec<(u32, Vec<u32>)> {
    let mut merged: Vec<(u32, Vec<u32>)> = Vec::new();
    'steps: for (col, targets) in steps {
        for (mcol, mtargets) in merged.iter_mut() {
            if *mcol != col {
                continue;
            }
            let overlap = targets
                .iter()
                .zip(mtargets.iter())
                .any(|(&a, &b)| a != NONE && b != NONE);
            let both: Vec<u32> = targets.iter().chain(mtargets.iter()).copied().collect();
            if !overlap && inner_states(c, &both).len() <= 1 {
                for (m, t) in mtargets.iter_mut().zip(targets) {
                    if t != NONE {
                        *m = t;
                    }
                }
                continue 'steps;
            }
        }
        merged.push((col, targets));
    }
    merged
}

/// Whether following direction `d` from any vertex never returns to it.
fn acyclic(c: &Compiled, d: u32) -> bool {
    let nv = c.num_vertices as usize;
    // 0: unvisited, 1: on the current walk, 2: known to end.
    let mut color = vec![0u8; nv];
    for v0 in 0..nv {
        let mut walk = Vec::new();
        let mut v = v0 as u32;
        while v != NONE && color[v as usize] == 0 {
            color[v as usize] = 1;
            walk.push(v);
            v = c.neighbor(v, d);
        }
        if v != NONE && color[v as usize] == 1 {
            return false;
        }
        for w in walk {
            color[w as usize] = 2;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    use crate::compile::NONE;
    use crate::search::Searcher;
    use crate::{GameModel, MoveList};

    /// Plays random games and checks, in every state reached, that each
    /// probe agrees with the walk on every vertex. Returns the number of
    /// probed patterns.
    fn probes_agree_with_walk(text: &str, games: usize) -> usize {
        assert!(games > 0);
        let game = GameModel::from_text(text).expect("description parses");
        let c = &game.inner.c;
        let probed: Vec<usize> = (1..c.starts.len())
            .filter(|&k| c.probes.start[k] != NONE)
            .collect();
        let mut walker = Searcher::new(c);
        let mut r = game.reasoner();
        let mut rng = SmallRng::seed_from_u64(5);
        let mut moves = MoveList::default();
        for _ in 0..games {
            let mut s = game.initial_state();
            loop {
                for &k in &probed {
                    for v in 0..c.num_vertices {
                        let probe = c.probes.run(&s.board, v, c.probes.start[k]);
                        let walk = walker.walk_pattern_at(c, &mut s, k as u32, v);
                        assert_eq!(probe, walk, "pattern {k} at vertex {v}");
                    }
                }
                r.legal_moves(&s, &mut moves).expect("moves");
                if moves.is_empty() {
                    break;
                }
                let m = moves.get(rng.gen_range(0..moves.len())).to_vec();
                if !r.apply(&mut s, &m).expect("apply") {
                    break;
                }
            }
        }
        probed.len()
    }

    #[test]
    fn probes_agree_with_the_walk_on_library_games() {
        let games = [
            ("ticTacToe", include_str!("../../../games/ticTacToe.rbg"), 8),
            ("connect4", include_str!("../../../games/connect4.rbg"), 1),
            ("reversi", include_str!("../../../games/reversi.rbg"), 16),
            (
                "nineMensMorris",
                include_str!("../../../games/nineMensMorris.rbg"),
                2,
            ),
            ("gomoku", include_str!("../../../games/gomoku.rbg"), 16),
            (
                "englishDraughts",
                include_str!("../../../games/englishDraughts.rbg"),
                4,
            ),
        ];
        for (name, text, probed) in games {
            assert_eq!(probes_agree_with_walk(text, 3), probed, "{name}");
        }
    }

    /// The suite's descriptions, whose patterns are probed most (skipped when
    /// the suite is not beside the repository, except under CI).
    #[test]
    fn probes_agree_with_the_walk_on_suite_games() {
        let dir = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../../shared/rbg-suite/games"
        );
        let expected = [
            ("ticTacToe", 2),
            ("connect4", 3),
            ("reversi", 18),
            ("theMillGame", 2),
            ("gomoku_standard", 16),
            ("englishDraughts", 4),
            ("chineseCheckers6", 7),
        ];
        for (name, probed) in expected {
            let Ok(text) = std::fs::read_to_string(format!("{dir}/{name}.rbg")) else {
                assert!(std::env::var_os("CI").is_none(), "suite missing under CI");
                return;
            };
            let n = probes_agree_with_walk(&text, 2);
            assert_eq!(n, probed, "{name}");
        }
    }

    /// A loop along a direction that comes back (a ring) is left to the
    /// walk, which ends thanks to its visited marks; on a line it is probed.
    #[test]
    fn loops_on_a_ring_are_not_probed() {
        let ring = "#players = a(1)\n#pieces = e, x\n#variables =\n\
            #board = v0[e]{r:v1} v1[e]{r:v2} v2[e]{r:v0}\n\
            #rules = ->a {? (r {e})* r {x}} [x] ->a";
        let line = ring.replace("{r:v0}", "{}");
        for (text, probed) in [(ring, false), (&line[..], true)] {
            let game = GameModel::from_text(text).expect("description parses");
            let c = &game.inner.c;
            assert_eq!(c.probes.start[1] != NONE, probed, "{text}");
            // No vertex holds `x`: the pattern fails everywhere, so the
            // player has no move.
            let mut r = game.reasoner();
            let mut moves = MoveList::default();
            r.legal_moves(&game.initial_state(), &mut moves).unwrap();
            assert_eq!(moves.len(), 0);
            assert_eq!(probes_agree_with_walk(text, 1), probed as usize);
        }
    }
}
