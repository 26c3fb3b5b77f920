//! The corpus of bad descriptions in `tests/bad/`: every file must be
//! rejected by `rbg check` with exit code 1, quickly, with an error at the
//! stated `file:line:col` and message.

use std::process::Command;
use std::time::{Duration, Instant};

/// (file, line:col, part of the message)
const CASES: &[(&str, &str, &str)] = &[
    ("empty.rbg", "1:1", "the description is empty"),
    ("truncated.rbg", "5:1", "missing section `#rules`"),
    ("unknown.rbg", "5:10", "unknown identifier `foo`"),
    (
        "undefined.rbg",
        "5:10",
        "unknown identifier `undefinedMacro`",
    ),
    ("arity.rbg", "6:10", "macro `m` takes 1 argument, 2 given"),
    ("paste.rbg", "1:10", "invalid token paste"),
    ("unbalanced.rbg", "5:17", "expected `)`"),
    (
        "unclosed.rbg",
        "6:9",
        "expected `)`, `+` or an action, found the end of the #rules section",
    ),
    (
        "noargs.rbg",
        "6:10",
        "macro `turn` takes 1 argument but is used without `(`: write `turn(p)`",
    ),
    (
        "recursive.rbg",
        "5:17",
        "macro `loop` is used in its own definition: macros cannot be recursive",
    ),
    (
        "mutual.rbg",
        "5:13",
        "macro `pong` is defined after macro `ping`, which uses it",
    ),
    (
        "ragged.rbg",
        "4:46",
        "expected 2 squares as in the first line, found 1",
    ),
    ("hexagon.rbg", "4:43", "hexagon"),
    ("dupname.rbg", "2:14", "declared twice"),
    ("duplabel.rbg", "4:24", "two edges labelled `up`"),
    ("edge.rbg", "4:20", "names no vertex"),
    ("switch.rbg", "5:12", "expected a player"),
    ("overflow.rbg", "3:16", "number too large"),
    ("garbage.rbg", "3:6", "unexpected character"),
];

fn rbg_check(path: &str, engine: &str) -> (i32, String, Duration) {
    let start = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_rbg"))
        .args(["--engine", engine, "check"])
        .arg(path)
        .output()
        .expect("run rbg");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        start.elapsed(),
    )
}

#[test]
fn every_bad_file_is_rejected_at_its_position() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/bad");
    let mut failures = Vec::new();
    for ((file, pos, msg), engine) in CASES
        .iter()
        .flat_map(|c| ["interp", "native"].map(|e| (c, e)))
    {
        let path = format!("{dir}/{file}");
        let (code, stderr, took) = rbg_check(&path, engine);
        let first = stderr.lines().next().unwrap_or("");
        let want = format!("{path}:{pos}: error:");
        if code != 1 || !first.starts_with(&want) || !first.contains(msg) {
            failures.push(format!(
                "{file} ({engine}): exit {code}, first line {first:?}, want {want} .. {msg}"
            ));
        }
        if !stderr.contains('^') {
            failures.push(format!("{file}: no caret under the source line"));
        }
        if took > Duration::from_secs(5) {
            failures.push(format!("{file}: took {took:?}"));
        }
    }
    // Every file in the directory is in the table.
    let listed = std::fs::read_dir(dir).unwrap().count();
    assert_eq!(listed, CASES.len(), "tests/bad holds files not in CASES");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn exponential_macros_and_deep_nesting_fail_fast() {
    let dir = std::env::temp_dir().join(format!("rbg-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let head = "#players = a(1)\n#pieces = e\n#variables =\n#board = v1[e]{}\n";
    let mut blowup = String::from("#m0 = ->a\n");
    for i in 1..=48 {
        blowup.push_str(&format!("#m{i} = m{} m{}\n", i - 1, i - 1));
    }
    blowup.push_str(head);
    blowup.push_str("#rules = m48\n");
    let deep = format!("{head}#rules = {}->a", "(".repeat(300_000));
    for (name, text, pos) in [("blowup.rbg", blowup, "54:10"), ("deep.rbg", deep, "5:")] {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let (code, stderr, took) = rbg_check(path.to_str().unwrap(), "native");
        let want = format!("{}:{pos}", path.display());
        assert_eq!(code, 1, "{name}: {stderr}");
        assert!(stderr.starts_with(&want), "{name}: {stderr}");
        assert!(took < Duration::from_secs(5), "{name} took {took:?}");
    }
}

#[test]
fn unclosed_parenthesis_shows_where_it_was_opened() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/bad/unclosed.rbg");
    let (_, stderr, _) = rbg_check(path, "interp");
    // The caret is after `{}` on line 6; the `(` on line 5 is labelled.
    assert!(
        stderr.contains("5 │ #rules = ->a ( {e} [e]\n  │              - this `(` is not closed\n6 │   ->> {}\n  │         ^"),
        "{stderr}"
    );
}
