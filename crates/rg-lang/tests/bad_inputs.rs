//! The corpus of bad descriptions in `tests/bad/`: each file's first line is
//! `// expect LINE:COL: TEXT`, and checking the file must fail with an error at
//! that position whose message contains TEXT, on a 2 MiB stack, quickly and
//! without a panic.

use std::path::Path;
use std::time::Duration;

use rg_lang::{parse_str, SourceFile};
use testkit::Reported;

/// Parses and checks `text` on a small stack; the error's `(line, column,
/// message)`, or `None` if it is accepted.
fn diagnose(name: &str, text: String) -> Option<Reported> {
    testkit::on_small_stack(name, Duration::from_secs(5), {
        let name = name.to_string();
        move || {
            let e = parse_str(&text).err()?;
            let d = SourceFile::new(name, text).diagnostic(e);
            assert!(d
                .rendered
                .contains(&format!(":{}:{}: error: ", d.line, d.column)));
            Some((d.line, d.column, d.message().to_string()))
        }
    })
}

#[test]
fn bad_corpus() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bad");
    testkit::check_bad_corpus(&dir, 50, diagnose);
}

#[test]
fn invalid_utf8_is_an_error() {
    let file = SourceFile::from_bytes("x.rg", b"type Player = {\xff};");
    let e = rg_lang::load(&file).unwrap_err();
    assert_eq!((e.line, e.column), (1, 16));
    assert!(e.message().contains("invalid UTF-8"), "{}", e.message());
}
