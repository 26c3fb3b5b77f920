//! Improper descriptions, endless games and extreme arguments: every command
//! answers (an error located in the file, or a cut game) within bounded
//! time, never crashes or hangs (issue 12).

use std::io::Read;
use std::path::PathBuf;
use std::process::Stdio;
use std::time::{Duration, Instant};

mod common;
use common::{rbg, spawn};

/// A one-player game on a 2x2 board with the given rules, written to a file.
fn game(name: &str, rules: &str) -> String {
    let text = format!(
        "#players = a(1)\n#pieces = e, w\n#variables = v(100000)\n\
         #board = rectangle(up, down, left, right, [e, e] [e, e])\n#rules = {rules}\n"
    );
    let dir = std::env::temp_dir().join(format!("rbg-robust-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path: PathBuf = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

/// What a run gave: exit code (`None`: killed by a signal), stdout, stderr.
struct Run {
    code: Option<i32>,
    out: String,
    err: String,
}

/// Runs `rbg` with `input` on stdin; fails the test if it runs longer than
/// `limit` (it is then killed). Its outputs are read while it runs, so a
/// full pipe never stalls it.
fn run(args: &[&str], input: &str, limit: Duration) -> Run {
    let mut child = spawn(args, input.as_bytes());
    let drain = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut v = Vec::new();
            r.read_to_end(&mut v).ok();
            String::from_utf8_lossy(&v).into_owned()
        })
    };
    let out = drain(Box::new(child.stdout.take().unwrap()));
    let err = drain(Box::new(child.stderr.take().unwrap()));
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > limit {
            child.kill().ok();
            panic!("rbg {args:?} still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Run {
        code: status.code(),
        out: out.join().unwrap(),
        err: err.join().unwrap(),
    }
}

const LIMIT: Duration = Duration::from_secs(60);

/// Every command that plays the game, with random agents where needed,
/// under each engine.
fn playing_commands(path: &str) -> Vec<Vec<&str>> {
    let commands = [
        vec!["perft", path, "3"],
        vec!["perft", path, "3", "--threads", "2"],
        vec!["bench", path, "--seconds", "1"],
        vec!["bench", path, "--playouts", "1"],
        vec!["match", path, "--agents", "random", "--games", "2"],
        vec![
            "match",
            path,
            "--agents",
            "mcts:iterations=20",
            "--games",
            "1",
        ],
        vec!["play", path, "--agents", "random"],
        vec!["play", path, "--agents", "human"],
    ];
    ENGINES
        .iter()
        .flat_map(|e| {
            commands
                .iter()
                .map(move |c| [&["--engine", e], &c[..]].concat())
        })
        .collect()
}

/// The engines, as `--engine` names them.
const ENGINES: [&str; 2] = ["interp", "native"];

#[test]
fn an_endless_move_is_an_error_at_its_modifier() {
    let path = game("endless-move.rbg", "->a [e]*");
    let checked = run(&["check", &path], "", LIMIT);
    assert_eq!(checked.code, Some(0));
    assert!(
        checked.err.contains(
            "endless-move.rbg:5:15: warning: a move that reaches this `*` can go on forever"
        ),
        "{}",
        checked.err
    );
    for args in playing_commands(&path) {
        let r = run(&args, "1\n", LIMIT);
        assert_eq!(r.code, Some(1), "{args:?}: {}", r.err);
        assert!(
            r.err.contains(
                "endless-move.rbg:5:15: error: the description is not proper: a move can go on forever"
            ),
            "{args:?}: {}",
            r.err
        );
    }
    let record = game("empty-record.txt", "");
    let r = run(&["replay", &path, &record], "", LIMIT);
    assert_eq!(r.code, Some(1), "{}", r.err);
    assert!(r.err.contains("a move can go on forever"), "{}", r.err);
}

#[test]
fn an_endless_keeper_is_an_error_at_its_switch() {
    let path = game("endless-keeper.rbg", "(->> [e])*");
    let checked = run(&["check", &path], "", LIMIT);
    assert!(checked
        .err
        .contains("warning: the keeper's completion can go on forever"));
    for args in playing_commands(&path) {
        let r = run(&args, "", LIMIT);
        assert_eq!(r.code, Some(1), "{args:?}: {}", r.err);
        assert!(
            r.err.contains(
                "endless-keeper.rbg:5:11: error: the description is not proper: \
                 the keeper's completion goes on forever"
            ),
            "{args:?}: {}",
            r.err
        );
    }
}

#[test]
fn a_move_past_the_engines_limit_says_so() {
    let path = game("long-move.rbg", "->a [$ v = v + 1]* ->a");
    for e in ENGINES {
        let r = run(&["--engine", e, "perft", &path, "1"], "", LIMIT);
        assert_eq!(r.code, Some(1));
        assert!(
            r.err.contains(
                "long-move.rbg:5:17: error: a move applies more than 2000 modifiers, \
                 the engine's limit"
            ),
            "{e}: {}",
            r.err
        );
    }
}

#[test]
fn a_game_that_never_ends_is_cut_with_a_message() {
    let path = game("endless-game.rbg", "(->a)*");
    assert!(run(&["check", &path], "", LIMIT)
        .err
        .contains("warning: a game that reaches this `*` can go on forever"));
    let r = run(&["perft", &path, "10000"], "", LIMIT);
    assert_eq!(r.code, Some(0), "{}", r.err);
    assert!(
        r.out.contains("depth 10000: 1 leaves, 10001 states"),
        "{}",
        r.out
    );
    // `--seconds` holds inside a playout of the default maximum length.
    let t = Instant::now();
    let r = run(
        &[
            "bench",
            &path,
            "--seconds",
            "0.5",
            "--max-length",
            "100000000",
        ],
        "",
        LIMIT,
    );
    assert_eq!(r.code, Some(0), "{}", r.err);
    assert!(t.elapsed() < Duration::from_secs(20), "{:?}", t.elapsed());
    let r = run(
        &["bench", &path, "--playouts", "3", "--max-length", "1000"],
        "",
        LIMIT,
    );
    assert_eq!(r.code, Some(0), "{}", r.err);
    assert!(
        r.out
            .contains("3 playout(s) reached the maximum length of 1000 moves and were cut"),
        "{}",
        r.out
    );
    let r = run(
        &[
            "match",
            &path,
            "--agents",
            "random",
            "--games",
            "2",
            "--max-length",
            "500",
        ],
        "",
        LIMIT,
    );
    assert_eq!(r.code, Some(0), "{}", r.err);
    assert!(
        r.out
            .contains("2 game(s) reached the maximum length of 500 moves and were cut"),
        "{}",
        r.out
    );
    let r = run(
        &["play", &path, "--agents", "random", "--max-length", "20"],
        "",
        LIMIT,
    );
    assert_eq!(r.code, Some(0), "{}", r.err);
    assert!(
        r.out
            .contains("the game reached the maximum length of 20 moves and ends here"),
        "{}",
        r.out
    );
}

#[test]
fn numbers_are_checked() {
    let ttt = concat!(env!("CARGO_MANIFEST_DIR"), "/../../games/ticTacToe.rbg");
    // A huge depth costs only the depth reached.
    let r = run(&["perft", ttt, "99999999999"], "", LIMIT);
    assert_eq!(r.code, Some(0), "{}", r.err);
    assert!(r.out.contains("0 leaves, 549946 states"), "{}", r.out);
    for bad in ["1e30", "inf", "nan", "-1", "NaN", "1e10", "x"] {
        let r = run(&["bench", ttt, "--seconds", bad], "", LIMIT);
        assert_eq!(r.code, Some(2), "--seconds {bad}: {}", r.err);
        assert!(
            r.err
                .contains("expected a number of seconds from 0 to 1000000000"),
            "--seconds {bad}: {}",
            r.err
        );
    }
    for (cmd, extra) in [
        ("bench", vec![]),
        ("match", vec!["--agents", "random,random"]),
    ] {
        for bad in ["0", "-3", "1.5", "99999999999999999999999"] {
            let mut args = vec![cmd, ttt, "--max-length", bad];
            args.extend(&extra);
            let r = run(&args, "", LIMIT);
            assert_eq!(r.code, Some(2), "{args:?}: {}", r.err);
            assert!(
                r.err.contains("expected a number of moves from 1"),
                "{}",
                r.err
            );
        }
    }
    for bad in ["-1", "1.5", "99999999999999999999999"] {
        let r = run(&["perft", ttt, bad], "", LIMIT);
        assert_eq!(r.code, Some(2), "perft {bad}: {}", r.err);
        assert!(
            r.err.contains("expected a depth (a whole number from 0"),
            "{}",
            r.err
        );
    }
}

#[test]
fn a_served_improper_game_stops_the_manager_and_its_client_cleanly() {
    let path = game("served.rbg", "->a [e]*");
    let mut server = rbg()
        .args([
            "serve",
            &path,
            "--port",
            "0",
            "--players",
            "1",
            "--games",
            "3",
        ])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = server.stderr.take().unwrap();
    let mut first = Vec::new();
    let mut byte = [0u8];
    while err.read(&mut byte).unwrap() == 1 && byte[0] != b'\n' {
        first.push(byte[0]);
    }
    let line = String::from_utf8(first).unwrap();
    let port = line
        .rsplit_once("127.0.0.1:")
        .and_then(|(_, rest)| rest.split(',').next())
        .unwrap_or_else(|| panic!("no port in {line:?}"))
        .to_string();
    let client = run(&["client", "127.0.0.1", &port], "", LIMIT);
    assert_eq!(client.code, Some(1), "{}", client.err);
    assert!(
        client
            .err
            .contains("the game cannot go on: <game text>:5:15: error: "),
        "{}",
        client.err
    );
    assert_eq!(server.wait().unwrap().code(), Some(1));
    let mut rest = String::new();
    err.read_to_string(&mut rest).unwrap();
    assert!(
        rest.contains("match stopped after 1 game(s): the game cannot go on ")
            && rest.contains("a move can go on forever"),
        "{rest}"
    );
}

#[test]
fn network_times_are_checked() {
    let ttt = concat!(env!("CARGO_MANIFEST_DIR"), "/../../games/ticTacToe.rbg");
    for bad in ["0", "-1", "inf", "nan", "1e30"] {
        let r = run(
            &[
                "serve",
                ttt,
                "--port",
                "0",
                "--players",
                "2",
                "--deadline",
                bad,
            ],
            "",
            LIMIT,
        );
        assert_eq!(r.code, Some(2), "--deadline {bad}: {}", r.err);
        assert!(
            r.err
                .contains("must be a positive number of seconds, at most 1000000000"),
            "{}",
            r.err
        );
    }
    let r = run(&["client", "127.0.0.1", "1", "--margin", "-1"], "", LIMIT);
    assert_eq!(r.code, Some(2), "{}", r.err);
    assert!(r.err.contains("expected a number of seconds"), "{}", r.err);
}

/// Runs `rbg args` to its end; returns its exit code and its peak
/// resident memory in bytes (from `wait4`).
#[cfg(target_os = "linux")]
#[allow(clippy::zombie_processes)] // reaped by `wait4`
fn run_measured(args: &[&str]) -> (i32, u64) {
    let child = rbg()
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut status = 0;
    // SAFETY: `rusage` is plain data; `wait4` fills it for our own child,
    // which `Child` has not reaped (it is never waited on).
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: see above; `status` and `usage` are live locals.
    let pid = unsafe { libc::wait4(child.id() as i32, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as i32);
    (libc::WEXITSTATUS(status), usage.ru_maxrss as u64 * 1024)
}

/// Issue 12: boards up to 200x200 load in under 2 s and 500 MB. Here both
/// engines load one with two vertex-only expressions that would be tables
/// of vertices² targets; the time bound (10x) only catches a blow-up.
#[cfg(target_os = "linux")]
#[test]
fn a_200x200_board_loads_fast_in_little_memory() {
    let row = format!("[{}]", vec!["e"; 200].join(","));
    let text = format!(
        "#players = a(1), b(1)\n#pieces = e, w, x\n#variables =\n\
         #board = rectangle(up, down, left, right, {})\n\
         #rules = (->a (up + down + left + right)* {{e}} [w] \
         ->b (up* + down*)(left* + right*) {{e}} [x])*\n",
        vec![row; 200].join(" ")
    );
    let dir = std::env::temp_dir().join(format!("rbg-robust-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("big.rbg");
    std::fs::write(&path, text).unwrap();
    let path = path.to_str().unwrap();
    for e in ENGINES {
        let t = Instant::now();
        let (code, memory) = run_measured(&["--engine", e, "check", path]);
        assert_eq!(code, 0, "{e}");
        assert!(
            t.elapsed() < Duration::from_secs(20),
            "{e}: {:?}",
            t.elapsed()
        );
        assert!(memory < 500 << 20, "{e}: {} MB", memory >> 20);
    }
}
