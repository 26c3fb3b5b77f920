//! `rbg play GAME --agents human,mcts:time=2s`: play in the terminal.

use std::io::Write;

use clap::Args;
use rbg_agents::{from_spec, Agent, Playthrough};

use super::board::{colour_wanted, View};
use super::choose::ask;
use super::load_model;

/// Arguments of `rbg play`.
#[derive(Args, Debug)]
#[command(after_help = concat!(
    "AGENTS (one per player, comma-separated, in the order of #players):\n",
    "human | random | flatmc[:PARAMS] | mcts[:PARAMS], PARAMS are key=value separated by `:`\n",
    "  time=DURATION (500ms, 1s; default 1s), iterations=N, playout=random, depth=N,\n",
    "  c=X (mcts, default 1.4), reuse=BOOL (mcts, default true)\n\n",
    "A human answers with the squares a move's description names (`x4y6 x4y4`), or\n",
    "their beginning to narrow the list; the number of a listed move; or its move\n",
    "text (pairs `vertex modifier`, as in --record files). `?` lists every move.\n",
    "Long lists are shown as the squares that narrow them. End of input abandons\n",
    "the game (exit 1)."
))]
pub struct PlayArgs {
    /// Game description (`-` for standard input, when no human plays).
    pub game: String,
    /// The players, one per player of the game.
    #[arg(long, required = true)]
    pub agents: String,
    /// Seed of the agents' random generators.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Write the moves played to this file (one move text per line, as they
    /// are played); it is created before the game starts.
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
    let humans = seats.iter().any(|s| matches!(s, Seat::Human));
    if humans && args.game == "-" {
        eprintln!(
            "error: the game cannot be read from standard input when a human plays: \
             standard input carries the moves"
        );
        return 2;
    }
    if args.record.as_deref() == Some("-") {
        eprintln!("error: --record needs a file: standard output shows the game");
        return 2;
    }
    let mut record = match args
        .record
        .as_deref()
        .map(|path| Record::create(path, &args.game))
        .transpose()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    let mut record_error = None;
    let view = View::new(&game, colour_wanted());
    let mut p = Playthrough::new(&game);
    for seat in &mut seats {
        if let Seat::Agent(a) = seat {
            a.new_game(&game, p.state());
        }
    }
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut hint = true;
    print!("{}", view.legend());
    println!("{}", view.render(&p));
    let mut abandoned = false;
    while let Some(player) = p.player() {
        let i = match &mut seats[player] {
            Seat::Agent(a) => {
                let m = a.select(p.state(), p.moves(), None);
                p.find(m.apps()).expect("agents choose legal moves")
            }
            Seat::Human => match ask(&game, &view, &p, player, &mut input, &mut hint) {
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
        if let Some(r) = record.as_mut().filter(|_| record_error.is_none()) {
            record_error = r.push(&game.move_to_text(&m)).err();
        }
        println!(
            "{} plays {}\n",
            view.player(player),
            view.describe(&before, p.state(), &m)
        );
        println!("{}", view.render(&p));
    }
    if let Some(e) = record_error {
        eprintln!("{e}");
        return 1;
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

/// The `--record` file, written move by move.
struct Record {
    path: String,
    file: std::fs::File,
}

impl Record {
    /// Creates (or truncates) the file and writes the header; errors are
    /// for the user.
    fn create(path: &str, game_path: &str) -> Result<Record, String> {
        let fail = |e: std::io::Error| format!("{path}: error: cannot write the record: {e}");
        let mut file = std::fs::File::create(path).map_err(fail)?;
        file.write_all(record_header(game_path).as_bytes())
            .map_err(fail)?;
        Ok(Record {
            path: path.to_string(),
            file,
        })
    }

    /// Appends one move text.
    fn push(&mut self, text: &str) -> Result<(), String> {
        writeln!(self.file, "{text}")
            .map_err(|e| format!("{}: error: cannot write the record: {e}", self.path))
    }
}
