//! The manager and clients over loopback in one process: whole games,
//! clients that send garbage, time out or disconnect, and the logs.

use std::io::Write;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use rbg_agents::{Agent, RandomAgent};
use rbg_engine::{GameModel, ModApp, Move, MoveList, State};
use rbg_net::client::{play, ClientConfig, ClientError, ClientReport};
use rbg_net::server::{serve, Fault, Forfeit, GameRecord, Logs, MatchReport, ServerConfig};
use rbg_net::wire::{parse_seconds, Conn, MAX_MESSAGE_LEN};

fn game_text() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../games/ticTacToe.rbg");
    std::fs::read_to_string(path).expect("games/ticTacToe.rbg")
}

struct Served {
    report: MatchReport,
    moves_log: String,
    results_log: String,
}

/// Starts a manager for tic-tac-toe on a free loopback port.
fn start_server(
    games: usize,
    deadline: Option<f64>,
    preparation: Option<f64>,
) -> (SocketAddr, JoinHandle<Served>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let config = ServerConfig {
        game_text: game_text(),
        deadline,
        preparation,
        games,
    };
    let handle = thread::spawn(move || {
        let game = GameModel::from_text(&config.game_text).unwrap();
        let (mut moves, mut results) = (Vec::new(), Vec::new());
        let report = serve(
            &listener,
            &game,
            &config,
            &mut Logs {
                moves: Some(&mut moves),
                results: Some(&mut results),
            },
        )
        .unwrap();
        Served {
            report,
            moves_log: String::from_utf8(moves).unwrap(),
            results_log: String::from_utf8(results).unwrap(),
        }
    });
    (addr, handle)
}

/// Runs our client with `agent` on an already connected stream.
fn client(
    stream: TcpStream,
    mut agent: Box<dyn Agent>,
) -> JoinHandle<Result<ClientReport, ClientError>> {
    thread::spawn(move || play(stream, agent.as_mut(), &ClientConfig::default()))
}

fn connect(addr: SocketAddr) -> TcpStream {
    TcpStream::connect(addr).unwrap()
}

fn soon() -> Option<Instant> {
    Some(Instant::now() + Duration::from_secs(10))
}

/// A hand-driven client: the raw stream and its framing.
struct Script {
    conn: Conn,
    raw: TcpStream,
}

impl Script {
    fn new(stream: TcpStream) -> Script {
        Script {
            raw: stream.try_clone().unwrap(),
            conn: Conn::new(stream).unwrap(),
        }
    }
    fn recv(&mut self) -> Option<String> {
        self.conn.recv(MAX_MESSAGE_LEN, soon()).ok()
    }
    /// Receives the three preparation messages and answers `ready`.
    fn handshake(&mut self) -> (String, String, String) {
        let prep = self.recv().unwrap();
        let text = self.recv().unwrap();
        let num = self.recv().unwrap();
        self.conn.send("ready").unwrap();
        (prep, text, num)
    }
    fn send_raw(&mut self, bytes: &[u8]) {
        self.raw.write_all(bytes).unwrap();
    }
}

/// Replays the moves log through the engine: every move is legal, and the
/// games that were not forfeited end with the recorded scores and depth.
fn replay(moves_log: &str, games: &[GameRecord]) {
    let game = GameModel::from_text(&game_text()).unwrap();
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
                assert!(r.is_terminal(&state), "game {played} ended early");
                assert_eq!(game.scores(&state), g.scores, "scores of game {played}");
            }
            played += 1;
            state = game.initial_state();
            depth = 0;
            continue;
        }
        let m = game.parse_move(line).unwrap();
        r.legal_moves(&state, &mut moves);
        assert!(moves.iter().any(|x| x == m.apps()), "illegal {line:?}");
        r.apply(&mut state, m.apps());
        depth += 1;
    }
    assert_eq!(played, games.len(), "one reset per game");
}

fn is_tic_tac_toe_result(scores: &[i64]) -> bool {
    [[100, 0], [0, 100], [50, 50]].iter().any(|w| w == scores)
}

