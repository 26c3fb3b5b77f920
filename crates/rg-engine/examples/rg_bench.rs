//! Timing helper: `cargo run --release -p rg-engine --example rg_bench -- FILE SECONDS [perft DEPTH]`.

use std::time::Instant;

use rg_engine::perft::{perft, Counting};
use rg_engine::playout::Playouts;
use rg_engine::GameModel;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&args[1]).expect("readable");
    let game = GameModel::from_text(&text).expect("valid game");
    if args.get(3).map(String::as_str) == Some("perft") {
        let d: usize = args[4].parse().unwrap();
        let t = Instant::now();
        let c = perft(&game, d, Counting::Walks).unwrap();
        println!(
            "perft {d}: {} leaves {} states in {:.3}s",
            c.leaves,
            c.states,
            t.elapsed().as_secs_f64()
        );
        return;
    }
    let secs: f64 = args[2].parse().unwrap();
    let mut p = Playouts::new(&game, 1);
    let t = Instant::now();
    if secs < 0.0 {
        for _ in 0..(-secs) as u64 {
            p.run_one().unwrap();
        }
    }
    while t.elapsed().as_secs_f64() < secs {
        for _ in 0..100 {
            p.run_one().unwrap();
        }
    }
    let e = t.elapsed().as_secs_f64();
    println!(
        "{} playouts in {e:.2}s: {:.0}/s, turns {:.2}, branching {:.2}, scores {:?}",
        p.stats.playouts,
        p.stats.playouts as f64 / e,
        p.stats.avg_turns(),
        p.stats.avg_branching(),
        p.stats.avg_scores()
    );
}
