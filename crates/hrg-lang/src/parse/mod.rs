//! Tokens → [`Game`] (`hrg-language.md` §2): declarations here, expressions
//! and patterns in [`expr`], statements in [`stmt`].
//!
//! ```text
//! game     = { domain | function | vardecl | graph } ;
//! domain   = 'domain' name '=' [ delem { '|' delem } ] ;
//! delem    = Name '(' dpat { ',' dpat } ')' 'where' dval { ',' dval } | name ;
//! dval     = Name 'in' digits '..' digits | Name 'in' '{' name { ',' name } '}' ;
//! type     = '{' name { ',' name } '}' | name [ '->' type ] ;
//! function = name ':' type case { case } ;     case = name '(' patterns ')' '=' expr ;
//! vardecl  = name ':' type [ '=' expr ] ;
//! graph    = [ 'reusable' ] 'graph' name '(' [ name ':' type { ',' ... } ] ')' block ;
//! ```
//!
//! Words such as `domain` or `graph` are recognised by position. Nesting of
//! expressions, types, patterns and blocks together is limited to
//! [`MAX_NESTING`], so later passes may recurse over the tree.

mod expr;
mod stmt;

use rbg_lang::{Error, Span};

use crate::ast::{
    Binding, BindingValues, Case, Domain, DomainElement, Function, Game, Graph, Ident, Type,
    VarDecl,
};
use crate::lexer::{tokenize, Tok, Token};

/// How deeply expressions, types, patterns and blocks may nest (together).
pub const MAX_NESTING: usize = 100;

/// Parses a whole description.
pub fn parse_game(text: &str) -> Result<Game, Error> {
    let mut p = Parser {
        text,
        tokens: tokenize(text)?,
        pos: 0,
        depth: 0,
        tree_depth: 0,
    };
    let mut game = Game::default();
    loop {
        let t = p.peek();
        if t.tok == Tok::Eof {
            return Ok(game);
        }
        if t.tok != Tok::Name {
            return Err(p.unexpected("a declaration (`domain`, `graph`, a function or a variable)"));
        }
        let next = p.peek_at(1);
        match p.text_of(t) {
            "domain" if next.tok == Tok::Name => game.domains.push(p.domain()?),
            "graph" if next.tok == Tok::Name => game.graphs.push(p.graph(false)?),
            "reusable" if next.tok == Tok::Name && p.text_of(next) == "graph" => {
                p.bump();
                game.graphs.push(p.graph(true)?)
            }
            _ => p.declaration(&mut game)?,
        }
    }
}

pub(crate) struct Parser<'a> {
    text: &'a str,
    tokens: Vec<Token>,
    pos: usize,
    depth: usize,
    /// How deep the tree of the expression parsed last is.
    tree_depth: usize,
}

impl<'a> Parser<'a> {
    fn peek(&self) -> Token {
        self.peek_at(0)
    }

    fn peek_at(&self, n: usize) -> Token {
        let last = self.tokens.len() - 1;
        self.tokens[(self.pos + n).min(last)]
    }

