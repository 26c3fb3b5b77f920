//! LL-RBG printer.
//!
//! [`print_game`] writes a checked [`Game`] as low-level RBG: the board as an
//! explicit graph (one vertex per line, in vertex order) and the rules with
//! the fewest parentheses that keep the expression tree. The output reads
//! back to an equal `Game`, and printing that again gives the same text.
//!
//! Layout of `#rules`: an expression that fits in [`WIDTH`] columns (after
//! its indentation) is written on one line; otherwise a concatenation puts
//! each part on its own line, a sum puts each summand on its own line
//! starting with `+`, and a parenthesised group or pattern opens its own
//! indented block.

use crate::ast::{Action, Arith, ArithOp, Game, Rule};
use std::fmt::Write;

/// Preferred maximum line width of the `#rules` section.
pub const WIDTH: usize = 100;

const INDENT: usize = 2;

/// Prints a game as LL-RBG text.
pub fn print_game(g: &Game) -> String {
    let mut out = String::new();
    let bounded = |v: &[crate::ast::BoundedName]| {
        v.iter()
            .map(|b| format!("{}({})", b.name, b.bound))
            .collect::<Vec<_>>()
            .join(", ")
    };
    writeln!(out, "#players = {}", bounded(&g.players)).unwrap();
    writeln!(out, "#pieces = {}", g.pieces.join(", ")).unwrap();
    if g.variables.is_empty() {
        out.push_str("#variables =\n");
    } else {
        writeln!(out, "#variables = {}", bounded(&g.variables)).unwrap();
    }
    out.push_str("#board =\n");
    let b = &g.board;
    for v in &b.vertices {
        let edges: Vec<String> = v
            .edges
            .iter()
            .map(|&(d, t)| format!("{}:{}", b.dirs[d as usize], b.vertices[t as usize].name))
            .collect();
        writeln!(
            out,
            "  {}[{}]{{{}}}",
            v.name,
            g.pieces[v.piece as usize],
            edges.join(",")
        )
        .unwrap();
    }
    out.push_str("#rules =\n");
    let p = Printer { g };
    p.block(&g.rules, INDENT, &mut out);
    out.push('\n');
    out
}

/// Prints a rule on one line (names resolved through `g`).
pub fn print_rule(g: &Game, r: &Rule) -> String {
    Printer { g }.flat(r)
}

/// Prints an arithmetic expression with minimal parentheses.
pub fn print_arith(g: &Game, e: &Arith) -> String {
    let mut s = String::new();
    Printer { g }.arith(e, &mut s);
    s
}

/// Where a rule is printed, which decides its parentheses.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ctx {
    /// Top level, a summand, or the body of a pattern/group.
    Free,
    /// A part of a concatenation.
    ConcatPart,
    /// The operand of a star.
    StarChild,
}

fn needs_parens(r: &Rule, ctx: Ctx) -> bool {
    match (r, ctx) {
        (_, Ctx::Free) => false,
        (Rule::Alt(_), _) => true,
        // `a b*` would bind the star to `b` only; a nested concatenation
        // (not normalised) is kept as a group.
        (Rule::Concat(_), _) => true,
        (Rule::Star(_), Ctx::StarChild) => true,
        (Rule::Star(_), Ctx::ConcatPart) => false,
        (Rule::Action(_), _) => false,
    }
}

struct Printer<'a> {
    g: &'a Game,
}

