//! `#rules`: regular expressions over actions, arithmetic and the HL-RBG
//! sugar (`e^n`, `[a,b]`, `[$ a = 1, b = 2]`).
//!
//! Grammar (precedence from the highest: postfix `*`/`^n`, concatenation,
//! `+`):
//!
//! ```text
//! sum     := concat ('+' concat)*
//! concat  := postfix postfix*
//! postfix := atom ('*' | '^' nat)*
//! atom    := '(' sum ')' | label | '.' | '->' player | '->>'
//!          | '{' '}' | '{' piece (',' piece)* '}'
//!          | '{' ('?' | '!') sum '}' | '{' '$' arith cmp arith '}'
//!          | '[' piece (',' piece)* ']' | '[' '$' var '=' arith (',' var '=' arith)* ']'
//! arith   := term (('+' | '-') term)*
//! term    := factor (('*' | '/') factor)*
//! factor  := '(' arith ')' | nat | variable | player | piece
//! ```

mod arith;

use super::{parse_nat, Cursor, Kind, Names, MAX_ACTIONS, MAX_NESTING};
use crate::ast::{Action, CmpOp, PieceId, Rule};
use crate::error::{Error, Result, Span};
use crate::lexer::TokenKind;

/// Parses the whole `#rules` section. Also returns the span of every action
/// in the order of [`Rule::for_each_action`] (see [`crate::ActionSpans`]).
pub(super) fn parse_rules(c: &mut Cursor, names: &Names) -> Result<(Rule, Vec<Span>)> {
    let mut p = Parser {
        c,
        names,
        depth: 0,
        in_pattern: 0,
        actions: 0,
        spans: Vec::new(),
    };
    let rule = p.rules()?;
    debug_assert_eq!(p.spans.len() as u64, p.actions);
    Ok((rule, p.spans))
}

struct Parser<'c, 'a> {
    c: &'c mut Cursor<'a>,
    names: &'c Names,
    /// Current `(`/`{`/`[` nesting.
    depth: usize,
    /// Number of enclosing patterns.
    in_pattern: usize,
    /// Actions created so far (after unrolling).
    actions: u64,
    /// Span of every action created so far, in pre-order: a pattern's span
    /// (its `{?`/`{!`) comes before its body's, and `^n` repeats the spans of
    /// its operand.
    spans: Vec<Span>,
}

/// A parsed rule and the number of actions in it (patterns included).
type Counted = (Rule, u64);

/// What may start an atom.
fn starts_atom(k: Option<&TokenKind>) -> bool {
    matches!(
        k,
        Some(
            TokenKind::LParen
                | TokenKind::Ident(_)
                | TokenKind::Dot
                | TokenKind::LBrace
                | TokenKind::LBracket
                | TokenKind::Arrow
                | TokenKind::DoubleArrow
        )
    )
}

const ATOM: &str = "an action or `(`";

impl Parser<'_, '_> {
    /// Enters one level of bracket nesting opened at `open`.
    fn enter(&mut self, open: Span) -> Result<()> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(Error::new(
                open,
                format!("nesting deeper than {MAX_NESTING} levels"),
            ));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// Records `n` new actions.
    fn add_actions(&mut self, n: u64, at: Span) -> Result<()> {
        self.actions = self.actions.saturating_add(n);
        if self.actions > MAX_ACTIONS {
            return Err(Error::new(
                at,
                format!(
                    "the rules are too large: more than {MAX_ACTIONS} actions after unrolling `^`"
                ),
            ));
        }
        Ok(())
    }

    fn action(&mut self, a: Action, at: Span) -> Result<Counted> {
        self.add_actions(1, at)?;
        self.spans.push(at);
        Ok((Rule::Action(a), 1))
    }

