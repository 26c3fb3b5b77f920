//! A player that speaks the game manager's protocol with any
//! [`Agent`].

use std::fmt;
use std::net::TcpStream;
use std::time::Duration;

use rbg_agents::Agent;
use rbg_engine::{GameModel, MoveList};

use crate::wire::{
    deadline_after, parse_seconds, Conn, RecvError, MAX_GAME_TEXT_LEN, MAX_MESSAGE_LEN,
};

/// Client settings.
#[derive(Clone, Debug)]
pub struct ClientConfig {
    /// Time kept back from every deadline for sending the move and network
    /// delays; the agent is asked to answer by `deadline - margin` (but gets
    /// at least half of the deadline).
    pub margin: Duration,
}

impl Default for ClientConfig {
    fn default() -> ClientConfig {
        ClientConfig {
            margin: Duration::from_millis(100),
        }
    }
}

/// Why the client stopped before the manager closed the connection.
#[derive(Debug)]
pub enum ClientError {
    /// A connection problem other than the manager closing it.
    Io(String),
    /// The manager sent something the protocol does not allow here.
    Protocol(String),
    /// The game text does not parse.
    Game(String),
    /// The engine cannot go on with the game (see `rbg_engine::GameError`).
    Engine(String),
}

impl fmt::Display for ClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientError::Io(m) => write!(f, "connection error: {m}"),
            ClientError::Protocol(m) => write!(f, "protocol error: {m}"),
            ClientError::Game(m) => write!(f, "bad game text: {m}"),
            ClientError::Engine(m) => write!(f, "the game cannot go on: {m}"),
        }
    }
}

impl std::error::Error for ClientError {}

/// What a client saw.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClientReport {
    /// Our player (0-based index into `#players`).
    pub player: usize,
    /// The preparation time the manager gave (`None`: no limit).
    pub preparation: Option<f64>,
    /// Final scores of the games played to their end.
    pub finished: Vec<Vec<i64>>,
    /// Games cut short by a `reset` in the middle of a play (older managers
    /// did this after a forfeit; ours ends the match instead).
    pub interrupted: usize,
}

/// Receives one message; the manager closing the connection is `Ok(None)`.
fn recv(conn: &mut Conn, max_len: usize) -> Result<Option<String>, ClientError> {
    match conn.recv(max_len, None) {
        Ok(m) => Ok(Some(m)),
        Err(RecvError::Closed) => Ok(None),
        Err(e) => Err(ClientError::Io(e.to_string())),
    }
}

fn io(e: std::io::Error) -> ClientError {
    ClientError::Io(e.to_string())
}

/// Sends one message; the manager having closed the connection is
/// `Ok(false)` (it ended the match, e.g. after our move came too late).
fn send(conn: &mut Conn, msg: &str) -> Result<bool, ClientError> {
    match conn.send(msg) {
        Ok(()) => Ok(true),
        Err(e)
            if matches!(
                e.kind(),
                std::io::ErrorKind::BrokenPipe
                    | std::io::ErrorKind::ConnectionReset
                    | std::io::ErrorKind::ConnectionAborted
            ) =>
        {
            Ok(false)
        }
        Err(e) => Err(io(e)),
    }
}

/// Plays on `stream` until the manager closes the connection: receives the
/// preparation time, the game text and our player number, answers `ready`,
/// then plays every game with `agent`.
pub fn play(
    stream: TcpStream,
    agent: &mut dyn Agent<GameModel>,
    config: &ClientConfig,
) -> Result<ClientReport, ClientError> {
    let mut conn = Conn::new(stream).map_err(io)?;
    let mut report = ClientReport::default();
    let Some(prep) = recv(&mut conn, MAX_MESSAGE_LEN)? else {
        return Ok(report);
    };
    report.preparation = parse_seconds(&prep).ok_or_else(|| {
        ClientError::Protocol(format!("expected the preparation time, got {prep:?}"))
    })?;
    let Some(text) = recv(&mut conn, MAX_GAME_TEXT_LEN)? else {
        return Ok(report);
    };
    let file = rbg_lang::SourceFile::new("<game text>", text);
    let game = GameModel::load(&file).map_err(|d| ClientError::Game(d.to_string()))?;
    let Some(num) = recv(&mut conn, MAX_MESSAGE_LEN)? else {
        return Ok(report);
    };
    report.player = match num.trim().parse::<usize>() {
        Ok(p) if (1..=game.num_players()).contains(&p) => p - 1,
        _ => {
            return Err(ClientError::Protocol(format!(
                "expected a player number 1..={}, got {num:?}",
                game.num_players()
            )))
        }
    };
    let me = report.player;
    let mut r = game.reasoner();
    let mut moves = MoveList::default();
    let engine = |e: rbg_engine::GameError| ClientError::Engine(e.to_string());
    let mut state = game.initial_state();
    agent.new_game(&game, &state);
    if !send(&mut conn, "ready")? {
        return Ok(report);
    }
    loop {
        r.legal_moves(&state, &mut moves).map_err(engine)?;
        let on_move = game.current_player(&state).filter(|_| !moves.is_empty());
        if on_move == Some(me) {
            let Some(msg) = recv(&mut conn, MAX_MESSAGE_LEN)? else {
                return Ok(report);
            };
            if msg == "reset" {
                report.interrupted += 1;
            } else {
                let secs = parse_seconds(&msg).ok_or_else(|| {
                    ClientError::Protocol(format!("expected a deadline or reset, got {msg:?}"))
                })?;
                let deadline = secs.and_then(|s| {
                    let margin = config.margin.as_secs_f64();
                    deadline_after((s - margin).max(s / 2.0))
                });
                let i = agent.select(&state, &moves, deadline).map_err(engine)?;
                // A buggy agent must not forfeit the game.
                let m = moves.get(if i < moves.len() { i } else { 0 });
                if !send(&mut conn, &game.move_to_text(m))? {
                    return Ok(report);
                }
                agent.observe(&state, m);
                r.apply(&mut state, m).map_err(engine)?;
                continue;
            }
        } else {
            let Some(msg) = recv(&mut conn, MAX_MESSAGE_LEN)? else {
                return Ok(report);
            };
            if msg == "reset" {
                if on_move.is_none() {
                    report.finished.push(game.scores(&state));
                } else {
                    report.interrupted += 1;
                }
            } else if on_move.is_none() {
                return Err(ClientError::Protocol(format!(
                    "the game is over, expected reset, got {msg:?}"
                )));
            } else {
                let m = game
                    .parse_move(&msg)
                    .map_err(|e| ClientError::Protocol(format!("bad move {msg:?}: {e}")))?;
                if !moves.iter().any(|x| x == m.apps()) {
                    return Err(ClientError::Protocol(format!(
                        "the manager sent an illegal move {msg:?}"
                    )));
                }
                agent.observe(&state, m.apps());
                r.apply(&mut state, m.apps()).map_err(engine)?;
                continue;
            }
        }
        // `reset`: a new game.
        state = game.initial_state();
        agent.new_game(&game, &state);
    }
}
