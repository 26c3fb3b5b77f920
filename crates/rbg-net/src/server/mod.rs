//! The game manager: seats one client per player, plays games between them
//! and writes the logs.
//!
//! The rules, chosen so that the original RBG client (which tracks the game
//! itself and reads `reset` only after a finished game) never misreads a
//! message:
//! - **Late messages are accepted.** A move (or `ready`) that arrives after
//!   its deadline (preparation time) is accepted and counted, as the
//!   original manager does (` timeouts=` in the results line).
//! - **Waits are bounded.** The manager waits for a message at most the
//!   wait limit past its deadline (past the request when there is none).
//! - **A fault ends the match.** A malformed or illegal move, silence past
//!   the wait limit, a message too long to frame or a disconnection loses
//!   the game (the offender scores 0, the others their `#players` bound);
//!   the game is logged, the manager closes every connection without
//!   sending `reset` (`reset` follows finished games only) and stops. The
//!   original manager also stops at an illegal move.
//! - Connections beyond the seats are closed at once, with a log line.
//! - **The game must go on.** A game that reaches `DEFAULT_MAX_LENGTH` moves
//!   is cut (scores as they stand) and, as the original client cannot be
//!   told, ends the match; so does a game the engine cannot go on with (the
//!   description is not proper, see `rbg_engine::GameError`).

mod record;
mod seats;

use std::io;
use std::net::TcpListener;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

use rbg_engine::playout::DEFAULT_MAX_LENGTH;
use rbg_engine::{GameError, GameModel, MoveList, State};

use crate::wire::{format_seconds, quote, Conn, RecvError, MAX_MESSAGE_LEN};
use record::{log_line, Events};
pub use record::{Fault, Forfeit, GameRecord, Logs, MatchReport};
use seats::{recv_fault, refuse_extra, take_seats, wait_until};

/// Default of [`ServerConfig::wait_limit`]: five minutes.
pub const DEFAULT_WAIT_LIMIT: f64 = 300.0;

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
    /// Seconds the manager waits for a `ready` or a move past its deadline
    /// (past the request when there is none) before the client forfeits
    /// and the match ends.
    pub wait_limit: f64,
    /// Number of games to play.
    pub games: usize,
}

/// Waits for one client per player on `listener` (the `i`-th to connect is
/// player `i + 1`), then plays `config.games` games and writes the logs.
/// Client faults never make this fail; errors are the listener's and the
/// moves and results logs' I/O errors only.
pub fn serve(
    listener: &TcpListener,
    game: &GameModel,
    config: &ServerConfig,
    logs: &mut Logs,
) -> io::Result<MatchReport> {
    let names: Vec<&str> = (0..game.num_players())
        .map(|i| game.player_name(i))
        .collect();
    let events = Events::new(logs.events.take());
    let mut seats = take_seats(listener, &names, &events)?;
    let stop = AtomicBool::new(false);
    let refused = AtomicUsize::new(0);
    let n = seats.len();
    let result = std::thread::scope(|s| {
        s.spawn(|| refuse_extra(listener, n, &stop, &refused, &events));
        // Stops the refusing thread however this closure ends.
        let _stop = StopOnDrop(&stop);
        let mut m = Match {
            game,
            config,
            names: &names,
            events: &events,
            seats: &mut seats,
            report: MatchReport::default(),
        };
        m.run(logs).map(|()| m.report)
    });
    for conn in &seats {
        conn.shutdown();
    }
    logs.events = events.into_inner();
    let mut report = result?;
    report.refused = refused.load(Ordering::Relaxed);
    Ok(report)
}

/// Sets the flag when dropped.
struct StopOnDrop<'a>(&'a AtomicBool);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// A match in progress.
struct Match<'a, 'e> {
    game: &'a GameModel,
    config: &'a ServerConfig,
    names: &'a [&'a str],
    events: &'a Events<'e>,
    seats: &'a mut [Conn],
    report: MatchReport,
}

impl Match<'_, '_> {
    /// `seat 2 (black)`.
    fn seat(&self, p: usize) -> String {
        format!("seat {} ({})", p + 1, self.names[p])
    }

