//! The parser on bad descriptions: every error at the right place with a
//! helpful message, no panics, no stack overflows, no blow-ups.

use std::path::Path;
use std::time::Duration;

use proptest::prelude::*;
use rbg_lang::{parse_str, SourceFile};
use testkit::Reported;

/// Parses `text` on a 2 MiB stack (failing on a panic or a hang): the
/// error's `(line, column, message)`, or `None` if it is accepted.
fn diagnose(name: &str, text: String) -> Option<Reported> {
    testkit::on_small_stack(name, Duration::from_secs(5), move || {
        let e = parse_str(&text).err()?;
        let d = SourceFile::new("t.rbg", text.as_str()).diagnostic(e);
        Some((d.line, d.column, d.message().to_string()))
    })
}

/// Asserts the error is at `line:col` and its message contains `msg`.
#[track_caller]
fn check(text: &str, line: usize, col: usize, msg: &str) {
    let (l, c, m) = diagnose("check", text.to_string()).expect("an error");
    assert!(
        (l, c) == (line, col) && m.contains(msg),
        "expected {line}:{col} containing {msg:?}, got {l}:{c} {m:?}\n{text}"
    );
}

/// A description with the given board and rules; the board is on line 4 and
/// the rules on line 5.
fn game(board: &str, rules: &str) -> String {
    format!(
        "#players = white(100), black(100)\n#pieces = e, w, b\n#variables = v(3)\n#board = {board}\n#rules = {rules}\n"
    )
}

const RECT: &str = "rectangle(up, down, left, right, [e, w] [b, e])";

/// The corpus `tests/bad/`: each file's first line says where its error is
/// and what the message contains (`// expect LINE:COL: TEXT`).
#[test]
fn bad_corpus() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bad");
    testkit::check_bad_corpus(&dir, 58, diagnose);
}

#[test]
fn valid_reference() {
    assert!(parse_str(&game(RECT, "up")).is_ok());
}

#[test]
fn duplicate_and_clashing_names() {
    // player vs piece: at the second occurrence, with the first as secondary
    let text = "#players = a(1)\n#pieces = e, a\n#variables =\n#board = v[e]{}\n#rules = .";
    let e = parse_str(text).unwrap_err();
    assert_eq!(e.secondary.len(), 1);
    assert_eq!(e.secondary[0].0.start, 11);
}

#[test]
fn unclosed_brackets_point_where_the_closing_one_was_due() {
    let text = game(RECT, "(up ->white\n// a comment\n");
    let e = parse_str(&text).unwrap_err();
    let d = SourceFile::new("t.rbg", text.as_str()).diagnostic(e.clone());
    // Just after `white`, not at the comment or the end of the file.
    assert_eq!((d.line, d.column), (5, 21));
    assert_eq!(e.span.start, e.span.end);
    assert_eq!(
        e.secondary,
        [(
            rbg_lang::Span::new(text.rfind("(up").unwrap(), text.rfind("(up").unwrap() + 1),
            "this `(` is not closed".to_string()
        )]
    );
}

#[test]
fn byte_order_mark_is_skipped() {
    let text = format!("\u{feff}{}", game(RECT, "up"));
    assert!(parse_str(&text).is_ok());
    // The file drops it, so columns on the first line are unchanged.
    let file = SourceFile::from_bytes("t.rbg", "\u{feff}#players = a(1) @".as_bytes());
    let e = parse_str(&file.text).unwrap_err();
    let d = file.diagnostic(e);
    assert_eq!((d.line, d.column), (1, 17), "{d}");
    // Elsewhere it is an unexpected character.
    check(&game(RECT, "up \u{feff}"), 5, 13, "unexpected character");
}

