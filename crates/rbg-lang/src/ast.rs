//! The checked low-level game: every name resolved to a dense index.
//!
//! This is what the rest of the system consumes. It holds no spans, so two
//! descriptions that mean the same game (e.g. a HL file and its LL expansion)
//! compare equal.
//!
//! Indexing conventions:
//! - variables: the players come first (variable `i` is player `i`'s score
//!   for `i < players.len()`), then the `#variables` in declaration order;
//! - pieces, directions (edge labels) and vertices in declaration order;
//!   vertex 0 is the starting vertex.

/// Index of a piece in [`Game::pieces`].
pub type PieceId = u32;
/// Index of a variable; players first, see the module docs.
pub type VarId = u32;
/// Index of a player in [`Game::players`].
pub type PlayerId = u32;
/// Index of a direction (edge label) in [`Board::dirs`].
pub type DirId = u32;
/// Index of a vertex in [`Board::vertices`].
pub type VertexId = u32;

/// A declared variable (or player) with its upper bound.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoundedName {
    /// Identifier.
    pub name: String,
    /// Maximum value (the minimum is always 0).
    pub bound: u64,
}

/// A complete checked game description.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// `#players`, in declaration order.
    pub players: Vec<BoundedName>,
    /// `#pieces`, in declaration order.
    pub pieces: Vec<String>,
    /// `#variables` (not including the players), in declaration order.
    pub variables: Vec<BoundedName>,
    /// `#board`.
    pub board: Board,
    /// `#rules`.
    pub rules: Rule,
}

impl Game {
    /// Number of variables including the players' score variables.
    pub fn num_vars(&self) -> usize {
        self.players.len() + self.variables.len()
    }

    /// Name of a variable index (a player name for the first ones).
    pub fn var_name(&self, v: VarId) -> &str {
        let v = v as usize;
        if v < self.players.len() {
            &self.players[v].name
        } else {
            &self.variables[v - self.players.len()].name
        }
    }

    /// Bound of a variable index.
    pub fn var_bound(&self, v: VarId) -> u64 {
        let v = v as usize;
        if v < self.players.len() {
            self.players[v].bound
        } else {
            self.variables[v - self.players.len()].bound
        }
    }
}

impl Game {
    /// Renumbers the directions in order of first appearance on the edges
    /// (vertex by vertex); directions without any edge keep their relative
    /// order after those. An explicit graph printed from the board declares
    /// its directions only through its edges, so this numbering is the one
    /// that survives printing and reading back.
    pub fn canonicalize_directions(&mut self) {
        let nd = self.board.dirs.len();
        let mut order: Vec<DirId> = Vec::with_capacity(nd);
        let mut seen = vec![false; nd];
        for vert in &self.board.vertices {
            for &(d, _) in &vert.edges {
                if !std::mem::replace(&mut seen[d as usize], true) {
                    order.push(d);
                }
            }
        }
        order.extend((0..nd as DirId).filter(|&d| !seen[d as usize]));
        let mut new_id = vec![0; nd];
        for (new, &old) in order.iter().enumerate() {
            new_id[old as usize] = new as DirId;
        }
        self.board.dirs = order
            .iter()
            .map(|&d| self.board.dirs[d as usize].clone())
            .collect();
        for vert in &mut self.board.vertices {
            for e in &mut vert.edges {
                e.0 = new_id[e.0 as usize];
            }
        }
        fn remap(r: &mut Rule, new_id: &[DirId]) {
            match r {
                Rule::Action(Action::Shift(d)) => *d = new_id[*d as usize],
                Rule::Action(Action::Pattern { rule, .. }) => remap(rule, new_id),
                Rule::Action(_) => {}
                Rule::Concat(v) | Rule::Alt(v) => v.iter_mut().for_each(|c| remap(c, new_id)),
                Rule::Star(c) => remap(c, new_id),
            }
        }
        remap(&mut self.rules, &new_id);
    }
}

/// The board graph with the initial pieces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// Edge labels, in order of first declaration.
    pub dirs: Vec<String>,
    /// Vertices; the first one is the starting position.
    pub vertices: Vec<Vertex>,
}

/// One board vertex.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Vertex {
    /// Vertex name (generated boards use `x{col}y{row}` and similar).
    pub name: String,
    /// Initial piece.
    pub piece: PieceId,
    /// Outgoing edges `(label, target)`, at most one per label, in
    /// declaration order.
    pub edges: Vec<(DirId, VertexId)>,
}

