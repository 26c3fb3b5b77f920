//! Times the translation of HRG files (`hrg_lang::parse_str`: parse,
//! translation to RG, RG checks, optimisation, checks again):
//! `timing FILE...`. Each file is translated repeatedly until 0.3 s have
//! passed (at least 5 times); the mean per run is CPU time of
//! the thread where Linux reports it (`/proc/thread-self/schedstat`, so a
//! busy machine does not inflate it), wall-clock time elsewhere.
use std::time::{Duration, Instant};

/// Nanoseconds this thread has run, if the kernel tells.
fn cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

/// Time since `start`: thread CPU time when available, else wall clock.
fn since(start: (Instant, Option<u64>)) -> Duration {
    match (start.1, cpu_ns()) {
        (Some(a), Some(b)) => Duration::from_nanos(b.saturating_sub(a)),
        _ => start.0.elapsed(),
    }
}

fn main() {
    let kind = if cpu_ns().is_some() {
        "CPU"
    } else {
        "wall-clock"
    };
    for path in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&path).unwrap();
        let start = (Instant::now(), cpu_ns());
        let mut runs = 0u32;
        let mut edges = 0;
        while runs < 5 || since(start) < Duration::from_millis(300) {
            let rg = match hrg_lang::parse_str(&text) {
                Ok((rg, _)) => rg,
                Err(e) => {
                    let file = hrg_lang::SourceFile::new(path.as_str(), text.as_str());
                    eprintln!("{}", file.diagnostic(e));
                    break;
                }
            };
            edges = rg.edges.len();
            runs += 1;
        }
        let mean = since(start).as_secs_f64() * 1000.0 / f64::from(runs.max(1));
        println!(
            "{path}: {mean:.2} ms {kind} time per translation (mean of {runs}), {edges} edges"
        );
    }
}