    fn text_of(&self, t: Token) -> &'a str {
        &self.text[t.span.start as usize..t.span.end as usize]
    }

    /// Whether the next token is the name `word`.
    fn at_word(&self, word: &str) -> bool {
        let t = self.peek();
        t.tok == Tok::Name && self.text_of(t) == word
    }

    fn bump(&mut self) -> Token {
        let t = self.peek();
        if t.tok != Tok::Eof {
            self.pos += 1;
        }
        t
    }

    fn eat(&mut self, tok: Tok) -> Option<Token> {
        (self.peek().tok == tok).then(|| self.bump())
    }

    /// End of the last consumed token.
    fn prev_end(&self) -> u32 {
        if self.pos == 0 {
            0
        } else {
            self.tokens[self.pos - 1].span.end
        }
    }

    /// The span from `start` to the end of the last consumed token.
    fn since(&self, start: Span) -> Span {
        Span {
            start: start.start,
            end: self.prev_end().max(start.end),
        }
    }

    fn expect(&mut self, tok: Tok) -> Result<Token, Error> {
        self.eat(tok).ok_or_else(|| self.unexpected(tok.describe()))
    }

    fn expect_word(&mut self, word: &str) -> Result<Token, Error> {
        if self.at_word(word) {
            Ok(self.bump())
        } else {
            Err(self.unexpected(&format!("`{word}`")))
        }
    }

    fn ident(&mut self) -> Result<Ident, Error> {
        let t = self.expect(Tok::Name)?;
        Ok(Ident {
            text: self.text_of(t).to_string(),
            span: t.span,
        })
    }

    /// A name made of ASCII digits only.
    fn digits(&mut self) -> Result<Ident, Error> {
        let t = self.peek();
        if t.tok == Tok::Name && self.text_of(t).bytes().all(|b| b.is_ascii_digit()) {
            self.ident()
        } else {
            Err(self.unexpected("a number"))
        }
    }

    fn unexpected(&self, expected: &str) -> Error {
        let t = self.peek();
        let found = match t.tok {
            Tok::Name => format!("`{}`", self.text_of(t)),
            other => other.describe().to_string(),
        };
        Error::new(t.span, format!("expected {expected}, found {found}"))
    }

    /// Enters one level of nesting.
    fn enter(&mut self) -> Result<(), Error> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(Error::new(
                self.peek().span,
                format!("expected at most {MAX_NESTING} levels of nesting, found more"),
            ));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    /// `domain name = [ delem { '|' delem } ]`
    fn domain(&mut self) -> Result<Domain, Error> {
        self.bump();
        let name = self.ident()?;
        self.expect(Tok::Eq)?;
        let mut elements = Vec::new();
        if self.peek().tok == Tok::Name {
            loop {
                elements.push(self.domain_element()?);
                if self.eat(Tok::Pipe).is_none() {
                    break;
                }
            }
        }
        Ok(Domain { name, elements })
    }

    fn domain_element(&mut self) -> Result<DomainElement, Error> {
        let name = self.ident()?;
        if self.eat(Tok::LParen).is_none() {
            return Ok(DomainElement::Name(name));
        }
        let mut args = vec![self.ident()?];
        while self.eat(Tok::Comma).is_some() {
            args.push(self.ident()?);
        }
        self.expect(Tok::RParen)?;
        self.expect_word("where")?;
        let mut bindings = vec![self.binding()?];
        while self.eat(Tok::Comma).is_some() {
            bindings.push(self.binding()?);
        }
        Ok(DomainElement::Generator {
            name,
            args,
            bindings,
        })
    }

    /// `X in lo..hi` or `X in {a, b}`.
    fn binding(&mut self) -> Result<Binding, Error> {
        let var = self.ident()?;
        self.expect_word("in")?;
        let values = if self.eat(Tok::LBrace).is_some() {
            let mut names = vec![self.ident()?];
            while self.eat(Tok::Comma).is_some() {
                names.push(self.ident()?);
            }
            self.expect(Tok::RBrace)?;
            BindingValues::Set(names)
        } else {
            let lo = self.digits()?;
            self.expect(Tok::DotDot)?;
            BindingValues::Range(lo, self.digits()?)
        };
        Ok(Binding { var, values })
    }

    /// Bindings after `where` in a map part (possibly none).
    fn optional_bindings(&mut self) -> Result<Vec<Binding>, Error> {
        let mut bindings = Vec::new();
        let starts = |p: &Self| {
            p.peek().tok == Tok::Name
                && p.peek_at(1).tok == Tok::Name
                && p.text_of(p.peek_at(1)) == "in"
        };
        if starts(self) {
            bindings.push(self.binding()?);
            while self.eat(Tok::Comma).is_some() {
                bindings.push(self.binding()?);
            }
        }
        Ok(bindings)
    }

    /// `'{' name { ',' name } '}' | name [ '->' type ]`
    fn ty(&mut self) -> Result<Type, Error> {
        if let Some(open) = self.eat(Tok::LBrace) {
            let mut names = vec![self.ident()?];
            while self.eat(Tok::Comma).is_some() {
                names.push(self.ident()?);
            }
            self.expect(Tok::RBrace)?;
            return Ok(Type::Set(names, self.since(open.span)));
        }
        let mut chain = vec![self.ident()?];
        while self.eat(Tok::Arrow).is_some() {
            if chain.len() >= MAX_NESTING {
                return Err(Error::new(
                    self.peek().span,
                    format!("expected at most {MAX_NESTING} arrows in a type, found more"),
                ));
            }
            chain.push(self.ident()?);
        }
        let mut ty = Type::Name(chain.pop().expect("one name"));
        while let Some(source) = chain.pop() {
            ty = Type::Arrow(Box::new(Type::Name(source)), Box::new(ty));
        }
        Ok(ty)
    }

    /// `name ':' type` then cases (a function) or `[= expr]` (a variable).
    fn declaration(&mut self, game: &mut Game) -> Result<(), Error> {
        let name = self.ident()?;
        self.expect(Tok::Colon)?;
        let ty = self.ty()?;
        let (t, next) = (self.peek(), self.peek_at(1));
        if t.tok == Tok::Name && next.tok == Tok::LParen {
            let mut cases = Vec::new();
            while self.peek().tok == Tok::Name && self.peek_at(1).tok == Tok::LParen {
                if self.text_of(self.peek()) != name.text {
                    return Err(self.unexpected(&format!("a case of `{}`", name.text)));
                }
                cases.push(self.case()?);
            }
            game.functions.push(Function { name, ty, cases });
        } else {
            let init = if self.eat(Tok::Eq).is_some() {
                Some(self.expr()?)
            } else {
                None
            };
            game.variables.push(VarDecl { name, ty, init });
        }
        Ok(())
    }

    /// `name '(' [ pattern { ',' pattern } ] ')' '=' expr`
    fn case(&mut self) -> Result<Case, Error> {
        let start = self.bump().span;
        self.expect(Tok::LParen)?;
        let mut patterns = Vec::new();
        if self.eat(Tok::RParen).is_none() {
            loop {
                patterns.push(self.pattern()?);
                if self.eat(Tok::Comma).is_none() {
                    break;
                }
            }
            self.expect(Tok::RParen)?;
        }
        self.expect(Tok::Eq)?;
        let body = self.expr()?;
        Ok(Case {
            patterns,
            body,
            span: self.since(start),
        })
    }

    /// `[ 'reusable' ] 'graph' name '(' params ')' block`
    fn graph(&mut self, reusable: bool) -> Result<Graph, Error> {
        self.bump();
        let name = self.ident()?;
        self.expect(Tok::LParen)?;
        let mut params = Vec::new();
        if self.eat(Tok::RParen).is_none() {
            loop {
                let p = self.ident()?;
                self.expect(Tok::Colon)?;
                params.push((p, self.ty()?));
                if self.eat(Tok::Comma).is_none() {
                    break;
                }
            }
            self.expect(Tok::RParen)?;
        }
        let body = self.block()?;
        Ok(Graph {
            reusable,
            name,
            params,
            body,
        })
    }
}

#[cfg(test)]
mod tests;
