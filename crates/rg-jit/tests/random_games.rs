//! Random small games, most of them improper (loops, foreign keys, stuck
//! plays, recursive checks, ambiguous walks): the native engine lists the
//! same walks as the interpreter, or fails with the same error, along a
//! random play.

use proptest::prelude::*;
use rg_engine::{GameModel, MoveList, Mover};

const ACTIONS: &[&str] = &[
    "",
    "$ p",
    "$ q",
    "$$ c",
    "c = C(*)",
    "c = 2",
    "c = step[c]",
    "row[s] = c",
    "row[pick[c]] = 1",
    "c != 1",
    "row[s] == c",
    "row == col",
    "col = row",
    "? m2 -> m4",
    "! m1 -> m3",
    "? m3 -> m5",
    "player = a",
    "player = b",
    "player = keeper",
    "player = random",
    "goals[a] = 1",
    "goals[b] = Score(*)",
    "visible[b] = 0",
    "s = S(*)",
];

fn edge() -> impl Strategy<Value = String> {
    (0usize..8, 0usize..8, prop::sample::select(ACTIONS)).prop_map(|(x, y, act)| {
        let name = |i: usize| match i {
            0 => "begin".to_string(),
            1 => "end".to_string(),
            i => format!("m{}", i - 1),
        };
        format!("{}, {}: {act};\n", name(x), name(y))
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn native_lists_equal_the_interpreters(
        edges in prop::collection::vec(edge(), 1..16),
        pragma in 0usize..4,
        seed in 0u64..1000,
    ) {
        let mut text = String::from(
            "type Player = {a, b};\ntype Score = {0, 1};\ntype C = {0, 1, 2};\ntype S = {x, y};\n\
             var c: C = 0;\nvar s: S = x;\nvar row: S -> C = { :0 };\nvar col: S -> C = { x: 1, :0 };\n\
             const step: C -> C = { 0: 1, 1: 2, :0 };\nconst pick: C -> S = { 0: x, :y };\n\
             begin, end: player = keeper;\n",
        );
        text.extend(edges);
        text.push_str(["", "@disjoint m1 : a b;\n", "@unique m2;\n@repeat m3 : c;\n", "@unique m4;\n"][pragma]);
        let Ok(interp) = GameModel::from_text(&text) else { return Ok(()) };
        let native = match rg_jit::compile(&interp) {
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
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let pick = match interp.mover(&s) {
                Ok(Mover::Keeper) => 0,
                _ => (x >> 33) as usize % li.len(),
            };
            ri.apply(&mut s, &li, pick);
        }
    }
}
