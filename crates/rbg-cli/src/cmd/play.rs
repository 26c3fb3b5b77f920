//! `rbg play GAME --agents human,mcts:time=2s`: play in the terminal.
//!
//! In a game of imperfect information nobody is shown the state: after
//! every move each human player is told what they may see of it
//! ([`gg_core::Reasoner::observe_move`]), and on their turn they choose
//! among their legal moves' texts.

use std::io::Write;

use clap::Args;
use gg_core::{Game, Reasoner, Turn};
use gg_games::with_game;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use rbg_agents::{from_spec, Agent, Playthrough, DEFAULT_MAX_LENGTH};

use super::board::colour_wanted;
use super::view::{Presented, Show};
use super::{load_any, parse_max_length, print_error};

/// Arguments of `rbg play`.
#[derive(Args, Debug)]
#[command(after_help = concat!(
    "AGENTS (one per player, comma-separated, in the order of #players):\n",
    "human | random | flatmc[:PARAMS] | mcts[:PARAMS], PARAMS are key=value separated by `:`\n",
    "  time=DURATION (500ms, 1s; default 1s), iterations=N, playout=random, depth=N,\n",
    "  c=X (mcts, default 1.4), reuse=BOOL (mcts, default true)\n\n",
    "A human answers with the squares a move's description names (`x4y6 x4y4`), or\n",
    "their beginning to narrow the list; the number of a listed move; or its move\n",
    "text (pairs `vertex modifier` in RBG, tags in RG, as in --record files). `?`\n",
    "lists every move. Long lists are shown as the squares that narrow them. End of\n",
    "input abandons the game (exit 1). In games of imperfect information each human\n",
    "is shown only what they may see of every move, never the state."
))]
pub struct PlayArgs {
    /// Game description (`.rbg`, `.rg`, `.hrg`; `-` for RBG on standard input, when
    /// no human plays).
    pub game: String,
    /// The players, one per player of the game.
    #[arg(long, required = true)]
    pub agents: String,
    /// Seed of the agents' random generators (and of chance).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Write the moves played to this file (one move text per line, as they
    /// are played); it is created before the game starts.
    #[arg(long)]
    pub record: Option<String>,
    /// End the game after this many moves (scores as they stand).
    #[arg(
        long,
        default_value_t = DEFAULT_MAX_LENGTH,
        value_parser = parse_max_length,
        allow_negative_numbers = true
    )]
    pub max_length: u64,
}

/// A seat: a person at the terminal or an agent.
enum Seat<G: Game> {
    Human,
    Agent(Box<dyn Agent<G>>),
}

/// Parses the `--agents` list (agent specs or `human`) for a game with
/// `players` players. Errors are for the user.
fn seats<G: Game>(list: &str, seed: u64, players: usize) -> Result<Vec<Seat<G>>, String> {
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

/// The header of a record file; `notation` says how moves are written.
pub fn record_header(game_path: &str, notation: &str) -> String {
    let name = std::path::Path::new(game_path)
        .file_name()
        .map_or(game_path.into(), |n| n.to_string_lossy());
    format!("// rbg record of {name}: one move per line ({notation})\n")
}

/// Runs the command; returns the process exit code.
pub fn run(args: &PlayArgs) -> i32 {
    let Some(game) = load_any(&args.game) else {
        return 1;
    };
    with_game!(&game, g => play(args, g))
}

/// Plays `game` with the seats of `args`.
fn play<G: Presented>(args: &PlayArgs, game: &G) -> i32 {
    let mut seats = match seats::<G>(&args.agents, args.seed, game.num_players()) {
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
    let view = game.view(colour_wanted());
    let mut record = match args
        .record
        .as_deref()
        .map(|path| Record::create(path, &record_header(&args.game, view.notation())))
        .transpose()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    let mut record_error = None;
    let fail = |e: G::Error| {
        print_error(&args.game, &game.error_text(&e));
        1
    };
    let hidden = !game.perfect_information();
    let mut p = match Playthrough::new(game) {
        Ok(p) => p.with_max_length(args.max_length),
        Err(e) => return fail(e),
    };
    let mut chance = SmallRng::seed_from_u64(args.seed);
    for seat in &mut seats {
        if let Seat::Agent(a) = seat {
            a.new_game(game, p.state());
        }
    }
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut hint = true;
    print!("{}", view.legend());
    if !hidden {
        println!("{}", view.render(p.state(), p.turn()));
    }
    let mut abandoned = false;
    loop {
        let i = match p.turn() {
            Turn::Over => break,
            Turn::Chance => chance.gen_range(0..p.moves().len()),
            Turn::Player(player) => match &mut seats[player] {
                Seat::Agent(a) => match a.select(p.state(), p.moves(), None) {
                    Ok(i) => i,
                    Err(e) => return fail(e),
                },
                Seat::Human => match view.ask(&mut p, player, hidden, &mut input, &mut hint) {
                    Ok(Some(i)) => i,
                    Ok(None) => {
                        abandoned = true;
                        break;
                    }
                    Err(e) => return fail(e),
                },
            },
        };
        let who = match p.turn() {
            Turn::Player(player) => view.player(player),
            _ => "chance".to_string(),
        };
        let before = p.state().clone();
        let m = p.moves().get(i).to_vec();
        for seat in &mut seats {
            if let Seat::Agent(a) = seat {
                a.observe(&before, &m);
            }
        }
        if let Err(e) = p.play(i) {
            print_error(&args.game, &game.error_text(&e));
            eprintln!(
                "error: the game cannot go on after {} move(s)",
                p.history().len() + 1
            );
            return 1;
        }
        if let Some(r) = record.as_mut().filter(|_| record_error.is_none()) {
            record_error = r.push(&game.move_text(&m)).err();
        }
        if hidden {
            if let Err(e) = tell_humans(view.as_ref(), &mut p, &seats, &before, &m, &who) {
                return fail(e);
            }
        } else {
            println!("{who} plays {}\n", view.describe(&before, p.state(), &m));
            println!("{}", view.render(p.state(), p.turn()));
        }
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
    if p.is_cut() {
        println!(
            "the game reached the maximum length of {} moves and ends here \
             (scores as they stand; --max-length)",
            args.max_length
        );
    }
    println!("{}", view.result(p.state()));
    0
}

/// Tells every human player what they see of move `m`, played by `who` in
/// `before` (imperfect information).
fn tell_humans<G: Game>(
    view: &dyn Show<G>,
    p: &mut Playthrough<G>,
    seats: &[Seat<G>],
    before: &G::State,
    m: &[G::Atom],
    who: &str,
) -> Result<(), G::Error> {
    for (h, seat) in seats.iter().enumerate() {
        if let Seat::Human = seat {
            let seen = p.reasoner().observe_move(before, m, h)?;
            println!("[to {}] {who} moved: `{seen}`", view.player(h));
        }
    }
    println!();
    Ok(())
}

/// The `--record` file, written move by move.
struct Record {
    path: String,
    file: std::fs::File,
}

impl Record {
    /// Creates (or truncates) the file and writes the header; errors are
    /// for the user.
    fn create(path: &str, header: &str) -> Result<Record, String> {
        let fail = |e: std::io::Error| format!("{path}: error: cannot write the record: {e}");
        let mut file = std::fs::File::create(path).map_err(fail)?;
        file.write_all(header.as_bytes()).map_err(fail)?;
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
