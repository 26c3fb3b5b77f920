//! Translation-time values (`hrg-language.md` §3.1, §3.2): symbols,
//! constructor values and maps; their RG serialisation and natural order.

use std::cmp::Ordering;
use std::fmt;
use std::rc::Rc;

/// A value computed at translation time.
#[derive(Clone, PartialEq, Eq, Hash)]
pub enum Value {
    /// A symbol (a name; arithmetic may give `-1`).
    Sym(Rc<str>),
    /// `C(a, ...)`.
    Ctor(Rc<str>, Rc<[Value]>),
    /// A map with a default and explicit entries (keys are symbols or
    /// constructor values), entries in output order.
    Map(Rc<MapValue>),
}

/// The contents of a map value.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct MapValue {
    /// The value of every key without an entry.
    pub default: Value,
    /// The explicit entries, in the order they are printed.
    pub entries: Vec<(Value, Value)>,
}

impl Value {
    /// A symbol.
    pub fn sym(s: &str) -> Value {
        Value::Sym(Rc::from(s))
    }

    /// A decimal number as a symbol.
    pub fn int(n: i64) -> Value {
        Value::sym(&n.to_string())
    }

    /// The RG symbol of a non-map value: `s`, or `C__a_b` for `C(a, b)`
    /// (arguments serialised recursively). `None` for maps.
    pub fn symbol(&self) -> Option<String> {
        let mut out = String::new();
        self.write_symbol(&mut out).then_some(out)
    }

    fn write_symbol(&self, out: &mut String) -> bool {
        match self {
            Value::Sym(s) => {
                out.push_str(s);
                true
            }
            Value::Ctor(name, args) => {
                out.push_str(name);
                out.push_str("__");
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        out.push('_');
                    }
                    if !a.write_symbol(out) {
                        return false;
                    }
                }
                true
            }
            Value::Map(_) => false,
        }
    }

    /// The value as an `i32`, if it is a symbol that reads as one.
    pub fn as_int(&self) -> Option<i32> {
        match self {
            Value::Sym(s) => s.parse().ok(),
            _ => None,
        }
    }

    /// How the value is named in messages.
    pub fn describe(&self) -> String {
        match self {
            Value::Map(_) => "a map".to_string(),
            v => format!("`{v}`"),
        }
    }

    /// Nodes in the value (its size in the output).
    pub fn size(&self) -> usize {
        match self {
            Value::Sym(_) => 1,
            Value::Ctor(_, a) => 1 + a.iter().map(Value::size).sum::<usize>(),
            Value::Map(m) => {
                1 + m.default.size()
                    + m.entries
                        .iter()
                        .map(|(k, v)| k.size() + v.size())
                        .sum::<usize>()
            }
        }
    }
}

impl fmt::Display for Value {
    /// HRG notation (`C(1, 2)`, `{ :d; k = v }`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Sym(s) => f.write_str(s),
            Value::Ctor(name, args) => {
                write!(f, "{name}(")?;
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{a}")?;
                }
                f.write_str(")")
            }
            Value::Map(m) => {
                write!(f, "{{ :{}", m.default)?;
                for (k, v) in &m.entries {
                    write!(f, "; {k} = {v}")?;
                }
                f.write_str(" }")
            }
        }
    }
}

impl fmt::Debug for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

/// Compares two values for `<`, `==`, ...: symbols by [`natural`] order,
/// constructors by name, then arity, then arguments. `None` when they are not
/// comparable (a symbol and a constructor, or maps).
pub fn compare(a: &Value, b: &Value) -> Option<Ordering> {
    match (a, b) {
        (Value::Sym(x), Value::Sym(y)) => Some(natural(x, y)),
        (Value::Ctor(n, xs), Value::Ctor(m, ys)) => {
            let mut o = natural(n, m).then(xs.len().cmp(&ys.len()));
            for (x, y) in xs.iter().zip(ys.iter()) {
                if o != Ordering::Equal {
                    break;
                }
                o = compare(x, y)?;
            }
            Some(o)
        }
        _ => None,
    }
}

