//! `rbg client HOST PORT --agent SPEC`: a player for the original RBG game
//! manager's protocol (see the `rbg-net` crate).

use std::net::TcpStream;
use std::time::Duration;

use clap::Args;
use rbg_net::client::{play, ClientConfig};

/// Arguments of `rbg client`.
#[derive(Args, Debug)]
pub struct ClientArgs {
    /// Host of the game manager.
    pub host: String,
    /// Port of the game manager.
    pub port: u16,
    /// The agent, e.g. `random` or `mcts:time=1s`.
    #[arg(long, default_value = "random")]
    pub agent: String,
    /// Seed of the agent's random generator.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Seconds kept back from each deadline for sending the move.
    #[arg(
        long,
        default_value_t = 0.1,
        value_parser = super::parse_seconds,
        allow_negative_numbers = true
    )]
    pub margin: f64,
}

/// Runs the command; returns the process exit code (0 when the manager
/// ended the match, 1 on a protocol or connection error, 2 on bad
/// arguments).
pub fn run(args: &ClientArgs) -> i32 {
    let mut agent = match rbg_agents::from_spec(&args.agent, args.seed) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: --agent: {e}");
            return 2;
        }
    };
    let Ok(margin) = Duration::try_from_secs_f64(args.margin) else {
        eprintln!("error: --margin must be a non-negative number of seconds");
        return 2;
    };
    let stream = match TcpStream::connect((args.host.as_str(), args.port)) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: cannot connect to {}:{}: {e}", args.host, args.port);
            return 1;
        }
    };
    match play(stream, agent.as_mut(), &ClientConfig { margin }) {
        Ok(report) => {
            eprintln!(
                "rbg client: player {}, {} game(s) finished, {} interrupted",
                report.player + 1,
                report.finished.len(),
                report.interrupted
            );
            for (i, scores) in report.finished.iter().enumerate() {
                let s: Vec<String> = scores.iter().map(|v| v.to_string()).collect();
                eprintln!("game {}: scores {}", i + 1, s.join(" "));
            }
            0
        }
        Err(e) => {
            eprintln!("error: {e}");
            1
        }
    }
}
