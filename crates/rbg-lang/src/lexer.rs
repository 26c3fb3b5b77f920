//! Lexical analysis (paper appendix, "Lexical analysis").
//!
//! Tokens are taken greedily (longest match); whitespace and `//`, `/* */`
//! comments separate tokens and are dropped. Every token keeps its [`Span`].
//! Keywords (`players`, `rectangle`, ...) are lexed as identifiers; the parser
//! recognises them by context.

use std::fmt;
use std::rc::Rc;

use crate::error::{Error, Result, Span};

/// The kind of a token; identifiers and numbers carry their text.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TokenKind {
    /// `alpha { alphanum }`
    Ident(Rc<str>),
    /// `digit { digit }`, kept as text so that overflow is reported where the
    /// number is used.
    Nat(Rc<str>),
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `{`
    LBrace,
    /// `}`
    RBrace,
    /// `[`
    LBracket,
    /// `]`
    RBracket,
    /// `?`
    Question,
    /// `!`
    Bang,
    /// `$`
    Dollar,
    /// `%`
    Percent,
    /// `~`
    Tilde,
    /// `#`
    Hash,
    /// `-`
    Minus,
    /// `+`
    Plus,
    /// `^`
    Caret,
    /// `/`
    Slash,
    /// `*`
    Star,
    /// `,`
    Comma,
    /// `;`
    Semicolon,
    /// `:`
    Colon,
    /// `.`
    Dot,
    /// `=`
    Assign,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `->`
    Arrow,
    /// `->>`
    DoubleArrow,
}

impl TokenKind {
    /// The source text of the token.
    pub fn text(&self) -> &str {
        use TokenKind::*;
        match self {
            Ident(s) | Nat(s) => s,
            LParen => "(",
            RParen => ")",
            LBrace => "{",
            RBrace => "}",
            LBracket => "[",
            RBracket => "]",
            Question => "?",
            Bang => "!",
            Dollar => "$",
            Percent => "%",
            Tilde => "~",
            Hash => "#",
            Minus => "-",
            Plus => "+",
            Caret => "^",
            Slash => "/",
            Star => "*",
            Comma => ",",
            Semicolon => ";",
            Colon => ":",
            Dot => ".",
            Assign => "=",
            Eq => "==",
            Ne => "!=",
            Lt => "<",
            Le => "<=",
            Gt => ">",
            Ge => ">=",
            Arrow => "->",
            DoubleArrow => "->>",
        }
    }

    /// The identifier text, if this is an identifier.
    pub fn ident(&self) -> Option<&str> {
        match self {
            TokenKind::Ident(s) => Some(s),
            _ => None,
        }
    }
}

impl fmt::Display for TokenKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text())
    }
}

/// A token with the place it was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// What the token is.
    pub kind: TokenKind,
    /// Where it was written (for tokens made by `~`, the pasted range).
    pub span: Span,
}

impl Token {
    /// A description for "found ..." messages: `` `text` ``.
    pub fn describe(&self) -> String {
        format!("`{}`", self.kind.text())
    }
}

/// The byte-order mark some editors put at the start of UTF-8 files.
pub const BOM: char = '\u{feff}';

