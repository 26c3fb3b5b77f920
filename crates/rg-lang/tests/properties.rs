//! Property tests: the front end never panics on mangled input, and printing
//! any syntax tree the grammar can express parses back to an equal tree.

use proptest::prelude::*;
use rg_lang::ast::{
    Binding, Edge, Entry, Expr, Game, Label, Loc, Name, Pragma, Type, TypeDef, Value,
};
use rg_lang::parse::parse_game;
use rg_lang::print::print_game;

const BASE: &str = "type Player = {x, o};\ntype Score = {0, 50, 100};\ntype Pos = {a1, a2};\n\
    const other: Player -> Player = { x: o, :x };\nvar board: Pos -> Player = { :x };\nvar me: Player = x;\n\
    var pos: Pos = a1;\n@disjoint turn : t1 t2;\n@foo bar;\nbegin, turn: player = me;\nturn, t1: pos = Pos(*);\n\
    t1, t2: board[pos] == me;\nt2, t3: $$ pos;\nt3, t4: ? turn -> t1;\nt4, end: player = keeper;\n";

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// Deleting, inserting or replacing a few characters gives an answer
    /// (a game or a positioned error), never a panic.
    #[test]
    fn mangled_text_never_panics(edits in prop::collection::vec((0usize..400, 0u8..3, prop::sample::select(
        vec!['{', '}', '[', ']', '(', ')', ';', ':', ',', '=', '!', '?', '$', '@', '*', '-', '>', ' ', '\n', '/', 'a', '0', 'é'])), 1..6)) {
        let mut text: Vec<char> = BASE.chars().collect();
        for (at, op, c) in edits {
            let at = at % (text.len() + 1);
            match op {
                0 if at < text.len() => { text.remove(at); }
                1 => text.insert(at, c),
                _ if at < text.len() => text[at] = c,
                _ => {}
            }
        }
        let text: String = text.into_iter().collect();
        if let Err(e) = rg_lang::parse_str(&text) {
            prop_assert!(e.span.start as usize <= text.len());
            let d = rg_lang::SourceFile::new("t.rg", text.as_str()).diagnostic(e);
            prop_assert!(d.line >= 1);
        }
    }

    /// Printing then parsing gives the same tree.
    #[test]
    fn print_parse_round_trip(game in games()) {
        let text = print_game(&game);
        let back = parse_game(&text).map_err(|e| TestCaseError::fail(format!("{e:?}\n{text}")))?;
        prop_assert_eq!(&back, &game, "{}", text);
    }
}

fn name() -> impl Strategy<Value = Name> {
    prop::sample::select(vec![
        "a", "b", "x1", "0", "10", "_q", "T", "Player", "end", "begin", "ütf", "typ",
    ])
    .prop_map(Name::new)
}

fn ty() -> impl Strategy<Value = Type> {
    let atom = prop_oneof![
        name().prop_map(Type::Ref),
        prop::collection::vec(name(), 1..4).prop_map(|symbols| Type::Set {
            symbols,
            loc: Loc::default()
        }),
    ];
    prop::collection::vec(atom, 1..4).prop_map(|mut atoms| {
        let mut t = atoms.pop().unwrap();
        while let Some(a) = atoms.pop() {
            t = Type::Arrow(Box::new(a), Box::new(t));
        }
        t
    })
}

fn value() -> impl Strategy<Value = Value> {
    name()
        .prop_map(Value::Name)
        .prop_recursive(3, 12, 4, |inner| {
            prop::collection::vec((prop::option::of(name()), inner), 0..4).prop_map(|es| {
                Value::Map {
                    entries: es
                        .into_iter()
                        .map(|(key, value)| Entry { key, value })
                        .collect(),
                    loc: Loc::default(),
                }
            })
        })
}

fn expr() -> impl Strategy<Value = Expr> {
    let leaf = prop_oneof![
        name().prop_map(Expr::Ref),
        (name(), name()).prop_map(|(t, n)| Expr::Cast {
            ty: t,
            expr: Box::new(Expr::Ref(n)),
            loc: Loc::default()
        }),
    ];
    leaf.prop_recursive(3, 12, 2, |inner| {
        (inner.clone(), inner).prop_map(|(m, k)| m.at(k))
    })
}

fn label() -> impl Strategy<Value = Label> {
    prop_oneof![
        Just(Label::Skip),
        name().prop_map(Label::Tag),
        name().prop_map(Label::TagVariable),
        (expr(), expr()).prop_map(|(target, value)| Label::Assign { target, value }),
        (expr(), ty()).prop_map(|(target, ty)| Label::AssignAny { target, ty }),
        (expr(), expr(), any::<bool>()).prop_map(|(left, right, equal)| Label::Compare {
            left,
            right,
            equal
        }),
        (any::<bool>(), name(), name()).prop_map(|(positive, from, to)| Label::Reach {
            positive,
            from,
            to
        }),
    ]
}

fn pragma() -> impl Strategy<Value = Pragma> {
    prop_oneof![
        prop::collection::vec(name(), 1..3).prop_map(Pragma::Unique),
        (any::<bool>(), name(), prop::collection::vec(name(), 1..3)).prop_map(
            |(exhaustive, node, targets)| Pragma::Disjoint {
                exhaustive,
                node,
                targets
            }
        ),
        (
            prop::collection::vec(name(), 1..3),
            prop::collection::vec(name(), 0..3)
        )
            .prop_map(|(nodes, variables)| Pragma::Repeat { nodes, variables }),
        "[a-z ]{0,8}"
            .prop_filter("not a known pragma", |t| {
                let t = t.trim_start();
                !rg_lang::pragma::KNOWN.iter().any(|k| t.starts_with(k))
            })
            .prop_map(|text| Pragma::Unknown {
                text,
                loc: Loc::default()
            }),
    ]
}

fn games() -> impl Strategy<Value = Game> {
    let binding =
        || (name(), ty(), value()).prop_map(|(name, ty, value)| Binding { name, ty, value });
    let edge = (name(), name(), label()).prop_filter_map(
        "source reads as a declaration",
        |(from, to, label)| {
            (!["type", "const", "var"]
                .iter()
                .any(|k| from.text.starts_with(k)))
            .then(|| Edge {
                from,
                to,
                label,
                loc: Loc::default(),
            })
        },
    );
    (
        prop::collection::vec(
            (name(), ty()).prop_map(|(name, ty)| TypeDef { name, ty }),
            0..4,
        ),
        prop::collection::vec(binding(), 0..3),
        prop::collection::vec(binding(), 0..3),
        prop::collection::vec(edge, 0..6),
        prop::collection::vec(pragma(), 0..3),
    )
        .prop_map(|(types, constants, variables, edges, pragmas)| Game {
            types,
            constants,
            variables,
            edges,
            pragmas,
        })
}
