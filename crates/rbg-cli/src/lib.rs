//! The `rbg` command's subcommands as a library: the binary (`main.rs`)
//! parses the command line and calls them; other front ends (the Python
//! package) reuse their shared parts, such as the board drawing of
//! [`cmd::view`].

pub mod cmd;