/// Natural order of names: runs of ASCII digits compare as numbers, other
/// characters one by one. A run starting with `0` compares digit by digit
/// from the left (so `007 < 7`); otherwise the longer run is greater and runs
/// of equal length compare by their first differing digit. A digit against a
/// non-digit compares as characters (`-` < digits < letters).
pub fn natural(a: &str, b: &str) -> Ordering {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let (mut i, mut j) = (0, 0);
    loop {
        match (a.get(i), b.get(j)) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(&x), Some(&y)) if x.is_ascii_digit() && y.is_ascii_digit() => {
                let o = if x == b'0' || y == b'0' {
                    digits_left(a, b, &mut i, &mut j)
                } else {
                    digits_right(a, b, &mut i, &mut j)
                };
                if o != Ordering::Equal {
                    return o;
                }
            }
            (Some(_), Some(_)) => {
                // Compare whole characters (UTF-8 byte order is code point order).
                let (ca, la) = char_at(a, i);
                let (cb, lb) = char_at(b, j);
                match ca.cmp(&cb) {
                    Ordering::Equal => {
                        i += la;
                        j += lb;
                    }
                    o => return o,
                }
            }
        }
    }
}

fn char_at(s: &[u8], i: usize) -> (char, usize) {
    let len = match s[i] {
        b if b < 0x80 => 1,
        b if b >= 0xF0 => 4,
        b if b >= 0xE0 => 3,
        _ => 2,
    };
    let end = (i + len).min(s.len());
    let c = std::str::from_utf8(&s[i..end])
        .ok()
        .and_then(|t| t.chars().next())
        .unwrap_or(char::REPLACEMENT_CHARACTER);
    (c, end - i)
}

fn digit(s: &[u8], i: usize) -> Option<u8> {
    s.get(i).copied().filter(u8::is_ascii_digit)
}

/// Digit runs with a leading zero: left-aligned digit comparison.
fn digits_left(a: &[u8], b: &[u8], i: &mut usize, j: &mut usize) -> Ordering {
    loop {
        match (digit(a, *i), digit(b, *j)) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(x), Some(y)) => {
                if x != y {
                    return x.cmp(&y);
                }
            }
        }
        *i += 1;
        *j += 1;
    }
}

/// Digit runs without a leading zero: the longer is greater, else the first
/// differing digit decides.
fn digits_right(a: &[u8], b: &[u8], i: &mut usize, j: &mut usize) -> Ordering {
    let mut bias = Ordering::Equal;
    loop {
        match (digit(a, *i), digit(b, *j)) {
            (None, None) => return bias,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(x), Some(y)) => {
                if bias == Ordering::Equal {
                    bias = x.cmp(&y);
                }
            }
        }
        *i += 1;
        *j += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ctor(name: &str, args: Vec<Value>) -> Value {
        Value::Ctor(Rc::from(name), Rc::from(args))
    }

    #[test]
    fn serialisation() {
        let p = ctor("P", vec![Value::int(1), Value::int(2)]);
        assert_eq!(p.symbol().unwrap(), "P__1_2");
        let c = ctor(
            "C",
            vec![ctor("D", vec![Value::int(1), Value::int(2)]), Value::int(3)],
        );
        assert_eq!(c.symbol().unwrap(), "C__D__1_2_3");
    }

    #[test]
    fn natural_order() {
        use Ordering::*;
        assert_eq!(natural("2", "10"), Less);
        assert_eq!(natural("S9", "S10"), Less);
        assert_eq!(natural("007", "7"), Less);
        assert_eq!(natural("7", "007"), Greater);
        assert_eq!(natural("-3", "-1"), Greater);
        assert_eq!(natural("-1", "0"), Less);
        assert_eq!(natural("a", "a"), Equal);
        assert_eq!(natural("a1b", "a1c"), Less);
        assert_eq!(natural("10", "9"), Greater);
        assert_eq!(natural("0", "a"), Less);
    }

    #[test]
    fn constructors_compare_by_name_arity_arguments() {
        let a = ctor("P", vec![Value::int(1)]);
        let b = ctor("P", vec![Value::int(2)]);
        let c = ctor("P", vec![Value::int(1), Value::int(0)]);
        assert_eq!(compare(&a, &b), Some(Ordering::Less));
        assert_eq!(compare(&b, &c), Some(Ordering::Less));
        assert_eq!(compare(&a, &Value::int(1)), None);
    }
}
