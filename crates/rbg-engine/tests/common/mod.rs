//! Shared by the suite tests: where the RBG suite is.

use std::path::PathBuf;

/// The RBG suite (`../shared/rbg-suite` beside the repository, or
/// `RBG_SUITE`) if it holds `needed`. When it does not, the tests skip with
/// a message, except under `CI=true`, where this panics.
pub fn suite_dir(needed: &str) -> Option<PathBuf> {
    let dir = match std::env::var_os("RBG_SUITE") {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/rbg-suite"),
    };
    if dir.join(needed).exists() {
        Some(dir)
    } else if std::env::var("CI").as_deref() == Ok("true") {
        panic!("{needed} not found in the suite at {}", dir.display());
    } else {
        eprintln!(
            "skipped: {needed} not found in the suite at {}",
            dir.display()
        );
        None
    }
}
