//! The corpus of bad descriptions in `tests/bad/`: each file's first line is
//! `// expect LINE:COL: TEXT`, and translating and checking the file must
//! fail with an error at that position of the HRG text whose message
//! contains TEXT, on a 2 MiB stack, within seconds, without a panic.

use std::path::Path;
use std::time::{Duration, Instant};

use hrg_lang::{parse_str, SourceFile};

/// Translates and checks `text` on a small stack; the error's `(line,
/// column, message)`, or `None` if it is accepted.
pub fn diagnose(name: &str, text: String) -> Option<(usize, usize, String)> {
    let name = name.to_string();
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            let start = Instant::now();
            let res = parse_str(&text);
            assert!(
                start.elapsed() < Duration::from_secs(5),
                "{name} took {:?}",
                start.elapsed()
            );
            let e = res.err()?;
            let d = SourceFile::new(name, text).diagnostic(e);
            assert!(d
                .rendered
                .contains(&format!(":{}:{}: error: ", d.line, d.column)));
            Some((d.line, d.column, d.message().to_string()))
        })
        .expect("spawn")
        .join()
        .expect("no panic")
}

#[test]
fn bad_corpus() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bad");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(files.len() >= 60, "corpus too small: {}", files.len());
    let mut failures = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let header = text.lines().next().unwrap_or("");
        let spec = header
            .strip_prefix("// expect ")
            .unwrap_or_else(|| panic!("{name}: no `// expect` line"));
        let (pos, want) = spec.split_once(": ").unwrap();
        let (line, col) = pos.split_once(':').unwrap();
        let (line, col): (usize, usize) = (line.parse().unwrap(), col.parse().unwrap());
        match diagnose(&name, text.clone()) {
            None => failures.push(format!("{name}: accepted")),
            Some((l, c, m)) => {
                if (l, c) != (line, col) || !m.contains(want) {
                    failures.push(format!("{name}: got {l}:{c}: {m}"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
