//! What the command's integration tests share: running `rbg`, reading its
//! output, the repository's games and a scratch folder.

// Each test file uses a part of this module.
#![allow(dead_code)]

use std::io::Write;
use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};

/// The `rbg` binary under test.
pub fn rbg() -> Command {
    Command::new(env!("CARGO_BIN_EXE_rbg"))
}

/// Runs `rbg args` with `input` on stdin.
pub fn run(args: &[&str], input: &str) -> Output {
    run_bytes(args, input.as_bytes())
}

/// Runs `rbg args` with the bytes `input` on stdin.
pub fn run_bytes(args: &[&str], input: &[u8]) -> Output {
    spawn(args, input).wait_with_output().unwrap()
}

/// Starts `rbg args`, writes `input` to its stdin and closes it; its
/// outputs are piped.
pub fn spawn(args: &[&str], input: &[u8]) -> Child {
    let mut child = rbg()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The command may exit before reading everything (broken pipe is fine).
    let _ = child.stdin.take().unwrap().write_all(input);
    child
}

/// Output bytes as text.
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The standard output of a run that must succeed (else the test fails
/// with both outputs).
pub fn ok(out: &Output) -> String {
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    stdout
}

/// The path of `games/NAME` in the repository.
pub fn game_path(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../games")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// `NAME` in this test process's scratch folder (created on demand).
pub fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rbg-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}
