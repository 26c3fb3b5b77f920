//! Clients at fault: garbage bytes, malformed and illegal moves, a 50 MB
//! message without a NUL, silence with and without a deadline, a
//! disconnection mid-play. Each loses the game, is logged with the reason,
//! and ends the match: the manager closes every connection and never sends
//! `reset` in the middle of a play.

mod common;

use std::io::Write;
use std::thread;
use std::time::{Duration, Instant};

use common::*;
use rbg_agents::RandomAgent;
use rbg_net::client::ClientReport;
use rbg_net::server::{Fault, Forfeit};
use rbg_net::wire::parse_seconds;

/// What a faulty seat 2 leads to, with seat 1 played by our client.
struct Outcome {
    served: Served,
    /// Seat 1's client report.
    x: ClientReport,
    /// What seat 2 received after its fault.
    after: Vec<String>,
    /// Seconds from the deadline message to the end of the match.
    waited: f64,
}

/// Tic-tac-toe, 3 games asked for; seat 1 plays at random, seat 2 answers
/// its first deadline with `answer` (nothing when `None`).
fn seat_2_answers(answer: Option<&[u8]>, deadline: Option<f64>, wait_limit: f64) -> Outcome {
    let (addr, server) = start_server(config(3, deadline, Some(5.0), wait_limit));
    let x = client(connect_first(addr), Box::new(RandomAgent::new(7)));
    let mut o = Script::new(connect(addr));
    let (_, text, num) = o.handshake();
    assert_eq!((text, num.as_str()), (game_text(), "2"));
    // cross's move, then our deadline
    let first = o.recv().unwrap();
    assert!(parse_seconds(&first).is_none(), "{first}");
    let deadline_msg = o.recv().unwrap();
    assert!(parse_seconds(&deadline_msg).is_some(), "{deadline_msg}");
    let t = Instant::now();
    if let Some(bytes) = answer {
        o.send_raw(bytes);
    }
    let after = o.rest();
    let waited = t.elapsed().as_secs_f64();
    let served = server.join().unwrap();
    let x = x.join().unwrap().unwrap();
    Outcome {
        served,
        x,
        after,
        waited,
    }
}

/// Checks the common consequences of seat 2's fault in game 1: one game,
/// lost by seat 2 with `fault`, logged, the match over, no `reset` sent.
/// Returns the forfeit's detail.
fn assert_seat_2_forfeits(out: &Outcome, fault: Fault) -> String {
    let report = &out.served.report;
    assert_eq!(report.games.len(), 1, "a fault ends the match");
    let g = &report.games[0];
    let f = g.forfeit.clone().expect("a forfeit");
    assert_eq!((f.player, f.fault), (1, fault));
    assert_eq!((g.depth, g.scores.as_slice()), (1, &[100, 0][..]));
    assert!(report
        .aborted
        .as_deref()
        .unwrap()
        .starts_with("seat 2 (nought) forfeited game 1"));
    // nobody was sent `reset` mid-play: seat 2 got nothing more, seat 1's
    // client saw the connection close
    assert!(out.after.is_empty(), "{:?}", out.after);
    assert_eq!((out.x.finished.len(), out.x.interrupted), (0, 0));
    let line = out.served.results_log.lines().next().unwrap();
    assert!(
        line.ends_with(&format!(" 1 17 100 0 forfeit=2:{fault}")),
        "{line}"
    );
    let logged = format!("game 1: seat 2 (nought) forfeits ({fault}): {}", f.detail);
    assert!(out.served.events.contains(&logged), "{}", out.served.events);
    replay(&out.served.moves_log, &report.games);
    f.detail
}

#[test]
fn garbage_bytes_lose_and_are_quoted() {
    let out = seat_2_answers(Some(b"\xff\xfe\x01\x00"), Some(5.0), 10.0);
    let detail = assert_seat_2_forfeits(&out, Fault::Malformed);
    assert_eq!(
        detail,
        r#"sent "\xff\xfe\x01" as its move, which is not UTF-8"#
    );
}

#[test]
fn malformed_text_is_quoted_shortened() {
    let long = format!("{}\0", "9".repeat(100));
    let out = seat_2_answers(Some(long.as_bytes()), Some(5.0), 10.0);
    let detail = assert_seat_2_forfeits(&out, Fault::Malformed);
    assert_eq!(
        detail,
        format!(
            "sent \"{}...\" (100 bytes), not a move: expected pairs `vertex modifier`, found 1 number(s) in \"{}\"",
            "9".repeat(60),
            "9".repeat(100)
        )
    );
    let out = seat_2_answers(Some(b"99999999999999999999999 4\0"), Some(5.0), 10.0);
    let detail = assert_seat_2_forfeits(&out, Fault::Malformed);
    assert!(
        detail.starts_with("sent \"99999999999999999999999 4\", not a move: "),
        "{detail}"
    );
}

#[test]
fn an_illegal_move_loses() {
    // modifier 1 is the keeper's assignment, never a player's
    let out = seat_2_answers(Some(b"1 1\0"), None, 10.0);
    let detail = assert_seat_2_forfeits(&out, Fault::Illegal);
    assert_eq!(detail, "sent \"1 1\", not a legal move here");
}

