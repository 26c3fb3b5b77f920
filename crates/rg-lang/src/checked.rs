//! The checked, resolved form of a game: what [`crate::check::check`] returns
//! and the engine lowers. Names are gone (indices everywhere), casts are gone
//! (they have no run-time effect), constants in values are substituted and
//! the built-in declarations are present.

use std::collections::HashMap;

use crate::ast::Pragma;
use crate::types::{Sym, Symbols, Ty, TypeArena};
use rbg_lang::{Error, Span};

/// A node of the rules automaton.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Node(pub u32);

/// A value: a symbol, or a map with a default and explicit entries.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Val {
    /// A symbol.
    Sym(Sym),
    /// A map: every key without an entry maps to the default.
    Map {
        /// The default value.
        default: Box<Val>,
        /// Explicit entries, keys unique, in the order written.
        entries: Vec<(Sym, Val)>,
    },
}

impl Val {
    /// The value at `key` (the default when there is no entry); a symbol
    /// yields itself.
    pub fn get(&self, key: Sym) -> &Val {
        match self {
            Val::Sym(_) => self,
            Val::Map { default, entries } => entries
                .iter()
                .find(|(k, _)| *k == key)
                .map_or(&**default, |(_, v)| v),
        }
    }
}

/// A resolved expression (casts removed).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum CExpr {
    /// A constant (index into [`CheckedGame::constants`]).
    Const(usize),
    /// A variable (index into [`CheckedGame::variables`]).
    Var(usize),
    /// A symbol.
    Sym(Sym),
    /// `map[key]`.
    Access(Box<CExpr>, Box<CExpr>),
}

impl CExpr {
    /// The variable at the root of a place (`x` in `x[a][b]`), if any.
    pub fn root_var(&self) -> Option<usize> {
        let mut e = self;
        loop {
            match e {
                CExpr::Var(v) => return Some(*v),
                CExpr::Access(m, _) => e = m,
                CExpr::Const(_) | CExpr::Sym(_) => return None,
            }
        }
    }
}

/// A resolved action.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum CLabel {
    /// No action.
    Skip,
    /// `$ s`.
    Tag(Sym),
    /// `$$ v` (a variable of set type).
    TagVariable(usize),
    /// `target = value`.
    Assign(CExpr, CExpr),
    /// `target = T(*)`: the symbols of `T` in declared order.
    AssignAny(CExpr, Vec<Sym>),
    /// `left == right` (true) or `left != right` (false).
    Compare(CExpr, CExpr, bool),
    /// `? from -> to` (true) or `! from -> to` (false).
    Reach(bool, Node, Node),
}

/// A resolved edge.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CEdge {
    /// Source node.
    pub from: Node,
    /// Target node.
    pub to: Node,
    /// The action.
    pub label: CLabel,
}

/// A constant or a variable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decl {
    /// Its name.
    pub name: String,
    /// Its declared type.
    pub ty: Ty,
    /// Its value (constant) or initial value (variable).
    pub value: Val,
}

/// A game that passed every static check.
#[derive(Clone, Debug)]
pub struct CheckedGame {
    /// All symbols (including tags, `keeper`, `random`).
    pub symbols: Symbols,
    /// All resolved types.
    pub types: TypeArena,
    /// Type aliases (the built-ins included) by name.
    pub typedefs: HashMap<String, Ty>,
    /// Constants in file order.
    pub constants: Vec<Decl>,
    /// Variables: the user's in file order, then `goals`, `visible`, `player`
    /// (redeclared or built-in).
    pub variables: Vec<Decl>,
    /// Index of `goals` in `variables`.
    pub goals: usize,
    /// Index of `visible` in `variables`.
    pub visible: usize,
    /// Index of `player` in `variables`.
    pub player: usize,
    /// The symbols of `Player`.
    pub players: Vec<Sym>,
    /// The symbol `keeper`.
    pub keeper: Sym,
    /// The symbol `random`.
    pub random: Sym,
    /// Node names (`begin` is node 0, `end` node 1).
    pub nodes: Vec<String>,
    /// Edges in file order.
    pub edges: Vec<CEdge>,
    /// Where each edge was written (parallel to `edges`; default spans for
    /// games built by programs without positions).
    pub edge_spans: Vec<Span>,
    /// Pragmas as written.
    pub pragmas: Vec<Pragma>,
    /// Findings that are not errors (e.g. possibly recursive checks).
    pub warnings: Vec<Error>,
}

impl CheckedGame {
    /// The `begin` node.
    pub const BEGIN: Node = Node(0);
    /// The `end` node.
    pub const END: Node = Node(1);

    /// The node named `name`, if it occurs in the game.
    pub fn node(&self, name: &str) -> Option<Node> {
        self.nodes
            .iter()
            .position(|n| n == name)
            .map(|i| Node(i as u32))
    }

    /// The variable named `name`, if any.
    pub fn variable(&self, name: &str) -> Option<usize> {
        self.variables.iter().position(|v| v.name == name)
    }

    /// Where node `n` is in the source: its first outgoing edge, else its
    /// first incoming one (run-time errors name a node; this is the
    /// statement involved). `None` when the game has no positions there.
    pub fn node_span(&self, n: Node) -> Option<Span> {
        let find = |f: &dyn Fn(&CEdge) -> bool| {
            self.edges
                .iter()
                .zip(&self.edge_spans)
                .find(|(e, _)| f(e))
                .map(|(_, &s)| s)
        };
        find(&|e| e.from == n)
            .or_else(|| find(&|e| e.to == n))
            .filter(|s| *s != Span::default())
    }

    /// How many variables are the user's (all but `goals`, `visible`, `player`).
    pub fn user_variables(&self) -> usize {
        self.variables.len() - 3
    }
}
