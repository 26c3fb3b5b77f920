//! The syntax tree of an HRG description, as written, with spans.

use rbg_lang::Span;

/// A name and where it was read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ident {
    /// The text.
    pub text: String,
    /// Its position.
    pub span: Span,
}

impl Ident {
    /// Whether the name is a variable (its first character is uppercase).
    pub fn is_variable(&self) -> bool {
        is_variable(&self.text)
    }
}

/// Whether a name is a variable (its first character is uppercase); other
/// names are literals.
pub fn is_variable(name: &str) -> bool {
    name.chars().next().is_some_and(char::is_uppercase)
}

/// A whole description: the items of each kind in file order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Game {
    /// `domain D = ...`
    pub domains: Vec<Domain>,
    /// `f : T` with its cases.
    pub functions: Vec<Function>,
    /// `x : T [= e]`
    pub variables: Vec<VarDecl>,
    /// `[reusable] graph g(...) { ... }`
    pub graphs: Vec<Graph>,
}

/// `domain name = elements`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Domain {
    /// The domain's name.
    pub name: Ident,
    /// `|`-separated elements.
    pub elements: Vec<DomainElement>,
}

/// One element of a domain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DomainElement {
    /// A symbol, or the name of another domain (its values are inserted).
    Name(Ident),
    /// `C(a, ...) where X in ..., ...`: the constructor applied to every
    /// combination of its arguments' values.
    Generator {
        /// The constructor.
        name: Ident,
        /// The arguments: variables bound by `where`, or literals.
        args: Vec<Ident>,
        /// The `where` bindings.
        bindings: Vec<Binding>,
    },
}

/// `X in lo..hi` or `X in {a, b}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Binding {
    /// The bound variable.
    pub var: Ident,
    /// Its values.
    pub values: BindingValues,
}

/// The values a `where` binding ranges over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BindingValues {
    /// `lo..hi`, inclusive, ascending.
    Range(Ident, Ident),
    /// `{a, b, ...}` in written order.
    Set(Vec<Ident>),
}

/// A type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Type {
    /// `{a, b}` (at least one name).
    Set(Vec<Ident>, Span),
    /// A domain or built-in type name.
    Name(Ident),
    /// `A -> B` (right associative).
    Arrow(Box<Type>, Box<Type>),
}

impl Type {
    /// The span of the whole type.
    pub fn span(&self) -> Span {
        match self {
            Type::Set(_, s) => *s,
            Type::Name(n) => n.span,
            Type::Arrow(a, b) => a.span().to(b.span()),
        }
    }
}

/// `name : type` followed by its cases.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Function {
    /// The function's name.
    pub name: Ident,
    /// Its declared type (an arrow).
    pub ty: Type,
    /// `name(patterns) = expr`, tried in order.
    pub cases: Vec<Case>,
}

/// `name(p, ...) = body`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// The patterns, one per parameter.
    pub patterns: Vec<Pattern>,
    /// The value.
    pub body: Expr,
    /// The whole case.
    pub span: Span,
}

/// A pattern (function parameters, map keys).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pattern {
    /// `_`: matches anything.
    Wildcard(Span),
    /// A variable (uppercase first) binds; a literal matches itself.
    Name(Ident),
    /// `C(p, ...)`
    Constructor(Ident, Vec<Pattern>, Span),
}

impl Pattern {
    /// The span of the whole pattern.
    pub fn span(&self) -> Span {
        match self {
            Pattern::Wildcard(s) | Pattern::Constructor(_, _, s) => *s,
            Pattern::Name(n) => n.span,
        }
    }
}

/// `name : type [= init]`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VarDecl {
    /// The variable.
    pub name: Ident,
    /// Its type.
    pub ty: Type,
    /// Its initial value, evaluated at translation time.
    pub init: Option<Expr>,
}

/// `[reusable] graph name(params) { body }`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Graph {
    /// `reusable`: translated once and shared by all its calls.
    pub reusable: bool,
    /// The graph's name.
    pub name: Ident,
    /// `name: type` parameters.
    pub params: Vec<(Ident, Type)>,
    /// The statements.
    pub body: Vec<Stmt>,
}

/// A binary operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `%`
    Mod,
    /// `in`
    In,
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
    /// `&&`
    And,
    /// `||`
    Or,
}

