//! The RBG engine as an environment ([`Spec`] for `rbg_engine::GameModel`):
//! choices are players' (modifier, vertex) pairs; observations are piece
//! planes, the move in progress, variables and the player on move.

use gg_core::{Game, MoveList, Turn};
use rbg_engine::{GameModel, ModApp, State};

use crate::spec::{Numbering, Segment, Spec, View};

/// RBG's numbering: only the modifiers a player can apply in a move are
/// choices (the keeper's are left out, see [`crate::choosable`]); they are
/// ranked in textual order of the rules (the order of their numbers in
/// move texts), and atom `(modifier, vertex)` has id
/// `rank * vertices + vertex`, vertices in `#board` order.
#[derive(Clone, Debug)]
pub struct RbgIds {
    model: GameModel,
    /// Of every engine action, what its key is made of: `rank * nv` and
    /// all ones for a player's modifier of that rank, else `end` and
    /// zero (so an atom's key is `base + (vertex & mask)`, without a
    /// branch; [`key_in`]); the last entry is a non-choice's, for every
    /// larger action.
    by_action: Vec<KeyOf>,
    /// Engine action of every rank.
    actions: Vec<u32>,
    nv: u32,
    /// `num_atoms()`.
    end: u32,
    /// Every variable's bound (players' scores first), for observations.
    bounds: Vec<f32>,
    /// Of every engine action, the piece it puts ([`PUTS_NONE`] for a
    /// switch, [`PUTS_OTHER`] for anything else), for patching
    /// observations ([`Spec::patch_observation`]).
    puts: Vec<u32>,
    /// Whether the keeper may put pieces away from the vertex where a
    /// player's move ended ([`crate::choosable::keeper_puts_away`]): then
    /// a move's atoms do not tell every vertex it changes.
    keeper_puts: bool,
}

/// [`RbgIds::puts`] of a switch: no change an observation shows.
const PUTS_NONE: u32 = u32::MAX;
/// [`RbgIds::puts`] of an assignment (or anything not a modifier).
const PUTS_OTHER: u32 = u32::MAX - 1;

impl RbgIds {
    fn new(model: &GameModel) -> RbgIds {
        let n = model.num_modifiers();
        let mut chosen = crate::choosable::player_modifiers(&model.description().rules);
        if chosen.len() != n as usize {
            // Not the engine's modifiers (never seen): every one is a choice.
            chosen = vec![true; n as usize];
        }
        let keeper_puts = crate::choosable::keeper_puts_away(&model.description().rules);
        let nv = model.num_vertices();
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
                by_action.resize(a + 1, None);
            }
            by_action[a] = Some(actions.len() as u32 * nv);
            actions.push(action);
        }
        let end = actions.len() as u32 * nv;
        let by_action = by_action.into_iter().map(|b| match b {
            Some(base) => KeyOf {
                base,
                mask: u32::MAX,
            },
            None => KeyOf { base: end, mask: 0 },
        });
        // Ends with a non-choice entry: [`RbgIds::keys_at`] clamps actions
        // to it.
        let by_action = by_action.chain([KeyOf { base: end, mask: 0 }]).collect();
        let d = model.description();
        let bounds = (0..d.num_vars()).map(|v| d.var_bound(v as u32) as f32);
        use rbg_engine::raw::Act;
        let puts = model.compiled().acts.iter().map(|a| match a {
            Act::Off(p) => *p,
            Act::Switch(_) => PUTS_NONE,
            _ => PUTS_OTHER,
        });
        RbgIds {
            puts: puts.collect(),
            model: model.clone(),
            by_action,
            bounds: bounds.collect(),
            end,
            actions,
            nv,
            keeper_puts,
        }
    }

    /// The key table of the keyed native walk ([`rbg_jit::compile_keyed`]):
    /// `[base, mask]` per engine action, the last entry for every larger
    /// action, as [`RbgIds::keys_at`] reads them.
    pub fn key_table(&self) -> Vec<[u32; 2]> {
        self.by_action.iter().map(|k| [k.base, k.mask]).collect()
    }

    /// Number of modifiers that are choices.
    pub fn num_choice_modifiers(&self) -> usize {
        self.actions.len()
    }

    /// Whether the keeper may put pieces away from the vertex where a
    /// player's move ended (then a move's atoms do not tell every vertex it
    /// changes, and observations at a turn's start are written whole).
    pub fn keeper_puts(&self) -> bool {
        self.keeper_puts
    }
}

