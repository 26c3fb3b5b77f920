//! Vertex-only subexpressions (shifts, no-ops and patterns made only of
//! those) evaluated on the board once: each becomes a relation from start
//! vertices to end vertices, which the translation writes as constant maps.

use rbg_lang::ast::{Action, Board, Rule};

/// A set of vertices as bits.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Set(Vec<u64>);

impl Set {
    fn empty(n: usize) -> Set {
        Set(vec![0; n.div_ceil(64)])
    }

    fn single(n: usize, v: usize) -> Set {
        let mut s = Set::empty(n);
        s.insert(v);
        s
    }

    fn insert(&mut self, v: usize) {
        self.0[v / 64] |= 1 << (v % 64);
    }

    fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// Adds `o`; whether anything was new.
    fn union(&mut self, o: &Set) -> bool {
        let mut changed = false;
        for (a, b) in self.0.iter_mut().zip(&o.0) {
            changed |= *b & !*a != 0;
            *a |= b;
        }
        changed
    }

    /// The members, ascending.
    pub fn members(&self) -> Vec<u32> {
        let mut out = Vec::new();
        for (i, &w) in self.0.iter().enumerate() {
            let mut w = w;
            while w != 0 {
                out.push((i * 64) as u32 + w.trailing_zeros());
                w &= w - 1;
            }
        }
        out
    }
}

/// The end vertices of every start vertex of a vertex-only rule.
pub type Relation = Vec<Vec<u32>>;

/// Evaluates vertex-only rules on one board.
pub struct Evaluator<'a> {
    board: &'a Board,
    /// Per vertex and direction, the neighbour.
    nbr: Vec<Vec<Option<u32>>>,
}

impl<'a> Evaluator<'a> {
    /// An evaluator for `board`.
    pub fn new(board: &'a Board) -> Evaluator<'a> {
        let nd = board.dirs.len();
        let nbr = board
            .vertices
            .iter()
            .map(|v| {
                let mut row = vec![None; nd];
                for &(d, t) in &v.edges {
                    row[d as usize] = Some(t);
                }
                row
            })
            .collect();
        Evaluator { board, nbr }
    }

    fn n(&self) -> usize {
        self.board.vertices.len()
    }

    /// The relation of a vertex-only rule.
    pub fn relation(&self, r: &Rule) -> Relation {
        (0..self.n())
            .map(|v| self.image(r, &Set::single(self.n(), v)).members())
            .collect()
    }

    /// The vertices reachable by `r` from any of `from`.
    fn image(&self, r: &Rule, from: &Set) -> Set {
        let n = self.n();
        match r {
            Rule::Action(Action::Shift(d)) => {
                let mut out = Set::empty(n);
                for v in from.members() {
                    if let Some(t) = self.nbr[v as usize][*d as usize] {
                        out.insert(t as usize);
                    }
                }
                out
            }
            Rule::Action(Action::Pattern { negated, rule }) => {
                let mut out = Set::empty(n);
                for v in from.members() {
                    let holds = !self.image(rule, &Set::single(n, v as usize)).is_empty();
                    if holds != *negated {
                        out.insert(v as usize);
                    }
                }
                out
            }
            Rule::Action(_) => from.clone(),
            Rule::Concat(parts) => parts.iter().fold(from.clone(), |s, p| self.image(p, &s)),
            Rule::Alt(parts) => {
                let mut out = Set::empty(n);
                for p in parts {
                    out.union(&self.image(p, from));
                }
                out
            }
            Rule::Star(body) => {
                let mut all = from.clone();
                let mut frontier = from.clone();
                loop {
                    let next = self.image(body, &frontier);
                    let mut new = next.clone();
                    for (a, b) in new.0.iter_mut().zip(&all.0) {
                        *a &= !b;
                    }
                    if !all.union(&next) {
                        return all;
                    }
                    frontier = new;
                }
            }
        }
    }
}

/// How a relation is written in RG.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Every vertex to itself: nothing to do.
    Identity,
    /// No vertex has a target: never holds.
    Never,
    /// Targets are the start itself or nothing: a test of the vertex.
    Filter(Vec<bool>),
    /// At most `k` targets per vertex (k ≥ 1): `k` maps from a vertex to its
    /// `i`-th target (`None` = no such target).
    Maps(Vec<Vec<Option<u32>>>),
    /// Every vertex with a target has the same targets: a test of the start
    /// (when some have none), any vertex, a test of the target (when not
    /// every vertex is one).
    Uniform {
        /// Which starts have targets (`None`: all).
        starts: Option<Vec<bool>>,
        /// The targets (`None`: all vertices).
        targets: Option<Vec<bool>>,
    },
    /// A few groups of starts with equal targets: the union of these
    /// relations, each [`Shape::Uniform`].
    Blocks(Vec<Relation>),
    /// Anything else: translated as the expression it came from, its parts
    /// becoming relations of their own.
    Structural,
}

