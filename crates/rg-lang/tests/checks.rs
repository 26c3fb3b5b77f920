//! Accepted games: built-ins, the reference's quirks we keep, warnings.

use rg_lang::checked::{CLabel, Val};
use rg_lang::{parse_str, CheckedGame};

fn ok(text: &str) -> CheckedGame {
    parse_str(text)
        .unwrap_or_else(|e| panic!("{text}\n{e:?}"))
        .1
}

const HEAD: &str = "type Player = {x, y};\ntype Score = {0, 1};\n";

#[test]
fn smallest_game_and_builtins() {
    let g = ok("type Player = {x}; type Score = {0}; begin, end: player = keeper;");
    assert_eq!(g.user_variables(), 0);
    let names: Vec<&str> = g.variables.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(names, ["goals", "visible", "player"]);
    let zero = g.symbols.get("0").unwrap();
    assert_eq!(
        g.variables[g.goals].value,
        Val::Map {
            default: Box::new(Val::Sym(zero)),
            entries: vec![]
        }
    );
    assert_eq!(g.variables[g.player].value, Val::Sym(g.keeper));
    let pos = g.types.symbols(g.typedefs["PlayerOrSystem"]).unwrap();
    assert_eq!(pos, [g.symbols.get("x").unwrap(), g.keeper, g.random]);
    assert_eq!(g.nodes[..2], ["begin".to_string(), "end".to_string()]);
}

#[test]
fn redeclared_builtins() {
    // The user's initial value of `player` is used; user-given types replace the built-ins.
    let g = ok(&format!(
        "{HEAD}var player: PlayerOrSystem = y;\ntype Bool = {{0, 1, 2}};\n\
        type PlayerOrSystem = {{x, y, keeper}};\nbegin, end: player = keeper;"
    ));
    assert_eq!(
        g.variables[g.player].value,
        Val::Sym(g.symbols.get("y").unwrap())
    );
    assert_eq!(g.types.symbols(g.typedefs["Bool"]).unwrap().len(), 3);
}

#[test]
fn names_resolve_constant_then_variable_then_symbol() {
    let g = ok(&format!(
        "{HEAD}type T = {{a, b}};\nconst a: T = b;\nvar v: T = a;\n\
        const m: T -> T = {{ a: a, :b }};\nbegin, s: v == a;\ns, end: player = keeper;"
    ));
    // `a` in the initial value is the constant (value b); the map key `a` stays the symbol.
    let b = g.symbols.get("b").unwrap();
    assert_eq!(g.variables[0].value, Val::Sym(b));
    let a = g.symbols.get("a").unwrap();
    assert_eq!(
        g.constants[1].value,
        Val::Map {
            default: Box::new(Val::Sym(b)),
            entries: vec![(a, Val::Sym(b))]
        }
    );
    assert!(matches!(
        &g.edges[0].label,
        CLabel::Compare(_, rg_lang::checked::CExpr::Const(0), true)
    ));
}

#[test]
fn any_assignment_keeps_declared_order_and_casts_vanish() {
    let g = ok(&format!(
        "{HEAD}type T = {{c, a, b}};\ntype M = T -> T;\nvar v: T = a;\nvar m: M = {{ :a }};\n\
        begin, s: v = T(*);\ns, t: M(m)[T(v)] = T(a);\nt, end: player = keeper;"
    ));
    let order: Vec<&str> = match &g.edges[0].label {
        CLabel::AssignAny(_, syms) => syms.iter().map(|&s| g.symbols.name(s)).collect(),
        l => panic!("{l:?}"),
    };
    assert_eq!(order, ["c", "a", "b"]);
    assert!(matches!(
        &g.edges[1].label,
        CLabel::Assign(
            rg_lang::checked::CExpr::Access(..),
            rg_lang::checked::CExpr::Sym(_)
        )
    ));
}

#[test]
fn recursive_checks_are_warnings() {
    let g = ok(&format!(
        "{HEAD}begin, a: ;\na, b: ? c -> d;\nb, end: player = keeper;\nc, a: ;"
    ));
    assert_eq!(g.warnings.len(), 1);
    assert!(g.warnings[0].message.contains("recursive check"));
    // Unknown nodes in checks are fine.
    let g = ok(&format!(
        "{HEAD}begin, a: ! nowhere -> else;\na, end: player = keeper;"
    ));
    assert!(g.warnings.is_empty());
}

#[test]
fn printed_games_check_the_same() {
    let text = format!(
        "{HEAD}type T = {{a, b}};\nconst m: T -> T = {{ a: b, :a }};\nvar v: T = a;\n\
        @disjoint begin : s;\nbegin, s: v = m[v];\ns, end: player = keeper;\n"
    );
    let (game, checked) = parse_str(&text).unwrap();
    let printed = rg_lang::print::print_game(&game);
    let (again, checked2) = parse_str(&printed).unwrap();
    assert_eq!(again, game);
    assert_eq!(checked.edges, checked2.edges);
    assert_eq!(checked.variables, checked2.variables);
}
