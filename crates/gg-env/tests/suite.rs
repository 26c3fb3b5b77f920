//! The action interface against the engine on the RBG suite
//! (`../shared/rbg-suite`, override with `RBG_SUITE`; skipped when
//! missing, except under `CI=true`).

use std::collections::BTreeSet;
use std::path::PathBuf;

use gg_core::{MoveList, Reasoner, Turn};
use gg_env::{action_perft, Batch, Decision, Frame, Numbering, Spec};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use rbg_engine::{GameModel, ModApp};

fn suite_games() -> Vec<PathBuf> {
    testkit::rbg_suite_games()
}

/// The seven suite games the batch's speed is measured on.
fn seven_games() -> Vec<PathBuf> {
    let names = [
        "breakthrough.rbg",
        "connect4.rbg",
        "chess.rbg",
        "englishDraughts.rbg",
        "hex.rbg",
        "ticTacToe.rbg",
        "reversi.rbg",
    ];
    let mut games = suite_games();
    games.retain(|p| names.iter().any(|n| p.ends_with(n)));
    games
}

/// Asserts that two frames hold the same outputs, field by field.
fn same_frames(a: &Frame, b: &Frame, what: &str) {
    assert_eq!(a.obs, b.obs, "{what}");
    assert_eq!(a.masks, b.masks, "{what}");
    assert_eq!(a.rewards, b.rewards, "{what}");
    assert_eq!(a.dones, b.dones, "{what}");
    assert_eq!(a.players, b.players, "{what}");
}

fn load(path: &PathBuf) -> GameModel {
    let text = std::fs::read_to_string(path).unwrap();
    GameModel::from_text(&text).unwrap()
}

/// Every complete move reachable by actions from `d` (a turn start).
fn moves_by_actions(r: &mut rbg_engine::Reasoner, d: &Decision<GameModel>) -> Vec<Vec<ModApp>> {
    let mut out = Vec::new();
    let mut stack = vec![d.clone()];
    while let Some(d) = stack.pop() {
        assert!(!d.actions().is_empty(), "a decision without actions");
        for (a, k) in d.actions() {
            assert!(a < d.num_actions(), "action {a} out of range");
            let mut child = d.clone();
            child.apply(r, a).unwrap();
            if child.at_turn_start() {
                assert_eq!(k, 1, "an action completing a move keeps one candidate");
                // The move is the only candidate that took action `a`.
                let m = d
                    .candidates()
                    .map(|i| d.moves().get(i))
                    .find(|m| d.action_of(d.moves().position(m).unwrap()) == a)
                    .unwrap();
                let mut after = d.base().clone();
                Reasoner::apply(r, &mut after, m).unwrap();
                assert_eq!(child.base(), &after);
                out.push(m.to_vec());
            } else {
                assert_eq!(k as usize, child.num_candidates());
                stack.push(child);
            }
        }
    }
    out
}

/// Along random games of every suite game: the actions enumerate exactly
/// the engine's legal moves, each once, and masks agree with the actions.
#[test]
fn actions_enumerate_the_legal_moves() {
    for path in suite_games() {
        let g = load(&path);
        let mut r = g.reasoner();
        let mut rng = SmallRng::seed_from_u64(7);
        let mut d: Decision<GameModel> = Decision::new(&mut r, g.initial_state()).unwrap();
        let mut engine = MoveList::default();
        for _ply in 0..12 {
            if d.turn() == Turn::Over {
                break;
            }
            Reasoner::legal_moves(&mut r, d.base(), &mut engine).unwrap();
            if engine.len() > 3000 {
                break;
            }
            // Every atom of a player's move is a choice.
            for m in engine.iter() {
                for &a in m {
                    assert!(d.numbering().atom_id(a).is_some(), "{}", path.display());
                }
            }
            let found = moves_by_actions(&mut r, &d);
            let want: BTreeSet<Vec<ModApp>> = engine.iter().map(|m| m.to_vec()).collect();
            assert_eq!(found.len(), engine.len(), "{}", path.display());
            let got: BTreeSet<Vec<ModApp>> = found.into_iter().collect();
            assert_eq!(got, want, "{}", path.display());
            let mut mask = vec![false; d.num_actions() as usize];
            d.write_mask(&mut mask);
            let from_mask: Vec<u32> = (0..mask.len() as u32)
                .filter(|&a| mask[a as usize])
                .collect();
            let listed: Vec<u32> = d.actions().iter().map(|a| a.0).collect();
            assert_eq!(from_mask, listed);
            // Play on by random actions.
            while {
                let acts = d.actions();
                let a = acts[rng.gen_range(0..acts.len())].0;
                d.apply(&mut r, a).unwrap();
                !d.at_turn_start()
            } {}
        }
    }
}

