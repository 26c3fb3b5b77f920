//! Drawing states in the terminal and describing moves, for `play` and
//! `replay`.
//!
//! Boards made by the `rectangle` and `hexagon` generators (vertices named
//! `x{col}y{row}`) are drawn as grids; others as a list of vertices. Pieces
//! are abbreviated (camel-case initials, lengthened until unique) and
//! coloured by their owner when a player's name starts the piece's name.

mod describe;

use std::io::IsTerminal;

use gg_core::Turn;
use rbg_engine::{GameModel, State};

/// Whether standard output should get colours: a terminal, `NO_COLOR`
/// unset or empty, and `TERM` not `dumb`.
pub fn colour_wanted() -> bool {
    std::io::stdout().is_terminal()
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        && std::env::var("TERM").map_or(true, |t| t != "dumb")
}

/// How the vertices are laid out.
#[derive(Clone, Debug, PartialEq)]
enum Layout {
    /// `rows[r][c]` is the vertex at column `c` of row `r`, if any; `hex`
    /// rows are centred (indented by half a cell per missing cell).
    Grid {
        rows: Vec<Vec<Option<u32>>>,
        hex: bool,
    },
    /// One line per vertex.
    List,
}

/// Recovers the grid of a generated board from its vertex names.
fn layout(game: &rbg_lang::Game) -> Layout {
    let board = &game.board;
    let mut coords = Vec::with_capacity(board.vertices.len());
    for v in &board.vertices {
        let parsed = v.name.strip_prefix('x').and_then(|rest| {
            let (c, r) = rest.split_once('y')?;
            Some((c.parse::<usize>().ok()?, r.parse::<usize>().ok()?))
        });
        match parsed {
            Some(c) if c.0 < 64 && c.1 < 64 => coords.push(c),
            _ => return Layout::List,
        }
    }
    let height = coords.iter().map(|c| c.1 + 1).max().unwrap_or(0);
    let mut rows: Vec<Vec<Option<u32>>> = vec![Vec::new(); height];
    for (i, &(c, r)) in coords.iter().enumerate() {
        let row = &mut rows[r];
        if row.len() <= c {
            row.resize(c + 1, None);
        }
        if row[c].is_some() {
            return Layout::List;
        }
        row[c] = Some(i as u32);
    }
    let width = rows.iter().map(Vec::len).max().unwrap_or(0);
    let hex = board.dirs.len() == 6 && rows.iter().any(|r| r.len() != width);
    if !hex {
        for r in &mut rows {
            r.resize(width, None);
        }
    }
    Layout::Grid { rows, hex }
}

/// Each vertex's position in drawing order (rows top to bottom, each left
/// to right; vertex order for lists).
fn drawing_ranks(layout: &Layout, vertices: usize) -> Vec<u32> {
    let mut rank: Vec<u32> = (0..vertices as u32).collect();
    if let Layout::Grid { rows, .. } = layout {
        for (r, v) in rows.iter().flatten().flatten().enumerate() {
            rank[*v as usize] = r as u32;
        }
    }
    rank
}

/// Splits `whitePawn` / `white_pawn` into words.
fn words(name: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut prev_lower = false;
    for ch in name.chars() {
        if ch == '_' || ch == '-' {
            prev_lower = false;
            out.push(String::new());
            continue;
        }
        if out.is_empty() || (ch.is_uppercase() && prev_lower) {
            out.push(String::new());
        }
        out.last_mut().expect("pushed").push(ch);
        prev_lower = ch.is_lowercase() || ch.is_ascii_digit();
    }
    out.retain(|w| !w.is_empty());
    out
}

/// An abbreviation of at most `len` characters: the words' initials, then
/// more letters of the last word.
fn abbreviate(name: &str, len: usize) -> String {
    let words = words(name);
    let mut out: String = words.iter().filter_map(|w| w.chars().next()).collect();
    if let Some(last) = words.last() {
        out.extend(last.chars().skip(1));
    }
    out.chars().take(len).collect()
}

/// The empty piece: named like `empty`, else the piece filling more than
/// half of the initial board.
fn empty_piece(game: &rbg_lang::Game) -> Option<u32> {
    let named = game.pieces.iter().position(|p| {
        matches!(
            p.to_ascii_lowercase().as_str(),
            "empty" | "e" | "none" | "blank" | "nothing"
        )
    });
    if let Some(i) = named {
        return Some(i as u32);
    }
    let mut counts = vec![0usize; game.pieces.len()];
    for v in &game.board.vertices {
        counts[v.piece as usize] += 1;
    }
    let (best, &n) = counts.iter().enumerate().max_by_key(|c| c.1)?;
    (2 * n > game.board.vertices.len()).then_some(best as u32)
}