#[test]
fn full_games_to_the_end_with_logs() {
    let (addr, server) = start_server(3, Some(5.0), Some(5.0));
    let x = client(connect(addr), Box::new(RandomAgent::new(1)));
    thread::sleep(Duration::from_millis(50));
    let o = client(connect(addr), Box::new(RandomAgent::new(2)));
    let served = server.join().unwrap();
    let (x, o) = (x.join().unwrap().unwrap(), o.join().unwrap().unwrap());

    let report = &served.report;
    assert_eq!(report.aborted, None);
    assert!(report.late_ready.is_empty());
    assert_eq!(report.games.len(), 3);
    for g in &report.games {
        assert_eq!(g.forfeit, None);
        assert!(is_tic_tac_toe_result(&g.scores), "{:?}", g.scores);
        assert!((5..=9).contains(&g.depth), "depth {}", g.depth);
        // 9 + 8 + ... moves down the game, and the final state's 0
        let most: u64 = (9 - g.depth as u64 + 1..=9).sum();
        assert!(g.available_moves <= most && g.available_moves >= most - 4);
    }
    let finished: Vec<Vec<i64>> = report.games.iter().map(|g| g.scores.clone()).collect();
    assert_eq!((x.player, o.player), (0, 1));
    assert_eq!(x.preparation, Some(5.0));
    assert_eq!(x.finished, finished);
    assert_eq!(o.finished, finished);
    assert_eq!((x.interrupted, o.interrupted), (0, 0));

    // results log: `time depth available_moves score_x score_o`
    let lines: Vec<&str> = served.results_log.lines().collect();
    assert_eq!(lines.len(), 3);
    for (line, g) in lines.iter().zip(&report.games) {
        assert_eq!(*line, g.results_line());
        let f: Vec<&str> = line.split(' ').collect();
        assert_eq!(f.len(), 5, "{line}");
        assert!(f[0].parse::<f64>().unwrap() >= 0.0);
        assert_eq!(f[1], g.depth.to_string());
        assert_eq!(f[2], g.available_moves.to_string());
        assert_eq!(f[3..], [g.scores[0].to_string(), g.scores[1].to_string()]);
    }
    // moves log: every move, `reset` after each game
    let depth: usize = report.games.iter().map(|g| g.depth).sum();
    assert_eq!(served.moves_log.lines().count(), depth + 3);
    assert_eq!(served.moves_log.lines().last(), Some("reset"));
    replay(&served.moves_log, &report.games);
}

#[test]
fn garbage_and_illegal_moves_lose_and_the_match_carries_on() {
    let (addr, server) = start_server(3, Some(5.0), Some(5.0));
    let x = client(connect(addr), Box::new(RandomAgent::new(7)));
    thread::sleep(Duration::from_millis(50));
    let mut o = Script::new(connect(addr));
    let (prep, text, num) = o.handshake();
    assert_eq!(prep, "5.000000");
    assert_eq!(text, game_text());
    assert_eq!(num, "2");
    // Game 1: bytes that are not UTF-8; game 2: a vertex out of range and a
    // lone number; game 3: a well-formed move that is not legal (modifier 1
    // is the keeper's assignment).
    let answers: [&[u8]; 3] = [
        b"\xff\xfe\x00",
        b"99999999999999999999999 4 7\x00",
        b"1 1\x00",
    ];
    let mut deadlines = Vec::new();
    let mut forwarded = 0;
    let mut resets = 0;
    while let Some(msg) = o.recv() {
        if msg == "reset" {
            resets += 1;
        } else if parse_seconds(&msg).is_some() {
            deadlines.push(msg);
            o.send_raw(answers[resets]);
        } else {
            forwarded += 1;
        }
    }
    let served = server.join().unwrap();
    let x = x.join().unwrap().unwrap();
    assert_eq!(deadlines, ["5.000000"; 3]);
    assert_eq!((forwarded, resets), (3, 3));
    let report = &served.report;
    assert_eq!(report.aborted, None);
    let faults: Vec<Option<Forfeit>> = report.games.iter().map(|g| g.forfeit).collect();
    let lost = |fault| Some(Forfeit { player: 1, fault });
    assert_eq!(
        faults,
        [
            lost(Fault::Malformed),
            lost(Fault::Malformed),
            lost(Fault::Illegal)
        ]
    );
    for g in &report.games {
        assert_eq!(g.scores, [100, 0]);
        assert_eq!(g.depth, 1);
    }
    assert!(served
        .results_log
        .lines()
        .all(|l| l.ends_with(" 1 17 100 0 forfeit=2:malformed")
            || l.ends_with(" 1 17 100 0 forfeit=2:illegal")));
    assert_eq!((x.finished.len(), x.interrupted), (0, 3));
    replay(&served.moves_log, &report.games);
}

/// Sleeps through the deadline on its first move, then plays at random.
struct SlowOnce {
    inner: RandomAgent,
    slept: bool,
}

impl Agent for SlowOnce {
    fn name(&self) -> String {
        "slow-once".into()
    }
    fn new_game(&mut self, game: &GameModel, state: &State) {
        self.inner.new_game(game, state);
    }
    fn select(&mut self, state: &State, moves: &MoveList, deadline: Option<Instant>) -> Move {
        if !std::mem::replace(&mut self.slept, true) {
            thread::sleep(Duration::from_millis(700));
        }
        self.inner.select(state, moves, deadline)
    }
    fn observe(&mut self, before: &State, m: &[ModApp]) {
        self.inner.observe(before, m);
    }
}

