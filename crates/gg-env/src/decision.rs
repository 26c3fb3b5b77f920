//! Split moves: a move is chosen as a sequence of actions, one per point
//! where the legal moves still in question differ.
//!
//! At a decision the candidates (the legal moves that agree with the
//! actions taken so far in this turn) share a longest common prefix of
//! atoms; the actions are the distinct atoms that follow it, by id
//! ([`Numbering::atom_id`]), plus [`Decision::end_action`] when a candidate
//! ends there (or has an atom that is no choice) while others go on. Atoms that every candidate shares are
//! taken without asking. When one candidate is left the move is complete
//! and applied; a lone legal move at the start of a turn (or identical
//! candidates) is chosen by its last atom. So every legal move is exactly
//! one sequence of actions, and enumerating the sequences gives the
//! engine's legal moves.

use std::sync::Arc;

use gg_core::{MoveList, Reasoner, Turn};

use crate::spec::{Numbering, Spec, View};

/// Most atoms of a move kept for patching the next turn's observation
/// ([`Decision::patch_turn_start`]).
const LAST: usize = 4;

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
#[derive(Debug)]
pub struct Decision<G: Spec> {
    base: G::State,
    turn: Turn,
    moves: MoveList<G::Atom>,
    /// Whether every move is a candidate (no action taken in this turn):
    /// then `alive` is not listed.
    all: bool,
    /// Indices of the candidates in `moves` (when not `all`).
    alive: Vec<u32>,
    /// Length of the candidates' common prefix: the actions choose the atom
    /// at this position.
    depth: usize,
    /// The action of every candidate at `depth` (`keys[j]` is candidate
    /// `j`'s):
    /// the legal actions, unsorted and repeated (masks and random actions
    /// need no more; [`Decision::actions`] sorts and counts them).
    keys: Vec<u32>,
    /// Whether `keys` are known to be pairwise distinct (found by
    /// [`Decision::write_mask`]): then an action keeps one candidate, and
    /// applying it needs no count.
    distinct: bool,
    /// What the players remember of past moves ([`Spec::remember`]).
    memory: Vec<f32>,
    /// The last move played (that led to `base`) when it has at most
    /// [`LAST`] atoms, and its length, for patching observations
    /// ([`Decision::patch_turn_start`]). Kept inline: a buffer of its own
    /// (or the last turn's move list kept) missed the cache at every move.
    last: Option<([G::Atom; LAST], usize)>,
    /// The game's numbering of choices.
    ids: Arc<G::Ids>,
}

impl<G: Spec> Clone for Decision<G> {
    fn clone(&self) -> Self {
        Decision {
            base: self.base.clone(),
            turn: self.turn,
            moves: self.moves.clone(),
            all: self.all,
            alive: self.alive.clone(),
            depth: self.depth,
            keys: self.keys.clone(),
            distinct: self.distinct,
            memory: self.memory.clone(),
            last: self.last,
            ids: self.ids.clone(),
        }
    }

    /// Reuses the buffers (batches restart games by this).
    fn clone_from(&mut self, o: &Self) {
        self.base.clone_from(&o.base);
        self.turn = o.turn;
        self.moves.clone_from(&o.moves);
        self.all = o.all;
        self.alive.clone_from(&o.alive);
        self.depth = o.depth;
        self.keys.clone_from(&o.keys);
        self.distinct = o.distinct;
        self.memory.clone_from(&o.memory);
        self.last = o.last;
        if !Arc::ptr_eq(&self.ids, &o.ids) {
            self.ids = o.ids.clone();
        }
    }
}

impl<G: Spec> Decision<G> {
    /// The decision at the start of the turn in `s` (works the numbering
    /// of choices out: make further decisions by cloning).
    pub fn new(r: &mut G::Reasoner, s: G::State) -> Result<Decision<G>, G::Error> {
        let ids = Arc::new(r.game().numbering());
        let mut d = Decision {
            base: s,
            turn: Turn::Over,
            moves: MoveList::default(),
            all: true,
            alive: Vec::new(),
            depth: 0,
            keys: Vec::new(),
            distinct: false,
            memory: vec![0.0; r.game().memory_len()],
            last: None,
            ids,
        };
        d.start_turn(r)?;
        Ok(d)
    }

