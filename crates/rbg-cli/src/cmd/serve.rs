//! `rbg serve GAME --port P --players N`: the game manager of the original
//! RBG protocol (see the `rbg-net` crate).

use std::fs::File;
use std::io::Write;
use std::net::TcpListener;

use clap::Args;
use rbg_engine::GameModel;
use rbg_net::server::{serve, Logs, ServerConfig, DEFAULT_WAIT_LIMIT};

use super::{read_source, MAX_SECONDS};

/// Arguments of `rbg serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Game description (`-` for standard input), sent to the clients as
    /// given.
    pub game: String,
    /// TCP port to listen on (0 picks a free one; the address is printed).
    #[arg(long)]
    pub port: u16,
    /// Number of clients to wait for: the game's number of players.
    #[arg(long)]
    pub players: usize,
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1")]
    pub bind: String,
    /// Seconds per move (default: no limit).
    #[arg(long, allow_negative_numbers = true)]
    pub deadline: Option<f64>,
    /// Seconds the clients have to answer `ready` (default: the deadline).
    #[arg(long, allow_negative_numbers = true)]
    pub preparation: Option<f64>,
    /// Seconds to wait for a `ready` or a move past its deadline (past the
    /// request without one); a client silent for longer forfeits and the
    /// match ends.
    #[arg(long, default_value_t = DEFAULT_WAIT_LIMIT, allow_negative_numbers = true)]
    pub wait_limit: f64,
    /// Number of games to play.
    #[arg(long, default_value_t = 1)]
    pub games: usize,
    /// Log every accepted move, and `reset` after each game, to this file
    /// (`-` for standard output).
    #[arg(long)]
    pub log_moves: Option<String>,
    /// Log one line per game, `time depth available_moves score_1 ...`, to
    /// this file (`-` for standard output).
    #[arg(long)]
    pub log_results: Option<String>,
}

/// Opens a log destination (`-` or `stdout` = standard output).
fn open_log(path: &Option<String>) -> Result<Option<Box<dyn Write>>, String> {
    match path.as_deref() {
        None => Ok(None),
        Some("-" | "stdout") => Ok(Some(Box::new(std::io::stdout()))),
        Some(p) => File::create(p)
            .map(|f| Some(Box::new(f) as Box<dyn Write>))
            .map_err(|e| format!("{p}: error: cannot create: {e}")),
    }
}

fn positive(what: &str, v: Option<f64>) -> Result<(), String> {
    match v {
        Some(s) if !(s.is_finite() && s > 0.0 && s <= MAX_SECONDS) => Err(format!(
            "error: --{what} must be a positive number of seconds, at most {MAX_SECONDS}, got {s}"
        )),
        _ => Ok(()),
    }
}

/// Runs the command; returns the process exit code (0: all games played,
/// 1: the match was cut short by a client's fault, 2: bad arguments or I/O
/// errors).
pub fn run(args: &ServeArgs) -> i32 {
    match run_inner(args) {
        Ok(code) => code,
        Err(msg) => {
            eprintln!("{msg}");
            2
        }
    }
}

fn run_inner(args: &ServeArgs) -> Result<i32, String> {
    positive("deadline", args.deadline)?;
    positive("preparation", args.preparation)?;
    positive("wait-limit", Some(args.wait_limit))?;
    let source = read_source(&args.game)?;
    let game = GameModel::load(&source).map_err(|d| d.to_string())?;
    // `prepare` prints why it failed.
    let Some(game) = super::prepare(game) else {
        return Ok(2);
    };
    if args.players != game.num_players() {
        return Err(format!(
            "error: --players {} but {} declares {} player(s)",
            args.players,
            args.game,
            game.num_players()
        ));
    }
    let config = ServerConfig {
        game_text: source.text.clone(),
        deadline: args.deadline,
        preparation: args.preparation.or(args.deadline),
        wait_limit: args.wait_limit,
        games: args.games,
    };
    let mut moves_log = open_log(&args.log_moves)?;
    let mut results_log = open_log(&args.log_results)?;
    let listener = TcpListener::bind((args.bind.as_str(), args.port))
        .map_err(|e| format!("error: cannot listen on {}:{}: {e}", args.bind, args.port))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    eprintln!(
        "rbg serve: listening on {addr}, waiting for {} client(s)",
        args.players
    );
    let mut stderr = std::io::stderr();
    let mut logs = Logs {
        moves: moves_log.as_deref_mut().map(|w| w as &mut dyn Write),
        results: results_log.as_deref_mut().map(|w| w as &mut dyn Write),
        events: Some(&mut stderr),
    };
    let report = serve(&listener, &game, &config, &mut logs).map_err(|e| format!("error: {e}"))?;
    let names: Vec<&str> = (0..game.num_players())
        .map(|i| game.player_name(i))
        .collect();
    for (i, g) in report.games.iter().enumerate() {
        eprintln!("game {}: {}", i + 1, g.summary(&names));
    }
    Ok(match &report.aborted {
        Some(why) => {
            eprintln!("match stopped after {} game(s): {why}", report.games.len());
            1
        }
        None => 0,
    })
}
