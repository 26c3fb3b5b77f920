use super::parse_game;
use crate::ast::{DomainElement, Expr, StmtKind};

#[test]
fn declarations() {
    let g = parse_game(
        "domain P = x | o\ndomain C = K(R, S) where R in 0..2, S in {a, b} | off\n\
         f : P -> P\nf(x) = o\nf(o) = x\nb : C -> P = { _ = x }\nh : P\n\
         reusable graph g(a: P) { h = a }\ngraph rules() { g(x) }",
    )
    .unwrap();
    assert_eq!(g.domains.len(), 2);
    assert!(matches!(
        g.domains[1].elements[0],
        DomainElement::Generator { .. }
    ));
    assert_eq!(g.functions[0].cases.len(), 2);
    assert_eq!(g.variables.len(), 2);
    assert!(g.variables[1].init.is_none());
    assert!(g.graphs[0].reusable);
}

#[test]
fn precedence() {
    let g = parse_game("x : T = if a + b == c && d || e then f else g").unwrap();
    let Some(Expr::If(c, _, _, _)) = &g.variables[0].init else {
        panic!()
    };
    let Expr::Binary(op, l, _, _) = &**c else {
        panic!()
    };
    assert_eq!(op.text(), "||");
    let Expr::Binary(op, l, _, _) = &**l else {
        panic!()
    };
    assert_eq!(op.text(), "&&");
    let Expr::Binary(op, l, _, _) = &**l else {
        panic!()
    };
    assert_eq!(op.text(), "==");
    let Expr::Binary(op, _, _, _) = &**l else {
        panic!()
    };
    assert_eq!(op.text(), "+");
}

#[test]
fn statements() {
    let g = parse_game(
        "graph rules() { x = T(*) m[a][b] = c branch { $ a } or { $_ (b c) } \
         if a == b { end() } else if c != d { } else { } while a == b { break() } \
         repeat 2 { } repeat X in {a, b} { $$ y } branch r in R { } loop { } }",
    )
    .unwrap();
    let kinds: Vec<_> = g.graphs[0].body.iter().map(|s| &s.kind).collect();
    assert!(matches!(kinds[0], StmtKind::AssignAny { .. }));
    assert!(matches!(kinds[1], StmtKind::Assign { indices, .. } if indices.len() == 2));
    assert!(matches!(kinds[2], StmtKind::Branch(arms) if arms.len() == 2));
    assert!(matches!(
        kinds[3],
        StmtKind::If {
            otherwise: Some(_),
            ..
        }
    ));
    assert_eq!(kinds.len(), 9);
}

#[test]
fn if_with_parentheses_is_a_call() {
    let e = parse_game("graph rules() { if (a == b) { } }").unwrap_err();
    assert!(e.message.contains("found `{`"), "{}", e.message);
}
