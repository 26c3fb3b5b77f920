//! What a translation gives the RG engine: nodes, edges, checks, and the
//! nodes with a visited check (the engine's analysis).
//!
//! `cargo run -p rbg-to-rg --example stats -- GAME.rbg [--nodes]`

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!("usage: stats GAME.rbg [--nodes]");
        std::process::exit(2);
    };
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(1)
    });
    let game = rbg_lang::parse_str(&text).unwrap_or_else(|e| {
        eprintln!("{path}: {}", e.message);
        std::process::exit(1)
    });
    let rg = rbg_to_rg::translate_text(&game).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(1)
    });
    let model = rg_engine::GameModel::from_text(&rg).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(1)
    });
    let d = model.description();
    let guarded = model.visited_checks();
    let edges = rg
        .lines()
        .filter(|l| {
            !l.starts_with("const")
                && !l.starts_with("var")
                && !l.starts_with("type")
                && !l.starts_with('@')
                && l.contains(", ")
        })
        .count();
    let checks = rg.matches(" -> ").count();
    println!(
        "{path}: {} nodes, {edges} edges, {checks} check labels, {} guarded",
        d.nodes.len(),
        guarded.iter().filter(|&&g| g).count()
    );
    if args.iter().any(|a| a == "--nodes") {
        let names: Vec<&str> = d
            .nodes
            .iter()
            .zip(&guarded)
            .filter(|(_, &g)| g)
            .map(|(n, _)| n.as_str())
            .collect();
        println!("guarded: {}", names.join(" "));
    }
}
