//! Move-walk nodes that one enumeration visits at most once per key,
//! although walks meet there (or past such a meeting), found by counting
//! paths over the board.
//!
//! An *anchor* is a node where walks with equal tags have equal keys: the
//! start of an enumeration (`begin`, the target of `player` assignments
//! only, one visit), or a node of `repeat_ok` (tags and `coord` determine
//! the variables) entered only by `$$ coord` edges. From an anchor `a`,
//! every path of comparisons, checks, tags, assignments (`coord` changed
//! only by a move map) and any-assignments to `coord` (one path per symbol
//! for each path in) is followed; per node `n` and per `coord` `s` at `a`,
//! the number of paths (at most 2 counted) ending at each vertex `v` is
//! kept, and the number of tags they add (a fixpoint over cycles). When
//! every path from `a` into `n` adds the same number of tags and no
//! `(s, v)` has two paths, `n` needs no visited check: two walks with
//! equal keys at `n` have equal tags, so (equal lengths after `a`) equal
//! tags at `a`, so one visit of `a` (an anchor), so one `s`; and equal `v`,
//! so one path (any-assignments counted), so one walk. Walks whose `coord`
//! became `null` are not counted: they fail before any other effect (see
//! `emit.rs`). Nodes of check regions are left alone.
//!
//! Walks from different anchors (or with different tag counts) may meet
//! too, kept as separate *parts* of the flow: where two parts' last tags
//! (aligned at their ends) hold different constants at some position,
//! their walks' tags differ, so their keys do. Two parts from different
//! enumeration starts (`begin`, nodes entered only by `player`
//! assignments, after which walks stop) never meet: one enumeration
//! starts at one of them and never enters another. A comparison of a
//! constant map at `coord` with a symbol (a test of the vertex, `at[coord]
//! == 1`) passes on only the paths at the vertices where it holds, so
//! the two sides of `{? F} + {! F}` (draughts' promotion) do not meet.
//! Callgrind instructions per playout (`rbg bench --seed 1`, counted in
//! `play_random`; the same engine binary on both translations) on the
//! suite's games: englishDraughts interp 788,166 -> 759,085 (-3.7%),
//! native 311,100 -> 283,430 (-8.9%; its keeper's six joins lose their
//! visited checks); connect4 interp 67,313 -> 63,584 (-5.5%), native
//! 43,252 -> 42,828 (-1.0%; its keeper's drop, `@repeat` before);
//! breakthrough, amazons within 0.02%, ticTacToe equal (more nodes
//! claimed, none that the engine checked); hex, reversi and chess
//! translate as before.
//!
//! Translating reversi (callgrind, the whole `rbg translate`): joined
//! rows merged in one pass instead of sorted, the memo tables sized at
//! once: 5.43G -> 3.44G instructions (this analysis 3.63G -> 1.64G; the
//! rest is mostly `sure.rs`'s 31 explorations of `history.rs`, each run
//! once: a memo of failed proofs per change of the sure states saved
//! 0.2%, dropped).

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use rg_lang::ast::{Expr, Game, Label, Value};

use crate::checks::{check_starts, node_ids, type_symbols};
use crate::unique::is_player;

/// Most (node, start, target) entries the analysis computes in all.
const BUDGET: usize = 1 << 24;

/// Reached vertices with their path counts (1 or 2), sorted.
type Row = Rc<Vec<(u32, u8)>>;

/// A shared row's address (rows compared by it within one step).
type RowId = *const Vec<(u32, u8)>;

/// Per start vertex, its row (equal rows often shared: after an
/// any-assignment every start has the same).
type Rel = Vec<Row>;

/// `f` of every row of `rel`, computed once per shared row.
fn map_rows(rel: &Rel, budget: &mut usize, f: impl Fn(&[(u32, u8)]) -> Vec<(u32, u8)>) -> Rel {
    let mut done: HashMap<RowId, Row> = HashMap::with_capacity(rel.len());
    rel.iter()
        .map(|row| {
            done.entry(Rc::as_ptr(row))
                .or_insert_with(|| {
                    *budget = budget.saturating_sub(row.len() + 1);
                    Rc::new(f(row))
                })
                .clone()
        })
        .collect()
}

