//! The parser: text → [`Game`] (syntax only; [`crate::check`] does the rest).
//!
//! ```text
//! game      = { decl } ;
//! decl      = 'type' name '=' type ';' | 'const' name ':' type '=' value ';'
//!           | 'var' name ':' type '=' value ';' | edge | pragma ;
//! type      = atom [ '->' type ] ;   atom = '{' name { ',' name } '}' | name ;
//! value     = name | '{' '}' | '{' entry { ',' entry } '}' ;   entry = [ name ] ':' value ;
//! edge      = name ',' name ':' label ';' ;
//! label     = ε | '$$' name | '$' name | expr '=' type '(' '*' ')' | expr '=' expr
//!           | expr '==' expr | expr '!=' expr | '?' name '->' name | '!' name '->' name ;
//! expr      = name [ '(' expr ')' ] { '[' expr ']' } ;     (no space before '[')
//! ```
//!
//! Pragmas are in [`crate::pragma`]. A statement whose first name starts with
//! `type`, `const` or `var` is a declaration, the rest of that name being the
//! declared name (`typeT = {a};` declares `T`): the reference's quirk. The
//! keywords themselves are never names. Nesting (map values, expressions,
//! arrow chains) is limited to [`MAX_NESTING`], so every later pass may recurse.

use rbg_lang::{Error, Span};

use crate::ast::{Binding, Edge, Entry, Expr, Game, Label, Loc, Name, Type, TypeDef, Value};
use crate::lexer::{Lexer, Tok, Token};

/// How deeply map values, expressions and arrow types may nest.
pub const MAX_NESTING: usize = 64;

/// The declaration keywords.
pub const KEYWORDS: [&str; 3] = ["const", "type", "var"];

/// Parses a whole description (syntax only).
pub fn parse_game(text: &str) -> Result<Game, Error> {
    let mut p = Parser::new(text);
    let mut game = Game::default();
    loop {
        let t = p.peek()?;
        match t.kind {
            Tok::Eof => return Ok(game),
            Tok::At => {
                p.bump()?;
                game.pragmas.push(p.pragma(t.span)?);
            }
            Tok::Name => p.statement(&mut game)?,
            _ => return Err(p.unexpected(t, "a declaration, an edge or a pragma")),
        }
    }
}