/// `game` played by native code that also writes each move's first key
/// while generating the moves ([`rbg_jit::compile_keyed`], with the
/// game's [`RbgIds::key_table`]): the keys of a turn's start are then not
/// listed from the moves ([`Spec::legal_moves_keyed`]).
pub fn keyed(game: &GameModel) -> Result<GameModel, rbg_jit::Error> {
    rbg_jit::compile_keyed(game, &RbgIds::new(game).key_table())
}

/// What an engine action's atoms' keys are made of ([`RbgIds::by_action`]).
#[derive(Clone, Copy, Debug)]
struct KeyOf {
    base: u32,
    mask: u32,
}

/// Atom `a`'s key: `base + (vertex & mask)` of its action (`end` for every
/// atom that is not a player's modifier; [`RbgIds::by_action`]). A
/// modifier's vertex is below `nv`, so its key is below `end`.
#[inline(always)]
fn key_in(by_action: &[KeyOf], end: u32, a: ModApp) -> u32 {
    by_action
        .get(a.action as usize)
        .map_or(end, |k| k.base.wrapping_add(a.vertex & k.mask))
}

impl Numbering<ModApp> for RbgIds {
    /// An id is `rank * nv + vertex`, each rank one engine action, and an
    /// atom is its action and vertex.
    const IDS_ARE_ATOMS: bool = true;

    fn num_atoms(&self) -> u32 {
        self.end
    }

    #[inline]
    fn atom_id(&self, a: ModApp) -> Option<u32> {
        let k = self.by_action.get(a.action as usize)?;
        (k.mask != 0).then_some(k.base + a.vertex)
    }

    #[inline]
    fn key(&self, a: ModApp) -> u32 {
        key_in(&self.by_action, self.end, a)
    }

