//! Match statistics: wins, draws and losses, average scores with a 95%
//! confidence interval.
//!
//! **Outcome of a game for a player.** With two or more players: a *win*
//! when the player's score is strictly the highest, a *draw* when it ties
//! with others for the highest, a *loss* otherwise. With one player: a win
//! when the score reaches the player's bound, a loss otherwise. Raw scores
//! are compared.

use crate::GameRecord;

/// A player's result in one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Strictly highest score (one player: the bound reached).
    Win,
    /// Tied for the highest score.
    Draw,
    /// Anything else.
    Loss,
}

/// Every player's outcome given the final scores and the players' bounds.
pub fn outcomes(scores: &[i64], bounds: &[u64]) -> Vec<Outcome> {
    if scores.len() == 1 {
        let win = bounds.first().is_some_and(|&b| scores[0] >= b as i64);
        return vec![if win { Outcome::Win } else { Outcome::Loss }];
    }
    let best = scores.iter().copied().max().unwrap_or(0);
    let tied = scores.iter().filter(|&&s| s == best).count();
    scores
        .iter()
        .map(|&s| match (s == best, tied) {
            (true, 1) => Outcome::Win,
            (true, _) => Outcome::Draw,
            _ => Outcome::Loss,
        })
        .collect()
}

/// One agent's totals over a match.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AgentStats {
    /// The agent's name (its spec).
    pub name: String,
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
    /// Final score of every game played.
    pub scores: Vec<f64>,
    /// Moves made.
    pub moves: u64,
    /// Seconds spent choosing moves.
    pub think_seconds: f64,
    /// Search iterations (search agents).
    pub iterations: u64,
}

impl AgentStats {
    /// Average score.
    pub fn mean_score(&self) -> f64 {
        self.scores.iter().sum::<f64>() / self.scores.len().max(1) as f64
    }

    /// Half width of the 95% confidence interval of the average score
    /// (normal approximation, `1.96 * s / sqrt(n)`; 0 with fewer than two
    /// games).
    pub fn ci95(&self) -> f64 {
        let n = self.scores.len();
        if n < 2 {
            return 0.0;
        }
        let mean = self.mean_score();
        let var = self.scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
        1.96 * (var / n as f64).sqrt()
    }
}

/// Totals of a match between agents.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MatchStats {
    /// Per agent, in the order given.
    pub agents: Vec<AgentStats>,
    /// Games played.
    pub games: u64,
    /// Moves played in all games.
    pub plies: u64,
    /// Sum of the games' wall times.
    pub game_seconds: f64,
}

impl MatchStats {
    /// Empty totals for agents with these names.
    pub fn new(names: Vec<String>) -> MatchStats {
        MatchStats {
            agents: names
                .into_iter()
                .map(|name| AgentStats {
                    name,
                    ..AgentStats::default()
                })
                .collect(),
            ..MatchStats::default()
        }
    }

    /// Adds a game in which player `p` was agent `seats[p]`.
    pub fn add<A>(&mut self, record: &GameRecord<A>, seats: &[usize], bounds: &[u64]) {
        self.games += 1;
        self.plies += record.moves.len() as u64;
        self.game_seconds += record.seconds;
        for (p, outcome) in outcomes(&record.scores, bounds).into_iter().enumerate() {
            let a = &mut self.agents[seats[p]];
            match outcome {
                Outcome::Win => a.wins += 1,
                Outcome::Draw => a.draws += 1,
                Outcome::Loss => a.losses += 1,
            }
            a.scores.push(record.scores[p] as f64);
            a.moves += record.player_moves[p];
            a.think_seconds += record.think_seconds[p];
            a.iterations += record.iterations[p];
        }
    }

    /// Average game length in moves.
    pub fn avg_length(&self) -> f64 {
        self.plies as f64 / self.games.max(1) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Outcome::*;

    #[test]
    fn outcomes_by_highest_score() {
        assert_eq!(outcomes(&[100, 0], &[100, 100]), vec![Win, Loss]);
        assert_eq!(outcomes(&[50, 50], &[100, 100]), vec![Draw, Draw]);
        assert_eq!(outcomes(&[3, 7, 7], &[9, 9, 9]), vec![Loss, Draw, Draw]);
        assert_eq!(outcomes(&[1, 0, 0], &[9, 9, 9]), vec![Win, Loss, Loss]);
        assert_eq!(outcomes(&[100], &[100]), vec![Win]);
        assert_eq!(outcomes(&[99], &[100]), vec![Loss]);
    }

    #[test]
    fn confidence_interval() {
        let mut a = AgentStats {
            scores: vec![0.0, 100.0, 100.0, 0.0],
            ..AgentStats::default()
        };
        assert_eq!(a.mean_score(), 50.0);
        // s = sqrt(10000/3) = 57.735; 1.96 * s / 2 = 56.58
        assert!((a.ci95() - 56.580).abs() < 1e-3, "{}", a.ci95());
        a.scores.truncate(1);
        assert_eq!(a.ci95(), 0.0);
    }
}
