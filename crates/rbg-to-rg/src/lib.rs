//! Regular Boardgames translated into Regular Games.
//!
//! [`translate`] turns a checked RBG game into an RG game with the same
//! game tree: the same moves (an RBG move `(vertex, modifier)...` is the RG
//! move `vertex index_N ...`, tags as in the reference translation, see
//! `../shared/rg/rbg-to-rg.md`), hence the same perft. The pipeline:
//!
//! 1. `regex.rs`: the rules as a regular expression over *leaves*; every
//!    maximal vertex-only subexpression (shifts, no-ops, patterns of those)
//!    is evaluated on the board into a relation (`board.rs`), written as
//!    constant maps; Glushkov automata of the rules and of every pattern.
//! 2. `decls.rs`: types (vertices, pieces, numbers), the board, `coord`,
//!    piece counters (when read; a modifier updates only the counts a later
//!    read sees, `counts.rs`), variables, and constant tables for the
//!    arithmetic (`arith.rs`).
//! 3. `emit.rs`: the RG edges, with the "no legal move ends the game"
//!    checks (none where `sure.rs` shows a move surely completes); shifts
//!    before tests of pieces fused with them, and rays of such tests walked
//!    with `coord` moved only where they stop (`fuse.rs`); patterns by
//!    `pattern.rs` (a final test straight into the
//!    accepting node), or unrolled by `unroll.rs` where they only shift and
//!    test (tests of `board[M[coord]]` for the shifts `M` taken, nothing
//!    assigned). Checks from nodes without edges, which never hold, are
//!    left out (`drop_dead_checks`). Assignments and comparisons of
//!    variables are decided within the values the variables may hold at
//!    their state (`ranges.rs`): no `nan` guard where every value is in
//!    range.
//!    A keeper's choice of the piece to put by where it stands (draughts'
//!    promotion, `{? p} [man] + {! p} [king]` with `p` a test of the
//!    vertex) is one assignment from a table (`put.rs`).
//!    A search for a piece that at most one vertex holds (chess's king,
//!    `anySquare {whiteKing}`) reads its vertex from a variable the
//!    translation keeps (`royal.rs`), and an unrolled pattern's shifts
//!    start there: chess's "is the king attacked" becomes a check of
//!    comparisons only. Callgrind instructions per playout (`rbg bench
//!    chess.rg --seed 1 --playouts 6`, counted in `play_random`, one
//!    binary on both translations of the suite's chess): interp
//!    57,918,242 -> 30,414,934 (-47.5%), native 15,724,898 -> 10,178,100
//!    (-35.3%). Steps measured on the way: `coord = whiteKingAt` in place
//!    of `coord = Coord(*)`, the pattern kept, interp -9.7%, native -3.5%;
//!    unrolled after that assignment (a one-slot check), interp -13.1%,
//!    native -35.2%. The other seven suite games translate as before.
//! 4. `@unique` for nodes visited at most once per key by construction
//!    (`unique.rs`), where walks meet only with distinct keys (`joins.rs`:
//!    paths counted over the board) and on small acyclic check regions
//!    (`checks.rs`), then `@repeat` pragmas: nodes the RG engine would still
//!    guard with a visited check on all variables, where the move's tags and
//!    `coord` determine the rest, are checked on `coord` only. Regions of
//!    the move walks whose walk is single (every choice's alternatives
//!    exclusive, or `{! p}` beside a walk that goes on only where `p`
//!    holds; no loop back to a state at the same vertex) get `@unique` on
//!    the nodes the engine would check there (`single.rs`): reversi's
//!    keeper, its flips in 8 directions, compared the whole board at every
//!    node after the first direction's join. Callgrind instructions per
//!    playout (`rbg bench G.rg --seed 1`, counted in `play_random`, one
//!    binary on both translations): reversi (10 playouts) interp 2,051,955
//!    -> 1,648,632 (-19.7%), native 910,017 -> 532,519 (-41.5%); chess (6)
//!    interp 29,610,506 -> 29,477,004 (-0.45%), native 10,069,697 ->
//!    9,979,289 (-0.90%); the other six suite games translate as before.
//! 5. `merge.rs`: nodes with the same future (the same edges into the same
//!    classes) are one node, and a node whose last edges are all of another
//!    node's goes there: chineseCheckers6's six jump landings (one per last
//!    jump) in the move and in every check merge, its move start shares
//!    their edges.

