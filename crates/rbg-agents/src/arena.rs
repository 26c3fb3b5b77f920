//! Playing games: a [`Playthrough`] tracks one game in progress (state,
//! legal moves, history); [`play_game`] lets agents play it to the end.
//!
//! A game need not end (RBG's `(->a)*`): a playthrough stops at a maximum
//! length ([`DEFAULT_MAX_LENGTH`] moves unless set) and is then *cut*, with
//! the scores as they stand.

use std::time::Instant;

pub use gg_core::playout::DEFAULT_MAX_LENGTH;
use gg_core::{Game, MoveError, MoveList, Reasoner, Turn};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::playout::live_moves;
use crate::Agent;

/// A game in progress.
pub struct Playthrough<G: Game> {
    reasoner: G::Reasoner,
    state: G::State,
    moves: MoveList<G::Atom>,
    turn: Turn,
    history: Vec<Vec<G::Atom>>,
    max_length: u64,
}

impl<G: Game> Playthrough<G> {
    /// The game at its initial state, to be cut at [`DEFAULT_MAX_LENGTH`]
    /// moves.
    pub fn new(game: &G) -> Result<Playthrough<G>, G::Error> {
        let mut p = Playthrough {
            reasoner: game.reasoner(),
            state: game.initial_state()?,
            moves: MoveList::default(),
            turn: Turn::Over,
            history: Vec::new(),
            max_length: DEFAULT_MAX_LENGTH,
        };
        p.turn = live_moves::<G>(&mut p.reasoner, &mut p.state, &mut p.moves)?;
        Ok(p)
    }

    /// Sets the number of moves after which the game is cut (at least 1).
    pub fn with_max_length(mut self, moves: u64) -> Playthrough<G> {
        self.max_length = moves.max(1);
        self
    }

    /// Whether the game was stopped at its maximum length rather than
    /// finished.
    pub fn is_cut(&self) -> bool {
        self.turn != Turn::Over && self.history.len() as u64 >= self.max_length
    }

    /// The game.
    pub fn game(&self) -> &G {
        self.reasoner.game()
    }

    /// A reasoner for the game (to look ahead without changing the game).
    pub fn reasoner(&mut self) -> &mut G::Reasoner {
        &mut self.reasoner
    }

    /// The current state.
    pub fn state(&self) -> &G::State {
        &self.state
    }

    /// The legal moves (empty when the game is over).
    pub fn moves(&self) -> &MoveList<G::Atom> {
        &self.moves
    }

    /// Who chooses the next move: [`Turn::Over`] when the game is over
    /// (also when the player on move has no legal move, and when the game
    /// is cut).
    pub fn turn(&self) -> Turn {
        match self.is_cut() {
            true => Turn::Over,
            false => self.turn,
        }
    }

    /// Whether the game is over (finished or cut).
    pub fn is_over(&self) -> bool {
        self.turn() == Turn::Over
    }

    /// The player on move, `None` at chance and when the game is over.
    pub fn player(&self) -> Option<usize> {
        match self.turn() {
            Turn::Player(p) => Some(p),
            _ => None,
        }
    }

    /// Index of `m` among the legal moves.
    pub fn find(&self, m: &[G::Atom]) -> Option<usize> {
        self.moves.position(m)
    }

    /// Reads a move text of the player on move (see
    /// [`Reasoner::parse_move`]; the move need not be legal).
    pub fn parse(&mut self, text: &str) -> Result<Vec<G::Atom>, MoveError> {
        self.reasoner.parse_move(&self.state, text)
    }

    /// Index of the legal move written `text`, or why there is none.
    pub fn find_text(&mut self, text: &str) -> Result<usize, String> {
        let m = self.parse(text).map_err(|e| e.to_string())?;
        self.find(&m)
            .ok_or_else(|| format!("`{}` is not a legal move here", text.trim()))
    }

    /// Plays legal move `i` (panics when out of range). After an error
    /// the game cannot go on (it is over, its state unspecified).
    pub fn play(&mut self, i: usize) -> Result<(), G::Error> {
        let m = self.moves.get(i).to_vec();
        self.turn = Turn::Over;
        self.reasoner.apply(&mut self.state, &m)?;
        self.history.push(m);
        self.turn = live_moves::<G>(&mut self.reasoner, &mut self.state, &mut self.moves)?;
        Ok(())
    }

    /// The moves played so far.
    pub fn history(&self) -> &[Vec<G::Atom>] {
        &self.history
    }

    /// The players' scores now.
    pub fn scores(&self) -> Vec<i64> {
        self.game().scores(&self.state)
    }
}

/// The result of one game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord<A> {
    /// Final score of every player.
    pub scores: Vec<i64>,
    /// The moves played (chance moves included).
    pub moves: Vec<Vec<A>>,
    /// Per player: moves made.
    pub player_moves: Vec<u64>,
    /// Per player: seconds spent choosing moves.
    pub think_seconds: Vec<f64>,
    /// Per player: search iterations (for search agents).
    pub iterations: Vec<u64>,
    /// Wall time of the game.
    pub seconds: f64,
    /// Whether the game was cut at its maximum length (scores as they
    /// stood) instead of finishing.
    pub cut: bool,
}

/// Plays a game to the end, or until `max_length` moves: `agents[p]` plays
/// player `p`; chance moves are drawn uniformly with a generator seeded by
/// `chance_seed`. Every agent observes every move.
pub fn play_game<G: Game>(
    game: &G,
    agents: &mut [Box<dyn Agent<G>>],
    chance_seed: u64,
    max_length: u64,
) -> Result<GameRecord<G::Atom>, G::Error> {
    assert_eq!(agents.len(), game.num_players(), "one agent per player");
    let start = Instant::now();
    let mut chance = SmallRng::seed_from_u64(chance_seed);
    let mut p = Playthrough::new(game)?.with_max_length(max_length);
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
        cut: false,
    };
    loop {
        let i = match p.turn() {
            Turn::Over => break,
            Turn::Chance => chance.gen_range(0..p.moves().len()),
            Turn::Player(player) => {
                let t = Instant::now();
                let i = agents[player].select(p.state(), p.moves(), None)?;
                record.think_seconds[player] += t.elapsed().as_secs_f64();
                record.player_moves[player] += 1;
                if let Some(info) = agents[player].last_search() {
                    record.iterations[player] += info.iterations;
                }
                assert!(
                    i < p.moves().len(),
                    "agent {} chose move {i} of {}",
                    agents[player].name(),
                    p.moves().len()
                );
                i
            }
        };
        for a in agents.iter_mut() {
            a.observe(p.state(), p.moves().get(i));
        }
        p.play(i)?;
    }
    record.cut = p.is_cut();
    record.scores = p.scores();
    record.moves = p.history;
    record.seconds = start.elapsed().as_secs_f64();
    Ok(record)
}
