//! The native engine against the interpreter: random games of every suite
//! game (and our own games), checking at every step that both give the
//! same legal moves in the same order, the same terminal test and the same
//! state after each move (with the keeper's completion).

use std::path::PathBuf;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use rbg_engine::{GameModel, MoveList};

fn suite_games() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/rbg-suite/games");
    let mut games: Vec<PathBuf> = match std::fs::read_dir(&dir) {
        Ok(d) => d.map(|e| e.unwrap().path()).collect(),
        Err(_) => {
            assert!(std::env::var_os("CI").is_none(), "suite missing under CI");
            Vec::new()
        }
    };
    let own = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../games");
    games.extend(std::fs::read_dir(own).unwrap().map(|e| e.unwrap().path()));
    games.retain(|p| p.extension().is_some_and(|e| e == "rbg"));
    games.sort();
    games
}

/// Plays `games` random games of `text` with both engines; returns the
/// number of states compared.
fn compare(name: &str, text: &str, games: usize, max_moves: usize) -> usize {
    let interp = GameModel::from_text(text).expect("description parses");
    let native = rbg_jit::compile(&interp).expect("code generation");
    let (mut ri, mut rn) = (interp.reasoner(), native.reasoner());
    let (mut mi, mut mn) = (MoveList::default(), MoveList::default());
    let mut rng = SmallRng::seed_from_u64(17);
    let mut states = 0;
    let si0 = interp.initial_state();
    let sn0 = native.initial_state();
    assert_eq!(si0, sn0, "{name}: initial states differ");
    for _ in 0..games {
        let (mut si, mut sn) = (si0.clone(), sn0.clone());
        for step in 0..max_moves {
            states += 1;
            ri.legal_moves(&si, &mut mi);
            rn.legal_moves(&sn, &mut mn);
            let a: Vec<&[_]> = mi.iter().collect();
            let b: Vec<&[_]> = mn.iter().collect();
            assert_eq!(a, b, "{name}: moves differ at step {step}");
            assert_eq!(ri.is_terminal(&si), rn.is_terminal(&sn), "{name}: terminal");
            if mi.is_empty() {
                break;
            }
            let m = mi.get(rng.gen_range(0..mi.len())).to_vec();
            let ki = ri.apply(&mut si, &m);
            let kn = rn.apply(&mut sn, &m);
            assert_eq!(ki, kn, "{name}: keeper outcome at step {step}");
            assert_eq!(si, sn, "{name}: states differ after step {step}");
            assert_eq!(interp.scores(&si), native.scores(&sn));
            if !ki || interp.current_player(&si).is_none() {
                break;
            }
        }
    }
    states
}

#[test]
fn native_equals_interpreter_on_every_game() {
    let handle = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(|| {
            let mut total = 0;
            for path in suite_games() {
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                let text = std::fs::read_to_string(&path).unwrap();
                // Arimaa's moves are huge: fewer steps.
                let (games, max) = if name.starts_with("arimaa") {
                    (1, 3)
                } else {
                    (3, 300)
                };
                let n = compare(&name, &text, games, max);
                eprintln!("{name}: {n} states agree");
                total += n;
            }
            assert!(total > 0);
        })
        .unwrap();
    handle.join().unwrap();
}
