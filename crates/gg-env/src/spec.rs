//! What an engine tells to be an environment ([`Spec`]): how its atoms are
//! numbered and what a player observes; the RBG engine's implementation.

use gg_core::{Game, Turn};
use rbg_cli::cmd::view::Presented;
use rbg_engine::{GameModel, ModApp, State};

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

/// An engine whose games can be environments: choices numbered densely and
/// stably (the same description gives the same numbers on every machine),
/// and states turned into fixed-length observation vectors.
pub trait Spec: Game + Presented {
    /// Choice ids are `0..num_atoms()`.
    fn num_atoms(&self) -> u32;

    /// The id of an atom that is a choice; `None` for atoms that only
    /// carry a move's effect (RG's changes and end node): where a move has
    /// such an atom, it ends as far as choosing is concerned.
    fn atom_id(&self, a: Self::Atom) -> Option<u32>;

    /// The text of choice `id` in the language's move notation.
    fn action_text(&self, id: u32) -> Option<String>;

    /// Applies the first atoms of a move (`prefix`) to `s`, as far as the
    /// engine can show a move in progress; `false` (and `s` unchanged) when
    /// it cannot.
    fn apply_prefix(&self, s: &mut Self::State, prefix: &[Self::Atom]) -> bool;

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
    /// length, all zeros on entry: only non-zero values are written).
    /// `s` is the state with the move in progress applied as far as
    /// [`Spec::apply_prefix`] can, `prefix` the atoms applied so far
    /// in the move in progress, `turn` who is choosing, `memory` what
    /// [`Spec::remember`] kept.
    fn observe(&self, view: View<'_, Self>, viewer: usize, out: &mut [f32]);
}

/// What an observation is made from.
pub struct View<'a, G: Game> {
    /// The state (mid-move: as far as the move in progress shows).
    pub state: &'a G::State,
    /// The atoms chosen so far in the move in progress.
    pub prefix: &'a [G::Atom],
    /// Who is choosing.
    pub turn: Turn,
    /// What the players remember of past moves.
    pub memory: &'a [f32],
}

/// RBG: atom `(modifier, vertex)` has id `(number - 1) * vertices + vertex`,
/// where `number` is the modifier's 1-based number in move texts (textual
/// order of the rules) and vertices are in `#board` order. The observation
/// is: a plane per piece over the vertices (1 where the piece stands), a
/// plane marking the vertices of the move in progress, every variable
/// divided by its bound (players' scores first), and the player on move
/// one-hot (all zeros when the game is over).
impl Spec for GameModel {
    fn num_atoms(&self) -> u32 {
        self.num_modifiers() * self.num_vertices()
    }

    #[inline]
    fn atom_id(&self, a: ModApp) -> Option<u32> {
        Some((self.modifier_number(a.action) - 1) * self.num_vertices() + a.vertex)
    }

    fn action_text(&self, id: u32) -> Option<String> {
        let nv = self.num_vertices();
        if id >= self.num_atoms() {
            return None;
        }
        let atom = ModApp {
            action: self.modifier_action(id / nv + 1)?,
            vertex: id % nv,
        };
        Some(self.move_text(&[atom]))
    }

    fn apply_prefix(&self, s: &mut State, prefix: &[ModApp]) -> bool {
        self.apply_raw(s, prefix);
        true
    }

    fn observation_layout(&self) -> Vec<Segment> {
        let d = self.description();
        let nv = self.num_vertices() as usize;
        vec![
            Segment::new("pieces", vec![d.pieces.len(), nv]),
            Segment::new("move", vec![nv]),
            Segment::new("variables", vec![d.num_vars()]),
            Segment::new("on_move", vec![d.players.len()]),
        ]
    }

    #[inline]
    fn observe(&self, view: View<'_, Self>, _viewer: usize, out: &mut [f32]) {
        let (s, prefix, turn) = (view.state, view.prefix, view.turn);
        let d = self.description();
        let nv = self.num_vertices() as usize;
        let np = d.pieces.len();
        for v in 0..nv {
            out[s.piece_at(v as u32) as usize * nv + v] = 1.0;
        }
        let moved = np * nv;
        for a in prefix {
            out[moved + a.vertex as usize] = 1.0;
        }
        let vars = moved + nv;
        for v in 0..d.num_vars() {
            let bound = d.var_bound(v as u32);
            if bound > 0 {
                out[vars + v] = s.var(v as u32) as f32 / bound as f32;
            }
        }
        if let Turn::Player(p) = turn {
            out[vars + d.num_vars() + p] = 1.0;
        }
    }
}
