//! Message framing: NUL-terminated strings over TCP, with length caps and
//! deadlines, and the protocol's number formats.

use std::fmt;
use std::io::{self, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// Longest move, deadline, `ready` or `reset` message accepted (bytes,
/// without the NUL).
pub const MAX_MESSAGE_LEN: usize = 1 << 20;

/// Longest game text a client accepts (bytes, without the NUL).
pub const MAX_GAME_TEXT_LEN: usize = 64 << 20;

/// How long a write may block (a client that stops reading is treated as
/// gone).
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(30);

/// Seconds above which a deadline or preparation time means "no limit" (the
/// original manager sends `std::to_string(DBL_MAX)` when it has none).
pub const UNLIMITED_SECONDS: f64 = 1e9;

/// Why no message was received.
#[derive(Debug)]
pub enum RecvError {
    /// The peer closed the connection (possibly in the middle of a message).
    Closed,
    /// The deadline passed before a whole message arrived.
    Timeout,
    /// More than the allowed number of bytes arrived without a NUL; the
    /// stream can no longer be split into messages.
    TooLong,
    /// A whole message arrived but is not UTF-8 (it has been consumed; here
    /// are its bytes).
    NotUtf8(Vec<u8>),
    /// Another I/O error.
    Io(io::Error),
}

impl fmt::Display for RecvError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecvError::Closed => f.write_str("connection closed"),
            RecvError::Timeout => f.write_str("deadline passed"),
            RecvError::TooLong => f.write_str("message too long"),
            RecvError::NotUtf8(b) => write!(f, "message {} is not UTF-8", quote(b)),
            RecvError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for RecvError {}

/// One end of a protocol connection: a TCP stream and the bytes read past
/// the last message.
pub struct Conn {
    stream: TcpStream,
    buf: Vec<u8>,
}

impl Conn {
    /// Wraps a connected stream (sets `TCP_NODELAY` and the write timeout).
    pub fn new(stream: TcpStream) -> io::Result<Conn> {
        stream.set_nodelay(true)?;
        stream.set_write_timeout(Some(WRITE_TIMEOUT))?;
        Ok(Conn {
            stream,
            buf: Vec::new(),
        })
    }

    /// Sends `msg` followed by a NUL. A message containing a NUL byte is
    /// refused (`InvalidInput`), as it could not be framed.
    pub fn send(&mut self, msg: &str) -> io::Result<()> {
        if msg.as_bytes().contains(&0) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "a protocol message cannot contain a NUL byte",
            ));
        }
        let mut frame = Vec::with_capacity(msg.len() + 1);
        frame.extend_from_slice(msg.as_bytes());
        frame.push(0);
        self.stream.write_all(&frame)?;
        self.stream.flush()
    }

    /// Receives the next message (without its NUL): at most `max_len` bytes,
    /// before `deadline` (`None` waits as long as it takes).
    pub fn recv(&mut self, max_len: usize, deadline: Option<Instant>) -> Result<String, RecvError> {
        let mut scanned = 0;
        loop {
            if let Some(i) = self.buf[scanned..].iter().position(|&b| b == 0) {
                let end = scanned + i;
                if end > max_len {
                    return Err(RecvError::TooLong);
                }
                let mut frame: Vec<u8> = self.buf.drain(..=end).collect();
                frame.pop(); // the NUL
                return String::from_utf8(frame).map_err(|e| RecvError::NotUtf8(e.into_bytes()));
            }
            scanned = self.buf.len();
            if scanned > max_len {
                return Err(RecvError::TooLong);
            }
            let timeout = match deadline {
                None => None,
                Some(d) => {
                    let left = d.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        return Err(RecvError::Timeout);
                    }
                    Some(left)
                }
            };
            self.stream
                .set_read_timeout(timeout)
                .map_err(RecvError::Io)?;
            let mut chunk = [0u8; 64 * 1024];
            match self.stream.read(&mut chunk) {
                Ok(0) => return Err(RecvError::Closed),
                Ok(n) => self.buf.extend_from_slice(&chunk[..n]),
                Err(e) => match e.kind() {
                    io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut => {
                        return Err(RecvError::Timeout)
                    }
                    io::ErrorKind::Interrupted => {}
                    io::ErrorKind::ConnectionReset
                    | io::ErrorKind::ConnectionAborted
                    | io::ErrorKind::BrokenPipe => return Err(RecvError::Closed),
                    _ => return Err(RecvError::Io(e)),
                },
            }
        }
    }

    /// Closes both directions (errors are ignored: the peer may be gone).
    pub fn shutdown(&self) {
        let _ = self.stream.shutdown(std::net::Shutdown::Both);
    }
}