    /// The action that ends a move which other candidates continue (never
    /// legal in RBG, whose moves end with a switch): `num_atoms`.
    pub fn end_action(&self) -> u32 {
        self.ids.num_atoms()
    }

    /// Number of distinct actions: the atoms plus the end action.
    pub fn num_actions(&self) -> u32 {
        self.ids.num_atoms() + 1
    }

    /// The game's numbering of choices.
    pub fn numbering(&self) -> &G::Ids {
        &self.ids
    }

    fn start_turn(&mut self, r: &mut G::Reasoner) -> Result<(), G::Error> {
        let keyed = self.list_turn(r)?;
        self.settle(keyed);
        Ok(())
    }

    /// Lists the turn's legal moves (a turn start, no candidate chosen)
    /// without settling them; whether the engine wrote their first keys.
    #[inline(always)]
    fn list_turn(&mut self, r: &mut G::Reasoner) -> Result<bool, G::Error> {
        self.all = true;
        self.alive.clear();
        self.depth = 0;
        self.moves.clear();
        self.turn = r.game().turn(&self.base);
        let mut keyed = false;
        if self.turn != Turn::Over {
            keyed = G::legal_moves_keyed(r, &mut self.base, &mut self.moves, &mut self.keys)?;
            if self.moves.is_empty() {
                r.game().stuck(&self.base)?;
                self.turn = Turn::Over;
            }
        }
        Ok(keyed)
    }

    /// The action candidate `m` takes at position `d`: its atom's id, or
    /// the end action where it ends or has no choice there.
    #[inline]
    fn key(ids: &G::Ids, m: &[G::Atom], d: usize) -> u32 {
        m.get(d).map_or_else(|| ids.num_atoms(), |&a| ids.key(a))
    }

    /// Sets `keys` to the candidates' actions at `d` (at least one
    /// candidate); whether they are all the same.
    fn fill_keys(&mut self, d: usize) -> bool {
        let (ids, moves) = (&*self.ids, &self.moves);
        self.keys.clear();
        if self.all {
            // Every move is a candidate (a turn's start): in order.
            ids.keys_at(moves, d, &mut self.keys);
        } else {
            let keys = self
                .alive
                .iter()
                .map(|&i| Self::key(ids, moves.get(i as usize), d));
            self.keys.extend(keys);
        }
        self.keys_same()
    }

    /// Whether `keys` (at least one) are all the same.
    #[inline]
    fn keys_same(&self) -> bool {
        let first = self.keys[0];
        !self.keys.iter().any(|&x| x != first)
    }

    /// Skips the atoms every candidate shares and lists the candidates'
    /// actions (`keys`); `keyed`: `keys` holds them at `depth` already (a
    /// turn's start, listed by the engine, [`Spec::legal_moves_keyed`]).
    fn settle(&mut self, keyed: bool) {
        self.distinct = false;
        let n = self.num_candidates();
        if n == 0 {
            self.keys.clear();
            return;
        }
        let end = self.ids.num_atoms();
        let mut d = self.depth;
        if n == 1 {
            // A lone candidate (a turn with one legal move): its atoms up
            // to its first without a choice are shared, and it is chosen by
            // the last choice before that, found in one pass over its atoms
            // (the loop below listed its keys at every depth, three times
            // or more per lone move).
            let m = self.moves.get(self.candidate(0));
            while Self::key(&self.ids, m, d) != end {
                d += 1;
            }
            if d > self.depth {
                d -= 1;
            }
            self.keys.clear();
            self.keys.push(Self::key(&self.ids, m, d));
            self.depth = d;
            return;
        }
        let mut listed = keyed;
        loop {
            let same = if std::mem::take(&mut listed) {
                self.keys_same()
            } else {
                self.fill_keys(d)
            };
            if !same {
                break;
            }
            let k = self.keys[0];
            if k == end {
                // Every candidate ends at `d`: one move (or moves with the
                // same choices), chosen by its last choice.
                if d > self.depth {
                    d -= 1;
                    self.fill_keys(d);
                }
                break;
            }
            // The same action (not the end): the same atom where ids tell
            // atoms (RBG; chess's moves all start with `[$ pawnDoubleMove
            // = 0]`, a pass over every move at each turn start), else
            // compared.
            if !<G::Ids as Numbering<G::Atom>>::IDS_ARE_ATOMS {
                let first = self.moves.get(self.candidate(0)).get(d);
                let differ = (1..self.num_candidates())
                    .any(|j| self.moves.get(self.candidate(j)).get(d) != first);
                if differ {
                    break;
                }
            }
            d += 1;
        }
        self.depth = d;
    }