    /// The table and the end action in locals, the moves read from the
    /// flat list: about half the instructions of the generic loop per move
    /// (hex: a sixth of a batch step's instructions went to the keys); a
    /// key without a minimum (`KeyOf`): hex batch -2.1% instructions.
    fn keys_at(&self, moves: &MoveList<ModApp>, d: usize, out: &mut Vec<u32>) {
        let (by_action, end) = (&self.by_action[..], self.end);
        let (atoms, ends) = moves.parts();
        out.clear();
        let (Some(last_atom), Some(last_action)) =
            (atoms.len().checked_sub(1), by_action.len().checked_sub(1))
        else {
            // No atoms: every move ends here.
            out.resize(ends.len(), end);
            return;
        };
        let mut start = 0;
        // Without a branch: indices clamped into the slices (a move
        // shorter than `d` reads some atom and takes `end` instead).
        out.extend(ends.iter().map(|&stop| {
            let i = start + d;
            start = stop as usize;
            let a = atoms[i.min(last_atom)];
            let k = by_action[(a.action as usize).min(last_action)];
            let key = k.base.wrapping_add(a.vertex & k.mask);
            if i < start {
                key
            } else {
                end
            }
        }));
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

    /// The keys written by the keyed native walk where the game was
    /// compiled by [`keyed`].
    #[inline]
    fn legal_moves_keyed(
        r: &mut rbg_engine::Reasoner,
        s: &mut State,
        out: &mut MoveList<ModApp>,
        keys: &mut Vec<u32>,
    ) -> Result<bool, rbg_engine::GameError> {
        r.legal_moves_keyed_mut(s, out, keys)
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

    /// The pieces put by the new atoms written into their planes (the old
    /// piece's cleared) and their vertices marked in the move plane; the
    /// variables and the player on move stay. Not for assignments.
    fn patch_observation(
        &self,
        base: &State,
        prefix: &[ModApp],
        from: usize,
        ids: &RbgIds,
        out: &mut [f32],
    ) -> bool {
        let puts = |a: &ModApp| {
            ids.puts
                .get(a.action as usize)
                .copied()
                .unwrap_or(PUTS_OTHER)
        };
        let new = &prefix[from..];
        if new.iter().any(|a| puts(a) == PUTS_OTHER) {
            return false;
        }
        let nv = self.num_vertices() as usize;
        let pieces = self.description().pieces.len();
        let (planes, rest) = out.split_at_mut(pieces * nv);
        let moved = &mut rest[..nv];
        let board = base.board();
        for (i, a) in new.iter().enumerate() {
            let v = a.vertex as usize;
            moved[v] = 1.0;
            let p = puts(a);
            if p == PUTS_NONE {
                continue;
            }
            // The piece shown at `v`: the last put there before, else the
            // base board's.
            let earlier = prefix[..from + i].iter().rev();
            let old = earlier
                .filter(|b| b.vertex == a.vertex && puts(b) != PUTS_NONE)
                .map(puts)
                .next()
                .unwrap_or(board[v]);
            if let Some(x) = planes.get_mut(old as usize * nv + v) {
                *x = 0.0;
            }
            if let Some(x) = planes.get_mut(p as usize * nv + v) {
                *x = 1.0;
            }
        }
        true
    }

    /// The vertices of the move's atoms (those it put pieces on, and its
    /// last, where the keeper may put more) rewritten in the piece planes
    /// from the new board and cleared in the move plane; the variables and
    /// the player on move written again. Not where the keeper may put
    /// pieces elsewhere ([`RbgIds::keeper_puts`]).
    #[inline(always)]
    fn patch_turn_start(
        &self,
        view: View<'_, Self>,
        _viewer: usize,
        last: &[ModApp],
        out: &mut [f32],
    ) -> bool {
        let ids = view.ids;
        if ids.keeper_puts || !view.prefix.is_empty() {
            return false;
        }
        let nv = self.num_vertices() as usize;
        let pieces = self.description().pieces.len();
        let (planes, rest) = out.split_at_mut(pieces * nv);
        let (moved, rest) = rest.split_at_mut(nv);
        let board = view.state.board();
        let mut prev = None;
        for a in last {
            // A move's atoms often repeat a vertex (a piece put, then the
            // switch where it stands): its column is written once.
            if prev == Some(a.vertex) {
                continue;
            }
            prev = Some(a.vertex);
            let v = a.vertex as usize;
            let (Some(x), Some(&on)) = (moved.get_mut(v), board.get(v)) else {
                continue;
            };
            *x = 0.0;
            // Plane by plane (a bounds check per plane) rather than a
            // skipping, stepping iterator (a third of the instructions on
            // tic-tac-toe), the planes split off one by one: through
            // `chunks_exact_mut(nv)` each vertex cost a division by `nv`
            // (perf put 5% of tic-tac-toe's step loop on it). `v < nv`, so
            // each split shortens `rest`.
            let (mut rest, mut p) = (&mut planes[..], 0u32);
            while let Some((row, tail)) = rest.split_at_mut_checked(nv) {
                if let Some(x) = row.get_mut(v) {
                    *x = if on == p { 1.0 } else { 0.0 };
                }
                (rest, p) = (tail, p + 1);
            }
        }
        observe_values(&view, rest);
        true
    }

    #[inline]
    fn observe(&self, view: View<'_, Self>, _viewer: usize, out: &mut [f32]) {
        let nv = self.num_vertices() as usize;
        let pieces = self.description().pieces.len();
        let (planes, rest) = out.split_at_mut(pieces * nv);
        write_planes(view.state.board(), nv, pieces, planes);
        let (moved, rest) = rest.split_at_mut(nv);
        moved.fill(0.0);
        for a in view.prefix {
            moved[a.vertex as usize] = 1.0;
        }
        observe_values(&view, rest);
    }
}

/// Writes the piece planes, `planes[p * nv + v] = (board[v] == p)` for
/// `nv` vertices, with AVX2 where the processor has it (half the
/// instructions of the SSE2 code that is the baseline of x86-64).
fn write_planes(board: &[u32], nv: usize, pieces: usize, planes: &mut [f32]) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2 (tested just above).
        return unsafe { write_planes_avx2(board, nv, pieces, planes) };
    }
    planes_body(board, nv, planes)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn write_planes_avx2(board: &[u32], nv: usize, pieces: usize, planes: &mut [f32]) {
    if !nv.is_multiple_of(8) {
        return planes_by_chunk(board, nv, pieces, planes);
    }
    planes_body(board, nv, planes)
}

/// The piece planes of a board whose number of vertices is not a multiple
/// of eight, eight vertices at a time (32 per loop step), plane by plane:
/// a plane's last chunk overlaps the one before it, so no vertex is
/// written one by one (the compiler's loop ends with a branch per vertex
/// on the board's piece, mispredicted: tic-tac-toe and connect4 lost about
/// 6% of the batch's time there; on boards of 64 vertices it has no such
/// end and fewer instructions). Boards of fewer than eight vertices go to
/// [`planes_body`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn planes_by_chunk(board: &[u32], nv: usize, pieces: usize, planes: &mut [f32]) {
    use std::arch::x86_64::*;
    let (Some(board), Some(planes), true) =
        (board.get(..nv), planes.get_mut(..pieces * nv), nv >= 8)
    else {
        return planes_body(board, nv, planes);
    };
    let one = _mm256_set1_ps(1.0);
    let next = _mm256_set1_epi32(1);
    let mut p = _mm256_setzero_si256();
    let (src, mut dst) = (board.as_ptr(), planes.as_mut_ptr());
    // SAFETY: every chunk read or written is eight values at `v` with
    // `v + 8 <= nv`, of the board (`nv` values) or of the current plane
    // (`nv` values at `dst`, `pieces` planes in all).
    unsafe {
        let chunk = |v: usize, p: __m256i| {
            let b = _mm256_loadu_si256(src.add(v).cast());
            _mm256_and_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(b, p)), one)
        };
        for _ in 0..pieces {
            let mut v = 0;
            while v + 32 <= nv {
                _mm256_storeu_ps(dst.add(v), chunk(v, p));
                _mm256_storeu_ps(dst.add(v + 8), chunk(v + 8, p));
                _mm256_storeu_ps(dst.add(v + 16), chunk(v + 16, p));
                _mm256_storeu_ps(dst.add(v + 24), chunk(v + 24, p));
                v += 32;
            }
            while v + 8 <= nv {
                _mm256_storeu_ps(dst.add(v), chunk(v, p));
                v += 8;
            }
            if v < nv {
                _mm256_storeu_ps(dst.add(nv - 8), chunk(nv - 8, p));
            }
            p = _mm256_add_epi32(p, next);
            dst = dst.add(nv);
        }
    }
}

