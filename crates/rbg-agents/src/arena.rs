//! Playing games: a [`Playthrough`] tracks one game in progress (state,
//! legal moves, history); [`play_game`] lets agents play it to the end.

use std::time::Instant;

use rbg_engine::{GameModel, ModApp, Move, MoveList, Reasoner, State};

use crate::playout::live_moves;
use crate::Agent;

/// A game in progress.
pub struct Playthrough {
    reasoner: Reasoner,
    state: State,
    moves: MoveList,
    history: Vec<Move>,
}

impl Playthrough {
    /// The game at its initial state.
    pub fn new(game: &GameModel) -> Playthrough {
        let mut p = Playthrough {
            reasoner: game.reasoner(),
            state: game.initial_state(),
            moves: MoveList::default(),
            history: Vec::new(),
        };
        live_moves(&mut p.reasoner, &mut p.state, true, &mut p.moves);
        p
    }

    /// The game.
    pub fn game(&self) -> &GameModel {
        self.reasoner.game()
    }

    /// The current state.
    pub fn state(&self) -> &State {
        &self.state
    }

    /// The legal moves (empty when the game is over).
    pub fn moves(&self) -> &MoveList {
        &self.moves
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.moves.is_empty()
    }

    /// The player on move, `None` when the game is over.
    pub fn player(&self) -> Option<usize> {
        if self.is_over() {
            None
        } else {
            self.game().current_player(&self.state)
        }
    }

    /// Index of `m` among the legal moves.
    pub fn find(&self, m: &[ModApp]) -> Option<usize> {
        self.moves.iter().position(|x| x == m)
    }

    /// Plays legal move `i` (panics when out of range).
    pub fn play(&mut self, i: usize) {
        let m = self.moves.get(i).to_vec();
        let alive = self.reasoner.apply(&mut self.state, &m);
        self.history.push(Move(m));
        live_moves(&mut self.reasoner, &mut self.state, alive, &mut self.moves);
    }

    /// The moves played so far.
    pub fn history(&self) -> &[Move] {
        &self.history
    }

    /// The players' scores now.
    pub fn scores(&self) -> Vec<i64> {
        self.game().scores(&self.state)
    }
}

/// The result of one game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// Final score of every player.
    pub scores: Vec<i64>,
    /// The moves played.
    pub moves: Vec<Move>,
    /// Per player: moves made.
    pub player_moves: Vec<u64>,
    /// Per player: seconds spent choosing moves.
    pub think_seconds: Vec<f64>,
    /// Per player: search iterations (for search agents).
    pub iterations: Vec<u64>,
    /// Wall time of the game.
    pub seconds: f64,
}

/// Plays a game to the end: `agents[p]` plays player `p`. Every agent
/// observes every move.
pub fn play_game(game: &GameModel, agents: &mut [Box<dyn Agent>]) -> GameRecord {
    assert_eq!(agents.len(), game.num_players(), "one agent per player");
    let start = Instant::now();
    let mut p = Playthrough::new(game);
    for a in agents.iter_mut() {
        a.new_game(game, p.state());
    }
    let n = game.num_players();
    let mut record = GameRecord {
        scores: Vec::new(),
        moves: Vec::new(),
        player_moves: vec![0; n],
        think_seconds: vec![0.0; n],
        iterations: vec![0; n],
        seconds: 0.0,
    };
    while let Some(player) = p.player() {
        let t = Instant::now();
        let m = agents[player].select(p.state(), p.moves(), None);
        record.think_seconds[player] += t.elapsed().as_secs_f64();
        record.player_moves[player] += 1;
        if let Some(info) = agents[player].last_search() {
            record.iterations[player] += info.iterations;
        }
        let i = p.find(m.apps()).unwrap_or_else(|| {
            panic!(
                "agent {} chose an illegal move {}",
                agents[player].name(),
                game.move_to_text(m.apps())
            )
        });
        for a in agents.iter_mut() {
            a.observe(p.state(), m.apps());
        }
        p.play(i);
    }
    record.scores = p.scores();
    record.moves = p.history;
    record.seconds = start.elapsed().as_secs_f64();
    record
}