/// Walks from one anchor: the tags they added since (their number and the
/// last [`SUFFIX`] of them, `None` for `$$`), the paths.
#[derive(Clone, PartialEq, Eq)]
struct Part {
    anchor: usize,
    tags: u32,
    suffix: Vec<Option<String>>,
    rel: Rel,
}

impl Part {
    /// Whether the walks of `self` and `o` have different tags: their
    /// sequences end differently (aligned at their ends).
    fn distinct(&self, o: &Part) -> bool {
        self.suffix
            .iter()
            .rev()
            .zip(o.suffix.iter().rev())
            .any(|(a, b)| matches!((a, b), (Some(a), Some(b)) if a != b))
    }
}

/// Tags kept per part.
const SUFFIX: usize = 4;

/// Most parts of a flow.
const MAX_PARTS: usize = 32;

/// What flows into a node: parts whose walks differ in their tags unless
/// they are of one anchor, tag count and suffix (then they are one part).
#[derive(Clone, PartialEq, Eq)]
enum Flow {
    Known(Vec<Part>),
    Unknown,
}

/// The nodes of `game`'s move walks that need no visited check (`ok`: see `repeat_ok`; `moves`: every move map's
/// targets; `vertices`: the vertices' names).
pub fn distinct_joins(
    game: &Game,
    ok: &HashSet<&str>,
    coord: &str,
    moves: &HashMap<String, Vec<Option<u32>>>,
    vertices: &[String],
) -> Vec<String> {
    let ctx = Ctx {
        game,
        coord,
        moves,
        vertices: (0..).zip(vertices).map(|(i, v)| (v.as_str(), i)).collect(),
    };
    let (ids, names) = node_ids(game);
    let n = names.len();
    let from = |i: usize| ids[game.edges[i].from.text.as_str()];
    let to = |i: usize| ids[game.edges[i].to.text.as_str()];
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut ins: Vec<Vec<usize>> = vec![Vec::new(); n];
    // Entered by `player` assignments.
    let mut switched = vec![false; n];
    for i in 0..game.edges.len() {
        out[from(i)].push(i);
        match is_player(&game.edges[i].label) {
            true => switched[to(i)] = true,
            false => ins[to(i)].push(i),
        }
    }
    // Check regions are left alone.
    let mut in_check = vec![false; n];
    let mut work = check_starts(game, &ids);
    while let Some(v) = work.pop() {
        if !std::mem::replace(&mut in_check[v], true) {
            work.extend(out[v].iter().map(|&i| to(i)));
        }
    }
    // Where enumerations start (entered by no edge but `player`
    // assignments, after which walks stop): a walk from one never enters
    // another, so walks from two never meet in one enumeration.
    let start: Vec<bool> = (0..n)
        .map(|v| (names[v] == "begin" || switched[v]) && ins[v].is_empty() && !in_check[v])
        .collect();
    let anchor: Vec<bool> = (0..n)
        .map(|v| {
            let root = names[v] == "begin" || switched[v] && ins[v].is_empty();
            let tagged = ok.contains(names[v])
                && !ins[v].is_empty()
                && ins[v].iter().all(
                    |&i| matches!(&game.edges[i].label, Label::TagVariable(x) if x.text == coord),
                );
            !in_check[v] && (root || tagged)
        })
        .collect();
    let fresh = |v: usize| {
        Flow::Known(vec![Part {
            anchor: v,
            tags: 0,
            suffix: Vec::new(),
            rel: (0..vertices.len() as u32)
                .map(|s| Rc::new(vec![(s, 1)]))
                .collect(),
        }])
    };
    let mut budget = BUDGET;
    // A fixpoint: what each edge passes on (`None`: no walk yet), what
    // comes into each node (the join of its edges'), what leaves it (an
    // anchor's fresh flow, or what comes in). Flows only grow (more
    // vertices, counts up to 2, then `Unknown`), so the loop ends.
    let mut passes: Vec<Option<Flow>> = vec![None; game.edges.len()];
    let mut into: Vec<Option<Flow>> = vec![None; n];
    let mut work: Vec<usize> = (0..n).filter(|&v| anchor[v]).collect();
    while let Some(p) = work.pop() {
        let flow = match anchor[p] {
            true => fresh(p),
            false => match &into[p] {
                Some(f) => f.clone(),
                None => continue,
            },
        };
        for &i in &out[p] {
            let t = to(i);
            if is_player(&game.edges[i].label) || in_check[t] {
                continue;
            }
            let next = step(&game.edges[i].label, &flow, &ctx, &mut budget);
            if passes[i].as_ref() == Some(&next) {
                continue;
            }
            passes[i] = Some(next);
            let mut joined: Option<Flow> = None;
            for &j in &ins[t] {
                if let Some(f) = &passes[j] {
                    joined = Some(match joined {
                        None => f.clone(),
                        Some(before) => join(before, f.clone(), &mut budget),
                    });
                }
            }
            if budget == 0 {
                return Vec::new();
            }
            if into[t] != joined {
                into[t] = joined;
                if !anchor[t] {
                    work.push(t);
                }
            }
        }
    }
    let mut claims: Vec<String> = (0..n)
        .filter(|&v| match &into[v] {
            Some(Flow::Known(parts)) => {
                let mut seen: HashSet<RowId> = HashSet::new();
                let single = parts
                    .iter()
                    .flat_map(|p| &p.rel)
                    .all(|row| !seen.insert(Rc::as_ptr(row)) || row.iter().all(|&(_, k)| k == 1));
                let apart = |a: &Part, b: &Part| {
                    a.distinct(b) || (a.anchor != b.anchor && start[a.anchor] && start[b.anchor])
                };
                let apart = (0..parts.len())
                    .all(|a| (a + 1..parts.len()).all(|b| apart(&parts[a], &parts[b])));
                single && apart
            }
            _ => false,
        })
        .map(|v| names[v].to_string())
        .collect();
    claims.sort();
    claims
}

