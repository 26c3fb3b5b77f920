//! Lists the moves after a sequence of move texts (development aid):
//! `moves GAME.hrg [MOVE/MOVE/...]`.
use rg_engine::{GameModel, MoveList};
fn main() {
    let path = std::env::args().nth(1).expect("file");
    let path_moves = std::env::args().nth(2).unwrap_or_default();
    let text = std::fs::read_to_string(&path).unwrap();
    let (_, checked) = hrg_lang::parse_str(&text).unwrap();
    let game = GameModel::new(checked).unwrap();
    let mut r = game.reasoner();
    let mut s = game.initial_state();
    let mut moves = MoveList::default();
    r.complete_keeper(&mut s).unwrap();
    for m in path_moves.split('/').filter(|m| !m.is_empty()) {
        r.moves(&mut s, &mut moves).unwrap();
        let i = game.find_move(&moves, m).expect("move");
        r.apply(&mut s, &moves, i);
        r.complete_keeper(&mut s).unwrap();
    }
    r.moves(&mut s, &mut moves).unwrap();
    println!("mover {:?}", game.mover(&s));
    for i in 0..moves.len() {
        println!("{}", game.move_text(&moves, i));
    }
}
