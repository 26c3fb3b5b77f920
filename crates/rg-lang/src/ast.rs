//! The syntax tree of an RG description, as written (built-ins are not added).
//!
//! Every name carries the place it was read from ([`Loc`]), but positions never
//! take part in equality or hashing: a parsed game and the same game printed
//! and parsed again compare equal. Games built by programs (translators) use
//! [`Name::new`] and positions default to `0..0`.
//!
//! The declarations of each kind keep their order in the file; the order
//! between kinds carries no meaning (constants may only use earlier constants,
//! edges are tried in file order).

use std::fmt;
use std::hash::{Hash, Hasher};

use rbg_lang::Span;

/// Where a piece of syntax was read from. All `Loc`s compare equal.
#[derive(Clone, Copy, Default)]
pub struct Loc(pub Span);

impl PartialEq for Loc {
    fn eq(&self, _: &Loc) -> bool {
        true
    }
}

impl Eq for Loc {}

impl Hash for Loc {
    fn hash<H: Hasher>(&self, _: &mut H) {}
}

impl fmt::Debug for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "@{}..{}", self.0.start, self.0.end)
    }
}

/// A name (type, constant, variable, symbol, node, tag) with its position.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Name {
    /// The name's text.
    pub text: String,
    /// Where it was read.
    pub loc: Loc,
}

impl Name {
    /// A name without a position (for games built by programs).
    pub fn new(text: impl Into<String>) -> Name {
        Name {
            text: text.into(),
            loc: Loc::default(),
        }
    }

    /// A name read at `span`.
    pub fn at(text: impl Into<String>, span: Span) -> Name {
        Name {
            text: text.into(),
            loc: Loc(span),
        }
    }

    /// The span it was read at.
    pub fn span(&self) -> Span {
        self.loc.0
    }
}

impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.text)
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// A complete description.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Game {
    /// `type T = t;` in file order.
    pub types: Vec<TypeDef>,
    /// `const c: T = v;` in file order.
    pub constants: Vec<Binding>,
    /// `var x: T = v;` in file order.
    pub variables: Vec<Binding>,
    /// The rules automaton's edges in file order.
    pub edges: Vec<Edge>,
    /// `@...;` in file order.
    pub pragmas: Vec<Pragma>,
}

/// `type name = ty;`
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TypeDef {
    /// The alias.
    pub name: Name,
    /// What it stands for.
    pub ty: Type,
}

/// `const name: ty = value;` or `var name: ty = value;`
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Binding {
    /// The constant or variable.
    pub name: Name,
    /// Its declared type.
    pub ty: Type,
    /// Its value (constants) or initial value (variables).
    pub value: Value,
}

/// A type as written.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    /// `{a, b, c}` (at least one symbol).
    Set {
        /// The symbols in declaration order.
        symbols: Vec<Name>,
        /// The braces.
        loc: Loc,
    },
    /// `source -> target` (right associative).
    Arrow(Box<Type>, Box<Type>),
    /// A type alias's name.
    Ref(Name),
}

impl Type {
    /// The span of the whole type.
    pub fn span(&self) -> Span {
        match self {
            Type::Set { loc, .. } => loc.0,
            Type::Arrow(a, b) => a.span().to(b.span()),
            Type::Ref(n) => n.span(),
        }
    }

    /// A set type of the given symbols, without a position.
    pub fn set<S: Into<String>>(symbols: impl IntoIterator<Item = S>) -> Type {
        Type::Set {
            symbols: symbols.into_iter().map(Name::new).collect(),
            loc: Loc::default(),
        }
    }
}

/// A value in a `const` or `var` declaration.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// A symbol, or the name of a constant (replaced by its value).
    Name(Name),
    /// `{ k: v, ..., :default }`; a valid map has exactly one default entry.
    Map {
        /// The entries in the order written.
        entries: Vec<Entry>,
        /// The braces.
        loc: Loc,
    },
}

impl Value {
    /// The span of the whole value.
    pub fn span(&self) -> Span {
        match self {
            Value::Name(n) => n.span(),
            Value::Map { loc, .. } => loc.0,
        }
    }
}

/// One entry of a map value: `key: value` or `: value` (the default).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Entry {
    /// The key symbol; `None` for the default entry.
    pub key: Option<Name>,
    /// The value at that key.
    pub value: Value,
}

/// `from, to: label;`
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Edge {
    /// Source node.
    pub from: Name,
    /// Target node.
    pub to: Name,
    /// The action.
    pub label: Label,
    /// The whole edge.
    pub loc: Loc,
}