/// How to draw one game's states.
pub struct View {
    game: GameModel,
    layout: Layout,
    /// Drawing order of the vertices (see [`View::rank`]).
    rank: Vec<u32>,
    abbrevs: Vec<String>,
    width: usize,
    owners: Vec<Option<usize>>,
    empty: Option<u32>,
    colour: bool,
}

const PALETTE: [&str; 6] = ["1;31", "1;34", "1;32", "1;35", "1;36", "1;33"];

impl View {
    /// A view of `game`'s states, with ANSI colours when `colour`.
    pub fn new(game: &GameModel, colour: bool) -> View {
        let ast = game.description();
        let empty = empty_piece(ast);
        let shown: Vec<usize> = (0..ast.pieces.len())
            .filter(|&p| Some(p as u32) != empty)
            .collect();
        let longest = ast
            .pieces
            .iter()
            .map(|p| p.chars().count())
            .max()
            .unwrap_or(1);
        let mut abbrevs = ast.pieces.clone();
        for len in 1..=longest.max(1) {
            let candidate: Vec<String> = ast.pieces.iter().map(|p| abbreviate(p, len)).collect();
            let mut seen: Vec<&String> = shown.iter().map(|&p| &candidate[p]).collect();
            seen.sort();
            seen.dedup();
            if seen.len() == shown.len() {
                abbrevs = candidate;
                break;
            }
        }
        if let Some(e) = empty {
            abbrevs[e as usize] = ".".to_string();
        }
        let width = abbrevs.iter().map(|a| a.chars().count()).max().unwrap_or(1);
        let owners = ast
            .pieces
            .iter()
            .map(|piece| {
                let lower = piece.to_ascii_lowercase();
                ast.players
                    .iter()
                    .position(|pl| lower.starts_with(&pl.name.to_ascii_lowercase()))
            })
            .collect();
        let layout = layout(ast);
        View {
            game: game.clone(),
            rank: drawing_ranks(&layout, ast.board.vertices.len()),
            layout,
            abbrevs,
            width,
            owners,
            empty,
            colour,
        }
    }