impl BinOp {
    /// The operator as written.
    pub fn text(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mod => "%",
            BinOp::In => "in",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::And => "&&",
            BinOp::Or => "||",
        }
    }
}

/// An expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expr {
    /// A literal (lowercase first) or variable (uppercase first) name.
    Name(Ident),
    /// `C(args)`, C uppercase: a constructor value.
    Constructor(Ident, Vec<Expr>, Span),
    /// `f(args)`: a function call (or a map access at run time).
    Call(Box<Expr>, Vec<Expr>, Span),
    /// `m[k]`
    Access(Box<Expr>, Box<Expr>, Span),
    /// `a op b`
    Binary(BinOp, Box<Expr>, Box<Expr>, Span),
    /// `if c then a else b`
    If(Box<Expr>, Box<Expr>, Box<Expr>, Span),
    /// `{ :default; parts }` or `{ parts }`.
    Map {
        /// The default value, if given.
        default: Option<Box<Expr>>,
        /// The parts.
        parts: Vec<MapPart>,
        /// The braces.
        span: Span,
    },
}

impl Expr {
    /// The span of the whole expression.
    pub fn span(&self) -> Span {
        match self {
            Expr::Name(n) => n.span,
            Expr::Constructor(_, _, s)
            | Expr::Call(_, _, s)
            | Expr::Access(_, _, s)
            | Expr::Binary(_, _, _, s)
            | Expr::If(_, _, _, s)
            | Expr::Map { span: s, .. } => *s,
        }
    }
}

/// `pattern = value [where bindings]` in a map literal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapPart {
    /// The key pattern.
    pub key: Pattern,
    /// The value.
    pub value: Expr,
    /// The `where` bindings (the part is expanded over their product).
    pub bindings: Vec<Binding>,
}

/// A statement of a graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stmt {
    /// What it is.
    pub kind: StmtKind,
    /// The whole statement.
    pub span: Span,
}

/// The kinds of statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StmtKind {
    /// `x[i]... = e`
    Assign {
        /// The assigned variable.
        root: Ident,
        /// The indices.
        indices: Vec<Expr>,
        /// The value.
        value: Expr,
    },
    /// `x[i]... = T(*)`
    AssignAny {
        /// The assigned variable.
        root: Ident,
        /// The indices.
        indices: Vec<Expr>,
        /// The type whose values are tried.
        ty: Type,
    },
    /// `branch x in T { ... }`: one arm per value of `T`.
    BranchIn {
        /// The variable substituted in each arm.
        var: Ident,
        /// Its values.
        ty: Type,
        /// The arm.
        body: Vec<Stmt>,
    },
    /// `branch { ... } or { ... } ...`
    Branch(Vec<Vec<Stmt>>),
    /// `g(args)`: a graph or a built-in (`check`, `end`, `break`, ...).
    Call {
        /// The called name.
        name: Ident,
        /// The arguments.
        args: Vec<Expr>,
    },
    /// `if c { ... } [else ...]` (`else if` is an `else` holding one `if`).
    If {
        /// The condition.
        cond: Expr,
        /// Taken when it holds.
        then: Vec<Stmt>,
        /// Taken otherwise.
        otherwise: Option<Vec<Stmt>>,
    },
    /// `loop { ... }`
    Loop(Vec<Stmt>),
    /// `repeat n { ... }`
    Repeat {
        /// How many times.
        count: Ident,
        /// The body.
        body: Vec<Stmt>,
    },
    /// `repeat x in T { ... }`: the body once per value of `T`.
    RepeatIn {
        /// The variable substituted in each iteration.
        var: Ident,
        /// Its values.
        ty: Type,
        /// The body.
        body: Vec<Stmt>,
    },
    /// `while c { ... }`
    While {
        /// The condition.
        cond: Expr,
        /// The body.
        body: Vec<Stmt>,
    },
    /// `$$ v`: the value of `v` as a tag.
    TagVariable(Ident),
    /// `$ t`, `$ (a b c)`, `$_ t`.
    Tag {
        /// `$_`: an artificial tag.
        artificial: bool,
        /// The names, joined by `__`.
        names: Vec<Ident>,
    },
}
