//! A move walk's filtered any-assignment whose run's passing values are
//! one range (`sealed::Filter::Mask`, `walk/filter.rs`): the frame keeps
//! the run's mask from the scan's start and takes each later square from
//! it. Boards of 1 to 64 squares, the squares taken from the highest, each
//! one's moves (a nested choice, a write) walked before the next square;
//! decision after decision with one reasoner (a mask kept from the
//! previous decision's frame, without square 0, is not taken).

use rg_engine::{GameModel, MoveList};

/// `n` squares holding `e`, `w` or `b` as `board` says. `x` picks a square
/// holding `w` or `b`, empties it, puts a `w` on square 0, then tags `t1`
/// or `t2`, and moves again (`end` is reached only past two comparisons
/// that never both hold).
fn mask_game(n: usize, board: &str) -> String {
    let squares: Vec<String> = (0..n).map(|i| i.to_string()).collect();
    format!(
        "type Player = {{x, y}};\ntype Score = {{0, 1}};\ntype V = {{{}}};\n\
         type P = {{e, w, b}};\ntype T = {{w1, b1, t1, t2}};\n\
         var pos: V = 0;\nvar board: V -> P = {board};\n\
         begin, s: player = x;\ns, a: pos = V(*);\n\
         a, mw: board[pos] == w;\na, mb: board[pos] == b;\n\
         mw, cw: $$ pos;\ncw, d: $ w1;\nmb, cb: $$ pos;\ncb, d: $ b1;\n\
         d, d0: board[pos] = e;\nd0, f: board[0] = w;\nf, g1: $ t1;\nf, g2: $ t2;\n\
         g1, k: player = keeper;\ng2, k: player = keeper;\nk, s: player = x;\n\
         k, z: board[pos] == b;\nz, end: board[pos] == w;\n",
        squares.join(", ")
    )
}

/// `n` squares, each a piece of `pieces` drawn by xorshift from `seed`.
fn random_cells(seed: &mut u64, n: usize, pieces: &[char]) -> Vec<char> {
    (0..n)
        .map(|_| {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            pieces[(*seed % pieces.len() as u64) as usize]
        })
        .collect()
}

/// The map literal of `cells` (`:e` beyond).
fn board_literal(cells: &[char]) -> String {
    let board: Vec<String> = cells
        .iter()
        .enumerate()
        .map(|(i, c)| format!("{i}: {c}"))
        .collect();
    format!("{{ {}, :e }}", board.join(", "))
}

#[test]
fn a_kept_mask_gives_every_square_from_the_highest() {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for n in (1..=64).chain([9, 17, 33, 63]) {
        let cells = random_cells(&mut seed, n, &['e', 'w', 'b', 'w', 'e']);
        let board = board_literal(&cells);
        let text = mask_game(n, &board);
        let g = GameModel::from_text(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(g.tables().code.mask_filters(), 1, "{text}");
        let mut r = g.reasoner();
        let mut s = g.initial_state();
        let mut list = MoveList::default();
        let mut cells = cells;
        for _ in 0..8 {
            r.complete_keeper(&mut s).unwrap();
            r.moves(&mut s, &mut list).unwrap();
            let texts: Vec<_> = (0..list.len()).map(|i| g.move_text(&list, i)).collect();
            let want: Vec<String> = (0..n)
                .rev()
                .filter(|&i| cells[i] != 'e')
                .flat_map(|i| ["t2", "t1"].map(|t| format!("{i} {}1 {t}", cells[i])))
                .collect();
            assert_eq!(texts, want, "{text}");
            if list.is_empty() {
                break;
            }
            // The highest square taken: it is empty now.
            r.apply(&mut s, &list, 0);
            let taken = (0..n).rev().find(|&i| cells[i] != 'e').unwrap();
            cells[taken] = 'e';
            // A square the previous decision's mask did not hold.
            cells[0] = 'w';
        }
    }
}

/// `n` squares, `board` their pieces; `x` picks a square holding `w` (one
/// comparison after the pick: a `Filter::Ind`), tags it, empties it and
/// moves on to `y`, which picks nothing.
fn ind_game(n: usize, board: &str) -> String {
    let squares: Vec<String> = (0..n).map(|i| i.to_string()).collect();
    format!(
        "type Player = {{x, y}};\ntype Score = {{0, 1}};\ntype V = {{{}}};\n\
         type P = {{e, w, b}};\ntype T = {{w1}};\n\
         var pos: V = 0;\nvar board: V -> P = {board};\n\
         begin, s: player = x;\ns, a: pos = V(*);\n\
         a, m: board[pos] == w;\nm, c: $$ pos;\nc, d: $ w1;\n\
         d, k: board[pos] = e;\nk, end: player = keeper;\n",
        squares.join(", ")
    )
}

#[test]
fn a_one_comparison_filter_takes_its_squares_from_a_mask_up_to_64() {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    for n in [1, 2, 7, 8, 9, 31, 32, 33, 63, 64, 65, 72, 100, 128, 300] {
        let cells = random_cells(&mut seed, n, &['e', 'w', 'b']);
        let text = ind_game(n, &board_literal(&cells));
        let g = GameModel::from_text(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        // A mask holds at most 64 squares: beyond, the filter scans them
        // eight a step (`Filter::Run`).
        let masks = usize::from(n <= 64);
        assert_eq!(g.tables().code.mask_filters(), masks, "{text}");
        assert_eq!(g.tables().code.run_filters(), 1 - masks, "{text}");
        let mut r = g.reasoner();
        let mut s = g.initial_state();
        let mut list = MoveList::default();
        r.complete_keeper(&mut s).unwrap();
        r.moves(&mut s, &mut list).unwrap();
        let texts: Vec<_> = (0..list.len()).map(|i| g.move_text(&list, i)).collect();
        let want: Vec<String> = (0..n)
            .rev()
            .filter(|&i| cells[i] == 'w')
            .map(|i| format!("{i} w1"))
            .collect();
        assert_eq!(texts, want, "{text}");
    }
}
