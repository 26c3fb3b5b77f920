//! Pragmas: `'@' body ';'`.
//!
//! ```text
//! body = 'artificialTag' name { name }
//!      | 'disjointExhaustive' node ':' node { node } | 'disjoint' node ':' node { node }
//!      | 'integer' digits ':' name { name } | 'iterator' node node node ':' name
//!      | 'repeat' node { node } ':' { name }
//!      | 'simpleApplyExhaustive' node node '[' [ptag {',' ptag}] ']' [passign {',' passign}]
//!      | 'simpleApply' node node '[' [ptag {',' ptag}] ']' [passign {',' passign}]
//!      | 'tagIndex' node { node } ':' digits | 'tagMaxIndex' node { node } ':' digits
//!      | 'translatedFromRbg' | 'unique' node { node }
//!      | anything up to the next ';' ;          (an unknown pragma, kept verbatim)
//! ptag = name ':' type | name ;                  (no space before ':')
//! passign = expr '=' expr ;
//! ```
//!
//! Known names are matched as prefixes of the text after `@` (and whitespace),
//! in the order above: `@uniqueX a;` is `@unique X a;`. Once a known name
//! matched, the rest must follow its syntax.

use rbg_lang::{Error, Span};

use crate::ast::{Loc, Name, Pragma, PragmaTag};
use crate::lexer::Tok;
use crate::parse::Parser;

/// The known pragma names, in the order they are tried.
pub const KNOWN: [&str; 12] = [
    "artificialTag",
    "disjointExhaustive",
    "disjoint",
    "integer",
    "iterator",
    "repeat",
    "simpleApplyExhaustive",
    "simpleApply",
    "tagIndex",
    "tagMaxIndex",
    "translatedFromRbg",
    "unique",
];