    /// Applies action `a`; when it completes a move, plays the move and
    /// starts the next turn.
    pub fn apply(&mut self, r: &mut G::Reasoner, a: u32) -> Result<(), StepError<G::Error>> {
        self.apply_taken_by(r, a, None)
    }

    /// The action candidate `j` (an index into [`Decision::candidates`])
    /// takes here. With `j` uniformly random, each action comes with the
    /// probability that a uniformly random candidate takes it.
    #[inline]
    pub fn candidate_action(&self, j: usize) -> u32 {
        self.keys[j]
    }

    /// [`Decision::apply`] of the action candidate `j` takes
    /// ([`Decision::candidate_action`]), without looking for a candidate
    /// that takes it.
    pub fn apply_candidate(
        &mut self,
        r: &mut G::Reasoner,
        j: usize,
    ) -> Result<(), StepError<G::Error>> {
        if j >= self.num_candidates() {
            return Err(StepError::Illegal(u32::MAX));
        }
        self.apply_taken_by(r, self.candidate_action(j), Some(j))
    }

    /// Applies action `a`, which candidate `j` takes when given.
    fn apply_taken_by(
        &mut self,
        r: &mut G::Reasoner,
        a: u32,
        j: Option<usize>,
    ) -> Result<(), StepError<G::Error>> {
        if self.turn == Turn::Over {
            return Err(StepError::Over);
        }
        if self.distinct {
            // The candidate taking `a` is the only one: it completes the move.
            let j = j.or_else(|| self.keys.iter().position(|&x| x == a));
            let Some(j) = j.filter(|&j| j < self.num_candidates()) else {
                return Err(StepError::Illegal(a));
            };
            self.play(r, self.candidate(j))?;
            return Ok(());
        }
        if j.is_none() && !self.keys.contains(&a) {
            return Err(StepError::Illegal(a));
        }
        self.keep_taking(a);
        // Complete when the action ends the move, keeps one candidate, or
        // keeps candidates that all end right after it (the same choices).
        let end = self.ids.num_atoms();
        if a == end || self.alive.len() == 1 {
            self.play(r, self.alive[0] as usize)?;
            return Ok(());
        }
        self.depth += 1;
        let same = self.fill_keys(self.depth);
        if same && self.keys[0] == end {
            self.play(r, self.alive[0] as usize)?;
        } else if same {
            self.settle(true);
        }
        Ok(())
    }

    /// Keeps the candidates taking `a` (in order). The keys are compared
    /// eight at a time into a bit mask ([`match_mask8`]): a branch per
    /// eight keys and one per kept candidate instead of a branch per key,
    /// which mispredicts about as often as candidates are kept (perf put a
    /// quarter of the batch loop's own samples on breakthrough in it).
    fn keep_taking(&mut self, a: u32) {
        let all = std::mem::replace(&mut self.all, false);
        if all {
            self.alive.clear();
            self.alive.reserve(self.keys.len());
        }
        let mut kept = 0;
        let (whole, rest) = self.keys.as_chunks::<8>();
        let masks = whole.iter().map(|c| match_mask8(c, a));
        let masks = masks.chain((!rest.is_empty()).then(|| match_mask(rest, a)));
        for (c, mut m) in masks.enumerate() {
            while m != 0 {
                let j = c * 8 + m.trailing_zeros() as usize;
                m &= m - 1;
                if all {
                    self.alive.push(j as u32);
                } else {
                    // `kept <= j`: compacted in place.
                    self.alive[kept] = self.alive[j];
                    kept += 1;
                }
            }
        }
        if !all {
            self.alive.truncate(kept);
        }
    }

