//! The manager and clients over loopback in one process: whole games with
//! their logs, late moves and `ready` messages (accepted and counted), and
//! connections beyond the seats. Faults are in `faults.rs`.

mod common;

use std::net::TcpStream;
use std::sync::{Arc, Barrier};
use std::thread;
use std::time::{Duration, Instant};

use common::*;
use rbg_agents::{Agent, RandomAgent};

use rbg_engine::{GameModel, ModApp, MoveList, State};
use rbg_net::wire::parse_seconds;

#[test]
fn full_games_to_the_end_with_logs() {
    let (addr, server) = start_server(config(3, Some(5.0), Some(5.0), 10.0));
    let x = client(connect_first(addr), Box::new(RandomAgent::new(1)));
    let o = client(connect(addr), Box::new(RandomAgent::new(2)));
    let served = server.join().unwrap();
    let (x, o) = (x.join().unwrap().unwrap(), o.join().unwrap().unwrap());

    let report = &served.report;
    assert_eq!(report.aborted, None);
    assert!(report.late_ready.is_empty());
    assert_eq!(report.refused, 0);
    assert_eq!(report.games.len(), 3);
    for g in &report.games {
        assert_eq!(g.forfeit, None);
        assert_eq!(g.overruns, [0, 0]);
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
    // events: the seats, nothing else
    let events: Vec<&str> = served.events.lines().collect();
    assert_eq!(events.len(), 2, "{}", served.events);
    assert!(events[0].starts_with("seat 1 (cross) taken by 127.0.0.1:"));
    assert!(events[1].starts_with("seat 2 (nought) taken by 127.0.0.1:"));
}

/// Sleeps `nap` before its first move, then plays at random.
struct SlowOnce {
    inner: RandomAgent,
    nap: Option<Duration>,
}

impl Agent<GameModel> for SlowOnce {
    fn name(&self) -> String {
        "slow-once".into()
    }
    fn new_game(&mut self, game: &GameModel, state: &State) {
        Agent::<GameModel>::new_game(&mut self.inner, game, state);
    }
    fn select(
        &mut self,
        state: &State,
        moves: &MoveList,
        deadline: Option<Instant>,
    ) -> Result<usize, rbg_engine::GameError> {
        if let Some(nap) = self.nap.take() {
            thread::sleep(nap);
        }
        Agent::<GameModel>::select(&mut self.inner, state, moves, deadline)
    }
    fn observe(&mut self, before: &State, m: &[ModApp]) {
        Agent::<GameModel>::observe(&mut self.inner, before, m);
    }
}

#[test]
fn a_late_move_is_accepted_and_counted() {
    let (addr, server) = start_server(config(2, Some(0.3), Some(5.0), 10.0));
    let x = client(connect_first(addr), Box::new(RandomAgent::new(3)));
    let slow = SlowOnce {
        inner: RandomAgent::new(4),
        nap: Some(Duration::from_millis(600)),
    };
    let o = client(connect(addr), Box::new(slow));
    let served = server.join().unwrap();
    let (x, o) = (x.join().unwrap().unwrap(), o.join().unwrap().unwrap());
    let report = &served.report;
    assert_eq!(report.aborted, None);
    assert_eq!(report.games.len(), 2);
    let (first, second) = (&report.games[0], &report.games[1]);
    assert_eq!(
        (first.forfeit.clone(), second.forfeit.clone()),
        (None, None)
    );
    assert_eq!(
        (&first.overruns[..], &second.overruns[..]),
        (&[0, 1][..], &[0, 0][..])
    );
    // both games were played to their end, by both clients
    let finished = vec![first.scores.clone(), second.scores.clone()];
    assert!(finished.iter().all(|s| is_tic_tac_toe_result(s)));
    assert_eq!((&x.finished, &o.finished), (&finished, &finished));
    assert_eq!((x.interrupted, o.interrupted), (0, 0));
    // the original's notation for overruns
    let lines: Vec<&str> = served.results_log.lines().collect();
    assert!(lines[0].ends_with(" timeouts=0,1"), "{}", lines[0]);
    assert!(!lines[1].contains("timeouts"), "{}", lines[1]);
    assert!(
        served
            .events
            .contains("game 1, move 2: seat 2 (nought) answered after 0.6")
            && served.events.contains("past its 0.3 s deadline (accepted)"),
        "{}",
        served.events
    );
    replay(&served.moves_log, &report.games);
}

/// Plays tic-tac-toe at random by hand on `s` (after its `ready`) until the
/// manager closes the connection; returns the `reset`s seen.
fn play_by_hand(s: &mut Script, seed: u64) -> usize {
    let game = game();
    let mut r = game.reasoner();
    let mut state = game.initial_state();
    let mut agent = RandomAgent::new(seed);
    let mut moves = MoveList::default();
    let mut resets = 0;
    while let Some(msg) = s.recv() {
        if msg == "reset" {
            resets += 1;
            state = game.initial_state();
        } else if parse_seconds(&msg).is_some() {
            r.legal_moves(&state, &mut moves).unwrap();
            let i = Agent::<GameModel>::select(&mut agent, &state, &moves, None).unwrap();
            s.conn.send(&game.move_to_text(moves.get(i))).unwrap();
            r.apply(&mut state, moves.get(i)).unwrap();
        } else {
            r.apply(&mut state, game.parse_move(&msg).unwrap().apps())
                .unwrap();
        }
    }
    resets
}

#[test]
fn the_first_game_waits_for_a_late_ready_and_only_the_late_one_is_blamed() {
    // Seat 1 answers `ready` after 1.5 s of 1; seat 2 at once.
    let (addr, server) = start_server(config(2, Some(5.0), Some(1.0), 10.0));
    let mut x = Script::new(connect_first(addr));
    let o = client(connect(addr), Box::new(RandomAgent::new(8)));
    let (prep, _, num) = x.preparation();
    assert_eq!((prep.as_str(), num.as_str()), ("1.000000", "1"));
    thread::sleep(Duration::from_millis(1500));
    x.conn.send("ready").unwrap();
    // the first message after `ready` is our deadline: the game waited
    let resets = play_by_hand(&mut x, 9);
    let served = server.join().unwrap();
    let o = o.join().unwrap().unwrap();
    assert_eq!(resets, 2);
    let report = &served.report;
    assert_eq!(report.late_ready, [0]);
    assert_eq!(report.aborted, None);
    assert_eq!(report.games.len(), 2);
    for (g, line) in report.games.iter().zip(served.results_log.lines()) {
        assert_eq!(g.forfeit, None);
        assert_eq!(g.late_ready, [true, false]);
        assert!(line.ends_with(" timeouts=0(lateready),0"), "{line}");
    }
    assert_eq!(o.finished.len(), 2);
    assert!(
        served
            .events
            .contains("seat 1 (cross): `ready` arrived after 1.5"),
        "{}",
        served.events
    );
    assert!(!served.events.contains("seat 2 (nought): `ready`"));
    replay(&served.moves_log, &report.games);
}

#[test]
fn any_message_counts_as_ready_and_is_quoted() {
    let (addr, server) = start_server(config(1, Some(5.0), Some(5.0), 10.0));
    let mut x = Script::new(connect_first(addr));
    let o = client(connect(addr), Box::new(RandomAgent::new(10)));
    x.preparation();
    x.conn.send("READY!").unwrap();
    assert_eq!(play_by_hand(&mut x, 11), 1);
    let served = server.join().unwrap();
    o.join().unwrap().unwrap();
    assert!(served.report.late_ready.is_empty());
    assert_eq!(served.report.games[0].forfeit, None);
    assert!(
        served
            .events
            .contains("seat 1 (cross) sent \"READY!\" instead of `ready` (taken as `ready`)"),
        "{}",
        served.events
    );
}

#[test]
fn two_hundred_simultaneous_connections_two_seated_the_rest_closed() {
    let (addr, server) = start_server(config(2, Some(5.0), Some(5.0), 10.0));
    let t = Instant::now();
    let barrier = Arc::new(Barrier::new(200));
    let connecting: Vec<_> = (0..200)
        .map(|_| {
            let b = Arc::clone(&barrier);
            thread::spawn(move || {
                b.wait();
                TcpStream::connect(addr).unwrap()
            })
        })
        .collect();
    let streams: Vec<TcpStream> = connecting.into_iter().map(|h| h.join().unwrap()).collect();
    // The seated clients think 0.3 s before their first move, so the match
    // lasts until every extra connection has been refused.
    let clients: Vec<_> = streams
        .into_iter()
        .zip(0..)
        .map(|(s, i)| {
            let agent = SlowOnce {
                inner: RandomAgent::new(i),
                nap: Some(Duration::from_millis(300)),
            };
            client(s, Box::new(agent))
        })
        .collect();
    let served = server.join().unwrap();
    let reports: Vec<_> = clients
        .into_iter()
        .map(|c| c.join().unwrap().unwrap())
        .collect();
    assert!(t.elapsed() < Duration::from_secs(60), "{:?}", t.elapsed());
    let report = &served.report;
    assert_eq!(report.aborted, None);
    assert_eq!(report.games.len(), 2);
    assert!(report.games.iter().all(|g| g.forfeit.is_none()));
    // the two seated clients played both games; the others got nothing
    let players: Vec<_> = reports.iter().filter(|r| !r.finished.is_empty()).collect();
    assert_eq!(players.len(), 2);
    assert!(players.iter().all(|r| r.finished.len() == 2));
    assert!(reports
        .iter()
        .filter(|r| r.finished.is_empty())
        .all(|r| r.preparation.is_none() && r.interrupted == 0));
    assert_eq!(report.refused, 198);
    let closed = served
        .events
        .lines()
        .filter(|l| l.ends_with("closed: all 2 seat(s) are taken"))
        .count();
    assert_eq!(closed, 198, "{}", served.events);
}
