//! Tokens, read on demand: the parser pulls one token at a time, and reads the
//! text of unknown pragmas raw (it may contain anything but `;`).
//!
//! A name is a maximal run of Unicode alphanumerics and `_` (it may start with a
//! digit). Whitespace is space, tab, CR and LF; `//` starts a comment to the end
//! of the line. Each token records whether whitespace or a comment preceded it,
//! because an access's `[` must follow its expression directly.

use rbg_lang::{Error, Span};

/// The kinds of token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tok {
    /// A name (identifier, symbol, number).
    Name,
    /// `,`
    Comma,
    /// `:`
    Colon,
    /// `;`
    Semi,
    /// `=`
    Eq,
    /// `==`
    EqEq,
    /// `!=`
    NotEq,
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `[`
    LBracket,
    /// `]`
    RBracket,
    /// `{`
    LBrace,
    /// `}`
    RBrace,
    /// `->`
    Arrow,
    /// `?`
    Question,
    /// `!`
    Bang,
    /// `$`
    Dollar,
    /// `$$`
    DollarDollar,
    /// `*`
    Star,
    /// `@`
    At,
    /// The end of the text.
    Eof,
}

impl Tok {
    /// How the token is shown in messages (names show their text instead).
    pub fn describe(self) -> &'static str {
        match self {
            Tok::Name => "a name",
            Tok::Comma => "`,`",
            Tok::Colon => "`:`",
            Tok::Semi => "`;`",
            Tok::Eq => "`=`",
            Tok::EqEq => "`==`",
            Tok::NotEq => "`!=`",
            Tok::LParen => "`(`",
            Tok::RParen => "`)`",
            Tok::LBracket => "`[`",
            Tok::RBracket => "`]`",
            Tok::LBrace => "`{`",
            Tok::RBrace => "`}`",
            Tok::Arrow => "`->`",
            Tok::Question => "`?`",
            Tok::Bang => "`!`",
            Tok::Dollar => "`$`",
            Tok::DollarDollar => "`$$`",
            Tok::Star => "`*`",
            Tok::At => "`@`",
            Tok::Eof => "end of file",
        }
    }
}

/// A token: its kind, where it is, and whether whitespace or a comment came
/// right before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    /// The kind.
    pub kind: Tok,
    /// The bytes it covers.
    pub span: Span,
    /// Whitespace or a comment directly precedes it.
    pub spaced: bool,
}

/// Whether `c` may be part of a name.
pub fn is_name_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// A cursor over the text that produces tokens on request.
#[derive(Clone, Debug)]
pub struct Lexer<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Lexer<'a> {
    /// A lexer at the start of `text`.
    pub fn new(text: &'a str) -> Lexer<'a> {
        Lexer { text, pos: 0 }
    }

    /// The whole text.
    pub fn text(&self) -> &'a str {
        self.text
    }

    /// The current byte offset.
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// The text from the current position on.
    pub fn rest(&self) -> &'a str {
        &self.text[self.pos..]
    }

    /// Moves the position forward by `n` bytes (a char boundary).
    pub fn advance(&mut self, n: usize) {
        self.pos += n;
    }

    /// Skips whitespace and comments; true when anything was skipped.
    pub fn skip_trivia(&mut self) -> bool {
        let start = self.pos;
        loop {
            let rest = self.rest();
            if rest.starts_with("//") {
                self.pos += rest.find('\n').unwrap_or(rest.len());
            } else if let Some(c) = rest
                .chars()
                .next()
                .filter(|c| matches!(c, ' ' | '\t' | '\r' | '\n'))
            {
                self.pos += c.len_utf8();
            } else {
                return self.pos > start;
            }
        }
    }

    /// Reads the next token.
    pub fn next_token(&mut self) -> Result<Token, Error> {
        let spaced = self.skip_trivia();
        let start = self.pos;
        let rest = self.rest();
        let Some(c) = rest.chars().next() else {
            return Ok(Token {
                kind: Tok::Eof,
                span: Span::new(start, start),
                spaced,
            });
        };
        let two = |second: char| rest[c.len_utf8()..].starts_with(second);
        let (kind, len) = match c {
            ',' => (Tok::Comma, 1),
            ':' => (Tok::Colon, 1),
            ';' => (Tok::Semi, 1),
            '=' if two('=') => (Tok::EqEq, 2),
            '=' => (Tok::Eq, 1),
            '!' if two('=') => (Tok::NotEq, 2),
            '!' => (Tok::Bang, 1),
            '(' => (Tok::LParen, 1),
            ')' => (Tok::RParen, 1),
            '[' => (Tok::LBracket, 1),
            ']' => (Tok::RBracket, 1),
            '{' => (Tok::LBrace, 1),
            '}' => (Tok::RBrace, 1),
            '-' if two('>') => (Tok::Arrow, 2),
            '?' => (Tok::Question, 1),
            '$' if two('$') => (Tok::DollarDollar, 2),
            '$' => (Tok::Dollar, 1),
            '*' => (Tok::Star, 1),
            '@' => (Tok::At, 1),
            c if is_name_char(c) => {
                let len = rest.find(|c| !is_name_char(c)).unwrap_or(rest.len());
                (Tok::Name, len)
            }
            c => {
                let span = Span::new(start, start + c.len_utf8());
                let shown = if c == '\u{FFFD}' {
                    "invalid UTF-8".to_string()
                } else if c.is_control() {
                    format!("character {:?}", c)
                } else {
                    format!("`{c}`")
                };
                return Err(Error::new(
                    span,
                    format!("expected a name or punctuation, found {shown}"),
                ));
            }
        };
        self.pos += len;
        Ok(Token {
            kind,
            span: Span::new(start, start + len),
            spaced,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<(Tok, bool)> {
        let mut lx = Lexer::new(text);
        let mut out = Vec::new();
        loop {
            let t = lx.next_token().unwrap();
            if t.kind == Tok::Eof {
                return out;
            }
            out.push((t.kind, t.spaced));
        }
    }

    #[test]
    fn punctuation_and_names() {
        use Tok::*;
        let got: Vec<Tok> = kinds("a,b: x[0a] == $$ y; // c ;\n->!=!?$*@(){}")
            .into_iter()
            .map(|(k, _)| k)
            .collect();
        assert_eq!(
            got,
            vec![
                Name,
                Comma,
                Name,
                Colon,
                Name,
                LBracket,
                Name,
                RBracket,
                EqEq,
                DollarDollar,
                Name,
                Semi,
                Arrow,
                NotEq,
                Bang,
                Question,
                Dollar,
                Star,
                At,
                LParen,
                RParen,
                LBrace,
                RBrace
            ]
        );
    }

    #[test]
    fn spacing_is_recorded() {
        let got = kinds("m[a] m [a] m//c\n[a]");
        let brackets: Vec<bool> = got
            .iter()
            .filter(|(k, _)| *k == Tok::LBracket)
            .map(|&(_, s)| s)
            .collect();
        assert_eq!(brackets, vec![false, true, true]);
    }

    #[test]
    fn unicode_names_and_bad_characters() {
        assert_eq!(
            kinds("żółw_1 ąę"),
            vec![(Tok::Name, false), (Tok::Name, true)]
        );
        let mut lx = Lexer::new("a # b");
        lx.next_token().unwrap();
        let e = lx.next_token().unwrap_err();
        assert_eq!((e.span.start, e.span.end), (2, 3));
        assert!(e.message.contains("found `#`"), "{}", e.message);
        let mut lx = Lexer::new("- >");
        assert!(lx.next_token().is_err());
    }
}
