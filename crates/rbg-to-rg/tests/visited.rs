//! Which nodes of a translation the RG engine guards with a visited check:
//! walks that meet only where their keys must differ (`joins.rs`) and
//! acyclic check regions (`checks.rs`) get `@unique`; walks that do meet
//! with equal keys keep their check. Moves and perft are checked against
//! the RBG games in `moves.rs` and `suite.rs`.

use std::path::Path;

mod common;

/// The translation of the repository's `games/NAME.rbg` and the names of
/// its nodes with a visited check.
fn guarded(name: &str) -> (String, Vec<String>) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../games")
        .join(format!("{name}.rbg"));
    let text = std::fs::read_to_string(&path).unwrap();
    let game = rbg_lang::parse_str(&text).unwrap();
    let rg = rbg_to_rg::translate_text(&game).unwrap();
    let model = rg_engine::GameModel::from_text(&rg).unwrap();
    let names = model
        .description()
        .nodes
        .iter()
        .zip(model.visited_checks())
        .filter(|(_, g)| *g)
        .map(|(n, _)| n.to_string())
        .collect();
    (rg, names)
}

#[test]
fn pawn_steps_and_queen_rays_meet_only_with_distinct_keys() {
    // Breakthrough: a diagonal step by the first or the second target of
    // `(left + right)`, then straight and diagonal steps meet at the
    // tagged `[mine]` (`m7`, `m9_1` were `@repeat ... : coord`). Its one
    // check region (the next player has a move) is acyclic.
    let (rg, nodes) = guarded("breakthrough");
    assert_eq!(nodes, Vec::<String>::new(), "{rg}");
    // Amazons: the 8 rays of a queen move, each a loop of one direction,
    // meet at the move's end and again at the arrow's.
    let (rg, nodes) = guarded("amazons");
    assert!(nodes.iter().all(|n| !n.starts_with('m')), "{nodes:?}\n{rg}");
    assert!(nodes.len() < 80, "{}", nodes.len());
    // English draughts: a capture chain goes on from jumps in different
    // directions (`m19` from `m13`, `m18`, `m24`, `m29`), whose walks end
    // in different tags (`index_6`, `index_7`, ...); the keeper's game
    // ends `m104z`, `m208z` had checks (`m104`, `m208` followed a check
    // that never holds, now left out) until the keeper's walks were shown
    // single (`single.rs`).
    let (rg, nodes) = guarded("englishDraughts");
    let moves: Vec<&str> = nodes
        .iter()
        .map(String::as_str)
        .filter(|n| n.starts_with('m'))
        .collect();
    assert_eq!(moves, Vec::<&str>::new(), "{rg}");
}

#[test]
fn falling_discs_and_wins_meet_nothing() {
    // Connect four: `coord = Coords(*)` over the top row, then `down*`:
    // discs dropped into different columns never meet (`m4`, entered from
    // the top and from the loop, was `@repeat ... : coord`). The keeper's
    // four line checks, each followed by the same win, would meet with
    // equal keys when a move completes two lines, but each is walked only
    // where the earlier ones fail (`Emitter::unless_earlier`), which
    // `single.rs` sees: the win `m13` needs no check (it had one).
    let (rg, nodes) = guarded("connect4");
    assert!(!nodes.contains(&"m4".to_string()), "{nodes:?}\n{rg}");
    assert!(!nodes.contains(&"m13".to_string()), "{nodes:?}\n{rg}");
}

#[test]
fn flips_past_a_failed_pattern_walk_once() {
    // Reversi's keeper flips each direction's pieces where `{! flips}`
    // fails: each direction's two sides lead into one node, but the flips'
    // walk is past the ray's end only where the pattern holds (`single.rs`),
    // so the keeper's walk is single and needs no visited check (every
    // node after the first direction's had one).
    let Some(dir) = common::suite() else { return };
    let model = common::translated("reversi", &common::game(&dir, "reversi.rbg"));
    let nodes: Vec<&str> = model
        .description()
        .nodes
        .iter()
        .zip(model.visited_checks())
        .filter(|(n, g)| *g && n.starts_with('m'))
        .map(|(n, _)| n.as_str())
        .collect();
    assert_eq!(nodes, Vec::<&str>::new());
}

#[test]
fn acyclic_check_regions_have_no_visited_check() {
    // Tic-tac-toe: the lines behind `(back)*` meet at the first cell of
    // the line (`p0n1` was `@repeat ... : coord`); every check region is
    // acyclic with few walks.
    let (rg, nodes) = guarded("ticTacToe");
    assert_eq!(nodes, Vec::<String>::new(), "{rg}");
}

#[test]
fn rays_in_patterns_are_tests_at_shifted_vertices() {
    // Reversi's `movePossible` walks a ray of opponent's pieces in 8
    // directions, chess's "is this square attacked" (castling) 16 rays and
    // hops. Unrolled (`unroll.rs`), a pattern's nodes stand for a state
    // and the shifts taken, its tests read `board[go..[coord]]`, and it
    // never shifts `coord`; patterns with an any-vertex move (`coord =
    // Coord(*)`) are left as they are.
    for name in ["reversi", "chess"] {
        let (rg, _) = guarded(name);
        let mut patterns: std::collections::BTreeMap<&str, Vec<&str>> = Default::default();
        for l in rg.lines().filter(|l| l.starts_with('p')) {
            let k = l.find('n').expect("a pattern node");
            patterns.entry(&l[..k]).or_default().push(l);
        }
        let mut unrolled = 0;
        for edges in patterns.values() {
            let moves = edges
                .iter()
                .any(|l| l.contains("(*)") || l.contains("] = "));
            if !moves {
                assert!(edges.iter().all(|l| !l.contains("coord = go")), "{edges:?}");
                unrolled += edges.iter().any(|l| l.contains("board[go")) as usize;
            }
        }
        assert!(unrolled >= 2, "{name}: {rg}");
    }
}
