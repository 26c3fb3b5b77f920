//! End-of-turn checks as RBG translations write them (`rbg-to-rg.md` §4):
//! random small games whose `player` assignments are guarded by a check on
//! a tagless copy of the next move walk — sometimes a faithful copy (the
//! engine generates the moves instead of walking the copy, `mirror.rs`),
//! sometimes a changed one (the engine must see that it is no mirror). Perft
//! and playouts equal those of `with_every_check`, which takes no mirror.

mod common;

use std::collections::{BTreeSet, HashMap};

use proptest::prelude::*;
use rg_engine::perft::{perft, Counting};
use rg_engine::playout::Playouts;
use rg_engine::{GameModel, RunError};
use testkit::random_rg::{self, ACTIONS, PRAGMAS};

fn node(i: usize) -> String {
    match i % random_rg::NODES {
        0 => "begin".into(),
        1 => "end".into(),
        i => format!("m{}", i - 1),
    }
}

/// The random game with each `player = a/b` edge guarded by a check on a
/// copy of its target's move walk; `change`: (copy edge, action)
/// rewritten in every copy (an even action: an edge never taken). Guard
/// `g` is written before the assignment when `forms[g]` is false
/// (`a, y: ? K; y, b: player = P; a, z: ! K; z, end: player = keeper;`),
/// after it otherwise (`a, r: player = P; r, b: ? K; r, z: ! K; …`).
fn guarded(
    edges: &[(usize, usize, usize)],
    pragma: usize,
    forms: &[bool],
    change: Option<(usize, usize)>,
) -> String {
    let plain = random_rg::game(&[], pragma);
    let (head, pragmas) = plain.split_at(plain.find('@').unwrap_or(plain.len()));
    let mut text = head.to_string();
    let label = |a: usize| ACTIONS[a % ACTIONS.len()];
    let mut out: HashMap<usize, Vec<(usize, usize)>> = HashMap::new();
    for &(f, t, a) in edges {
        out.entry(f % random_rg::NODES)
            .or_default()
            .push((t % random_rg::NODES, a));
    }
    let mut guard = 0;
    for &(f, t, a) in edges {
        let (from, to) = (node(f), node(t));
        let l = label(a);
        if l != "player = a" && l != "player = b" {
            text.push_str(&format!("{from}, {to}: {l};\n"));
            continue;
        }
        let g = guard;
        guard += 1;
        // The copy of the walk from `to` up to the `player` assignments.
        let mut seen = BTreeSet::from([t % random_rg::NODES]);
        let mut stack = vec![t % random_rg::NODES];
        let mut copy = Vec::new();
        while let Some(n) = stack.pop() {
            for &(m, a) in out.get(&n).into_iter().flatten() {
                let l = label(a);
                if l.starts_with("player =") {
                    copy.push(format!("k{g}_{}, k{g}_acc: ;\n", node(n)));
                    continue;
                }
                let l = if l.starts_with('$') { "" } else { l };
                copy.push(format!("k{g}_{}, k{g}_{}: {l};\n", node(n), node(m)));
                if seen.insert(m) {
                    stack.push(m);
                }
            }
        }
        if let Some((e, a)) = change {
            if !copy.is_empty() {
                let i = e % copy.len();
                let (ends, _) = copy[i].split_at(copy[i].find(':').expect("an edge"));
                // Half of the changes block the edge.
                let l = if a % 2 == 0 { "c != c" } else { label(a) };
                copy[i] = format!("{ends}: {l};\n");
            }
        }
        text.extend(copy);
        let check = format!("k{g}_{to} -> k{g}_acc");
        match forms.get(g).copied().unwrap_or(false) {
            false => text.push_str(&format!(
                "{from}, y{g}: ? {check};\ny{g}, {to}: {l};\n\
                 {from}, z{g}: ! {check};\nz{g}, end: player = keeper;\n"
            )),
            true => text.push_str(&format!(
                "{from}, r{g}: {l};\nr{g}, {to}: ? {check};\n\
                 r{g}, z{g}: ! {check};\nz{g}, end: player = keeper;\n"
            )),
        }
    }
    text.push_str(pragmas);
    text
}