    fn run(&mut self, logs: &mut Logs) -> io::Result<()> {
        let mut forfeit = self.prepare();
        let late_ready: Vec<bool> = (0..self.seats.len())
            .map(|p| self.report.late_ready.contains(&p))
            .collect();
        for g in 0..self.config.games {
            let (record, error) = self.play(g, forfeit.take(), &late_ready, logs)?;
            log_line(&mut logs.results, &record.results_line())?;
            log_line(&mut logs.moves, "reset")?;
            if let Some(f) = &record.forfeit {
                self.events.line(&format!(
                    "game {}: {} forfeits ({}): {}",
                    g + 1,
                    self.seat(f.player),
                    f.fault,
                    f.detail
                ));
                self.report.aborted = Some(format!(
                    "{} forfeited game {} ({}); a fault ends the match",
                    self.seat(f.player),
                    g + 1,
                    f.fault
                ));
            }
            if let Some(e) = error {
                self.events
                    .line(&format!("game {}: the game cannot go on: {e}", g + 1));
                self.report.aborted = Some(format!(
                    "the game cannot go on after move {} of game {}: {e}",
                    record.depth,
                    g + 1
                ));
            } else if record.cut {
                self.report.aborted = Some(format!(
                    "game {} reached the maximum length of {DEFAULT_MAX_LENGTH} moves \
                     and was cut; the match ends (clients expect `reset` only after \
                     a finished game)",
                    g + 1
                ));
            }
            let failed = record.forfeit.is_some() || self.report.aborted.is_some();
            self.report.games.push(record);
            if failed {
                break;
            }
            let mut gone = None;
            for (p, conn) in self.seats.iter_mut().enumerate() {
                if conn.send("reset").is_err() {
                    gone = gone.or(Some(p));
                }
            }
            if let Some(p) = gone.filter(|_| g + 1 < self.config.games) {
                self.report.aborted = Some(format!(
                    "{} could not be sent `reset` after game {}: disconnected",
                    self.seat(p),
                    g + 1
                ));
                break;
            }
        }
        Ok(())
    }

