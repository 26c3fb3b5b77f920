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

/// How the choices of one game are numbered: densely and stably (the same
/// description gives the same numbers on every machine).
pub trait Numbering<A>: Send + Sync + 'static {
    /// Choice ids are `0..num_atoms()`.
    fn num_atoms(&self) -> u32;

    /// The id of an atom that is a choice; `None` for atoms that only
    /// carry a move's effect (RG's changes and end node): where a move has
    /// such an atom, it ends as far as choosing is concerned.
    fn atom_id(&self, a: A) -> Option<u32>;

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

/// RBG's numbering: only the modifiers a player can apply in a move are
/// choices (the keeper's are left out, see [`crate::choosable`]); they are
/// ranked in textual order of the rules (the order of their numbers in
/// move texts), and atom `(modifier, vertex)` has id
/// `rank * vertices + vertex`, vertices in `#board` order.
#[derive(Clone, Debug)]
pub struct RbgIds {
    model: GameModel,
    /// `rank * nv` of every engine action that is a player's modifier of
    /// that rank, or `NONE`.
    by_action: Vec<u32>,
    /// Engine action of every rank.
    actions: Vec<u32>,
    nv: u32,
}

const NONE: u32 = u32::MAX;

impl RbgIds {
    fn new(model: &GameModel) -> RbgIds {
        let n = model.num_modifiers();
        let mut chosen = crate::choosable::player_modifiers(&model.description().rules);
        if chosen.len() != n as usize {
            // Not the engine's modifiers (never seen): every one is a choice.
            chosen = vec![true; n as usize];
        }
        let mut by_action = Vec::new();
        let mut actions = Vec::new();
        for number in 1..=n {
            let Some(action) = model.modifier_action(number) else {
                continue;
            };
            if !chosen[number as usize - 1] {
                continue;
            }
            let a = action as usize;
            if by_action.len() <= a {
                by_action.resize(a + 1, NONE);
            }
            by_action[a] = actions.len() as u32 * model.num_vertices();
            actions.push(action);
        }
        RbgIds {
            model: model.clone(),
            by_action,
            actions,
            nv: model.num_vertices(),
        }
    }

    /// Number of modifiers that are choices.
    pub fn num_choice_modifiers(&self) -> usize {
        self.actions.len()
    }
}

impl Numbering<ModApp> for RbgIds {
    fn num_atoms(&self) -> u32 {
        self.actions.len() as u32 * self.nv
    }

    #[inline]
    fn atom_id(&self, a: ModApp) -> Option<u32> {
        let base = *self.by_action.get(a.action as usize)?;
        (base != NONE).then_some(base + a.vertex)
    }

    fn action_text(&self, id: u32) -> Option<String> {
        if id >= self.num_atoms() {
            return None;
        }
        let atom = ModApp {
            action: self.actions[(id / self.nv) as usize],
            vertex: id % self.nv,
        };
        Some(self.model.move_text(&[atom]))
    }
}

/// The observation is: a plane per piece over the vertices (1 where the
/// piece stands), a plane marking the vertices of the move in progress,
/// every variable divided by its bound (players' scores first), and the
/// player on move one-hot (all zeros when the game is over).
impl Spec for GameModel {
    type Ids = RbgIds;

    fn numbering(&self) -> RbgIds {
        RbgIds::new(self)
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
        let (planes, rest) = out.split_at_mut(d.pieces.len() * nv);
        // Plane by plane over the board slice: no clearing first, no
        // bounds check per vertex, and the compiler vectorises it (a
        // cleared plane with a 1 written per vertex took 40% more
        // instructions on connect4).
        let board = s.board();
        for (p, row) in planes.chunks_exact_mut(nv.max(1)).enumerate() {
            for (o, &b) in row.iter_mut().zip(board) {
                *o = if b == p as u32 { 1.0 } else { 0.0 };
            }
        }
        let (moved, rest) = rest.split_at_mut(nv);
        moved.fill(0.0);
        for a in prefix {
            moved[a.vertex as usize] = 1.0;
        }
        let (vars, on_move) = rest.split_at_mut(d.num_vars());
        for (v, o) in vars.iter_mut().enumerate() {
            let bound = d.var_bound(v as u32);
            *o = if bound > 0 {
                s.var(v as u32) as f32 / bound as f32
            } else {
                0.0
            };
        }
        on_move.fill(0.0);
        if let Turn::Player(p) = turn {
            on_move[p] = 1.0;
        }
    }
}
