//! Game states.

use crate::compile::Compiled;

/// A game state: pieces on the board, variables, the player on move, the
/// rules index (automaton state) and the current position. Cheap to clone.
#[derive(Debug, PartialEq, Eq, Hash)]
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
        }
    }

    /// Reuses the allocations of `self`.
    fn clone_from(&mut self, src: &State) {
        self.board.clone_from(&src.board);
        self.counts.clone_from(&src.counts);
        self.vars.clone_from(&src.vars);
        self.player = src.player;
        self.rule_state = src.rule_state;
        self.pos = src.pos;
    }
}

impl State {
    /// The paper's initial state: keeper on move at the first vertex, all
    /// variables 0, rules index 0 (not yet keeper-completed).
    pub(crate) fn initial(g: &Compiled) -> State {
        let mut counts = vec![0; g.num_pieces as usize];
        for &p in &g.initial_board {
            counts[p as usize] += 1;
        }
        State {
            board: g.initial_board.clone(),
            counts,
            vars: vec![0; g.num_vars as usize],
            player: g.num_players,
            rule_state: g.starts[0],
            pos: 0,
        }
    }

    /// Puts `piece` on `v`, keeping the counts, and returns the old piece.
    #[inline(always)]
    pub(crate) fn set_piece(&mut self, v: u32, piece: u32) -> u32 {
        let old = std::mem::replace(&mut self.board[v as usize], piece);
        self.counts[old as usize] -= 1;
        self.counts[piece as usize] += 1;
        old
    }

    /// Piece index on vertex `v`.
    pub fn piece_at(&self, v: u32) -> u32 {
        self.board[v as usize]
    }

    /// Value of variable `var` (players' scores come first).
    pub fn var(&self, var: u32) -> i32 {
        self.vars[var as usize]
    }

    /// The current position (vertex index).
    pub fn position(&self) -> u32 {
        self.pos
    }
}
