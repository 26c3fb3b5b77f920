//! A person choosing a move in `rbg play`: the legal moves are listed in
//! drawing order (long lists as the squares that narrow them), and an
//! answer is a listing number, the squares a move's description names (or a
//! prefix of them, which narrows the list) or the move's text.

use std::io::{BufRead, Write};

use rbg_agents::Playthrough;
use rbg_engine::GameModel;

use super::board::View;

/// Longest list of moves printed one per line; longer ones are shown as the
/// squares that narrow them.
const LIST_LIMIT: usize = 24;
/// Longest accepted answer line, in bytes.
const MAX_LINE: usize = 4096;

/// One legal move as listed.
struct Entry {
    /// Index in the playthrough's move list.
    index: usize,
    /// The squares the description names, in its order.
    squares: Vec<u32>,
    /// The description (with the move text).
    text: String,
}

/// The legal moves of one position, in drawing order of their squares.
pub struct Listing<'v> {
    view: &'v View,
    entries: Vec<Entry>,
}

/// What an answer means.
#[derive(Debug, PartialEq)]
pub enum Answer {
    /// Play the move with this index in the playthrough's list.
    Play(usize),
    /// Show this (a narrowed list) and ask again.
    Show(String),
    /// Say why the answer is not understood and ask again.
    Retry(String),
}

impl<'v> Listing<'v> {
    /// Describes and orders the legal moves of `p`.
    pub fn new(view: &'v View, game: &GameModel, p: &Playthrough<GameModel>) -> Listing<'v> {
        let mut after = p.state().clone();
        let mut reasoner = game.reasoner();
        let mut entries: Vec<Entry> = (0..p.moves().len())
            .map(|index| {
                let m = p.moves().get(index);
                after.clone_from(p.state());
                // Only to describe the move: one the engine cannot complete
                // is described as far as it got, and fails when played.
                let _ = reasoner.apply(&mut after, m);
                let (text, squares) = view.describe_squares(p.state(), &after, m);
                Entry {
                    index,
                    squares,
                    text,
                }
            })
            .collect();
        // Moves without squares (passes) last; then by the squares' drawing
        // order, then by the modifiers applied.
        entries.sort_by_cached_key(|e| {
            let ranks: Vec<u32> = e.squares.iter().map(|&v| view.rank(v)).collect();
            let apps: Vec<(u32, u32)> = p
                .moves()
                .get(e.index)
                .iter()
                .map(|a| (a.vertex, a.action))
                .collect();
            (e.squares.is_empty(), ranks, apps)
        });
        Listing { view, entries }
    }

    /// An example answer: the first move's squares, else its number.
    pub fn example(&self) -> String {
        match self.entries.first() {
            Some(e) if !e.squares.is_empty() => self.names(&e.squares).join(" "),
            _ => "1".to_string(),
        }
    }

    fn names(&self, squares: &[u32]) -> Vec<&str> {
        squares.iter().map(|&v| self.view.square(v)).collect()
    }

    /// All moves, numbered.
    pub fn full(&self) -> String {
        let all: Vec<usize> = (0..self.entries.len()).collect();
        self.lines(&all)
    }

    /// Entries `which` (positions in the listing), one per line.
    fn lines(&self, which: &[usize]) -> String {
        which
            .iter()
            .map(|&k| format!("{:>4}. {}\n", k + 1, self.entries[k].text))
            .collect()
    }

    /// The moves `which`, all of whose first `depth` squares are `prefix`:
    /// listed when few, else as the squares that come next.
    pub fn narrowed(&self, which: &[usize], prefix: &[&str]) -> String {
        let depth = prefix.len();
        let mut next: Vec<u32> = which
            .iter()
            .filter_map(|&k| self.entries[k].squares.get(depth).copied())
            .collect();
        next.sort_by_key(|&v| self.view.rank(v));
        next.dedup();
        if which.len() <= LIST_LIMIT || next.len() < 2 {
            return self.lines(which);
        }
        let mut out = if depth == 0 {
            format!("{} legal moves, starting at these squares:\n", which.len())
        } else {
            format!(
                "{} moves begin with `{}`; their next squares:\n",
                which.len(),
                prefix.join(" ")
            )
        };
        out.push_str(&wrap(&self.names(&next), 78));
        // Moves that end here cannot be narrowed further.
        let ended: Vec<usize> = which
            .iter()
            .copied()
            .filter(|&k| self.entries[k].squares.len() == depth)
            .collect();
        out.push_str(&self.lines(&ended));
        out
    }

    /// The list shown before the first answer.
    pub fn overview(&self) -> String {
        let all: Vec<usize> = (0..self.entries.len()).collect();
        self.narrowed(&all, &[])
    }

    /// Reads one answer (see the module documentation).
    pub fn answer(&self, game: &GameModel, p: &Playthrough<GameModel>, line: &str) -> Answer {
        let words: Vec<&str> = line.split_whitespace().collect();
        let n = self.entries.len();
        if words == ["?"] {
            return Answer::Show(self.full());
        }
        if words.iter().all(|w| w.bytes().all(|b| b.is_ascii_digit())) {
            if let [number] = words[..] {
                return match number.parse::<usize>() {
                    Ok(i) if (1..=n).contains(&i) => Answer::Play(self.entries[i - 1].index),
                    _ => Answer::Retry(format!("no move number {number}: choose 1 to {n}")),
                };
            }
            return match game.parse_move(line) {
                Ok(m) => match p.find(m.apps()) {
                    Some(i) => Answer::Play(i),
                    None => Answer::Retry(format!("`{}` is not a legal move here", line.trim())),
                },
                Err(e) => Answer::Retry(e.to_string()),
            };
        }
        self.by_squares(&words)
    }

    /// An answer made of square names.
    fn by_squares(&self, words: &[&str]) -> Answer {
        let k = words.len();
        let starts = |e: &Entry, whole_last: bool| {
            e.squares.len() >= k
                && self.names(&e.squares[..k - 1]) == words[..k - 1]
                && if whole_last {
                    self.view.square(e.squares[k - 1]) == words[k - 1]
                } else {
                    self.view.square(e.squares[k - 1]).starts_with(words[k - 1])
                }
        };
        let whole: Vec<usize> = (0..self.entries.len())
            .filter(|&i| starts(&self.entries[i], true))
            .collect();
        match whole[..] {
            [i] => return Answer::Play(self.entries[i].index),
            [_, _, ..] => return Answer::Show(self.narrowed(&whole, words)),
            [] => {}
        }
        // The last word may be the beginning of a square's name.
        let partial: Vec<usize> = (0..self.entries.len())
            .filter(|&i| starts(&self.entries[i], false))
            .collect();
        if !partial.is_empty() {
            return Answer::Show(self.narrowed(&partial, &words[..k - 1]));
        }
        let known = |w: &str| (0..self.view.vertices()).any(|v| self.view.square(v).starts_with(w));
        if let Some(w) = words.iter().find(|w| !known(w)) {
            return Answer::Retry(format!(
                "`{w}` is not a square of this board, a move number or a move text"
            ));
        }
        Answer::Retry(format!(
            "no legal move names the squares `{}` in this order",
            words.join(" ")
        ))
    }
}

/// `words` separated by spaces in lines of at most `width` characters,
/// each indented by two.
fn wrap(words: &[&str], width: usize) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for w in words {
        if !line.is_empty() && line.len() + 1 + w.len() > width {
            out.push_str(&format!("  {line}\n"));
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(w);
    }
    if !line.is_empty() {
        out.push_str(&format!("  {line}\n"));
    }
    out
}

/// One line of input.
#[derive(Debug, PartialEq)]
pub enum Line {
    /// The text of the line (without the line break).
    Text(String),
    /// The line was not UTF-8 or too long; it was skipped.
    Bad(String),
    /// End of input (or an error reading it).
    End,
}

/// Reads one line of at most `MAX_LINE` (4,096) bytes; longer lines are read to
/// their end and rejected.
pub fn read_line<R: BufRead + ?Sized>(input: &mut R) -> Line {
    let mut buf = Vec::new();
    let mut too_long = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return Line::End,
        };
        if chunk.is_empty() {
            if buf.is_empty() && !too_long {
                return Line::End;
            }
            break;
        }
        let (part, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], Some(i + 1)),
            None => (chunk, None),
        };
        if buf.len() + part.len() > MAX_LINE {
            too_long = true;
        } else {
            buf.extend_from_slice(part);
        }
        let used = done.unwrap_or(chunk.len());
        input.consume(used);
        if done.is_some() {
            break;
        }
    }
    if too_long {
        return Line::Bad(format!("the line is longer than {MAX_LINE} bytes"));
    }
    match String::from_utf8(buf) {
        Ok(s) => Line::Text(s.trim_end_matches('\r').to_string()),
        Err(_) => Line::Bad("the line is not valid UTF-8".to_string()),
    }
}