    /// Sends every seat the preparation time, the game text and its player
    /// number, then waits for all the `ready` messages at once. Returns the
    /// first seat's fault, if any: it forfeits the first game.
    fn prepare(&mut self) -> Option<Forfeit> {
        let prep = format_seconds(self.config.preparation);
        let mut sent = Vec::with_capacity(self.seats.len());
        for (i, conn) in self.seats.iter_mut().enumerate() {
            let ok = conn
                .send(&prep)
                .and_then(|_| conn.send(&self.config.game_text))
                .and_then(|_| conn.send(&(i + 1).to_string()));
            sent.push(ok.is_ok());
        }
        let asked = Instant::now();
        let (prep, wait_limit) = (self.config.preparation, self.config.wait_limit);
        let until = wait_until(asked, prep, wait_limit);
        let answers: Vec<_> = std::thread::scope(|s| {
            let handles: Vec<_> = self
                .seats
                .iter_mut()
                .zip(&sent)
                .map(|(conn, &sent)| {
                    s.spawn(move || {
                        if !sent {
                            return None;
                        }
                        let got = conn.recv(MAX_MESSAGE_LEN, until);
                        Some((got, asked.elapsed().as_secs_f64()))
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a receiving thread does not panic"))
                .collect()
        });
        let mut first_fault: Option<Forfeit> = None;
        for (p, answer) in answers.into_iter().enumerate() {
            let got = match answer {
                None => Err((Fault::Disconnect, "could not be sent the game".to_string())),
                Some((Ok(text), secs)) => Ok((text.into_bytes(), secs)),
                // Any whole message counts as `ready` (as in the original).
                Some((Err(RecvError::NotUtf8(bytes)), secs)) => Ok((bytes, secs)),
                Some((Err(e), _)) => Err(recv_fault(e, "`ready`", prep, wait_limit)),
            };
            match got {
                Ok((text, secs)) => {
                    if text != b"ready" {
                        self.events.line(&format!(
                            "{} sent {} instead of `ready` (taken as `ready`)",
                            self.seat(p),
                            quote(&text)
                        ));
                    }
                    if let Some(d) = prep.filter(|&d| secs > d) {
                        self.report.late_ready.push(p);
                        self.events.line(&format!(
                            "{}: `ready` arrived after {secs:.3} s, past the {d} s preparation time (accepted)",
                            self.seat(p)
                        ));
                    }
                }
                Err((fault, detail)) => {
                    if first_fault.is_some() {
                        self.events.line(&format!(
                            "{} also failed before the first game ({fault}): {detail}",
                            self.seat(p)
                        ));
                    } else {
                        first_fault = Some(Forfeit {
                            player: p,
                            fault,
                            detail,
                        });
                    }
                }
            }
        }
        first_fault
    }

    /// Plays game `g` (0-based); `forfeit` is a fault from the preparation.
    /// Also returns the error the engine stopped the game with, if any.
    fn play(
        &mut self,
        g: usize,
        mut forfeit: Option<Forfeit>,
        late_ready: &[bool],
        logs: &mut Logs,
    ) -> io::Result<(GameRecord, Option<GameError>)> {
        let (game, config) = (self.game, self.config);
        let n = self.seats.len();
        let start = Instant::now();
        let mut r = game.reasoner();
        let mut moves = MoveList::default();
        let mut state: State = game.initial_state();
        let mut depth = 0;
        let mut available = 0u64;
        let mut overruns = vec![0u32; n];
        let mut error = None;
        let mut cut = false;
        while forfeit.is_none() {
            if let Err(e) = r.legal_moves(&state, &mut moves) {
                error = Some(e);
                break;
            }
            available += moves.len() as u64;
            let Some(p) = game.current_player(&state).filter(|_| !moves.is_empty()) else {
                break;
            };
            if depth as u64 >= DEFAULT_MAX_LENGTH {
                cut = true;
                break;
            }
            let lose = |fault, detail| {
                Some(Forfeit {
                    player: p,
                    fault,
                    detail,
                })
            };
            let conn = &mut self.seats[p];
            if let Err(e) = conn.send(&format_seconds(config.deadline)) {
                forfeit = lose(
                    Fault::Disconnect,
                    format!("could not be sent its deadline: {e}"),
                );
                break;
            }
            let asked = Instant::now();
            let until = wait_until(asked, config.deadline, config.wait_limit);
            let got = conn.recv(MAX_MESSAGE_LEN, until);
            let secs = asked.elapsed().as_secs_f64();
            let text = match got {
                Ok(text) => text,
                Err(e) => {
                    let (fault, detail) = recv_fault(e, "move", config.deadline, config.wait_limit);
                    forfeit = lose(fault, detail);
                    break;
                }
            };
            if let Some(d) = config.deadline.filter(|&d| secs > d) {
                overruns[p] += 1;
                self.events.line(&format!(
                    "game {}, move {}: {} answered after {secs:.3} s, past its {d} s deadline (accepted)",
                    g + 1,
                    depth + 1,
                    self.seat(p)
                ));
            }
            let m = match game.parse_move(&text) {
                Ok(m) => m,
                Err(e) => {
                    forfeit = lose(
                        Fault::Malformed,
                        format!("sent {}, not a move: {e}", quote(text.as_bytes())),
                    );
                    break;
                }
            };
            if !moves.iter().any(|x| x == m.apps()) {
                forfeit = lose(
                    Fault::Illegal,
                    format!("sent {}, not a legal move here", quote(text.as_bytes())),
                );
                break;
            }
            let canonical = game.move_to_text(m.apps());
            for (i, other) in self.seats.iter_mut().enumerate() {
                if i == p {
                    continue;
                }
                if let Err(e) = other.send(&canonical) {
                    forfeit = forfeit.or(Some(Forfeit {
                        player: i,
                        fault: Fault::Disconnect,
                        detail: format!("could not be sent the move: {e}"),
                    }));
                }
            }
            log_line(&mut logs.moves, &canonical)?;
            depth += 1;
            if let Err(e) = r.apply(&mut state, m.apps()) {
                error = Some(e);
                break;
            }
        }
        let scores = match &forfeit {
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
            overruns,
            late_ready: late_ready.to_vec(),
            forfeit,
            cut,
        };
        Ok((record, error))
    }
}