#[test]
fn a_timeout_loses_the_game_and_the_late_move_is_discarded() {
    // The late move (after 0.7 s) arrives within the next game's deadline
    // window (0.5 s to 1 s), where it must be discarded.
    let (addr, server) = start_server(2, Some(0.5), Some(5.0));
    let x = client(connect(addr), Box::new(RandomAgent::new(3)));
    thread::sleep(Duration::from_millis(50));
    let slow = SlowOnce {
        inner: RandomAgent::new(4),
        slept: false,
    };
    let o = client(connect(addr), Box::new(slow));
    let served = server.join().unwrap();
    let (x, o) = (x.join().unwrap().unwrap(), o.join().unwrap().unwrap());
    let report = &served.report;
    assert_eq!(report.aborted, None);
    assert_eq!(report.games.len(), 2);
    let first = &report.games[0];
    assert_eq!(
        first.forfeit,
        Some(Forfeit {
            player: 1,
            fault: Fault::Timeout
        })
    );
    assert_eq!((first.scores.as_slice(), first.depth), (&[100, 0][..], 1));
    let second = &report.games[1];
    assert_eq!(second.forfeit, None);
    assert!(is_tic_tac_toe_result(&second.scores));
    assert_eq!(x.finished, std::slice::from_ref(&second.scores));
    assert_eq!(o.finished, std::slice::from_ref(&second.scores));
    assert_eq!((x.interrupted, o.interrupted), (1, 1));
    assert!(served
        .results_log
        .lines()
        .next()
        .unwrap()
        .ends_with(" forfeit=2:timeout"));
    replay(&served.moves_log, &report.games);
}

#[test]
fn a_disconnection_loses_the_game_and_ends_the_match() {
    let (addr, server) = start_server(3, Some(5.0), None);
    let x = client(connect(addr), Box::new(RandomAgent::new(5)));
    thread::sleep(Duration::from_millis(50));
    let mut o = Script::new(connect(addr));
    let (prep, _, _) = o.handshake();
    // no preparation limit: the original's `std::to_string(DBL_MAX)`
    assert_eq!(parse_seconds(&prep), Some(None));
    drop(o);
    let served = server.join().unwrap();
    let x = x.join().unwrap().unwrap();
    let report = &served.report;
    assert_eq!(report.games.len(), 1);
    let g = &report.games[0];
    assert_eq!(
        g.forfeit,
        Some(Forfeit {
            player: 1,
            fault: Fault::Disconnect
        })
    );
    assert_eq!(g.scores, [100, 0]);
    assert!(report.aborted.as_deref().unwrap().contains("player 2"));
    // the other client saw the connection close mid-game
    assert_eq!((x.finished.len(), x.interrupted), (0, 0));
    assert_eq!(served.moves_log.lines().last(), Some("reset"));
    assert_eq!(served.results_log.lines().count(), 1);
}

#[test]
fn an_endless_message_is_cut_off() {
    let (addr, server) = start_server(2, Some(5.0), Some(5.0));
    let mut x = Script::new(connect(addr));
    thread::sleep(Duration::from_millis(50));
    let o = client(connect(addr), Box::new(RandomAgent::new(6)));
    x.handshake();
    let deadline = x.recv().unwrap();
    assert_eq!(deadline, "5.000000");
    // 2 MB without a NUL: more than any move may be
    let junk = vec![b'1'; 2 << 20];
    let _ = x.raw.write_all(&junk);
    let served = server.join().unwrap();
    let o = o.join().unwrap().unwrap();
    let report = &served.report;
    assert_eq!(report.games.len(), 1);
    assert_eq!(
        report.games[0].forfeit,
        Some(Forfeit {
            player: 0,
            fault: Fault::Disconnect
        })
    );
    assert_eq!(report.games[0].scores, [0, 100]);
    assert!(report.aborted.is_some());
    assert_eq!((o.finished.len(), o.interrupted), (0, 0));
}

#[test]
fn a_late_ready_is_skipped() {
    let (addr, server) = start_server(1, Some(5.0), Some(0.2));
    let x = client(connect(addr), Box::new(RandomAgent::new(8)));
    thread::sleep(Duration::from_millis(50));
    let mut o = Script::new(connect(addr));
    let prep = o.recv().unwrap();
    assert_eq!(prep, "0.200000");
    o.recv().unwrap();
    o.recv().unwrap();
    // x's move arrives while we are still "preparing"
    let first = o.recv().unwrap();
    let game = GameModel::from_text(&game_text()).unwrap();
    let mut r = game.reasoner();
    let mut state = game.initial_state();
    r.apply(&mut state, game.parse_move(&first).unwrap().apps());
    o.conn.send("ready").unwrap();
    // then play the game out at random
    let mut agent = RandomAgent::new(9);
    let mut moves = MoveList::default();
    while let Some(msg) = o.recv() {
        if msg == "reset" {
            break;
        }
        if parse_seconds(&msg).is_some() {
            r.legal_moves(&state, &mut moves);
            let m = agent.select(&state, &moves, None);
            o.conn.send(&game.move_to_text(m.apps())).unwrap();
            r.apply(&mut state, m.apps());
        } else {
            r.apply(&mut state, game.parse_move(&msg).unwrap().apps());
        }
    }
    let served = server.join().unwrap();
    let x = x.join().unwrap().unwrap();
    assert_eq!(served.report.late_ready, [1]);
    let g = &served.report.games[0];
    assert_eq!(g.forfeit, None);
    assert_eq!(game.scores(&state), g.scores);
    assert_eq!(x.finished, std::slice::from_ref(&g.scores));
}
