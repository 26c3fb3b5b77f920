//! Text → tokens (`hrg-language.md` §1).
//!
//! A name is a maximal run of Unicode alphanumerics and `_` (it may start with
//! a digit); `const`, `type` and `var` are reserved. Whitespace is space, tab,
//! CR and LF; `//` starts a comment to the end of the line. Each token records
//! whether whitespace or a comment follows it, because the operator `in` must
//! be followed by whitespace.

use rbg_lang::{Error, Span};

/// The kinds of token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tok {
    /// A name (identifier, symbol, number).
    Name,
    /// `=`
    Eq,
    /// `==`
    EqEq,
    /// `!=`
    NotEq,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `+`
    Plus,
    /// `-`
    Minus,
    /// `%`
    Percent,
    /// `&&`
    AndAnd,
    /// `||`
    OrOr,
    /// `|`
    Pipe,
    /// `->`
    Arrow,
    /// `..`
    DotDot,
    /// `,`
    Comma,
    /// `:`
    Colon,
    /// `;`
    Semi,
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
    /// `*`
    Star,
    /// `$`
    Dollar,
    /// `$$`
    DollarDollar,
    /// `$_` (an artificial tag)
    DollarUnderscore,
    /// The end of the text.
    Eof,
}

impl Tok {
    /// How the token is shown in messages (names show their text instead).
    pub fn describe(self) -> &'static str {
        match self {
            Tok::Name => "a name",
            Tok::Eq => "`=`",
            Tok::EqEq => "`==`",
            Tok::NotEq => "`!=`",
            Tok::Lt => "`<`",
            Tok::Le => "`<=`",
            Tok::Gt => "`>`",
            Tok::Ge => "`>=`",
            Tok::Plus => "`+`",
            Tok::Minus => "`-`",
            Tok::Percent => "`%`",
            Tok::AndAnd => "`&&`",
            Tok::OrOr => "`||`",
            Tok::Pipe => "`|`",
            Tok::Arrow => "`->`",
            Tok::DotDot => "`..`",
            Tok::Comma => "`,`",
            Tok::Colon => "`:`",
            Tok::Semi => "`;`",
            Tok::LParen => "`(`",
            Tok::RParen => "`)`",
            Tok::LBracket => "`[`",
            Tok::RBracket => "`]`",
            Tok::LBrace => "`{`",
            Tok::RBrace => "`}`",
            Tok::Star => "`*`",
            Tok::Dollar => "`$`",
            Tok::DollarDollar => "`$$`",
            Tok::DollarUnderscore => "`$_`",
            Tok::Eof => "the end of the file",
        }
    }
}

/// A token and where it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    /// Its kind.
    pub tok: Tok,
    /// Its text's position.
    pub span: Span,
    /// Whether whitespace or a comment follows it directly.
    pub space_after: bool,
}

/// The reserved words (a name equal to one of them is an error).
pub const KEYWORDS: [&str; 3] = ["const", "type", "var"];