/// Perft through actions equals the engine's at depth 2 (10 games).
#[test]
fn action_perft_equals_engine_perft() {
    let names = [
        "ticTacToe.rbg",
        "connect4.rbg",
        "chess.rbg",
        "breakthrough.rbg",
        "reversi.rbg",
        "englishDraughts.rbg",
        "amazons_split3.rbg",
        "theMillGame.rbg",
        "hex_7x7.rbg",
        "paperSoccer.rbg",
    ];
    let games = suite_games();
    for name in names {
        let Some(path) = games.iter().find(|p| p.ends_with(name)) else {
            continue;
        };
        let g = load(path);
        let mut r = g.reasoner();
        let d: Decision<GameModel> = Decision::new(&mut r, g.initial_state()).unwrap();
        let engine = gg_core::perft::perft(&g, 2).unwrap().leaves;
        assert_eq!(action_perft(&mut r, &d, 2).unwrap(), engine, "{name}");
    }
}

/// Atom ids are dense and invertible; observations have the layout's length.
#[test]
fn atom_ids_round_trip() {
    for path in suite_games().iter().take(20) {
        let g = load(path);
        let mut r = g.reasoner();
        let s0 = g.initial_state();
        let ids = g.numbering();
        for id in 0..ids.num_atoms() {
            let text = ids.action_text(id).unwrap();
            let atoms = Reasoner::parse_move(&mut r, &s0, &text).unwrap();
            assert_eq!(atoms.len(), 1);
            assert_eq!(ids.atom_id(atoms[0]), Some(id));
        }
        assert!(ids.action_text(ids.num_atoms()).is_none());
        let len: usize = g.observation_layout().iter().map(|s| s.len()).sum();
        let d: Decision<GameModel> = Decision::new(&mut r, g.initial_state()).unwrap();
        let mut obs = vec![0.0; len];
        d.observe(&g, 0, &mut obs, &mut None);
        // One piece per vertex.
        let nv = g.num_vertices() as usize;
        let ones = obs[..g.description().pieces.len() * nv]
            .iter()
            .filter(|&&x| x == 1.0)
            .count();
        assert_eq!(ones, nv, "{}", path.display());
    }
}

/// Steps the suite game `name` (when the suite is there) by uniformly
/// random candidates (seed `seed`) through `steps` decisions, finished
/// games started again, and calls `check` at every decision before its
/// action; whether the game was found.
fn random_decisions(
    name: &str,
    seed: u64,
    steps: usize,
    mut check: impl FnMut(&Decision<GameModel>),
) -> bool {
    let Some(path) = suite_games().into_iter().find(|p| p.ends_with(name)) else {
        return false;
    };
    let g = load(&path);
    let mut r = g.reasoner();
    let start: Decision<GameModel> = Decision::new(&mut r, g.initial_state()).unwrap();
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut d = start.clone();
    for _ in 0..steps {
        check(&d);
        if d.turn() == Turn::Over {
            d = start.clone();
            continue;
        }
        let j = rng.gen_range(0..d.num_candidates());
        d.apply_candidate(&mut r, j).unwrap();
    }
    true
}