/// What the steps read.
struct Ctx<'a> {
    game: &'a Game,
    coord: &'a str,
    moves: &'a HashMap<String, Vec<Option<u32>>>,
    /// Vertex indices by name.
    vertices: HashMap<&'a str, u32>,
}

impl Ctx<'_> {
    fn is_coord(&self, e: &Expr) -> bool {
        matches!(e, Expr::Ref(r) if r.text == self.coord)
    }

    /// Per vertex, whether `left == right` (`equal`) or `!=` holds, where
    /// `left` is a constant map of symbols at `coord` and `right` a
    /// symbol (the translation's tests of the vertex, `at[coord] == 1`).
    fn vertex_test(&self, left: &Expr, right: &Expr, equal: bool) -> Option<Vec<bool>> {
        let (Expr::Access { map, key, .. }, Expr::Ref(sym)) = (left, right) else {
            return None;
        };
        let (Expr::Ref(name), true) = (&**map, self.is_coord(key)) else {
            return None;
        };
        let is_const = |n: &str| self.game.constants.iter().any(|c| c.name.text == n);
        if is_const(&sym.text) || self.game.variables.iter().any(|v| v.name.text == sym.text) {
            return None;
        }
        let c = self
            .game
            .constants
            .iter()
            .find(|c| c.name.text == name.text)?;
        let Value::Map { entries, .. } = &c.value else {
            return None;
        };
        fn symbol<'v>(v: &'v Value, is_const: &dyn Fn(&str) -> bool) -> Option<&'v str> {
            match v {
                Value::Name(n) if !is_const(&n.text) => Some(n.text.as_str()),
                _ => None,
            }
        }
        let default = entries.iter().find(|e| e.key.is_none())?;
        let default = symbol(&default.value, &is_const)?;
        let mut pass = vec![default == sym.text; self.vertices.len()];
        for e in entries {
            let Some(k) = &e.key else { continue };
            if let Some(&v) = self.vertices.get(k.text.as_str()) {
                pass[v as usize] = symbol(&e.value, &is_const)? == sym.text;
            }
        }
        if !equal {
            pass.iter_mut().for_each(|b| *b = !*b);
        }
        Some(pass)
    }

    /// The vertices of set type `ty`, sorted (`null` left out); `None`
    /// when it has other symbols.
    fn symbols(&self, ty: &rg_lang::ast::Type) -> Option<Vec<u32>> {
        let mut out = Vec::new();
        for s in type_symbols(self.game, ty)? {
            match self.vertices.get(s.text.as_str()) {
                Some(&v) => out.push(v),
                None if s.text == "null" => {}
                None => return None,
            }
        }
        out.sort_unstable();
        out.dedup();
        Some(out)
    }
}

