//! How `play` and `replay` show a game of any language: the [`Show`] trait,
//! implemented by the board drawing of `board.rs` for RBG and by a plain
//! text view ([`TextView`]: the engine's description of the state, moves as
//! their texts) for RG.

use std::io::{BufRead, Write};

use gg_core::{Game, Turn};
use rbg_agents::stats::{outcomes, Outcome};
use rbg_agents::Playthrough;
use rbg_engine::{GameModel, ModApp, State};

use super::board::View;
use super::choose::{read_line, Line};

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

impl Presented for gg_games::rg_engine::GameModel {
    fn view(&self, _colour: bool) -> Box<dyn Show<Self>> {
        Box::new(TextView::new(self))
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
    ) -> Result<Option<usize>, rbg_engine::GameError> {
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

/// A plain view: the engine's description of the state and the move texts.
pub struct TextView<G> {
    game: G,
}

impl<G: Game> TextView<G> {
    /// A plain view of `game`.
    pub fn new(game: &G) -> TextView<G> {
        TextView { game: game.clone() }
    }
}

impl<G: Game> Show<G> for TextView<G> {
    fn legend(&self) -> String {
        String::new()
    }
    fn render(&self, s: &G::State, turn: Turn) -> String {
        let mut out = self.game.describe(s);
        if !out.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(&turn_line(turn, |p| self.player(p)));
        out
    }
    fn player(&self, p: usize) -> String {
        self.game.player_name(p).to_string()
    }
    fn describe(&self, _before: &G::State, _after: &G::State, m: &[G::Atom]) -> String {
        format!("[{}]", self.game.move_text(m))
    }
    fn result(&self, s: &G::State) -> String {
        result_line(&self.game, s, |p| self.player(p))
    }
    fn notation(&self) -> &'static str {
        "tags separated by spaces"
    }
    /// Lists the moves by their texts (sorted) and reads a number or a move
    /// text.
    fn ask(
        &self,
        p: &mut Playthrough<G>,
        player: usize,
        _hidden: bool,
        input: &mut dyn BufRead,
        hint: &mut bool,
    ) -> Result<Option<usize>, G::Error> {
        let mut order: Vec<(String, usize)> = (0..p.moves().len())
            .map(|i| (self.game.move_text(p.moves().get(i)), i))
            .collect();
        order.sort();
        for (k, (text, _)) in order.iter().enumerate() {
            println!("{:>4}. [{text}]", k + 1);
        }
        if std::mem::take(hint) {
            println!("(type a move's number or its text)");
        }
        let n = order.len();
        loop {
            print!("{} to move> ", self.player(player));
            std::io::stdout().flush().ok();
            let line = match read_line(input) {
                Line::End => {
                    println!();
                    return Ok(None);
                }
                Line::Bad(why) => {
                    println!("{why}; try again");
                    continue;
                }
                Line::Text(t) if t.trim().is_empty() => continue,
                Line::Text(t) => t,
            };
            let answer = match line.trim().parse::<usize>() {
                Ok(k) if (1..=n).contains(&k) => Ok(order[k - 1].1),
                Ok(k) => Err(format!("no move number {k}: choose 1 to {n}")),
                Err(_) => p.find_text(&line),
            };
            match answer {
                Ok(i) => return Ok(Some(i)),
                Err(why) => println!("{why}; try again"),
            }
        }
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
