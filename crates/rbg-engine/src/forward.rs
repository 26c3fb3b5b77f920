//! The engine behind the shared forward-model interface ([`gg_core`]).

use gg_core::{MoveError, MoveList, Turn};

use crate::{GameError, GameModel, ModApp, Reasoner, State};

impl gg_core::Game for GameModel {
    type State = State;
    type Atom = ModApp;
    type Reasoner = Reasoner;
    type Error = GameError;

    fn reasoner(&self) -> Reasoner {
        GameModel::reasoner(self)
    }

    fn initial_state(&self) -> Result<State, GameError> {
        Ok(GameModel::initial_state(self))
    }

    fn num_players(&self) -> usize {
        GameModel::num_players(self)
    }

    fn player_name(&self, p: usize) -> &str {
        GameModel::player_name(self, p)
    }

    #[inline]
    fn turn(&self, s: &State) -> Turn {
        match self.current_player(s) {
            Some(p) => Turn::Player(p),
            None => Turn::Over,
        }
    }

    #[inline]
    fn score(&self, s: &State, p: usize) -> i64 {
        s.vars[p] as i64
    }

    fn scores(&self, s: &State) -> Vec<i64> {
        GameModel::scores(self, s)
    }

    fn score_range(&self, p: usize) -> (i64, i64) {
        (0, self.description().players[p].bound as i64)
    }

    fn move_text(&self, m: &[ModApp]) -> String {
        self.move_to_text(m)
    }

    fn describe(&self, s: &State) -> String {
        self.dump(s)
    }

    fn summary(&self) -> String {
        rbg_lang::analysis::Summary::of(self.description()).to_string()
    }
}

impl gg_core::Reasoner<GameModel> for Reasoner {
    fn game(&self) -> &GameModel {
        Reasoner::game(self)
    }

    #[inline]
    fn legal_moves_mut(
        &mut self,
        s: &mut State,
        out: &mut MoveList<ModApp>,
    ) -> Result<(), GameError> {
        Reasoner::legal_moves_mut(self, s, out)
    }

    #[inline]
    fn legal_moves(&mut self, s: &State, out: &mut MoveList<ModApp>) -> Result<(), GameError> {
        Reasoner::legal_moves(self, s, out)
    }

    /// A stuck keeper leaves the keeper on move: the game is over.
    #[inline]
    fn apply(&mut self, s: &mut State, m: &[ModApp]) -> Result<(), GameError> {
        Reasoner::apply(self, s, m).map(|_| ())
    }

    fn parse_move(&mut self, _s: &State, text: &str) -> Result<Vec<ModApp>, MoveError> {
        Ok(self.game().parse_move(text)?.0)
    }
}
