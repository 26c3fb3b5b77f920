//! Progress bars on a terminal: `rbg` is run with its standard error on a
//! pseudo-terminal, and what it draws there is read with the time it came.

#![cfg(unix)]

use std::ffi::CStr;
use std::fs::{File, OpenOptions};
use std::io::Read;
use std::os::fd::FromRawFd;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// A pseudo-terminal: the side we read, and the path of the side the
/// program writes to.
fn pty() -> (File, String) {
    // SAFETY: plain libc calls on a descriptor we own; `ptsname` returns a
    // NUL-terminated string that is copied before the next call.
    unsafe {
        let fd = libc::posix_openpt(libc::O_RDWR | libc::O_NOCTTY);
        assert!(fd >= 0, "posix_openpt");
        assert_eq!(libc::grantpt(fd), 0, "grantpt");
        assert_eq!(libc::unlockpt(fd), 0, "unlockpt");
        let name = libc::ptsname(fd);
        assert!(!name.is_null(), "ptsname");
        let name = CStr::from_ptr(name).to_string_lossy().into_owned();
        (File::from_raw_fd(fd), name)
    }
}

/// What `rbg args` writes to standard error (a terminal), each chunk with
/// the time since the start; and its standard output.
fn on_terminal(args: &[&str]) -> (Vec<(Duration, String)>, String) {
    let (chunks, stdout, _) = timed_on_terminal(args);
    (chunks, stdout)
}

/// [`on_terminal`], with the time the program took (from before its start
/// to its end, so at least its own running time).
fn timed_on_terminal(args: &[&str]) -> (Vec<(Duration, String)>, String, Duration) {
    let (mut master, slave_path) = pty();
    let slave = OpenOptions::new()
        .read(true)
        .write(true)
        .open(&slave_path)
        .unwrap();
    let start = Instant::now();
    let child = Command::new(env!("CARGO_BIN_EXE_rbg"))
        .args(args)
        .env("TERM", "xterm")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(slave)
        .spawn()
        .unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        // Ends with an error (EIO) once the program has closed the terminal.
        while let Ok(n) = master.read(&mut buf) {
            if n == 0 {
                break;
            }
            let chunk = String::from_utf8_lossy(&buf[..n]).into_owned();
            if tx.send((start.elapsed(), chunk)).is_err() {
                break;
            }
        }
    });
    let out = child.wait_with_output().unwrap();
    let took = start.elapsed();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    // The reader sees EIO once the child is gone.
    let mut chunks = Vec::new();
    while let Ok(c) = rx.recv_timeout(Duration::from_secs(2)) {
        chunks.push(c);
    }
    (
        chunks,
        String::from_utf8_lossy(&out.stdout).into_owned(),
        took,
    )
}

fn game(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../games")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

#[test]
fn match_draws_its_bar_before_the_first_game_ends() {
    let ttt = game("ticTacToe.rbg");
    // One game of about 9 moves of 250 ms each.
    let (chunks, stdout) = on_terminal(&[
        "match",
        &ttt,
        "--agents",
        "flatmc:time=250ms,flatmc:time=250ms",
        "--games",
        "1",
    ]);
    let first = chunks
        .iter()
        .position(|(_, c)| c.contains("0/1 games"))
        .unwrap_or_else(|| panic!("no bar at 0/1: {chunks:?}"));
    // Drawn before the game ended (on a loaded machine the time it took
    // says nothing, the order does).
    let ended = chunks.iter().position(|(_, c)| c.contains("1/1 games"));
    assert!(ended.is_none_or(|e| first < e), "{chunks:?}");
    assert!(stdout.starts_with("match "), "{stdout}");
}

#[test]
fn perft_shows_progress_only_after_a_second_and_not_in_json() {
    let c4 = game("connect4.rbg");
    // Deeper until a run takes long enough to draw its bar; the time of a
    // run is measured on that run (the machine's load changes between runs).
    let mut depth = 5;
    let (chunks, stdout) = loop {
        let d = depth.to_string();
        let (chunks, stdout, took) = timed_on_terminal(&["perft", &c4, &d]);
        // Nothing is drawn in the first second of a run.
        if let Some((at, c)) = chunks.first() {
            assert!(*at >= Duration::from_secs(1), "depth {depth}: {at:?} {c:?}");
        }
        if chunks.iter().any(|(_, c)| c.contains(" subtrees, ")) {
            break (chunks, stdout);
        }
        assert!(chunks.is_empty(), "depth {depth}: {chunks:?}");
        assert!(
            took < Duration::from_millis(1500),
            "depth {depth} took {took:?} and drew no progress"
        );
        assert!(depth < 12, "depth 12 took only {took:?}");
        depth += 1;
    };
    assert!(
        stdout.starts_with(&format!("perft {c4} depth {depth}: ")),
        "{stdout}"
    );
    // The bar is cleared at the end.
    assert!(
        chunks.last().unwrap().1.ends_with("\r\u{1b}[2K"),
        "{chunks:?}"
    );
    // The same run with --json draws nothing.
    let d = depth.to_string();
    let (chunks, stdout) = on_terminal(&["perft", &c4, &d, "--json"]);
    assert!(chunks.is_empty(), "--json: {chunks:?}");
    let j: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(j["depth"].as_u64(), Some(depth as u64), "{stdout}");
}