impl Printer<'_> {
    fn flat(&self, r: &Rule) -> String {
        let mut s = String::new();
        self.flat_into(r, Ctx::Free, &mut s);
        s
    }

    fn flat_into(&self, r: &Rule, ctx: Ctx, out: &mut String) {
        if needs_parens(r, ctx) {
            out.push('(');
            self.flat_into(r, Ctx::Free, out);
            out.push(')');
            return;
        }
        match r {
            Rule::Action(a) => self.action_flat(a, out),
            Rule::Concat(v) => {
                for (i, c) in v.iter().enumerate() {
                    if i > 0 {
                        out.push(' ');
                    }
                    self.flat_into(c, Ctx::ConcatPart, out);
                }
            }
            Rule::Alt(v) => {
                for (i, c) in v.iter().enumerate() {
                    if i > 0 {
                        out.push_str(" + ");
                    }
                    self.flat_into(c, Ctx::Free, out);
                }
            }
            Rule::Star(c) => {
                self.flat_into(c, Ctx::StarChild, out);
                out.push('*');
            }
        }
    }

    /// Writes `r` starting at the current position (already indented by
    /// `indent`); continuation lines are indented by `indent`.
    fn block(&self, r: &Rule, indent: usize, out: &mut String) {
        self.block_ctx(r, Ctx::Free, indent, out);
    }

    fn block_ctx(&self, r: &Rule, ctx: Ctx, indent: usize, out: &mut String) {
        let mut flat = String::new();
        self.flat_into(r, ctx, &mut flat);
        if indent + flat.len() <= WIDTH || self.atomic(r) {
            if out.ends_with('\n') || out.is_empty() {
                pad(out, indent);
            }
            out.push_str(&flat);
            return;
        }
        if out.ends_with('\n') || out.is_empty() {
            pad(out, indent);
        }
        if needs_parens(r, ctx) {
            out.push_str("(\n");
            pad(out, indent + INDENT);
            self.block_ctx(r, Ctx::Free, indent + INDENT, out);
            out.push('\n');
            pad(out, indent);
            out.push(')');
            return;
        }
        match r {
            Rule::Action(Action::Pattern { negated, rule }) => {
                out.push_str(if *negated { "{!\n" } else { "{?\n" });
                pad(out, indent + INDENT);
                self.block(rule, indent + INDENT, out);
                out.push('\n');
                pad(out, indent);
                out.push('}');
            }
            Rule::Action(a) => self.action_flat(a, out),
            Rule::Concat(v) => {
                for (i, c) in v.iter().enumerate() {
                    if i > 0 {
                        out.push('\n');
                        pad(out, indent);
                    }
                    self.block_ctx(c, Ctx::ConcatPart, indent, out);
                }
            }
            Rule::Alt(v) => {
                for (i, c) in v.iter().enumerate() {
                    if i > 0 {
                        out.push('\n');
                        pad(out, indent);
                        out.push_str("+ ");
                        self.block_ctx(c, Ctx::Free, indent + 2, out);
                    } else {
                        self.block_ctx(c, Ctx::Free, indent, out);
                    }
                }
            }
            Rule::Star(c) => {
                self.block_ctx(c, Ctx::StarChild, indent, out);
                out.push('*');
            }
        }
    }

    /// Actions other than patterns are never broken.
    fn atomic(&self, r: &Rule) -> bool {
        matches!(r, Rule::Action(a) if !matches!(a, Action::Pattern { .. }))
    }

    fn action_flat(&self, a: &Action, out: &mut String) {
        let g = self.g;
        match a {
            Action::Shift(d) => out.push_str(&g.board.dirs[*d as usize]),
            Action::On(ps) => {
                out.push('{');
                for (i, p) in ps.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(&g.pieces[*p as usize]);
                }
                out.push('}');
            }
            Action::Off(p) => {
                out.push('[');
                out.push_str(&g.pieces[*p as usize]);
                out.push(']');
            }
            Action::Assign(v, e) => {
                out.push_str("[$ ");
                out.push_str(g.var_name(*v));
                out.push('=');
                self.arith(e, out);
                out.push(']');
            }
            Action::Compare(l, op, r) => {
                out.push_str("{$ ");
                self.arith(l, out);
                out.push(' ');
                out.push_str(op.text());
                out.push(' ');
                self.arith(r, out);
                out.push('}');
            }
            Action::Switch(Some(p)) => {
                out.push_str("->");
                out.push_str(&g.players[*p as usize].name);
            }
            Action::Switch(None) => out.push_str("->>"),
            Action::Pattern { negated, rule } => {
                out.push_str(if *negated { "{! " } else { "{? " });
                self.flat_into(rule, Ctx::Free, out);
                out.push('}');
            }
            Action::Noop => out.push('.'),
        }
    }

    fn arith(&self, e: &Arith, out: &mut String) {
        match e {
            Arith::Num(n) => write!(out, "{n}").unwrap(),
            Arith::Var(v) => out.push_str(self.g.var_name(*v)),
            Arith::PieceCount(p) => out.push_str(&self.g.pieces[*p as usize]),
            Arith::Bin(l, op, r) => {
                let prec = precedence(*op);
                let lp = arith_precedence(l) < prec;
                let rp = arith_precedence(r) <= prec;
                self.arith_paren(l, lp, out);
                out.push_str(op.text());
                self.arith_paren(r, rp, out);
            }
        }
    }

    fn arith_paren(&self, e: &Arith, paren: bool, out: &mut String) {
        if paren {
            out.push('(');
            self.arith(e, out);
            out.push(')');
        } else {
            self.arith(e, out);
        }
    }
}

fn precedence(op: ArithOp) -> u8 {
    match op {
        ArithOp::Add | ArithOp::Sub => 1,
        ArithOp::Mul | ArithOp::Div => 2,
    }
}

fn arith_precedence(e: &Arith) -> u8 {
    match e {
        Arith::Bin(_, op, _) => precedence(*op),
        _ => 3,
    }
}