/// A regular expression over actions. Constructors keep it normalised:
/// a `Concat` never directly contains a `Concat`, an `Alt` never directly
/// contains an `Alt`, and both have at least two children.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rule {
    /// A single action.
    Action(Action),
    /// Concatenation, left to right.
    Concat(Vec<Rule>),
    /// Sum (choice).
    Alt(Vec<Rule>),
    /// Kleene star.
    Star(Box<Rule>),
}

impl Rule {
    /// Concatenation of `parts`, flattened; a single part is returned as is.
    pub fn concat(parts: Vec<Rule>) -> Rule {
        let mut out = Vec::with_capacity(parts.len());
        for p in parts {
            match p {
                Rule::Concat(inner) => out.extend(inner),
                other => out.push(other),
            }
        }
        if out.len() == 1 {
            out.pop().unwrap()
        } else {
            Rule::Concat(out)
        }
    }

    /// Sum of `parts`, flattened; a single part is returned as is.
    pub fn alt(parts: Vec<Rule>) -> Rule {
        let mut out = Vec::with_capacity(parts.len());
        for p in parts {
            match p {
                Rule::Alt(inner) => out.extend(inner),
                other => out.push(other),
            }
        }
        if out.len() == 1 {
            out.pop().unwrap()
        } else {
            Rule::Alt(out)
        }
    }

    /// Whether the rule's outcome depends on the start vertex only: it
    /// consists of shifts, no-ops and patterns of such rules (so it can be
    /// tabulated as the vertices it can end at from each vertex).
    pub fn vertex_only(&self) -> bool {
        match self {
            Rule::Action(Action::Shift(_) | Action::Noop) => true,
            Rule::Action(Action::Pattern { rule, .. }) => rule.vertex_only(),
            Rule::Action(_) => false,
            Rule::Concat(v) | Rule::Alt(v) => v.iter().all(Rule::vertex_only),
            Rule::Star(c) => c.vertex_only(),
        }
    }

    /// Visits every action in left-to-right textual order, entering patterns
    /// (`depth` is the pattern nesting depth, 0 for the rules themselves).
    pub fn for_each_action<'a>(&'a self, f: &mut impl FnMut(&'a Action, usize)) {
        fn go<'a>(r: &'a Rule, depth: usize, f: &mut impl FnMut(&'a Action, usize)) {
            match r {
                Rule::Action(a) => {
                    f(a, depth);
                    if let Action::Pattern { rule, .. } = a {
                        go(rule, depth + 1, f);
                    }
                }
                Rule::Concat(v) | Rule::Alt(v) => v.iter().for_each(|c| go(c, depth, f)),
                Rule::Star(c) => go(c, depth, f),
            }
        }
        go(self, 0, f)
    }
}

/// An elementary action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Move along an edge label; invalid if there is no such edge.
    Shift(DirId),
    /// Valid iff the current piece is in the set (sorted, no duplicates;
    /// empty = never valid).
    On(Vec<PieceId>),
    /// Put a piece on the current vertex (modifier).
    Off(PieceId),
    /// `[$ var = expr]`: valid iff `0 <= expr <= bound(var)` (modifier).
    Assign(VarId, Arith),
    /// `{$ lhs op rhs}`.
    Compare(Arith, CmpOp, Arith),
    /// `->player`, or `->>` (keeper) when `None` (modifier).
    Switch(Option<PlayerId>),
    /// `{? rule}` (`negated == false`) or `{! rule}`; the rule has no switches.
    Pattern {
        /// `true` for `{! ...}`.
        negated: bool,
        /// The pattern's expression.
        rule: Box<Rule>,
    },
    /// `.`: always valid, changes nothing, not a modifier.
    Noop,
}

impl Action {
    /// Offs, assignments and switches are modifiers.
    pub fn is_modifier(&self) -> bool {
        matches!(
            self,
            Action::Off(_) | Action::Assign(..) | Action::Switch(_)
        )
    }
}

/// Arithmetic expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arith {
    /// A natural number literal.
    Num(i64),
    /// Current value of a variable.
    Var(VarId),
    /// Number of vertices holding this piece.
    PieceCount(PieceId),
    /// Binary operation.
    Bin(Box<Arith>, ArithOp, Box<Arith>),
}

/// Binary arithmetic operator (`/` is integer division).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArithOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
}

/// Comparison operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpOp {
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

impl ArithOp {
    /// Source text.
    pub fn text(self) -> &'static str {
        match self {
            ArithOp::Add => "+",
            ArithOp::Sub => "-",
            ArithOp::Mul => "*",
            ArithOp::Div => "/",
        }
    }
}

impl CmpOp {
    /// Source text.
    pub fn text(self) -> &'static str {
        match self {
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Eq => "==",
            CmpOp::Ne => "!=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
        }
    }
}
