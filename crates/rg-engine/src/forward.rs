//! The engine behind the shared forward-model interface ([`gg_core`]).
//!
//! A move is a walk; its atoms are the walk's tags (with the players who
//! see each), then its effect (the slots it changes and the node it ends
//! at), so a move is applied from its atoms without a search and its text
//! is its tags. The keeper's moves are applied inside
//! [`gg_core::Reasoner::apply`]; `random` is [`Turn::Chance`].

use gg_core::{MoveError, Turn};

use crate::{Effects, GameModel, MoveList, Mover, Reasoner, RunError, Sink, State};

/// One element of an RG move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Atom {
    /// A tag (symbol number) and the players who see it (bit `p`).
    Tag(u16, u64),
    /// The walk sets this slot to this value.
    Set(u32, u16),
    /// The walk ends at this node.
    Node(u32),
}

/// The interface's workspace: a [`Reasoner`] and a list of walks.
#[derive(Clone)]
pub struct Workspace {
    r: Reasoner,
    walks: MoveList,
    /// Playouts' walks, and the keeper's: effects only.
    effects: Effects,
    keeper: Effects,
}

impl Workspace {
    /// The underlying reasoner.
    pub fn reasoner(&mut self) -> &mut Reasoner {
        &mut self.r
    }
}

/// Appends walk `i` of `list` to `out` as atoms (written straight into its
/// buffers: this runs for every walk of every state of a playout).
fn push_walk(list: &MoveList, i: usize, out: &mut gg_core::MoveList<Atom>) {
    let (atoms, ends) = out.raw_parts_mut();
    let (tags, vis, changes) = (list.tags(i), list.visibility(i), list.changes(i));
    atoms.reserve(tags.len() + changes.len() + 1);
    if vis.is_empty() {
        for &t in tags {
            atoms.push(Atom::Tag(t, u64::MAX));
        }
    } else {
        for (&t, &v) in tags.iter().zip(vis) {
            atoms.push(Atom::Tag(t, v));
        }
    }
    for &(slot, v) in changes {
        atoms.push(Atom::Set(slot, v));
    }
    atoms.push(Atom::Node(list.node(i)));
    ends.push(atoms.len() as u32);
}

/// Applies a move's effect (no keeper).
fn apply_raw(s: &mut State, m: &[Atom]) {
    for a in m {
        match *a {
            Atom::Tag(..) => {}
            Atom::Set(slot, v) => s.slots[slot as usize] = v,
            Atom::Node(n) => s.node = n,
        }
    }
}

impl GameModel {
    /// The numeric values of the `Score` symbols, lowest and highest.
    fn score_bounds(&self) -> (i64, i64) {
        let g = self.description();
        let syms = g
            .typedefs
            .get("Score")
            .and_then(|&t| g.types.symbols(t))
            .unwrap_or(&[]);
        let values = syms.iter().map(|s| self.inner.score_values[s.0 as usize]);
        (values.clone().min().unwrap_or(0), values.max().unwrap_or(0))
    }
}

impl gg_core::Game for GameModel {
    type State = State;
    type Atom = Atom;
    type Reasoner = Workspace;
    type Error = RunError;

    fn reasoner(&self) -> Workspace {
        Workspace {
            r: GameModel::reasoner(self),
            walks: MoveList::default(),
            effects: Effects::default(),
            keeper: Effects::default(),
        }
    }

    fn initial_state(&self) -> Result<State, RunError> {
        let mut s = GameModel::initial_state(self);
        let mut r = GameModel::reasoner(self);
        r.complete_keeper(&mut s)?;
        if !self.is_terminal(&s) {
            self.mover(&s)?;
        }
        Ok(s)
    }

    fn num_players(&self) -> usize {
        GameModel::num_players(self)
    }

    fn player_name(&self, p: usize) -> &str {
        GameModel::player_name(self, p)
    }

    #[inline]
    fn turn(&self, s: &State) -> Turn {
        if self.is_terminal(s) {
            return Turn::Over;
        }
        match self.mover(s) {
            Ok(Mover::Player(p)) => Turn::Player(p),
            Ok(Mover::Random) => Turn::Chance,
            // States given out by the interface are keeper-completed and
            // have a mover (checked in `apply` and `initial_state`).
            Ok(Mover::Keeper) | Err(_) => Turn::Over,
        }
    }

    fn score(&self, s: &State, p: usize) -> i64 {
        let slot = self.inner.t.goal_slots[p];
        self.inner.score_values[s.slots[slot as usize] as usize]
    }

    fn scores(&self, s: &State) -> Vec<i64> {
        GameModel::scores(self, s)
    }

    fn score_range(&self, _p: usize) -> (i64, i64) {
        self.score_bounds()
    }

    fn move_text(&self, m: &[Atom]) -> String {
        let tags: Vec<u16> = m
            .iter()
            .filter_map(|a| match a {
                Atom::Tag(t, _) => Some(*t),
                _ => None,
            })
            .collect();
        self.tags_text(&tags)
    }

