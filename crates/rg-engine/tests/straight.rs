//! Keeper walks with no choice applied in place (`walk/straight.rs`): every
//! keeper's completion of a small game, against the game with every check
//! (which applies the keeper's one walk from its move list).

use rg_engine::{GameModel, MoveList, State};

/// Two columns of three cells; a player picks a column by its top cell,
/// and the keeper drops the piece (a fan: the one landing whose cell
/// below is taken), marks it, checks a win (two alike side by side: a
/// `? c` / `! c` branch) and passes the turn (no visited check on the
/// way, `@unique`, as in a translation). The keeper has no move when
/// `o` fills `b3` (a comparison that fails on the way: an error), and two
/// when `o` drops with the middle cell beside its column's an `x` and its
/// own middle cell empty (a second landing of its
/// fan passes: an error too).
const DROP: &str = "type Player = {x, o};\ntype Score = {0, 50, 100};\n\
    type Cell = {null, a1, a2, a3, b1, b2, b3};\ntype Top = {a3, b3};\n\
    type Square = {null, e, x, o};\n\
    const same: Cell -> Cell = { a1: a1, a2: a2, a3: a3, b1: b1, b2: b2, b3: b3, :null };\n\
    const dn: Cell -> Cell = { a2: a1, a3: a2, b2: b1, b3: b2, :null };\n\
    const dn2: Cell -> Cell = { a3: a1, b3: b1, :null };\n\
    const side: Cell -> Cell = { a1: b1, a2: b2, a3: b3, b1: a1, b2: a2, b3: a3, :null };\n\
    var board: Cell -> Square = { null: null, :e };\nvar coord: Cell = a3;\n\
    begin, s: player = x;\n\
    s, s1: coord = Top(*);\ns1, s2: board[coord] == e;\ns2, s3: $$ coord;\n\
    s3, kx: player = keeper;\n\
    kx, fx0: board[same[coord]] == e;\nfx0, dx: coord = same[coord];\n\
    kx, fx1: board[dn[coord]] == e;\nfx1, dx: coord = dn[coord];\n\
    kx, fx2: board[dn2[coord]] == e;\nfx2, dx: coord = dn2[coord];\n\
    dx, dx1: board[dn[coord]] != e;\ndx1, dx2: board[coord] = x;\n\
    dx2, wx: ? wx0 -> wacc;\ndx2, nx: ! wx0 -> wacc;\n\
    wx, wx1: goals[x] = 100;\nwx1, wx2: goals[o] = 0;\nwx2, end: player = keeper;\n\
    nx, t: player = o;\n\
    t, t1: coord = Top(*);\nt1, t2: board[coord] == e;\nt2, t3: $$ coord;\n\
    t3, ko: player = keeper;\n\
    ko, fo0: board[same[coord]] == e;\nfo0, do: coord = same[coord];\n\
    ko, fo1: board[dn[coord]] == e;\nfo1, do: coord = dn[coord];\n\
    ko, fo2: board[dn2[coord]] == e;\nfo2, do: coord = dn2[coord];\n\
    ko, fo3: board[dn[coord]] == e;\nfo3, dz: coord = dn[coord];\n\
    dz, dz1: board[side[coord]] == x;\ndz1, do2: board[coord] = o;\n\
    do, do1: board[dn[coord]] != e;\ndo1, do2: board[coord] = o;\n\
    do2, do3: board[b3] != o;\n\
    do3, wo: ? wo0 -> wacc;\ndo3, no: ! wo0 -> wacc;\n\
    wo, wo1: goals[o] = 100;\nwo1, wo2: goals[x] = 0;\nwo2, end: player = keeper;\n\
    no, s: player = x;\n\
    wx0, wacc: board[side[coord]] == x;\nwo0, wacc: board[side[coord]] == o;\n\
    @unique fx0 fx1 fx2 dx dx1 dx2 wx wx1 wx2 nx fo0 fo1 fo2 do do1 do2 do3 wo wo1 wo2 no fo3 dz dz1;\n";

/// Every state reached from the initial one, each move's keeper's
/// completion by `g` against `every`'s (the same result or the same
/// error, the same state). Gives the states and the keeper's errors.
fn completions(g: &GameModel, every: &GameModel) -> (usize, usize) {
    let (mut r, mut e) = (g.reasoner(), every.reasoner());
    let mut list = MoveList::default();
    let mut s = g.initial_state();
    let mut t = every.initial_state();
    assert_eq!(r.complete_keeper(&mut s), e.complete_keeper(&mut t));
    assert_eq!(s, t);
    let mut stack = vec![s];
    let (mut states, mut errors) = (0, 0);
    while let Some(mut s) = stack.pop() {
        if g.is_terminal(&s) {
            continue;
        }
        states += 1;
        r.moves(&mut s, &mut list).unwrap();
        for i in 0..list.len() {
            let mut next: State = s.clone();
            r.apply(&mut next, &list, i);
            let mut expected = next.clone();
            let got = r.complete_keeper(&mut next);
            let want = e.complete_keeper(&mut expected);
            assert_eq!(got, want, "{s:?} move {i}");
            assert_eq!(next, expected, "{s:?} move {i}");
            match got {
                Ok(()) => stack.push(next),
                Err(_) => errors += 1,
            }
        }
    }
    (states, errors)
}

