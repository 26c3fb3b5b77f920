//! What a match produces: game records, forfeits and their log lines.

use std::fmt;
use std::io::{self, Write};
use std::sync::Mutex;

/// Why a player lost a game by forfeit (the match ends with it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The move text could not be parsed or was not UTF-8.
    Malformed,
    /// The move was well formed but not legal.
    Illegal,
    /// No message within the wait limit past the deadline.
    Timeout,
    /// More bytes than any message may have arrived without a NUL.
    TooLong,
    /// The connection was closed or broke.
    Disconnect,
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Fault::Malformed => "malformed",
            Fault::Illegal => "illegal",
            Fault::Timeout => "timeout",
            Fault::TooLong => "too-long",
            Fault::Disconnect => "disconnect",
        })
    }
}

/// A forfeit: who (0-based player), why, and what exactly happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Forfeit {
    /// The player (0-based index into `#players`) who lost.
    pub player: usize,
    /// What kind of fault it was.
    pub fault: Fault,
    /// What the client did, for the log: e.g. `sent "1 1", not a legal
    /// move` (message texts quoted and shortened).
    pub detail: String,
}

/// The outcome of one game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// Wall-clock seconds from the start of the game to its end.
    pub seconds: f64,
    /// Number of moves played (by the players; the keeper's are not moves).
    pub depth: usize,
    /// Sum of the numbers of legal moves over all states of the game where
    /// moves were generated, the final one included (as the original).
    pub available_moves: u64,
    /// Final scores by player (after a forfeit: 0 for the offender, the
    /// `#players` bound for the others).
    pub scores: Vec<i64>,
    /// Per player, the moves of this game that arrived after the deadline
    /// (they were accepted, as the original manager does).
    pub overruns: Vec<u32>,
    /// Per player, whether its `ready` arrived after the preparation time
    /// (repeated in every game's record, as the original does).
    pub late_ready: Vec<bool>,
    /// Set when the game ended by a forfeit.
    pub forfeit: Option<Forfeit>,
    /// Whether the game was cut at `rbg_engine::playout::DEFAULT_MAX_LENGTH`
    /// moves (scores as they stood).
    pub cut: bool,
}

impl GameRecord {
    /// The results-log line (no newline), as the original manager writes
    /// it: `time depth available_moves score_1 ... score_n`, then
    /// ` timeouts=c_1,...,c_n` when a move or `ready` was late (`c_i` is
    /// player i's number of late moves, followed by `(lateready)` when its
    /// `ready` was late); ours adds ` forfeit=P:fault` (P 1-based) after a
    /// forfeit and ` cut` after a game cut at its maximum length.
    pub fn results_line(&self) -> String {
        let mut line = format!(
            "{:.6} {} {}",
            self.seconds, self.depth, self.available_moves
        );
        for s in &self.scores {
            line.push_str(&format!(" {s}"));
        }
        if self.overruns.iter().any(|&c| c > 0) || self.late_ready.contains(&true) {
            let counts: Vec<String> = self
                .overruns
                .iter()
                .zip(&self.late_ready)
                .map(|(c, &late)| format!("{c}{}", if late { "(lateready)" } else { "" }))
                .collect();
            line.push_str(&format!(" timeouts={}", counts.join(",")));
        }
        if let Some(f) = &self.forfeit {
            line.push_str(&format!(" forfeit={}:{}", f.player + 1, f.fault));
        }
        if self.cut {
            line.push_str(" cut");
        }
        line
    }

