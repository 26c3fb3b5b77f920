//! `rbg match`, `rbg play` and `rbg replay` on tic-tac-toe; `match` and `play`
//! on every game of the library.

use std::path::PathBuf;
use std::process::Output;

mod common;
use common::{game_path, run, run_bytes, temp, text};

fn ttt() -> String {
    game_path("ticTacToe.rbg")
}

fn json(out: &Output) -> serde_json::Value {
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn match_json_counts_and_is_reproducible() {
    let game = ttt();
    let args = [
        "match",
        &game,
        "--agents",
        "mcts:iterations=300,random",
        "--games",
        "6",
        "--seed",
        "3",
        "--json",
    ];
    let a = json(&run(&args, ""));
    assert_eq!(a["games"], 6);
    let agents = a["agents"].as_array().unwrap();
    assert_eq!(agents[0]["agent"], "mcts:iterations=300:c=1.4");
    assert_eq!(agents[1]["agent"], "random");
    for ag in agents {
        let total = ag["wins"].as_u64().unwrap()
            + ag["draws"].as_u64().unwrap()
            + ag["losses"].as_u64().unwrap();
        assert_eq!(total, 6);
    }
    assert_eq!(agents[0]["losses"], 0);
    assert_eq!(agents[1]["wins"], 0);
    assert_eq!(agents[0]["wins"], agents[1]["losses"]);
    // Same seed, same games, also on two threads; the times differ.
    let mut threaded = args.to_vec();
    threaded.extend(["--threads", "2"]);
    let b = json(&run(&threaded, ""));
    for key in [
        "wins",
        "draws",
        "losses",
        "avg_score",
        "ci95",
        "moves",
        "iterations",
    ] {
        for i in 0..2 {
            assert_eq!(a["agents"][i][key], b["agents"][i][key], "{key}");
        }
    }
    assert_eq!(a["avg_length"], b["avg_length"]);
}

#[test]
fn match_text_table() {
    let game = ttt();
    let out = run(
        &["match", &game, "--agents", "random,random", "--games", "3"],
        "",
    );
    assert_eq!(out.status.code(), Some(0));
    let s = text(&out.stdout);
    assert!(
        s.starts_with(&format!("match {game}: 3 games, seed 1, 1 thread(s)\n")),
        "{s}"
    );
    assert!(s.contains("wins draws losses"), "{s}");
    assert!(s.contains("average length"), "{s}");
    assert!(out.stderr.is_empty(), "no progress bar off a terminal");
}

#[test]
fn match_of_no_games_reports_no_results() {
    let game = ttt();
    let out = run(
        &["match", &game, "--agents", "random,random", "--games", "0"],
        "",
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        text(&out.stdout),
        format!("match {game}: 0 games, seed 1, 1 thread(s)\n  no games played: no results\n")
    );
    let j = json(&run(
        &[
            "match",
            &game,
            "--agents",
            "random,mcts",
            "--games",
            "0",
            "--json",
        ],
        "",
    ));
    assert_eq!(j["games"], 0);
    assert!(
        j["avg_length"].is_null() && j["moves_per_s"].is_null(),
        "{j}"
    );
    for a in j["agents"].as_array().unwrap() {
        assert!(a["avg_score"].is_null() && a["ci95"].is_null(), "{a}");
        assert!(a["seconds_per_move"].is_null(), "{a}");
        assert_eq!(a["wins"], 0);
    }
}

#[test]
fn match_numbers_identical_agents_and_reports_flatmc_playouts() {
    let game = ttt();
    let agents = "flatmc:iterations=50,flatmc:iterations=50";
    let out = run(&["match", &game, "--agents", agents, "--games", "2"], "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    let rows: Vec<&str> = s.lines().filter(|l| l.contains("flatmc")).collect();
    assert_eq!(rows.len(), 2, "{s}");
    for (row, label) in rows
        .iter()
        .zip(["flatmc:iterations=50 #1", "flatmc:iterations=50 #2"])
    {
        assert!(row.starts_with(&format!("  {label}  ")), "{s}");
        // The last column, playouts per second, is a number.
        let rate = row.split_whitespace().last().unwrap();
        assert!(rate.parse::<f64>().is_ok_and(|r| r > 0.0), "{s}");
    }
    let j = json(&run(
        &["match", &game, "--agents", agents, "--games", "2", "--json"],
        "",
    ));
    for (i, a) in j["agents"].as_array().unwrap().iter().enumerate() {
        assert_eq!(a["agent"], format!("flatmc:iterations=50 #{}", i + 1));
        // 50 playouts per move with a choice (a last move may be forced).
        let (iters, moves) = (
            a["iterations"].as_u64().unwrap(),
            a["moves"].as_u64().unwrap(),
        );
        assert!(
            iters % 50 == 0 && iters >= 50 * (moves - 1) && iters > 0,
            "{a}"
        );
    }
}

#[test]
fn match_bad_agents_exit_2() {
    let game = ttt();
    for (agents, message) in [
        (
            "alphazero,random",
            "error: --agents: unknown agent \"alphazero\"",
        ),
        ("mcts:time=1x,random", "`time` expects a duration"),
        ("mcts:time=1s,c=2", "unknown agent \"c=2\""),
        ("human,random", "only `rbg play` has human players"),
        (
            "random",
            "the game has 2 player(s) (cross, nought), 1 agent(s) given",
        ),
    ] {
        let out = run(&["match", &game, "--agents", agents], "");
        assert_eq!(out.status.code(), Some(2), "{agents}");
        assert!(
            text(&out.stderr).contains(message),
            "{agents}: {}",
            text(&out.stderr)
        );
    }
}

/// Squares are numbered 1..=9 row by row (as the original manager numbers
/// them: 7 is x0y2); cross's modifiers are `2 3`,
/// nought's `11 12`. Cross: 5 (typed as listing number 5), 1, 3, 7 (the
/// diagonal 3-5-7 wins); nought: 4, 9, 2. Nought first types cross's move,
/// later an occupied square, a number out of range and a word.
const GAME: &str = "5\n1 2 1 3\n4 11 4 12\n1 2 1 3\n5 11 5 12\n99\nfoo\n9 11 9 12\n\
                    3 2 3 3\n2 11 2 12\n7 2 7 3\n";
const MOVES: &str = "5 2 5 3\n4 11 4 12\n1 2 1 3\n9 11 9 12\n3 2 3 3\n2 11 2 12\n7 2 7 3\n";

#[test]
fn play_humans_with_bad_input_and_record() {
    let game = ttt();
    let record = temp("game.txt");
    let out = run(
        &[
            "play",
            &game,
            "--agents",
            "human,human",
            "--record",
            record.to_str().unwrap(),
        ],
        GAME,
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        stdout.contains("   5. puts x at x1y1  [5 2 5 3]\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("`1 2 1 3` is not a legal move here; try again"),
        "{stdout}"
    );
    assert!(
        stdout.contains("`5 11 5 12` is not a legal move here; try again"),
        "{stdout}"
    );
    assert!(
        stdout.contains("no move number 99: choose 1 to 6; try again"),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "`foo` is not a square of this board, a move number or a move text; try again"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("cross plays puts x at x0y2  [7 2 7 3]\n"),
        "{stdout}"
    );
    assert!(
        stdout.ends_with("result: cross 100, nought 0 (cross wins)\n"),
        "{stdout}"
    );
    assert!(!stdout.contains('\x1b'), "no colours off a terminal");
    let written = std::fs::read_to_string(&record).unwrap();
    assert_eq!(
        written,
        format!(
            "// rbg record of ticTacToe.rbg: one move per line (`vertex modifier` pairs)\n{MOVES}"
        )
    );
}

/// The text printed before the first prompt.
fn before_prompt(stdout: &str) -> &str {
    &stdout[..stdout.find(" to move> ").expect("a prompt")]
}

#[test]
fn play_lists_moves_in_board_order_and_takes_squares() {
    let game = ttt();
    // `x1y1` plays the centre; `x2` narrows nought's list to the right
    // column; then `x2y0`, a whole square, plays; then `?` lists all.
    let out = run(
        &["play", &game, "--agents", "human,human"],
        "x1y1\nx2\nx2y0\n?\n",
    );
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    // Row by row, as the board is drawn.
    let first: Vec<&str> = before_prompt(&stdout)
        .lines()
        .filter(|l| l.contains(". puts"))
        .collect();
    assert_eq!(
        first,
        [
            "   1. puts x at x0y0  [1 2 1 3]",
            "   2. puts x at x1y0  [2 2 2 3]",
            "   3. puts x at x2y0  [3 2 3 3]",
            "   4. puts x at x0y1  [4 2 4 3]",
            "   5. puts x at x1y1  [5 2 5 3]",
            "   6. puts x at x2y1  [6 2 6 3]",
            "   7. puts x at x0y2  [7 2 7 3]",
            "   8. puts x at x1y2  [8 2 8 3]",
            "   9. puts x at x2y2  [9 2 9 3]",
        ]
    );
    assert!(
        stdout.contains("(type a move's squares as its description names them, e.g. `x0y0`"),
        "{stdout}"
    );
    assert!(
        stdout.contains("cross plays puts x at x1y1  [5 2 5 3]\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "nought to move>    3. puts o at x2y0  [3 11 3 12]\n   \
             5. puts o at x2y1  [6 11 6 12]\n   8. puts o at x2y2  [9 11 9 12]\nnought to move> "
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("nought plays puts o at x2y0  [3 11 3 12]\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("cross to move>    1. puts x at x0y0  [1 2 1 3]\n   2. puts x at x1y0"),
        "{stdout}"
    );
    // The hint is given once.
    assert_eq!(stdout.matches("(type a move's squares").count(), 1);
}

#[test]
fn play_narrows_long_lists_by_squares() {
    let game = game_path("amazons.rbg");
    let out = run(
        &["play", &game, "--agents", "human,random"],
        "x3y9\nx3y9 x3y5\nx3y9 x3y5 x3y9\n",
    );
    let stdout = text(&out.stdout);
    assert!(
        before_prompt(&stdout)
            .ends_with("2176 legal moves, starting at these squares:\n  x0y6 x9y6 x3y9 x6y9\n\
                        (type a move's squares as its description names them, e.g. `x0y6 x5y1 x4y0`, \
                        or their beginning to narrow the list; or the move's number or move text; \
                        `?` lists every move)\nwhite"),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "white to move> 544 moves begin with `x3y9`; their next squares:\n  x3y1 x3y2 x3y3 "
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("white to move> 32 moves begin with `x3y9 x3y5`; their next squares:\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "white plays whiteAmazon x3y9 -> x3y5, puts arrow at x3y9  [94 2 54 3 94 4 94 5]\n"
        ),
        "{stdout}"
    );
    // No numbered list of thousands of moves.
    assert!(!stdout.contains("  100. "), "{stdout}");
}

#[test]
fn play_hex_is_drawn_as_a_hex_grid_and_takes_cells() {
    let game = game_path("hex.rbg");
    let out = run(&["play", &game, "--agents", "human,random"], "x5y10\n");
    let stdout = text(&out.stdout);
    assert!(
        stdout.starts_with(
            "pieces: . = empty, r = redStone, b = blueStone\n\
             y0            .\ny1           . .\ny2          . . .\n"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("y10 . . . . . . . . . . .\ny11  . . . . . . . . . .\n"),
        "{stdout}"
    );
    let listing = before_prompt(&stdout);
    assert!(
        listing.contains("121 legal moves, starting at these squares:\n  x0y0 x0y1 x1y1 x0y2"),
        "{stdout}"
    );
    assert!(listing.lines().count() < 50, "{listing}");
    assert!(
        stdout.contains("red plays puts redStone at x5y10  [61 2 61 3]\n"),
        "{stdout}"
    );
    assert!(stdout.contains("y10 . . . . . r . . . . .\n"), "{stdout}");
}

#[test]
fn play_skips_lines_that_are_not_utf8() {
    let game = ttt();
    let mut input = b"\xff\xfe\n".to_vec();
    input.extend_from_slice(&vec![b'1'; 5000]);
    input.extend_from_slice(b"\n5\n");
    let out = run_bytes(
        &["play", &game, "--agents", "human,mcts:iterations=50"],
        &input,
    );
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("cross to move> the line is not valid UTF-8; try again\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("cross to move> the line is longer than 4096 bytes; try again\n"),
        "{stdout}"
    );
    assert!(stdout.contains("cross plays puts x at x1y1"), "{stdout}");
    assert_eq!(out.status.code(), Some(1), "then the input ends");
}

#[test]
fn play_checks_the_record_path_before_the_game() {
    let game = ttt();
    let out = run(
        &[
            "play",
            &game,
            "--agents",
            "human,human",
            "--record",
            "/nonexistent/dir/game.txt",
        ],
        "5\n",
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty(), "{}", text(&out.stdout));
    assert!(
        text(&out.stderr)
            .starts_with("/nonexistent/dir/game.txt: error: cannot write the record: "),
        "{}",
        text(&out.stderr)
    );
    let out = run(
        &["play", &game, "--agents", "human,human", "--record", "-"],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "error: --record needs a file: standard output shows the game\n"
    );
    // An abandoned game keeps the moves played so far.
    let record = temp("abandoned.txt");
    let out = run(
        &[
            "play",
            &game,
            "--agents",
            "human,human",
            "--record",
            record.to_str().unwrap(),
        ],
        "5\n",
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(std::fs::read_to_string(&record)
        .unwrap()
        .ends_with(")\n5 2 5 3\n"));
}

#[test]
fn play_and_replay_read_standard_input() {
    let game = ttt();
    let text_of_game = std::fs::read_to_string(&game).unwrap();
    let out = run(&["play", "-", "--agents", "random,random"], &text_of_game);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("result: "));
    let out = run(&["play", "-", "--agents", "human,random"], &text_of_game);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr)
            .contains("the game cannot be read from standard input when a human plays"),
        "{}",
        text(&out.stderr)
    );
    // replay: the record from standard input, or the game.
    let out = run(&["replay", &game, "-"], MOVES);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).ends_with("result: cross 100, nought 0 (cross wins)\n"));
    let file = temp("stdin-replay.txt");
    std::fs::write(&file, MOVES).unwrap();
    let out = run(&["replay", "-", file.to_str().unwrap()], &text_of_game);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).ends_with("result: cross 100, nought 0 (cross wins)\n"));
    let out = run(&["replay", &game, "-"], "5 2 5 3\n5 11 5 12\n");
    assert_eq!(
        text(&out.stderr),
        "<stdin>:2: error: illegal move `5 11 5 12`: not one of the 8 legal moves of nought\n"
    );
    for args in [["replay", "-", "-", ""], ["replay", &game, "-", "--step"]] {
        let args: Vec<&str> = args.iter().copied().filter(|a| !a.is_empty()).collect();
        let out = run(&args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(text(&out.stderr).contains("standard input (`-`) can hold only one of"));
    }
}

#[test]
fn play_end_of_input_abandons_with_exit_1() {
    let game = ttt();
    let out = run(
        &["play", &game, "--agents", "human,mcts:iterations=50"],
        "5\n",
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "end of input: game abandoned after 2 move(s)\n"
    );
    assert!(text(&out.stdout).contains("nought plays puts o at "));
}

#[test]
fn play_agents_only_and_bad_agents() {
    let game = ttt();
    let out = run(
        &[
            "play",
            &game,
            "--agents",
            "mcts:iterations=200,mcts:iterations=200",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).ends_with("result: cross 50, nought 50 (draw between cross, nought)\n")
    );
    let out = run(&["play", &game, "--agents", "human,deepblue"], "");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "error: --agents: unknown agent \"deepblue\" (expected random, flatmc or mcts)\n"
    );
}