/// Plane by plane over the board slice: no clearing first, no bounds check
/// per vertex, and the compiler vectorises it (a cleared plane with a 1
/// written per vertex took 40% more instructions on connect4). The planes
/// are split off one by one (`split_at_mut`), not by `chunks_exact_mut(nv)`,
/// whose count is a division by `nv`.
#[inline(always)]
fn planes_body(board: &[u32], nv: usize, planes: &mut [f32]) {
    if nv == 0 {
        return;
    }
    let (mut rest, mut p) = (planes, 0u32);
    while let Some((row, tail)) = rest.split_at_mut_checked(nv) {
        for (o, &b) in row.iter_mut().zip(board) {
            *o = if b == p { 1.0 } else { 0.0 };
        }
        (rest, p) = (tail, p + 1);
    }
}

/// The observation after the board and move planes: variables and the
/// player on move.
#[inline]
fn observe_values(view: &View<'_, GameModel>, out: &mut [f32]) {
    let bounds = &view.ids.bounds;
    let (vars, on_move) = out.split_at_mut(bounds.len());
    for (v, (o, &bound)) in vars.iter_mut().zip(bounds).enumerate() {
        *o = if bound > 0.0 {
            view.state.var(v as u32) as f32 / bound
        } else {
            0.0
        };
    }
    let on = match view.turn {
        Turn::Player(p) => p,
        _ => usize::MAX,
    };
    if let [a, b] = on_move {
        // Two players (most games): two stores, no `memset` call.
        (*a, *b) = (f32::from(u8::from(on == 0)), f32::from(u8::from(on == 1)));
        return;
    }
    on_move.fill(0.0);
    if let Some(o) = on_move.get_mut(on) {
        *o = 1.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain loop writes whole planes only: nothing when a board has no
    /// vertices, and not the values after the last whole plane.
    #[test]
    fn planes_body_writes_whole_planes_only() {
        let mut planes = vec![0.5f32; 7];
        planes_body(&[], 0, &mut planes);
        assert_eq!(planes, [0.5; 7]);
        planes_body(&[1, 0, 2], 3, &mut planes);
        assert_eq!(planes, [0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 0.5]);
    }

    /// The planes written eight vertices at a time (overlapping ends) equal
    /// the plain loop's on boards of every size up to 70 vertices.
    #[test]
    fn planes_by_chunk_equal_the_plain_loop() {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            let pieces = 5;
            for nv in 1..=70usize {
                let board: Vec<u32> = (0..nv).map(|v| ((v * 7 + nv) % pieces) as u32).collect();
                let mut plain = vec![0.5f32; pieces * nv];
                planes_body(&board, nv, &mut plain);
                let mut fast = vec![0.5f32; pieces * nv];
                // SAFETY: the processor has AVX2 (tested above).
                unsafe { write_planes_avx2(&board, nv, pieces, &mut fast) };
                assert_eq!(plain, fast, "{nv} vertices");
                assert_eq!(fast.iter().filter(|&&x| x == 1.0).count(), nv);
            }
        }
    }
}