impl Parser<'_> {
    /// The pragma after its `@` (at `at`), up to and including its `;`.
    pub(crate) fn pragma(&mut self, at: Span) -> Result<Pragma, Error> {
        let body_start = self.lx.pos();
        let mut probe = self.lx.clone();
        probe.skip_trivia();
        let Some(kind) = KNOWN.iter().find(|k| probe.rest().starts_with(**k)) else {
            return self.unknown_pragma(at, body_start);
        };
        self.lx = probe;
        self.lx.advance(kind.len());
        let pragma = match *kind {
            "artificialTag" => Pragma::ArtificialTag(self.names(1, "a tag")?),
            "disjoint" | "disjointExhaustive" => {
                let node = self.name("a node")?;
                self.expect(Tok::Colon, "`:` after the node")?;
                Pragma::Disjoint {
                    exhaustive: *kind == "disjointExhaustive",
                    node,
                    targets: self.names(1, "a node after `:`")?,
                }
            }
            "integer" => {
                let digits = self.digits()?;
                self.expect(Tok::Colon, "`:` after the number")?;
                Pragma::Integer {
                    digits,
                    names: self.names(1, "a name after `:`")?,
                }
            }
            "iterator" => {
                let nodes = [
                    self.name("a node")?,
                    self.name("a second node")?,
                    self.name("a third node")?,
                ];
                self.expect(Tok::Colon, "`:` after the three nodes")?;
                Pragma::Iterator {
                    nodes,
                    name: self.name("a name after `:`")?,
                }
            }
            "repeat" => {
                let nodes = self.names(1, "a node")?;
                self.expect(Tok::Colon, "a node or `:`")?;
                Pragma::Repeat {
                    nodes,
                    variables: self.names(0, "a variable")?,
                }
            }
            "simpleApply" | "simpleApplyExhaustive" => {
                self.simple_apply(*kind == "simpleApplyExhaustive")?
            }
            "tagIndex" | "tagMaxIndex" => {
                let nodes = self.names(1, "a node")?;
                self.expect(Tok::Colon, "a node or `:`")?;
                Pragma::TagIndex {
                    max: *kind == "tagMaxIndex",
                    nodes,
                    index: self.digits()?,
                }
            }
            "translatedFromRbg" => Pragma::TranslatedFromRbg,
            _ => Pragma::Unique(self.names(1, "a node")?),
        };
        self.expect(
            Tok::Semi,
            &format!("`;` at the end of the `@{kind}` pragma"),
        )?;
        Ok(pragma)
    }

    /// An unknown pragma: everything up to the next `;`, verbatim.
    fn unknown_pragma(&mut self, at: Span, body_start: usize) -> Result<Pragma, Error> {
        let rest = &self.lx.text()[body_start..];
        let Some(len) = rest.find(';') else {
            return Err(Error::new(
                at,
                "expected `;` ending the pragma, found end of file",
            ));
        };
        self.lx.advance(len + 1);
        Ok(Pragma::Unknown {
            text: rest[..len].to_string(),
            loc: Loc(Span::new(at.start as usize, body_start + len + 1)),
        })
    }

    /// At least `min` names, as long as names follow.
    fn names(&mut self, min: usize, what: &str) -> Result<Vec<Name>, Error> {
        let mut out = Vec::new();
        while out.len() < min || self.peek()?.kind == Tok::Name {
            out.push(self.name(what)?);
        }
        Ok(out)
    }

    /// A name made of decimal digits.
    fn digits(&mut self) -> Result<Name, Error> {
        let t = self.peek()?;
        let n = self.name("a number")?;
        if !n.text.bytes().all(|b| b.is_ascii_digit()) {
            return Err(self.unexpected(t, "a number"));
        }
        Ok(n)
    }

    fn simple_apply(&mut self, exhaustive: bool) -> Result<Pragma, Error> {
        let from = self.name("a node")?;
        let to = self.name("a second node")?;
        self.expect(Tok::LBracket, "`[` starting the tags")?;
        let mut tags = Vec::new();
        if self.eat(Tok::RBracket)?.is_none() {
            loop {
                let name = self.name("a tag")?;
                let c = self.peek()?;
                let ty = if c.kind == Tok::Colon && !c.spaced {
                    self.bump()?;
                    Some(self.ty()?)
                } else if c.kind == Tok::Colon {
                    return Err(Error::new(
                        c.span,
                        "expected `:` directly after the tag, found whitespace before `:`",
                    ));
                } else {
                    None
                };
                tags.push(PragmaTag { name, ty });
                if self.eat(Tok::Comma)?.is_none() {
                    break;
                }
            }
            self.expect(Tok::RBracket, "`,` or `]` after the tag")?;
        }
        let mut assignments = Vec::new();
        if self.peek()?.kind == Tok::Name {
            loop {
                let target = self.expr(0)?;
                self.expect(Tok::Eq, "`=` in the assignment")?;
                assignments.push((target, self.expr(0)?));
                if self.eat(Tok::Comma)?.is_none() {
                    break;
                }
            }
        }
        Ok(Pragma::SimpleApply {
            exhaustive,
            from,
            to,
            tags,
            assignments,
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::ast::Pragma;
    use crate::parse::parse_game;

    fn one(text: &str) -> Pragma {
        let g = parse_game(text).unwrap_or_else(|e| panic!("{text}: {e:?}"));
        assert_eq!(g.pragmas.len(), 1);
        g.pragmas.into_iter().next().unwrap()
    }

    #[test]
    fn known_pragmas() {
        assert!(
            matches!(one("@uniqueX a;"), Pragma::Unique(v) if v.len() == 2 && v[0].text == "X")
        );
        assert!(
            matches!(one("@disjointX: a;"), Pragma::Disjoint { exhaustive: false, node, .. } if node.text == "X")
        );
        assert!(matches!(
            one("@disjointExhaustive n : a b;"),
            Pragma::Disjoint {
                exhaustive: true,
                ..
            }
        ));
        assert!(
            matches!(one("@repeat n : ;"), Pragma::Repeat { variables, .. } if variables.is_empty())
        );
        assert!(matches!(one("@integer 12 : a b;"), Pragma::Integer { .. }));
        assert!(matches!(
            one("@iterator a b c : t;"),
            Pragma::Iterator { .. }
        ));
        assert!(matches!(
            one("@tagMaxIndex a b : 3;"),
            Pragma::TagIndex { max: true, .. }
        ));
        assert!(matches!(
            one("@translatedFromRbg;"),
            Pragma::TranslatedFromRbg
        ));
        assert!(matches!(one("@artificialTag a b;"), Pragma::ArtificialTag(v) if v.len() == 2));
        let p = one("@simpleApply a b [t:T, u:{x} -> {y}, v] m[k] = x, y = z;");
        assert!(
            matches!(p, Pragma::SimpleApply { tags, assignments, .. } if tags.len() == 3 && assignments.len() == 2)
        );
        assert!(matches!(
            one("@simpleApplyExhaustive a b [];"),
            Pragma::SimpleApply {
                exhaustive: true,
                ..
            }
        ));
    }

    #[test]
    fn unknown_pragmas_are_kept() {
        for (text, body) in [
            ("@foo;", "foo"),
            ("@;", ""),
            ("@ foo;", " foo"),
            ("@a@b\n#c;", "a@b\n#c"),
        ] {
            assert!(
                matches!(one(text), Pragma::Unknown { text, .. } if text == body),
                "{text}"
            );
        }
    }

    #[test]
    fn bad_known_pragmas() {
        for text in [
            "@unique;",
            "@repeat l;",
            "@disjoint s;",
            "@disjoint s :;",
            "@artificialTag;",
            "@translatedFromRbg x;",
            "@integer x: a;",
            "@simpleApply a b [t :T];",
            "@foo",
        ] {
            assert!(parse_game(text).is_err(), "{text}");
        }
    }
}