fn pad(out: &mut String, n: usize) {
    out.extend(std::iter::repeat_n(' ', n));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::{Board, BoundedName, CmpOp, Vertex};

    fn game(rules: Rule) -> Game {
        Game {
            players: vec![
                BoundedName {
                    name: "white".into(),
                    bound: 100,
                },
                BoundedName {
                    name: "black".into(),
                    bound: 100,
                },
            ],
            pieces: vec!["e".into(), "w".into(), "b".into()],
            variables: vec![BoundedName {
                name: "turn".into(),
                bound: 5,
            }],
            board: Board {
                dirs: vec!["right".into(), "left".into()],
                vertices: vec![
                    Vertex {
                        name: "a".into(),
                        piece: 1,
                        edges: vec![(0, 1)],
                    },
                    Vertex {
                        name: "b".into(),
                        piece: 0,
                        edges: vec![(1, 0), (0, 1)],
                    },
                ],
            },
            rules,
        }
    }

    fn act(a: Action) -> Rule {
        Rule::Action(a)
    }
    fn shift(d: u32) -> Rule {
        act(Action::Shift(d))
    }
    fn off(p: u32) -> Rule {
        act(Action::Off(p))
    }
    fn star(r: Rule) -> Rule {
        Rule::Star(Box::new(r))
    }
    fn bin(l: Arith, op: ArithOp, r: Arith) -> Arith {
        Arith::Bin(Box::new(l), op, Box::new(r))
    }

    #[test]
    fn sections_and_board() {
        let g = game(act(Action::Switch(Some(0))));
        let text = print_game(&g);
        assert_eq!(
            text,
            "#players = white(100), black(100)\n\
             #pieces = e, w, b\n\
             #variables = turn(5)\n\
             #board =\n  a[w]{right:b}\n  b[e]{left:a,right:b}\n\
             #rules =\n  ->white\n"
        );
    }

    #[test]
    fn rule_parentheses() {
        let r = Rule::concat(vec![
            act(Action::Switch(Some(0))),
            star(Rule::alt(vec![shift(0), shift(1)])),
            star(shift(0)),
            star(Rule::concat(vec![shift(0), off(2)])),
            Rule::alt(vec![
                Rule::concat(vec![shift(0), off(1)]),
                act(Action::On(vec![])),
            ]),
            star(star(shift(1))),
            act(Action::Pattern {
                negated: true,
                rule: Box::new(Rule::concat(vec![shift(0), act(Action::On(vec![0, 2]))])),
            }),
            act(Action::Noop),
            act(Action::Switch(None)),
        ]);
        let g = game(r.clone());
        assert_eq!(
            print_rule(&g, &r),
            "->white (right + left)* right* (right [b])* (right [w] + {}) (left*)* {! right {e,b}} . ->>"
        );
        // A sum at the top level has no parentheses.
        let r = Rule::alt(vec![shift(0), Rule::concat(vec![shift(1), off(0)])]);
        assert_eq!(print_rule(&g, &r), "right + left [e]");
    }

    #[test]
    fn arithmetic_minimal_parens() {
        let g = game(act(Action::Noop));
        let v = |i| Arith::Var(i);
        let n = Arith::Num;
        // (a - b) - c  -> a-b-c ; a - (b - c) -> a-(b-c)
        let e = bin(bin(v(0), ArithOp::Sub, v(1)), ArithOp::Sub, v(2));
        assert_eq!(print_arith(&g, &e), "white-black-turn");
        let e = bin(v(0), ArithOp::Sub, bin(v(1), ArithOp::Sub, v(2)));
        assert_eq!(print_arith(&g, &e), "white-(black-turn)");
        let e = bin(bin(n(1), ArithOp::Add, n(2)), ArithOp::Mul, n(3));
        assert_eq!(print_arith(&g, &e), "(1+2)*3");
        let e = bin(n(1), ArithOp::Add, bin(n(2), ArithOp::Mul, n(3)));
        assert_eq!(print_arith(&g, &e), "1+2*3");
        let e = bin(n(8), ArithOp::Div, bin(n(2), ArithOp::Mul, n(2)));
        assert_eq!(print_arith(&g, &e), "8/(2*2)");
        let e = bin(Arith::PieceCount(1), ArithOp::Mul, n(2));
        assert_eq!(print_arith(&g, &e), "w*2");
        let r = Rule::concat(vec![
            act(Action::Assign(2, bin(v(2), ArithOp::Add, n(1)))),
            act(Action::Compare(v(0), CmpOp::Ge, n(3))),
        ]);
        assert_eq!(print_rule(&g, &r), "[$ turn=turn+1] {$ white >= 3}");
    }

    #[test]
    fn long_rules_are_broken() {
        let part = |i: u32| {
            Rule::concat(vec![
                shift(i % 2),
                shift(i % 2),
                off(i % 3),
                act(Action::Compare(
                    Arith::Var(0),
                    CmpOp::Lt,
                    Arith::Num(i as i64),
                )),
            ])
        };
        let big = Rule::concat(vec![
            act(Action::Switch(Some(0))),
            star(Rule::alt((0..8).map(part).collect())),
            act(Action::Pattern {
                negated: false,
                rule: Box::new(Rule::alt((0..8).map(part).collect())),
            }),
        ]);
        let text = print_game(&game(big));
        for line in text.lines() {
            assert!(line.len() <= WIDTH, "line too long: {line}");
        }
        let rules = text.split("#rules =\n").nth(1).unwrap();
        assert!(rules.starts_with("  ->white\n  (\n    right right [e] {$ white < 0}\n    + "));
        assert!(rules.contains("\n  )*\n  {?\n"), "{rules}");
    }

    mod roundtrip {
        use super::*;
        use proptest::prelude::*;

        fn arb_arith() -> impl Strategy<Value = Arith> {
            let leaf = prop_oneof![
                (0i64..20).prop_map(Arith::Num),
                (0u32..3).prop_map(Arith::Var),
                (0u32..3).prop_map(Arith::PieceCount),
            ];
            leaf.prop_recursive(3, 12, 2, |inner| {
                (
                    inner.clone(),
                    prop_oneof![
                        Just(ArithOp::Add),
                        Just(ArithOp::Sub),
                        Just(ArithOp::Mul),
                        Just(ArithOp::Div)
                    ],
                    inner,
                )
                    .prop_map(|(l, op, r)| Arith::Bin(Box::new(l), op, Box::new(r)))
            })
        }

        fn arb_cmp() -> impl Strategy<Value = CmpOp> {
            prop_oneof![
                Just(CmpOp::Lt),
                Just(CmpOp::Le),
                Just(CmpOp::Eq),
                Just(CmpOp::Ne),
                Just(CmpOp::Gt),
                Just(CmpOp::Ge)
            ]
        }

        /// Random rules (with switches only if `switches`, as patterns
        /// have none); `depth` bounds the pattern nesting.
        fn arb_rule(switches: bool, depth: u32) -> BoxedStrategy<Rule> {
            let mut leaves = vec![
                (0u32..2).prop_map(|d| act(Action::Shift(d))).boxed(),
                proptest::sample::subsequence(vec![0u32, 1, 2], 0..=3)
                    .prop_map(|v| act(Action::On(v)))
                    .boxed(),
                (0u32..3).prop_map(off).boxed(),
                ((0u32..3), arb_arith())
                    .prop_map(|(v, e)| act(Action::Assign(v, e)))
                    .boxed(),
                (arb_arith(), arb_cmp(), arb_arith())
                    .prop_map(|(l, op, r)| act(Action::Compare(l, op, r)))
                    .boxed(),
                Just(act(Action::Noop)).boxed(),
            ];
            if switches {
                leaves.push(
                    prop_oneof![Just(None), (0u32..2).prop_map(Some)]
                        .prop_map(|p| act(Action::Switch(p)))
                        .boxed(),
                );
            }
            if depth > 0 {
                leaves.push(
                    (any::<bool>(), arb_rule(false, depth - 1))
                        .prop_map(|(negated, r)| {
                            act(Action::Pattern {
                                negated,
                                rule: Box::new(r),
                            })
                        })
                        .boxed(),
                );
            }
            let leaf = proptest::strategy::Union::new(leaves);
            leaf.prop_recursive(4, 40, 4, |inner| {
                prop_oneof![
                    proptest::collection::vec(inner.clone(), 2..4).prop_map(Rule::concat),
                    proptest::collection::vec(inner.clone(), 2..4).prop_map(Rule::alt),
                    // the parser folds `(x*)*` into `x*`
                    inner.prop_map(|r| match r {
                        Rule::Star(_) => r,
                        r => star(r),
                    }),
                ]
            })
            .boxed()
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(256))]
            #[test]
            fn print_parse_print(rules in arb_rule(true, 2)) {
                let g = game(rules);
                let text = print_game(&g);
                let back = crate::parse_str(&text)
                    .unwrap_or_else(|e| panic!("{}\n{text}", crate::SourceFile::new("printed", text.clone()).diagnostic(e)));
                prop_assert_eq!(&back, &g, "{}", text);
                prop_assert_eq!(print_game(&back), text);
            }
        }
    }
}
