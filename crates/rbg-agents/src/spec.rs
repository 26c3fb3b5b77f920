//! Agent specs: `kind` or `kind:key=value:key=value`.
//!
//! Parameters are separated by `:` (not `,`, which separates agents in
//! `--agents` lists). Durations are written `500ms`, `1s`, `1.5s`, `2m`.

use std::time::{Duration, Instant};

use gg_core::clock::ClockReads;

/// A parsed spec: the agent kind and its `key=value` parameters in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    /// The agent kind, e.g. `mcts`.
    pub kind: String,
    /// The parameters in the order written.
    pub params: Vec<(String, String)>,
}

impl Spec {
    /// Parses `kind:key=value:...`.
    pub fn parse(text: &str) -> Result<Spec, String> {
        let mut parts = text.trim().split(':');
        let kind = parts.next().unwrap_or("").trim().to_string();
        if kind.is_empty() {
            return Err(format!("empty agent name in spec {text:?}"));
        }
        let mut params: Vec<(String, String)> = Vec::new();
        for part in parts {
            let Some((k, v)) = part.split_once('=') else {
                return Err(format!(
                    "agent {kind}: expected `key=value`, found {part:?} (parameters are separated by `:`)"
                ));
            };
            let (k, v) = (k.trim(), v.trim());
            if k.is_empty() || v.is_empty() {
                return Err(format!(
                    "agent {kind}: expected `key=value`, found {part:?}"
                ));
            }
            if params.iter().any(|(old, _)| old == k) {
                return Err(format!("agent {kind}: parameter `{k}` given twice"));
            }
            params.push((k.to_string(), v.to_string()));
        }
        Ok(Spec { kind, params })
    }

    /// Fails on a parameter that is not in `known`.
    pub fn check_known(&self, known: &[&str]) -> Result<(), String> {
        match self
            .params
            .iter()
            .find(|(k, _)| !known.contains(&k.as_str()))
        {
            None => Ok(()),
            Some((k, _)) if known.is_empty() => Err(format!(
                "agent {}: takes no parameters, found `{k}`",
                self.kind
            )),
            Some((k, _)) => Err(format!(
                "agent {}: unknown parameter `{k}` (expected one of {})",
                self.kind,
                known.join(", ")
            )),
        }
    }

    /// The value of parameter `key`, if given.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Parameter `key` parsed with `parse`, or `default`.
    pub fn get_or<T>(
        &self,
        key: &str,
        default: T,
        parse: impl Fn(&str) -> Option<T>,
        what: &str,
    ) -> Result<T, String> {
        match self.get(key) {
            None => Ok(default),
            Some(v) => parse(v)
                .ok_or_else(|| format!("agent {}: `{key}` expects {what}, found {v:?}", self.kind)),
        }
    }

    /// The search budget from `time=` and `iterations=` (either or both;
    /// `default` when neither is given).
    pub fn budget(&self, default: Budget) -> Result<Budget, String> {
        let time = match self.get("time") {
            None => None,
            Some(v) => Some(parse_duration(v).ok_or_else(|| {
                format!(
                    "agent {}: `time` expects a duration such as 500ms, 1s or 1.5s, found {v:?}",
                    self.kind
                )
            })?),
        };
        let iterations = match self.get("iterations") {
            None => None,
            Some(v) => Some(v.parse::<u64>().ok().filter(|&n| n > 0).ok_or_else(|| {
                format!(
                    "agent {}: `iterations` expects a positive integer, found {v:?}",
                    self.kind
                )
            })?),
        };
        if time.is_none() && iterations.is_none() {
            Ok(default)
        } else {
            Ok(Budget { time, iterations })
        }
    }
}

/// Parses `500ms`, `1s`, `1.5s`, `2m` or a plain number of seconds.
pub fn parse_duration(text: &str) -> Option<Duration> {
    let (num, unit) = match text.find(|c: char| c.is_ascii_alphabetic()) {
        Some(i) => text.split_at(i),
        None => (text, "s"),
    };
    let n: f64 = num.parse().ok()?;
    let secs = match unit {
        "ms" => n / 1000.0,
        "s" => n,
        "m" | "min" => n * 60.0,
        _ => return None,
    };
    (secs.is_finite() && secs > 0.0 && secs < 1e9).then(|| Duration::from_secs_f64(secs))
}

/// How long a search may run: a number of iterations (playouts), a wall
/// time, or both (whichever ends first). At least one iteration always runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Wall time per move.
    pub time: Option<Duration>,
    /// Iterations per move.
    pub iterations: Option<u64>,
}

impl Budget {
    /// A budget of `d` per move.
    pub fn time(d: Duration) -> Budget {
        Budget {
            time: Some(d),
            iterations: None,
        }
    }

    /// A budget of `n` iterations per move.
    pub fn iterations(n: u64) -> Budget {
        Budget {
            time: None,
            iterations: Some(n),
        }
    }

