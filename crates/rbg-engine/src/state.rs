//! Game states: plain data (board, piece counts kept incrementally, piece
//! lists, variables, player, rules index, position) with an
//! allocation-reusing `clone_from`.
//!
//! **Piece lists.** A shift table reaching every vertex from every vertex
//! followed by a piece test (`anySquare {w}`) is `Op::ScanOn`, which reads
//! the vertices of the tested pieces from lists the state keeps for exactly
//! those pieces: a bit set per piece (`ceil(vertices / 64)` words), updated
//! by one bit operation in `set_piece` and scanned with `trailing_zeros`.
//! Breakthrough scans 16 pawns instead of 64 squares; chess finds its king
//! in one step. (Bit sets replaced vertex lists with back-pointers: same
//! flat MC speed, 10-25% faster perft, whose per-leaf `clone_from` copies a
//! few words instead of two arrays.)

use crate::compile::{Compiled, NONE};

/// A game state: pieces on the board, variables, the player on move, the
/// rules index (automaton state) and the current position. Cheap to clone.
///
/// Equality and hashing look at the game position only (board, variables,
/// player, rules index, position); the piece lists follow from the board.
#[derive(Debug)]
pub struct State {
    /// Piece on every vertex.
    pub(crate) board: Vec<u32>,
    /// Number of vertices holding each piece.
    pub(crate) counts: Vec<i32>,
    /// Variable values, players' scores first.
    pub(crate) vars: Vec<i32>,
    /// Player on move; `num_players` is the keeper.
    pub(crate) player: u32,
    /// Rules index: the automaton state (index of the last applied action,
    /// or the rules' start state).
    pub(crate) rule_state: u32,
    /// Current position.
    pub(crate) pos: u32,
    /// Vertices of every tracked piece (`Compiled::piece_list`), as bit
    /// sets: piece list `k` is `bits[k * w .. (k + 1) * w]` with
    /// `w = Compiled::words` words, bit `v % 64` of word `v / 64` for
    /// vertex `v`.
    pub(crate) bits: Vec<u64>,
    /// Id of the game's lowering (`Compiled::id`).
    pub(crate) game: u64,
}

impl PartialEq for State {
    fn eq(&self, o: &State) -> bool {
        (
            &self.board,
            &self.vars,
            self.player,
            self.rule_state,
            self.pos,
        ) == (&o.board, &o.vars, o.player, o.rule_state, o.pos)
    }
}

impl Eq for State {}

impl std::hash::Hash for State {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        (
            &self.board,
            &self.vars,
            self.player,
            self.rule_state,
            self.pos,
        )
            .hash(h);
    }
}

impl Clone for State {
    fn clone(&self) -> State {
        State {
            board: self.board.clone(),
            counts: self.counts.clone(),
            vars: self.vars.clone(),
            player: self.player,
            rule_state: self.rule_state,
            pos: self.pos,
            bits: self.bits.clone(),
            game: self.game,
        }
    }

    /// Reuses the allocations of `self`.
    fn clone_from(&mut self, src: &State) {
        // Destructured, so that a new field cannot be forgotten here.
        let State {
            board,
            counts,
            vars,
            player,
            rule_state,
            pos,
            bits,
            game,
        } = src;
        self.board.clone_from(board);
        self.counts.clone_from(counts);
        self.vars.clone_from(vars);
        self.player = *player;
        self.rule_state = *rule_state;
        self.pos = *pos;
        self.bits.clone_from(bits);
        self.game = *game;
    }
}

impl State {
    /// The paper's initial state: keeper on move at the first vertex, all
    /// variables 0, rules index 0 (not yet keeper-completed).
    pub(crate) fn initial(g: &Compiled) -> State {
        let nv = g.num_vertices as usize;
        let mut s = State {
            board: g.initial_board.clone(),
            counts: vec![0; g.num_pieces as usize],
            vars: vec![0; g.num_vars as usize],
            player: g.num_players,
            rule_state: g.starts[0],
            pos: 0,
            bits: vec![0; g.num_lists as usize * g.words as usize],
            game: g.id,
        };
        for v in 0..nv {
            let p = s.board[v] as usize;
            s.counts[p] += 1;
            let k = g.piece_list[p];
            if k != NONE {
                s.bits[k as usize * g.words as usize + v / 64] |= 1 << (v % 64);
            }
        }
        s
    }