    /// Plays a whole legal move (for chance and agents); `m` indexes
    /// [`Decision::moves`].
    pub fn apply_move(&mut self, r: &mut G::Reasoner, m: usize) -> Result<(), G::Error> {
        self.play(r, m)
    }

    fn play(&mut self, r: &mut G::Reasoner, m: usize) -> Result<(), G::Error> {
        self.play_move(r, m)?;
        self.start_turn(r)
    }

    /// Whether the candidates each take an action of their own (keys
    /// pairwise distinct, as the last [`Decision::write_mask`] found): an
    /// action completes its candidate's move ([`Decision::play_single`]).
    /// Every turn start of tic-tac-toe, connect4, hex and reversi is one,
    /// and the last choice of most moves elsewhere (breakthrough's,
    /// draughts' and chess's second action).
    #[inline]
    pub fn single_action(&self) -> bool {
        self.distinct
    }

    /// [`Decision::apply_candidate`] of candidate `j` where every
    /// candidate takes an action of its own ([`Decision::single_action`];
    /// `j < num_candidates()`): plays its move and starts the next turn,
    /// without the general step's search and tests. The next turn is
    /// settled only where its keys do not settle it already (listed by the
    /// engine, two moves or more, the first two different: then no atom is
    /// shared and every candidate takes its first atom's key, which
    /// settling would find after comparing the first two).
    /// Returns the player on move next, if one is (not chance, not the
    /// end).
    pub fn play_single(
        &mut self,
        r: &mut G::Reasoner,
        j: usize,
    ) -> Result<Option<usize>, G::Error> {
        debug_assert!(self.single_action() && j < self.num_candidates());
        self.play_move(r, self.candidate(j))?;
        let keyed = self.list_turn(r)?;
        if keyed && self.keys.len() >= 2 && self.keys[0] != self.keys[1] {
            self.distinct = false;
        } else {
            self.settle(keyed);
        }
        Ok(match self.turn {
            Turn::Player(p) => Some(p),
            _ => None,
        })
    }

    /// Applies move `m` to the turn's state (what the players remember of
    /// it, the atoms kept for patching) and leaves the decision to be
    /// started again ([`Decision::list_turn`]).
    #[inline(always)]
    fn play_move(&mut self, r: &mut G::Reasoner, m: usize) -> Result<(), G::Error> {
        let mv = self.moves.get(m);
        if !self.memory.is_empty() {
            r.game().remember(mv, &mut self.memory);
        }
        r.apply(&mut self.base, mv)?;
        // Each kept atom read at a fixed index (clamped to the move's last;
        // those past its length are never read): the loop this replaced
        // wrote them to the stack one by one and read them back as wider
        // values, a failed store forwarding on every move (perf: a third
        // of `play`'s own time on tic-tac-toe).
        let n = mv.len();
        self.last = (1..=LAST)
            .contains(&n)
            .then(|| (std::array::from_fn(|k| mv[k.min(n - 1)]), n));
        Ok(())
    }

    /// Who chooses: a player, chance, or [`Turn::Over`] (also when the
    /// player on move has no legal move).
    pub fn turn(&self) -> Turn {
        self.turn
    }

    /// The legal actions with how many candidates each keeps, sorted.
    pub fn actions(&self) -> Vec<(u32, u32)> {
        let mut keys = self.keys.clone();
        keys.sort_unstable();
        let mut actions: Vec<(u32, u32)> = Vec::new();
        for k in keys {
            match actions.last_mut() {
                Some(last) if last.0 == k => last.1 += 1,
                _ => actions.push((k, 1)),
            }
        }
        actions
    }

    /// Whether `a` is legal.
    pub fn is_legal(&self, a: u32) -> bool {
        self.keys.contains(&a)
    }

    /// The first candidate (an index for [`Decision::apply_candidate`])
    /// that takes action `a`; `None` when `a` is not legal. Applying that
    /// candidate is [`Decision::apply`] of `a`, without a second search.
    pub fn candidate_taking(&self, a: u32) -> Option<usize> {
        self.keys.iter().position(|&x| x == a)
    }

    /// Number of candidates left.
    #[inline]
    pub fn num_candidates(&self) -> usize {
        if self.all {
            self.moves.len()
        } else {
            self.alive.len()
        }
    }

