//! Split moves: a move is chosen as a sequence of actions, one per point
//! where the legal moves still in question differ.
//!
//! At a decision the candidates (the legal moves that agree with the
//! actions taken so far in this turn) share a longest common prefix of
//! atoms; the actions are the distinct atoms that follow it, by id
//! ([`Spec::atom_id`]), plus [`Decision::end_action`] when a candidate
//! ends there while others go on. Atoms that every candidate shares are
//! taken without asking. When one candidate is left the move is complete
//! and applied; a lone legal move at the start of a turn (or identical
//! candidates) is chosen by its last atom. So every legal move is exactly
//! one sequence of actions, and enumerating the sequences gives the
//! engine's legal moves.

use gg_core::{MoveList, Reasoner, Turn};

use crate::spec::Spec;

/// Why an action cannot be applied.
#[derive(Debug)]
pub enum StepError<E> {
    /// The action is not legal here.
    Illegal(u32),
    /// The game is over.
    Over,
    /// The engine failed (an improperly written game).
    Engine(E),
}

impl<E> From<E> for StepError<E> {
    fn from(e: E) -> Self {
        StepError::Engine(e)
    }
}

/// A state between actions: the state at the start of the turn and the
/// candidates left.
#[derive(Clone, Debug)]
pub struct Decision<G: Spec> {
    base: G::State,
    turn: Turn,
    moves: MoveList<G::Atom>,
    /// Indices of the candidates in `moves`.
    alive: Vec<u32>,
    /// Length of the candidates' common prefix: the actions choose the atom
    /// at this position.
    depth: usize,
    /// Sorted legal actions and how many candidates each keeps.
    actions: Vec<(u32, u32)>,
}

impl<G: Spec> Decision<G> {
    /// The decision at the start of the turn in `s`.
    pub fn new(r: &mut G::Reasoner, s: G::State) -> Result<Decision<G>, G::Error> {
        let mut d = Decision {
            base: s,
            turn: Turn::Over,
            moves: MoveList::default(),
            alive: Vec::new(),
            depth: 0,
            actions: Vec::new(),
        };
        d.start_turn(r)?;
        Ok(d)
    }

    /// The action that ends a move which other candidates continue (never
    /// legal in RBG, whose moves end with a switch): `num_atoms`.
    pub fn end_action(game: &G) -> u32 {
        game.num_atoms()
    }

    /// Number of distinct actions: the atoms plus the end action.
    pub fn num_actions(game: &G) -> u32 {
        game.num_atoms() + 1
    }

    fn start_turn(&mut self, r: &mut G::Reasoner) -> Result<(), G::Error> {
        self.alive.clear();
        self.actions.clear();
        self.depth = 0;
        self.moves.clear();
        self.turn = r.game().turn(&self.base);
        if self.turn != Turn::Over {
            r.legal_moves_mut(&mut self.base, &mut self.moves)?;
            if self.moves.is_empty() {
                self.turn = Turn::Over;
            }
        }
        self.alive.extend(0..self.moves.len() as u32);
        self.settle(r.game());
        Ok(())
    }

