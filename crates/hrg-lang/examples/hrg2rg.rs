//! Prints the RG translation of an HRG file (development aid).
fn main() {
    let path = std::env::args().nth(1).expect("file");
    let text = std::fs::read_to_string(&path).unwrap();
    match hrg_lang::translate_str(&text) {
        Ok(g) => print!("{}", rg_lang::print::print_game(&g)),
        Err(e) => eprintln!("{}", hrg_lang::SourceFile::new(path, text).diagnostic(e)),
    }
}
