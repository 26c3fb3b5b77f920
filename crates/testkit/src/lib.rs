//! Support for the workspace's integration tests (a dev-dependency only).
//!
//! - Where the folders beside the repository are: the RBG suite and the RG
//!   examples. A missing folder skips the test with a message, except under
//!   `CI=true`, where it fails the test.
//! - The RG examples' perft table.
//! - The runner of a bad-input corpus: files whose first line says where the
//!   error must be.
//! - [`random_rg`]: random small RG games for property tests.

pub mod random_rg;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// `$var`, or `rel` beside the repository (`../shared/...`), if it holds
/// `needed`; otherwise `None` after a message, or a panic under `CI=true`.
pub fn shared_dir(var: &str, rel: &str, needed: &str) -> Option<PathBuf> {
    let dir = match std::env::var_os(var) {
        Some(d) => PathBuf::from(d),
        // crates/testkit -> repository root -> beside it
        None => Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../..")
            .join(rel),
    };
    if dir.join(needed).exists() {
        return Some(dir);
    }
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "{needed} not found at {} (set {var})",
        dir.display()
    );
    eprintln!(
        "skipped: {needed} not found at {} (set {var})",
        dir.display()
    );
    None
}

/// The RBG suite (`../shared/rbg-suite` or `$RBG_SUITE`) if it holds `needed`.
pub fn rbg_suite(needed: &str) -> Option<PathBuf> {
    shared_dir("RBG_SUITE", "shared/rbg-suite", needed)
}

/// The RG examples (`../shared/rg/examples` or `$RG_EXAMPLES`).
pub fn rg_examples() -> Option<PathBuf> {
    shared_dir("RG_EXAMPLES", "shared/rg/examples", "perft.tsv")
}

/// One line of the RG examples' `perft.tsv`.
#[derive(Clone, Debug)]
pub struct PerftLine {
    /// The example's file name, e.g. `tictactoe.rg`.
    pub file: String,
    /// The depth.
    pub depth: usize,
    /// The expected number of leaves.
    pub leaves: u64,
}

/// The lines of `dir/perft.tsv` whose file name ends with `extension`
/// (e.g. `".rg"`); panics on a malformed line.
pub fn rg_example_perft(dir: &Path, extension: &str) -> Vec<PerftLine> {
    let table = std::fs::read_to_string(dir.join("perft.tsv")).expect("perft.tsv");
    let lines: Vec<PerftLine> = table
        .lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let cols: Vec<&str> = line.split('\t').collect();
            assert!(cols.len() >= 3, "perft.tsv: bad line {line:?}");
            PerftLine {
                file: cols[0].to_string(),
                depth: cols[1].parse().expect("depth"),
                leaves: cols[2].parse().expect("count"),
            }
        })
        .filter(|l| l.file.ends_with(extension))
        .collect();
    assert!(!lines.is_empty(), "no {extension} lines in perft.tsv");
    lines
}

/// Where an error was reported: `(line, column, message)`.
pub type Reported = (usize, usize, String);

/// Runs `f` on a thread with a 2 MiB stack; fails the test if it panics or
/// takes more than `limit` (a guard against hangs, not a speed test).
pub fn on_small_stack<T: Send + 'static>(
    name: &str,
    limit: Duration,
    f: impl FnOnce() -> T + Send + 'static,
) -> T {
    let name = name.to_string();
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            let start = Instant::now();
            let out = f();
            assert!(start.elapsed() < limit, "{name} took {:?}", start.elapsed());
            out
        })
        .expect("spawn")
        .join()
        .unwrap_or_else(|_| panic!("a panic"))
}

/// Checks every file of the corpus `dir` (at least `min_files`): its first
/// line is `// expect LINE:COL: TEXT`, and `diagnose(name, text)` must report
/// an error at LINE:COL whose message contains TEXT. Panics with the list of
/// the files that failed.
pub fn check_bad_corpus(
    dir: &Path,
    min_files: usize,
    diagnose: impl Fn(&str, String) -> Option<Reported>,
) {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    assert!(
        files.len() >= min_files,
        "corpus too small: {}",
        files.len()
    );
    let mut failures = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path).expect("readable corpus file");
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let header = text.lines().next().unwrap_or("");
        let spec = header
            .strip_prefix("// expect ")
            .unwrap_or_else(|| panic!("{name}: no `// expect` line"));
        let (pos, want) = spec
            .split_once(": ")
            .unwrap_or_else(|| panic!("{name}: `// expect LINE:COL: TEXT`"));
        let (line, col) = pos.split_once(':').expect("LINE:COL");
        let (line, col): (usize, usize) = (line.parse().unwrap(), col.parse().unwrap());
        match diagnose(&name, text.clone()) {
            None => failures.push(format!("{name}: accepted")),
            Some((l, c, m)) => {
                if (l, c) != (line, col) || !m.contains(want) {
                    failures.push(format!(
                        "{name}: expected {line}:{col} {want:?}, got {l}:{c} {m:?}"
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Checks the lines of the RG examples' `perft.tsv` (in `dir`) for files
/// ending with `extension`: `count(file, depth)` must give the line's count,
/// and at least `min_lines` lines must be checked. Panics with every
/// difference.
pub fn check_rg_example_perft(
    dir: &Path,
    extension: &str,
    min_lines: usize,
    mut count: impl FnMut(&str, usize) -> u64,
) {
    let lines = rg_example_perft(dir, extension);
    assert!(lines.len() >= min_lines, "only {} lines", lines.len());
    let failures: Vec<String> = lines
        .iter()
        .filter_map(|l| {
            let got = count(&l.file, l.depth);
            (got != l.leaves).then(|| {
                format!(
                    "{} depth {}: expected {}, got {got}",
                    l.file, l.depth, l.leaves
                )
            })
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The suite's games (`games/` and `games/nsplit/`), sorted; empty (after a
/// message) where the suite is missing outside CI.
pub fn rbg_suite_games() -> Vec<PathBuf> {
    let Some(dir) = rbg_suite("games") else {
        return Vec::new();
    };
    let games = dir.join("games");
    rbg_files_in([games.clone(), games.join("nsplit")])
}

/// The `.rbg` files directly in `dirs`, sorted.
pub fn rbg_files_in(dirs: impl IntoIterator<Item = PathBuf>) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = dirs
        .into_iter()
        .flat_map(|d| std::fs::read_dir(d).into_iter().flatten())
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "rbg"))
        .collect();
    out.sort();
    out
}