    fn paint(&self, text: &str, code: &str) -> String {
        if self.colour {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }

    /// The piece `p` abbreviated, padded to the cell width and coloured.
    fn cell(&self, p: u32) -> String {
        let text = format!("{:<w$}", self.abbrevs[p as usize], w = self.width);
        let code = if Some(p) == self.empty {
            "2"
        } else {
            self.owners[p as usize].map_or("1", |o| PALETTE[o % PALETTE.len()])
        };
        self.paint(&text, code)
    }

    /// Which abbreviation stands for which piece (when they differ).
    pub fn legend(&self) -> String {
        let pieces = &self.game.description().pieces;
        let entries: Vec<String> = pieces
            .iter()
            .enumerate()
            .filter(|(p, name)| self.abbrevs[*p] != **name)
            .map(|(p, name)| format!("{} = {name}", self.abbrevs[p]))
            .collect();
        if entries.is_empty() {
            String::new()
        } else {
            format!("pieces: {}\n", entries.join(", "))
        }
    }

    /// The board, the scores, the other variables and the player on move.
    pub fn render(&self, s: &State, turn: Turn) -> String {
        let ast = self.game.description();
        let mut out = String::new();
        match &self.layout {
            Layout::Grid { rows, hex } => {
                let widest = rows.iter().map(Vec::len).max().unwrap_or(0);
                let header = if *hex {
                    0
                } else {
                    format!("x{}", widest.saturating_sub(1)).len()
                };
                let cw = self.width.max(header) + 1;
                let label = format!("y{}", rows.len().saturating_sub(1)).len();
                if !hex {
                    out.push_str(&" ".repeat(label + 1));
                    for c in 0..widest {
                        out.push_str(&format!("{:<cw$}", format!("x{c}")));
                    }
                    out = out.trim_end().to_string();
                    out.push('\n');
                }
                for (r, row) in rows.iter().enumerate() {
                    let mut line = format!("{:<label$} ", format!("y{r}"));
                    if *hex {
                        line.push_str(&" ".repeat((widest - row.len()) * cw / 2));
                    }
                    for slot in row {
                        match slot {
                            Some(v) => line.push_str(&self.cell(s.piece_at(*v))),
                            None => line.push_str(&" ".repeat(self.width)),
                        }
                        line.push_str(&" ".repeat(cw - self.width));
                    }
                    out.push_str(line.trim_end());
                    out.push('\n');
                }
            }
            Layout::List => {
                let nw = ast
                    .board
                    .vertices
                    .iter()
                    .map(|v| v.name.len())
                    .max()
                    .unwrap_or(1);
                for (i, v) in ast.board.vertices.iter().enumerate() {
                    let p = s.piece_at(i as u32) as usize;
                    let shown = format!("{} ({})", self.cell(p as u32), ast.pieces[p]);
                    out.push_str(&format!("{:<nw$}  {}\n", v.name, shown));
                }
            }
        }
        let players = ast.players.len();
        let scores: Vec<String> = (0..players)
            .map(|p| format!("{} {}", self.player(p), s.var(p as u32)))
            .collect();
        out.push_str(&format!("scores: {}\n", scores.join(", ")));
        let vars: Vec<String> = (players..ast.num_vars())
            .map(|v| format!("{}={}", ast.var_name(v as u32), s.var(v as u32)))
            .collect();
        if !vars.is_empty() {
            out.push_str(&format!("variables: {}\n", vars.join(" ")));
        }
        out.push_str(&super::view::turn_line(turn, |p| self.player(p)));
        out
    }

    /// Player `p`'s name, coloured like their pieces.
    pub fn player(&self, p: usize) -> String {
        let name = self.game.player_name(p);
        if self.owners.contains(&Some(p)) {
            self.paint(name, PALETTE[p % PALETTE.len()])
        } else {
            name.to_string()
        }
    }

    /// Vertex `v`'s position in drawing order: rows from the top, each from
    /// the left (vertex order on boards drawn as lists).
    pub fn rank(&self, v: u32) -> u32 {
        self.rank[v as usize]
    }

    /// Number of vertices.
    pub fn vertices(&self) -> u32 {
        self.rank.len() as u32
    }

    /// Vertex `v`'s name.
    pub fn square(&self, v: u32) -> &str {
        &self.game.description().board.vertices[v as usize].name
    }

    /// The final scores and who won (see `rbg_agents::stats`).
    pub fn result(&self, s: &State) -> String {
        super::view::result_line(&self.game, s, |p| self.player(p))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rbg_agents::Playthrough;

    fn render_initial(game: &GameModel, view: &View) -> String {
        let p = Playthrough::new(game).unwrap();
        view.render(p.state(), p.turn())
    }

    #[test]
    fn abbreviations() {
        assert_eq!(words("whitePawn"), vec!["white", "Pawn"]);
        assert_eq!(words("black_king"), vec!["black", "king"]);
        assert_eq!(abbreviate("whitePawn", 2), "wP");
        assert_eq!(abbreviate("whiteKnight", 3), "wKn");
        assert_eq!(abbreviate("x", 3), "x");
    }

    #[test]
    fn chess_like_pieces_get_unique_short_names() {
        let text = "#players = white(1), black(1)
#pieces = empty, whitePawn, whiteKing, whiteKnight, blackPawn, blackKing, blackKnight
#variables =
#board = rectangle(up, down, left, right, [whiteKing, empty, blackKnight])
#rules = ->white {} ->> {}";
        let game = GameModel::from_text(text).unwrap();
        let view = View::new(&game, false);
        assert_eq!(
            view.abbrevs,
            [".", "wPa", "wKi", "wKn", "bPa", "bKi", "bKn"]
        );
        assert_eq!(
            view.owners[1..],
            [Some(0), Some(0), Some(0), Some(1), Some(1), Some(1)]
        );
        assert_eq!(
            render_initial(&game, &view),
            "   x0  x1  x2\ny0 wKi .   bKn\nscores: white 0, black 0\ngame over\n"
        );
    }

    #[test]
    fn hexagon_rows_are_centred() {
        let text = "#players = p(1)
#pieces = e, s
#variables =
#board = hexagon(nw, ne, east, se, sw, west, [e, s] [e, e, e] [s, e])
#rules = ->p {} ->> {}";
        let game = GameModel::from_text(text).unwrap();
        let view = View::new(&game, false);
        assert_eq!(
            render_initial(&game, &view),
            "y0  . s\ny1 . . .\ny2  s .\nscores: p 0\ngame over\n"
        );
    }

    #[test]
    fn explicit_boards_are_lists() {
        let text = "#players = p(1)
#pieces = e, s
#variables = t(3)
#board = a[s]{n:b} b[e]{}
#rules = ->p {} ->> {}";
        let game = GameModel::from_text(text).unwrap();
        let view = View::new(&game, false);
        assert_eq!(
            render_initial(&game, &view),
            "a  s (s)\nb  . (e)\nscores: p 0\nvariables: t=0\ngame over\n"
        );
    }
}