    /// The whole rules, iteratively: an explicit stack of open `(` and
    /// `{?`/`{!` groups keeps the parser's own stack use constant.
    fn rules(&mut self) -> Result<Rule> {
        let mut stack = vec![Group {
            open: Span::default(),
            kind: GroupKind::Root,
            alts: Vec::new(),
            cat: Vec::new(),
            n: 0,
        }];
        loop {
            let span = self.c.here();
            let (kind, open) = match stack.last() {
                Some(g) => (g.kind, g.open),
                None => return Err(self.c.expected(ATOM)),
            };
            match (self.c.peek_kind(), self.c.peek2_kind()) {
                (Some(TokenKind::LParen), _) => {
                    self.c.bump();
                    self.enter(span)?;
                    stack.push(Group::new(span, GroupKind::Paren));
                }
                (Some(TokenKind::LBrace), Some(TokenKind::Question | TokenKind::Bang)) => {
                    self.c.bump();
                    let negated = self.c.at(&TokenKind::Bang);
                    self.c.bump();
                    self.enter(span)?;
                    self.in_pattern += 1;
                    self.add_actions(1, span)?;
                    self.spans.push(span);
                    stack.push(Group::new(span, GroupKind::Pattern(negated)));
                }
                (k, _) if starts_atom(k) => {
                    let atom = self.leaf()?;
                    let atom = self.postfix(atom)?;
                    if let Some(g) = stack.last_mut() {
                        g.cat.push(atom);
                    }
                }
                (Some(TokenKind::Plus), _) => {
                    match stack.last_mut() {
                        Some(g) if !g.cat.is_empty() => g.end_concat(),
                        _ => return Err(self.c.expected(ATOM)),
                    }
                    self.c.bump();
                }
                (close, _) => {
                    let closes = match kind {
                        GroupKind::Root => close.is_none(),
                        GroupKind::Paren => close == Some(&TokenKind::RParen),
                        GroupKind::Pattern(_) => close == Some(&TokenKind::RBrace),
                    };
                    let empty = stack.last().is_none_or(|g| g.cat.is_empty());
                    if empty {
                        return Err(self.c.expected(ATOM));
                    }
                    if !closes {
                        return Err(match kind {
                            GroupKind::Root => {
                                match self.c.finish("`+`, `*`, `^`, an action or `(`") {
                                    Err(e) => e,
                                    Ok(()) => self.c.expected(ATOM),
                                }
                            }
                            GroupKind::Paren => self
                                .c
                                .expected("`)`, `+` or an action")
                                .with_secondary(open, "this `(` is not closed"),
                            GroupKind::Pattern(_) => self
                                .c
                                .expected("`}`, `+` or an action")
                                .with_secondary(open, "this pattern is not closed"),
                        });
                    }
                    let Some(mut g) = stack.pop() else {
                        return Err(self.c.expected(ATOM));
                    };
                    g.end_concat();
                    let (rule, n) = (Rule::alt(g.alts), g.n);
                    if kind == GroupKind::Root {
                        return Ok(rule);
                    }
                    self.c.bump();
                    self.leave();
                    let done = match g.kind {
                        GroupKind::Pattern(negated) => {
                            self.in_pattern = self.in_pattern.saturating_sub(1);
                            Self::pattern(negated, rule, n)
                        }
                        _ => (rule, n),
                    };
                    let done = self.postfix(done)?;
                    if let Some(p) = stack.last_mut() {
                        p.cat.push(done);
                    }
                }
            }
        }
    }

    /// Applies the postfix operators `*` and `^n` following an atom.
    fn postfix(&mut self, (mut rule, mut n): Counted) -> Result<Counted> {
        loop {
            if self.c.eat(&TokenKind::Star).is_some() {
                // `e**` is `e*`; collapsing keeps the tree shallow.
                if !matches!(rule, Rule::Star(_)) {
                    rule = Rule::Star(Box::new(rule));
                }
            } else if let Some(caret) = self.c.eat(&TokenKind::Caret) {
                let times = match self.c.peek() {
                    Some(t) => match &t.kind {
                        TokenKind::Nat(s) => parse_nat(s, t.span)?,
                        _ => return Err(self.c.expected("a repetition count after `^`")),
                    },
                    None => return Err(self.c.expected("a repetition count after `^`")),
                };
                if times == 0 {
                    return Err(Error::new(
                        self.c.here(),
                        "expected a positive repetition count after `^`, found `0`",
                    ));
                }
                self.c.bump();
                let extra = n.saturating_mul(times - 1);
                self.add_actions(extra, caret)?;
                let operand = self.spans.len() - n as usize..self.spans.len();
                for _ in 1..times {
                    self.spans.extend_from_within(operand.clone());
                }
                n = n.saturating_mul(times);
                if times > 1 {
                    rule = Rule::concat(vec![rule; times as usize]);
                }
            } else {
                return Ok((rule, n));
            }
        }
    }

    /// The pattern action around a parsed body (counted, with its span, when
    /// the pattern was opened).
    fn pattern(negated: bool, rule: Rule, n: u64) -> Counted {
        (
            Rule::Action(Action::Pattern {
                negated,
                rule: Box::new(rule),
            }),
            n.saturating_add(1),
        )
    }

    /// A non-recursive atom.
    #[inline(never)]
    fn leaf(&mut self) -> Result<Counted> {
        let Some(tok) = self.c.peek() else {
            return Err(self.c.expected(ATOM));
        };
        let span = tok.span;
        match &tok.kind {
            TokenKind::Ident(name) => {
                self.c.bump();
                let (_, d) =
                    self.names
                        .resolve(name, span, &[Kind::Dir], "a direction (edge label)")?;
                self.action(Action::Shift(d), span)
            }
            TokenKind::Dot => {
                self.c.bump();
                self.action(Action::Noop, span)
            }
            TokenKind::Arrow => {
                self.c.bump();
                let (name, pspan) = self.c.ident("a player name after `->`")?;
                if self.in_pattern > 0 {
                    return Err(Error::new(
                        span.to(pspan),
                        "switches are not allowed inside patterns `{? ...}` and `{! ...}`",
                    ));
                }
                let (_, p) = self
                    .names
                    .resolve(name, pspan, &[Kind::Player], "a player")?;
                self.action(Action::Switch(Some(p)), span)
            }
            TokenKind::DoubleArrow => {
                if self.in_pattern > 0 {
                    return Err(Error::new(
                        span,
                        "switches are not allowed inside patterns `{? ...}` and `{! ...}`",
                    ));
                }
                self.c.bump();
                self.action(Action::Switch(None), span)
            }
            TokenKind::LBrace => {
                self.c.bump();
                self.enter(span)?;
                let r = self.brace(span)?;
                self.leave();
                Ok(r)
            }
            TokenKind::LBracket => {
                self.c.bump();
                self.enter(span)?;
                let r = self.bracket()?;
                self.leave();
                Ok(r)
            }
            _ => Err(self.c.expected(ATOM)),
        }
    }

