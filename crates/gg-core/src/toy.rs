//! A tiny game with chance, for tests and examples: one player picks an
//! option, then chance draws one of the option's outcomes uniformly, which
//! is the player's score.

use std::convert::Infallible;

use crate::{Game, MoveError, MoveList, Reasoner, Turn};

/// The game: `options[i]` lists the outcomes (scores) of option `i`.
#[derive(Clone, Debug)]
pub struct Gamble {
    options: std::sync::Arc<Vec<Vec<i64>>>,
}

/// A state of [`Gamble`]. Equal scores after the draw are equal states.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum GambleState {
    /// The player chooses an option.
    Choose,
    /// Chance draws an outcome of this option.
    Draw(u32),
    /// Over, with this score.
    Done(i64),
}

impl Gamble {
    /// A gamble between `options` (each a non-empty list of scores).
    pub fn new(options: Vec<Vec<i64>>) -> Gamble {
        assert!(options.iter().all(|o| !o.is_empty()), "outcomes to draw");
        Gamble {
            options: std::sync::Arc::new(options),
        }
    }
}

impl Game for Gamble {
    type State = GambleState;
    type Atom = u32;
    type Reasoner = Gamble;
    type Error = Infallible;

    fn reasoner(&self) -> Gamble {
        self.clone()
    }
    fn initial_state(&self) -> Result<GambleState, Infallible> {
        Ok(GambleState::Choose)
    }
    fn num_players(&self) -> usize {
        1
    }
    fn player_name(&self, _p: usize) -> &str {
        "gambler"
    }
    fn turn(&self, s: &GambleState) -> Turn {
        match s {
            GambleState::Choose => Turn::Player(0),
            GambleState::Draw(_) => Turn::Chance,
            GambleState::Done(_) => Turn::Over,
        }
    }
    fn score(&self, s: &GambleState, _p: usize) -> i64 {
        match s {
            GambleState::Done(x) => *x,
            _ => 0,
        }
    }
    fn score_range(&self, _p: usize) -> (i64, i64) {
        let all = self.options.iter().flatten();
        (0, all.copied().max().unwrap_or(0))
    }
    fn move_text(&self, m: &[u32]) -> String {
        m.iter().map(u32::to_string).collect::<Vec<_>>().join(" ")
    }
    fn describe(&self, s: &GambleState) -> String {
        format!("{s:?}")
    }
}

impl Reasoner<Gamble> for Gamble {
    fn game(&self) -> &Gamble {
        self
    }
    fn legal_moves_mut(
        &mut self,
        s: &mut GambleState,
        out: &mut MoveList<u32>,
    ) -> Result<(), Infallible> {
        out.clear();
        let n = match s {
            GambleState::Choose => self.options.len(),
            GambleState::Draw(o) => self.options[*o as usize].len(),
            GambleState::Done(_) => 0,
        };
        for i in 0..n as u32 {
            out.push(&[i]);
        }
        Ok(())
    }
    fn apply(&mut self, s: &mut GambleState, m: &[u32]) -> Result<(), Infallible> {
        *s = match *s {
            GambleState::Choose => GambleState::Draw(m[0]),
            GambleState::Draw(o) => GambleState::Done(self.options[o as usize][m[0] as usize]),
            GambleState::Done(x) => GambleState::Done(x),
        };
        Ok(())
    }
    fn parse_move(&mut self, _s: &GambleState, text: &str) -> Result<Vec<u32>, MoveError> {
        text.trim()
            .parse()
            .map(|i| vec![i])
            .map_err(|_| MoveError::Syntax(format!("expected a number, found {text:?}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perft::{perft, perft_parallel, perft_split};
    use crate::playout::Playouts;

    fn game() -> Gamble {
        Gamble::new(vec![vec![5], vec![0, 10, 10], vec![0, 0, 0, 11]])
    }

    #[test]
    fn perft_merges_equal_chance_outcomes() {
        let g = game();
        let leaves = |d| perft(&g, d).map(|c| c.leaves);
        assert_eq!(leaves(0), Ok(1));
        assert_eq!(leaves(1), Ok(3));
        // 1 + 2 + 2 distinct outcomes, not 1 + 3 + 4 draws.
        assert_eq!(leaves(2), Ok(5));
        assert_eq!(leaves(3), Ok(0));
        assert_eq!(perft_parallel(&g, 2, 2), perft(&g, 2));
        assert_eq!(perft(&g, 2).map(|c| c.states), Ok(1 + 3 + 5));
    }

    #[test]
    fn perft_split_reports_every_subtree() {
        let g = game();
        let calls = std::sync::Mutex::new(Vec::new());
        let c = perft_split(&g, 2, 1, &|d, t| calls.lock().unwrap().push((d, t)));
        assert_eq!(c, perft(&g, 2));
        // The root's 3 children are the subtrees.
        assert_eq!(calls.into_inner().unwrap(), [(1, 3), (2, 3), (3, 3)]);
    }

    #[test]
    fn playouts_draw_uniformly() {
        let Ok(mut p) = Playouts::new(&game(), 3);
        for _ in 0..3000 {
            assert_eq!(p.run_one(), Ok(1));
        }
        assert_eq!((p.stats.states, p.stats.chance), (3000, 3000));
        // E = (5 + 20/3 + 11/4) / 3 = 4.81
        let avg = p.stats.avg_scores()[0];
        assert!((avg - 4.81).abs() < 0.3, "{avg}");
    }
}
