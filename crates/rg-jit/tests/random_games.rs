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
        let Ok(interp) = GameModel::from_text(&text) else { return Ok(()) };
        let part_edges = if part_edges > 8 { rg_jit::PART_EDGES } else { part_edges };
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
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let pick = match interp.mover(&s) {
                Ok(Mover::Keeper) => 0,
                _ => (x >> 33) as usize % li.len(),
            };
            ri.apply(&mut s, &li, pick);
        }
    }
}
