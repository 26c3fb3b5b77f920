//! The commands on RG games (`../shared/rg/examples`, or `$RG_EXAMPLES`):
//! perft through the shared interface equals the examples' `perft.tsv`;
//! match, bench, play (hiding what a player may not see) and replay work.
//! Skipped with a message when the folder is missing, unless `CI=true`.

mod common;
use common::{ok, run};

#[test]
fn perft_of_every_rg_example_through_the_interface() {
    let Some(dir) = testkit::rg_examples() else {
        return;
    };
    testkit::check_rg_example_perft(&dir, ".rg", 25, |file, depth| {
        let path = dir.join(file);
        let depth = depth.to_string();
        let argv = [
            "perft",
            path.to_str().unwrap(),
            &depth,
            "--json",
            "--threads",
            "2",
        ];
        let json: serde_json::Value = serde_json::from_str(&ok(&run(&argv, ""))).unwrap();
        json["leaves"].as_u64().expect("leaves")
    });
}

#[test]
fn check_match_and_bench_on_rg() {
    let Some(dir) = testkit::rg_examples() else {
        return;
    };
    let dice = dir.join("dicerace.rg");
    let dice = dice.to_str().unwrap();
    let out = ok(&run(&["check", dice], ""));
    assert!(out.starts_with(&format!("{dice}: ok players=2 ")), "{out}");
    let out = ok(&run(
        &[
            "match",
            dice,
            "--agents",
            "mcts:iterations=50,random",
            "--games",
            "4",
            "--json",
        ],
        "",
    ));
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["games"], 4);
    let out = ok(&run(&["bench", dice, "--playouts", "200", "--json"], ""));
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["playouts"], 200);
    // Two players moving alternately, each at least once per race.
    assert!(json["avg_length"].as_f64().unwrap() >= 2.0, "{json}");
}

#[test]
fn play_hides_what_a_player_may_not_see_and_replay_shows_the_record() {
    let Some(dir) = testkit::rg_examples() else {
        return;
    };
    let cups = dir.join("cups.rg");
    let cups = cups.to_str().unwrap();
    let record = std::env::temp_dir().join(format!("rbg-rg-cups-{}.txt", std::process::id()));
    let record = record.to_str().unwrap();
    // The hider hides under the right cup (listed second), the seeker
    // guesses by the move's text.
    let out = ok(&run(
        &["play", cups, "--agents", "human,human", "--record", record],
        "2\nleft\n",
    ));
    assert!(out.contains("[to hider] hider moved: `right`"), "{out}");
    assert!(out.contains("[to seeker] hider moved: ``"), "{out}");
    assert!(!out.contains("coin"), "the state is never shown: {out}");
    assert!(
        out.ends_with("result: hider 1, seeker 0 (hider wins)\n"),
        "{out}"
    );
    assert_eq!(
        std::fs::read_to_string(record).unwrap(),
        "// rbg record of cups.rg: one move per line (tags separated by spaces)\nright\nleft\n"
    );
    let out = ok(&run(&["replay", cups, record], ""));
    assert!(out.contains("move 2: seeker plays [left]"), "{out}");
    assert!(
        out.ends_with("result: hider 1, seeker 0 (hider wins)\n"),
        "{out}"
    );
    // Tags of no legal move are an illegal move; a word that is no symbol
    // is a malformed one.
    for (body, message) in [
        (
            "right\nright left\n",
            ":2: error: illegal move `right left`: not one of the 2 legal moves of seeker\n",
        ),
        (
            "middle\n",
            ":1: error: malformed move `middle`: `middle` is not a symbol of this game\n",
        ),
    ] {
        std::fs::write(record, body).unwrap();
        let out = run(&["replay", cups, record], "");
        assert_eq!(out.status.code(), Some(1), "{body}");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            format!("{record}{message}")
        );
    }
    std::fs::remove_file(record).ok();
}

#[test]
fn perft_counts_walks_or_distinct_moves() {
    // Three walks, all with the tag `t`: the reference counts 3, the paper 1.
    let game = "type Player = {x};\ntype Score = {0};\nbegin, s: player = x;\ns, a: $ t;\ns, b: $ t;\n\
                a, c: ;\nb, c: ;\nc, d: player = keeper;\na, e: player = keeper;\nb, e: player = keeper;\n\
                d, end: player = keeper;\ne, end: player = keeper;\n";
    let path = std::env::temp_dir().join(format!("rg-distinct-{}.rg", std::process::id()));
    std::fs::write(&path, game).unwrap();
    let p = path.to_str().unwrap();
    let walks = ok(&run(&["perft", p, "1"], ""));
    assert!(walks.contains("depth 1: 3 leaves"), "{walks}");
    let moves = ok(&run(&["perft", p, "1", "--distinct-moves"], ""));
    assert!(moves.contains("depth 1: 1 leaves"), "{moves}");
    let rbg = run(&["perft", "-", "1", "--distinct-moves"], "");
    assert_eq!(rbg.status.code(), Some(1));
    let _ = std::fs::remove_file(&path);
}
