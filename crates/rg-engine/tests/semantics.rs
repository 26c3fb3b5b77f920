//! The walk's semantics on small games (`rg-language.md` §5, §6, §7): what is
//! merged and what is counted twice, pragmas, checks, maps, visibility, and
//! improper games giving run-time errors.

use rg_engine::perft::{perft, Counting};
use rg_engine::playout::Playouts;
use rg_engine::raw::{Tables, FAN_ROOT, NO_EDGE};
use rg_engine::{GameModel, MoveList, Mover, RunError};

const HEAD: &str = "type Player = {x, y};\ntype Score = {0, 1};\n";

fn game(body: &str) -> GameModel {
    GameModel::from_text(&format!("{HEAD}{body}")).unwrap_or_else(|e| panic!("{e}\n{body}"))
}

fn perft1(g: &GameModel) -> u64 {
    perft(g, 1, Counting::Walks).unwrap().leaves
}

/// `body`'s game, and the same game with every node checked (the
/// reference's rule, `GameModel::with_every_check`).
fn with_every_check(body: &str) -> (GameModel, GameModel) {
    with_every_check_of(&format!("{HEAD}{body}"))
}

/// [`with_every_check`] of a whole game, with its own `Player` and `Score`.
fn with_every_check_of(text: &str) -> (GameModel, GameModel) {
    let (_, checked) = rg_lang::parse_str(text).unwrap();
    let g = GameModel::from_text(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    (g, GameModel::with_every_check(checked).unwrap())
}

/// Four squares in a cycle (`next`) holding `e`, `w` or `b` as `board`
/// says, a variable `pos`, then `rules`.
fn four_squares(board: &str, rules: &str) -> String {
    format!(
        "type V = {{0, 1, 2, 3}};\ntype P = {{e, w, b}};\nvar pos: V = 0;\n\
         const next: V -> V = {{ 0: 1, 1: 2, 2: 3, :0 }};\nvar board: V -> P = {board};\n{rules}"
    )
}

/// For each `(board, leaves)`: `rules` on [`four_squares`] with `board`
/// has tables of the expected `shape`, and it and the same game with every
/// node checked have `leaves` moves at depth 1.
fn on_four_squares(rules: &str, boards: &[(&str, u64)], shape: impl Fn(&Tables)) {
    for &(board, want) in boards {
        let (g, every) = with_every_check(&four_squares(board, rules));
        shape(g.tables());
        assert_eq!(perft1(&g), want, "{board}");
        assert_eq!(perft1(&every), want, "{board}");
    }
}

/// [`on_four_squares`] for `rules("?")` and `rules("!")`: on each `(board,
/// holds)`, the check holds on `board` or not, so the positive rules have
/// one move there exactly when it holds and the negative ones when it does
/// not; `count` of the tables is `want` (with every node checked, it is
/// `T::default()`, no shortcut).
fn on_both_signs<T: PartialEq + std::fmt::Debug + Default>(
    rules: impl Fn(&str) -> String,
    boards: &[(&str, bool)],
    count: impl Fn(&Tables) -> T,
    want: T,
) {
    for (sign, positive) in [("?", true), ("!", false)] {
        let rules = rules(sign);
        let boards: Vec<_> = boards
            .iter()
            .map(|&(board, holds)| (board, (holds == positive) as u64))
            .collect();
        on_four_squares(&rules, &boards, |t| assert_eq!(count(t), want, "{rules}"));
        let (_, every) = with_every_check(&four_squares(boards[0].0, &rules));
        assert_eq!(count(every.tables()), T::default(), "{rules}");
    }
}

/// The moves (tag texts) of the first real decision.
fn first_moves(g: &GameModel) -> Vec<String> {
    let mut r = g.reasoner();
    let mut s = g.initial_state();
    r.complete_keeper(&mut s).unwrap();
    let mut list = MoveList::default();
    r.moves(&mut s, &mut list).unwrap();
    (0..list.len()).map(|i| g.move_text(&list, i)).collect()
}

/// The number of moves of the first decision as a playout lists them
/// (effects only) and the state after the one drawn with `seed`.
fn random_move(g: &GameModel, seed: u64) -> (usize, Vec<u16>, u32) {
    use gg_core::{Game, Reasoner};
    use rand::SeedableRng;
    let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
    let mut s = Game::initial_state(g).unwrap();
    let mut w = Game::reasoner(g);
    let n = w
        .play_random(&mut s, &mut Default::default(), &mut rng)
        .unwrap();
    (n, s.slots().to_vec(), s.node())
}

#[test]
fn walks_meeting_before_the_last_edge_count_twice() {
    // Same tags, same variables: merged at c, but the two final edges start
    // at different nodes, so there are two walks.
    let g = game(
        "begin, s: player = x;\ns, a: $ t;\ns, b: $ t;\na, c: ;\nb, c: ;\nc, d: player = keeper;\n\
                  a, e: player = keeper;\nb, e: player = keeper;\nd, end: ;\ne, end: ;",
    );
    // Walks: s-a-c (merged with s-b-c) -> d; s-a-e; s-b-e.
    assert_eq!(perft1(&g), 3);
    assert_eq!(perft(&g, 1, Counting::DistinctMoves).unwrap().leaves, 1);
}

#[test]
fn equal_values_by_different_assignments_merge() {
    // v = 1 directly or v = 2 then v = 1: one key at m, one walk.
    let g = game("type V = {0, 1, 2};\nvar v: V = 0;\nbegin, s: player = x;\ns, a: v = 1;\ns, b: v = 2;\nb, a2: v = 1;\n\
                  a, m: ;\na2, m: ;\nm, n: $ go;\nn, end: player = keeper;");
    assert_eq!(perft1(&g), 1);
}

#[test]
fn any_assignment_branches_and_goals_are_not_in_the_key() {
    // Two symbols of a user variable: two walks; of goals: merged into one.
    let g = game("type V = {0, 1};\nvar v: V = 0;\nbegin, s: player = x;\ns, a: v = V(*);\na, b: ;\nb, end: player = keeper;");
    assert_eq!(perft1(&g), 2);
    let g = game(
        "begin, s: player = x;\ns, a: goals[x] = Score(*);\na, b: ;\nb, end: player = keeper;",
    );
    assert_eq!(perft1(&g), 1);
}

#[test]
fn disjoint_takes_the_first_legal_edge_only() {
    let body = "type V = {0, 1};\nvar v: V = 1;\nbegin, s: player = x;\ns, a: v == 0;\ns, b: $ one;\ns, c: $ two;\n\
                a, end: player = keeper;\nb, end: player = keeper;\nc, end: player = keeper;\n";
    assert_eq!(perft1(&game(body)), 2);
    assert_eq!(
        first_moves(&game(&format!("{body}@disjoint s : a b c;"))),
        ["one"]
    );
    // Not in effect when the count of names differs from the edges.
    assert_eq!(perft1(&game(&format!("{body}@disjoint s : a b;"))), 2);
}

#[test]
fn unique_and_repeat_pragmas_change_the_visited_key() {
    // Two walks reach m with equal keys; the second is dropped unless @unique.
    let body =
        "begin, s: player = x;\ns, a: ;\ns, b: ;\na, m: ;\nb, m: ;\nm, end: player = keeper;\n";
    assert_eq!(perft1(&game(body)), 1);
    assert_eq!(perft1(&game(&format!("{body}@unique m;"))), 2);
    // @repeat keeps only the listed variables: w differs but is not listed.
    let body = "type V = {0, 1};\nvar w: V = 0;\nbegin, s: player = x;\ns, m: w = V(*);\nm, n: ;\nn, end: player = keeper;\n";
    assert_eq!(perft1(&game(body)), 2);
    assert_eq!(perft1(&game(&format!("{body}@repeat m n : ;"))), 1);
}

#[test]
fn check_merges_ignore_player_and_depend_on_edge_order() {
    // rg-language.md §7.7.
    let rest = "c2, c4: player == y;\nbegin, s: ? c1 -> c4;\ns, end: player = keeper;\nbegin, t: ! c1 -> c4;\nt, u: $ no;\nu, end: player = keeper;\n";
    let g = game(&format!("c1, c2: player = y;\nc1, c2: ;\n{rest}"));
    let mut r = g.reasoner();
    let mut s = g.initial_state();
    let mut list = MoveList::default();
    r.moves(&mut s, &mut list).unwrap();
    assert_eq!(g.move_text(&list, 0), "no");
    let g = game(&format!("c1, c2: ;\nc1, c2: player = y;\n{rest}"));
    r = g.reasoner();
    s = g.initial_state();
    r.moves(&mut s, &mut list).unwrap();
    assert_eq!((list.len(), g.move_text(&list, 0)), (1, String::new()));
}

#[test]
fn random_children_merge_by_state_and_use_a_ply() {
    // Two random walks with different tags but the same resulting state: one child.
    let g = game("type D = {1, 2};\nvar d: D = 1;\nbegin, r: player = random;\nr, a: $ h;\nr, b: $ t;\n\
                  a, c: d = 2;\nb, c2: d = 2;\nc, p: player = x;\nc2, p: player = x;\np, q: $ m;\nq, end: player = keeper;");
    assert_eq!(perft(&g, 1, Counting::Walks).unwrap().leaves, 1);
    assert_eq!(perft(&g, 1, Counting::DistinctMoves).unwrap().leaves, 2);
    assert_eq!(perft(&g, 2, Counting::Walks).unwrap().leaves, 1);
}

#[test]
fn maps_with_defaults_and_foreign_keys() {
    // m: {a, b} -> {0, 1}; reading key `c` (outside) gives the default 1.
    let body = "type K = {a, b};\ntype KC = {a, b, c};\ntype V = {0, 1};\nvar m: K -> V = { a: 0, :1 };\nvar k: KC = c;\n\
                var n: K -> V = { :0 };\nbegin, s: player = x;\ns, t: m[k] == 1;\nt, u: n != m;\nu, w: n = m;\nw, z: n == m;\n\
                z, z2: $ ok;\nz2, end: player = keeper;\n";
    assert_eq!(first_moves(&game(body)), ["ok"]);
    // Writing at a foreign key is an error.
    let g = game("type K = {a, b};\ntype KC = {a, b, c};\ntype V = {0, 1};\nvar m: K -> V = { :1 };\nvar k: KC = c;\n\
                  begin, s: player = x;\ns, t: m[k] = 0;\nt, end: player = keeper;");
    let mut r = g.reasoner();
    let mut s = g.initial_state();
    r.complete_keeper(&mut s).unwrap();
    let before = s.clone();
    let e = r.moves(&mut s, &mut MoveList::default()).unwrap_err();
    assert!(matches!(e, RunError::ForeignKey(_)), "{e:?}");
    assert_eq!(s, before, "state restored after an error");
}

#[test]
fn maps_of_different_key_sets_compare_and_copy_key_by_key() {
    // Every comparison below holds only when keys missing on one side read
    // that side's default: m[c] is 0 against n[c] = 0 and o[c] = 1; `m = o`
    // copies o's default, `n = m` gives n[c] m's default; nested maps pair
    // their inner maps key by key the same way.
    let body = "type K = {a, b};\ntype KC = {a, b, c};\ntype V = {0, 1};\nvar m: K -> V = { a: 1, :0 };\n\
                var n: KC -> V = { a: 1, :0 };\nvar o: KC -> V = { c: 1, :0 };\nvar p: K -> K -> V = { :{ :0 } };\n\
                var q: KC -> K -> V = { c: { a: 1, :0 }, :{ :0 } };\nbegin, s: player = x;\ns, t: m == n;\n\
                t, u: m != o;\nu, w: m = o;\nw, w2: m != o;\nw2, w3: n = m;\nw3, w4: n == m;\nw4, w5: p != q;\n\
                w5, w6: q = p;\nw6, w7: p == q;\nw7, x3: m == p[a];\nx3, x4: $ ok;\nx4, end: player = keeper;\n";
    assert_eq!(first_moves(&game(body)), ["ok"]);
}

#[test]
fn end_is_not_special_during_a_walk() {
    let g = game(
        "begin, end: ;\nend, s: player = x;\ns, t: $ go;\nt, end2: player = keeper;\nend2, end: ;",
    );
    assert_eq!(first_moves(&g), ["go"]);
}

#[test]
fn hidden_tags_and_observations() {
    let g = game("type C = {l, r};\nvar c: C = l;\nbegin, h: player = x;\nh, h1: c = C(*);\nh1, h2: visible[y] = 0;\n\
                  h2, h3: $$ c;\nh3, h4: visible[y] = 1;\nh4, h5: $ done;\nh5, end: player = keeper;");
    let mut r = g.reasoner();
    let mut s = g.initial_state();
    let mut list = MoveList::default();
    r.complete_keeper(&mut s).unwrap();
    assert_eq!(g.mover(&s).unwrap(), Mover::Player(0));
    r.moves(&mut s, &mut list).unwrap();
    assert_eq!(list.len(), 2);
    for i in 0..2 {
        let all = g.move_text(&list, i);
        assert!(all == "l done" || all == "r done", "{all}");
        assert_eq!(g.tags_text(&g.observation(&list, i, 0)), all);
        assert_eq!(g.tags_text(&g.observation(&list, i, 1)), "done");
    }
}

#[test]
fn improper_games_give_errors() {
    // A keeper with two moves: perft sums them, playouts and completion fail.
    let g = game("begin, a: player = keeper;\nbegin, b: player = keeper;\na, end: player = keeper;\nb, end: player = keeper;");
    assert!(matches!(
        Playouts::new(&g, 1).run_one(),
        Err(RunError::KeeperMoves { count: 2, .. })
    ));
    assert!(matches!(
        g.reasoner().complete_keeper(&mut g.initial_state()),
        Err(RunError::KeeperMoves { count: 2, .. })
    ));
    // No move outside `end`.
    let g = game("type V = {0, 1};\nvar v: V = 0;\nbegin, a: v == 1;\na, end: player = keeper;");
    assert!(matches!(
        Playouts::new(&g, 1).run_one(),
        Err(RunError::NoMove(0))
    ));
    // A tag on a cycle never ends.
    let g = game("begin, a: player = x;\na, b: $ t;\nb, a: ;\nb, end: player = keeper;");
    let mut s = g.initial_state();
    g.reasoner().complete_keeper(&mut s).unwrap();
    // The error names the node the last tag led to, `b`.
    assert_eq!(
        g.reasoner().moves(&mut s, &mut MoveList::default()),
        Err(RunError::EndlessWalk {
            limit: 1 << 11,
            node: g.description().node("b").unwrap().0,
        })
    );
    // A check whose walk evaluates itself again.
    let g = game("begin, a: ? c -> d;\na, end: player = keeper;\nc, c2: ;\nc2, d: ? c -> d;");
    assert!(matches!(
        g.reasoner().complete_keeper(&mut g.initial_state()),
        Err(RunError::RecursiveCheck(_))
    ));
    // Ambiguous: two walks with tag `t` reach different states.
    let g = game("type V = {0, 1};\nvar v: V = 0;\nbegin, s: player = x;\ns, a: v = V(*);\na, b: $ t;\nb, end: player = keeper;");
    assert!(matches!(
        Playouts::new(&g, 1).run_one(),
        Err(RunError::AmbiguousMove(_))
    ));
    // A keeper that moves forever.
    let g = game("begin, a: player = keeper;\na, begin: player = keeper;\na, end: player = x;");
    let e = g.reasoner().complete_keeper(&mut g.initial_state());
    assert!(
        matches!(
            e,
            Err(RunError::KeeperMoves { .. }) | Err(RunError::EndlessKeeper { .. })
        ),
        "{e:?}"
    );
}

#[test]
fn any_assignment_of_goals_after_a_merge_point_merges() {
    // `m` is entered twice (so checked); from there `goals[x] = Score(*)`
    // gives two states with one key at `a`: the second is dropped.
    let g = game(
        "type V = {0, 1, 2};\nvar v: V = 0;\nbegin, s: player = x;\ns, m: v = 1;\ns, m: v = 2;\n\
         m, a: goals[x] = Score(*);\na, b: $$ v;\nb, end: player = keeper;",
    );
    assert_eq!(perft1(&g), 2);
}

#[test]
fn a_check_drops_states_with_seen_keys_also_on_one_path() {
    // `goals` is not in the key: the symbols of `goals[x] = Score(*)` give
    // one key at c2, so only the first tried (the last, 1) goes on, and
    // `goals[x] == 0` never holds: the check is false (rg-language.md
    // §7.7), on a path of comparisons as on a branching automaton. The
    // check's answer shows in perft: 2 moves if it holds, 1 if not.
    let head = "begin, s: player = x;\ns, a: ? c1 -> c3;\na, b: $ yes;\na, b: $ yes2;\n\
                s, d: ! c1 -> c3;\nd, b: $ no;\nb, end: player = keeper;\n\
                c1, c2: goals[x] = Score(*);\n";
    for (tail, holds) in [
        ("c2, c3: goals[x] == 0;", false),
        ("c2, c3: goals[x] == 1;", true),
        (
            "c2, c4: goals[x] == 0;\nc4, c3: ;\nc2, c5: goals[x] == 0;\nc5, c4: ;",
            false,
        ),
        (
            "c2, c4: goals[x] == 1;\nc4, c3: ;\nc2, c5: goals[x] == 0;\nc5, c4: ;",
            true,
        ),
    ] {
        let want = if holds { 2 } else { 1 };
        let (g, every) = with_every_check(&format!("{head}{tail}"));
        assert_eq!(perft1(&g), want, "{tail}");
        assert_eq!(perft1(&every), want, "{tail}");
    }
}

#[test]
fn walks_meeting_after_one_choice_merge_within_that_choice_only() {
    // Three visits of p (k = 0, 1, 2, told apart by the tag `$$ k`), each
    // with two edges into q: q's key repeats (v = 1 twice for k = 0) only
    // within one visit of p, and v = 2 under k = 1 and k = 2 stays two
    // walks (`local.rs`: q keeps stamps per visit of p). With `@repeat q :
    // ;` the key is the tags only: one walk per k.
    let head = "type V = {0, 1, 2};\nvar k: V = 0;\nvar v: V = 0;\n\
                const f: V -> V = { 0: 1, 1: 1, :2 };\nconst g: V -> V = { 0: 1, 1: 2, :0 };\n\
                begin, s: player = x;\ns, p0: k = V(*);\np0, p: $$ k;\n\
                p, q: v = f[k];\np, q: v = g[k];\nq, r: $$ v;\nr, e: player = keeper;\ne, end: ;\n";
    for (pragma, want) in [("", 5), ("@repeat q : ;\n", 3), ("@repeat q : v;\n", 5)] {
        let (g, every) = with_every_check(&format!("{head}{pragma}"));
        assert_eq!(perft1(&g), want, "{pragma}");
        assert_eq!(perft1(&every), want, "{pragma}");
    }
}

#[test]
fn walks_meeting_after_choices_between_merge_within_the_first_choice_only() {
    // As above, with choices a and b between p and q (`local.rs`: relays,
    // whose frames stand for p's): under k = 0 the walks p-a-q and p-b-q
    // meet at q with v = 1, under k = 1 p-a-c-q and p-b-q with v = 2, and
    // under k = 2 both pairs of a's and b's walks meet: 3 + 3 + 2 walks.
    let head = "type V = {0, 1, 2};\nvar k: V = 0;\nvar v: V = 0;\n\
                const f: V -> V = { 0: 1, 1: 1, :2 };\nconst g: V -> V = { 0: 1, 1: 2, :0 };\n\
                begin, s: player = x;\ns, p0: k = V(*);\np0, p: $$ k;\n\
                p, a: v = f[k];\np, b: v = g[k];\na, q: ;\na, c: v = 2;\nc, q: ;\n\
                b, q: ;\nb, d: v = 0;\nd, q: ;\nq, r: $$ v;\nr, e: player = keeper;\ne, end: ;\n";
    let (g, every) = with_every_check(head);
    assert!(g.tables().nodes.iter().any(|n| n.relay), "relays");
    assert_eq!(perft1(&g), 8);
    assert_eq!(perft1(&every), 8);
}

#[test]
fn a_choice_node_reentered_from_its_own_choice_keeps_its_merges() {
    // begin's any-assignment enters m1 twice per visit of begin (goals[b]
    // 1 then 0, merged: goals is not in the key); between the two, m1's
    // walk re-enters begin (c = 1), whose own visit reaches m1 too. The
    // local check at m1 must still drop the outer visit's second entry:
    // 6 walks, as with every node checked (the reference's rule).
    let text = "type Player = {a, b};\ntype Score = {0, 1};\ntype C = {0, 1, 2};\nvar c: C = 0;\n\
                begin, end: player = keeper;\nm1, m5: ;\nbegin, m1: goals[b] = Score(*);\n\
                m1, begin: c = C(*);\nbegin, begin: c = 2;\nm1, m2: player = a;\n";
    let keeper_moves = |g: &GameModel| {
        let mut list = MoveList::default();
        g.reasoner()
            .moves(&mut g.initial_state(), &mut list)
            .unwrap();
        list.len()
    };
    assert_eq!(keeper_moves(&GameModel::from_text(text).unwrap()), 6);
    let (_, checked) = rg_lang::parse_str(text).unwrap();
    let every = GameModel::with_every_check(checked).unwrap();
    assert_eq!(keeper_moves(&every), 6);
}

#[test]
fn one_slot_checks_search_node_and_value_pairs() {
    // `? r0 -> racc` follows a ray over `w` to a `b` on a cycle of squares
    // (`shortcut.rs`: a search over (node, `pos`) pairs): from 0, 1 and 2 it
    // reaches the `b` on 3, from 3 it meets the empty 0. With no `b` the
    // ray circles forever: no square has the move.
    on_four_squares(
        "begin, s: player = x;\ns, t: pos = V(*);\nt, u: ? r0 -> racc;\nu, v: $$ pos;\n\
         v, k: player = keeper;\nk, end: ;\n\
         r0, r1: pos = next[pos];\nr1, r0: board[pos] == w;\nr1, racc: board[pos] == b;\n",
        &[("{ 0: e, 1: w, 2: w, :b }", 3), ("{ 0: w, :w }", 0)],
        |t| {
            assert!(
                t.one_slot.iter().any(|&s| s != u32::MAX),
                "a one-slot check"
            )
        },
    );
}

#[test]
fn a_one_slot_check_tries_its_roots_edges_to_the_target_first() {
    // "This block of `b`s has a liberty" along the cycle: the root's two
    // comparisons straight to `racc` (`shortcut::root_first`) end most
    // searches; the others search on over the `b`s (square 0 of the
    // first board), or fail.
    on_four_squares(
        "begin, s: player = x;\ns, s1: pos = V(*);\ns1, t: board[pos] == b;\n\
         t, u: ? r0 -> racc;\nu, v: $$ pos;\nv, k: player = keeper;\nk, end: ;\n\
         r0, r1: board[next[pos]] == b;\nr1, r0: pos = next[pos];\n\
         r0, racc: board[pos] == e;\nr0, racc: board[next[pos]] == e;\n",
        &[
            ("{ 0: b, 1: b, 2: e, :w }", 2),
            ("{ 0: b, 1: b, :w }", 0),
            ("{ 0: b, 1: w, 2: b, :e }", 1),
        ],
        a_one_slot_check,
    );
}

/// Boards where some square holds `b`, followed by `w`s and an empty one
/// (once) or not, with the moves of a check for that.
const SOME_B_THEN_W_THEN_E: [(&str, u64); 3] = [
    ("{ 0: e, 1: w, 2: w, :b }", 1),
    ("{ 0: w, 1: e, :w }", 0),
    ("{ 0: b, :w }", 0),
];

/// Asserts that `t` has a one-slot check.
fn a_one_slot_check(t: &Tables) {
    assert!(
        t.one_slot.iter().any(|&s| s != u32::MAX),
        "a one-slot check"
    )
}

#[test]
fn one_slot_checks_try_each_symbol_of_an_any_assignment() {
    // `? q0 -> qacc`: some square holds `b`, followed by `w`s and an empty
    // one (the any-assignment's symbols tested against `board[pos] == b`
    // first, as one table and one slot read: `shortcut.rs`'s loop for that
    // shape, one per sign). With `!= w`: some square not `w`, likewise.
    let [b0, b1, b2] = SOME_B_THEN_W_THEN_E.map(|(board, _)| board);
    let boards = [
        ("board[pos] == b", SOME_B_THEN_W_THEN_E),
        ("board[pos] != w", [(b0, 1), (b1, 1), (b2, 0)]),
    ];
    for (test, boards) in boards {
        on_four_squares(
            &format!(
                "begin, s: player = x;\ns, u: ? q0 -> qacc;\nu, v: $ go;\nv, k: player = keeper;\n\
                 k, end: ;\nq0, q1: pos = V(*);\nq1, q2: {test};\nq2, q3: pos = next[pos];\n\
                 q3, qacc: board[pos] == e;\nq3, q2: board[pos] == w;\n"
            ),
            &boards,
            a_one_slot_check,
        );
    }
}

#[test]
fn a_move_from_an_any_assignment_into_its_end_is_one_per_passing_symbol() {
    // s's only edge assigns every square, whose test and tags end the
    // move: its moves recorded at once, without a frame (`walk/run.rs`
    // `root_moves`); one move per empty square.
    on_four_squares(
        "begin, s: player = x;\ns, t: pos = V(*);\nt, u: board[pos] == e;\nu, v: $$ pos;\n\
         v, k: player = keeper;\nk, end: ;\n",
        &[
            ("{ 0: e, 1: w, 2: e, :b }", 2),
            ("{ :w }", 0),
            ("{ :e }", 4),
        ],
        |_| {},
    );
}

#[test]
fn a_root_whose_edge_records_its_moves_is_found_at_load() {
    // `s`'s only edge assigns every square into the move's end: the
    // tables name it as `s`'s (`Tables::root_tails`, decided once at
    // load), and no other node's; with a second edge at `s`, none.
    let rules = "begin, s: player = x;\ns, t: pos = V(*);\nt, u: board[pos] == e;\nu, v: $$ pos;\n\
                 v, k: player = keeper;\nk, end: ;\n";
    let node = |g: &GameModel, name| {
        let n = g.description().nodes.len();
        (0..n as u32).find(|&i| g.node_name(i) == name).unwrap() as usize
    };
    let g = game(&four_squares("{ :e }", rules));
    let (t, s) = (g.tables(), node(&g, "s"));
    for (n, &e) in t.root_tails.iter().enumerate() {
        let want = if n == s { t.nodes[s].first } else { NO_EDGE };
        assert_eq!(e, want, "node {}", g.node_name(n as u32));
    }
    let g = game(&four_squares(
        "{ :e }",
        &format!("{rules}s, p: $ pass;\np, k: player = keeper;\n"),
    ));
    assert!(g.tables().root_tails.iter().all(|&e| e == NO_EDGE));
    assert_eq!(perft1(&g), 5);
}

#[test]
fn one_slot_checks_test_the_inner_edges_of_a_switch() {
    // q3's three edges compare one read, `board[pos]` (a switch,
    // `switch.rs`): the search takes the edges from the first to the last
    // that pass without testing those two, but tests the ones between: on
    // a `w` the first and the last pass, and the middle `== b` (into
    // qacc) does not. Some `b` whose ray over `w`s ends at a `b`.
    on_four_squares(
        "const we: P -> Score = { w: 1, e: 1, :0 };\n\
         begin, s: player = x;\ns, u: ? q0 -> qacc;\nu, v: $ go;\nv, k: player = keeper;\n\
         k, end: ;\nq0, q1: pos = V(*);\nq1, q2: board[pos] == b;\nq2, q3: pos = next[pos];\n\
         q3, q2: board[pos] == w;\nq3, qacc: board[pos] == b;\nq3, qdead: we[board[pos]] == 1;\n",
        &[("{ 0: b, 1: w, :e }", 0), ("{ 0: b, 1: w, 2: b, :e }", 1)],
        |t| {
            a_one_slot_check(t);
            let switch =
                |n: &&rg_engine::raw::NodeInfo| n.switch != u32::MAX && n.end == n.first + 3;
            assert!(
                t.nodes.iter().any(|n| switch(&n)),
                "a switch of three edges"
            );
        },
    );
}

#[test]
fn one_slot_checks_test_each_symbol_through_a_map_of_the_board() {
    // As above, the symbols tested against `dark[board[pos]] == 1` (or
    // `!= 0`) first: `shortcut.rs`'s loop for that shape, hoisted.
    for test in ["dark[board[pos]] == 1", "dark[board[pos]] != 0"] {
        on_four_squares(
            &format!(
                "const dark: P -> Score = {{ b: 1, :0 }};\n\
                 begin, s: player = x;\ns, u: ? q0 -> qacc;\nu, v: $ go;\nv, k: player = keeper;\n\
                 k, end: ;\nq0, q1: pos = V(*);\nq1, q2: {test};\nq2, q3: pos = next[pos];\n\
                 q3, qacc: board[pos] == e;\nq3, q2: board[pos] == w;\n"
            ),
            &SOME_B_THEN_W_THEN_E,
            |t| {
                a_one_slot_check(t);
                let kinds = t.code.code().iter().map(|c| c.kind);
                let tab_ind = |k| matches!(k, rg_engine::raw::Kind::CmpTabInd { .. });
                assert_eq!(kinds.filter(|&k| tab_ind(k)).count(), 1, "{test}");
            },
        );
    }
}

#[test]
fn rays_check_only_the_values_on_a_cycle_of_their_map() {
    // From each square p0 a ray follows `next` (0 -> 1 -> 2 -> 3 -> 4 -> 2)
    // over `w`s: r's visits come around the cycle r -> r2 -> r, so only the
    // values 2, 3, 4 (on a cycle of `next`) can repeat and are checked
    // (`cycles.rs`); the second visit of 2 (from p0 = 0) and of p0's own
    // square end the ray. With a `b` on 3 the rays stop there.
    let game_with = |board: &str| {
        let head = format!(
            "type V = {{0, 1, 2, 3, 4}};\ntype P = {{e, w, b}};\nvar pos: V = 0;\n\
             const next: V -> V = {{ 0: 1, 1: 2, 2: 3, 3: 4, :2 }};\nvar board: V -> P = {board};\n\
             begin, s: player = x;\ns, t: pos = V(*);\nt, u: $$ pos;\nu, r: pos = next[pos];\n\
             r, r2: board[pos] == w;\nr2, r: pos = next[pos];\nr2, o: $$ pos;\n\
             o, k: player = keeper;\nk, end: ;\n"
        );
        with_every_check(&head)
    };
    for (board, want) in [("{ :w }", 16), ("{ 3: b, :w }", 6)] {
        let (g, every) = game_with(board);
        let t = g.tables();
        assert_eq!(t.cyclic.len(), 1, "one ray");
        assert!(every.tables().cyclic.is_empty());
        assert_eq!(perft1(&g), want, "{board}");
        assert_eq!(perft1(&every), want, "{board}");
        assert_eq!(first_moves(&g), first_moves(&every), "{board}");
    }
}

#[test]
fn a_checked_node_entered_by_tags_of_a_variable_keys_on_the_others() {
    // q is entered by `$$ a` twice (from p1 with b = 0 or 1, and from p2),
    // so checked; past it, visits with equal tags have equal `a`: they
    // differ in `b` only (`analysis.rs`). So r needs a check after `b = 0`
    // (the two visits of q meet there: one walk) and none after `a = 1`
    // (two walks).
    let game_with = |write: &str| {
        let head = format!(
            "type A = {{0, 1}};\nvar a: A = 0;\nvar b: A = 0;\n\
             begin, s: player = x;\ns, p1: b = A(*);\ns, p2: ;\np1, q: $$ a;\np2, q: $$ a;\n\
             q, r: {write};\nr, k: player = keeper;\nk, end: ;\n"
        );
        with_every_check(&head)
    };
    for (write, want, r_checked) in [("b = 0", 1, true), ("a = 1", 2, false)] {
        let (g, every) = game_with(write);
        let r = (0..g.description().nodes.len() as u32)
            .find(|&n| g.node_name(n) == "r")
            .unwrap();
        assert_eq!(g.visited_checks()[r as usize], r_checked, "{write}");
        assert_eq!(perft1(&g), want, "{write}");
        assert_eq!(perft1(&every), want, "{write}");
    }
}

#[test]
fn a_programs_any_assignment_skips_symbols_failing_every_first_comparison() {
    // `? c0 -> cacc` as a program (it writes): some `w` or some `b` with an
    // empty square after it. Both comparisons of `c1` filter the symbols
    // of `pos = V(*)` (`program::any_filters`); a symbol passing either is
    // taken, so a board with only `b`s has the move too. The reference
    // (`with_every_check`) scans no run.
    on_four_squares(
        "begin, s: player = x;\ns, u: ? c0 -> cacc;\nu, v: $ go;\nv, k: player = keeper;\n\
         k, end: ;\nc0, c1: pos = V(*);\nc1, c2: board[pos] == w;\nc1, c3: board[pos] == b;\n\
         c2, c4: board[pos] = e;\nc4, c5: pos = next[pos];\nc5, cacc: board[pos] == e;\n\
         c3, c6: board[pos] = e;\nc6, c7: pos = next[pos];\nc7, cacc: board[pos] == e;\n",
        &[
            ("{ 0: w, 1: e, :e }", 1),
            ("{ 0: b, 1: e, :e }", 1),
            ("{ 0: e, 3: b, :e }", 1),
            ("{ 0: w, 1: b, 2: w, :b }", 0),
            ("{ :e }", 0),
        ],
        |t| {
            assert!(t.programs.iter().any(Option::is_some), "a program");
            let filtered: Vec<u32> = t
                .any_filters
                .iter()
                .map(|f| f.count)
                .filter(|&n| n > 0)
                .collect();
            assert_eq!(
                filtered,
                [2],
                "one any-assignment filtered by two comparisons"
            );
            // Both read `board[pos]`, its squares consecutive: scanned in
            // place (`sealed::Run`).
            assert_eq!(t.code.filter_runs(), 1);
        },
    );
}

#[test]
fn a_leaf_check_tries_each_branch_of_its_comparisons() {
    // `? c0 -> cacc` compares only (a leaf check, `program::leaves`): a
    // `w` with an empty square after it, or a `b` with a `w` after it. A
    // failing comparison goes on with the other branch.
    on_four_squares(
        "begin, s: player = x;\ns, u: ? c0 -> cacc;\nu, v: $ go;\nv, k: player = keeper;\n\
         k, end: ;\nc0, c1: board[pos] == w;\nc1, cacc: board[next[pos]] == e;\n\
         c0, c2: board[pos] == b;\nc2, c3: board[next[pos]] == w;\nc3, cacc: ;\n",
        &[
            ("{ 0: w, 1: e, :e }", 1),
            ("{ 0: w, 1: b, :e }", 0),
            ("{ 0: b, 1: w, :e }", 1),
            ("{ 0: b, 1: e, :e }", 0),
            ("{ :e }", 0),
        ],
        |t| {
            let leaf = (0..t.checks.len() as u32).any(|c| t.code.leaf_range(c).is_some());
            assert!(leaf, "a leaf check");
        },
    );
}

#[test]
fn symbols_read_at_consecutive_slots_are_scanned_in_place() {
    // `pos = V(*)` then comparisons of `board[pos]`: the symbols read
    // `board`'s four consecutive slots (`sealed::Run`), scanned without
    // writing `pos`, in a move walk's filter (one comparison, or a choice
    // of comparisons) and in a one-slot check's search (`board[pos] ==
    // b`, its negation, or through a map of the square). Through `next`,
    // the reads are not in order: no run.
    let walk = |tests: &str| {
        format!(
            "begin, s: player = x;\ns, t: pos = V(*);\n{tests}\nu, v: $$ pos;\n\
             v, w1: board[next[pos]] == e;\nv, w2: board[next[pos]] == b;\n\
             w1, k: player = keeper;\nw2, k: player = keeper;\nk, end: ;\n"
        )
    };
    let search = |test: &str| {
        format!(
            "type Bool = {{0, 1}};\nconst isB: P -> Bool = {{ b: 1, :0 }};\n\
             begin, s: player = x;\ns, u: ? q0 -> qacc;\nu, v: $ go;\nv, k: player = keeper;\n\
             k, end: ;\nq0, q1: pos = V(*);\nq1, q2: {test};\nq2, q3: pos = next[pos];\n\
             q3, qacc: board[pos] == e;\nq3, q2: board[pos] == w;\n"
        )
    };
    let runs = |n: usize| move |t: &Tables| assert_eq!(t.code.runs(), n);
    // A `w` whose next square is empty or `b`.
    on_four_squares(
        &walk("t, u: board[pos] == w;"),
        &[
            ("{ 0: w, 1: e, 2: w, :b }", 2),
            ("{ 0: w, 1: w, 2: w, :w }", 0),
            ("{ 0: b, 1: w, :e }", 1),
        ],
        runs(1),
    );
    // A `w` or a `b` whose next square is empty or `b`.
    on_four_squares(
        &walk("t, u: board[pos] == w;\nt, u: board[pos] == b;"),
        &[("{ 0: w, 1: e, 2: b, :b }", 2), ("{ 0: b, 1: w, :e }", 1)],
        runs(1),
    );
    // A square whose next is `b`.
    on_four_squares(
        &walk("t, u: board[next[pos]] != e;"),
        &[("{ 0: w, 1: e, 2: w, :b }", 1), ("{ 1: w, 2: b, :e }", 1)],
        runs(0),
    );
    let [b0, b1, b2] = SOME_B_THEN_W_THEN_E.map(|(board, _)| board);
    let searches = [
        ("board[pos] == b", SOME_B_THEN_W_THEN_E),
        ("isB[board[pos]] == 1", SOME_B_THEN_W_THEN_E),
        ("board[pos] != w", [(b0, 1), (b1, 1), (b2, 0)]),
    ];
    for (test, boards) in searches {
        on_four_squares(&search(test), &boards, |t| {
            a_one_slot_check(t);
            runs(1)(t);
        });
    }
}

#[test]
fn a_tails_first_comparison_is_scanned_in_place() {
    // `pos = V(*)` into a move's end (`sealed::Tail`), its first test a
    // comparison of `board[pos]`: the passing squares read in `board`'s
    // four slots (`sealed::Run`), from the root's only edge and from a
    // frame (beside `$ pass`); before another test (`board[next[pos]] !=
    // b`, taken on the squares that pass the first), too. The reference
    // has none.
    let tail = |first: &str, rest: &str| {
        format!(
            "type Bool = {{0, 1}};\nconst isW: P -> Bool = {{ w: 1, :0 }};\n\
             begin, s: player = x;\ns, t: pos = V(*);\nt, u: {first};\n{rest}\
             v, k: player = keeper;\nk, end: player = keeper;\n"
        )
    };
    let alone = "u, v: $$ pos;\n";
    let then = "u, u2: board[next[pos]] != b;\nu2, v: $$ pos;\n";
    let boards = [
        "{ 0: e, 1: w, 2: e, :b }",
        "{ :w }",
        "{ :e }",
        "{ 1: b, :w }",
    ];
    let cases = [
        ("board[pos] == e", alone, 1, [2usize, 0, 4, 0]),
        ("board[pos] != e", alone, 1, [2, 4, 0, 4]),
        ("isW[board[pos]] == 1", alone, 1, [1, 4, 0, 3]),
        ("board[pos] == e", then, 1, [1, 0, 4, 0]),
        ("board[pos] != b", then, 1, [2, 4, 4, 2]),
    ];
    for (first, rest, runs, want) in cases {
        let root = tail(first, rest);
        let framed = format!("{root}s, p: $ pass;\np, k: player = keeper;\n");
        for (rules, pass) in [(root, 0usize), (framed, 1)] {
            for (board, want) in boards.iter().zip(want) {
                let (g, every) = with_every_check(&four_squares(board, &rules));
                assert_eq!(g.tables().code.tail_runs(), runs, "{rules}");
                assert_eq!(every.tables().code.tail_runs(), 0, "{rules}");
                let walks = (want + pass) as u64;
                assert_eq!(perft1(&g), walks, "{board}\n{rules}");
                assert_eq!(perft1(&every), walks, "{board}\n{rules}");
                // The moves a playout draws from (effects only, where the
                // tails are taken), in the reference's order.
                for seed in 0..6 {
                    let drawn = random_move(&g, seed);
                    assert_eq!(drawn.0, want + pass, "{board}\n{rules}");
                    assert_eq!(drawn, random_move(&every, seed), "{board}\n{rules}");
                }
            }
        }
    }
}

#[test]
fn a_leaf_check_runs_the_program_of_its_keys_symbol() {
    // `? q0` of comparisons only (a leaf check) reading `board` through
    // `pos` and deciding `isLast[pos] == 1` from `pos` alone is run as the
    // program of `pos`'s symbol (`sealed::LeafCheck`): positive or
    // negative, in a move's tail (a playout's effects) and in a walk's
    // check (perft's moves), the moves are the reference's. It holds on
    // squares `p` with `board[next[p]] == w` and `board[p] != e`, and on
    // square 3 holding `b`.
    let rules = |sign: &str| {
        format!(
            "type Bool = {{0, 1}};\nconst isLast: V -> Bool = {{ 3: 1, :0 }};\n\
             begin, s: player = x;\ns, t: pos = V(*);\nt, u: {sign} q0 -> qacc;\n\
             u, v: $$ pos;\nv, k: player = keeper;\nk, end: player = keeper;\n\
             q0, q1: board[next[pos]] == w;\nq1, qacc: board[pos] != e;\n\
             q0, q2: isLast[pos] == 1;\nq2, qacc: board[pos] == b;\n"
        )
    };
    let boards = [
        ("{ 0: w, 1: e, 2: w, :b }", 1),
        ("{ :w }", 4),
        ("{ 0: b, 1: w, :e }", 1),
        ("{ 3: b, :e }", 1),
        ("{ 2: w, 3: b, :e }", 1),
        ("{ 1: w, 2: e, :b }", 2),
    ];
    for (sign, positive) in [("?", true), ("!", false)] {
        let rules = rules(sign);
        for (board, holds) in boards {
            let want = if positive { holds } else { 4 - holds };
            let (g, every) = with_every_check(&four_squares(board, &rules));
            assert_eq!(g.tables().code.keyed_leaves(), 1, "{rules}");
            assert_eq!(every.tables().code.keyed_leaves(), 0, "{rules}");
            assert_eq!(perft1(&g), want as u64, "{board}\n{rules}");
            assert_eq!(perft1(&every), want as u64, "{board}\n{rules}");
            for seed in 0..6 {
                let drawn = random_move(&g, seed);
                assert_eq!(drawn.0, want, "{board}\n{rules}");
                assert_eq!(drawn, random_move(&every, seed), "{board}\n{rules}");
            }
        }
    }
}

#[test]
fn a_one_slot_search_steps_through_a_nodes_one_assignment() {
    // `? q0 -> qacc`: the `w`s joined to `pos`'s through `next` and
    // `prev` include square 3 (hex's "this group reaches the edge"). The
    // one-slot check's search enters `q1` and `q2`, whose one edge is
    // `pos = f[pos]`, at that edge's target with `f[pos]`
    // (`Sealed::step_through`). A move for each `w` so joined.
    let rules = "type Bool = {0, 1};\nconst isLast: V -> Bool = { 3: 1, :0 };\n\
         const prev: V -> V = { 0: 3, 1: 0, 2: 1, :2 };\n\
         begin, s: player = x;\ns, t: pos = V(*);\nt, t1: board[pos] == w;\n\
         t1, u: ? q0 -> qacc;\nu, v: $$ pos;\nv, k: player = keeper;\nk, end: player = keeper;\n\
         q0, q1: board[next[pos]] == w;\nq1, q0: pos = next[pos];\n\
         q0, q2: board[prev[pos]] == w;\nq2, q0: pos = prev[pos];\n\
         q0, qacc: isLast[pos] == 1;\n";
    let boards = [
        ("{ 0: w, 1: w, 2: e, :w }", 3),
        ("{ 1: w, :e }", 0),
        ("{ 0: e, :w }", 3),
        ("{ 0: w, 1: w, :e }", 0),
        ("{ 2: w, 3: w, :e }", 2),
        ("{ 3: w, :e }", 1),
        ("{ :w }", 4),
    ];
    on_four_squares(rules, &boards, |t| {
        a_one_slot_check(t);
        assert_eq!(t.code.step_nodes(), 2);
    });
    let (_, every) = with_every_check(&four_squares(boards[0].0, rules));
    assert_eq!(every.tables().code.step_nodes(), 0);
}

#[test]
fn a_probes_symbols_read_at_consecutive_slots_are_scanned_in_place() {
    // `? q0 -> qacc`: some square neither `w` nor `b` (a probe: an
    // any-assignment, then comparisons of `board[pos]` through one table,
    // whose reads are `board`'s four slots): scanned in the semistate
    // (`Sealed::probe_run`), nothing written. Positive and negative.
    let rules = |sign: &str| {
        format!(
            "begin, s: player = x;\ns, u: {sign} q0 -> qacc;\nu, v: $ go;\n\
             v, k: player = keeper;\nk, end: ;\nq0, q1: pos = V(*);\n\
             q1, q2: board[pos] != w;\nq2, qacc: board[pos] != b;\n"
        )
    };
    let boards = [
        ("{ 0: w, 1: e, :b }", true),
        ("{ 0: w, :b }", false),
        ("{ 3: e, :w }", true),
        ("{ :e }", true),
        ("{ 1: b, :w }", false),
    ];
    on_both_signs(rules, &boards, |t| t.code.probe_runs(), 1);
}

#[test]
fn an_any_assignments_subtree_of_comparisons_is_decided_as_a_leaf_check() {
    // `? q0 -> qacc`: some `w` followed by a `w` (read through a constant
    // map of the square, `isW[board[next[pos]]] == 1`) or some `b`
    // followed by an empty square: a program whose any-assignment's
    // subtree is comparisons only, decided per symbol as a leaf check
    // keyed on `pos` (`Sealed::subtree`). Positive and negative.
    let rules = |sign: &str| {
        format!(
            "type Bool = {{0, 1}};\nconst isW: P -> Bool = {{ w: 1, :0 }};\n\
             begin, s: player = x;\ns, u: {sign} q0 -> qacc;\nu, v: $ go;\n\
             v, k: player = keeper;\nk, end: ;\nq0, q1: pos = V(*);\n\
             q1, q2: board[pos] == w;\nq2, qacc: isW[board[next[pos]]] == 1;\n\
             q1, q3: board[pos] == b;\nq3, qacc: board[next[pos]] == e;\n"
        )
    };
    let boards = [
        ("{ 0: w, 1: w, :e }", true),
        ("{ 0: w, 1: e, 2: b, :w }", true),
        ("{ 0: w, 1: b, 2: w, :b }", false),
        ("{ 0: b, :e }", true),
        ("{ 0: w, 2: w, :e }", false),
    ];
    on_both_signs(rules, &boards, |t| t.code.subtrees(), (1, 1));
}

#[test]
fn roots_with_one_plain_edge_start_without_a_frame() {
    // x's move starts at a, whose one edge `pos = 1` the walk follows
    // without a frame (`walk/root.rs`, `root_starts`), as the check's walk
    // from k0 does; y's starts at g, an any-assignment, which keeps its
    // frame (taken without it, its symbols would not be tried): 3 moves of
    // x (pos 0, 1, 3 pass the check) times 4 of y.
    let body = "type V = {0, 1, 2, 3};\nvar pos: V = 0;\n\
                begin, a: player = x;\na, b: pos = 1;\nb, c: pos = V(*);\n\
                c, d: ? k0 -> kacc;\nd, e: $$ pos;\ne, f: player = keeper;\n\
                f, g: player = y;\ng, h: pos = V(*);\nh, i: $$ pos;\ni, j: player = keeper;\n\
                j, end: ;\nk0, k1: pos != 2;\nk1, kacc: ;\n";
    let (g, every) = with_every_check(body);
    for g in [&g, &every] {
        assert_eq!(perft1(g), 3);
        assert_eq!(perft(g, 2, Counting::Walks).unwrap().leaves, 12);
    }
}

#[test]
fn a_fan_of_guarded_landings_at_a_root_takes_the_ones_whose_landing_passes() {
    // x's move walk starts at s, a fan (`walk/root.rs`): each edge tests
    // a square `f[pos]`, moves `pos = f[pos]` and tests `board[next[pos]]`,
    // the two tests read at s. No square passing: no move; one: one move,
    // no frame; two (1 and 3): the last taken first, a frame for the
    // other, in the order of the walk with every check.
    let rules = "const n2: V -> V = { 0: 2, 1: 3, 2: 0, :1 };\n\
                 const n3: V -> V = { 0: 3, 1: 0, 2: 1, :2 };\n\
                 @unique t u v;\nbegin, s: player = x;\n\
                 s, a1: board[next[pos]] == e;\na1, t: pos = next[pos];\n\
                 s, a2: board[n2[pos]] == e;\na2, t: pos = n2[pos];\n\
                 s, a3: board[n3[pos]] == e;\na3, t: pos = n3[pos];\n\
                 t, u: board[next[pos]] != e;\nu, v: $$ pos;\nv, w: player = keeper;\n\
                 w, end: ;\n";
    let boards = [
        ("{ :e }", 0),
        ("{ 2: w, :e }", 1),
        ("{ 0: b, 2: w, :e }", 2),
        ("{ 0: b, 1: w, 2: w, :e }", 1),
        ("{ 1: w, 2: w, 3: b, :e }", 0),
    ];
    let fan = |t: &Tables| {
        let fan = |&s: &u32| s != NO_EDGE && s & FAN_ROOT != 0;
        assert!(t.root_starts.iter().any(fan), "s is a fan")
    };
    on_four_squares(rules, &boards, fan);
    for (board, _) in boards {
        let (g, every) = with_every_check(&four_squares(board, rules));
        assert_eq!(first_moves(&g), first_moves(&every), "{board}");
    }
    let (g, _) = with_every_check(&four_squares("{ 0: b, 2: w, :e }", rules));
    assert_eq!(first_moves(&g), ["3", "1"]);
}

#[test]
fn walks_meeting_with_equal_keys_at_a_filtered_target_keep_its_visited_check() {
    // `goals` is not in the key: the symbols of `goals[x] = Score(*)` meet
    // at c2 with one key, so only the first tried (the last, 1) goes on
    // from c2 and `goals[x] == 0` never holds: the move `$ a` is never
    // found, only `$ b`. A shortcut that tried each symbol against c2's
    // comparisons before taking it (`shortcut::set_filters`,
    // `set_any_tests`, the tails and runs built on them: only where the
    // target has no visited check) would find `$ a` through symbol 0.
    // c2's edges: one comparison, or a choice between comparisons.
    let head = "begin, s: player = x;\ns, c2: goals[x] = Score(*);\n\
                s, d: $ b;\nd, e: player = keeper;\ne, end: ;\n";
    for tail in [
        "c2, c3: goals[x] == 0;\nc3, c4: $ a;\nc4, e: player = keeper;\n",
        "c2, c3: goals[x] == 0;\nc2, c5: goals[y] == 1;\nc3, c4: $ a;\nc5, c4: $ c;\n\
         c4, e: player = keeper;\n",
    ] {
        let (g, every) = with_every_check(&format!("{head}{tail}"));
        let guarded = g.tables().edges.iter().filter(|e| e.guard).count();
        assert!(guarded > 0, "c2 keeps its visited check:\n{tail}");
        assert_eq!(first_moves(&g), ["b"], "{tail}");
        assert_eq!(first_moves(&every), ["b"], "{tail}");
        assert_eq!(perft1(&g), 1, "{tail}");
    }
}

#[test]
fn a_leaf_subtrees_symbols_leave_the_assigned_slot_as_it_was() {
    // As in an_any_assignments_subtree_of_comparisons_is_decided_as_a_leaf_check
    // (`Sealed::subtree`), the symbols written unlogged: after
    // the check, `pos` is 0 again whatever symbol decided it, and the
    // move needs `pos == 0`.
    let rules = |sign: &str| {
        format!(
            "begin, s: player = x;\ns, u: {sign} q0 -> qacc;\nu, w: pos == 0;\nw, v: $ go;\n\
             v, k: player = keeper;\nk, end: ;\nq0, q1: pos = V(*);\n\
             q1, q2: board[pos] == w;\nq2, qacc: board[next[pos]] == w;\n\
             q1, q3: board[pos] == b;\nq3, qacc: board[next[pos]] == e;\n"
        )
    };
    let boards = [
        ("{ 0: w, 1: w, :e }", true),
        ("{ 2: w, 3: w, :e }", true),
        ("{ 0: e, 2: e, 3: b, :w }", true),
        ("{ 1: w, 3: w, :e }", false),
    ];
    on_both_signs(rules, &boards, |t| t.code.subtrees(), (1, 1));
}

/// The ring-of-six jump game (`data/jumps.rg`, whole: its own `Player`
/// and `Score`), shared with rg-jit's tests.
const JUMPS: &str = include_str!("data/jumps.rg");

#[test]
fn checked_nodes_on_a_jump_cycle_get_local_checks() {
    // Every walk into j and q2 passes p (one visit per start square, told
    // apart by the tag): their keys repeat only within one visit of p,
    // in `pos` only (`local.rs`: the frame node found by dominators, the
    // cycle's choices relays). The landings: 4 from square 0 (the step to
    // 1, jumps to 2 and 4, from 2 on to 0 and to 4 again, merged), 1 each
    // from squares 1 and 3 (the step; an empty square next: no jump).
    let (g, every) = with_every_check_of(JUMPS);
    let t = g.tables();
    let node = |name: &str| {
        let i = g.description().nodes.iter().position(|n| n == name);
        t.nodes[i.expect("a node")]
    };
    for name in ["j", "q2"] {
        assert_ne!(node(name).local, u32::MAX, "{name}: a local check");
        assert!(node(name).relay, "{name}: a relay");
        // p lies on no cycle and no check reaches it: no visit of p nests
        // in another, so nothing restores the stamps.
        assert!(!node(name).local_logged, "{name}: stamps not logged");
    }
    assert!(node("p").owner, "p: the frame node");
    let want = perft1(&every);
    assert_eq!(perft1(&g), want);
    assert_eq!(want, 6);
    assert_eq!(
        perft(&g, 3, Counting::Walks).unwrap().leaves,
        perft(&every, 3, Counting::Walks).unwrap().leaves
    );
}

#[test]
fn a_local_check_logs_its_stamps_where_a_check_reaches_its_frame_node() {
    // JUMPS with a second move `$ any` when a check from b (through p and
    // the jump chain) reaches r: a check's walk may visit p nested in a
    // move walk's visit of it, so j's and q2's stamps are logged, and
    // the counts stay the reference's.
    let text = format!("{JUMPS}s, t: ? b -> r;\nt, u: $ any;\nu, k: player = keeper;\n");
    let (g, every) = with_every_check_of(&text);
    let t = g.tables();
    let node = |name: &str| {
        let i = g.description().nodes.iter().position(|n| n == name);
        t.nodes[i.expect("a node")]
    };
    for name in ["j", "q2"] {
        assert_ne!(node(name).local, u32::MAX, "{name}: a local check");
        assert!(node(name).local_logged, "{name}: stamps logged");
    }
    let want = perft1(&every);
    assert_eq!(perft1(&g), want);
    assert_eq!(want, 7);
    assert_eq!(
        perft(&g, 3, Counting::Walks).unwrap().leaves,
        perft(&every, 3, Counting::Walks).unwrap().leaves
    );
}
