//! How `play` and `replay` show a game of any language: the [`Show`] trait,
//! implemented by the board drawing of `board.rs` for RBG.

use std::io::BufRead;

use gg_core::{Game, Turn};
use rbg_agents::stats::{outcomes, Outcome};
use rbg_agents::Playthrough;
use rbg_engine::{GameModel, ModApp, State};

use super::board::View;

/// Shows one game's states and moves in the terminal.
pub trait Show<G: Game> {
    /// Which abbreviation stands for what, printed once (may be empty).
    fn legend(&self) -> String;
    /// The state: board or variables, scores, who is on move.
    fn render(&self, s: &G::State, turn: Turn) -> String;
    /// Player `p`'s name (coloured when colours are on).
    fn player(&self, p: usize) -> String;
    /// What move `m` did, from `before` to `after`, with its move text.
    fn describe(&self, before: &G::State, after: &G::State, m: &[G::Atom]) -> String;
    /// The final scores and who won.
    fn result(&self, s: &G::State) -> String;
    /// How a move text is written, for the header of record files.
    fn notation(&self) -> &'static str;
    /// Asks the human playing `player` for a move: lists the legal moves of
    /// `p` and reads answers from `input` until one names a legal move.
    /// `None` at the end of input; `hint` says how to answer (then is
    /// cleared). `hidden`: the player may not see the state.
    fn ask(
        &self,
        p: &mut Playthrough<G>,
        player: usize,
        hidden: bool,
        input: &mut dyn BufRead,
        hint: &mut bool,
    ) -> Result<Option<usize>, G::Error>;
}

/// Games that the terminal can show.
pub trait Presented: Game {
    /// A view of the game's states, with ANSI colours when `colour`.
    fn view(&self, colour: bool) -> Box<dyn Show<Self>>;
}

impl Presented for GameModel {
    fn view(&self, colour: bool) -> Box<dyn Show<Self>> {
        Box::new(View::new(self, colour))
    }
}

impl Show<GameModel> for View {
    fn legend(&self) -> String {
        View::legend(self)
    }
    fn render(&self, s: &State, turn: Turn) -> String {
        View::render(self, s, turn)
    }
    fn player(&self, p: usize) -> String {
        View::player(self, p)
    }
    fn describe(&self, before: &State, after: &State, m: &[ModApp]) -> String {
        View::describe(self, before, after, m)
    }
    fn result(&self, s: &State) -> String {
        View::result(self, s)
    }
    fn notation(&self) -> &'static str {
        "`vertex modifier` pairs"
    }
    fn ask(
        &self,
        p: &mut Playthrough<GameModel>,
        player: usize,
        _hidden: bool,
        input: &mut dyn BufRead,
        hint: &mut bool,
    ) -> Result<Option<usize>, std::convert::Infallible> {
        Ok(super::choose::ask(
            p.game(),
            self,
            p,
            player,
            &mut &mut *input,
            hint,
        ))
    }
}

/// `on move: P`, `chance to move` or `game over`, with a newline.
pub fn turn_line(turn: Turn, name: impl Fn(usize) -> String) -> String {
    match turn {
        Turn::Player(p) => format!("on move: {}\n", name(p)),
        Turn::Chance => "chance to move\n".to_string(),
        Turn::Over => "game over\n".to_string(),
    }
}

/// `result: a 100, b 0 (a wins)`: the final scores and who won (see
/// `rbg_agents::stats`), players named by `name`.
pub fn result_line<G: Game>(game: &G, s: &G::State, name: impl Fn(usize) -> String) -> String {
    let scores = game.scores(s);
    let outcome = outcomes(&scores, &score_bounds(game));
    let list: Vec<String> = scores
        .iter()
        .enumerate()
        .map(|(p, sc)| format!("{} {sc}", name(p)))
        .collect();
    let who = |o: Outcome| -> Vec<String> {
        (0..scores.len())
            .filter(|&p| outcome[p] == o)
            .map(&name)
            .collect()
    };
    let verdict = match (who(Outcome::Win).as_slice(), who(Outcome::Draw)) {
        ([w], _) => format!("{w} wins"),
        (_, d) if !d.is_empty() => format!("draw between {}", d.join(", ")),
        _ => "nobody wins".to_string(),
    };
    format!("result: {} ({verdict})", list.join(", "))
}

/// Every player's highest score (what a lone player must reach to win).
pub fn score_bounds<G: Game>(game: &G) -> Vec<u64> {
    (0..game.num_players())
        .map(|p| game.score_range(p).1.max(0) as u64)
        .collect()
}