/// The action on an edge.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Label {
    /// No action.
    Skip,
    /// `$ s`: appends the tag `s` to the move.
    Tag(Name),
    /// `$$ v`: appends the current value of variable `v`.
    TagVariable(Name),
    /// `target = value`.
    Assign {
        /// The assigned place.
        target: Expr,
        /// The new value.
        value: Expr,
    },
    /// `target = T(*)`: one successor per symbol of `T`.
    AssignAny {
        /// The assigned place.
        target: Expr,
        /// The set type whose symbols are tried.
        ty: Type,
    },
    /// `left == right` (`equal`) or `left != right`.
    Compare {
        /// Left operand.
        left: Expr,
        /// Right operand.
        right: Expr,
        /// `==` when true, `!=` when false.
        equal: bool,
    },
    /// `? from -> to` (`positive`) or `! from -> to`.
    Reach {
        /// `?` when true, `!` when false.
        positive: bool,
        /// Start node of the check.
        from: Name,
        /// Node to reach.
        to: Name,
    },
}

/// An expression: a reference, an access or a cast.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Expr {
    /// A constant, a variable or a symbol (resolved in that order).
    Ref(Name),
    /// `map[key]`.
    Access {
        /// The accessed map.
        map: Box<Expr>,
        /// The key.
        key: Box<Expr>,
        /// The whole access.
        loc: Loc,
    },
    /// `T(expr)` (no run-time effect).
    Cast {
        /// The type alias cast to.
        ty: Name,
        /// The cast expression.
        expr: Box<Expr>,
        /// The whole cast.
        loc: Loc,
    },
}

impl Expr {
    /// A reference to `name`, without a position.
    pub fn name(name: impl Into<String>) -> Expr {
        Expr::Ref(Name::new(name))
    }

    /// `self[key]`, without a position.
    pub fn at(self, key: Expr) -> Expr {
        Expr::Access {
            map: Box::new(self),
            key: Box::new(key),
            loc: Loc::default(),
        }
    }

    /// The span of the whole expression.
    pub fn span(&self) -> Span {
        match self {
            Expr::Ref(n) => n.span(),
            Expr::Access { loc, .. } | Expr::Cast { loc, .. } => loc.0,
        }
    }

    /// The name at the root of the expression (`x` in `T(x)[a][b]`), found by
    /// skipping casts and accesses.
    pub fn root(&self) -> &Name {
        let mut e = self;
        loop {
            match e {
                Expr::Ref(n) => return n,
                Expr::Access { map, .. } => e = map,
                Expr::Cast { expr, .. } => e = expr,
            }
        }
    }
}

/// A typed tag in `@simpleApply`: `name` or `name: type` (no space before `:`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PragmaTag {
    /// The tag.
    pub name: Name,
    /// Its type, if given.
    pub ty: Option<Type>,
}

/// A pragma: a hint for the interpreter (`@...;`). Only `disjoint`,
/// `disjointExhaustive`, `repeat` and `unique` change how moves are enumerated.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Pragma {
    /// `@artificialTag t...;`
    ArtificialTag(Vec<Name>),
    /// `@disjoint n : m...;` or `@disjointExhaustive n : m...;`
    Disjoint {
        /// `disjointExhaustive` when true.
        exhaustive: bool,
        /// The node whose edges are disjoint.
        node: Name,
        /// The names after `:` (one per outgoing edge for the pragma to apply).
        targets: Vec<Name>,
    },
    /// `@integer digits : t...;`
    Integer {
        /// The number.
        digits: Name,
        /// The names after `:`.
        names: Vec<Name>,
    },
    /// `@iterator a b c : t;`
    Iterator {
        /// The three nodes.
        nodes: [Name; 3],
        /// The name after `:`.
        name: Name,
    },
    /// `@repeat n... : v...;`: at these nodes the visited key keeps only the
    /// listed variables (and the node and tags).
    Repeat {
        /// The nodes.
        nodes: Vec<Name>,
        /// The variables kept in the key.
        variables: Vec<Name>,
    },
    /// `@simpleApply a b [tags] assignments;` (or `simpleApplyExhaustive`).
    SimpleApply {
        /// `simpleApplyExhaustive` when true.
        exhaustive: bool,
        /// First node.
        from: Name,
        /// Second node.
        to: Name,
        /// The bracketed tags.
        tags: Vec<PragmaTag>,
        /// The assignments after the brackets.
        assignments: Vec<(Expr, Expr)>,
    },
    /// `@tagIndex n... : digits;` or `@tagMaxIndex n... : digits;`
    TagIndex {
        /// `tagMaxIndex` when true.
        max: bool,
        /// The nodes.
        nodes: Vec<Name>,
        /// The number.
        index: Name,
    },
    /// `@translatedFromRbg;`
    TranslatedFromRbg,
    /// `@unique n...;`: the visited check is skipped at these nodes.
    Unique(Vec<Name>),
    /// Any other pragma, the text between `@` and `;` verbatim.
    Unknown {
        /// The text (contains no `;`).
        text: String,
        /// Where it was read.
        loc: Loc,
    },
}