    /// A line for people, every field named: `seconds=0.012 depth=7
    /// available_moves=45 scores: cross=100 nought=0`, then the late moves
    /// and the forfeit if any. `players` are the players' names.
    pub fn summary(&self, players: &[&str]) -> String {
        let mut line = format!(
            "seconds={:.3} depth={} available_moves={} scores:",
            self.seconds, self.depth, self.available_moves
        );
        for (name, s) in players.iter().zip(&self.scores) {
            line.push_str(&format!(" {name}={s}"));
        }
        let late: Vec<String> = players
            .iter()
            .zip(&self.overruns)
            .filter(|(_, &c)| c > 0)
            .map(|(name, c)| format!("{name}={c}"))
            .collect();
        if !late.is_empty() {
            line.push_str(&format!("; moves past the deadline: {}", late.join(" ")));
        }
        if let Some(f) = &self.forfeit {
            let name = players.get(f.player).copied().unwrap_or("?");
            line.push_str(&format!(
                "; forfeit ({}) by seat {} ({name}): {}",
                f.fault,
                f.player + 1,
                f.detail
            ));
        }
        line
    }
}

/// What a match produced.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MatchReport {
    /// The games played, in order.
    pub games: Vec<GameRecord>,
    /// Players (0-based) whose `ready` arrived after the preparation time.
    pub late_ready: Vec<usize>,
    /// Connections refused because every seat was taken.
    pub refused: usize,
    /// Set when the match ended before all games were played (why).
    pub aborted: Option<String>,
}

/// Where the manager writes its logs (each may be absent).
#[derive(Default)]
pub struct Logs<'a> {
    /// Each accepted move text on its own line, `reset` after each game.
    pub moves: Option<&'a mut dyn Write>,
    /// One [`GameRecord::results_line`] per game.
    pub results: Option<&'a mut dyn Write>,
    /// Events, one line each: seats taken, connections refused, late or
    /// odd `ready` messages, late moves, forfeits and why.
    pub events: Option<&'a mut (dyn Write + Send)>,
}

/// Writes `text` and a newline to `out`, if present, and flushes it.
pub(super) fn log_line(out: &mut Option<&mut dyn Write>, text: &str) -> io::Result<()> {
    if let Some(w) = out {
        writeln!(w, "{text}")?;
        w.flush()?;
    }
    Ok(())
}

/// The events log, shared with the thread that refuses extra connections.
/// Write errors are ignored: events are informative.
pub(super) struct Events<'a>(Mutex<Option<&'a mut (dyn Write + Send)>>);

impl<'a> Events<'a> {
    pub(super) fn new(out: Option<&'a mut (dyn Write + Send)>) -> Events<'a> {
        Events(Mutex::new(out))
    }

    pub(super) fn into_inner(self) -> Option<&'a mut (dyn Write + Send)> {
        self.0.into_inner().unwrap_or_else(|e| e.into_inner())
    }

    pub(super) fn line(&self, text: &str) {
        let mut guard = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(w) = guard.as_mut() {
            let _ = writeln!(w, "{text}");
            let _ = w.flush();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record() -> GameRecord {
        GameRecord {
            seconds: 1.5,
            depth: 7,
            available_moves: 40,
            scores: vec![100, 0],
            overruns: vec![0, 0],
            late_ready: vec![false, false],
            forfeit: None,
            cut: false,
        }
    }

    #[test]
    fn results_lines_follow_the_original() {
        let mut r = record();
        assert_eq!(r.results_line(), "1.500000 7 40 100 0");
        r.overruns = vec![0, 2];
        assert_eq!(r.results_line(), "1.500000 7 40 100 0 timeouts=0,2");
        r.late_ready = vec![true, false];
        assert_eq!(
            r.results_line(),
            "1.500000 7 40 100 0 timeouts=0(lateready),2"
        );
        r.forfeit = Some(Forfeit {
            player: 1,
            fault: Fault::TooLong,
            detail: "sent more than 10 bytes without a NUL".into(),
        });
        assert_eq!(
            r.results_line(),
            "1.500000 7 40 100 0 timeouts=0(lateready),2 forfeit=2:too-long"
        );
        assert_eq!(
            r.summary(&["x", "o"]),
            "seconds=1.500 depth=7 available_moves=40 scores: x=100 o=0; \
             moves past the deadline: o=2; \
             forfeit (too-long) by seat 2 (o): sent more than 10 bytes without a NUL"
        );
    }
}