#[test]
fn fifty_megabytes_without_a_nul_is_too_long_not_a_disconnection() {
    let (addr, server) = start_server(config(2, Some(5.0), Some(5.0), 10.0));
    let mut x = Script::new(connect_first(addr));
    let o = client(connect(addr), Box::new(RandomAgent::new(6)));
    x.handshake();
    assert_eq!(x.recv().unwrap(), "5.000000");
    // The manager stops reading after 1 MB and closes the connection; the
    // writer then fails, which is fine.
    let mut raw = x.raw.try_clone().unwrap();
    let writer = thread::spawn(move || {
        let chunk = vec![b'1'; 1 << 20];
        (0..50)
            .take_while(|_| raw.write_all(&chunk).is_ok())
            .count()
    });
    let served = server.join().unwrap();
    let written_mb = writer.join().unwrap();
    assert!(
        written_mb < 50,
        "the manager went on reading: {written_mb} MB"
    );
    let o = o.join().unwrap().unwrap();
    let report = &served.report;
    assert_eq!(report.games.len(), 1);
    let f = report.games[0].forfeit.clone().unwrap();
    assert_eq!((f.player, f.fault), (0, Fault::TooLong));
    assert_eq!(
        f.detail,
        "sent more than 1048576 bytes without a NUL (message too long)"
    );
    assert_eq!(report.games[0].scores, [0, 100]);
    assert!(report.aborted.is_some());
    assert_eq!((o.finished.len(), o.interrupted), (0, 0));
    assert!(served.events.contains("seat 1 (cross) forfeits (too-long)"));
}

#[test]
fn a_silent_client_with_a_deadline_loses_after_the_wait_limit() {
    let out = seat_2_answers(None, Some(0.2), 0.3);
    let detail = assert_seat_2_forfeits(&out, Fault::Timeout);
    assert_eq!(
        detail,
        "sent no move in time (0.2 s deadline + 0.3 s wait limit); the match cannot go on without it"
    );
    assert!((0.3..5.0).contains(&out.waited), "waited {} s", out.waited);
}

#[test]
fn a_silent_client_without_a_deadline_loses_after_the_wait_limit() {
    let out = seat_2_answers(None, None, 0.4);
    let detail = assert_seat_2_forfeits(&out, Fault::Timeout);
    assert_eq!(
        detail,
        "sent no move in time (0.4 s wait limit, no deadline); the match cannot go on without it"
    );
    assert!((0.25..5.0).contains(&out.waited), "waited {} s", out.waited);
}

#[test]
fn no_ready_without_a_preparation_limit_loses_after_the_wait_limit() {
    let (addr, server) = start_server(config(2, None, None, 0.4));
    let mut x = Script::new(connect_first(addr));
    let o = client(connect(addr), Box::new(RandomAgent::new(12)));
    let (prep, _, _) = x.preparation();
    assert_eq!(parse_seconds(&prep), Some(None), "no limit: DBL_MAX");
    let t = Instant::now();
    assert_eq!(x.rest(), Vec::<String>::new());
    assert!(t.elapsed() >= Duration::from_millis(250));
    let served = server.join().unwrap();
    let o = o.join().unwrap().unwrap();
    let g = &served.report.games[0];
    assert_eq!(served.report.games.len(), 1);
    let f = g.forfeit.clone().unwrap();
    assert_eq!((f.player, f.fault, g.depth), (0, Fault::Timeout, 0));
    assert!(f
        .detail
        .starts_with("sent no `ready` in time (0.4 s wait limit"));
    // the prompt seat is not reported late
    assert!(served.report.late_ready.is_empty());
    assert_eq!((o.finished.len(), o.interrupted), (0, 0));
}

#[test]
fn a_disconnection_mid_play_loses_and_ends_the_match() {
    let (addr, server) = start_server(config(3, Some(5.0), None, 10.0));
    let x = client(connect_first(addr), Box::new(RandomAgent::new(5)));
    let mut o = Script::new(connect(addr));
    o.handshake();
    // play one move (the centre, vertex 5), then go away on the next deadline
    let game = game();
    let mut r = game.reasoner();
    let mut state = game.initial_state();
    let mut played = 0;
    while let Some(msg) = o.recv() {
        if parse_seconds(&msg).is_none() {
            r.apply(&mut state, game.parse_move(&msg).unwrap().apps())
                .unwrap();
            continue;
        }
        if played == 1 {
            break;
        }
        let mut moves = rbg_engine::MoveList::default();
        r.legal_moves(&state, &mut moves).unwrap();
        let m = moves.get(0).to_vec();
        o.conn.send(&game.move_to_text(&m)).unwrap();
        r.apply(&mut state, &m).unwrap();
        played += 1;
    }
    drop(o);
    let served = server.join().unwrap();
    let x = x.join().unwrap().unwrap();
    let report = &served.report;
    assert_eq!(report.games.len(), 1);
    let g = &report.games[0];
    let f = g.forfeit.clone().unwrap();
    assert_eq!(
        f,
        Forfeit {
            player: 1,
            fault: Fault::Disconnect,
            detail: "closed the connection".into()
        }
    );
    assert_eq!((g.depth, g.scores.as_slice()), (3, &[100, 0][..]));
    // the other client saw the connection close mid-game, without `reset`
    assert_eq!((x.finished.len(), x.interrupted), (0, 0));
    assert_eq!(served.moves_log.lines().last(), Some("reset"));
    assert_eq!(served.results_log.lines().count(), 1);
    replay(&served.moves_log, &report.games);
}