/// Perft at the deepest depth (up to 3) with at most 2,000 leaves, and
/// playouts with one seed, on the game and on its every-check version.
fn same_as_every_check(text: &str) -> Result<(), TestCaseError> {
    let Ok(game) = GameModel::from_text(text) else {
        return Ok(());
    };
    let checked = rg_lang::parse_str(text).expect("valid").1;
    let every = GameModel::with_every_check(checked).expect("lowers");
    for d in 0..=common::small_depth(&game) {
        let a = perft(&game, d, Counting::Walks).map(|c| c.leaves);
        let b = perft(&every, d, Counting::Walks).map(|c| c.leaves);
        prop_assert!(agree(&a, &b), "depth {}\n{}", d, text);
        match (a, b) {
            (Ok(a), Ok(b)) => prop_assert_eq!(a, b, "depth {}\n{}", d, text),
            // Deeper counts fail the same way (and may take each a whole
            // search bound of steps).
            _ => return Ok(()),
        }
    }
    let (mut p, mut q) = (Playouts::new(&game, 7), Playouts::new(&every, 7));
    p.max_moves = 1000;
    q.max_moves = 1000;
    for _ in 0..5 {
        let (a, b) = (p.run_one(), q.run_one());
        prop_assert!(agree(&a, &b), "{}", text);
        if a.is_err() || b.is_err() {
            // Compared as far as both answer (a failing play may take a
            // whole search bound of steps each time).
            return Ok(());
        }
        prop_assert_eq!(p.last_state(), q.last_state(), "{}", text);
    }
    prop_assert_eq!(&p.stats, &q.stats, "{}", text);
    Ok(())
}

