//! [`Game`] → RG text, one declaration per line: types, constants, variables,
//! pragmas, then edges (each kind in its order). For every game that passes
//! [`crate::check`], parsing the output gives an equal game and printing that
//! again gives the same text.

use std::fmt::{self, Write};

use crate::ast::{Binding, Edge, Expr, Game, Label, Pragma, Type, Value};

/// The text of a whole game.
pub fn print_game(game: &Game) -> String {
    let mut out = String::new();
    write_game(&mut out, game).expect("writing to a String cannot fail");
    out
}

fn write_game(out: &mut String, game: &Game) -> fmt::Result {
    for t in &game.types {
        writeln!(out, "type {} = {};", t.name, TypeText(&t.ty))?;
    }
    for (kw, list) in [("const", &game.constants), ("var", &game.variables)] {
        for Binding { name, ty, value } in list {
            writeln!(out, "{kw} {name}: {} = {};", TypeText(ty), ValueText(value))?;
        }
    }
    for p in &game.pragmas {
        writeln!(out, "{}", PragmaText(p))?;
    }
    for e in &game.edges {
        writeln!(out, "{}", EdgeText(e))?;
    }
    Ok(())
}

/// Displays a type (`{a, b}`, `A -> B`, `T`).
pub struct TypeText<'a>(pub &'a Type);

impl fmt::Display for TypeText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Type::Set { symbols, .. } => {
                f.write_str("{")?;
                for (i, s) in symbols.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    f.write_str(&s.text)?;
                }
                f.write_str("}")
            }
            Type::Arrow(a, b) => write!(f, "{} -> {}", TypeText(a), TypeText(b)),
            Type::Ref(n) => f.write_str(&n.text),
        }
    }
}

/// Displays a value (`a`, `{ k: v, :d }`).
pub struct ValueText<'a>(pub &'a Value);

impl fmt::Display for ValueText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Value::Name(n) => f.write_str(&n.text),
            Value::Map { entries, .. } if entries.is_empty() => f.write_str("{}"),
            Value::Map { entries, .. } => {
                f.write_str("{ ")?;
                for (i, e) in entries.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    if let Some(k) = &e.key {
                        write!(f, "{k}: ")?;
                    } else {
                        f.write_str(":")?;
                    }
                    write!(f, "{}", ValueText(&e.value))?;
                }
                f.write_str(" }")
            }
        }
    }
}

/// Displays an expression (`m[k]`, `T(e)`).
pub struct ExprText<'a>(pub &'a Expr);

impl fmt::Display for ExprText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Expr::Ref(n) => f.write_str(&n.text),
            Expr::Access { map, key, .. } => write!(f, "{}[{}]", ExprText(map), ExprText(key)),
            Expr::Cast { ty, expr, .. } => write!(f, "{ty}({})", ExprText(expr)),
        }
    }
}

/// Displays a label (the part between `:` and `;` of an edge).
pub struct LabelText<'a>(pub &'a Label);

impl fmt::Display for LabelText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Label::Skip => Ok(()),
            Label::Tag(t) => write!(f, "$ {t}"),
            Label::TagVariable(v) => write!(f, "$$ {v}"),
            Label::Assign { target, value } => {
                write!(f, "{} = {}", ExprText(target), ExprText(value))
            }
            Label::AssignAny { target, ty } => {
                write!(f, "{} = {}(*)", ExprText(target), TypeText(ty))
            }
            Label::Compare { left, right, equal } => {
                let op = if *equal { "==" } else { "!=" };
                write!(f, "{} {op} {}", ExprText(left), ExprText(right))
            }
            Label::Reach { positive, from, to } => {
                let op = if *positive { '?' } else { '!' };
                write!(f, "{op} {from} -> {to}")
            }
        }
    }
}

/// Displays an edge (`a, b: label;`).
pub struct EdgeText<'a>(pub &'a Edge);