/// Whether `c` may be part of a name.
pub fn is_name_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Splits `text` into tokens; the last one is [`Tok::Eof`].
pub fn tokenize(text: &str) -> Result<Vec<Token>, Error> {
    let bytes = text.as_bytes();
    let mut tokens: Vec<Token> = Vec::new();
    let mut i = 0;
    while i < text.len() {
        let c = text[i..].chars().next().expect("inside the text");
        if matches!(c, ' ' | '\t' | '\r' | '\n') {
            i += 1;
            mark_space(&mut tokens);
            continue;
        }
        if text[i..].starts_with("//") {
            i = text[i..].find('\n').map_or(text.len(), |n| i + n);
            mark_space(&mut tokens);
            continue;
        }
        let two = bytes.get(i + 1).copied();
        let (tok, len) = if is_name_char(c) {
            let len = text[i..]
                .find(|c: char| !is_name_char(c))
                .unwrap_or(text.len() - i);
            let word = &text[i..i + len];
            if KEYWORDS.contains(&word) {
                return Err(Error::new(
                    Span::new(i, i + len),
                    format!("expected a name, found the reserved word `{word}`"),
                ));
            }
            (Tok::Name, len)
        } else {
            match (c, two) {
                ('=', Some(b'=')) => (Tok::EqEq, 2),
                ('=', _) => (Tok::Eq, 1),
                ('!', Some(b'=')) => (Tok::NotEq, 2),
                ('<', Some(b'=')) => (Tok::Le, 2),
                ('<', _) => (Tok::Lt, 1),
                ('>', Some(b'=')) => (Tok::Ge, 2),
                ('>', _) => (Tok::Gt, 1),
                ('+', _) => (Tok::Plus, 1),
                ('-', Some(b'>')) => (Tok::Arrow, 2),
                ('-', _) => (Tok::Minus, 1),
                ('%', _) => (Tok::Percent, 1),
                ('&', Some(b'&')) => (Tok::AndAnd, 2),
                ('|', Some(b'|')) => (Tok::OrOr, 2),
                ('|', _) => (Tok::Pipe, 1),
                ('.', Some(b'.')) => (Tok::DotDot, 2),
                (',', _) => (Tok::Comma, 1),
                (':', _) => (Tok::Colon, 1),
                (';', _) => (Tok::Semi, 1),
                ('(', _) => (Tok::LParen, 1),
                (')', _) => (Tok::RParen, 1),
                ('[', _) => (Tok::LBracket, 1),
                (']', _) => (Tok::RBracket, 1),
                ('{', _) => (Tok::LBrace, 1),
                ('}', _) => (Tok::RBrace, 1),
                ('*', _) => (Tok::Star, 1),
                ('$', Some(b'$')) => (Tok::DollarDollar, 2),
                ('$', Some(b'_')) => (Tok::DollarUnderscore, 2),
                ('$', _) => (Tok::Dollar, 1),
                _ => {
                    let what = if c == char::REPLACEMENT_CHARACTER {
                        "bytes that are not UTF-8".to_string()
                    } else {
                        format!("the character {c:?}")
                    };
                    return Err(Error::new(
                        Span::new(i, i + c.len_utf8()),
                        format!("expected a name, an operator or punctuation, found {what}"),
                    ));
                }
            }
        };
        tokens.push(Token {
            tok,
            span: Span::new(i, i + len),
            space_after: false,
        });
        i += len;
    }
    tokens.push(Token {
        tok: Tok::Eof,
        span: Span::new(text.len(), text.len()),
        space_after: true,
    });
    Ok(tokens)
}

fn mark_space(tokens: &mut [Token]) {
    if let Some(t) = tokens.last_mut() {
        t.space_after = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<Tok> {
        tokenize(text).unwrap().iter().map(|t| t.tok).collect()
    }

    #[test]
    fn operators_and_names() {
        use Tok::*;
        assert_eq!(
            kinds("a->b == c != d <= >= < > .. $_x $$ $ || && | // c\n%"),
            vec![
                Name,
                Arrow,
                Name,
                EqEq,
                Name,
                NotEq,
                Name,
                Le,
                Ge,
                Lt,
                Gt,
                DotDot,
                DollarUnderscore,
                Name,
                DollarDollar,
                Dollar,
                OrOr,
                AndAnd,
                Pipe,
                Percent,
                Eof
            ]
        );
        assert_eq!(kinds("0..2"), vec![Name, DotDot, Name, Eof]);
        assert_eq!(kinds("N-1"), vec![Name, Minus, Name, Eof]);
    }

    #[test]
    fn space_after() {
        let t = tokenize("in x in//c\ny").unwrap();
        assert!(t[0].space_after);
        assert!(t[2].space_after);
        assert!(!t[3].space_after);
    }

    #[test]
    fn errors() {
        assert!(tokenize("a & b").is_err());
        assert!(tokenize("a . b").is_err());
        assert!(tokenize("type").is_err());
        assert!(tokenize("a / b").is_err());
        assert!(tokenize("typeX").is_ok());
    }
}