    /// Candidate `j` (`j < num_candidates()`): an index into
    /// [`Decision::moves`].
    #[inline]
    pub fn candidate(&self, j: usize) -> usize {
        if self.all {
            j
        } else {
            self.alive[j] as usize
        }
    }

    /// All legal moves of the turn (candidates or not).
    pub fn moves(&self) -> &MoveList<G::Atom> {
        &self.moves
    }

    /// Indices (into [`Decision::moves`]) of the candidates left.
    pub fn candidates(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.num_candidates()).map(|j| self.candidate(j))
    }

    /// The action a candidate takes at this decision.
    pub fn action_of(&self, m: usize) -> u32 {
        Self::key(&self.ids, self.moves.get(m), self.depth)
    }

    /// The candidate (index into [`Decision::moves`]) that action `a`
    /// completes, if it completes one.
    pub fn completed_by(&self, a: u32) -> Option<usize> {
        let end = self.end_action();
        let key = |i: u32, d: usize| Self::key(&self.ids, self.moves.get(i as usize), d);
        let mut taking = self
            .candidates()
            .map(|i| i as u32)
            .filter(|&i| key(i, self.depth) == a);
        let first = taking.next()?;
        // Done when the action ends the move, keeps one candidate, or keeps
        // candidates that all end right after it (the same choices).
        let mut rest = taking.peekable();
        let done = a == end
            || rest.peek().is_none()
            || key(first, self.depth + 1) == end && rest.all(|i| key(i, self.depth + 1) == end);
        done.then_some(first as usize)
    }

    /// The state at the start of the turn.
    pub fn base(&self) -> &G::State {
        &self.base
    }

    /// Atoms fixed so far in this turn (the candidates' common prefix).
    #[inline]
    pub fn prefix(&self) -> &[G::Atom] {
        if self.depth == 0 {
            return &[];
        }
        if self.num_candidates() == 0 {
            return &[];
        }
        &self.moves.get(self.candidate(0))[..self.depth]
    }

    /// The length of [`Decision::prefix`], without finding the candidate
    /// it is read from (batches note it after every step).
    #[inline]
    pub fn prefix_len(&self) -> usize {
        if self.num_candidates() == 0 {
            0
        } else {
            self.depth
        }
    }

    /// Whether no action has been taken in this turn.
    pub fn at_turn_start(&self) -> bool {
        self.all
    }

    /// The state with the move in progress applied as far as the engine
    /// shows it ([`Spec::apply_prefix`]): the base state, or `scratch`
    /// made so.
    pub fn shown_state<'a>(&'a self, game: &G, scratch: &'a mut Option<G::State>) -> &'a G::State {
        self.shown(game, self.prefix(), scratch)
    }

    /// [`Decision::shown_state`] given the prefix.
    fn shown<'a>(
        &'a self,
        game: &G,
        prefix: &[G::Atom],
        scratch: &'a mut Option<G::State>,
    ) -> &'a G::State {
        if prefix.is_empty() {
            return &self.base;
        }
        let s = match scratch {
            Some(s) => {
                s.clone_from(&self.base);
                s
            }
            None => scratch.insert(self.base.clone()),
        };
        if game.apply_prefix(s, prefix) {
            s
        } else {
            &self.base
        }
    }

    /// Writes `viewer`'s observation into `out` (every value, of the layout's
    /// length); `scratch` holds a state for the move in progress (reused
    /// from call to call).
    pub fn observe(
        &self,
        game: &G,
        viewer: usize,
        out: &mut [f32],
        scratch: &mut Option<G::State>,
    ) {
        game.observe(self.view(game, scratch), viewer, out);
    }

    /// Patches `out`, the observation of this turn with the first `from`
    /// atoms of the move in progress applied, into this decision's
    /// ([`Spec::patch_observation`]); `false` where the game cannot.
    pub fn patch_observation(&self, game: &G, from: usize, out: &mut [f32]) -> bool {
        let prefix = self.prefix();
        from <= prefix.len() && game.patch_observation(&self.base, prefix, from, &self.ids, out)
    }

    /// Patches `out`, the observation of the last turn with the first
    /// atoms of the move played since applied (at a turn's start, the same
    /// player viewing), into this turn's ([`Spec::patch_turn_start`]);
    /// `false` where the game cannot, or where atoms every move shares are
    /// taken already (a prefix to show).
    pub fn patch_turn_start(&self, game: &G, viewer: usize, out: &mut [f32]) -> bool {
        let Some((atoms, len)) = &self.last else {
            return false;
        };
        self.all
            && self.depth == 0
            && game.patch_turn_start(self.view_base(), viewer, &atoms[..*len], out)
    }

    /// The view of the turn's state with no move in progress.
    fn view_base(&self) -> View<'_, G> {
        View {
            state: &self.base,
            prefix: &[],
            turn: self.turn,
            memory: &self.memory,
            ids: &self.ids,
        }
    }

    /// What an observation is made from: the shown state (in `scratch` when
    /// a move is in progress), the prefix, who chooses, the memory.
    fn view<'a>(&'a self, game: &G, scratch: &'a mut Option<G::State>) -> View<'a, G> {
        let prefix = self.prefix();
        View {
            state: self.shown(game, prefix, scratch),
            prefix,
            turn: self.turn,
            memory: &self.memory,
            ids: &self.ids,
        }
    }

    /// Sets `mask[a]` for every legal action (`mask` zeroed), and notes
    /// whether every action is taken by one candidate only (then applying
    /// one needs no count).
    pub fn write_mask(&mut self, mask: &mut [bool]) {
        let mut repeated = false;
        for &a in &self.keys {
            if let Some(m) = mask.get_mut(a as usize) {
                repeated |= *m;
                *m = true;
            }
        }
        self.distinct = !repeated;
    }

    /// [`Decision::write_mask`] over a mask that holds exactly the actions
    /// `set` (a list [`Decision::rewrite_mask`] kept, possibly with
    /// repeats): clears those entries (not the whole mask), writes this
    /// decision's, and keeps them in `set` for the next rewrite.
    pub fn rewrite_mask(&mut self, mask: &mut [bool], set: &mut Vec<u32>) {
        for &a in set.iter() {
            if let Some(m) = mask.get_mut(a as usize) {
                *m = false;
            }
        }
        self.write_mask(mask);
        set.clear();
        set.extend_from_slice(&self.keys);
    }
}

