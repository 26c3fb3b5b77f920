//! Times parsing, translation and the RG check of HRG files, the best of
//! 5 runs each (development aid): `timing FILE...`.
use std::time::{Duration, Instant};
fn main() {
    for path in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&path).unwrap();
        let mut best = [Duration::MAX; 3];
        let mut edges = 0;
        for _ in 0..5 {
            let t = Instant::now();
            let g = hrg_lang::parse::parse_game(&text).unwrap();
            let t1 = t.elapsed();
            let rg = hrg_lang::translate::translate(&g).unwrap();
            let t2 = t.elapsed();
            if let Err(e) = rg_lang::check::check(&rg) {
                eprintln!(
                    "{}",
                    hrg_lang::SourceFile::new(path.as_str(), text.as_str()).diagnostic(e)
                );
            }
            let t3 = t.elapsed();
            edges = rg.edges.len();
            for (b, d) in best.iter_mut().zip([t1, t2 - t1, t3 - t2]) {
                *b = (*b).min(d);
            }
        }
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        println!(
            "{path}: parse {:.2} ms, translate {:.2} ms, check {:.2} ms, total {:.2} ms, {edges} edges",
            ms(best[0]),
            ms(best[1]),
            ms(best[2]),
            ms(best[0] + best[1] + best[2])
        );
    }
}
