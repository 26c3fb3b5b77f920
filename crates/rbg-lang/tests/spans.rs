//! Where actions were written (`ActionSpans`), and the stars `rbg check`
//! warns about: on hand-written cases and every game of the repository.

use rbg_lang::analysis::endless::endless_stars;
use rbg_lang::{parse_str_with_spans, Span};

/// The source text of every action, in `for_each_action` order.
fn action_texts(text: &str) -> Vec<String> {
    let (game, spans) = parse_str_with_spans(text).expect("valid");
    let mut n = 0;
    game.rules.for_each_action(&mut |_, _| n += 1);
    assert_eq!(spans.len(), n, "one span per action");
    spans
        .iter()
        .map(|s: &Span| text[s.start as usize..s.end as usize].to_string())
        .collect()
}

const HEAD: &str = "#players = a(1)\n#pieces = e, w\n#variables = v(3)\n\
    #board = rectangle(up, down, left, right, [e] [e])\n";

#[test]
fn spans_follow_the_actions_in_pre_order() {
    let t = format!("{HEAD}#rules = ->a {{e}} up [w] {{? down {{w}}}} [$ v = 1] ->a");
    assert_eq!(
        action_texts(&t),
        ["->", "{", "up", "w", "{", "down", "{", "v", "->"]
    );
    // `^n` repeats its operand's spans; `[e, w]` is two offs.
    let t = format!("{HEAD}#rules = ->a (up [e, w])^2 ->a");
    assert_eq!(
        action_texts(&t),
        ["->", "up", "e", "w", "up", "e", "w", "->"]
    );
    // An action from a macro body points into the macro.
    let t = format!("#m = [w]\n{HEAD}#rules = ->a m ->a");
    let (_, spans) = parse_str_with_spans(&t).unwrap();
    assert_eq!(spans[1].start, 6);
}

#[test]
fn repository_games_have_a_span_per_action_and_no_endless_star() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../games");
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "rbg") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let (game, spans) = parse_str_with_spans(&text).unwrap();
        let mut n = 0;
        game.rules.for_each_action(&mut |_, _| n += 1);
        assert_eq!(spans.len(), n, "{}", path.display());
        assert!(spans.iter().all(|s| s.end as usize <= text.len()));
        assert_eq!(endless_stars(&game), [], "{}", path.display());
        seen += 1;
    }
    assert!(seen >= 10, "only {seen} games in {dir}");
}