/// Most targets written as parallel maps.
pub const MAX_MAPS: usize = 8;

/// Most groups of [`Shape::Blocks`].
pub const MAX_BLOCKS: usize = 4;

/// How `rel` is best written.
pub fn shape(rel: &Relation) -> Shape {
    let n = rel.len();
    let identity = rel.iter().enumerate().all(|(v, t)| t == &[v as u32]);
    if identity {
        return Shape::Identity;
    }
    if rel.iter().all(Vec::is_empty) {
        return Shape::Never;
    }
    if rel
        .iter()
        .enumerate()
        .all(|(v, t)| t.is_empty() || t == &[v as u32])
    {
        return Shape::Filter(rel.iter().map(|t| !t.is_empty()).collect());
    }
    let widest = rel.iter().map(Vec::len).max().unwrap_or(0);
    let maps = || {
        let maps = (0..widest)
            .map(|i| rel.iter().map(|t| t.get(i).copied()).collect())
            .collect();
        Shape::Maps(maps)
    };
    if widest == 1 {
        return maps();
    }
    let mut rows: Vec<&Vec<u32>> = rel.iter().filter(|t| !t.is_empty()).collect();
    rows.sort();
    rows.dedup();
    if let [first] = rows[..] {
        let starts = rel.iter().map(|t| !t.is_empty()).collect::<Vec<_>>();
        let mut targets = vec![false; n];
        for &t in first {
            targets[t as usize] = true;
        }
        return Shape::Uniform {
            starts: (!starts.iter().all(|&b| b)).then_some(starts),
            targets: (!targets.iter().all(|&b| b)).then_some(targets),
        };
    }
    if widest <= MAX_MAPS {
        return maps();
    }
    if rows.len() <= MAX_BLOCKS {
        let parts = rows
            .iter()
            .map(|&row| {
                rel.iter()
                    .map(|t| if t == row { t.clone() } else { Vec::new() })
                    .collect()
            })
            .collect();
        return Shape::Blocks(parts);
    }
    Shape::Structural
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(text: &str) -> rbg_lang::Game {
        rbg_lang::parse_str(text).unwrap()
    }

    const LINE: &str = "#players = p(1)
#pieces = e
#variables =
#board = rectangle(up, down, left, right, [e, e, e, e])
";

    fn relation_of(rules: &str) -> Relation {
        let g = game(&format!("{LINE}#rules = ->p {rules} ->> {{}}"));
        let Rule::Concat(parts) = &g.rules else {
            panic!()
        };
        // Between `->p` and `->> {}`.
        let r = Rule::concat(parts[1..parts.len() - 2].to_vec());
        assert!(r.vertex_only(), "{rules}");
        Evaluator::new(&g.board).relation(&r)
    }

    #[test]
    fn relations_and_shapes() {
        // Four vertices in a row: x0y0 .. x3y0.
        assert_eq!(
            relation_of("right"),
            vec![vec![1], vec![2], vec![3], vec![]]
        );
        assert_eq!(
            shape(&relation_of("(right right + left left)")),
            Shape::Maps(vec![vec![Some(2), Some(3), Some(0), Some(1)]])
        );
        assert_eq!(
            relation_of("right*"),
            vec![vec![0, 1, 2, 3], vec![1, 2, 3], vec![2, 3], vec![3]]
        );
        assert_eq!(
            shape(&relation_of("(left + right)*")),
            Shape::Uniform {
                starts: None,
                targets: None
            }
        );
        assert_eq!(
            shape(&relation_of("{! right}")),
            Shape::Filter(vec![false, false, false, true])
        );
        assert_eq!(
            shape(&relation_of("{? right} left right")),
            Shape::Filter(vec![false, true, true, false])
        );
        assert_eq!(shape(&relation_of("(. + {? right})")), Shape::Identity);
        assert_eq!(shape(&relation_of("up")), Shape::Never);
        assert_eq!(
            shape(&relation_of("right right*")),
            Shape::Maps(vec![
                vec![Some(1), Some(2), Some(3), None],
                vec![Some(2), Some(3), None, None],
                vec![Some(3), None, None, None],
            ])
        );
    }
}
