//! The translation's details (`hrg-language.md` §3, §4): value order and
//! serialisation, map encoding, the `%` quirk, natural order, function-valued
//! results, and the automaton's shape as seen through perft.

use hrg_lang::translate_str;
use rg_engine::perft::{perft, Counting};
use rg_engine::GameModel;

const HEAD: &str = "domain Player = x | o\ndomain Score = 0 | 1\n";

/// The RG text of `HEAD + body` (with `graph rules() { end() }` unless the
/// body has its own rules).
fn rg(body: &str) -> String {
    let mut text = format!("{HEAD}{body}\n");
    if !body.contains("graph rules") {
        text.push_str("graph rules() { end() }\n");
    }
    let game = translate_str(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    rg_lang::print::print_game(&game)
}

#[track_caller]
fn has(text: &str, line: &str) {
    assert!(
        text.lines().any(|l| l == line),
        "no line `{line}` in\n{text}"
    );
}

/// Perft counts at depths 1.. of an HRG game.
fn perfts(text: &str, depth: usize) -> Vec<u64> {
    let (_, checked) = hrg_lang::parse_str(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let game = GameModel::new(checked).unwrap();
    (1..=depth)
        .map(|d| perft(&game, d, Counting::Walks).unwrap().leaves)
        .collect()
}

#[test]
fn domain_values() {
    let t = rg("domain A = a | b\ndomain U = A | a | c\n\
                domain G = C(X, Y) where Y in 0..1, X in {a, b}\n\
                domain H = C(Y, Y) where Y in 0..1\ndomain L = C(x) where x in 0..1\n\
                domain N = S(I) where I in 8..11");
    has(&t, "type U = {a, b, a, c};");
    has(&t, "type G = {C__a_0, C__a_1, C__b_0, C__b_1};");
    has(&t, "type H = {C__0_0, C__0_1, C__1_0, C__1_1};");
    has(&t, "type L = {C__x};");
    has(&t, "type N = {S__8, S__9, S__10, S__11};");
    has(&t, "@integer 8 : S__8 S__9 S__10 S__11;");
}

#[test]
fn most_common_value_is_the_default() {
    let t = rg("domain A = a | b\ndomain N = S(I) where I in 8..11\n\
                f : N -> N\nf(S(I)) = if I < 10 then S(9) else S(10)\n\
                m : N -> A = { S(I) = a where I in 8..9; S(10) = b; S(11) = b }\n\
                d : N -> A = { :a; S(9) = a; S(8) = b }\nw : A -> A = { _ = b }\n\
                h : A -> A -> N\nh(a, X) = S(8)\nh(b, a) = S(9)\nh(b, b) = S(8)");
    has(
        &t,
        "const f: N -> N = { :S__9, S__10: S__10, S__11: S__10 };",
    );
    has(&t, "var m: N -> A = { :b, S__8: a, S__9: a };");
    has(&t, "var d: N -> A = { :a, S__8: b, S__9: a };");
    has(&t, "var w: A -> A = { :b };");
    // Ties go to the greatest RG text: `S__9` over `S__8`, then the map
    // `{ :S__9, ... }` over `{ :S__8 }`.
    has(
        &t,
        "const h: A -> A -> N = { :{ :S__9, b: S__8 }, a: { :S__8 } };",
    );
}

#[test]
fn arithmetic_and_order() {
    let t = rg(
        "domain A = a | b | c | d | e | f\ndomain R = 0 | 1 | 2 | 3 | 4 | yes | no\n\
                k : A -> R\nk(a) = (0 - 1) % 3\nk(b) = 10 % 3\n\
                k(c) = if 007 < 7 then yes else no\nk(d) = if 0 - 3 < 0 - 1 then yes else no\n\
                k(e) = if 9 < 10 then yes else no\nk(f) = if S(1) < S(1, 0) then yes else no",
    );
    has(&t, "const k: A -> R = { :yes, a: 2, b: 1, d: no };");
}

#[test]
fn functions_and_defaults() {
    let t = rg(
        "domain A = a | b\nh : A -> A -> A\nh(X) = pick\npick : A -> A\npick(X) = X\n\
                first : A -> A -> A\nfirst(X, X) = X\nv : A -> A -> Score\nn : A\ng : Goals",
    );
    // `pick` is placed first: `h`'s value names it.
    let pick = t.find("const pick").unwrap();
    assert!(pick < t.find("const h").unwrap(), "{t}");
    has(&t, "const h: A -> A -> A = { :pick };");
    has(&t, "var v: A -> A -> Score = { :{ :0 } };");
    has(&t, "var n: A = a;");
    has(&t, "const first: A -> A -> A = { :{ :b, a: a } };");
    has(&t, "var g: Goals = { :0 };");
}

#[test]
fn graphs_become_edges() {
    let t = rg(
        "domain A = a | b\ns : A\nreusable graph pickA(v: A) { s = v }\n\
                graph rules() { pickA(a) pickA(b) branch q in A { $ (q z) } $_ w end() }",
    );
    assert!(
        t.contains("type pickA_return_type = {pickA_call_1, pickA_call_"),
        "{t}"
    );
    has(&t, "var pickA_return: pickA_return_type = pickA_call_1;");
    has(&t, "var pickA_arg0_v: A = a;");
    has(&t, "@artificialTag w;");
    assert!(t.contains(": $ a__z;") && t.contains(": $ b__z;"), "{t}");
    assert!(t.contains(": s = pickA_arg0_v;"), "{t}");
    assert_eq!(t.matches(": pickA_return == pickA_call_").count(), 2, "{t}");
}

#[test]
fn walks_merge_where_the_reference_merges_them() {
    // Equal tags meeting at the join of a `branch` are one move; the same
    // tags ending at two `player` assignments are two.
    let merged = format!("{HEAD}graph rules() {{ player = x branch {{ $ a }} or {{ $ a }} or {{ $ b }} player = keeper end() }}");
    assert_eq!(perfts(&merged, 1), vec![2]);
    let apart = format!("{HEAD}graph rules() {{ player = x branch {{ $ a player = keeper }} or {{ $ a player = keeper }} end() }}");
    assert_eq!(perfts(&apart, 1), vec![2]);
}

#[test]
fn loops_repeat_and_while() {
    let game = format!(
        "{HEAD}domain N = 0 | 1 | 2 | 3\ninc : N -> N\ninc(X) = if X < 3 then X + 1 else 3\nc : N\n\
         graph rules() {{ loop {{ player = x branch {{ $ stay }} or {{ $ go c = inc(c) }} player = keeper \
         if c == 3 {{ end() }} }} }}"
    );
    assert_eq!(perfts(&game, 4), vec![2, 4, 8, 14]);
    // `repeat 3` runs its body three times; `break` leaves early.
    let game = format!(
        "{HEAD}graph rules() {{ repeat 3 {{ player = x branch {{ $ a }} or {{ $ b }} player = keeper }} end() }}"
    );
    assert_eq!(perfts(&game, 4), vec![2, 4, 8, 0]);
    let game = format!(
        "{HEAD}domain N = 0 | 1 | 2 | 3\ninc : N -> N\ninc(X) = if X < 3 then X + 1 else 3\nc : N\n\
         graph rules() {{ while c != 2 {{ player = x $ t c = inc(c) player = keeper }} end() }}"
    );
    assert_eq!(perfts(&game, 3), vec![1, 1, 0]);
}

#[test]
fn conditions() {
    // `||` without else: two parallel checks that merge at `then`.
    let game = format!(
        "{HEAD}domain A = a | b\ns : A\ngraph yes() {{ }}\n\
         graph rules() {{ player = x s = A(*) $$ s \
         check(s == a || s == a || reachable(yes())) player = keeper \
         if not(s == b) && true() {{ end() }} else {{ end() }} }}"
    );
    assert_eq!(perfts(&game, 1), vec![2]);
}

/// The texts of the first player's moves.
fn first_moves(text: &str) -> Vec<String> {
    let (_, checked) = hrg_lang::parse_str(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let game = GameModel::new(checked).unwrap();
    let mut r = game.reasoner();
    let mut s = game.initial_state();
    let mut moves = rg_engine::MoveList::default();
    r.complete_keeper(&mut s).unwrap();
    r.moves(&mut s, &mut moves).unwrap();
    let mut texts: Vec<String> = (0..moves.len())
        .map(|i| game.move_text(&moves, i))
        .collect();
    texts.sort();
    texts
}

#[test]
fn jumps() {
    // `return()` leaves the graph, `continue()` the iteration, `break()`
    // the loop.
    let game = format!(
        "{HEAD}graph pick() {{ branch {{ $ a return() }} or {{ $ b }} $ c }}\n\
         graph rules() {{ player = x pick() player = keeper end() }}"
    );
    assert_eq!(first_moves(&game), ["a", "b c"]);
    let game = format!(
        "{HEAD}graph rules() {{ player = x repeat 2 {{ branch {{ $ a continue() }} or {{ $ b }} $ c }} \
         player = keeper end() }}"
    );
    assert_eq!(first_moves(&game), ["a a", "a b c", "b c a", "b c b c"]);
    let game = format!(
        "{HEAD}graph rules() {{ player = x repeat 2 {{ branch {{ $ a break() }} or {{ $ b }} $ c }} \
         player = keeper end() }}"
    );
    assert_eq!(first_moves(&game), ["a", "b c a", "b c b c"]);
}

#[test]
fn branch_over_values_and_else_if() {
    let game = format!(
        "{HEAD}domain A = p | q | r\ns : A\n\
         graph rules() {{ player = x branch v in A {{ s = v }} \
         if s == p {{ $ one }} else if s == q {{ $ two }} else {{ $ three }} player = keeper end() }}"
    );
    assert_eq!(first_moves(&game), ["one", "three", "two"]);
}

/// Whether some line of `text` ends with `tail`.
fn ends(text: &str, tail: &str) -> bool {
    text.lines().any(|l| l.ends_with(tail))
}

#[test]
fn constant_arguments_are_read_as_constants() {
    // A non-reusable graph called with a constant reads the constant; the
    // argument is still assigned (it is part of the state), except in a
    // check, which starts at the body.
    let t = rg("s : Player\ngraph mark(p: Player) { s = p }\n\
                graph test(p: Player) { check(s == p) }\n\
                graph rules() { mark(o) check(reachable(test(o))) mark(s) end() }");
    assert!(ends(&t, ": mark_arg0_p = o;"), "{t}");
    assert!(ends(&t, ": s = o;"), "{t}");
    assert!(ends(&t, ": s == o;"), "{t}");
    assert!(!t.contains("test_arg0_p = "), "{t}");
    // ... and the check starts at the body's first edge.
    let start = t
        .lines()
        .find_map(|l| l.split("? ").nth(1)?.split(" ->").next())
        .unwrap_or_else(|| panic!("no check in\n{t}"));
    assert!(
        t.lines()
            .any(|l| l.starts_with(&format!("{start}, ")) && l.ends_with(": s == o;")),
        "{t}"
    );
    // Not constant: the variable.
    assert!(ends(&t, ": mark_arg0_p = s;"), "{t}");
    assert!(ends(&t, ": s = mark_arg0_p;"), "{t}");
    // A graph a reusable graph leads to keeps reading its variable (another
    // call may assign it while a copy runs).
    let t = rg("s : Player\ngraph mark(p: Player) { s = p }\n\
                reusable graph r() { mark(x) }\n\
                graph rules() { r() mark(o) end() }");
    assert!(ends(&t, ": mark_arg0_p = o;"), "{t}");
    assert!(
        !ends(&t, ": s = o;") && ends(&t, ": s = mark_arg0_p;"),
        "{t}"
    );
}

#[test]
fn comparisons_of_constants_are_decided_when_translated() {
    let game = format!(
        "{HEAD}graph tag(p: Player) {{ if p == x {{ $ ex }} else {{ $ other }} }}\n\
         graph rules() {{ player = x tag(x) tag(o) player = keeper end() }}"
    );
    assert_eq!(first_moves(&game), ["ex other"]);
    let t = rg_lang::print::print_game(&hrg_lang::translate_str(&game).unwrap());
    assert!(!t.contains("== x;") && !t.contains("!= x;"), "{t}");
    // The block never entered ends in a node of its own: one edge enters
    // the join (no visited check there).
    let game = format!(
        "{HEAD}graph tag(p: Player) {{ if p == x {{ $ ex }} else {{ $ other }} $ after }}\n\
         graph rules() {{ player = x tag(o) player = keeper end() }}"
    );
    let t = rg_lang::print::print_game(&hrg_lang::translate_str(&game).unwrap());
    let join = t
        .lines()
        .find_map(|l| l.strip_suffix(": $ after;")?.split(", ").next())
        .unwrap_or_else(|| panic!("{t}"));
    let entering = t
        .lines()
        .filter(|l| l.contains(&format!(", {join}:")))
        .count();
    assert_eq!(entering, 1, "{t}");
    // An unknown name is left to the RG checks.
    let bad = format!("{HEAD}graph rules() {{ check(nope == nope) end() }}");
    let kept = rg_lang::print::print_game(&hrg_lang::translate_str(&bad).unwrap());
    assert!(kept.contains("nope == nope"), "{kept}");
}