/// A recursive-descent parser with one token of lookahead, read lazily so that
/// pragmas can look at the raw text after `@`.
pub(crate) struct Parser<'a> {
    pub(crate) lx: Lexer<'a>,
    ahead: Option<Token>,
}

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Parser<'a> {
        Parser {
            lx: Lexer::new(text),
            ahead: None,
        }
    }

    /// The next token, without consuming it.
    pub(crate) fn peek(&mut self) -> Result<Token, Error> {
        match self.ahead {
            Some(t) => Ok(t),
            None => {
                let t = self.lx.next_token()?;
                self.ahead = Some(t);
                Ok(t)
            }
        }
    }

    /// Consumes the next token.
    pub(crate) fn bump(&mut self) -> Result<Token, Error> {
        let t = self.peek()?;
        self.ahead = None;
        Ok(t)
    }

    /// Consumes the next token if it is `kind`.
    pub(crate) fn eat(&mut self, kind: Tok) -> Result<Option<Token>, Error> {
        if self.peek()?.kind == kind {
            self.bump().map(Some)
        } else {
            Ok(None)
        }
    }

    /// Consumes a token of kind `kind`, or fails saying what was expected.
    pub(crate) fn expect(&mut self, kind: Tok, what: &str) -> Result<Token, Error> {
        let t = self.peek()?;
        if t.kind == kind {
            self.bump()
        } else {
            Err(self.unexpected(t, what))
        }
    }

    /// The text of a token.
    pub(crate) fn text(&self, t: Token) -> &'a str {
        &self.lx.text()[t.span.start as usize..t.span.end as usize]
    }

    /// "expected WHAT, found T".
    pub(crate) fn unexpected(&self, t: Token, what: &str) -> Error {
        let found = match t.kind {
            Tok::Name => format!("`{}`", self.text(t)),
            k => k.describe().to_string(),
        };
        Error::new(t.span, format!("expected {what}, found {found}"))
    }

    /// A name token that is not a keyword.
    pub(crate) fn name(&mut self, what: &str) -> Result<Name, Error> {
        let t = self.expect(Tok::Name, what)?;
        self.check_name(self.text(t), t.span)
    }

    fn check_name(&self, text: &str, span: Span) -> Result<Name, Error> {
        if KEYWORDS.contains(&text) {
            return Err(Error::new(
                span,
                format!("expected a name, found the keyword `{text}`"),
            ));
        }
        Ok(Name::at(text, span))
    }

    fn statement(&mut self, game: &mut Game) -> Result<(), Error> {
        let first = self.bump()?;
        let text = self.text(first);
        let Some(kw) = KEYWORDS.iter().find(|k| text.starts_with(**k)) else {
            return self.edge(Name::at(text, first.span), game);
        };
        let rest = &text[kw.len()..];
        let name = if rest.is_empty() {
            self.name(&format!("the name declared by `{kw}`"))?
        } else {
            let start = first.span.start as usize + kw.len();
            self.check_name(rest, Span::new(start, first.span.end as usize))?
        };
        match *kw {
            "type" => {
                self.expect(Tok::Eq, "`=` after the type's name")?;
                let ty = self.ty()?;
                self.end_statement("type definition")?;
                game.types.push(TypeDef { name, ty });
            }
            _ => {
                self.expect(Tok::Colon, &format!("`:` after the {kw}'s name"))?;
                let ty = self.ty()?;
                self.expect(Tok::Eq, "`=` and a value after the type")?;
                let value = self.value(0)?;
                let what = if *kw == "const" {
                    "constant"
                } else {
                    "variable"
                };
                self.end_statement(what)?;
                let b = Binding { name, ty, value };
                if *kw == "const" {
                    game.constants.push(b);
                } else {
                    game.variables.push(b);
                }
            }
        }
        Ok(())
    }

    fn end_statement(&mut self, what: &str) -> Result<(), Error> {
        self.expect(Tok::Semi, &format!("`;` at the end of the {what}"))
            .map(|_| ())
    }

    /// `type = atom ['->' type]`, read as a chain and folded to the right.
    pub(crate) fn ty(&mut self) -> Result<Type, Error> {
        let first = self.type_atom()?;
        self.type_rest(first)
    }

    /// The rest of a type whose first atom is `first`.
    fn type_rest(&mut self, first: Type) -> Result<Type, Error> {
        let mut atoms = vec![first];
        while let Some(t) = self.eat(Tok::Arrow)? {
            if atoms.len() >= MAX_NESTING {
                return Err(Error::new(
                    t.span,
                    format!("type too deeply nested (more than {MAX_NESTING} arrows)"),
                ));
            }
            atoms.push(self.type_atom()?);
        }
        let mut ty = atoms.pop().expect("at least one atom");
        while let Some(a) = atoms.pop() {
            ty = Type::Arrow(Box::new(a), Box::new(ty));
        }
        Ok(ty)
    }

    fn type_atom(&mut self) -> Result<Type, Error> {
        let t = self.peek()?;
        match t.kind {
            Tok::Name => Ok(Type::Ref(self.name("a type")?)),
            Tok::LBrace => {
                self.bump()?;
                let mut symbols = vec![self.name("a symbol (a set type has at least one)")?];
                while self.eat(Tok::Comma)?.is_some() {
                    symbols.push(self.name("a symbol after `,`")?);
                }
                let close = self.expect(Tok::RBrace, "`,` or `}` in the set type")?;
                Ok(Type::Set {
                    symbols,
                    loc: Loc(t.span.to(close.span)),
                })
            }
            _ => Err(self.unexpected(t, "a type (`{...}` or a type name)")),
        }
    }

    fn value(&mut self, depth: usize) -> Result<Value, Error> {
        let t = self.peek()?;
        match t.kind {
            Tok::Name => Ok(Value::Name(self.name("a value")?)),
            Tok::LBrace => {
                if depth >= MAX_NESTING {
                    return Err(Error::new(
                        t.span,
                        format!("map value too deeply nested (more than {MAX_NESTING} levels)"),
                    ));
                }
                self.bump()?;
                let mut entries = Vec::new();
                if let Some(close) = self.eat(Tok::RBrace)? {
                    return Ok(Value::Map {
                        entries,
                        loc: Loc(t.span.to(close.span)),
                    });
                }
                loop {
                    let key = match self.peek()?.kind {
                        Tok::Colon => None,
                        _ => Some(self.name("a key or `:` (a default value)")?),
                    };
                    self.expect(Tok::Colon, "`:` after the key")?;
                    let value = self.value(depth + 1)?;
                    entries.push(Entry { key, value });
                    if self.eat(Tok::Comma)?.is_none() {
                        break;
                    }
                }
                let close = self.expect(Tok::RBrace, "`,` or `}` in the map")?;
                Ok(Value::Map {
                    entries,
                    loc: Loc(t.span.to(close.span)),
                })
            }
            _ => Err(self.unexpected(t, "a value (a symbol, a constant or `{`)")),
        }
    }

    fn edge(&mut self, from: Name, game: &mut Game) -> Result<(), Error> {
        self.expect(
            Tok::Comma,
            "`,` after the edge's source node (or a declaration)",
        )?;
        let to = self.name("the edge's target node")?;
        self.expect(Tok::Colon, "`:` after the edge's target node")?;
        let label = self.label()?;
        let end = self.expect(Tok::Semi, "`;` at the end of the edge")?;
        let loc = Loc(from.span().to(end.span));
        game.edges.push(Edge {
            from,
            to,
            label,
            loc,
        });
        Ok(())
    }

    fn label(&mut self) -> Result<Label, Error> {
        let t = self.peek()?;
        match t.kind {
            Tok::Semi => Ok(Label::Skip),
            Tok::DollarDollar => {
                self.bump()?;
                Ok(Label::TagVariable(self.name("a variable after `$$`")?))
            }
            Tok::Dollar => {
                self.bump()?;
                Ok(Label::Tag(self.name("a tag after `$`")?))
            }
            Tok::Question | Tok::Bang => {
                self.bump()?;
                let from = self.name("the check's start node")?;
                self.expect(Tok::Arrow, "`->` in the reachability check")?;
                let to = self.name("the check's target node")?;
                Ok(Label::Reach {
                    positive: t.kind == Tok::Question,
                    from,
                    to,
                })
            }
            Tok::Name => {
                let left = self.expr(0)?;
                let op = self.bump()?;
                match op.kind {
                    Tok::EqEq | Tok::NotEq => Ok(Label::Compare {
                        left,
                        right: self.expr(0)?,
                        equal: op.kind == Tok::EqEq,
                    }),
                    Tok::Eq => self.assignment(left),
                    _ => Err(self.unexpected(op, "`=`, `==` or `!=` after the expression")),
                }
            }
            _ => Err(self.unexpected(t, "a label (an action) or `;`")),
        }
    }

    /// The right side of `target = ...`: an expression or `T(*)`.
    fn assignment(&mut self, target: Expr) -> Result<Label, Error> {
        let t = self.peek()?;
        if t.kind == Tok::LBrace {
            let ty = self.ty()?;
            return self.any_rest(target, ty);
        }
        let head = self.name("an expression or a type after `=`")?;
        match self.peek()?.kind {
            Tok::Arrow => {
                let ty = self.type_rest(Type::Ref(head))?;
                self.any_rest(target, ty)
            }
            Tok::LParen => {
                let open = self.bump()?;
                if self.eat(Tok::Star)?.is_some() {
                    self.expect(Tok::RParen, "`)` after `*`")?;
                    return Ok(Label::AssignAny {
                        target,
                        ty: Type::Ref(head),
                    });
                }
                let value = self.cast_rest(head, open, 0)?;
                Ok(Label::Assign { target, value })
            }
            _ => {
                let value = self.accesses(Expr::Ref(head), 0)?;
                Ok(Label::Assign { target, value })
            }
        }
    }

    /// `(*)` after the type of an any-assignment.
    fn any_rest(&mut self, target: Expr, ty: Type) -> Result<Label, Error> {
        self.expect(Tok::LParen, "`(*)` after the type")?;
        self.expect(Tok::Star, "`*` in `(*)`")?;
        self.expect(Tok::RParen, "`)` after `*`")?;
        Ok(Label::AssignAny { target, ty })
    }

    /// `expr = name ['(' expr ')'] {'[' expr ']'}`.
    pub(crate) fn expr(&mut self, depth: usize) -> Result<Expr, Error> {
        let head = self.name("an expression")?;
        if self.peek()?.kind == Tok::LParen {
            let open = self.bump()?;
            return self.cast_rest(head, open, depth);
        }
        self.accesses(Expr::Ref(head), depth)
    }

    /// The argument of the cast `ty(` and the accesses after it.
    fn cast_rest(&mut self, ty: Name, open: Token, depth: usize) -> Result<Expr, Error> {
        if depth >= MAX_NESTING {
            return Err(self.too_deep(open.span));
        }
        let inner = self.expr(depth + 1)?;
        let close = self.expect(Tok::RParen, "`)` closing the cast")?;
        let loc = Loc(ty.span().to(close.span));
        let cast = Expr::Cast {
            ty,
            expr: Box::new(inner),
            loc,
        };
        self.accesses(cast, depth)
    }

    /// `{ '[' expr ']' }` after `e`; the `[` must follow directly.
    fn accesses(&mut self, mut e: Expr, depth: usize) -> Result<Expr, Error> {
        let mut count = depth;
        loop {
            let t = self.peek()?;
            if t.kind != Tok::LBracket {
                return Ok(e);
            }
            if t.spaced {
                return Err(Error::new(
                    t.span,
                    "expected an access `[` directly after the expression, found whitespace before `[`",
                ));
            }
            count += 1;
            if count > MAX_NESTING {
                return Err(self.too_deep(t.span));
            }
            self.bump()?;
            let key = self.expr(count)?;
            let close = self.expect(Tok::RBracket, "`]` closing the access")?;
            let loc = Loc(e.span().to(close.span));
            e = Expr::Access {
                map: Box::new(e),
                key: Box::new(key),
                loc,
            };
        }
    }

    fn too_deep(&self, span: Span) -> Error {
        Error::new(
            span,
            format!("expression too deeply nested (more than {MAX_NESTING} levels)"),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(text: &str) -> Game {
        parse_game(text).unwrap_or_else(|e| panic!("{text}: {e:?}"))
    }

    fn err(text: &str) -> Error {
        parse_game(text).expect_err(text)
    }

    #[test]
    fn declarations_and_quirks() {
        let g = ok("typeT = {a}; type_x = {a,b} -> T; constc: T = a; varx: T -> T = {a: a, :a};");
        assert_eq!(g.types[0].name.text, "T");
        assert_eq!(g.types[1].name.text, "_x");
        assert_eq!(g.constants[0].name.text, "c");
        assert_eq!(g.variables[0].name.text, "x");
        assert!(matches!(g.types[1].ty, Type::Arrow(..)));
        let e = err("variant, x: ;");
        assert!(e.message.contains("expected `:`"), "{}", e.message);
        assert!(err("type type = {a};").message.contains("keyword"));
        // target nodes may start with a keyword
        ok("a, variant: ;");
    }

    #[test]
    fn labels() {
        let g = ok(
            "a,b: ; a,b: $ t; a,b: $$ v; a,b: x = T(*); a,b: x = {p,q}(*); \
                    a,b: x = A -> B(*); a,b: m[k][T(j)] = T(y)[z]; a,b: x == y; a,b: x != y; \
                    a,b: ? c -> d; a,b: ! c -> d;",
        );
        let kinds: Vec<_> = g
            .edges
            .iter()
            .map(|e| std::mem::discriminant(&e.label))
            .collect();
        assert_eq!(kinds.len(), 11);
        assert!(matches!(
            g.edges[5].label,
            Label::AssignAny {
                ty: Type::Arrow(..),
                ..
            }
        ));
        assert!(matches!(
            &g.edges[6].label,
            Label::Assign {
                value: Expr::Access { .. },
                ..
            }
        ));
    }

    #[test]
    fn access_needs_no_space() {
        let e = err("a, b: m [a] = x;");
        assert!(e.message.contains("whitespace before `[`"), "{}", e.message);
        assert!(err("a, b: m[a](v) = x;").message.contains("expected `=`"));
        ok("a, b: T(T(v)) = x;");
    }

    #[test]
    fn nesting_is_bounded() {
        let deep = format!("a, b: x = {}y{};", "m[".repeat(200), "]".repeat(200));
        assert!(err(&deep).message.contains("too deeply nested"));
        let deep = format!("const c: T = {}a{};", "{:".repeat(200), "}".repeat(200));
        assert!(err(&deep).message.contains("too deeply nested"));
        let deep = format!("type T = {}{{a}};", "{a} -> ".repeat(200));
        assert!(err(&deep).message.contains("too deeply nested"));
    }

    #[test]
    fn empty_set_type_is_a_syntax_error() {
        assert!(err("type T = {};").message.contains("at least one"));
        let g = ok("const c: T = {};");
        assert!(matches!(&g.constants[0].value, Value::Map { entries, .. } if entries.is_empty()));
    }
}