mod arith;
mod board;
mod calc;
mod checks;
mod counts;
mod decls;
mod emit;
mod fuse;
mod history;
mod intern;
mod joins;
mod keeper;
mod merge;
mod names;
mod pattern;
mod put;
mod ranges;
mod regex;
mod royal;
mod simulate;
mod single;
mod sure;
mod unique;
mod unroll;

use std::collections::{HashMap, HashSet};
use std::fmt;

use rg_lang::ast::{Edge, Expr, Game, Label, Name, Pragma};

use decls::{cmp, Decls};
use emit::Emitter;
use names::Names;

/// Why a game cannot be translated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TranslateError(pub String);

impl fmt::Display for TranslateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TranslateError {}

/// Whether any expression of the rules (patterns included) counts pieces.
fn counts_pieces(rule: &rbg_lang::ast::Rule) -> bool {
    use rbg_lang::ast::{Action, Arith};
    fn arith(e: &Arith) -> bool {
        match e {
            Arith::PieceCount(_) => true,
            Arith::Bin(a, _, b) => arith(a) || arith(b),
            _ => false,
        }
    }
    let mut found = false;
    rule.for_each_action(&mut |a, _| match a {
        Action::Assign(_, e) => found |= arith(e),
        Action::Compare(l, _, r) => found |= arith(l) || arith(r),
        _ => {}
    });
    found
}

/// Translates a checked RBG game.
pub fn translate(game: &rbg_lang::Game) -> Result<Game, TranslateError> {
    let mut names = Names::new(game)?;
    let low = regex::lower(game);
    let top = (0..game.num_vars() as u32)
        .map(|v| game.var_bound(v))
        .chain([game.board.vertices.len() as u64])
        .max()
        .unwrap_or(0);
    for i in 0..=top {
        names.reserve(&i.to_string());
    }
    let mut modifiers = 0;
    game.rules.for_each_action(&mut |a, depth| {
        if depth == 0 && a.is_modifier() {
            modifiers += 1;
        }
    });
    for i in 1..=modifiers {
        names.reserve(&format!("index_{i}"));
    }
    let mut d = Decls::new(game, names, counts_pieces(&game.rules));
    let mut jumps = royal::Jumps::new(&low);
    let tracked = royal::tracked(&low, &jumps, &d.initial, d.pieces.len());
    for p in (0..).zip(&tracked).filter(|(_, &t)| t).map(|(p, _)| p) {
        d.track(p);
    }
    jumps.keep(&tracked);
    let mut em = Emitter::new(d, &low, jumps);
    em.run()?;
    let coord = em.d.coord.clone();
    let null = em.d.null.clone();
    let injective = std::mem::take(&mut em.d.injective);
    let moves = std::mem::take(&mut em.d.moves);
    let vertices = em.d.vertices.clone();
    let mut edges = std::mem::take(&mut em.edges);
    let disjoint: HashSet<&str> = em.disjoint.iter().map(|(n, _)| n.as_str()).collect();
    drop_dead_checks(&mut edges, &disjoint);
    let single = single::single_nodes(
        &edges,
        &em.single,
        &low.rules,
        &low.relations,
        vertices.len(),
    );
    let mut pragmas = vec![Pragma::TranslatedFromRbg];
    for (node, targets) in std::mem::take(&mut em.disjoint) {
        pragmas.push(Pragma::Disjoint {
            exhaustive: false,
            node: Name::new(node),
            targets,
        });
    }
    if !edges.iter().any(|e| e.to.text == "end") {
        // RG requires `end` to be reachable as a graph; this edge never
        // passes (the current vertex is never null at the start).
        edges.push(Edge {
            from: Name::new("begin"),
            to: Name::new("end"),
            label: cmp(Expr::name(&coord), Expr::name(&null), true),
            loc: Default::default(),
        });
    }
    let Decls {
        types,
        constants,
        variables,
        ..
    } = em.d;
    let mut out = Game {
        types,
        constants,
        variables,
        edges,
        pragmas,
    };
    add_repeats(
        &mut out,
        &em.repeat_ok,
        &coord,
        &injective,
        (&moves, &vertices),
        &single,
    )?;
    merge::merge_equal_futures(&mut out);
    let ok: HashSet<&str> = em.repeat_ok.iter().map(String::as_str).collect();
    merge::share_tails(&mut out, &ok);
    Ok(out)
}

