//! Shared by the loopback tests: a manager for tic-tac-toe on a free port,
//! our clients, hand-driven clients and a replay of the moves log.

#![allow(dead_code)] // each test file uses a part

use std::io::Write;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use rbg_agents::Agent;
use rbg_engine::{GameModel, MoveList};
use rbg_net::client::{play, ClientConfig, ClientError, ClientReport};
use rbg_net::server::{serve, GameRecord, Logs, MatchReport, ServerConfig};
use rbg_net::wire::{Conn, MAX_MESSAGE_LEN};

pub fn game_text() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../games/ticTacToe.rbg");
    std::fs::read_to_string(path).expect("games/ticTacToe.rbg")
}

pub fn game() -> GameModel {
    GameModel::from_text(&game_text()).unwrap()
}

/// What the manager produced: its report and its three logs.
pub struct Served {
    pub report: MatchReport,
    pub moves_log: String,
    pub results_log: String,
    pub events: String,
}

/// A `Write` whose bytes can be read from another thread.
#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A manager's settings: `games` games with a deadline and preparation
/// time (seconds, `None`: none) and a wait limit.
pub fn config(
    games: usize,
    deadline: Option<f64>,
    preparation: Option<f64>,
    wait_limit: f64,
) -> ServerConfig {
    ServerConfig {
        game_text: game_text(),
        deadline,
        preparation,
        wait_limit,
        games,
    }
}

/// Starts a manager for tic-tac-toe on a free loopback port.
pub fn start_server(config: ServerConfig) -> (SocketAddr, JoinHandle<Served>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let handle = thread::spawn(move || {
        let game = GameModel::from_text(&config.game_text).unwrap();
        let (mut moves, mut results, events) = (Vec::new(), Vec::new(), Shared::default());
        let mut events_w = events.clone();
        let report = serve(
            &listener,
            &game,
            &config,
            &mut Logs {
                moves: Some(&mut moves),
                results: Some(&mut results),
                events: Some(&mut events_w),
            },
        )
        .unwrap();
        let events = String::from_utf8(events.0.lock().unwrap().clone()).unwrap();
        Served {
            report,
            moves_log: String::from_utf8(moves).unwrap(),
            results_log: String::from_utf8(results).unwrap(),
            events,
        }
    });
    (addr, handle)
}

/// Runs our client with `agent` on an already connected stream.
pub fn client(
    stream: TcpStream,
    mut agent: Box<dyn Agent<GameModel>>,
) -> JoinHandle<Result<ClientReport, ClientError>> {
    thread::spawn(move || play(stream, agent.as_mut(), &ClientConfig::default()))
}

pub fn connect(addr: SocketAddr) -> TcpStream {
    TcpStream::connect(addr).unwrap()
}

/// Connects, then waits a little so that the next connection comes later.
pub fn connect_first(addr: SocketAddr) -> TcpStream {
    let s = connect(addr);
    thread::sleep(Duration::from_millis(50));
    s
}

fn soon() -> Option<Instant> {
    Some(Instant::now() + Duration::from_secs(10))
}

/// A hand-driven client: the raw stream and its framing.
pub struct Script {
    pub conn: Conn,
    pub raw: TcpStream,
}

impl Script {
    pub fn new(stream: TcpStream) -> Script {
        Script {
            raw: stream.try_clone().unwrap(),
            conn: Conn::new(stream).unwrap(),
        }
    }
    /// The next message; `None` when the manager closed the connection.
    pub fn recv(&mut self) -> Option<String> {
        self.conn.recv(MAX_MESSAGE_LEN, soon()).ok()
    }
    /// Receives the three preparation messages (time, game text, player
    /// number) without answering.
    pub fn preparation(&mut self) -> (String, String, String) {
        let prep = self.recv().unwrap();
        let text = self.recv().unwrap();
        let num = self.recv().unwrap();
        (prep, text, num)
    }
    /// Receives the preparation messages and answers `ready`.
    pub fn handshake(&mut self) -> (String, String, String) {
        let got = self.preparation();
        self.conn.send("ready").unwrap();
        got
    }
    pub fn send_raw(&mut self, bytes: &[u8]) {
        self.raw.write_all(bytes).unwrap();
    }
    /// Everything received until the manager closes the connection.
    pub fn rest(&mut self) -> Vec<String> {
        std::iter::from_fn(|| self.recv()).collect()
    }
}

/// Replays the moves log through the engine: every move is legal, and the
/// games that were not forfeited end with the recorded scores and depth.
pub fn replay(moves_log: &str, games: &[GameRecord]) {
    let game = game();
    let mut r = game.reasoner();
    let mut moves = MoveList::default();
    let mut state = game.initial_state();
    let mut depth = 0;
    let mut played = 0;
    for line in moves_log.lines() {
        if line == "reset" {
            let g = &games[played];
            assert_eq!(depth, g.depth, "depth of game {played}");
            if g.forfeit.is_none() {
                assert!(r.is_terminal(&state).unwrap(), "game {played} ended early");
                assert_eq!(game.scores(&state), g.scores, "scores of game {played}");
            }
            played += 1;
            state = game.initial_state();
            depth = 0;
            continue;
        }
        let m = game.parse_move(line).unwrap();
        r.legal_moves(&state, &mut moves).unwrap();
        assert!(moves.iter().any(|x| x == m.apps()), "illegal {line:?}");
        r.apply(&mut state, m.apps()).unwrap();
        depth += 1;
    }
    assert_eq!(played, games.len(), "one reset per game");
}

pub fn is_tic_tac_toe_result(scores: &[i64]) -> bool {
    [[100, 0], [0, 100], [50, 50]].iter().any(|w| w == scores)
}