/// `prefix_len` (what batches note after every step) is the length of
/// the prefix, at turn starts with shared atoms (chess) and mid-move, and
/// after the game ends.
#[test]
fn prefix_len_is_the_prefix_length() {
    for name in ["chess.rbg", "breakthrough.rbg", "englishDraughts.rbg"] {
        let mut nonzero = false;
        let found = random_decisions(name, 11, 400, |d| {
            assert_eq!(d.prefix_len(), d.prefix().len(), "{name}");
            nonzero |= d.prefix_len() > 0;
        });
        assert!(nonzero || (!found && suite_games().is_empty()), "{name}");
    }
}

/// A turn with one legal move takes the atoms before its last choice
/// without asking and offers that choice alone (`settle`'s pass over a
/// lone candidate), as for identical candidates.
#[test]
fn a_lone_move_is_chosen_by_its_last_choice() {
    let mut lone = 0;
    for name in ["englishDraughts.rbg", "chess.rbg", "ticTacToe.rbg"] {
        random_decisions(name, 5, 3000, |d| {
            if d.turn() == Turn::Over || !d.at_turn_start() || d.moves().len() != 1 {
                return;
            }
            let ids = d.numbering();
            let m = d.moves().get(0);
            // The first atom that is no choice (or the move's end).
            let c = m.iter().position(|&a| ids.atom_id(a).is_none());
            let depth = c.unwrap_or(m.len()).saturating_sub(1);
            let key = m.get(depth).and_then(|&a| ids.atom_id(a));
            let key = key.unwrap_or(ids.num_atoms());
            assert_eq!(d.prefix_len(), depth, "{name}");
            assert_eq!(d.actions(), vec![(key, 1)], "{name}");
            lone += 1;
        });
    }
    assert!(suite_games().is_empty() || lone > 10, "{lone} lone moves");
}

/// RBG's ids tell atoms (`Numbering::IDS_ARE_ATOMS`, so that `settle`
/// takes the atoms of candidates with the same action as shared without
/// comparing them): at every decision of random games, the candidates'
/// atoms at every depth with equal ids are equal; and chess's turn starts
/// take shared atoms (`[$ pawnDoubleMove = 0]`) that way.
#[test]
fn rbg_ids_are_atoms() {
    const { assert!(<gg_env::RbgIds as Numbering<ModApp>>::IDS_ARE_ATOMS) };
    type RgAtom = gg_games::rg_engine::forward::Atom;
    const { assert!(!<gg_env::RgIds as Numbering<RgAtom>>::IDS_ARE_ATOMS) };
    let mut shared = 0;
    for name in ["chess.rbg", "englishDraughts.rbg", "breakthrough.rbg"] {
        random_decisions(name, 3, 600, |d| {
            let ids = d.numbering();
            let moves: Vec<&[ModApp]> = d.candidates().map(|i| d.moves().get(i)).collect();
            let longest = moves.iter().map(|m| m.len()).max().unwrap_or(0);
            for depth in 0..longest {
                let mut by_id = std::collections::HashMap::new();
                for a in moves.iter().filter_map(|m| m.get(depth)) {
                    if let Some(id) = ids.atom_id(*a) {
                        let first = by_id.entry(id).or_insert(*a);
                        assert_eq!(first, a, "{name}: id {id} of two atoms");
                    }
                }
            }
            shared += usize::from(d.at_turn_start() && d.prefix_len() > 0);
        });
    }
    assert!(
        suite_games().is_empty() || shared > 10,
        "{shared} shared starts"
    );
}