/// Splits `text` into tokens, dropping whitespace, comments and a leading
/// byte-order mark.
pub fn lex(text: &str) -> Result<Vec<Token>> {
    let bytes = text.as_bytes();
    let mut tokens = Vec::new();
    // A UTF-8 byte-order mark at the start is not part of the text.
    let mut i = if text.starts_with(BOM) {
        BOM.len_utf8()
    } else {
        0
    };
    while i < bytes.len() {
        let b = bytes[i];
        if b.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if b == b'/' && bytes.get(i + 1) == Some(&b'/') {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if b == b'/' && bytes.get(i + 1) == Some(&b'*') {
            let start = i;
            i += 2;
            loop {
                if i + 1 >= bytes.len() {
                    return Err(Error::new(
                        Span::new(start, start + 2),
                        "unterminated comment: expected `*/` before the end of the file",
                    ));
                }
                if bytes[i] == b'*' && bytes[i + 1] == b'/' {
                    i += 2;
                    break;
                }
                i += 1;
            }
            continue;
        }
        let (kind, len) = match lex_one(&text[i..]) {
            Some(t) => t,
            None => {
                let ch = text[i..].chars().next().unwrap_or('\u{FFFD}');
                return Err(Error::new(
                    Span::new(i, i + ch.len_utf8()),
                    format!(
                        "unexpected character {ch:?}: expected a token, whitespace or a comment"
                    ),
                ));
            }
        };
        tokens.push(Token {
            kind,
            span: Span::new(i, i + len),
        });
        i += len;
    }
    Ok(tokens)
}

/// Lexes the longest token at the start of `s`, returning it and its length.
pub fn lex_one(s: &str) -> Option<(TokenKind, usize)> {
    use TokenKind::*;
    let bytes = s.as_bytes();
    let b = *bytes.first()?;
    if b.is_ascii_alphabetic() {
        let len = bytes
            .iter()
            .take_while(|c| c.is_ascii_alphanumeric())
            .count();
        return Some((Ident(Rc::from(&s[..len])), len));
    }
    if b.is_ascii_digit() {
        let len = bytes.iter().take_while(|c| c.is_ascii_digit()).count();
        return Some((Nat(Rc::from(&s[..len])), len));
    }
    let next = bytes.get(1).copied();
    let two = |k: TokenKind| Some((k, 2));
    let one = |k: TokenKind| Some((k, 1));
    match (b, next) {
        (b'-', Some(b'>')) => {
            if bytes.get(2) == Some(&b'>') {
                Some((DoubleArrow, 3))
            } else {
                two(Arrow)
            }
        }
        (b'=', Some(b'=')) => two(Eq),
        (b'!', Some(b'=')) => two(Ne),
        (b'<', Some(b'=')) => two(Le),
        (b'>', Some(b'=')) => two(Ge),
        (b'(', _) => one(LParen),
        (b')', _) => one(RParen),
        (b'{', _) => one(LBrace),
        (b'}', _) => one(RBrace),
        (b'[', _) => one(LBracket),
        (b']', _) => one(RBracket),
        (b'?', _) => one(Question),
        (b'!', _) => one(Bang),
        (b'$', _) => one(Dollar),
        (b'%', _) => one(Percent),
        (b'~', _) => one(Tilde),
        (b'#', _) => one(Hash),
        (b'-', _) => one(Minus),
        (b'+', _) => one(Plus),
        (b'^', _) => one(Caret),
        (b'/', _) => one(Slash),
        (b'*', _) => one(Star),
        (b',', _) => one(Comma),
        (b';', _) => one(Semicolon),
        (b':', _) => one(Colon),
        (b'.', _) => one(Dot),
        (b'=', _) => one(Assign),
        (b'<', _) => one(Lt),
        (b'>', _) => one(Gt),
        _ => None,
    }
}

/// If `text` is exactly one token, returns it (used to validate `~` pastes).
pub fn single_token(text: &str) -> Option<TokenKind> {
    match lex_one(text) {
        Some((kind, len)) if len == text.len() => Some(kind),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<String> {
        lex(s)
            .unwrap()
            .into_iter()
            .map(|t| t.kind.text().to_string())
            .collect()
    }

    #[test]
    fn greedy_arrows_and_comments() {
        assert_eq!(kinds("->>"), vec!["->>"]);
        assert_eq!(kinds("->/**/>"), vec!["->", ">"]);
        assert_eq!(kinds("a->b // c\n d"), vec!["a", "->", "b", "d"]);
        assert_eq!(kinds("{$ x>=1}"), vec!["{", "$", "x", ">=", "1", "}"]);
        assert_eq!(kinds("x1y 12ab"), vec!["x1y", "12", "ab"]);
        assert_eq!(kinds("!= ! = =="), vec!["!=", "!", "=", "=="]);
    }

    #[test]
    fn spans_and_errors() {
        let t = lex("  ab\n c").unwrap();
        assert_eq!(t[0].span, Span::new(2, 4));
        assert_eq!(t[1].span, Span::new(6, 7));
        let e = lex("a @").unwrap_err();
        assert_eq!(e.span, Span::new(2, 3));
        let e = lex("a /* never closed").unwrap_err();
        assert_eq!(e.span, Span::new(2, 4));
    }

    #[test]
    fn single_tokens() {
        assert!(single_token("xy").is_some());
        assert!(single_token("12").is_some());
        assert!(single_token("8y").is_none());
        assert!(single_token("->>").is_some());
        assert!(single_token("").is_none());
    }
}