    /// Skips the atoms every candidate shares and lists the actions.
    fn settle(&mut self, game: &G) {
        self.actions.clear();
        if self.alive.is_empty() {
            return;
        }
        let first = self.moves.get(self.alive[0] as usize);
        let mut d = self.depth;
        'prefix: while let Some(&atom) = first.get(d) {
            for &i in &self.alive[1..] {
                let m = self.moves.get(i as usize);
                if m.get(d) != Some(&atom) {
                    break 'prefix;
                }
            }
            d += 1;
        }
        // Every candidate ends at `d`: one move (or identical ones), chosen
        // by its last atom.
        let all_end = self
            .alive
            .iter()
            .all(|&i| self.moves.get(i as usize).len() == d);
        if all_end && d > self.depth {
            d -= 1;
        }
        self.depth = d;
        let end = Self::end_action(game);
        for &i in &self.alive {
            let id = self
                .moves
                .get(i as usize)
                .get(d)
                .map_or(end, |&a| game.atom_id(a));
            self.actions.push((id, 1));
        }
        self.actions.sort_unstable();
        self.actions.dedup_by(|b, a| {
            let same = a.0 == b.0;
            if same {
                a.1 += b.1;
            }
            same
        });
    }

    /// The id at the decision position of candidate `m`.
    fn id_of(&self, game: &G, m: &[G::Atom]) -> u32 {
        m.get(self.depth)
            .map_or(Self::end_action(game), |&a| game.atom_id(a))
    }

    /// Applies action `a`; when it completes a move, plays the move and
    /// starts the next turn.
    pub fn apply(&mut self, r: &mut G::Reasoner, a: u32) -> Result<(), StepError<G::Error>> {
        if self.turn == Turn::Over {
            return Err(StepError::Over);
        }
        if self.actions.binary_search_by_key(&a, |x| x.0).is_err() {
            return Err(StepError::Illegal(a));
        }
        let (moves, depth, game) = (&self.moves, self.depth, r.game());
        let end = Self::end_action(game);
        self.alive.retain(|&i| {
            let m = moves.get(i as usize);
            m.get(depth).map_or(end, |&x| game.atom_id(x)) == a
        });
        let done = a == end
            || self.alive.len() == 1
            || self
                .alive
                .iter()
                .all(|&i| self.moves.get(i as usize).len() == depth + 1);
        if done {
            let m = self.alive[0] as usize;
            r.apply(&mut self.base, self.moves.get(m))?;
            self.start_turn(r)?;
        } else {
            self.depth += 1;
            self.settle(r.game());
        }
        Ok(())
    }

    /// Plays a whole legal move (for chance and agents); `m` indexes
    /// [`Decision::moves`].
    pub fn apply_move(&mut self, r: &mut G::Reasoner, m: usize) -> Result<(), G::Error> {
        r.apply(&mut self.base, self.moves.get(m))?;
        self.start_turn(r)
    }

    /// Who chooses: a player, chance, or [`Turn::Over`] (also when the
    /// player on move has no legal move).
    pub fn turn(&self) -> Turn {
        self.turn
    }

    /// The legal actions with how many candidates each keeps, sorted.
    pub fn actions(&self) -> &[(u32, u32)] {
        &self.actions
    }

    /// Whether `a` is legal.
    pub fn is_legal(&self, a: u32) -> bool {
        self.actions.binary_search_by_key(&a, |x| x.0).is_ok()
    }

    /// Number of candidates left.
    pub fn num_candidates(&self) -> usize {
        self.alive.len()
    }

    /// All legal moves of the turn (candidates or not).
    pub fn moves(&self) -> &MoveList<G::Atom> {
        &self.moves
    }

    /// Indices (into [`Decision::moves`]) of the candidates left.
    pub fn candidates(&self) -> &[u32] {
        &self.alive
    }

    /// The action a candidate takes at this decision.
    pub fn action_of(&self, game: &G, m: usize) -> u32 {
        self.id_of(game, self.moves.get(m))
    }

    /// The state at the start of the turn.
    pub fn base(&self) -> &G::State {
        &self.base
    }

    /// Atoms fixed so far in this turn (the candidates' common prefix).
    pub fn prefix(&self) -> &[G::Atom] {
        match self.alive.first() {
            Some(&i) => &self.moves.get(i as usize)[..self.depth],
            None => &[],
        }
    }

    /// Whether no action has been taken in this turn.
    pub fn at_turn_start(&self) -> bool {
        self.alive.len() == self.moves.len()
    }

    /// Writes `viewer`'s observation into `out` (zeroed, of the layout's
    /// length).
    pub fn observe(&self, game: &G, viewer: usize, out: &mut [f32]) {
        let prefix = self.prefix();
        if prefix.is_empty() {
            game.observe(&self.base, prefix, self.turn, viewer, out);
        } else {
            let s = game.partial(&self.base, prefix);
            game.observe(&s, prefix, self.turn, viewer, out);
        }
    }

    /// Sets `mask[a]` for every legal action (`mask` zeroed).
    pub fn write_mask(&self, mask: &mut [bool]) {
        for &(a, _) in &self.actions {
            mask[a as usize] = true;
        }
    }
}

/// The number of complete moves reachable by `depth` moves of actions from
/// `d`: perft through the action interface. Chance children that are equal
/// states count once, as in [`gg_core::perft`].
pub fn action_perft<G: Spec>(
    r: &mut G::Reasoner,
    d: &Decision<G>,
    depth: usize,
) -> Result<u64, StepError<G::Error>> {
    if depth == 0 {
        return Ok(1);
    }
    let mut total = 0;
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![d.clone()];
    while let Some(d) = stack.pop() {
        for &(a, _) in d.actions() {
            let mut child = d.clone();
            child.apply(r, a)?;
            if child.at_turn_start() {
                if d.turn() == Turn::Chance && !seen.insert(child.base().clone()) {
                    continue;
                }
                total += action_perft(r, &child, depth - 1)?;
            } else {
                stack.push(child);
            }
        }
    }
    Ok(total)
}