/// Bit `i` set where `keys[i] == a` (at most 32 keys).
#[inline(always)]
fn match_mask(keys: &[u32], a: u32) -> u32 {
    keys.iter()
        .enumerate()
        .fold(0, |m, (i, &x)| m | (u32::from(x == a) << i))
}

/// [`match_mask`] of eight keys: two vector comparisons (SSE2, which every
/// x86-64 processor has), where the compiler compared one key at a time.
#[inline(always)]
fn match_mask8(keys: &[u32; 8], a: u32) -> u32 {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        let p = keys.as_ptr().cast::<__m128i>();
        // SAFETY: `keys` holds 32 bytes (two unaligned 16-byte loads);
        // SSE2 is part of x86-64.
        unsafe {
            let av = _mm_set1_epi32(a as i32);
            let lo = _mm_cmpeq_epi32(_mm_loadu_si128(p), av);
            let hi = _mm_cmpeq_epi32(_mm_loadu_si128(p.add(1)), av);
            let lo = _mm_movemask_ps(_mm_castsi128_ps(lo)) as u32;
            let hi = _mm_movemask_ps(_mm_castsi128_ps(hi)) as u32;
            lo | hi << 4
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    match_mask(keys, a)
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
    let mut outcome = d.base().clone();
    let mut stack = vec![d.clone()];
    while let Some(d) = stack.pop() {
        for (a, _) in d.actions() {
            if d.turn() == Turn::Chance {
                // Chance moves with equal outcomes count once (as in perft).
                if let Some(m) = d.completed_by(a) {
                    r.chance_outcome(d.base(), d.moves().get(m), &mut outcome)?;
                    if !seen.insert(outcome.clone()) {
                        continue;
                    }
                }
            }
            let mut child = d.clone();
            child.apply(r, a)?;
            if child.at_turn_start() {
                total += action_perft(r, &child, depth - 1)?;
            } else {
                stack.push(child);
            }
        }
    }
    Ok(total)
}
