//! The network protocol of the original RBG game manager (Kowalski, Sironi,
//! Szykuła et al.; `shrumo/rbggamemanager`), both sides.
//!
//! Every message is a string ended by one NUL byte over TCP ([`wire`]). The
//! manager ([`server`]) sends each client the preparation time in seconds
//! (`5.000000`), the game text and the client's player number (1 = the first
//! player of `#players`, in order of connection); the client answers
//! `ready`. Each turn the manager sends the player on move its deadline in
//! seconds, receives its move `vertex modifier vertex modifier ...` (see
//! [`rbg_engine::GameModel::move_to_text`]), checks it and forwards it to
//! every other client. A finished game is followed by `reset` to all
//! clients, and the next game starts without the preparation messages.
//! Vertices in move texts are numbered in declaration order of the `#board`,
//! as the original parser does. [`client`] plays the other side with any
//! [`rbg_agents::Agent`]. What the manager does with late, silent or faulty
//! clients is in [`server`].
//!
//! Logs ([`server::GameRecord::results_line`]) follow the original manager:
//! one line per accepted move and `reset` after each game in the moves log,
//! `time depth available_moves score_1 ... score_n [timeouts=...]` per game
//! in the results log.

pub mod client;
pub mod server;
pub mod wire;