    /// Starts the clock: the returned [`Clock`] says when to stop. The
    /// earlier of this budget's time and the external `deadline` counts.
    pub fn start(&self, deadline: Option<Instant>) -> Clock {
        let now = Instant::now();
        let own = self.time.map(|d| now + d);
        let end = match (own, deadline) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        Clock {
            end,
            iterations: self.iterations,
            done: 0,
            reads: ClockReads::new(now, CLOCK_EVERY),
        }
    }

    /// The spec form, e.g. `time=1s` or `iterations=500`.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(t) = self.time {
            parts.push(format!("time={}", format_duration(t)));
        }
        if let Some(n) = self.iterations {
            parts.push(format!("iterations={n}"));
        }
        parts.join(":")
    }
}

/// `1s`, `500ms`, `1.5s`.
fn format_duration(d: Duration) -> String {
    if d.subsec_millis() == 0 && d.subsec_nanos() == 0 {
        format!("{}s", d.as_secs())
    } else if d < Duration::from_secs(1) {
        format!("{}ms", d.as_millis())
    } else {
        format!("{}s", d.as_secs_f64())
    }
}

/// A running budget.
#[derive(Clone, Debug)]
pub struct Clock {
    end: Option<Instant>,
    iterations: Option<u64>,
    done: u64,
    /// Which iterations look at the clock (one every [`CLOCK_EVERY`] or so).
    reads: ClockReads,
}

/// How often a running budget looks at the clock (a read can cost a tenth
/// of a tic-tac-toe playout); a search overruns its time by about this.
const CLOCK_EVERY: Duration = Duration::from_micros(250);

impl Clock {
    /// Counts one iteration and says whether another may start (the first
    /// always may).
    pub fn tick(&mut self) -> bool {
        if self.done == 0 {
            self.done = 1;
            return true;
        }
        if self.iterations.is_some_and(|n| self.done >= n) {
            return false;
        }
        if let Some(end) = self.end {
            if self.reads.now(self.done).is_some_and(|now| now >= end) {
                return false;
            }
        }
        self.done += 1;
        true
    }

    /// Iterations started so far.
    pub fn done(&self) -> u64 {
        self.done
    }
}

/// Parses a float parameter that must be finite and non-negative.
pub(crate) fn non_negative(v: &str) -> Option<f64> {
    v.parse::<f64>().ok().filter(|x| x.is_finite() && *x >= 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_kind_and_params() {
        let s = Spec::parse("mcts:time=1s:c=1.4").unwrap();
        assert_eq!(s.kind, "mcts");
        assert_eq!(
            s.params,
            vec![("time".into(), "1s".into()), ("c".into(), "1.4".into())]
        );
        assert_eq!(Spec::parse("random").unwrap().params, vec![]);
    }

    #[test]
    fn rejects_malformed_params() {
        assert!(Spec::parse("").unwrap_err().contains("empty agent name"));
        assert!(Spec::parse("mcts:time").unwrap_err().contains("key=value"));
        assert!(Spec::parse("mcts:c=1:c=2").unwrap_err().contains("twice"));
        let s = Spec::parse("mcts:foo=1").unwrap();
        assert_eq!(
            s.check_known(&["time", "c"]).unwrap_err(),
            "agent mcts: unknown parameter `foo` (expected one of time, c)"
        );
    }

    #[test]
    fn durations() {
        assert_eq!(parse_duration("500ms"), Some(Duration::from_millis(500)));
        assert_eq!(parse_duration("1.5s"), Some(Duration::from_millis(1500)));
        assert_eq!(parse_duration("2"), Some(Duration::from_secs(2)));
        assert_eq!(parse_duration("1m"), Some(Duration::from_secs(60)));
        assert_eq!(parse_duration("0s"), None);
        assert_eq!(parse_duration("1h"), None);
        assert_eq!(parse_duration("fast"), None);
    }

    #[test]
    fn budgets() {
        let d = Budget::time(Duration::from_secs(1));
        let s = Spec::parse("mcts:iterations=30").unwrap();
        assert_eq!(s.budget(d).unwrap(), Budget::iterations(30));
        assert_eq!(Spec::parse("mcts").unwrap().budget(d).unwrap(), d);
        assert!(Spec::parse("mcts:iterations=0").unwrap().budget(d).is_err());
        assert_eq!(Budget::iterations(30).describe(), "iterations=30");
        assert_eq!(
            Budget::time(Duration::from_millis(250)).describe(),
            "time=250ms"
        );
        let mut clock = Budget::iterations(3).start(None);
        let mut n = 0;
        while clock.tick() {
            n += 1;
        }
        assert_eq!(n, 3);
        // An expired deadline still allows one iteration.
        let mut clock = Budget::iterations(3).start(Some(Instant::now()));
        assert!(clock.tick());
        assert!(!clock.tick());
    }
}
