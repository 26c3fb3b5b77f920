//! The native engine against the interpreter: random games of every suite
//! game (and our own games), checking at every step that both give the
//! same legal moves in the same order, the same terminal test and the same
//! state after each move (with the keeper's completion).

use std::path::PathBuf;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use rbg_engine::{GameModel, MoveList};

/// The suite's games (not `nsplit/`, which would double the time) and ours.
fn suite_games() -> Vec<PathBuf> {
    let own = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../games");
    let suite = testkit::rbg_suite("games").map(|d| d.join("games"));
    testkit::rbg_files_in(suite.into_iter().chain([own]))
}

/// Plays `games` random games of `text` with both engines; returns the
/// number of states compared.
fn compare(name: &str, text: &str, games: usize, max_moves: usize) -> usize {
    let interp = GameModel::from_text(text).expect("description parses");
    let native = rbg_jit::compile(&interp).expect("code generation");
    let (mut ri, mut rn) = (interp.reasoner(), native.reasoner());
    let (mut mi, mut mn) = (MoveList::default(), MoveList::default());
    let mut rng = SmallRng::seed_from_u64(17);
    let mut states = 0;
    let si0 = interp.initial_state();
    let sn0 = native.initial_state();
    assert_eq!(si0, sn0, "{name}: initial states differ");
    for _ in 0..games {
        let (mut si, mut sn) = (si0.clone(), sn0.clone());
        for step in 0..max_moves {
            states += 1;
            ri.legal_moves(&si, &mut mi).unwrap();
            rn.legal_moves(&sn, &mut mn).unwrap();
            let a: Vec<&[_]> = mi.iter().collect();
            let b: Vec<&[_]> = mn.iter().collect();
            assert_eq!(a, b, "{name}: moves differ at step {step}");
            assert_eq!(ri.is_terminal(&si), rn.is_terminal(&sn), "{name}: terminal");
            if mi.is_empty() {
                break;
            }
            let m = mi.get(rng.gen_range(0..mi.len())).to_vec();
            let ki = ri.apply(&mut si, &m).unwrap();
            let kn = rn.apply(&mut sn, &m).unwrap();
            assert_eq!(ki, kn, "{name}: keeper outcome at step {step}");
            assert_eq!(si, sn, "{name}: states differ after step {step}");
            assert_eq!(interp.scores(&si), native.scores(&sn));
            if !ki || interp.current_player(&si).is_none() {
                break;
            }
        }
    }
    states
}

/// Unusual but valid descriptions: loops on a ring, modifiers and nested
/// patterns inside patterns, arithmetic that overflows or divides by zero,
/// more than 64 pieces (piece sets as tables), boards of several bit-set
/// words, a keeper that gets stuck.
#[test]
fn native_equals_interpreter_on_unusual_descriptions() {
    let ring = "#board = v0[e]{r:v1} v1[e]{r:v2} v2[x]{r:v3} v3[e]{r:v0}\n";
    let many: Vec<String> = (0..70).map(|i| format!("p{i}")).collect();
    let row = |n: usize, p: &str| format!("[{}]", vec![p; n].join(", "));
    let big_board = format!(
        "#board = rectangle(up, down, left, right, {} {} {})\n",
        row(70, "x"),
        row(70, "e"),
        row(70, "p69")
    );
    let cases = [
        // Stars around a ring (the walk's marks end them), a modifier in a
        // pattern, a nested pattern.
        format!(
            "#players = a(5), b(5)\n#pieces = e, x\n#variables = v(5)\n{ring}\
             #rules = (->a (r)* {{e}} {{? [x] r {{! r {{x}}}}}} [x] [$ v = v + 1] ->b (r)* {{x}} [e])*"
        ),
        // Overflow, division by zero and out-of-bounds assignments fail.
        format!(
            "#players = a(9), b(9)\n#pieces = e, x\n#variables = v(9)\n{ring}\
             #rules = (->a (r)* ({{$ v / (v - 2) >= 0}} [x] + {{$ (v + 1) * 2147483647 * 2147483647 * 2147483647 > 0}} [e] \
             + [$ v = v * 7 + 1] + {{$ (v - 3) * (v - 3) > 2}} [$ a = v]) ->b (r)* [e])*"
        ),
        // More than 64 pieces; 210 vertices (4 words per piece list).
        format!(
            "#players = a(1), b(1)\n#pieces = e, x, {}\n#variables =\n{big_board}\
             #rules = (->a ((up* + down*)(left* + right*)) {{x, p65}} [p66] right ({{e}} + {{p69, p66}} [x]) \
             ->b ((up* + down*)(left* + right*)) {{p66}} [e] (up {{e, p69}} + down {{x}}) ->> {{}})*",
            many.join(", ")
        ),
        // The keeper gets stuck once no `x` is left.
        format!(
            "#players = a(1)\n#pieces = e, x\n#variables =\n{ring}\
             #rules = (->a (r)* {{x}} [e] r [x] ->> (r)* {{? r {{x}}}} [x])*"
        ),
    ];
    for (i, text) in cases.iter().enumerate() {
        let n = compare(&format!("case {i}"), text, 4, 60);
        assert!(n > 3, "case {i}: only {n} states");
    }
}

#[test]
fn native_equals_interpreter_on_every_game() {
    let handle = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(|| {
            let mut total = 0;
            for path in suite_games() {
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                let text = std::fs::read_to_string(&path).unwrap();
                // Arimaa's moves are huge: fewer steps.
                let (games, max) = if name.starts_with("arimaa") {
                    (1, 3)
                } else {
                    (3, 300)
                };
                let n = compare(&name, &text, games, max);
                eprintln!("{name}: {n} states agree");
                total += n;
            }
            assert!(total > 0);
        })
        .unwrap();
    handle.join().unwrap();
}
