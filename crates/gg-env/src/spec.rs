//! What an engine tells to be an environment ([`Spec`]): how its atoms are
//! numbered and what a player observes (RBG's implementation in `rbg.rs`,
//! RG's in `rg.rs`).

use gg_core::{Game, MoveList, Turn};
use rbg_cli::cmd::view::Presented;

/// One named part of the flat observation vector.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Segment {
    /// What the part holds (`pieces`, `move`, `variables`, `on_move`).
    pub name: String,
    /// Its shape (e.g. `[pieces, vertices]`); the part is stored row-major.
    pub shape: Vec<usize>,
}

impl Segment {
    pub(crate) fn new(name: &str, shape: Vec<usize>) -> Segment {
        Segment {
            name: name.to_string(),
            shape,
        }
    }

    /// Number of values.
    pub fn len(&self) -> usize {
        self.shape.iter().product()
    }

    /// Whether the part holds no values.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// How the choices of one game are numbered: densely and stably (the same
/// description gives the same numbers on every machine).
pub trait Numbering<A>: Send + Sync + 'static {
    /// Choice ids are `0..num_atoms()`.
    fn num_atoms(&self) -> u32;

    /// The id of an atom that is a choice; `None` for atoms that only
    /// carry a move's effect (RG's changes and end node): where a move has
    /// such an atom, it ends as far as choosing is concerned.
    fn atom_id(&self, a: A) -> Option<u32>;

    /// Whether two atoms with the same id are the same atom (an id tells
    /// the whole atom): then candidates taking the same action share the
    /// atom there, and [`crate::Decision`] skips comparing their atoms when
    /// it takes atoms every candidate shares. RG's tags do not (the same
    /// tag on different edges).
    const IDS_ARE_ATOMS: bool = false;

    /// The action an atom takes: its id, or `num_atoms()` (the end action)
    /// for an atom that is no choice. Called for every candidate at every
    /// decision: numberings may answer it faster than through `atom_id`.
    #[inline]
    fn key(&self, a: A) -> u32 {
        self.atom_id(a).unwrap_or_else(|| self.num_atoms())
    }

    /// Sets `out` to the action every move of `moves` takes at position
    /// `d` ([`Numbering::key`], or the end action where it is shorter): a
    /// turn's first keys, one pass over all its moves.
    fn keys_at(&self, moves: &MoveList<A>, d: usize, out: &mut Vec<u32>)
    where
        A: Copy + PartialEq,
    {
        out.clear();
        out.extend(
            moves
                .iter()
                .map(|m| m.get(d).map_or_else(|| self.num_atoms(), |&a| self.key(a))),
        );
    }

    /// The text of choice `id` in the language's move notation.
    fn action_text(&self, id: u32) -> Option<String>;
}

/// An engine whose games can be environments: choices numbered
/// ([`Numbering`]), and states turned into fixed-length observation
/// vectors.
pub trait Spec: Game + Presented {
    /// The numbering of a game's choices.
    type Ids: Numbering<Self::Atom> + Clone;

    /// Works the numbering out (once per game; its states share it).
    fn numbering(&self) -> Self::Ids;

    /// Applies the first atoms of a move (`prefix`) to `s`, as far as the
    /// engine can show a move in progress; `false` (and `s` unchanged) when
    /// it cannot.
    fn apply_prefix(&self, s: &mut Self::State, prefix: &[Self::Atom]) -> bool;

    /// The legal moves in `s` into `out` (`Reasoner::legal_moves_mut`),
    /// and where the engine can, the key of each move's first atom
    /// ([`Numbering::keys_at`] at depth 0) into `keys`, written while
    /// generating them: whether it wrote them.
    #[inline]
    fn legal_moves_keyed(
        r: &mut Self::Reasoner,
        s: &mut Self::State,
        out: &mut MoveList<Self::Atom>,
        keys: &mut Vec<u32>,
    ) -> Result<bool, Self::Error> {
        let _ = keys;
        gg_core::Reasoner::legal_moves_mut(r, s, out).map(|()| false)
    }

    /// Length of what the players remember of past moves (0 when the
    /// state tells everything they may know).
    fn memory_len(&self) -> usize {
        0
    }

    /// Adds what the players see of move `m` to `memory`.
    fn remember(&self, m: &[Self::Atom], memory: &mut [f32]) {
        let _ = (m, memory);
    }

    /// The parts of the observation vector, in order.
    fn observation_layout(&self) -> Vec<Segment>;

    /// Writes what `viewer` observes into `out` (of the layout's total
    /// length): every value, whatever `out` held (batches write each
    /// observation once instead of clearing it first). `s` is the state with the move in progress applied as far as
    /// [`Spec::apply_prefix`] can, `prefix` the atoms applied so far
    /// in the move in progress, `turn` who is choosing, `memory` what
    /// [`Spec::remember`] kept.
    fn observe(&self, view: View<'_, Self>, viewer: usize, out: &mut [f32]);

    /// Patches `out`, which holds the observation of `base` with the first
    /// `from` atoms of `prefix` applied (the same player choosing), into
    /// the observation with all of `prefix` applied, as [`Spec::observe`]
    /// would write it; `false` (with `out` unchanged) where it cannot.
    fn patch_observation(
        &self,
        base: &Self::State,
        prefix: &[Self::Atom],
        from: usize,
        ids: &Self::Ids,
        out: &mut [f32],
    ) -> bool {
        let _ = (base, prefix, from, ids, out);
        false
    }

    /// Patches `out`, which holds what `viewer` observed in the last turn
    /// with the first atoms of `last` (the move that led to `view`'s
    /// state) applied, into `viewer`'s observation of `view` (at a turn's
    /// start, as [`Spec::observe`] would write it); `false` (with `out`
    /// unchanged) where it cannot.
    fn patch_turn_start(
        &self,
        view: View<'_, Self>,
        viewer: usize,
        last: &[Self::Atom],
        out: &mut [f32],
    ) -> bool {
        let _ = (view, viewer, last, out);
        false
    }
}

/// What an observation is made from.
pub struct View<'a, G: Spec> {
    /// The state (mid-move: as far as the move in progress shows).
    pub state: &'a G::State,
    /// The atoms chosen so far in the move in progress.
    pub prefix: &'a [G::Atom],
    /// Who is choosing.
    pub turn: Turn,
    /// What the players remember of past moves.
    pub memory: &'a [f32],
    /// The game's numbering (with what it keeps for observations).
    pub ids: &'a G::Ids,
}

impl<G: Spec> Clone for View<'_, G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Spec> Copy for View<'_, G> {}
