//! Times parsing, translation and the RG check of an HRG file (development aid).
use std::time::Instant;
fn main() {
    let path = std::env::args().nth(1).expect("file");
    let text = std::fs::read_to_string(&path).unwrap();
    let t = Instant::now();
    let g = hrg_lang::parse::parse_game(&text).unwrap();
    let t1 = t.elapsed();
    let rg = hrg_lang::translate::translate(&g).unwrap();
    let t2 = t.elapsed();
    let c = rg_lang::check::check(&rg);
    let t3 = t.elapsed();
    if let Err(e) = &c {
        eprintln!(
            "{}",
            hrg_lang::SourceFile::new(path.as_str(), text.as_str()).diagnostic(e.clone())
        );
    }
    println!(
        "parse {t1:?} translate {:?} check {:?} ok={} edges={}",
        t2 - t1,
        t3 - t2,
        c.is_ok(),
        rg.edges.len()
    );
}