    fn error_text(&self, e: &RunError) -> String {
        GameModel::error_text(self, e)
    }

    fn stuck(&self, s: &State) -> Result<(), RunError> {
        Err(RunError::NoMove(s.node))
    }

    fn perfect_information(&self) -> bool {
        let g = self.description();
        let assigned = g.edges.iter().any(|e| match &e.label {
            rg_lang::checked::CLabel::Assign(t, _) | rg_lang::checked::CLabel::AssignAny(t, _) => {
                t.root_var() == Some(g.visible)
            }
            _ => false,
        });
        let all_see = match &g.variables[g.visible].value {
            rg_lang::checked::Val::Map { default, entries } => {
                entries.iter().all(|(_, v)| v == &**default)
                    && matches!(&**default, rg_lang::checked::Val::Sym(s) if g.symbols.name(*s) == "1")
            }
            rg_lang::checked::Val::Sym(_) => false,
        };
        all_see && !assigned
    }

    fn describe(&self, s: &State) -> String {
        GameModel::describe(self, s)
    }

    fn summary(&self) -> String {
        let g = self.description();
        format!(
            "players={} variables={} constants={} nodes={} edges={} pragmas={} warnings={}",
            g.players.len(),
            g.user_variables(),
            g.constants.len(),
            g.nodes.len(),
            g.edges.len(),
            g.pragmas.len(),
            g.warnings.len()
        )
    }
}

impl Workspace {
    /// The keeper's moves after a move, then a check that someone moves.
    #[cfg_attr(target_os = "linux", link_section = ".text.hot.rg_walk")]
    fn after_move(&mut self, s: &mut State) -> Result<(), RunError> {
        self.r.complete_keeper_with(s, &mut self.keeper)?;
        if !self.r.game().is_terminal(s) {
            self.r.game().mover(s)?;
        }
        Ok(())
    }
}

impl gg_core::Reasoner<GameModel> for Workspace {
    fn game(&self) -> &GameModel {
        self.r.game()
    }

    fn legal_moves_mut(
        &mut self,
        s: &mut State,
        out: &mut gg_core::MoveList<Atom>,
    ) -> Result<(), RunError> {
        out.clear();
        self.r.moves(s, &mut self.walks)?;
        for i in 0..self.walks.len() {
            push_walk(&self.walks, i, out);
        }
        Ok(())
    }

    fn apply(&mut self, s: &mut State, m: &[Atom]) -> Result<(), RunError> {
        apply_raw(s, m);
        self.after_move(s)
    }

    /// The walks' effects only (no tags, no atoms); the same draw as
    /// listing the moves, so playouts are unchanged.
    #[cfg_attr(target_os = "linux", link_section = ".text.hot.rg_walk")]
    fn play_random(
        &mut self,
        s: &mut State,
        _moves: &mut gg_core::MoveList<Atom>,
        rng: &mut rand::rngs::SmallRng,
    ) -> Result<usize, RunError> {
        use rand::Rng;
        self.r.walks(s, &mut self.effects)?;
        let n = self.effects.len();
        if n > 0 {
            s.node = self.effects.apply_to(rng.gen_range(0..n), &mut s.slots);
            self.after_move(s)?;
        }
        Ok(n)
    }

    fn chance_outcome(&mut self, s: &State, m: &[Atom], out: &mut State) -> Result<(), RunError> {
        out.clone_from(s);
        apply_raw(out, m);
        Ok(())
    }

    fn parse_move(&mut self, s: &State, text: &str) -> Result<Vec<Atom>, MoveError> {
        let game = self.r.game().clone();
        if let Some(w) = text
            .split_whitespace()
            .find(|w| game.description().symbols.get(w).is_none())
        {
            return Err(MoveError::Syntax(format!(
                "`{w}` is not a symbol of this game"
            )));
        }
        let mut scratch = s.clone();
        self.r
            .moves(&mut scratch, &mut self.walks)
            .map_err(|e| MoveError::Game(game.error_text(&e)))?;
        let i = game
            .find_move(&self.walks, text)
            .ok_or_else(|| MoveError::NotLegal(text.trim().to_string()))?;
        let mut out = gg_core::MoveList::default();
        push_walk(&self.walks, i, &mut out);
        Ok(out.get(0).to_vec())
    }

    fn observe_move(
        &mut self,
        _before: &State,
        m: &[Atom],
        viewer: usize,
    ) -> Result<String, RunError> {
        let seen: Vec<u16> = m
            .iter()
            .filter_map(|a| match *a {
                Atom::Tag(t, who) if who.checked_shr(viewer as u32).unwrap_or(1) & 1 == 1 => {
                    Some(t)
                }
                _ => None,
            })
            .collect();
        Ok(self.r.game().tags_text(&seen))
    }
}
