//! `rbg play GAME --agents human,mcts:time=2s`: play in the terminal.

use std::io::{BufRead, Write};

use clap::Args;
use rbg_agents::{from_spec, Agent, Playthrough};
use rbg_engine::GameModel;

use super::board::{colour_wanted, View};
use super::load_model;

/// Arguments of `rbg play`.
#[derive(Args, Debug)]
#[command(after_help = concat!(
    "AGENTS (one per player, comma-separated, in the order of #players):\n",
    "human | random | flatmc[:PARAMS] | mcts[:PARAMS], PARAMS are key=value separated by `:`\n",
    "  time=DURATION (500ms, 1s; default 1s), iterations=N, playout=random, depth=N,\n",
    "  c=X (mcts, default 1.4), reuse=BOOL (mcts, default true)\n\n",
    "A human answers with the number of a listed move or its move text (pairs\n",
    "`vertex modifier`, as in --record files). End of input abandons the game (exit 1)."
))]
pub struct PlayArgs {
    /// Game description.
    pub game: String,
    /// The players, one per player of the game.
    #[arg(long, required = true)]
    pub agents: String,
    /// Seed of the agents' random generators.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Write the moves played to this file (one move text per line).
    #[arg(long)]
    pub record: Option<String>,
}

/// A seat: a person at the terminal or an agent.
enum Seat {
    Human,
    Agent(Box<dyn Agent>),
}

/// Parses the `--agents` list (agent specs or `human`) for a game with
/// `players` players. Errors are for the user.
fn seats(list: &str, seed: u64, players: usize) -> Result<Vec<Seat>, String> {
    let specs: Vec<&str> = list.split(',').map(str::trim).collect();
    if specs.len() != players {
        return Err(format!(
            "--agents: the game has {players} player(s), {} agent(s) given",
            specs.len()
        ));
    }
    specs
        .iter()
        .enumerate()
        .map(|(i, spec)| match *spec {
            "human" => Ok(Seat::Human),
            _ => from_spec(spec, seed.wrapping_add(i as u64))
                .map(Seat::Agent)
                .map_err(|e| format!("--agents: {e}")),
        })
        .collect()
}

/// The header of a record file.
pub fn record_header(game_path: &str) -> String {
    let name = std::path::Path::new(game_path)
        .file_name()
        .map_or(game_path.into(), |n| n.to_string_lossy());
    format!("// rbg record of {name}: one move per line (`vertex modifier` pairs)\n")
}

/// What a human typed: the index of a legal move, or why not.
fn parse_choice(
    game: &GameModel,
    p: &Playthrough,
    order: &[usize],
    line: &str,
) -> Result<usize, String> {
    let line = line.trim();
    let n = p.moves().len();
    if !line.contains(char::is_whitespace) {
        return match line.parse::<usize>() {
            Ok(i) if (1..=n).contains(&i) => Ok(order[i - 1]),
            Ok(i) => Err(format!("no move number {i}: choose 1 to {n}")),
            Err(_) => Err(format!(
                "expected a move number (1 to {n}) or a move text such as `{}`",
                game.move_to_text(p.moves().get(order[0]))
            )),
        };
    }
    let m = game.parse_move(line).map_err(|e| e.to_string())?;
    p.find(m.apps())
        .ok_or_else(|| format!("`{line}` is not a legal move here"))
}

/// Runs the command; returns the process exit code.
pub fn run(args: &PlayArgs) -> i32 {
    let Some(game) = load_model(&args.game) else {
        return 1;
    };
    let mut seats = match seats(&args.agents, args.seed, game.num_players()) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let view = View::new(&game, colour_wanted());
    let mut p = Playthrough::new(&game);
    for seat in &mut seats {
        if let Seat::Agent(a) = seat {
            a.new_game(&game, p.state());
        }
    }
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    print!("{}", view.legend());
    println!("{}", view.render(&p));
    let mut abandoned = false;
    while let Some(player) = p.player() {
        let i = match &mut seats[player] {
            Seat::Agent(a) => {
                let m = a.select(p.state(), p.moves(), None);
                p.find(m.apps()).expect("agents choose legal moves")
            }
            Seat::Human => match ask(&game, &view, &p, player, &mut input) {
                Some(i) => i,
                None => {
                    abandoned = true;
                    break;
                }
            },
        };
        let before = p.state().clone();
        let m = p.moves().get(i).to_vec();
        for seat in &mut seats {
            if let Seat::Agent(a) = seat {
                a.observe(&before, &m);
            }
        }
        p.play(i);
        println!(
            "{} plays {}\n",
            view.player(player),
            view.describe(&before, p.state(), &m)
        );
        println!("{}", view.render(&p));
    }
    if let Some(path) = &args.record {
        let mut text = record_header(&args.game);
        for m in p.history() {
            text.push_str(&game.move_to_text(m.apps()));
            text.push('\n');
        }
        if let Err(e) = std::fs::write(path, text) {
            eprintln!("{path}: error: cannot write the record: {e}");
            return 1;
        }
    }
    if abandoned {
        eprintln!(
            "end of input: game abandoned after {} move(s)",
            p.history().len()
        );
        return 1;
    }
    println!("{}", view.result(p.state()));
    0
}

/// The legal moves' indices in the order they are listed: by the vertices
/// and modifiers they apply (so by square on generated boards).
fn listing_order(p: &Playthrough) -> Vec<usize> {
    let mut order: Vec<usize> = (0..p.moves().len()).collect();
    order.sort_by_key(|&i| {
        p.moves()
            .get(i)
            .iter()
            .map(|a| (a.vertex, a.action))
            .collect::<Vec<_>>()
    });
    order
}

/// Lists the legal moves and reads a choice until a legal one; `None` at
/// the end of input.
fn ask(
    game: &GameModel,
    view: &View,
    p: &Playthrough,
    player: usize,
    input: &mut impl BufRead,
) -> Option<usize> {
    let order = listing_order(p);
    let mut after = p.state().clone();
    let mut reasoner = game.reasoner();
    for (k, &i) in order.iter().enumerate() {
        let m = p.moves().get(i);
        after.clone_from(p.state());
        reasoner.apply(&mut after, m);
        println!("{:>4}. {}", k + 1, view.describe(p.state(), &after, m));
    }
    loop {
        print!("{} to move> ", view.player(player));
        std::io::stdout().flush().ok();
        let mut line = String::new();
        match input.read_line(&mut line) {
            Ok(0) | Err(_) => {
                println!();
                return None;
            }
            Ok(_) if line.trim().is_empty() => continue,
            Ok(_) => match parse_choice(game, p, &order, &line) {
                Ok(i) => return Some(i),
                Err(e) => println!("{e}; try again"),
            },
        }
    }
}