/// A batch gives the same games for a seed whatever the number of threads.
#[test]
fn batches_are_deterministic() {
    let Some(path) = suite_games()
        .into_iter()
        .find(|p| p.ends_with("connect4.rbg"))
    else {
        return;
    };
    let g = load(&path);
    let run = |threads: usize| {
        let mut b = Batch::new(&g, 13, 5, threads).unwrap();
        let mut frames = vec![b.reset().unwrap()];
        for _ in 0..60 {
            let a = b.random_actions();
            frames.push(b.step(&a).unwrap());
        }
        let (moves, games) = b.counts();
        assert!(games > 0 && moves > games);
        frames
            .iter()
            .map(|f| {
                (
                    f.obs.clone(),
                    f.masks.clone(),
                    f.rewards.clone(),
                    f.dones.clone(),
                )
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(run(1), run(3));
    // Illegal actions are refused before anything moves.
    let mut b = Batch::new(&g, 2, 5, 1).unwrap();
    b.reset().unwrap();
    let end = b.num_actions() as u32 - 1; // never legal in RBG
    assert!(b.step(&[end, end]).is_err());
    assert!(b.step(&[end]).is_err());
}

/// A game that ends starts again with the initial decision's observation
/// (which the batch copies from its first reset's frame, `start_obs`,
/// instead of observing the restarted game): checked against the initial
/// decision observed alone, by both ways of stepping, with and without a
/// reset first.
#[test]
fn restarted_games_show_the_initial_observation() {
    for path in suite_games() {
        if !["ticTacToe.rbg", "connect4.rbg"]
            .iter()
            .any(|n| path.ends_with(n))
        {
            continue;
        }
        let g = load(&path);
        let mut r = g.reasoner();
        let d = Decision::<GameModel>::new(&mut r, g.initial_state()).unwrap();
        let Turn::Player(p) = d.turn() else {
            panic!("a player moves first")
        };
        let mut b = Batch::new(&g, 4, 9, 1).unwrap();
        let mut start = vec![0.0; b.obs_len()];
        d.observe(&g, p, &mut start, &mut None);
        for reset in [false, true] {
            let mut f = Frame::default();
            if reset {
                b.reset_into(&mut f).unwrap();
            }
            let mut ended = 0;
            for step in 0..200 {
                if step % 2 == 0 {
                    b.step_random_into(&mut f).unwrap();
                } else {
                    let a = b.random_actions();
                    b.step_into(&a, &mut f).unwrap();
                }
                for (i, row) in f.obs.chunks(b.obs_len()).enumerate() {
                    if f.dones[i] {
                        assert_eq!(row, start, "{} step {step} game {i}", path.display());
                        ended += 1;
                    }
                }
            }
            assert!(ended > 10, "{}: {ended} games ended", path.display());
        }
    }
}

/// A frame stepped into again (its masks cleared only where the batch set
/// them, `Frame::mask_set`, the observations of moves in progress patched,
/// `Frame::obs_tag`), alone or in turn with another one, holds what a
/// fresh frame holds; after a failed step it is cleared whole.
#[test]
fn reused_frames_equal_fresh_ones() {
    let mut compared = 0;
    for path in seven_games() {
        let g = load(&path);
        // Where the keeper puts pieces only on a move's last vertex (not
        // connect4's drop, reversi's flips), turn starts are patched too.
        let away = ["connect4.rbg", "reversi.rbg"]
            .iter()
            .any(|n| path.ends_with(n));
        assert_eq!(g.numbering().keeper_puts(), away, "{}", path.display());
        let mut a = Batch::new(&g, 5, 3, 2).unwrap();
        let mut b = Batch::new(&g, 5, 3, 1).unwrap();
        let mut frames = [Frame::default(), Frame::default()];
        a.reset_into(&mut frames[0]).unwrap();
        same_frames(&frames[0], &b.reset().unwrap(), "reset");
        for step in 0..120 {
            // The same frame a few steps in a row, then the other.
            let f = &mut frames[(step / 3) % 2];
            if step == 50 {
                // Masks written by someone else: the list is cleared.
                f.masks.fill(true);
                f.mask_set.clear();
            }
            if step == 70 || step == 71 {
                // Observations written by someone else: the tag is cleared.
                f.obs.fill(7.0);
                f.obs_tag = 0;
            }
            let acts = a.step_random_into(f).unwrap();
            let what = format!("{} step {step}", path.display());
            same_frames(f, &b.step(&acts).unwrap(), &what);
        }
        compared += 1;
    }
    assert!(suite_games().is_empty() || compared == 7);
}

/// The action space holds only modifiers a player can apply (times the
/// vertices) and the end action: the suite's sizes (before the keeper's
/// modifiers were left out: tic-tac-toe 127, connect4 589, chess 6657).
#[test]
fn action_space_sizes() {
    let sizes = [
        ("ticTacToe.rbg", 19),
        ("connect4.rbg", 85),
        ("breakthrough.rbg", 257),
        ("reversi.rbg", 257),
        ("chess.rbg", 4865),
        ("hex.rbg", 243),
        ("pentago.rbg", 289),
    ];
    let games = suite_games();
    for (name, size) in sizes {
        let Some(path) = games.iter().find(|p| p.ends_with(name)) else {
            continue;
        };
        let g = load(path);
        let mut r = g.reasoner();
        let d: Decision<GameModel> = Decision::new(&mut r, g.initial_state()).unwrap();
        assert_eq!(d.num_actions(), size, "{name}");
    }
}

/// The RG and HRG examples: perft through actions equals the engine's
/// (chance nodes included), and observations have the layout's length.
#[test]
fn rg_examples_through_actions() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/rg/examples");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        assert!(std::env::var("CI").is_err(), "RG examples missing");
        return;
    };
    let mut checked = 0;
    for e in entries {
        let p = e.unwrap().path();
        if !p.extension().is_some_and(|x| x == "rg" || x == "hrg") {
            continue;
        }
        let g = gg_env::load(p.to_str().unwrap(), None, None).unwrap();
        let s = g.new_initial_state();
        for depth in 1..=3 {
            let want = g.perft(depth).unwrap();
            assert_eq!(
                s.action_perft(depth).unwrap(),
                want,
                "{} depth {depth}",
                p.display()
            );
        }
        let len: usize = g.observation_layout().iter().map(|s| s.len()).sum();
        assert_eq!(s.observation(0).len(), len);
        checked += 1;
    }
    assert!(checked >= 5);
}

/// The suite games the native engine takes: each with its keyed native
/// code (`gg_env::keyed`: the turns' first keys written by the generated
/// code).
fn keyed_suite() -> impl Iterator<Item = (PathBuf, GameModel, GameModel)> {
    suite_games().into_iter().filter_map(|path| {
        let g = load(&path);
        let keyed = gg_env::keyed(&g).ok()?;
        Some((path, g, keyed))
    })
}

/// The keyed native walk (`gg_env::keyed`) writes, beside the
/// interpreter's moves, every move's first key as `keys_at` lists it,
/// along random playouts of every suite game the native engine takes; the
/// interpreter writes none.
#[test]
fn keyed_walks_write_the_first_keys() {
    let mut keyed_states = 0;
    for (path, g, keyed) in keyed_suite() {
        let ids = keyed.numbering();
        let (mut rk, mut ri) = (keyed.reasoner(), g.reasoner());
        let mut rng = SmallRng::seed_from_u64(3);
        let (mut mk, mut mi) = (MoveList::default(), MoveList::default());
        let (mut keys, mut listed) = (vec![7; 3], Vec::new());
        for _ in 0..3 {
            let mut s = keyed.initial_state();
            for _ in 0..40 {
                if gg_core::Game::turn(&keyed, &s) == Turn::Over {
                    break;
                }
                let wrote =
                    GameModel::legal_moves_keyed(&mut rk, &mut s, &mut mk, &mut keys).unwrap();
                assert!(wrote, "{}", path.display());
                ids.keys_at(&mk, 0, &mut listed);
                assert_eq!(keys, listed, "{}", path.display());
                let wrote = GameModel::legal_moves_keyed(&mut ri, &mut s, &mut mi, &mut keys);
                assert!(!wrote.unwrap(), "{}", path.display());
                assert_eq!(mi.parts(), mk.parts(), "{}", path.display());
                keyed_states += 1;
                if mk.is_empty() {
                    break;
                }
                let m = mk.get(rng.gen_range(0..mk.len())).to_vec();
                Reasoner::apply(&mut rk, &mut s, &m).unwrap();
            }
        }
    }
    assert!(
        suite_games().is_empty() || keyed_states > 1000,
        "{keyed_states} states"
    );
}

/// On every suite game the native engine takes, a batch played by it
/// gives the interpreter's frames and actions for the same seed.
#[test]
fn native_batches_equal_interpreted_ones() {
    let mut compared = 0;
    for (path, g, native) in keyed_suite() {
        let mut a = Batch::new(&g.interpreted(), 4, 11, 1).unwrap();
        let mut b = Batch::new(&native, 4, 11, 2).unwrap();
        let (mut fa, mut fb) = (gg_env::Frame::default(), gg_env::Frame::default());
        a.reset_into(&mut fa).unwrap();
        b.reset_into(&mut fb).unwrap();
        for step in 0..40 {
            let acts = a.step_random_into(&mut fa).unwrap();
            assert_eq!(b.step_random_into(&mut fb).unwrap(), acts);
            let what = format!("{} step {step}", path.display());
            same_frames(&fa, &fb, &what);
        }
        assert_eq!(a.counts(), b.counts());
        compared += 1;
    }
    assert!(
        compared >= suite_games().len() / 2,
        "native took too few games"
    );
}

/// Turns whose candidates each take an action of their own are stepped by
/// `Decision::play_single` (`Batch::single_path`): on the seven suite
/// games, by their keyed native code (the next turn's keys settle it
/// without `Decision::settle`) and by the interpreter, a batch gives the
/// frames and actions of the general path for the same seed, by both
/// ways of stepping; and such turns occur in every one of them (turn
/// starts, or a move's last choice).
#[test]
fn single_action_steps_equal_the_general_path() {
    let mut compared = 0;
    for path in seven_games() {
        let plain = load(&path);
        let keyed = gg_env::keyed(&plain).unwrap_or_else(|_| plain.clone());
        for g in [keyed, plain.interpreted()] {
            let mut fast = Batch::new(&g, 6, 21, 1).unwrap();
            let mut general = Batch::new(&g, 6, 21, 2).unwrap();
            general.single_path(false);
            let (mut ff, mut fg) = (Frame::default(), Frame::default());
            fast.reset_into(&mut ff).unwrap();
            general.reset_into(&mut fg).unwrap();
            for step in 0..150 {
                let what = format!("{} {} step {step}", path.display(), g.engine_name());
                if step % 3 == 2 {
                    let a = fast.random_actions();
                    assert_eq!(general.random_actions(), a, "{what}");
                    fast.step_into(&a, &mut ff).unwrap();
                    general.step_into(&a, &mut fg).unwrap();
                } else {
                    let a = fast.step_random_into(&mut ff).unwrap();
                    assert_eq!(general.step_random_into(&mut fg).unwrap(), a, "{what}");
                }
                same_frames(&ff, &fg, &what);
            }
            assert_eq!(fast.counts(), general.counts());
        }
        // Single-action decisions occur along a random play.
        let mut r = plain.reasoner();
        let mut d = Decision::<GameModel>::new(&mut r, plain.initial_state()).unwrap();
        let mut rng = SmallRng::seed_from_u64(5);
        let mut mask = vec![false; d.num_actions() as usize];
        let mut single = 0;
        for _ in 0..200 {
            if d.turn() == Turn::Over {
                break;
            }
            mask.fill(false);
            d.write_mask(&mut mask);
            single += usize::from(d.single_action());
            let j = rng.gen_range(0..d.num_candidates());
            d.apply_candidate(&mut r, j).unwrap();
        }
        assert!(single > 0, "{}: no single-action decision", path.display());
        compared += 1;
    }
    assert!(suite_games().is_empty() || compared == 7);
}
