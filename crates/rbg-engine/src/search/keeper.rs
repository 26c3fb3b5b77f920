//! The keeper's completion: its moves applied one after another.
//!
//! Each move first follows the rules directly while the search has no
//! choice: a node with a single transition, or whose transitions are all
//! tests of which exactly one holds (`{! win} ... + {? win} ...`);
//! modifiers are applied in place and logged for undo, up to the switch.
//! Most keepers (`[$ me=100] [$ opp=0] ... ->opp`) finish without a search;
//! the search starts only where the rules branch. A completion is watched
//! for repetition from its `limits::WATCH_KEEPER_FROM`-th move (Brent's
//! cycle detection, `watch::KeeperWatch`).

use super::{assigned, is_step, Change, Keeper, Searcher};
use crate::compile::{Compiled, Op, NONE};
use crate::error::{limits, Fault, FaultKind};
use crate::state::State;

/// Where [`Searcher::keeper_prefix`] stopped.
enum Prefix {
    /// At a switch: the keeper's move is complete.
    Switched,
    /// At a failing action: the keeper has no legal move.
    Stuck,
    /// At a node (state, vertex) the search must explore.
    Branch(u32, u32),
}

impl Searcher {
    /// While the keeper is on move, applies its first legal move. Returns
    /// `false` if the keeper got stuck (the game is over); its last move is
    /// then undone.
    ///
    /// The walk's first steps, as long as the search would have no choice,
    /// are taken directly ([`Searcher::keeper_prefix`]); the search proper
    /// only starts where the rules really branch.
    ///
    /// A completion that comes back to a state it has been in goes on
    /// forever: after `limits::WATCH_KEEPER_FROM` moves the states are
    /// watched for a repetition, and the completion ends with a fault after
    /// `limits::MAX_KEEPER_MOVES` moves.
    pub fn complete_keeper(&mut self, g: &Compiled, s: &mut State) -> Result<bool, Fault> {
        let mut moves = 0u64;
        while s.player == g.num_players {
            g.check_state(s);
            self.changes.clear();
            self.begin_search();
            let moved = match self.keeper_prefix(g, s) {
                Prefix::Switched => true,
                Prefix::Stuck => false,
                Prefix::Branch(q, v) => {
                    // The state has not changed since the prefix's last
                    // version: its pattern results stay valid.
                    self.cur.clear();
                    let moved = self.node::<Keeper>(g, s, q, v, 0);
                    if moved && self.fault.is_none() {
                        let to = self.switched;
                        (s.player, s.rule_state, s.pos) = (to.player, to.rule_state, to.pos);
                    }
                    moved
                }
            };
            if !moved || self.fault.is_some() {
                while let Some(change) = self.changes.pop() {
                    change.revert(g, s);
                }
                self.end_search()?;
                return Ok(false);
            }
            moves += 1;
            self.watch_keeper(s, moves)?;
        }
        Ok(true)
    }

    /// The keeper's completion has made `moves` moves and reached `s`:
    /// a fault if it has been there before or went past its limit.
    #[inline]
    pub fn watch_keeper(&mut self, s: &State, moves: u64) -> Result<(), Fault> {
        if moves < limits::WATCH_KEEPER_FROM {
            return Ok(());
        }
        self.watch_keeper_slow(s, moves)
    }

    #[cold]
    #[inline(never)]
    fn watch_keeper_slow(&mut self, s: &State, moves: u64) -> Result<(), Fault> {
        let at = |kind| Fault {
            kind,
            action: s.rule_state,
        };
        if moves == limits::WATCH_KEEPER_FROM {
            self.keeper_watch.start(s);
        } else if self.keeper_watch.repeats(s) {
            return Err(at(FaultKind::EndlessKeeper));
        }
        if moves >= limits::MAX_KEEPER_MOVES {
            return Err(at(FaultKind::LongKeeper));
        }
        Ok(())
    }

    /// Follows the keeper's rules from its current node while the search
    /// has no choice to make: a node with a single transition, or whose
    /// transitions are all tests and single shifts of which exactly one
    /// passes (`{! p} x + {? p} y`). Applies modifiers in place, logging
    /// them in `changes`. Stops at a switch (applied), a dead end, a node
    /// with a real choice, or after a bounded number of steps (the rules
    /// may loop).
    fn keeper_prefix(&mut self, g: &Compiled, s: &mut State) -> Prefix {
        const MAX_STEPS: usize = 256;
        self.new_version();
        let (mut q, mut v) = (s.rule_state, s.pos);
        for _ in 0..MAX_STEPS {
            let trs = g.transitions(q);
            let tr = match trs {
                [tr] => tr,
                _ if trs.iter().all(|tr| is_step(tr.op)) => {
                    let mut passing = None;
                    for tr in trs {
                        let mut w = v;
                        let to = self.step(g, s, tr, &mut w);
                        if to != NONE {
                            if passing.is_some() {
                                return Prefix::Branch(q, v);
                            }
                            passing = Some((to, w));
                        }
                    }
                    let Some((to, w)) = passing else {
                        return Prefix::Stuck;
                    };
                    (q, v) = (to, w);
                    continue;
                }
                _ => return Prefix::Branch(q, v),
            };
            let mut a = tr.to;
            let passed = match tr.op {
                op if is_step(op) => {
                    a = self.step(g, s, tr, &mut v);
                    a != NONE
                }
                Op::Off => {
                    let old = s.set_piece(g, v, tr.arg);
                    self.changes.push(Change::Piece(v, old));
                    self.new_version();
                    true
                }
                Op::Assign => match assigned(g, s, a) {
                    Some((var, val)) => {
                        let old = std::mem::replace(&mut s.vars[var as usize], val);
                        self.changes.push(Change::Var(var, old));
                        self.new_version();
                        true
                    }
                    None => false,
                },
                Op::Switch => {
                    s.player = tr.arg;
                    s.rule_state = a;
                    s.pos = v;
                    return Prefix::Switched;
                }
                _ => return Prefix::Branch(q, v),
            };
            if !passed {
                return Prefix::Stuck;
            }
            q = a;
        }
        Prefix::Branch(q, v)
    }
}
