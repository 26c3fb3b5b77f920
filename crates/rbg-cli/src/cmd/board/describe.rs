//! Describing a move by what it does to the board.

use rbg_engine::{ModApp, State};

use super::View;

/// A changed square: vertex, piece before, piece after.
type Change = (usize, u32, u32);

impl View {
    /// What a move does to the board: `whitePawn x0y6 -> x0y5`,
    /// `whitePawn x0y1 -> x0y0 becomes whiteQueen`, `puts x at x1y1`,
    /// `removes b at x3y3`, `x2y2: w -> b`, followed by the move text.
    /// `after` is the state after the move (and the keeper's completion).
    pub fn describe(&self, before: &State, after: &State, m: &[ModApp]) -> String {
        self.describe_squares(before, after, m).0
    }

    /// [`View::describe`] and the squares it names, in the order named (a
    /// moving piece's squares first, then the others in drawing order).
    pub fn describe_squares(
        &self,
        before: &State,
        after: &State,
        m: &[ModApp],
    ) -> (String, Vec<u32>) {
        let ast = self.game.description();
        let name = |v: usize| ast.board.vertices[v].name.as_str();
        let piece = |p: u32| ast.pieces[p as usize].as_str();
        let mut changed: Vec<Change> = (0..ast.board.vertices.len())
            .map(|v| (v, before.piece_at(v as u32), after.piece_at(v as u32)))
            .filter(|(_, a, b)| a != b)
            .collect();
        changed.sort_by_key(|c| self.rank[c.0]);
        let mut parts = Vec::new();
        let mut squares = Vec::new();
        let mut used = Vec::new();
        if let Some((from, to)) = self.moved(&changed) {
            let mut text = format!("{} {} -> {}", piece(from.1), name(from.0), name(to.0));
            if !self.is_empty(to.1) {
                text.push_str(&format!(" takes {}", piece(to.1)));
            }
            if to.2 != from.1 {
                text.push_str(&format!(" becomes {}", piece(to.2)));
            }
            parts.push(text);
            squares.extend([from.0, to.0]);
            used.extend([from.0, to.0]);
            // Something else arrived where the piece was (an amazon's arrow).
            if !self.is_empty(from.2) {
                parts.push(format!("puts {} at {}", piece(from.2), name(from.0)));
                squares.push(from.0);
            }
        }
        for &(v, a, b) in changed.iter().filter(|c| !used.contains(&c.0)) {
            parts.push(match (self.is_empty(a), self.is_empty(b)) {
                (true, false) => format!("puts {} at {}", piece(b), name(v)),
                (false, true) => format!("removes {} at {}", piece(a), name(v)),
                _ => format!("{}: {} -> {}", name(v), piece(a), piece(b)),
            });
            squares.push(v);
        }
        if parts.is_empty() {
            parts.push("no change on the board".to_string());
        }
        let text = format!("{}  [{}]", parts.join(", "), self.game.move_to_text(m));
        (text, squares.into_iter().map(|v| v as u32).collect())
    }

    fn is_empty(&self, p: u32) -> bool {
        Some(p) == self.empty
    }

    /// The one piece that moved, as its (from, to) changes: a piece that
    /// left exactly one square and arrived at exactly one other; else a
    /// piece that left the only vacated square while exactly one square got
    /// a piece of the same owner (a promotion).
    fn moved(&self, changed: &[Change]) -> Option<(Change, Change)> {
        let single = |found: Vec<(Change, Change)>| match found[..] {
            [one] => Some(one),
            _ => None,
        };
        let same_piece: Vec<(Change, Change)> = changed
            .iter()
            .filter(|c| !self.is_empty(c.1))
            .filter(|c| changed.iter().filter(|d| d.1 == c.1).count() == 1)
            .filter_map(|&c| {
                let arrivals: Vec<&Change> = changed.iter().filter(|d| d.2 == c.1).collect();
                match arrivals[..] {
                    [&to] => Some((c, to)),
                    _ => None,
                }
            })
            .collect();
        if !same_piece.is_empty() {
            return single(same_piece);
        }
        let vacated: Vec<&Change> = changed
            .iter()
            .filter(|c| !self.is_empty(c.1) && self.is_empty(c.2))
            .collect();
        let [&from] = vacated[..] else {
            return None;
        };
        let owner = self.owners[from.1 as usize]?;
        let arrivals: Vec<(Change, Change)> = changed
            .iter()
            .filter(|d| d.0 != from.0 && self.owners[d.2 as usize] == Some(owner))
            .map(|&to| (from, to))
            .collect();
        single(arrivals)
    }
}

#[cfg(test)]
mod tests {
    use rbg_agents::Playthrough;
    use rbg_engine::GameModel;

    use super::View;

    /// The descriptions of the first position's moves (without the move
    /// texts) and the squares they name.
    fn described(text: &str) -> Vec<(String, String)> {
        let game = GameModel::from_text(text).unwrap();
        let view = View::new(&game, false);
        let p = Playthrough::new(&game).unwrap();
        let mut reasoner = game.reasoner();
        p.moves()
            .iter()
            .map(|m| {
                let mut after = p.state().clone();
                reasoner.apply(&mut after, m).unwrap();
                let (text, squares) = view.describe_squares(p.state(), &after, m);
                let names: Vec<&str> = squares.iter().map(|&v| view.square(v)).collect();
                (
                    text[..text.find("  [").unwrap()].to_string(),
                    names.join(" "),
                )
            })
            .collect()
    }

    #[test]
    fn moves_promotions_and_removals() {
        let text = "#players = white(1), black(1)
#pieces = empty, whitePawn, whiteQueen, blackKing
#variables =
#board = rectangle(up, down, left, right, [blackKing, empty] [whitePawn, empty])
#rules = ->white down {whitePawn} [empty] up ([whiteQueen] + right [whitePawn] + [blackKing]) ->> {}";
        let mut d = described(text);
        d.sort();
        let pair = |a: &str, b: &str| (a.to_string(), b.to_string());
        assert_eq!(
            d,
            [
                pair("removes whitePawn at x0y1", "x0y1"),
                pair(
                    "whitePawn x0y1 -> x0y0 takes blackKing becomes whiteQueen",
                    "x0y1 x0y0"
                ),
                pair("whitePawn x0y1 -> x1y0", "x0y1 x1y0"),
            ]
        );
    }
}
