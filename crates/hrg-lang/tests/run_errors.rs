//! Run-time errors of improper HRG games (a keeper with several moves or
//! none, a play stuck outside `end`, a keeper that never stops, a move
//! whose tags never end, a play that never ends) are
//! reported at the HRG statement involved, `file:line:col`, never only at
//! a generated RG node.

use rg_engine::playout::Playouts;
use rg_engine::GameModel;

/// `text` as file `g.hrg`, its errors located there.
fn located(text: String) -> GameModel {
    let src = hrg_lang::SourceFile::new("g.hrg", text);
    let (_, checked) = hrg_lang::load(&src).unwrap_or_else(|d| panic!("{}", d.rendered));
    GameModel::located(checked, src).expect("lowers")
}

/// The error of the first random play of `text` (as file `g.hrg`), rendered.
fn run_error(text: &str) -> String {
    let game = located(text.to_string());
    let e = Playouts::new(&game, 1)
        .run_one()
        .expect_err("an improper game");
    game.error_text(&e)
}

const HEAD: &str = "domain Player = x\ndomain Score = 0 | 1\nn : Score = 0\n";

#[test]
fn keeper_with_two_moves_is_located_at_its_statement() {
    let text = format!(
        "{HEAD}graph rules() {{\n  player = keeper\n  branch {{\n    n = 1\n  }} or {{\n    n = 0\n  }}\n  player = x\n  $ a\n  player = keeper\n  goals[x] = 1\n}}\n"
    );
    let e = run_error(&text);
    assert!(
        e.starts_with("g.hrg:7:5: error: improper game: the keeper has 2 moves"),
        "{e}"
    );
    assert!(e.contains("7 │     n = 1"), "{e}");
}

#[test]
fn keeper_without_a_move_is_located_at_the_failing_check() {
    let text = format!(
        "{HEAD}graph rules() {{\n  player = keeper\n  check(n == 1)\n  player = x\n  $ a\n  player = keeper\n  goals[x] = 1\n}}\n"
    );
    let e = run_error(&text);
    assert!(
        e.starts_with("g.hrg:6:9: error: improper game: no legal move at node"),
        "{e}"
    );
}

#[test]
fn player_stuck_outside_end_is_located_at_the_failing_check() {
    let text = format!(
        "{HEAD}graph rules() {{\n  player = x\n  n = 1\n  $ a\n  player = keeper\n  goals[x] = 1\n  player = x\n  check(n == 0)\n  $ b\n  player = keeper\n}}\n"
    );
    let e = run_error(&text);
    assert!(
        e.starts_with("g.hrg:11:9: error: improper game: no legal move at node"),
        "{e}"
    );
}

#[test]
fn endless_keeper_is_located_on_its_loop() {
    let text = format!(
        "{HEAD}graph rules() {{\n  loop {{\n    player = keeper\n    n = 1\n    if n == 0 {{\n      break()\n    }}\n  }}\n  end()\n}}\n"
    );
    let game = located(text);
    let e = rg_engine::perft::perft(&game, 1, rg_engine::perft::Counting::Walks)
        .expect_err("an improper game");
    let e = game.error_text(&e);
    assert!(
        e.starts_with("g.hrg:7:5: error: improper game: the keeper made more than"),
        "{e}"
    );
}

#[test]
fn endless_move_is_located_on_its_loop() {
    // `$ a` on a loop: every round is a longer move.
    let text = format!(
        "{HEAD}graph rules() {{\n  player = x\n  loop {{\n    branch {{\n      $ a\n    }} or {{\n      break()\n    }}\n  }}\n  player = keeper\n  goals[x] = 1\n}}\n"
    );
    let e = run_error(&text);
    assert!(
        e.starts_with("g.hrg:8:7: error: improper game: a move walk emitted more than 2048 tags"),
        "{e}"
    );
}

#[test]
fn endless_play_is_located_where_it_was_cut() {
    // `n` is never 1: the loop never ends.
    let text = format!(
        "{HEAD}graph rules() {{\n  loop {{\n    player = x\n    $ a\n    if n == 1 {{\n      break()\n    }}\n  }}\n  player = keeper\n  goals[x] = 1\n}}\n"
    );
    let game = located(text);
    let mut p = Playouts::new(&game, 1);
    p.max_moves = 100;
    let e = p.run_one().expect_err("an endless play");
    let e = game.error_text(&e);
    assert!(
        e.starts_with("g.hrg:7:5: error: improper game: a play went on for more than 100 moves"),
        "{e}"
    );
}