/// The flow past an edge labelled `l`.
fn step(l: &Label, flow: &Flow, ctx: &Ctx, budget: &mut usize) -> Flow {
    let Flow::Known(parts) = flow else {
        return Flow::Unknown;
    };
    let mut out = Vec::with_capacity(parts.len());
    for p in parts {
        match step_part(l, p, ctx, budget) {
            Some(p) => out.push(p),
            None => return Flow::Unknown,
        }
    }
    Flow::Known(out)
}

/// [`step`] of one part (`None`: unknown).
fn step_part(l: &Label, part: &Part, ctx: &Ctx, budget: &mut usize) -> Option<Part> {
    let is_coord = |e: &Expr| ctx.is_coord(e);
    let moves = ctx.moves;
    let rel = &part.rel;
    let with = |rel: Rel| Part {
        rel,
        ..part.clone()
    };
    *budget = budget.saturating_sub(rel.len() + 1);
    Some(match l {
        Label::Compare { left, right, equal } => match ctx.vertex_test(left, right, *equal) {
            // Only the paths at the vertices passing the test go on.
            Some(pass) => with(map_rows(rel, budget, |row| {
                row.iter()
                    .copied()
                    .filter(|&(v, _)| pass[v as usize])
                    .collect()
            })),
            None => part.clone(),
        },
        Label::Skip | Label::Reach { .. } => part.clone(),
        Label::Tag(_) | Label::TagVariable(_) => {
            let mut suffix = part.suffix.clone();
            suffix.push(match l {
                Label::Tag(t) => Some(t.text.clone()),
                _ => None,
            });
            if suffix.len() > SUFFIX {
                suffix.remove(0);
            }
            Part {
                tags: part.tags + 1,
                suffix,
                ..part.clone()
            }
        }
        Label::AssignAny { target, ty } if is_coord(target) => {
            let symbols = ctx.symbols(ty)?;
            // One path per symbol for each path in (`null`: none): a
            // row per number of paths, shared.
            let rows: Vec<Row> = (0..=2u8)
                .map(|k| Rc::new(symbols.iter().map(|&v| (v, k)).filter(|_| k > 0).collect()))
                .collect();
            let mut paths: HashMap<RowId, usize> = HashMap::with_capacity(rel.len());
            let rel = rel
                .iter()
                .map(|row| {
                    let k = *paths.entry(Rc::as_ptr(row)).or_insert_with(|| {
                        *budget = budget.saturating_sub(row.len() + 1);
                        row.iter().map(|&(_, k)| k as usize).sum::<usize>().min(2)
                    });
                    rows[k].clone()
                })
                .collect();
            with(rel)
        }
        Label::AssignAny { .. } => return None,
        Label::Assign { target, .. } if !is_coord(target) => part.clone(),
        Label::Assign { value, .. } => {
            let map = match value {
                Expr::Access { map, key, .. } if is_coord(key) => match &**map {
                    Expr::Ref(m) => moves.get(m.text.as_str()),
                    _ => None,
                },
                _ => None,
            };
            let map = map?;
            let rel = map_rows(rel, budget, |row| {
                let mut next: Vec<(u32, u8)> = row
                    .iter()
                    .filter_map(|&(v, k)| map.get(v as usize).copied().flatten().map(|w| (w, k)))
                    .collect();
                merge(&mut next);
                next
            });
            with(rel)
        }
    })
}

/// Sorts a row and adds the counts of equal vertices (at most 2).
fn merge(row: &mut Vec<(u32, u8)>) {
    row.sort_unstable();
    row.dedup_by(|b, a| {
        let same = a.0 == b.0;
        if same {
            a.1 = (a.1 + b.1).min(2);
        }
        same
    });
}

/// Two sorted rows as one, the counts of equal vertices added (at most
/// 2): [`merge`] of their concatenation, in one pass.
fn merged(a: &[(u32, u8)], b: &[(u32, u8)]) -> Vec<(u32, u8)> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].0.cmp(&b[j].0) {
            std::cmp::Ordering::Less => {
                out.push(a[i]);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                out.push(b[j]);
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                out.push((a[i].0, (a[i].1 + b[j].1).min(2)));
                i += 1;
                j += 1;
            }
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}