/// A message quoted for a log line: non-printable and non-ASCII bytes
/// escaped (`\xff`), cut after 60 bytes with its length noted.
pub fn quote(bytes: &[u8]) -> String {
    const SHOWN: usize = 60;
    let cut = bytes.len() > SHOWN;
    let shown = &bytes[..bytes.len().min(SHOWN)];
    let mut q = format!("\"{}\"", shown.escape_ascii());
    if cut {
        q = format!("{}...\" ({} bytes)", &q[..q.len() - 1], bytes.len());
    }
    q
}

/// Formats seconds as the original manager does (C++ `std::to_string` of a
/// double: six decimals, e.g. `5.000000`). `None` (no limit) is sent as the
/// original sends its default, `std::to_string(DBL_MAX)`.
pub fn format_seconds(secs: Option<f64>) -> String {
    format!("{:.6}", secs.unwrap_or(f64::MAX))
}

/// Parses a time in seconds sent by a manager: a finite non-negative decimal
/// number (surrounding whitespace allowed). Values of at least
/// [`UNLIMITED_SECONDS`] mean no limit (`Some(None)`); `None` is returned for
/// garbage.
pub fn parse_seconds(text: &str) -> Option<Option<f64>> {
    let t = text.trim();
    // Rust accepts `inf` and `nan`; the protocol's numbers are decimal.
    if t.is_empty()
        || !t
            .bytes()
            .all(|b| b.is_ascii_digit() || b"+-.eE".contains(&b))
    {
        return None;
    }
    let secs: f64 = t.parse().ok()?;
    if !secs.is_finite() || secs < 0.0 {
        return None;
    }
    Some((secs < UNLIMITED_SECONDS).then_some(secs))
}

