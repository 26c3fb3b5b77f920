//! Runs the built `rbg` binary on good and bad descriptions: check, expand,
//! perft, bench, serve and client.

use std::path::PathBuf;
use std::process::{Output, Stdio};

mod common;
use common::{rbg, run, temp, text};

const GOOD: &str = "\
// a one-square game: the only player puts a stone and wins
#players = solo(1)
#pieces = empty, stone
#variables =
#board = v[empty]{}
#rules = ->solo {empty} [stone] [$ solo=1] ->> {}
";

const GOOD_SUMMARY: &str =
    "ok players=1 pieces=2 variables=0 vertices=1 directions=0 actions=6 pattern_depth=0 straightness=2";

/// `[$ solo=1` is not closed: the error is on line 6, column 30 or so.
const BAD: &str = "\
// broken
#players = solo(1)
#pieces = empty, stone
#variables =
#board = v[empty]{}
#rules = ->solo {empty} [stone [$ solo=1] ->> {}
";

fn write(name: &str, text: &str) -> PathBuf {
    let path = temp(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn check_good_file() {
    let good = write("good.rbg", GOOD);
    let out = rbg().arg("check").arg(&good).output().unwrap();
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "stderr: {}", text(&out.stderr));
    assert_eq!(stdout, format!("{}: {GOOD_SUMMARY}\n", good.display()));
}

#[test]
fn check_good_stdin() {
    let out = run(&["check", "-"], GOOD);
    assert_eq!(out.status.code(), Some(0), "stderr: {}", text(&out.stderr));
    assert_eq!(text(&out.stdout), format!("<stdin>: {GOOD_SUMMARY}\n"));
}

#[test]
fn check_accepts_a_byte_order_mark() {
    let with_bom = format!("\u{feff}{GOOD}");
    let file = write("bom.rbg", &with_bom);
    let out = rbg().arg("check").arg(&file).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "stderr: {}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        format!("{}: {GOOD_SUMMARY}\n", file.display())
    );
    let out = run(&["check", "-"], &with_bom);
    assert_eq!(text(&out.stdout), format!("<stdin>: {GOOD_SUMMARY}\n"));
    // Columns on the first line do not count the mark.
    let out = run(&["check", "-"], "\u{feff}#players = solo(1) @");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).starts_with("<stdin>:1:20: error: unexpected character '@'"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn check_bad_file() {
    let bad = write("bad.rbg", BAD);
    let out = rbg().arg("check").arg(&bad).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let stderr = text(&out.stderr);
    let prefix = format!("{}:6:", bad.display());
    assert!(stderr.starts_with(&prefix), "stderr: {stderr}");
    assert!(stderr.contains(": error: "), "stderr: {stderr}");
    // the source line is shown with a caret
    assert!(stderr.contains("[stone [$ solo=1]"), "stderr: {stderr}");
    assert!(stderr.contains('^'), "stderr: {stderr}");
}

#[test]
fn check_bad_stdin() {
    let out = run(&["check", "-"], BAD);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(stderr.starts_with("<stdin>:6:"), "stderr: {stderr}");
}

#[test]
fn check_mixed_files_exit_1() {
    let good = write("mixed-good.rbg", GOOD);
    let bad = write("mixed-bad.rbg", BAD);
    let out = rbg().arg("check").arg(&good).arg(&bad).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    // the valid one still gets its summary line
    assert_eq!(
        text(&out.stdout),
        format!("{}: {GOOD_SUMMARY}\n", good.display())
    );
    assert!(text(&out.stderr).contains(&format!("{}:6:", bad.display())));
}

#[test]
fn check_missing_file() {
    let out = rbg()
        .args(["check", "/nonexistent/dir/game.rbg"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("/nonexistent/dir/game.rbg"));
}

#[test]
fn expand_prints_ll_rbg() {
    let out = run(&["expand", "-"], GOOD);
    assert_eq!(out.status.code(), Some(0), "stderr: {}", text(&out.stderr));
    let ll = text(&out.stdout);
    assert!(ll.contains("#board =\n  v[empty]{}\n"), "{ll}");
    // the printed text checks to the same summary
    let again = run(&["check", "-"], &ll);
    assert_eq!(text(&again.stdout), format!("<stdin>: {GOOD_SUMMARY}\n"));
}

#[test]
fn expand_bad_exit_1() {
    let out = run(&["expand", "-"], BAD);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
}

#[test]
fn repository_tic_tac_toe_checks() {
    let game = concat!(env!("CARGO_MANIFEST_DIR"), "/../../games/ticTacToe.rbg");
    let out = rbg().args(["check", game]).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "stderr: {}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains(": ok players=2 pieces=3 variables=0 vertices=9 directions=4"),
        "{stdout}"
    );
}

/// Starts `rbg serve` on a free port; returns the child and the port (read
/// from its first stderr line).
fn start_serve(extra: &[&str]) -> (std::process::Child, u16, std::process::ChildStderr) {
    use std::io::Read;
    let game = concat!(env!("CARGO_MANIFEST_DIR"), "/../../games/ticTacToe.rbg");
    let mut child = rbg()
        .args(["serve", game, "--port", "0", "--players", "2"])
        .args(extra)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let mut first = Vec::new();
    let mut byte = [0u8];
    while stderr.read(&mut byte).unwrap() == 1 && byte[0] != b'\n' {
        first.push(byte[0]);
    }
    let line = String::from_utf8(first).unwrap();
    let port = line
        .rsplit_once("127.0.0.1:")
        .and_then(|(_, rest)| rest.split(',').next())
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no port in {line:?}"));
    (child, port, stderr)
}

#[test]
fn serve_and_clients_play_with_logs() {
    let dir = temp("");
    let (moves, results) = (dir.join("moves.log"), dir.join("results.log"));
    let (mut server, port, _err) = start_serve(&[
        "--deadline",
        "2",
        "--games",
        "2",
        "--log-moves",
        moves.to_str().unwrap(),
        "--log-results",
        results.to_str().unwrap(),
    ]);
    let port = port.to_string();
    let client = |seed: &str| {
        rbg()
            .args([
                "client",
                "127.0.0.1",
                &port,
                "--agent",
                "random",
                "--seed",
                seed,
            ])
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let x = client("1");
    std::thread::sleep(std::time::Duration::from_millis(100));
    let o = client("2");
    let (x, o) = (x.wait_with_output().unwrap(), o.wait_with_output().unwrap());
    assert!(server.wait().unwrap().success());
    assert!(x.status.success() && o.status.success());
    assert!(text(&x.stderr).contains("player 1, 2 game(s) finished"));
    assert!(text(&o.stderr).contains("player 2, 2 game(s) finished"));
    let results = std::fs::read_to_string(results).unwrap();
    assert_eq!(results.lines().count(), 2);
    for line in results.lines() {
        let f: Vec<&str> = line.split(' ').collect();
        assert_eq!(f.len(), 5, "{line}");
        assert!(["100 0", "0 100", "50 50"].contains(&f[3..].join(" ").as_str()));
    }
    let moves = std::fs::read_to_string(moves).unwrap();
    assert_eq!(moves.lines().filter(|l| *l == "reset").count(), 2);
}

#[test]
fn serve_survives_a_client_that_disconnects() {
    use std::io::Read;
    let (mut server, port, mut err) = start_serve(&["--games", "3"]);
    let x = rbg()
        .args(["client", "127.0.0.1", &port.to_string()])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(100));
    // Player 2 reads the preparation messages and goes away.
    let mut o = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    let mut buf = [0u8; 4096];
    let mut nuls = 0;
    while nuls < 3 {
        let n = o.read(&mut buf).unwrap();
        assert!(n > 0);
        nuls += buf[..n].iter().filter(|&&b| b == 0).count();
    }
    drop(o);
    let status = server.wait().unwrap();
    // stopped cleanly (not killed by a signal), reporting the cut match
    assert_eq!(status.code(), Some(1));
    let mut rest = String::new();
    err.read_to_string(&mut rest).unwrap();
    assert!(
        rest.contains("game 1: seat 2 (nought) forfeits (disconnect): closed the connection\n"),
        "{rest}"
    );
    // the per-game line names its fields
    assert!(
        rest.contains("game 1: seconds=")
            && rest.contains(" depth=0 available_moves=0 scores: cross=100 nought=0; forfeit (disconnect) by seat 2 (nought): closed the connection\n"),
        "{rest}"
    );
    assert!(
        rest.ends_with("match stopped after 1 game(s): seat 2 (nought) forfeited game 1 (disconnect); a fault ends the match\n"),
        "{rest}"
    );
    let x = x.wait_with_output().unwrap();
    assert!(x.status.success(), "{}", text(&x.stderr));
}

#[test]
fn serve_gives_up_on_a_silent_client_after_the_wait_limit() {
    use std::io::Read;
    let (mut server, port, mut err) = start_serve(&["--wait-limit", "0.3"]);
    // Two clients that connect and never answer `ready`; a third is refused.
    let _x = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(100));
    let _o = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    let mut extra = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    let mut buf = [0u8; 16];
    assert_eq!(extra.read(&mut buf).unwrap_or(0), 0, "closed at once");
    let status = server.wait().unwrap();
    assert_eq!(status.code(), Some(1));
    let mut rest = String::new();
    err.read_to_string(&mut rest).unwrap();
    assert!(rest.contains("closed: all 2 seat(s) are taken\n"), "{rest}");
    assert!(
        rest.contains("game 1: seat 1 (cross) forfeits (timeout): sent no `ready` in time (0.3 s wait limit, no deadline)"),
        "{rest}"
    );
    assert!(
        rest.contains("seat 2 (nought) also failed before the first game (timeout)"),
        "{rest}"
    );
    let out = rbg()
        .args([
            "serve",
            "x.rbg",
            "--port",
            "0",
            "--players",
            "2",
            "--wait-limit",
            "0",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--wait-limit must be a positive number of seconds"));
}

#[test]
fn serve_rejects_a_wrong_player_count() {
    let game = concat!(env!("CARGO_MANIFEST_DIR"), "/../../games/ticTacToe.rbg");
    let out = rbg()
        .args(["serve", game, "--port", "0", "--players", "3"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("declares 2 player(s)"));
}

fn repository_game(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../games")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

fn json_of(out: &Output) -> serde_json::Value {
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn perft_counts_the_whole_tic_tac_toe_tree_on_any_number_of_threads() {
    let game = repository_game("ticTacToe.rbg");
    for threads in ["1", "2", "3"] {
        let out = rbg()
            .args(["perft", &game, "9", "--json", "--threads", threads])
            .output()
            .unwrap();
        let j = json_of(&out);
        assert_eq!(j["leaves"], 127872, "threads {threads}");
        assert_eq!(j["states"], 549946, "threads {threads}");
        assert_eq!(j["depth"], 9);
    }
    let out = rbg().args(["perft", &game, "2"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let line = text(&out.stdout);
    assert!(line.contains("depth 2: 72 leaves, 82 states in"), "{line}");
    assert!(line.ends_with("nodes/s)\n"), "{line}");
    let out = rbg()
        .args(["perft", &game, "2", "--threads", "0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
}

#[test]
fn every_command_reads_the_game_from_standard_input() {
    let ttt = std::fs::read_to_string(repository_game("ticTacToe.rbg")).unwrap();
    for (args, want) in [
        (&["check", "-"][..], "<stdin>: ok players=2"),
        (&["expand", "-"][..], "#board ="),
        (&["perft", "-", "2"][..], "perft - depth 2: 72 leaves"),
        (
            &["bench", "-", "--playouts", "3"][..],
            "bench -: 3 playouts",
        ),
        (
            &["match", "-", "--agents", "random,random", "--games", "1"][..],
            "match -: 1 games",
        ),
        (&["play", "-", "--agents", "random,random"][..], "result: "),
    ] {
        let out = run(args, &ttt);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert!(
            text(&out.stdout).contains(want),
            "{args:?}: {}",
            text(&out.stdout)
        );
    }
}

#[test]
fn bench_of_no_playouts_reports_no_rates() {
    let game = repository_game("ticTacToe.rbg");
    let out = rbg()
        .args(["bench", &game, "--playouts", "0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let s = text(&out.stdout);
    assert!(s.contains(": 0 playouts, 0 states in "), "{s}");
    assert!(s.ends_with(" s\n  no playouts: no rates\n"), "{s}");
    let j = json_of(
        &rbg()
            .args(["bench", &game, "--playouts", "0", "--json"])
            .output()
            .unwrap(),
    );
    assert_eq!(j["playouts"], 0);
    for key in ["playouts_per_s", "states_per_s", "avg_length", "avg_scores"] {
        assert!(j[key].is_null(), "{key}: {j}");
    }
}

#[test]
fn bench_is_reproducible_for_a_seed() {
    let game = repository_game("ticTacToe.rbg");
    let args = ["bench", &game, "--playouts", "200", "--seed", "3", "--json"];
    let a = json_of(&rbg().args(args).output().unwrap());
    let b = json_of(&rbg().args(args).output().unwrap());
    assert_eq!(a["playouts"], 200);
    for key in ["states", "avg_length", "avg_scores"] {
        assert_eq!(a[key], b[key], "{key}");
    }
    // Every tic-tac-toe game lasts 5 to 9 moves and ends 100:0, 0:100 or 50:50.
    let avg = a["avg_length"].as_f64().unwrap();
    assert!((5.0..=9.0).contains(&avg), "{avg}");
    let scores = a["avg_scores"].as_array().unwrap();
    let sum: f64 = scores.iter().map(|x| x.as_f64().unwrap()).sum();
    assert!((sum - 100.0).abs() < 1e-9, "{scores:?}");
}

#[test]
fn perft_and_bench_report_bad_descriptions() {
    let path = write("bad-perft.rbg", BAD);
    let p = path.to_string_lossy().into_owned();
    for args in [vec!["perft", &p, "3"], vec!["bench", &p, "--playouts", "1"]] {
        let out = rbg().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = text(&out.stderr);
        assert!(err.contains("bad-perft.rbg:6:"), "{err}");
    }
}