/// Checks from a node without edges (to another node) never hold: the
/// end-of-game check of a switch whose copy has no move (`->> {}`: the
/// game ends there, the next player's copy is empty). Their `?` edges are
/// dropped and their `!` edges become no-ops, except at `@disjoint` nodes
/// (`disjoint`), whose pragmas list their edges. Callgrind instructions
/// per playout (`rbg bench --engine interp|native`, seed 1, counted in
/// `play_random`): ticTacToe interp -1.0%, native -0.6%; connect4 -0.16%,
/// -0.07%; the other six within 0.05% (once per playout, at its end).
fn drop_dead_checks(edges: &mut Vec<Edge>, disjoint: &HashSet<&str>) {
    let sources: HashSet<String> = edges.iter().map(|e| e.from.text.clone()).collect();
    let dead = |l: &Label| match l {
        Label::Reach { positive, from, to }
            if from.text != to.text && !sources.contains(&from.text) =>
        {
            Some(*positive)
        }
        _ => None,
    };
    let mut kept = Vec::with_capacity(edges.len());
    for mut e in std::mem::take(edges) {
        match (disjoint.contains(e.from.text.as_str()), dead(&e.label)) {
            (false, Some(true)) => continue,
            (false, Some(false)) => e.label = Label::Skip,
            _ => {}
        }
        kept.push(e);
    }
    *edges = kept;
}

/// Adds `@unique` for the nodes visited at most once per key (see
/// `unique.rs`, and of `single`, see `single.rs`, those the RG engine
/// would check), then `@repeat N... : coord;` for the nodes in `ok` that
/// the RG engine would still check on all variables.
fn add_repeats(
    game: &mut Game,
    ok: &[String],
    coord: &str,
    injective: &HashSet<String>,
    (moves, vertices): (&HashMap<String, Vec<Option<u32>>>, &[String]),
    single: &[String],
) -> Result<(), TranslateError> {
    let ok: HashSet<&str> = ok.iter().map(String::as_str).collect();
    let joins = joins::distinct_joins(game, &ok, coord, moves, vertices);
    let mut distinct = unique::distinct_nodes(game, &ok, coord, injective, &joins);
    distinct.extend(checks::unchecked_nodes(game));
    distinct.sort();
    distinct.dedup();
    let single: HashSet<&str> = single.iter().map(String::as_str).collect();
    // The nodes the engine checks; the single ones among them are
    // `@unique` (their successors the engine would then check, if single
    // too, are in the next round: a region is closed under successors).
    let mut guarded = guarded_nodes(game, &distinct)?;
    for _ in 0..MAX_SINGLE_ROUNDS {
        let more: Vec<String> = guarded
            .iter()
            .filter(|n| single.contains(n.as_str()))
            .cloned()
            .collect();
        if more.is_empty() {
            break;
        }
        distinct.extend(more);
        distinct.sort();
        distinct.dedup();
        guarded = guarded_nodes(game, &distinct)?;
    }
    let is_unique: HashSet<String> = distinct.iter().cloned().collect();
    if !distinct.is_empty() {
        game.pragmas
            .push(Pragma::Unique(distinct.iter().map(Name::new).collect()));
    }
    let repeat: Vec<Name> = guarded
        .iter()
        .filter(|n| ok.contains(n.as_str()) && !is_unique.contains(n.as_str()))
        .map(Name::new)
        .collect();
    if !repeat.is_empty() {
        game.pragmas.push(Pragma::Repeat {
            nodes: repeat,
            variables: vec![Name::new(coord)],
        });
    }
    Ok(())
}

/// Most rounds of `@unique` single nodes the engine would check.
const MAX_SINGLE_ROUNDS: usize = 16;

/// The nodes the RG engine checks in `game` with `@unique` for `unique`.
fn guarded_nodes(game: &Game, unique: &[String]) -> Result<Vec<String>, TranslateError> {
    let mut game = game.clone();
    if !unique.is_empty() {
        game.pragmas
            .push(Pragma::Unique(unique.iter().map(Name::new).collect()));
    }
    let text = rg_lang::print::print_game(&game);
    let (_, checked) = rg_lang::parse_str(&text).map_err(|e| {
        TranslateError(format!(
            "internal error: the translation does not check: {}",
            e.message
        ))
    })?;
    let nodes = checked.nodes.clone();
    let model = rg_engine::GameModel::new(checked)
        .map_err(|e| TranslateError(format!("the translation is too large: {}", e.0)))?;
    Ok(model
        .visited_checks()
        .iter()
        .zip(nodes)
        .filter(|(&guarded, _)| guarded)
        .map(|(_, n)| n.to_string())
        .collect())
}

/// The translation as RG text.
pub fn translate_text(game: &rbg_lang::Game) -> Result<String, TranslateError> {
    translate(game).map(|g| rg_lang::print::print_game(&g))
}