impl fmt::Display for EdgeText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let e = self.0;
        write!(f, "{}, {}: {};", e.from, e.to, LabelText(&e.label))
    }
}

/// Displays a pragma (`@unique a b;`).
pub struct PragmaText<'a>(pub &'a Pragma);

fn names(f: &mut fmt::Formatter<'_>, list: &[crate::ast::Name]) -> fmt::Result {
    for n in list {
        write!(f, " {n}")?;
    }
    Ok(())
}

impl fmt::Display for PragmaText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Pragma::ArtificialTag(tags) => {
                f.write_str("@artificialTag")?;
                names(f, tags)?;
            }
            Pragma::Disjoint {
                exhaustive,
                node,
                targets,
            } => {
                let kind = if *exhaustive {
                    "disjointExhaustive"
                } else {
                    "disjoint"
                };
                write!(f, "@{kind} {node} :")?;
                names(f, targets)?;
            }
            Pragma::Integer {
                digits,
                names: list,
            } => {
                write!(f, "@integer {digits} :")?;
                names(f, list)?;
            }
            Pragma::Iterator { nodes, name } => {
                write!(
                    f,
                    "@iterator {} {} {} : {name}",
                    nodes[0], nodes[1], nodes[2]
                )?;
            }
            Pragma::Repeat { nodes, variables } => {
                f.write_str("@repeat")?;
                names(f, nodes)?;
                f.write_str(" :")?;
                names(f, variables)?;
            }
            Pragma::SimpleApply {
                exhaustive,
                from,
                to,
                tags,
                assignments,
            } => {
                let kind = if *exhaustive {
                    "simpleApplyExhaustive"
                } else {
                    "simpleApply"
                };
                write!(f, "@{kind} {from} {to} [")?;
                for (i, t) in tags.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    f.write_str(&t.name.text)?;
                    if let Some(ty) = &t.ty {
                        write!(f, ": {}", TypeText(ty))?;
                    }
                }
                f.write_str("]")?;
                for (i, (a, b)) in assignments.iter().enumerate() {
                    let sep = if i > 0 { ", " } else { " " };
                    write!(f, "{sep}{} = {}", ExprText(a), ExprText(b))?;
                }
            }
            Pragma::TagIndex { max, nodes, index } => {
                let kind = if *max { "tagMaxIndex" } else { "tagIndex" };
                write!(f, "@{kind}")?;
                names(f, nodes)?;
                write!(f, " : {index}")?;
            }
            Pragma::TranslatedFromRbg => f.write_str("@translatedFromRbg")?,
            Pragma::Unique(nodes) => {
                f.write_str("@unique")?;
                names(f, nodes)?;
            }
            Pragma::Unknown { text, .. } => write!(f, "@{text}")?,
        }
        f.write_str(";")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_game;

    #[test]
    fn round_trip_of_every_construct() {
        let text = "type T = {a, b};\ntype M = T -> T -> {c};\nconst c: M = { a: { :c }, :{ b: c, :c } };\n\
                    var x: T = a;\nvar e: T = {};\n@unique n m;\n@disjointExhaustive n : a b;\n@integer 3 : a;\n\
                    @iterator a b c : d;\n@repeat n : x y;\n@simpleApply a b [t: T, u] x = y, m[k] = T(z);\n\
                    @tagIndex a : 1;\n@tagMaxIndex a b : 2;\n@translatedFromRbg;\n@artificialTag t;\n@ what ever;\n\
                    begin, n: ;\nn, m: $ t;\nm, a: $$ x;\na, b: x = T(*);\nb, c: m[k][T(j)] = c[a];\n\
                    c, d: x == a;\nd, e: x != b;\ne, f: ? a -> b;\nf, end: ! c -> d;\n";
        let g = parse_game(text).unwrap();
        let printed = print_game(&g);
        assert_eq!(printed, text);
        assert_eq!(parse_game(&printed).unwrap(), g);
    }
}