/// Both answer, both fail, or only the every-check model gives up at a
/// search bound: the optimised walks decide some checks without walking
/// (a pure check visits each node once, also where a broken `@unique`
/// promise makes the every-check walk circle until its bound).
fn agree<T, U>(a: &Result<T, RunError>, b: &Result<U, RunError>) -> bool {
    match (a, b) {
        (Ok(_), Err(e)) => matches!(
            e,
            RunError::TooManyStates { .. }
                | RunError::EndlessWalk { .. }
                | RunError::MovesTooLarge(_)
                | RunError::ChecksTooDeep(_)
        ),
        _ => a.is_ok() == b.is_ok(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn guarded_turns_as_written(
        edges in random_rg::edges(1, 12),
        pragma in 0..PRAGMAS,
        forms in prop::collection::vec(any::<bool>(), 4),
    ) {
        same_as_every_check(&guarded(&edges, pragma, &forms, None))?;
    }

    #[test]
    fn changed_copies_are_no_mirrors(
        edges in random_rg::edges(1, 12),
        pragma in 0..PRAGMAS,
        forms in prop::collection::vec(any::<bool>(), 4),
        change in (0..16usize, 0..ACTIONS.len()),
    ) {
        same_as_every_check(&guarded(&edges, pragma, &forms, Some(change)))?;
    }
}

/// The two uses are found where the games above put them: a faithful copy
/// after the assignment makes a lazy root, one before it a speculated
/// check; a copy that reads `player` makes neither.
#[test]
fn mirrors_are_found() {
    let edges = [(0, 2, 16), (2, 3, 4), (3, 4, 1), (4, 2, 17), (3, 1, 18)];
    let count = |forms: &[bool]| {
        let text = guarded(&edges, 0, forms, None);
        let game = GameModel::from_text(&text).expect("loads");
        game.mirror_counts()
    };
    assert_eq!(count(&[true, true]), (2, 0));
    assert_eq!(count(&[false, false]), (0, 2));
    let text = guarded(&edges, 0, &[false, true], None).replace("c = C(*)", "player == a");
    let game = GameModel::from_text(&text).expect("loads");
    assert_eq!(game.mirror_counts(), (0, 0));
    // A copy whose first edge is never taken: no mirror, and the game ends
    // after the first move (perft 1 is a's 3 moves, then nothing).
    for forms in [[true, true], [false, false]] {
        let text = guarded(&edges, 0, &forms, Some((0, 0)));
        let game = GameModel::from_text(&text).expect("loads");
        assert_eq!(game.mirror_counts(), (0, 0), "{text}");
        same_as_every_check(&text).expect("same counts");
    }
}

/// A player's walk decides a speculated check in three states (one per
/// value of `c`), then plays one of them: the moves kept are the last
/// state's, and the next state takes them only if it is that state (the
/// next player writes `c` into the state, and the play ends when it wants).
#[test]
fn kept_moves_are_of_their_state() {
    let text = "type Player = {a, b};\ntype Score = {0, 1};\ntype C = {0, 1, 2};\n\
        type S = {x, y};\nvar c: C = 0;\nvar row: S -> C = { :0 };\n\
        begin, m1: player = a;\nm1, t1: c = C(*);\nt1, m2: $$ c;\n\
        m2, y1: ? k3 -> kacc;\ny1, m3: player = b;\nm2, z1: ! k3 -> kacc;\n\
        z1, end: player = keeper;\nm3, t3: $ w;\nt3, m4: row[x] = c;\nm4, m1: player = a;\n\
        m3, t5: $ stop;\nt5, end: player = keeper;\n\
        k3, k3w: ;\nk3w, k4: row[x] = c;\nk4, kacc: ;\nk3, k5: ;\nk5, kacc: ;\n";
    let game = GameModel::from_text(text).expect("loads");
    assert_eq!(game.mirror_counts(), (0, 1));
    same_as_every_check(text).expect("same counts and playouts");
    let mut p = Playouts::new(&game, 3);
    for _ in 0..20 {
        p.run_one().expect("a proper game");
    }
}

/// `@repeat m2 : s` merges the three states after `c = C(*)` (they differ
/// in `c`, which the key leaves out): the first one (`c = 2`) fails, so `a`
/// has no move although the copy (without the pragma) reaches its end. No
/// mirror: the play is stuck at `a`'s turn, as written. (The assignment to
/// `s` keeps the check from being a probe, decided before speculation.)
#[test]
fn inexact_repeat_merges_are_no_mirrors() {
    let text = "type Player = {a, b};\ntype Score = {0, 1};\ntype C = {0, 1, 2};\n\
        type S = {x, y};\nvar c: C = 1;\nvar s: S = x;\n\
        begin, y0: ? k1 -> kacc;\ny0, m1: player = a;\nbegin, z0: ! k1 -> kacc;\n\
        z0, end: player = keeper;\nm1, m2: c = C(*);\nm2, m3: c == 0;\nm3, m4: s = y;\n\
        m4, t4: $ go;\nt4, end: player = keeper;\n\
        k1, k2: c = C(*);\nk2, k3: c == 0;\nk3, k4: s = y;\nk4, kacc: ;\n\
        @repeat m2 : s;\n";
    let game = GameModel::from_text(text).expect("loads");
    assert_eq!(game.mirror_counts(), (0, 0));
    same_as_every_check(text).expect("same counts and playouts");
    let err = Playouts::new(&game, 1).run_one().unwrap_err();
    assert!(matches!(err, rg_engine::RunError::NoMove(_)), "{err}");
    // Without the pragma the copy is a mirror.
    let plain = text.replace("@repeat m2 : s;\n", "");
    let game = GameModel::from_text(&plain).expect("loads");
    assert_eq!(game.mirror_counts(), (0, 1));
    same_as_every_check(&plain).expect("same counts and playouts");
}

/// A copy may end (into its target) anywhere: every move walk from `m1`
/// is then a copy walk to `kacc`, all a mirror needs (`k3, kacc` stands
/// for `m3, m4: s = y` and the `player` assignment after it, as translated
/// RBG checks end where a move surely completes). Before a comparison
/// (`s == y`, false here) it is a mirror too, though `a` has no move where
/// the copy reaches its end: the moves generated ahead are none, so the
/// check is decided by its own walk (it holds) and the play is stuck at
/// `a`'s turn, as written.
#[test]
fn a_copy_may_end_anywhere() {
    let text = "type Player = {a, b};\ntype Score = {0, 1};\ntype C = {0, 1, 2};\n\
        type S = {x, y};\nvar c: C = 1;\nvar s: S = x;\n\
        begin, y0: ? k1 -> kacc;\ny0, m1: player = a;\nbegin, z0: ! k1 -> kacc;\n\
        z0, end: player = keeper;\nm1, m2: c = C(*);\nm2, m3: c == 0;\nm3, m4: s = y;\n\
        m4, t4: $ go;\nt4, end: player = keeper;\n\
        k1, k2: c = C(*);\nk2, k3: c == 0;\nk3, kacc: ;\n";
    let game = GameModel::from_text(text).expect("loads");
    assert_eq!(game.mirror_counts(), (0, 1));
    same_as_every_check(text).expect("same counts and playouts");
    let compared = text.replace("m3, m4: s = y;", "m3, m4: s == y;");
    let game = GameModel::from_text(&compared).expect("loads");
    assert_eq!(game.mirror_counts(), (0, 1));
    same_as_every_check(&compared).expect("same counts and playouts");
    let err = Playouts::new(&game, 1).run_one().unwrap_err();
    assert!(matches!(err, rg_engine::RunError::NoMove(_)), "{err}");
    // A copy that ends where the original has a different edge is none.
    let other = text.replace("k2, k3: c == 0;", "k2, k3: c == 1;");
    let game = GameModel::from_text(&other).expect("loads");
    assert_eq!(game.mirror_counts(), (0, 0));
    same_as_every_check(&other).expect("same counts and playouts");
}

/// `@repeat m4 : c` after a write of `row`, which the key leaves out, as in
/// translated RBG moves: the `$$ c` tag before the write tells apart the
/// walks whose `row` differs, so the merges at `m4` (entered by two edges,
/// hence checked) are of equal states and the check is a mirror. With a
/// constant tag instead the merges may drop a state that differs in `row`:
/// no mirror.
#[test]
fn tags_make_repeat_merges_exact() {
    let text = "type Player = {a, b};\ntype Score = {0, 1};\ntype C = {0, 1, 2};\n\
        type S = {x, y};\nvar c: C = 1;\nvar row: S -> C = { :0 };\n\
        begin, y0: ? k1 -> kacc;\ny0, m1: player = a;\nbegin, z0: ! k1 -> kacc;\n\
        z0, end: player = keeper;\nm1, m2: c = C(*);\nm2, t2: $$ c;\nt2, m3: row[x] = c;\n\
        m3, m4: c = 0;\nm3, m4: c = 2;\nm4, m5: row[x] == 0;\nm5, t5: $ go;\n\
        t5, end: player = keeper;\n\
        k1, k2: c = C(*);\nk2, k3: row[x] = c;\nk3, k4: c = 0;\nk3, k4: c = 2;\n\
        k4, k5: row[x] == 0;\nk5, kacc: ;\n@repeat m4 : c;\n";
    let game = GameModel::from_text(text).expect("loads");
    assert_eq!(game.mirror_counts(), (0, 1));
    same_as_every_check(text).expect("same counts and playouts");
    let constant = text.replace("$$ c;", "$ t;");
    let game = GameModel::from_text(&constant).expect("loads");
    assert_eq!(game.mirror_counts(), (0, 0));
    same_as_every_check(&constant).expect("same counts and playouts");
}

/// A tag edge among a node's several edges (`m2, t2: $$ c`), with the
/// single tag edges after it (`$ w`), pairs with the copy's edge equal to
/// the one after them (`row[x] = c`): a mirror; a copy edge that differs
/// from it (`row[x] = 1`) makes none.
#[test]
fn a_tag_among_several_edges_pairs_with_the_edge_after_it() {
    let text = "type Player = {a, b};\ntype Score = {0, 1};\ntype C = {0, 1, 2};\n\
        type S = {x, y};\nvar c: C = 1;\nvar row: S -> C = { :0 };\n\
        begin, y0: ? k1 -> kacc;\ny0, m1: player = a;\nbegin, z0: ! k1 -> kacc;\n\
        z0, end: player = keeper;\nm1, m2: c = C(*);\nm2, m3: c == 0;\nm2, t2: $$ c;\n\
        t2, t3: $ w;\nt3, m4: row[x] = c;\nm3, m5: $ zero;\nm5, end: player = keeper;\n\
        m4, t4: $ go;\nt4, end: player = keeper;\n\
        k1, k2: c = C(*);\nk2, k3: c == 0;\nk2, k4: row[x] = c;\nk3, kacc: ;\nk4, kacc: ;\n";
    let game = GameModel::from_text(text).expect("loads");
    assert_eq!(game.mirror_counts(), (0, 1));
    same_as_every_check(text).expect("same counts and playouts");
    let changed = text.replace("k2, k4: row[x] = c;", "k2, k4: row[x] = 1;");
    let game = GameModel::from_text(&changed).expect("loads");
    assert_eq!(game.mirror_counts(), (0, 0));
    same_as_every_check(&changed).expect("same counts and playouts");
}

/// A `$$ s` tag does not make merges that differ in `c` exact (the game of
/// `inexact_repeat_merges_are_no_mirrors` with the tag: `a` still has no
/// move, no mirror).
#[test]
fn tags_of_other_variables_keep_merges_inexact() {
    let text = "type Player = {a, b};\ntype Score = {0, 1};\ntype C = {0, 1, 2};\n\
        type S = {x, y};\nvar c: C = 1;\nvar s: S = x;\n\
        begin, y0: ? k1 -> kacc;\ny0, m1: player = a;\nbegin, z0: ! k1 -> kacc;\n\
        z0, end: player = keeper;\nm1, t1: c = C(*);\nt1, m2: $$ s;\nm2, m3: c == 0;\n\
        m3, m4: s = y;\nm4, t4: $ go;\nt4, end: player = keeper;\n\
        k1, k2: c = C(*);\nk2, k3: c == 0;\nk3, k4: s = y;\nk4, kacc: ;\n\
        @repeat m2 : s;\n";
    let game = GameModel::from_text(text).expect("loads");
    assert_eq!(game.mirror_counts(), (0, 0));
    same_as_every_check(text).expect("same counts and playouts");
    let err = Playouts::new(&game, 1).run_one().unwrap_err();
    assert!(matches!(err, rg_engine::RunError::NoMove(_)), "{err}");
}

/// A broken `@unique` promise on a loop inside a check: the every-check
/// walk circles until its bound, the optimised pure search answers (the
/// check fails: its target is unreachable), and `agree` accepts that.
#[test]
fn a_bound_in_the_every_check_model_only() {
    let text = guarded(&[(3, 3, 9), (0, 0, 4), (0, 0, 13)], 2, &[false; 4], None);
    let game = GameModel::from_text(&text).unwrap();
    let checked = rg_lang::parse_str(&text).expect("valid").1;
    let every = GameModel::with_every_check(checked).expect("lowers");
    let a = perft(&game, 1, Counting::Walks).map(|c| c.leaves);
    let b = perft(&every, 1, Counting::Walks).map(|c| c.leaves);
    assert_eq!(a, Ok(0), "{text}");
    assert!(matches!(b, Err(RunError::TooManyStates { .. })), "{b:?}");
    assert!(agree(&a, &b) && !agree(&b, &a));
}

/// A keeper's committed choice (`rbg-to-rg`'s `keeper.rs`): `@disjoint m2`
/// takes the first alternative whose check, on a copy of the rest, holds.
/// The check `k2` of the keeper's whole walk, at `m1k` after `a`'s move,
/// pairs `m2` with `k2`: each alternative's check starts by an edge of
/// `k2`, so a walk past `m2` shows `k2` reaching `kacc` and `m1k` is a
/// lazy root (`a` picks `d`; the keeper sets `c` to it unless `d` is 0,
/// which ends the play). An alternative's check that starts otherwise
/// (`c = 0`), or a `@repeat` node after `k2`, makes no mirror.
#[test]
fn a_committed_choice_is_paired_by_its_checks() {
    let text = "type Player = {a, b};\ntype Score = {0, 1};\ntype C = {0, 1, 2};\n\
        var c: C = 0;\nvar d: C = 1;\n\
        begin, m1: player = a;\nm1, t1: d = C(*);\nt1, t2: $$ d;\nt2, m1k: player = keeper;\n\
        m1k, m2: ? k2 -> kacc;\nm1k, m1z: ! k2 -> kacc;\nm1z, end: player = keeper;\n\
        m2, m2a0: ? k2a0 -> kacc;\nm2a0, m3: c = 1;\nm2, m2a1: ? k2a1 -> kacc;\n\
        m2a1, m3: c = 2;\nm3, m4: c == d;\nm4, m1: player = a;\n\
        k2, k3: c = 1;\nk2, k3: c = 2;\nk2a0, k3: c = 1;\nk2a1, k3: c = 2;\n\
        k3, k4: c == d;\nk4, kacc: ;\n@disjoint m2 : m2a0 m2a1;\n";
    let game = GameModel::from_text(text).expect("loads");
    assert_eq!(game.mirror_counts(), (1, 0));
    same_as_every_check(text).expect("same counts and playouts");
    assert_eq!(perft(&game, 2, Counting::Walks).map(|c| c.leaves), Ok(6));
    let other = text.replace("k2a0, k3: c = 1;", "k2a0, k3: c = 0;");
    let game = GameModel::from_text(&other).expect("loads");
    assert_eq!(game.mirror_counts(), (0, 0));
    same_as_every_check(&other).expect("same counts and playouts");
    let repeat = format!("{text}@repeat k3 : c;\n");
    let game = GameModel::from_text(&repeat).expect("loads");
    assert_eq!(game.mirror_counts(), (0, 0));
    same_as_every_check(&repeat).expect("same counts and playouts");
}
