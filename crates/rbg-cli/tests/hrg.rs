//! The commands on HRG games (`../shared/rg/examples/*.hrg`, or
//! `$RG_EXAMPLES`): perft through the shared interface equals `perft.tsv`;
//! `translate --to rg` prints RG that `check` accepts with the same perft;
//! bad HRG is reported at its line and column with exit code 1. Skipped with
//! a message when the folder is missing, unless `CI=true`.

mod common;
use common::{ok, run};

fn perft(path: &str, depth: &str) -> String {
    let out = run(&["perft", path, depth, "--json"], "");
    let json: serde_json::Value = serde_json::from_str(&ok(&out)).unwrap();
    json["leaves"].to_string()
}

#[test]
fn hrg_examples_through_the_commands() {
    let Some(dir) = testkit::rg_examples() else {
        return;
    };
    let tmp = std::env::temp_dir().join(format!("rbg-hrg-test-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let mut checked = 0;
    // Depths up to 6 keep the test quick; `hrg-lang`'s own test runs all.
    for line in testkit::rg_example_perft(&dir, ".hrg") {
        if line.depth > 6 {
            continue;
        }
        let (depth, want) = (line.depth.to_string(), line.leaves.to_string());
        let path = dir.join(&line.file);
        let path = path.to_str().unwrap();
        assert_eq!(perft(path, &depth), want, "{line:?}");
        let rg = tmp.join(line.file.replace(".hrg", ".rg"));
        std::fs::write(&rg, ok(&run(&["translate", path, "--to", "rg"], ""))).unwrap();
        let rg = rg.to_str().unwrap();
        assert!(ok(&run(&["check", rg], "")).contains(": ok "));
        assert_eq!(perft(rg, &depth), want, "{line:?} (printed RG)");
        checked += 1;
    }
    assert!(checked >= 20, "{checked} lines");
}

#[test]
fn bad_hrg_is_reported_in_the_hrg_text() {
    let tmp = std::env::temp_dir().join(format!("rbg-hrg-bad-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let path = tmp.join("bad.hrg");
    std::fs::write(
        &path,
        "domain Player = x\ndomain Score = 0\ns : Score\ngraph rules() {\n  s = x\n  end()\n}\n",
    )
    .unwrap();
    let path = path.to_str().unwrap();
    for cmd in [
        vec!["check", path],
        vec!["translate", path],
        vec!["perft", path, "1"],
    ] {
        let out = run(&cmd, "");
        assert_eq!(out.status.code(), Some(1), "{cmd:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.starts_with(&format!("{path}:5:7: error: ")),
            "{cmd:?}: {err}"
        );
    }
}

#[test]
fn improper_hrg_is_reported_at_the_hrg_statement() {
    let tmp = std::env::temp_dir().join(format!("rbg-hrg-improper-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let path = tmp.join("improper.hrg");
    // The keeper has two moves: the branch at line 6.
    std::fs::write(
        &path,
        "domain Player = x\ndomain Score = 0 | 1\nn : Score = 0\ngraph rules() {\n  player = keeper\n  branch { n = 1 } or { n = 0 }\n  player = x\n  $ a\n  player = keeper\n  goals[x] = 1\n}\n",
    )
    .unwrap();
    let path = path.to_str().unwrap();
    for cmd in [
        vec!["perft", path, "2"],
        vec!["bench", path, "--seconds", "0.1"],
        vec!["play", path, "--agents", "random"],
    ] {
        let out = run(&cmd, "");
        assert_eq!(out.status.code(), Some(1), "{cmd:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(&format!(
                "{path}:6:12: error: improper game: the keeper has 2 moves"
            )),
            "{cmd:?}: {err}"
        );
    }
}