/// The flow into a node of two of its edges: parts of one anchor, tag
/// count and suffix added up, others kept apart.
fn join(a: Flow, b: Flow, budget: &mut usize) -> Flow {
    let (Flow::Known(mut parts), Flow::Known(more)) = (a, b) else {
        return Flow::Unknown;
    };
    for q in more {
        let same = parts
            .iter_mut()
            .find(|p| p.anchor == q.anchor && p.tags == q.tags && p.suffix == q.suffix);
        match same {
            Some(p) => p.rel = add(&p.rel, q.rel, budget),
            None => parts.push(q),
        }
    }
    match parts.len() > MAX_PARTS {
        true => Flow::Unknown,
        false => Flow::Known(parts),
    }
}

/// The paths of `r` and `q` together.
fn add(r: &Rel, q: Rel, budget: &mut usize) -> Rel {
    let mut done: HashMap<(RowId, RowId), Row> = HashMap::with_capacity(r.len());
    r.iter()
        .zip(q)
        .map(|(row, other)| {
            let key = (Rc::as_ptr(row), Rc::as_ptr(&other));
            done.entry(key)
                .or_insert_with(|| {
                    *budget = budget.saturating_sub(row.len() + other.len() + 1);
                    Rc::new(merged(row, &other))
                })
                .clone()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::collections::{HashMap, HashSet};

    use super::{distinct_joins, merge, merged};

    /// The nodes `distinct_joins` claims in a game on squares `a`, `b`
    /// whose `keeper` walks run `rules` (`at`: 1 on `a`).
    fn claims(rules: &str) -> Vec<String> {
        let text = format!(
            "type Player = {{p}}; type Score = {{0}}; type Coord = {{a, b}};
type CoordOrNull = {{null, a, b}}; type Square = {{null, e, x}};
const at: CoordOrNull -> Bool = {{ a: 1, :0 }};
var board: CoordOrNull -> Square = {{ null: null, :e }};
var coord: CoordOrNull = a;
begin, m0: player = p; m0, m1: coord = Coord(*); m1, m2: $$ coord;
{rules}
j, j1: board[coord] = x; j1, end: player = keeper;"
        );
        let (game, _) = rg_lang::parse_str(&text).unwrap();
        let vertices = ["a".to_string(), "b".to_string()];
        distinct_joins(&game, &HashSet::new(), "coord", &HashMap::new(), &vertices)
    }

    #[test]
    fn paths_apart_by_a_test_of_the_vertex_do_not_meet() {
        // `at[coord] == 1` and `!= 1` never both hold on one square.
        let split = "m2, k: player = keeper; k, y: at[coord] == 1; k, n: at[coord] != 1;
y, j: board[coord] = x; n, j: board[coord] = e;";
        assert!(claims(split).contains(&"j".to_string()));
        // Tests of the board do not part the paths.
        let both = "m2, k: player = keeper; k, y: board[coord] == e; k, n: board[coord] != x;
y, j: board[coord] = x; n, j: board[coord] = e;";
        assert!(!claims(both).contains(&"j".to_string()));
    }

    #[test]
    fn walks_from_two_enumeration_starts_do_not_meet() {
        // `k` and `q` are entered only by `player` assignments: each
        // starts its own enumeration.
        let starts = "m2, k: player = keeper; m1, m3: $ t; m3, q: player = keeper;
k, j: board[coord] = x; q, j: board[coord] = e;";
        assert!(claims(starts).contains(&"j".to_string()));
        // `q` is entered by a walk from `k` too: both in one enumeration.
        let within = "m2, k: player = keeper; m1, m3: $ t; m3, q: player = keeper;
k, j: board[coord] = x; q, j: board[coord] = e; k, q: coord == a;";
        assert!(!claims(within).contains(&"j".to_string()));
    }

    #[test]
    fn merged_rows_equal_the_merge_of_their_concatenation() {
        let rows: [&[(u32, u8)]; 4] = [
            &[],
            &[(0, 1), (3, 2), (5, 1)],
            &[(3, 1), (4, 1)],
            &[(0, 1), (5, 2), (9, 1)],
        ];
        for a in rows {
            for b in rows {
                let mut both: Vec<(u32, u8)> = a.iter().chain(b).copied().collect();
                merge(&mut both);
                assert_eq!(merged(a, b), both);
            }
        }
    }
}