/// `Instant::now() + secs`, or `None` when that cannot be represented.
pub fn deadline_after(secs: f64) -> Option<Instant> {
    Instant::now().checked_add(Duration::try_from_secs_f64(secs).ok()?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::net::TcpListener;

    fn pair() -> (Conn, TcpStream) {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let raw = TcpStream::connect(l.local_addr().unwrap()).unwrap();
        let (s, _) = l.accept().unwrap();
        (Conn::new(s).unwrap(), raw)
    }

    fn soon() -> Option<Instant> {
        deadline_after(2.0)
    }

    #[test]
    fn splits_messages_across_and_within_reads() {
        let (mut c, mut raw) = pair();
        raw.write_all(b"1 2\0ready\0par").unwrap();
        assert_eq!(c.recv(100, soon()).unwrap(), "1 2");
        assert_eq!(c.recv(100, soon()).unwrap(), "ready");
        raw.write_all(b"tial\0\0").unwrap();
        assert_eq!(c.recv(100, soon()).unwrap(), "partial");
        assert_eq!(c.recv(100, soon()).unwrap(), "");
        drop(raw);
        assert!(matches!(c.recv(100, soon()), Err(RecvError::Closed)));
    }

    #[test]
    fn bad_bytes_are_errors_not_panics() {
        let (mut c, mut raw) = pair();
        raw.write_all(b"\xff\xfe\0ok\0").unwrap();
        let e = c.recv(100, soon()).unwrap_err();
        assert!(matches!(&e, RecvError::NotUtf8(b) if b == b"\xff\xfe"));
        assert_eq!(e.to_string(), r#"message "\xff\xfe" is not UTF-8"#);
        // the bad frame was consumed; the next one is intact
        assert_eq!(c.recv(100, soon()).unwrap(), "ok");
        raw.write_all(&[b'7'; 50]).unwrap();
        raw.write_all(b"\0").unwrap();
        assert!(matches!(c.recv(10, soon()), Err(RecvError::TooLong)));
        let (mut c, mut raw) = pair();
        raw.write_all(&vec![b'x'; 200_000]).unwrap();
        assert!(matches!(c.recv(1000, soon()), Err(RecvError::TooLong)));
        // a message cut by the peer's close
        let (mut c, mut raw) = pair();
        raw.write_all(b"1 2 3").unwrap();
        drop(raw);
        assert!(matches!(c.recv(100, soon()), Err(RecvError::Closed)));
    }

    #[test]
    fn deadline_passes() {
        let (mut c, mut raw) = pair();
        raw.write_all(b"no end yet").unwrap();
        let t = Instant::now();
        assert!(matches!(
            c.recv(100, deadline_after(0.2)),
            Err(RecvError::Timeout)
        ));
        assert!(t.elapsed() >= Duration::from_millis(190));
        // what arrived so far is kept
        raw.write_all(b"\0").unwrap();
        assert_eq!(c.recv(100, soon()).unwrap(), "no end yet");
    }

    #[test]
    fn send_frames_and_refuses_nul() {
        let (mut c, mut raw) = pair();
        c.send("5.000000").unwrap();
        c.send("").unwrap();
        assert!(c.send("a\0b").is_err());
        let mut got = [0u8; 10];
        raw.read_exact(&mut got).unwrap();
        assert_eq!(&got, b"5.000000\0\0");
    }

    #[test]
    fn quotes_are_escaped_and_short() {
        assert_eq!(quote(b"1 2 3 4"), r#""1 2 3 4""#);
        assert_eq!(quote(b"a\"b\n\x00"), r#""a\"b\n\x00""#);
        let long = quote(&[b'7'; 100]);
        assert_eq!(long, format!("\"{}...\" (100 bytes)", "7".repeat(60)));
    }

    #[test]
    fn seconds_formats() {
        assert_eq!(format_seconds(Some(5.0)), "5.000000");
        assert_eq!(format_seconds(Some(1.5)), "1.500000");
        let max = format_seconds(None);
        assert!(max.starts_with("179769313486231570814527423731704356798070567525844996598917476803157260780028538760589558632766878171540458953514382464234321326889464182768467546703537516986049910576551282076245490090389328944075868508455133942304583236903222948165808559332123348274797826204144723168738177180919299881250404026184124858368"));
        assert!(max.ends_with(".000000"));
        assert_eq!(parse_seconds("5.000000"), Some(Some(5.0)));
        assert_eq!(parse_seconds(" 0.25 "), Some(Some(0.25)));
        assert_eq!(parse_seconds(&max), Some(None));
        for bad in ["", "abc", "inf", "NaN", "-1", "1.2.3", "reset", "1e999"] {
            assert_eq!(parse_seconds(bad), None, "{bad:?}");
        }
        assert!(deadline_after(1e300).is_none());
        assert!(deadline_after(0.5).is_some());
    }

    /// What `recv` must give for `bytes` followed by a close: each NUL-ended
    /// frame as text, or its bytes when not UTF-8; `TooLong` for a frame
    /// (ended or not) over `max` bytes, and nothing after it; else `Closed`.
    fn model(bytes: &[u8], max: usize) -> Vec<Result<String, Vec<u8>>> {
        let mut out = Vec::new();
        let mut rest = bytes;
        while let Some(i) = rest.iter().position(|&b| b == 0) {
            if i > max {
                return out;
            }
            out.push(String::from_utf8(rest[..i].to_vec()).map_err(|e| e.into_bytes()));
            rest = &rest[i + 1..];
        }
        out
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Arbitrary bytes in arbitrary pieces: the frames of the model, in
        /// order, then `TooLong` or `Closed`, never a panic or a hang.
        #[test]
        fn arbitrary_streams_are_framed_exactly(
            bytes in prop::collection::vec(
                prop_oneof![Just(0u8), Just(0xffu8), b'0'..=b'z'], 0..600),
            cuts in prop::collection::vec(1usize..80, 1..20),
            max in 0usize..40,
        ) {
            let (mut c, mut raw) = pair();
            let sent = bytes.clone();
            let writer = std::thread::spawn(move || {
                let (mut at, mut k) = (0, 0);
                while at < sent.len() {
                    let n = cuts[k % cuts.len()].min(sent.len() - at);
                    raw.write_all(&sent[at..at + n]).unwrap();
                    raw.flush().unwrap();
                    at += n;
                    k += 1;
                }
            });
            let want = model(&bytes, max);
            for w in &want {
                match (c.recv(max, soon()), w) {
                    (Ok(got), Ok(text)) => prop_assert_eq!(&got, text),
                    (Err(RecvError::NotUtf8(got)), Err(b)) => prop_assert_eq!(&got, b),
                    (got, w) => prop_assert!(false, "got {:?}, expected {:?}", got, w),
                }
            }
            writer.join().unwrap();
            let tail = &bytes[bytes.iter().rposition(|&b| b == 0).map_or(0, |i| i + 1)..];
            let framed: usize = want.iter().map(|w| w.as_ref().map_or_else(Vec::len, String::len) + 1).sum();
            let end = c.recv(max, soon());
            if framed < bytes.len() - tail.len() || tail.len() > max {
                prop_assert!(matches!(end, Err(RecvError::TooLong)), "{:?}", end);
            } else {
                prop_assert!(matches!(end, Err(RecvError::Closed)), "{:?}", end);
            }
        }

        /// Any text is a time, "no limit" or garbage, never a panic; the
        /// manager's own format reads back.
        #[test]
        fn seconds_parse_any_text(text in ".{0,30}", secs in 0.0f64..1e8) {
            let _ = parse_seconds(&text);
            let back = parse_seconds(&format_seconds(Some(secs))).unwrap().unwrap();
            prop_assert!((back - secs).abs() <= 1e-6, "{} {}", secs, back);
        }
    }
}