    /// Puts `piece` on `v`, keeping the counts and piece lists, and returns
    /// the old piece.
    #[inline(always)]
    pub(crate) fn set_piece(&mut self, g: &Compiled, v: u32, piece: u32) -> u32 {
        debug_assert!(v < g.num_vertices && piece < g.num_pieces);
        debug_assert!(self.board.len() == g.num_vertices as usize);
        let w = g.words as usize;
        let (word, bit) = (v as usize / 64, 1u64 << (v % 64));
        // SAFETY: `v` is a vertex and `piece` a piece of this state's game
        // (see `Compiled::check_state`), so every index is in bounds: the
        // board has `nv` cells, `counts` and `piece_list` one per piece, and
        // each piece list `w` words covering `nv` bits.
        unsafe {
            let old = std::mem::replace(self.board.get_unchecked_mut(v as usize), piece);
            *self.counts.get_unchecked_mut(old as usize) -= 1;
            *self.counts.get_unchecked_mut(piece as usize) += 1;
            let k = *g.piece_list.get_unchecked(old as usize);
            if k != NONE {
                *self.bits.get_unchecked_mut(k as usize * w + word) &= !bit;
            }
            let k = *g.piece_list.get_unchecked(piece as usize);
            if k != NONE {
                *self.bits.get_unchecked_mut(k as usize * w + word) |= bit;
            }
            old
        }
    }

    /// The bit set of the vertices holding `piece`, which must be tracked.
    #[inline(always)]
    pub(crate) fn piece_bits(&self, g: &Compiled, piece: u32) -> &[u64] {
        let w = g.words as usize;
        let k = g.piece_list[piece as usize] as usize;
        &self.bits[k * w..(k + 1) * w]
    }

    /// Piece on `v`, unchecked in release builds.
    #[inline(always)]
    pub(crate) fn piece(&self, v: u32) -> u32 {
        debug_assert!((v as usize) < self.board.len());
        // SAFETY: callers pass vertices of this state's game (see
        // `Compiled::check_state`), and the board has one cell per vertex.
        unsafe { *self.board.get_unchecked(v as usize) }
    }

    /// Piece index on vertex `v`.
    pub fn piece_at(&self, v: u32) -> u32 {
        self.board[v as usize]
    }

    /// The piece index on every vertex, in vertex order (what
    /// [`State::piece_at`] reads, as one slice).
    pub fn board(&self) -> &[u32] {
        &self.board
    }

    /// Value of variable `var` (players' scores come first).
    pub fn var(&self, var: u32) -> i32 {
        self.vars[var as usize]
    }

    /// The current position (vertex index).
    pub fn position(&self) -> u32 {
        self.pos
    }

    /// The state's buffers (board, piece counts, variables, piece-list
    /// bits), for code generators: they keep their addresses and lengths
    /// for the state's life.
    #[doc(hidden)]
    pub fn raw_buffers(&mut self) -> RawBuffers {
        RawBuffers {
            board: self.board.as_mut_ptr(),
            counts: self.counts.as_mut_ptr(),
            vars: self.vars.as_mut_ptr(),
            bits: self.bits.as_mut_ptr(),
        }
    }

    /// Player on move (`num_players` for the keeper), rules index and
    /// position.
    #[doc(hidden)]
    pub fn raw_control(&self) -> (u32, u32, u32) {
        (self.player, self.rule_state, self.pos)
    }
}

/// Pointers to a state's buffers (see [`State::raw_buffers`]).
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct RawBuffers {
    pub board: *mut u32,
    pub counts: *mut i32,
    pub vars: *mut i32,
    pub bits: *mut u64,
}
