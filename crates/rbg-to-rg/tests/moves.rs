//! The translation has the same moves as the RBG game: along random plays
//! of suite games, the RG moves (tags `vertex index_N ...`) are exactly the
//! RBG moves (`(vertex, modifier)...`) written that way, and the final
//! scores agree.

mod common;

use gg_core::{Game, MoveList, Reasoner, Turn};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// An RBG move text (`v m v m ...`, both 1-based) as the RG move text.
fn rg_text(rbg: &rbg_lang::Game, text: &str) -> String {
    let nums: Vec<usize> = text
        .split_whitespace()
        .map(|n| n.parse().unwrap())
        .collect();
    nums.chunks(2)
        .map(|p| format!("{} index_{}", rbg.board.vertices[p[0] - 1].name, p[1]))
        .collect::<Vec<_>>()
        .join(" ")
}

fn same_plays(name: &str, plays: u64, max_len: usize) {
    let Some(dir) = common::suite() else { return };
    let ast = common::game(&dir, name);
    let rg = common::translated(name, &ast);
    let rbg = rbg_engine::GameModel::new(ast.clone()).unwrap();
    let mut rng = SmallRng::seed_from_u64(7);
    let (mut rr, mut gr) = (rbg.reasoner(), Game::reasoner(&rg));
    let (mut rm, mut gm) = (MoveList::default(), MoveList::default());
    for _ in 0..plays {
        let mut rs = Game::initial_state(&rbg).unwrap();
        let mut gs = Game::initial_state(&rg).unwrap();
        for ply in 0..max_len {
            // RBG ends a game when the player on move has no move; the
            // translation then ends it at `end`.
            rm.clear();
            gm.clear();
            if Game::turn(&rbg, &rs) != Turn::Over {
                gg_core::Reasoner::legal_moves(&mut rr, &rs, &mut rm).unwrap();
            }
            if Game::turn(&rg, &gs) != Turn::Over {
                gr.legal_moves(&gs, &mut gm)
                    .unwrap_or_else(|e| panic!("{name} ply {ply}: {}", rg.error_text(&e)));
                assert_eq!(
                    Game::turn(&rbg, &rs),
                    Game::turn(&rg, &gs),
                    "{name} ply {ply}"
                );
            }
            let mut a: Vec<String> = rm
                .iter()
                .map(|m| rg_text(&ast, &Game::move_text(&rbg, m)))
                .collect();
            let mut b: Vec<String> = gm.iter().map(|m| Game::move_text(&rg, m)).collect();
            a.sort();
            b.sort();
            assert_eq!(a, b, "{name} ply {ply}");
            if a.is_empty() {
                break;
            }
            let i = rng.gen_range(0..rm.len());
            let text = rg_text(&ast, &Game::move_text(&rbg, rm.get(i)));
            let j = gm
                .iter()
                .position(|m| Game::move_text(&rg, m) == text)
                .unwrap();
            gg_core::Reasoner::apply(&mut rr, &mut rs, rm.get(i)).unwrap();
            gr.apply(&mut gs, gm.get(j)).unwrap();
        }
        assert_eq!(Game::scores(&rbg, &rs), Game::scores(&rg, &gs), "{name}");
    }
}

#[test]
fn tic_tac_toe() {
    same_plays("ticTacToe.rbg", 20, 100);
}

#[test]
fn breakthrough_and_knightthrough() {
    same_plays("breakthrough.rbg", 3, 300);
    same_plays("knightthrough.rbg", 3, 300);
}

#[test]
fn chess_and_draughts() {
    same_plays("chess.rbg", 2, 60);
    same_plays("englishDraughts.rbg", 2, 100);
}

#[test]
fn reversi_connect4_and_go() {
    same_plays("reversi.rbg", 2, 100);
    same_plays("connect4.rbg", 3, 50);
    same_plays("go.rbg", 1, 40);
}

/// One random play (at most 40 moves) of every suite game but arimaa's and
/// connect6 (a play takes minutes, and arimaa's positions have more moves
/// than the RG engine holds for one state: `rg_engine`'s `MAX_RECORDED`).
#[test]
fn one_play_of_every_suite_game() {
    let Some(dir) = common::suite() else { return };
    let listing = |sub: &str| -> Vec<String> {
        std::fs::read_dir(dir.join("games").join(sub))
            .unwrap()
            .map(|e| format!("{sub}{}", e.unwrap().file_name().to_string_lossy()))
            .filter(|n| n.ends_with(".rbg") && !n.contains("arimaa") && !n.contains("connect6"))
            .collect()
    };
    let mut names = listing("");
    names.extend(listing("nsplit/"));
    names.sort();
    assert_eq!(names.len(), 62, "{names:?}");
    for name in &names {
        let t = std::time::Instant::now();
        same_plays(name, 1, 40);
        eprintln!("{name}: {:.2} s", t.elapsed().as_secs_f64());
    }
}