#[test]
fn errors_are_std_errors() {
    let e = parse_str(&game(RECT, "sideways")).unwrap_err();
    assert_eq!(
        e.to_string(),
        "unknown identifier `sideways`, expected a direction (edge label) (at bytes 136..144)"
    );
    let boxed: Box<dyn std::error::Error> = Box::new(e);
    assert!(boxed.to_string().starts_with("unknown identifier"));
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    // 300,000 `(`: the 257th one is reported
    let deep = "(".repeat(300_000);
    check(
        &game(RECT, &deep),
        5,
        10 + 256,
        "nesting deeper than 256 levels",
    );
    let deep = format!("{}up{}", "(".repeat(300_000), ")".repeat(300_000));
    check(
        &game(RECT, &deep),
        5,
        10 + 256,
        "nesting deeper than 256 levels",
    );
    // patterns and mixed brackets
    let deep = "{? up ".repeat(300);
    check(
        &game(RECT, &deep),
        5,
        10 + 6 * 256,
        "nesting deeper than 256 levels",
    );
    // arithmetic parentheses count too, inside the rule's own nesting
    let deep = format!("({{$ {}v", "(".repeat(300_000));
    check(
        &game(RECT, &deep),
        5,
        10 + 3 + 255,
        "nesting deeper than 256 levels",
    );
    // long arithmetic chains make deep trees
    let chain = format!("[$ v = {}1]", "1 + ".repeat(100_000));
    check(
        &game(RECT, &chain),
        5,
        19 + 4 * 255,
        "arithmetic expression nested deeper than 256 levels",
    );
    // many stars do not nest
    let stars = format!("up{}", "*".repeat(300_000));
    assert!(parse_str(&game(RECT, &stars)).is_ok());
}

#[test]
fn repetition_blow_up_is_an_error() {
    check(
        &game(RECT, "((up^1000)^1000)^1000"),
        5,
        26,
        "more than 4000000 actions",
    );
    check(
        &game(RECT, "up^2147483647"),
        5,
        12,
        "more than 4000000 actions",
    );
    // many separately large parts add up
    let many = "(up^1000)^1000 ".repeat(5);
    // (the error is at the action that goes over the limit: the fifth `up`)
    check(
        &game(RECT, &many),
        5,
        10 + 15 * 4 + 1,
        "more than 4000000 actions",
    );
    // patterns count
    check(
        &game(RECT, "({? up^2000}^2000)^2"),
        5,
        22,
        "more than 4000000 actions",
    );
}

const ALPHABET: &[&str] = &[
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    "?",
    "!",
    "$",
    "^",
    "*",
    "+",
    "-",
    "/",
    ",",
    ":",
    ".",
    "=",
    "==",
    "!=",
    "<",
    "<=",
    ">",
    ">=",
    "->",
    "->>",
    "0",
    "1",
    "7",
    "99999999999",
    "up",
    "down",
    "e",
    "w",
    "white",
    "v",
    "x",
    "rectangle",
    "hexagon",
    "cuboid",
];

fn soup() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(ALPHABET), 0..40).prop_map(|v| v.join(" "))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn token_soup_never_panics(
        players in soup(),
        pieces in soup(),
        vars in soup(),
        board in soup(),
        rules in soup(),
    ) {
        let text = format!(
            "#players = {players}\n#pieces = {pieces}\n#variables = {vars}\n#board = {board}\n#rules = {rules}\n"
        );
        let _ = parse_str(&text);
    }

    #[test]
    fn rule_soup_never_panics(rules in soup()) {
        let _ = parse_str(&game(RECT, &rules));
        let _ = parse_str(&game("v[e]{up: v, down: u} u[w]{left: v}", &rules));
    }

    #[test]
    fn board_soup_never_panics(board in soup()) {
        let _ = parse_str(&game(&format!("rectangle(up, down, left, right, {board})"), "up"));
        let _ = parse_str(&game(&format!("hexagon(up, down, left, right, x1, x2, {board})"), "up"));
        let _ = parse_str(&game(&format!("cuboid(up, down, left, right, x1, x2, {board})"), "up"));
    }
}
