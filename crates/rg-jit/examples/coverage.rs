//! What the native engine makes of games: per file, its edges, its
//! reachability checks by kind (probes, pure searches, walks) and the code
//! generation time or why the game is interpreted.
//!
//! `cargo run --release -p rg-jit --example coverage -- FILE.rg|FILE.hrg ...`

fn main() {
    for path in std::env::args().skip(1) {
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("{path}: {e}");
                continue;
            }
        };
        let file = rg_lang::SourceFile::from_bytes(&path, &bytes);
        let loaded = match path.ends_with(".hrg") {
            true => hrg_lang::load(&file).map_err(|d| d.rendered),
            false => rg_lang::load(&file).map_err(|d| d.rendered),
        };
        let game = match loaded.map(|(_, c)| rg_engine::GameModel::new(c)) {
            Ok(Ok(g)) => g,
            Ok(Err(e)) => {
                eprintln!("{path}: {e}");
                continue;
            }
            Err(e) => {
                eprintln!("{e}");
                continue;
            }
        };
        let t = game.tables();
        let probes = t.probes.iter().filter(|p| p.is_some()).count();
        let pure = (0..t.checks.len())
            .filter(|&c| t.probes[c].is_none() && t.pure[c])
            .count();
        let walks = t.checks.len() - probes - pure;
        let native = match rg_jit::compile(&game) {
            Ok(g) => format!(
                "code generation {:.1} ms",
                g.codegen_time().unwrap_or_default().as_secs_f64() * 1e3
            ),
            Err(e) => e.to_string(),
        };
        println!(
            "{path}: {} edges, checks: {probes} probes, {pure} pure, {walks} walks; {native}",
            t.edges.len()
        );
    }
}
