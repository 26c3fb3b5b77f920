//! The clients' connections: taking the seats, refusing extra
//! connections, waiting for messages with deadlines and wait limits.

use std::io;
use std::net::TcpListener;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::record::{Events, Fault};
use crate::wire::{quote, Conn, RecvError, MAX_MESSAGE_LEN};

/// Accepts `names.len()` clients on `listener`: the `i`-th to connect
/// plays player `i + 1`.
pub(super) fn take_seats(
    listener: &TcpListener,
    names: &[&str],
    events: &Events,
) -> io::Result<Vec<Conn>> {
    let mut seats = Vec::with_capacity(names.len());
    while seats.len() < names.len() {
        let (stream, addr) = listener.accept()?;
        // A connection that cannot be configured is dropped; wait for another.
        match Conn::new(stream) {
            Ok(conn) => {
                events.line(&format!(
                    "seat {} ({}) taken by {addr}",
                    seats.len() + 1,
                    names[seats.len()]
                ));
                seats.push(conn);
            }
            Err(e) => events.line(&format!("connection from {addr} dropped: {e}")),
        }
    }
    Ok(seats)
}

/// How often the refusing loop looks at the listener.
const POLL: Duration = Duration::from_millis(20);

/// Accepts and closes every connection on `listener` until `stop` is set,
/// logging each; counts them in `refused`. The listener is non-blocking
/// meanwhile.
pub(super) fn refuse_extra(
    listener: &TcpListener,
    seats: usize,
    stop: &AtomicBool,
    refused: &AtomicUsize,
    events: &Events,
) {
    if let Err(e) = listener.set_nonblocking(true) {
        events.line(&format!(
            "cannot watch for extra connections ({e}); they will wait unanswered"
        ));
        return;
    }
    while !stop.load(Ordering::Relaxed) {
        match listener.accept() {
            Ok((stream, addr)) => {
                let _ = stream.shutdown(std::net::Shutdown::Both);
                refused.fetch_add(1, Ordering::Relaxed);
                events.line(&format!(
                    "connection from {addr} closed: all {seats} seat(s) are taken"
                ));
            }
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => std::thread::sleep(POLL),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => {
                // e.g. out of file descriptors: try again later.
                events.line(&format!("accepting an extra connection failed: {e}"));
                std::thread::sleep(POLL);
            }
        }
    }
    let _ = listener.set_nonblocking(false);
}

/// How long to wait for one message: its deadline (`None`: none) plus the
/// wait limit, from `asked`. `None` when that is too far to represent.
pub(super) fn wait_until(
    asked: Instant,
    deadline: Option<f64>,
    wait_limit: f64,
) -> Option<Instant> {
    let secs = deadline.unwrap_or(0.0) + wait_limit;
    asked.checked_add(Duration::try_from_secs_f64(secs).ok()?)
}

/// Describes a wait of `deadline` plus `wait_limit` seconds.
fn waited(deadline: Option<f64>, wait_limit: f64) -> String {
    match deadline {
        Some(d) => format!("{d} s deadline + {wait_limit} s wait limit"),
        None => format!("{wait_limit} s wait limit, no deadline"),
    }
}

/// The fault and its detail for a failed receive of a `what` (`move`,
/// `ready`).
pub(super) fn recv_fault(
    e: RecvError,
    what: &str,
    deadline: Option<f64>,
    wait_limit: f64,
) -> (Fault, String) {
    match e {
        RecvError::Timeout => (
            Fault::Timeout,
            format!(
                "sent no {what} in time ({}); the match cannot go on without it",
                waited(deadline, wait_limit)
            ),
        ),
        RecvError::TooLong => (
            Fault::TooLong,
            format!("sent more than {MAX_MESSAGE_LEN} bytes without a NUL (message too long)"),
        ),
        RecvError::Closed => (Fault::Disconnect, "closed the connection".to_string()),
        RecvError::Io(e) => (Fault::Disconnect, format!("connection error: {e}")),
        RecvError::NotUtf8(bytes) => (
            Fault::Malformed,
            format!("sent {} as its {what}, which is not UTF-8", quote(&bytes)),
        ),
    }
}
