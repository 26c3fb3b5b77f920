//! `cargo bench -p rbg-engine`: perft nodes/s and flat Monte Carlo
//! playouts/s on suite games (`../shared/rbg-suite`, or `RBG_SUITE`).

use std::path::PathBuf;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rbg_engine::perft::perft;
use rbg_engine::playout::Playouts;
use rbg_engine::GameModel;

/// (game, perft depth, whether a playout fits in a benchmark iteration)
const GAMES: &[(&str, usize, bool)] = &[
    ("breakthrough.rbg", 3, true),
    ("chess.rbg", 3, true),
    ("connect4.rbg", 5, true),
    ("englishDraughts.rbg", 6, true),
    ("go.rbg", 2, true),
    ("hex.rbg", 2, true),
    ("reversi.rbg", 5, true),
    ("amazons.rbg", 1, true),
    ("gomoku_standard.rbg", 2, true),
    ("theMillGame.rbg", 4, true),
    ("internationalDraughts.rbg", 4, true),
    ("arimaa_fixedPosition.rbg", 1, false),
];

fn suite() -> Option<PathBuf> {
    let dir = std::env::var_os("RBG_SUITE")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/rbg-suite")
        });
    dir.join("games").is_dir().then_some(dir)
}

fn benches(c: &mut Criterion) {
    let Some(dir) = suite() else {
        eprintln!("suite not found; nothing to benchmark");
        return;
    };
    for &(name, depth, playouts) in GAMES {
        let text = std::fs::read_to_string(dir.join("games").join(name)).expect("read game");
        let game = GameModel::from_text(&text).expect("suite game loads");
        let nodes = perft(&game, depth).expect("perft").states;
        let mut group = c.benchmark_group(name.trim_end_matches(".rbg"));
        group.sample_size(10);
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("perft{depth}"), |b| b.iter(|| perft(&game, depth)));
        if playouts {
            let mut runner = Playouts::new(&game, 7).expect("playouts");
            group.throughput(Throughput::Elements(1));
            group.bench_function("flat_mc_playout", |b| b.iter(|| runner.run_one()));
        }
        group.finish();
    }
}

// `criterion_group!` defines an undocumented public function.
#[allow(missing_docs)]
mod group {
    use super::*;
    criterion_group!(engine, benches);
}
use group::engine;
criterion_main!(engine);