/// Lists the legal moves and reads answers until one names a legal move;
/// `None` at the end of input. `hint` says how to answer (then is cleared).
pub fn ask(
    game: &GameModel,
    view: &View,
    p: &Playthrough<GameModel>,
    player: usize,
    input: &mut (impl BufRead + ?Sized),
    hint: &mut bool,
) -> Option<usize> {
    let listing = Listing::new(view, game, p);
    print!("{}", listing.overview());
    if std::mem::take(hint) {
        println!(
            "(type a move's squares as its description names them, e.g. `{}`, or their \
             beginning to narrow the list; or the move's number or move text; `?` lists \
             every move)",
            listing.example()
        );
    }
    loop {
        print!("{} to move> ", view.player(player));
        std::io::stdout().flush().ok();
        match read_line(input) {
            Line::End => {
                println!();
                return None;
            }
            Line::Bad(why) => println!("{why}; try again"),
            Line::Text(t) if t.trim().is_empty() => continue,
            Line::Text(t) => match listing.answer(game, p, &t) {
                Answer::Play(i) => return Some(i),
                Answer::Show(s) => print!("{s}"),
                Answer::Retry(why) => println!("{why}; try again"),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(bytes: &[u8]) -> Vec<Line> {
        let mut input = std::io::BufReader::with_capacity(16, bytes);
        let mut out = Vec::new();
        loop {
            let l = read_line(&mut input);
            let end = l == Line::End;
            out.push(l);
            if end {
                return out;
            }
        }
    }

    #[test]
    fn reading_lines() {
        let long = vec![b'x'; MAX_LINE + 1];
        let mut bytes = b"a b\r\n\xff\xfe\n".to_vec();
        bytes.extend_from_slice(&long);
        bytes.extend_from_slice(b"\nlast");
        assert_eq!(
            lines(&bytes),
            [
                Line::Text("a b".into()),
                Line::Bad("the line is not valid UTF-8".into()),
                Line::Bad(format!("the line is longer than {MAX_LINE} bytes")),
                Line::Text("last".into()),
                Line::End,
            ]
        );
    }

    #[test]
    fn wrapping() {
        assert_eq!(wrap(&["ab", "cd", "ef"], 5), "  ab cd\n  ef\n");
        assert_eq!(wrap(&[], 5), "");
    }
}
