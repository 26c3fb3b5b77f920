//! The parser on bad descriptions: every error at the right place with a
//! helpful message, no panics, no stack overflows, no blow-ups.

use std::time::{Duration, Instant};

use proptest::prelude::*;
use rbg_lang::{parse_str, SourceFile};

/// Parses `text` on a 2 MiB stack and returns `(line, column, message)` of
/// the error, checking that it took less than `limit`.
fn err_within(text: &str, limit: Duration) -> (usize, usize, String) {
    let text = text.to_string();
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            let start = Instant::now();
            let res = parse_str(&text);
            let took = start.elapsed();
            assert!(took < limit, "took {took:?}");
            let e = match res {
                Ok(g) => panic!("expected an error, got {g:?}"),
                Err(e) => e,
            };
            let d = SourceFile::new("t.rbg", text.as_str()).diagnostic(e);
            (d.line, d.column, d.message().to_string())
        })
        .expect("spawn")
        .join()
        .expect("no panic")
}

fn err(text: &str) -> (usize, usize, String) {
    err_within(text, Duration::from_secs(5))
}

/// Asserts the error is at `line:col` and its message contains `msg`.
#[track_caller]
fn check(text: &str, line: usize, col: usize, msg: &str) {
    let (l, c, m) = err(text);
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

#[test]
fn valid_reference() {
    assert!(parse_str(&game(RECT, "up")).is_ok());
}

#[test]
fn duplicate_and_clashing_names() {
    check(
        "#players = a(1), a(2)\n#pieces = e\n#variables =\n#board = v[e]{}\n#rules = .",
        1,
        18,
        "`a` is declared twice",
    );
    // player vs piece: at the second occurrence, with the first as secondary
    let text = "#players = a(1)\n#pieces = e, a\n#variables =\n#board = v[e]{}\n#rules = .";
    check(
        text,
        2,
        14,
        "`a` is declared both as a player and as a piece",
    );
    let e = parse_str(text).unwrap_err();
    assert_eq!(e.secondary.len(), 1);
    assert_eq!(e.secondary[0].0.start, 11);
    // variable vs piece
    check(
        "#players = a(1)\n#pieces = e\n#variables = x(1), e(2)\n#board = v[e]{}\n#rules = .",
        3,
        20,
        "both as a piece and as a variable",
    );
    // edge label vs piece, explicit board
    check(
        &game("v[e]{w: v}", "."),
        4,
        15,
        "`w` is a piece, expected an edge label",
    );
    // generator labels: vs a variable, and twice
    check(
        &game("rectangle(up, v, left, right, [e])", "."),
        4,
        24,
        "`v` is declared both as a variable and as a direction",
    );
    check(
        &game("rectangle(up, down, up, right, [e])", "."),
        4,
        30,
        "`up` is declared twice",
    );
}

#[test]
fn numbers_too_large() {
    check(
        "#players = a(2147483648)\n#pieces = e\n#variables =\n#board = v[e]{}\n#rules = .",
        1,
        14,
        "number too large",
    );
    check(
        "#players = a(99999999999999999999999999)\n#pieces = e\n#variables =\n#board = v[e]{}\n#rules = .",
        1,
        14,
        "number too large",
    );
    check(&game(RECT, "up^2147483648"), 5, 13, "number too large");
    check(
        &game(RECT, "[$ v = 1 + 3000000000]"),
        5,
        21,
        "number too large",
    );
    check(&game(RECT, "{$ v < 3000000000}"), 5, 17, "number too large");
}

#[test]
fn unexpected_end_of_sections() {
    check(
        "#players =\n#pieces = e\n#variables =\n#board = v[e]{}\n#rules = .",
        1,
        1,
        "expected a player name, found the end of the #players section",
    );
    check(
        "#players = a(1)\n#pieces = e,\n#variables =\n#board = v[e]{}\n#rules = .",
        2,
        13,
        "expected a piece name, found the end of the #pieces section",
    );
    check(
        "#players = a(1)\n#pieces = e\n#variables =\n#board = v[e]{}\n#rules =",
        5,
        1,
        "found the end of the #rules section",
    );
    check(
        &game(RECT, "up (down"),
        5,
        18,
        "expected `)`, `+` or an action, found the end of the #rules section",
    );
    check(
        &game(RECT, "up +"),
        5,
        14,
        "expected an action or `(`, found the end of the #rules section",
    );
    check(
        &game(RECT, "{$ v <"),
        5,
        16,
        "found the end of the #rules section",
    );
    check(
        &game("rectangle(up, down, left, right, [e, w]", "up"),
        4,
        49,
        "found the end of the #board section",
    );
    check(
        &game("v[e]{up: v", "up"),
        4,
        20,
        "expected `,` or `}`, found the end of the #board section",
    );
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
    check(
        &game(RECT, "->white {? up {e}"),
        5,
        27,
        "expected `}`, `+` or an action, found the end of the #rules section",
    );
    check(
        &game(RECT, "(up ] ->white"),
        5,
        14,
        "expected `)`, `+` or an action, found `]`",
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
fn explicit_board_errors() {
    check(
        &game("v[e]{} u[e]{} v[w]{}", "."),
        4,
        24,
        "vertex `v` is defined twice",
    );
    check(
        &game("v[e]{up: v, down: v, up: v}", "."),
        4,
        31,
        "vertex `v` has two edges labelled `up`",
    );
    check(
        &game("v[e]{up: v, down: u}", "."),
        4,
        28,
        "`u`, which names no vertex",
    );
    check(
        &game("v[e]{} u[q]{}", "."),
        4,
        19,
        "unknown identifier `q`, expected a piece",
    );
    check(&game("v[e]{} u[e]", "."), 4, 21, "expected `{`");
    check(&game("", "."), 4, 1, "expected a vertex name");
}

#[test]
fn generator_errors() {
    check(
        &game("rectangle(up, down, left, right, [e, w] [e] [e, w])", "up"),
        4,
        50,
        "expected 2 squares as in the first line, found 1",
    );
    check(
        &game("rectangle(up, down, left, right, [e, w]) v[e]{}", "up"),
        4,
        51,
        "found `v`",
    );
    check(
        &game("rectangle(up, down, left, right, [e, x])", "up"),
        4,
        47,
        "unknown identifier `x`, expected a piece",
    );
    check(
        &game("rectangle(up, down, left, right, [ , ])", "up"),
        4,
        10,
        "no squares",
    );
    check(
        &game("hexagon(a, c, d, f, g, h, [e] [e, e] [e, e, e] [e, e, e])", "a"),
        4,
        57,
        "expected 4 or 2 squares (hexagon lines grow by one up to the longest line, then shrink by one), found 3",
    );
    check(
        &game("hexagon(a, c, d, f, g, h, [e] [e, e] [e] [e])", "a"),
        4,
        51,
        "expected `)` after a hexagon line of 1 square, found another line",
    );
    check(
        &game("hexagon(a, c, d, f, g, h, [e] [e, e, e])", "a"),
        4,
        40,
        "expected 2 squares (hexagon lines grow by one up to the longest line, then shrink by one), found 3",
    );
    check(
        &game("cuboid(u, d, l, r, f, k, [[e, e] [e, e]] [[e, e]])", "u"),
        4,
        51,
        "expected 2 lines as in the first layer, found 1",
    );
    check(
        &game(
            "cuboid(u, d, l, r, f, k, [[e, e] [e, e]] [[e, e] [e]])",
            "u",
        ),
        4,
        59,
        "expected 2 squares as in the first line, found 1",
    );
    check(
        &game("square(up, down, [e])", "up"),
        4,
        10,
        "unknown board generator `square`",
    );
}

#[test]
fn rule_name_errors() {
    check(
        &game(RECT, "up w"),
        5,
        13,
        "`w` is a piece, expected a direction",
    );
    check(
        &game(RECT, "up north"),
        5,
        13,
        "unknown identifier `north`, expected a direction",
    );
    check(&game(RECT, "{up}"), 5, 11, "`up` is a direction");
    check(
        &game(RECT, "[white]"),
        5,
        11,
        "`white` is a player, expected a piece",
    );
    check(
        &game(RECT, "->e"),
        5,
        12,
        "`e` is a piece, expected a player",
    );
    check(
        &game(RECT, "[$ e = 1]"),
        5,
        13,
        "`e` is a piece, expected a variable",
    );
    check(
        &game(RECT, "{$ up < 1}"),
        5,
        13,
        "`up` is a direction (edge label), expected a variable, player or piece",
    );
}

#[test]
fn rule_syntax_errors() {
    check(
        &game(RECT, "up {? down ->white}"),
        5,
        21,
        "switches are not allowed inside patterns",
    );
    check(
        &game(RECT, "{! up {? ->>}}"),
        5,
        19,
        "switches are not allowed inside patterns",
    );
    check(&game(RECT, "up^0"), 5, 13, "positive repetition count");
    check(
        &game(RECT, "up^down"),
        5,
        13,
        "expected a repetition count after `^`",
    );
    check(
        &game(RECT, "()"),
        5,
        11,
        "expected an action or `(`, found `)`",
    );
    check(
        &game(RECT, "+ up"),
        5,
        10,
        "expected an action or `(`, found `+`",
    );
    check(&game(RECT, "up)"), 5, 12, "found `)`");
    check(
        &game(RECT, "(up}"),
        5,
        13,
        "expected `)`, `+` or an action, found `}`",
    );
    check(&game(RECT, "{$ v = 1}"), 5, 15, "comparison");
    check(&game(RECT, "[$ v == 1]"), 5, 15, "expected `=`");
    check(&game(RECT, "[$ v = 1, e]"), 5, 20, "`e` is a piece");
    check(&game(RECT, "[e, $ v = 1]"), 5, 14, "expected a piece name");
    check(
        &game(RECT, "{$ (v + 1 < 2}"),
        5,
        20,
        "expected an arithmetic operator or `)`",
    );
    check(
        &game(RECT, "{$ v + < 2}"),
        5,
        17,
        "expected a number, a variable",
    );
    check(
        &game(RECT, "{e,}"),
        5,
        13,
        "expected a piece name, found `}`",
    );
    check(
        &game(RECT, "{%}"),
        5,
        11,
        "expected a piece name, `}`, `?`, `!` or `$`",
    );
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
