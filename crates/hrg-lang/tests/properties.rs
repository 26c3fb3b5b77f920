//! Property tests: the front end answers every input (a game or an error at
//! a position in the text), never panics, overflows its stack or hangs, on
//! mangled examples and on deeply nested or very long constructs.

use std::time::{Duration, Instant};

use proptest::prelude::*;

const BASE: &str = include_str!("data/base.hrg");
/// Texts that are mangled: a small game using most of HRG and two of the
/// library's games.
const BASES: [&str; 3] = [
    BASE,
    include_str!("../../../games/hrg/chess.hrg"),
    include_str!("../../../games/hrg/ur.hrg"),
];

/// Translates and checks `text` on a 2 MiB stack within seconds; the
/// error's byte offset, if any.
fn answer(text: String) -> Option<u32> {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            let start = Instant::now();
            let res = hrg_lang::parse_str(&text);
            let took = start.elapsed();
            assert!(took < Duration::from_secs(5), "took {took:?}:\n{text}");
            match res {
                Ok(_) => None,
                Err(e) => {
                    assert!(e.span.start as usize <= text.len());
                    let d = hrg_lang::SourceFile::new("t.hrg", text.as_str()).diagnostic(e);
                    assert!(d.line >= 1);
                    Some(d.error.span.start)
                }
            }
        })
        .expect("spawn")
        .join()
        .expect("no panic")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    /// Deleting, inserting or replacing a few characters or words gives an
    /// answer, never a panic.
    #[test]
    fn mangled_text_never_panics(base in 0usize..3, edits in prop::collection::vec((0usize..12000, 0u8..3, prop::sample::select(vec![
        "{", "}", "[", "]", "(", ")", ";", ":", ",", "=", "==", "!=", "<", "%", "-", "+", "&&", "||", "|",
        "$", "$$", "$_", "*", "->", "..", " ", "\n", "_", "a", "X", "0", "9", "é", "if", "then", "else",
        "in ", "where", "branch", "or", "loop", "repeat", "while", "graph", "reusable", "domain",
        "check(", "end()", "break()", "return()", "reachable(", "not(", "true()",
    ])), 1..6)) {
        let mut text = BASES[base].to_string();
        for (at, op, s) in edits {
            let mut at = at % (text.len() + 1);
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            match op {
                0 => {
                    let end = text[at..].char_indices().nth(1).map_or(text.len(), |(i, _)| at + i);
                    text.replace_range(at..end, "");
                }
                1 => text.insert_str(at, s),
                _ => {
                    let end = text[at..].find(|c: char| !c.is_alphanumeric()).map_or(text.len(), |i| at + i);
                    text.replace_range(at..end, s);
                }
            }
        }
        answer(text);
    }
}

#[test]
fn the_base_games_are_valid() {
    for base in BASES {
        assert_eq!(answer(base.to_string()), None);
    }
}

fn header() -> String {
    "domain Player = x | o\ndomain Score = 0 | 1\n".to_string()
}

#[test]
fn deep_and_long_constructs_are_answered() {
    let n = 100_000;
    let cases = [
        format!(
            "{}v : Player = {}x{}\n",
            header(),
            "(".repeat(n),
            ")".repeat(n)
        ),
        format!("{}v : Score = {}\n", header(), vec!["0"; n].join(" + ")),
        format!(
            "{}f : Player -> Player\nf(X) = if {} then x else o\n",
            header(),
            vec!["X == x"; n].join(" && ")
        ),
        format!(
            "{}f : Player -> Player\nf(X) = if {} then x else o\n",
            header(),
            vec!["X == x"; n].join(" || ")
        ),
        format!("{}v : Player = m{}\n", header(), "[x]".repeat(n)),
        format!("{}v : Player = f{}\n", header(), "(x)".repeat(n)),
        format!(
            "{}v : Player = {}x{}\n",
            header(),
            "C(".repeat(n),
            ")".repeat(n)
        ),
        format!("{}v : Player = {}\n", header(), "if x == x then ".repeat(n)),
        format!("{}v : {} = x\n", header(), vec!["Player"; n].join(" -> ")),
        format!("{}graph rules() {{ {} }}\n", header(), "loop { ".repeat(n)),
        format!(
            "{}graph rules() {{ {} end() {} }}\n",
            header(),
            "loop { ".repeat(n),
            "}".repeat(n)
        ),
        format!(
            "{}graph rules() {{ if x == x {{ }} {} end() }}\n",
            header(),
            "else if x == x { } ".repeat(n)
        ),
        format!(
            "{}graph rules() {{ check({}) end() }}\n",
            header(),
            vec!["x == x"; n].join(" && ")
        ),
        format!(
            "{}graph rules() {{ check({}x == x{}) end() }}\n",
            header(),
            "not(".repeat(n),
            ")".repeat(n)
        ),
        format!(
            "{}m : Player -> Score = {{ {}x = 0 {} }}\n",
            header(),
            "C(".repeat(n),
            ")".repeat(n)
        ),
        format!(
            "{}domain D = {}\n",
            header(),
            (0..n)
                .map(|i| format!("d{i}"))
                .collect::<Vec<_>>()
                .join(" | ")
        ),
        format!(
            "{}{}",
            header(),
            (0..n)
                .map(|i| format!("domain D{i} = D{}\n", i + 1))
                .collect::<String>()
        ),
        format!(
            "{}{}graph rules() {{ g0() end() }}\n",
            header(),
            (0..n)
                .map(|i| format!("graph g{i}() {{ g{}() }}\n", i + 1))
                .collect::<String>()
        ),
        format!(
            "{}{}graph rules() {{ g0() end() }}\n",
            header(),
            (0..n)
                .map(|i| format!("reusable graph g{i}() {{ g{}() }}\n", i + 1))
                .collect::<String>()
        ),
        format!(
            "{}{}",
            header(),
            (0..n)
                .map(|i| format!("f{i} : Player -> Player\nf{i}(X) = f{}(X)\n", i + 1))
                .collect::<String>()
        ),
        format!(
            "{}graph rules() {{ {} end() }}\n",
            header(),
            "$ a ".repeat(n)
        ),
    ];
    for (i, text) in cases.into_iter().enumerate() {
        let start = Instant::now();
        answer(text);
        eprintln!("case {i}: {:?}", start.elapsed());
    }
}
