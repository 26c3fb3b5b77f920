//! Random small games, most of them improper (loops, foreign keys, stuck
//! plays, recursive checks, ambiguous walks): the native engine lists the
//! same walks as the interpreter, or fails with the same error, along a
//! random play; the walk split into functions of 1 to 8 edges (the
//! default when larger) or not.

use proptest::prelude::*;
use rg_engine::{GameModel, MoveList, Mover};
use testkit::random_rg::{self, PRAGMAS};

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn native_lists_equal_the_interpreters(
        edges in random_rg::edges(1, 16),
        pragma in 0..PRAGMAS,
        seed in 0u64..1000,
        part_edges in 1u32..12,
    ) {
        let text = random_rg::game(&edges, pragma);
        let part_edges = if part_edges > 8 { rg_jit::PART_EDGES } else { part_edges };
        native_plays_as_the_interpreter(&text, part_edges, seed)?;
    }
}

/// Along a random play of `text` (picks drawn from `seed`), the native
/// engine split into functions of `part_edges` edges lists the
/// interpreter's walks, or fails with its error, and applies each move to
/// the same state.
fn native_plays_as_the_interpreter(
    text: &str,
    part_edges: u32,
    seed: u64,
) -> Result<(), TestCaseError> {
    let Ok(interp) = GameModel::from_text(text) else {
        return Ok(());
    };
    let native = match rg_jit::compile_split(&interp, part_edges) {
        Ok(g) => g,
        Err(e) => panic!("{e}\n{text}"),
    };
    let (mut ri, mut rn) = (interp.reasoner(), native.reasoner());
    let (mut li, mut ln) = (MoveList::default(), MoveList::default());
    let mut s = interp.initial_state();
    let mut x = seed;
    for _ in 0..20 {
        let (mut si, mut sn) = (s.clone(), s.clone());
        let (a, b) = (ri.moves(&mut si, &mut li), rn.moves(&mut sn, &mut ln));
        prop_assert_eq!(&si, &s);
        prop_assert_eq!(&sn, &s);
        prop_assert_eq!(&a, &b, "{}", text);
        if a.is_err() || li.is_empty() {
            break;
        }
        prop_assert_eq!(li.len(), ln.len(), "{}", text);
        for i in 0..li.len() {
            prop_assert_eq!(li.tags(i), ln.tags(i));
            prop_assert_eq!(li.visibility(i), ln.visibility(i));
            let (mut p, mut q) = (s.clone(), s.clone());
            ri.apply(&mut p, &li, i);
            rn.apply(&mut q, &ln, i);
            prop_assert_eq!(p, q, "{}", text);
        }
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let pick = match interp.mover(&s) {
            Ok(Mover::Keeper) => 0,
            _ => (x >> 33) as usize % li.len(),
        };
        ri.apply(&mut s, &li, pick);
    }
    Ok(())
}

/// A proptest case: the keeper's `begin, begin: c = C(*)` loop beside a
/// stuck `m5`/`m6` cycle, the walk unsplit; 1932488's runs after a join
/// applied the first move with another `c` than the interpreter.
#[test]
fn a_keepers_self_loop_applies_as_the_interpreter() {
    let text = random_rg::game(&[(0, 6, 0), (6, 7, 5), (0, 0, 4), (7, 6, 5)], 0);
    native_plays_as_the_interpreter(&text, rg_jit::PART_EDGES, 0).unwrap();
}

/// A proptest case (`random_games.proptest-regressions`): begin's
/// any-assignment enters m1 twice per visit of begin, and m1's walk
/// re-enters begin in between; the interpreter's local visited check at m1
/// listed 7 walks. With every node checked (the reference's rule): 6.
#[test]
fn reentered_choice_node_lists_the_references_walks() {
    let text = "type Player = {a, b};\ntype Score = {0, 1};\ntype C = {0, 1, 2};\n\
                type S = {x, y};\nvar c: C = 0;\nvar s: S = x;\nvar row: S -> C = { :0 };\n\
                var col: S -> C = { x: 1, :0 };\nconst step: C -> C = { 0: 1, 1: 2, :0 };\n\
                const pick: C -> S = { 0: x, :y };\nbegin, end: player = keeper;\nm1, m5: ;\n\
                begin, m1: goals[b] = Score(*);\nm1, begin: c = C(*);\nbegin, begin: c = 2;\n\
                m1, m2: player = a;\n";
    let interp = GameModel::from_text(text).unwrap();
    let native = rg_jit::compile(&interp).unwrap();
    for g in [&interp, &native] {
        let mut list = MoveList::default();
        g.reasoner()
            .moves(&mut g.initial_state(), &mut list)
            .unwrap();
        assert_eq!(list.len(), 6);
    }
}

/// Random games exercise every kind of generated check (a fixed sample of
/// them, so the count is the same on every run).
#[test]
fn random_games_have_every_kind_of_generated_check() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    use rg_jit::CheckCode;
    let mut runner = TestRunner::deterministic();
    let strategy = (random_rg::edges(1, 16), 0..PRAGMAS);
    let mut seen = [0usize; 5];
    for _ in 0..2000 {
        let (edges, pragma) = strategy.new_tree(&mut runner).expect("a game").current();
        let Ok(game) = GameModel::from_text(&random_rg::game(&edges, pragma)) else {
            continue;
        };
        for code in rg_jit::check_codes(&game) {
            match code {
                CheckCode::Writing(..) => seen[0] += 1,
                CheckCode::Slot => seen[1] += 1,
                CheckCode::Program(..) => seen[2] += 1,
                CheckCode::Pure => seen[3] += 1,
                CheckCode::Search => seen[4] += 1,
                _ => {}
            }
        }
    }
    assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
}

/// A jump chain (`j -> q2 -> j`, checked choices on a cycle) after one
/// choice `p`: rg-engine's local checks at `j` and `q2` (frame node `p`,
/// on no cycle) are generated stamps, numbered per visit of `p`; the
/// native engine lists the interpreter's walks (6, as with every node
/// checked) along a play, split or not.
#[test]
fn a_jump_chain_after_one_choice_lists_the_references_walks() {
    let text = include_str!("../../rg-engine/tests/data/jumps.rg");
    let interp = GameModel::from_text(text).unwrap();
    let native = rg_jit::compile(&interp).unwrap();
    for g in [&interp, &native] {
        let mut list = MoveList::default();
        let mut s = g.initial_state();
        let mut r = g.reasoner();
        r.complete_keeper(&mut s).unwrap();
        r.moves(&mut s, &mut list).unwrap();
        assert_eq!(list.len(), 6, "{}", g.engine_name());
    }
    for part_edges in [1, 3, rg_jit::PART_EDGES] {
        native_plays_as_the_interpreter(text, part_edges, 7).unwrap();
    }
}

/// A proptest case: check `? m2 -> m4` goes past `m2, m5: player = a`
/// into `m5` (a `player` target of one edge, which the check's walk
/// follows inline, with no frame) and on to `m6`, checked on its own
/// cycle (`m6, m6: c != 1`): `m5` is no local check's frame node (it was,
/// and the interpreter read a frame below the check's).
#[test]
fn a_check_past_a_player_assignment_keeps_its_visited_set() {
    let text = random_rg::game(&[(3, 6, 16), (1, 0, 13), (6, 7, 0), (7, 7, 9)], 0);
    native_plays_as_the_interpreter(&text, 1, 0).unwrap();
}
