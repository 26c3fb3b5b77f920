//! Move texts, the one parser every engine exposes to users (`rbg play`,
//! `replay`, the Python package): on the repository's RBG and HRG games,
//! every legal move's text parses back to that move, and any text at all —
//! arbitrary strings, legal texts with characters changed, dropped or added
//! — gets an answer (a move or an error), never a panic.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use gg_core::{Game, MoveList, Reasoner, Turn};
use gg_games::{with_game, AnyGame, Language};
use proptest::prelude::*;
use rand::{rngs::SmallRng, Rng, SeedableRng};

/// The repository's games (`games/*.rbg`, `games/hrg/*.hrg`), loaded once.
fn games() -> &'static [(PathBuf, AnyGame)] {
    static GAMES: OnceLock<Vec<(PathBuf, AnyGame)>> = OnceLock::new();
    GAMES.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../games");
        let mut paths: Vec<PathBuf> = [root.clone(), root.join("hrg")]
            .iter()
            .flat_map(|d| std::fs::read_dir(d).unwrap())
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "rbg" || e == "hrg"))
            .collect();
        paths.sort();
        paths
            .into_iter()
            .map(|p| {
                let name = p.to_str().unwrap();
                let bytes = std::fs::read(&p).unwrap();
                let game = AnyGame::from_text(Language::of_path(name), name, &bytes)
                    .unwrap_or_else(|e| panic!("{e}"));
                (p, game)
            })
            .collect()
    })
}

/// The texts of the legal moves along one random play of at most `plies`
/// moves (`seed`), each checked to parse back to its move; how many moves
/// were seen.
fn round_trips<G: Game>(game: &G, seed: u64, plies: usize, texts: &mut Vec<String>) -> usize {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut r = game.reasoner();
    let mut s = game.initial_state().unwrap();
    let mut moves = MoveList::default();
    let mut seen = 0;
    for _ in 0..plies {
        if game.turn(&s) == Turn::Over {
            break;
        }
        r.legal_moves(&s, &mut moves).unwrap();
        if moves.is_empty() {
            break;
        }
        for m in moves.iter() {
            let text = game.move_text(m);
            let back = r.parse_move(&s, &text);
            assert_eq!(back.as_deref(), Ok(m), "{text:?}");
            texts.push(text);
        }
        seen += moves.len();
        let m = moves.get(rng.gen_range(0..moves.len())).to_vec();
        r.apply(&mut s, &m).unwrap();
    }
    seen
}

/// Parses `text` in the initial state of every game: any answer but a
/// panic will do.
fn parse_anywhere(text: &str) {
    for (_, game) in games() {
        with_game!(game, g => parse_at_start(g, text));
    }
}

fn parse_at_start<G: Game>(game: &G, text: &str) {
    let mut r = game.reasoner();
    let s = game.initial_state().unwrap();
    let _ = r.parse_move(&s, text);
}

#[test]
fn legal_move_texts_parse_back_to_their_moves() {
    assert!(games().len() >= 25, "{} games", games().len());
    for (path, game) in games() {
        let mut texts = Vec::new();
        let seen = with_game!(game, g => round_trips(g, 7, 30, &mut texts));
        assert!(seen > 0, "{}: no move", path.display());
    }
}

/// Legal move texts of every game (the start of a few plays), for mutating.
fn legal_texts() -> &'static [String] {
    static TEXTS: OnceLock<Vec<String>> = OnceLock::new();
    TEXTS.get_or_init(|| {
        let mut texts = Vec::new();
        for (_, game) in games() {
            with_game!(game, g => round_trips(g, 3, 4, &mut texts));
        }
        texts
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn any_text_gets_an_answer(text in "\\PC{0,40}") {
        parse_anywhere(&text);
    }

    #[test]
    fn changed_legal_texts_get_an_answer(
        pick in any::<prop::sample::Index>(),
        at in any::<prop::sample::Index>(),
        edit in 0..3u8,
        c in prop::sample::select(vec![' ', '.', ',', '-', '0', '9', 'x', '\u{e9}', ':']),
    ) {
        let texts = legal_texts();
        let mut chars: Vec<char> = texts[pick.index(texts.len())].chars().collect();
        let i = at.index(chars.len() + 1);
        match edit {
            0 => chars.insert(i, c),
            1 if i < chars.len() => { chars.remove(i); }
            _ if i < chars.len() => chars[i] = c,
            _ => chars.push(c),
        }
        parse_anywhere(&chars.into_iter().collect::<String>());
    }
}
