//! The game manager: accepts one client per player, plays games between
//! them and writes the logs.
//!
//! Faults: a client that sends a malformed or illegal move, misses its
//! deadline or disconnects loses the game at once: it scores 0 and every
//! other player scores its `#players` bound (the maximum). After a malformed
//! or illegal move or a timeout the manager sends `reset` to all clients and
//! carries on with the next game (the late move of a client that timed out
//! is discarded when it arrives); after a disconnection, or a message too
//! long to frame, it cannot go on with fewer players and shuts down cleanly:
//! it logs the game and closes every connection. The original manager, by
//! comparison, exits on an illegal move, dies on a disconnection and accepts
//! late moves (it only counts them).

use std::fmt;
use std::io::{self, Write};
use std::net::TcpListener;
use std::time::Instant;

use rbg_engine::{GameModel, MoveList};

use crate::wire::{deadline_after, format_seconds, Conn, RecvError, MAX_MESSAGE_LEN};

/// How a match is run.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    /// The game text sent to the clients (the file as given; it must
    /// describe the same game as the model passed to [`serve`]).
    pub game_text: String,
    /// Seconds a player has for each move (`None`: no limit).
    pub deadline: Option<f64>,
    /// Seconds the clients have to answer `ready` (`None`: no limit).
    pub preparation: Option<f64>,
    /// Number of games to play.
    pub games: usize,
}

/// Why a player lost a game by forfeit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The move text could not be parsed (or was not UTF-8).
    Malformed,
    /// The move was well formed but not legal.
    Illegal,
    /// No move before the deadline.
    Timeout,
    /// The connection was closed or broke (or a message was too long to
    /// frame).
    Disconnect,
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Fault::Malformed => "malformed",
            Fault::Illegal => "illegal",
            Fault::Timeout => "timeout",
            Fault::Disconnect => "disconnect",
        })
    }
}

/// A forfeit: who (0-based player) and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Forfeit {
    /// The player (0-based index into `#players`) who lost.
    pub player: usize,
    /// What it did wrong.
    pub fault: Fault,
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
    /// Set when the game ended by a forfeit.
    pub forfeit: Option<Forfeit>,
}

impl GameRecord {
    /// The results-log line (no newline): `time depth available_moves
    /// score_1 ... score_n` as the original manager writes it, plus
    /// ` forfeit=P:fault` (P 1-based) after a forfeit.
    pub fn results_line(&self) -> String {
        let mut line = format!(
            "{:.6} {} {}",
            self.seconds, self.depth, self.available_moves
        );
        for s in &self.scores {
            line.push_str(&format!(" {s}"));
        }
        if let Some(f) = self.forfeit {
            line.push_str(&format!(" forfeit={}:{}", f.player + 1, f.fault));
        }
        line
    }
}

/// What a match produced.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MatchReport {
    /// The games played, in order.
    pub games: Vec<GameRecord>,
    /// Players (0-based) whose `ready` did not arrive within the preparation
    /// time.
    pub late_ready: Vec<usize>,
    /// Set when the match ended before all games were played (why).
    pub aborted: Option<String>,
}

/// Where the manager writes its logs (either may be absent).
#[derive(Default)]
pub struct Logs<'a> {
    /// Each accepted move text on its own line, `reset` after each game.
    pub moves: Option<&'a mut dyn Write>,
    /// One [`GameRecord::results_line`] per game.
    pub results: Option<&'a mut dyn Write>,
}

impl Logs<'_> {
    fn line(out: &mut Option<&mut dyn Write>, text: &str) -> io::Result<()> {
        if let Some(w) = out {
            writeln!(w, "{text}")?;
            w.flush()?;
        }
        Ok(())
    }
}

/// One client connection, seated as a player.
struct Seat {
    conn: Conn,
    /// Its `ready` was late: if its next message is `ready`, skip it.
    owes_ready: bool,
    /// Messages to discard first (late moves after timeouts).
    stale: usize,
    /// False once the connection is unusable.
    alive: bool,
}

impl Seat {
    /// Receives the next message that is not a leftover of an earlier fault.
    fn recv(&mut self, deadline: Option<Instant>) -> Result<String, RecvError> {
        loop {
            let msg = self.conn.recv(MAX_MESSAGE_LEN, deadline)?;
            if self.stale > 0 {
                self.stale -= 1;
                continue;
            }
            if std::mem::take(&mut self.owes_ready) && msg == "ready" {
                continue;
            }
            return Ok(msg);
        }
    }
}