    /// After `{`: on or comparison.
    fn brace(&mut self, open: Span) -> Result<Counted> {
        match self.c.peek_kind() {
            Some(TokenKind::Dollar) => {
                self.c.bump();
                let lhs = self.arith()?;
                let op = match self.c.peek_kind() {
                    Some(TokenKind::Lt) => CmpOp::Lt,
                    Some(TokenKind::Le) => CmpOp::Le,
                    Some(TokenKind::Eq) => CmpOp::Eq,
                    Some(TokenKind::Ne) => CmpOp::Ne,
                    Some(TokenKind::Gt) => CmpOp::Gt,
                    Some(TokenKind::Ge) => CmpOp::Ge,
                    _ => return Err(self.c.expected(
                        "an arithmetic operator or a comparison (`<`, `<=`, `==`, `!=`, `>`, `>=`)",
                    )),
                };
                self.c.bump();
                let rhs = self.arith()?;
                self.c
                    .expect(&TokenKind::RBrace, "an arithmetic operator or `}`")?;
                self.action(Action::Compare(lhs, op, rhs), open)
            }
            Some(TokenKind::RBrace) => {
                self.c.bump();
                self.action(Action::On(Vec::new()), open)
            }
            Some(TokenKind::Ident(_)) => {
                let mut set: Vec<PieceId> = Vec::new();
                loop {
                    set.push(self.piece()?);
                    if self.c.eat(&TokenKind::Comma).is_some() {
                        continue;
                    }
                    self.c.expect(&TokenKind::RBrace, "`,` or `}`")?;
                    break;
                }
                set.sort_unstable();
                set.dedup();
                self.action(Action::On(set), open)
            }
            _ => Err(self
                .c
                .expected("a piece name, `}`, `?`, `!` or `$` after `{`")),
        }
    }

    /// After `[`: offs or assignments.
    fn bracket(&mut self) -> Result<Counted> {
        if self.c.eat(&TokenKind::Dollar).is_some() {
            let mut parts = Vec::new();
            loop {
                let (name, span) = self.c.ident("a variable name")?;
                let (_, v) = self.names.resolve(
                    name,
                    span,
                    &[Kind::Variable, Kind::Player],
                    "a variable or player",
                )?;
                self.c.expect(&TokenKind::Assign, "`=`")?;
                let e = self.arith()?;
                parts.push(self.action(Action::Assign(v, e), span)?.0);
                if self.c.eat(&TokenKind::Comma).is_some() {
                    continue;
                }
                self.c
                    .expect(&TokenKind::RBracket, "an arithmetic operator, `,` or `]`")?;
                break;
            }
            let n = parts.len() as u64;
            return Ok((Rule::concat(parts), n));
        }
        if !matches!(self.c.peek_kind(), Some(TokenKind::Ident(_))) {
            return Err(self.c.expected("a piece name or `$` after `[`"));
        }
        let mut parts = Vec::new();
        loop {
            let span = self.c.here();
            let p = self.piece()?;
            parts.push(self.action(Action::Off(p), span)?.0);
            if self.c.eat(&TokenKind::Comma).is_some() {
                continue;
            }
            self.c.expect(&TokenKind::RBracket, "`,` or `]`")?;
            break;
        }
        let n = parts.len() as u64;
        Ok((Rule::alt(parts), n))
    }

    fn piece(&mut self) -> Result<PieceId> {
        let (name, span) = self.c.ident("a piece name")?;
        Ok(self.names.resolve(name, span, &[Kind::Piece], "a piece")?.1)
    }
}

/// An open group of the rules.
struct Group {
    open: Span,
    kind: GroupKind,
    /// Finished alternatives.
    alts: Vec<Rule>,
    /// The current alternative's parts.
    cat: Vec<Counted>,
    /// Actions in `alts`.
    n: u64,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum GroupKind {
    Root,
    Paren,
    Pattern(bool),
}

impl Group {
    fn new(open: Span, kind: GroupKind) -> Group {
        Group {
            open,
            kind,
            alts: Vec::new(),
            cat: Vec::new(),
            n: 0,
        }
    }

    /// Moves the current concatenation to the alternatives.
    fn end_concat(&mut self) {
        let parts = std::mem::take(&mut self.cat);
        self.n = parts.iter().fold(self.n, |a, p| a.saturating_add(p.1));
        self.alts
            .push(Rule::concat(parts.into_iter().map(|p| p.0).collect()));
    }
}