#[test]
fn replay_shows_every_move() {
    let game = ttt();
    let file = temp("replay.txt");
    std::fs::write(&file, format!("// a comment\n\n{MOVES}")).unwrap();
    let out = run(&["replay", &game, file.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert_eq!(s.matches("\nmove ").count(), 7, "{s}");
    assert!(
        s.contains("move 7: cross plays puts x at x0y2  [7 2 7 3]\n"),
        "{s}"
    );
    assert!(s.contains("y0 x  o  x\ny1 o  x  .\ny2 x  .  o\n"), "{s}");
    assert!(
        s.ends_with("result: cross 100, nought 0 (cross wins)\n"),
        "{s}"
    );
    // --step waits for Enter before each move; end of input stops quietly.
    let out = run(&["replay", &game, file.to_str().unwrap(), "--step"], "\n\n");
    assert_eq!(out.status.code(), Some(0));
    let s = text(&out.stdout);
    assert!(s.contains("[Enter] move 2: nought plays"), "{s}");
    assert!(!s.contains("move 3:"), "{s}");
}

#[test]
fn replay_bad_lines_give_file_and_line() {
    let game = ttt();
    for (name, body, message) in [
        ("malformed.txt", "// header\n5 2 5 3\n4 11 4 x\n", ":3: error: malformed move `4 11 4 x`: expected a modifier number, found \"x\"\n"),
        ("odd.txt", "5 2 5\n", ":1: error: malformed move `5 2 5`: expected pairs `vertex modifier`, found 3 number(s) in \"5 2 5\"\n"),
        ("illegal.txt", "5 2 5 3\n5 11 5 12\n", ":2: error: illegal move `5 11 5 12`: not one of the 8 legal moves of nought\n"),
        ("range.txt", "10 2 10 3\n", ":1: error: malformed move `10 2 10 3`: vertex 10 out of range 1..=9\n"),
    ] {
        let file = temp(name);
        std::fs::write(&file, body).unwrap();
        let path = file.to_str().unwrap();
        let out = run(&["replay", &game, path], "");
        assert_eq!(out.status.code(), Some(1), "{name}");
        assert_eq!(text(&out.stderr), format!("{path}{message}"), "{name}");
    }
    let file = temp("toolong.txt");
    std::fs::write(&file, format!("{MOVES}1 2 1 3\n")).unwrap();
    let path = file.to_str().unwrap();
    let out = run(&["replay", &game, path], "");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        format!("{path}:8: error: move `1 2 1 3` after the end of the game\n")
    );
}

/// Every description in `games/`, with its file name.
fn library() -> Vec<(String, String)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../games");
    let mut games: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "rbg"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, p.to_string_lossy().into_owned())
        })
        .collect();
    games.sort();
    games
}

#[test]
fn match_and_play_every_library_game() {
    let games = library();
    assert!(games.len() >= 13, "library games: {games:?}");
    for (name, path) in &games {
        let out = run(
            &[
                "match",
                path,
                "--agents",
                "random,random",
                "--games",
                "2",
                "--seed",
                "5",
                "--json",
            ],
            "",
        );
        let m = json(&out);
        assert_eq!(m["games"], 2, "{name}");
        for ag in m["agents"].as_array().unwrap() {
            let total = ag["wins"].as_u64().unwrap()
                + ag["draws"].as_u64().unwrap()
                + ag["losses"].as_u64().unwrap();
            assert_eq!(total, 2, "{name}");
        }
        assert!(m["avg_length"].as_f64().unwrap() >= 1.0, "{name}");

        let out = run(
            &["play", path, "--agents", "random,random", "--seed", "5"],
            "",
        );
        assert_eq!(out.status.code(), Some(0), "{name}: {}", text(&out.stderr));
        let stdout = text(&out.stdout);
        let last = stdout.lines().last().unwrap_or_default();
        assert!(last.starts_with("result: "), "{name}: last line {last:?}");
    }
}