/// Waits for one client per player on `listener` (the `i`-th to connect is
/// player `i + 1`), then plays `config.games` games and writes the logs.
/// Client faults never make this fail; errors are the listener's and the
/// logs' I/O errors only.
pub fn serve(
    listener: &TcpListener,
    game: &GameModel,
    config: &ServerConfig,
    logs: &mut Logs,
) -> io::Result<MatchReport> {
    let n = game.num_players();
    let mut seats = Vec::with_capacity(n);
    while seats.len() < n {
        let (stream, _) = listener.accept()?;
        // A connection that cannot be configured is dropped; wait for another.
        if let Ok(conn) = Conn::new(stream) {
            seats.push(Seat {
                conn,
                owes_ready: false,
                stale: 0,
                alive: true,
            });
        }
    }
    let mut report = MatchReport::default();
    let prep = format_seconds(config.preparation);
    for (i, seat) in seats.iter_mut().enumerate() {
        let sent = seat
            .conn
            .send(&prep)
            .and_then(|_| seat.conn.send(&config.game_text))
            .and_then(|_| seat.conn.send(&(i + 1).to_string()));
        seat.alive = sent.is_ok();
    }
    let ready_deadline = config.preparation.and_then(deadline_after);
    for (i, seat) in seats.iter_mut().enumerate().filter(|(_, s)| s.alive) {
        // Any complete message counts as `ready` (as in the original).
        match seat.conn.recv(MAX_MESSAGE_LEN, ready_deadline) {
            Ok(_) | Err(RecvError::NotUtf8) => {}
            Err(RecvError::Timeout) => {
                seat.owes_ready = true;
                report.late_ready.push(i);
            }
            Err(_) => seat.alive = false,
        }
    }
    let mut r = game.reasoner();
    let mut moves = MoveList::default();
    for _ in 0..config.games {
        let start = Instant::now();
        let mut state = game.initial_state();
        let mut depth = 0;
        let mut available = 0u64;
        let mut forfeit = seats.iter().position(|s| !s.alive).map(|player| Forfeit {
            player,
            fault: Fault::Disconnect,
        });
        while forfeit.is_none() {
            r.legal_moves(&state, &mut moves);
            available += moves.len() as u64;
            let Some(p) = game.current_player(&state).filter(|_| !moves.is_empty()) else {
                break;
            };
            let fault = |fault| Some(Forfeit { player: p, fault });
            let seat = &mut seats[p];
            if seat.conn.send(&format_seconds(config.deadline)).is_err() {
                seat.alive = false;
                forfeit = fault(Fault::Disconnect);
                break;
            }
            let text = match seat.recv(config.deadline.and_then(deadline_after)) {
                Ok(text) => text,
                Err(RecvError::NotUtf8) => {
                    forfeit = fault(Fault::Malformed);
                    break;
                }
                Err(RecvError::Timeout) => {
                    seat.stale += 1;
                    forfeit = fault(Fault::Timeout);
                    break;
                }
                Err(RecvError::Closed | RecvError::TooLong | RecvError::Io(_)) => {
                    seat.alive = false;
                    forfeit = fault(Fault::Disconnect);
                    break;
                }
            };
            let m = match game.parse_move(&text) {
                Ok(m) => m,
                Err(_) => {
                    forfeit = fault(Fault::Malformed);
                    break;
                }
            };
            if !moves.iter().any(|x| x == m.apps()) {
                forfeit = fault(Fault::Illegal);
                break;
            }
            let canonical = game.move_to_text(m.apps());
            for (i, other) in seats.iter_mut().enumerate() {
                if i != p && other.alive && other.conn.send(&canonical).is_err() {
                    other.alive = false;
                    forfeit = forfeit.or(Some(Forfeit {
                        player: i,
                        fault: Fault::Disconnect,
                    }));
                }
            }
            Logs::line(&mut logs.moves, &canonical)?;
            r.apply(&mut state, m.apps());
            depth += 1;
        }
        let scores = match forfeit {
            None => game.scores(&state),
            Some(f) => (0..n)
                .map(|i| {
                    if i == f.player {
                        0
                    } else {
                        game.description().players[i].bound as i64
                    }
                })
                .collect(),
        };
        let record = GameRecord {
            seconds: start.elapsed().as_secs_f64(),
            depth,
            available_moves: available,
            scores,
            forfeit,
        };
        Logs::line(&mut logs.results, &record.results_line())?;
        Logs::line(&mut logs.moves, "reset")?;
        report.games.push(record);
        if let Some(p) = seats.iter().position(|s| !s.alive) {
            report.aborted = Some(format!(
                "player {} ({}) is disconnected",
                p + 1,
                game.player_name(p)
            ));
            break;
        }
        for seat in &mut seats {
            if seat.conn.send("reset").is_err() {
                seat.alive = false;
            }
        }
    }
    for seat in &seats {
        seat.conn.shutdown();
    }
    Ok(report)
}