#[test]
fn a_keeper_walk_with_no_choice_is_applied_in_place() {
    let g = GameModel::from_text(DROP).unwrap();
    let every = GameModel::with_every_check(rg_lang::parse_str(DROP).unwrap().1).unwrap();
    let straight = |g: &GameModel| -> Vec<String> {
        let t = g.tables();
        (0..t.nodes.len() as u32)
            .filter(|&n| t.straight[n as usize])
            .map(|n| g.node_name(n).to_string())
            .collect()
    };
    assert_eq!(straight(&g), ["begin", "kx", "ko"]);
    assert!(straight(&every).is_empty());
    assert!(!g.tables().fans.is_empty(), "the drops are fans");
    let (states, errors) = completions(&g, &every);
    assert_eq!((states, errors), (STATES, ERRORS));
}

/// The states of [`DROP`] and the keeper's errors along the way.
const STATES: usize = 20;
const ERRORS: usize = 7;

/// Four cells; a player picks an empty one. `x`'s keeper marks it, copies
/// it (`last = coord`), then chooses by comparisons only: `side`, `mid`
/// or `odd` of the cell (on `b` two hold: two keeper moves, an error; on
/// `d` none: no move, an error), scores, and passes the turn past `? free`
/// (a check the next player's moves mirror: speculated). `o`'s keeper
/// chooses between a comparison and a write (an edge with no test): not
/// applied in place.
const CHOICE: &str = "type Player = {x, o};\ntype Score = {0, 50, 100};\n\
    type Cell = {null, a, b, c, d};\ntype Pick = {a, b, c, d};\n\
    type Square = {null, e, x, o};\n\
    const side: Cell -> Bool = { a: 1, b: 1, :0 };\n\
    const mid: Cell -> Bool = { c: 1, :0 };\n\
    const odd: Cell -> Bool = { b: 1, :0 };\n\
    var board: Cell -> Square = { null: null, :e };\n\
    var coord: Cell = a;\nvar last: Cell = null;\n\
    begin, s: player = x;\n\
    s, s1: coord = Pick(*);\ns1, s2: board[coord] == e;\ns2, s3: $$ coord;\n\
    s3, k: player = keeper;\n\
    k, k1: board[coord] = x;\nk1, k2: last = coord;\n\
    k2, ka: side[coord] == 1;\nk2, kb: mid[coord] == 1;\nk2, kc: odd[coord] == 1;\n\
    ka, kd: goals[x] = 50;\nkb, kd: goals[x] = 100;\nkc, kd: goals[o] = 50;\n\
    kd, w: ? free -> facc;\nkd, n: ! free -> facc;\n\
    w, t: player = o;\nn, end: player = keeper;\n\
    t, t1: coord = Pick(*);\nt1, t2: board[coord] == e;\nt2, t3: $$ coord;\n\
    t3, ko: player = keeper;\n\
    ko, ko1: board[coord] = o;\nko1, ko2: last = coord;\n\
    ko2, kp: side[coord] == 1;\nko2, kq: goals[o] = 0;\n\
    kp, kr: ? free -> facc;\nkq, kr: mid[coord] == 0;\n\
    kr, s: player = x;\n\
    free, f1: coord = Pick(*);\nf1, f2: board[coord] == e;\nf2, facc: ;\n\
    @unique k k1 k2 ka kb kc kd w n ko ko1 ko2 kp kq kr;\n";

#[test]
fn a_keeper_walk_through_a_choice_of_comparisons_is_applied_in_place() {
    let g = GameModel::from_text(CHOICE).unwrap();
    let every = GameModel::with_every_check(rg_lang::parse_str(CHOICE).unwrap().1).unwrap();
    let t = g.tables();
    let straight: Vec<_> = (0..t.nodes.len() as u32)
        .filter(|&n| t.straight[n as usize])
        .map(|n| g.node_name(n).to_string())
        .collect();
    // `ko`'s choice has a write's edge: the walk as written.
    assert_eq!(straight, ["begin", "k"]);
    assert_eq!(g.mirror_counts().1, 1, "`? free` is speculated");
    let (states, errors) = completions(&g, &every);
    assert_eq!((states, errors), (CHOICE_STATES, CHOICE_ERRORS));
    // The moves after a keeper's walk in place (speculated there) are the
    // moves as written.
    let (mut r, mut e) = (g.reasoner(), every.reasoner());
    let (mut s, mut u) = (g.initial_state(), every.initial_state());
    r.complete_keeper(&mut s).unwrap();
    e.complete_keeper(&mut u).unwrap();
    let (mut list, mut want) = (MoveList::default(), MoveList::default());
    let texts = |g: &GameModel, l: &MoveList| -> Vec<String> {
        (0..l.len()).map(|i| g.move_text(l, i)).collect()
    };
    for pick in ["a", "d", "c"] {
        r.moves(&mut s, &mut list).unwrap();
        e.moves(&mut u, &mut want).unwrap();
        let got = texts(&g, &list);
        assert_eq!(got, texts(&every, &want));
        let i = got.iter().position(|m| m == pick).unwrap();
        r.apply(&mut s, &list, i);
        e.apply(&mut u, &want, i);
        r.complete_keeper(&mut s).unwrap();
        e.complete_keeper(&mut u).unwrap();
        assert_eq!(s, u);
    }
    r.moves(&mut s, &mut list).unwrap();
    assert_eq!(texts(&g, &list), ["b"]);
}

/// The states of [`CHOICE`] and the keeper's errors along the way.
const CHOICE_STATES: usize = 9;
const CHOICE_ERRORS: usize = 8;
