//! `#board`: explicit graphs and the `rectangle`, `hexagon` and `cuboid`
//! generators.

use std::collections::HashMap;

use super::{Cursor, Kind, Names};
use crate::ast::{Board, DirId, PieceId, Vertex, VertexId};
use crate::error::{Error, Result, Span};
use crate::lexer::TokenKind;

/// Parses the whole `#board` section.
pub(super) fn parse_board(c: &mut Cursor, names: &mut Names) -> Result<Board> {
    let generator = match (c.peek_kind(), c.peek2_kind()) {
        (Some(TokenKind::Ident(s)), Some(TokenKind::LParen)) => Some(s.clone()),
        _ => None,
    };
    let board = match generator.as_deref() {
        Some("rectangle") => rectangle(c, names)?,
        Some("hexagon") => hexagon(c, names)?,
        Some("cuboid") => cuboid(c, names)?,
        Some(other) => {
            return Err(Error::new(
                c.here(),
                format!(
                    "unknown board generator `{other}`, expected `rectangle`, `hexagon`, `cuboid` or a vertex `name[piece]{{...}}`"
                ),
            ))
        }
        None => explicit(c, names)?,
    };
    c.finish("a vertex")?;
    Ok(board)
}

/// Resolves a piece name.
fn piece(c: &mut Cursor, names: &Names) -> Result<PieceId> {
    let (name, span) = c.ident("a piece name")?;
    Ok(names.resolve(name, span, &[Kind::Piece], "a piece")?.1)
}

/// `name[piece]{label:target, ...}` repeated.
fn explicit(c: &mut Cursor, names: &mut Names) -> Result<Board> {
    struct Raw<'a> {
        name: &'a str,
        piece: PieceId,
        edges: Vec<(DirId, &'a str, Span)>,
    }
    let mut dirs: Vec<String> = Vec::new();
    let mut raws: Vec<Raw> = Vec::new();
    let mut index: HashMap<&str, (VertexId, Span)> = HashMap::new();
    loop {
        let (name, span) = c.ident("a vertex name `name[piece]{...}`")?;
        if let Some(&(_, prev)) = index.get(name) {
            return Err(
                Error::new(span, format!("vertex `{name}` is defined twice"))
                    .with_secondary(prev, "first defined here"),
            );
        }
        index.insert(name, (raws.len() as VertexId, span));
        c.expect(&TokenKind::LBracket, "`[` and the vertex's initial piece")?;
        let piece = piece(c, names)?;
        c.expect(&TokenKind::RBracket, "`]`")?;
        c.expect(&TokenKind::LBrace, "`{` and the vertex's edges")?;
        let mut edges: Vec<(DirId, &str, Span)> = Vec::new();
        let mut label_spans: Vec<Span> = Vec::new();
        if c.eat(&TokenKind::RBrace).is_none() {
            loop {
                let (label, lspan) = c.ident("an edge label")?;
                let dir = match names.get(label) {
                    None => {
                        let id = dirs.len() as DirId;
                        names.declare(label, Kind::Dir, id, lspan)?;
                        dirs.push(label.to_string());
                        id
                    }
                    Some(_) => {
                        names
                            .resolve(label, lspan, &[Kind::Dir], "an edge label")?
                            .1
                    }
                };
                if let Some(k) = edges.iter().position(|e| e.0 == dir) {
                    let prev = label_spans.get(k).copied().unwrap_or(lspan);
                    return Err(Error::new(
                        lspan,
                        format!("vertex `{name}` has two edges labelled `{label}`"),
                    )
                    .with_secondary(prev, "first edge with this label"));
                }
                c.expect(&TokenKind::Colon, "`:` and the edge's target vertex")?;
                let (target, tspan) = c.ident("a target vertex name")?;
                edges.push((dir, target, tspan));
                label_spans.push(lspan);
                if c.eat(&TokenKind::Comma).is_some() {
                    continue;
                }
                c.expect(&TokenKind::RBrace, "`,` or `}`")?;
                break;
            }
        }
        raws.push(Raw { name, piece, edges });
        if c.is_end() {
            break;
        }
    }
    let mut vertices = Vec::with_capacity(raws.len());
    for raw in raws {
        let mut edges = Vec::with_capacity(raw.edges.len());
        for (dir, target, tspan) in raw.edges {
            let (t, _) = index.get(target).copied().ok_or_else(|| {
                Error::new(
                    tspan,
                    format!("expected a vertex name, found `{target}`, which names no vertex"),
                )
            })?;
            edges.push((dir, t));
        }
        vertices.push(Vertex {
            name: raw.name.to_string(),
            piece: raw.piece,
            edges,
        });
    }
    Ok(Board { dirs, vertices })
}

/// `generator(` and `n` distinct labels, each followed by `,`. The labels
/// become the directions in this order.
fn labels(c: &mut Cursor, names: &mut Names, n: usize, what: &str) -> Result<Vec<String>> {
    c.bump(); // generator name
    c.expect(&TokenKind::LParen, "`(`")?;
    let mut dirs = Vec::with_capacity(n);
    for i in 0..n {
        let (label, span) = c.ident(&format!("an edge label ({what})"))?;
        names.declare(label, Kind::Dir, i as DirId, span)?;
        dirs.push(label.to_string());
        c.expect(&TokenKind::Comma, "`,`")?;
    }
    Ok(dirs)
}

/// A board line `[p, , p]`: slots are pieces or empty.
type Line = Vec<Option<PieceId>>;

fn line(c: &mut Cursor, names: &Names) -> Result<(Span, Line)> {
    let open = c.expect(&TokenKind::LBracket, "`[` starting a board line")?;
    let mut slots = Vec::new();
    loop {
        match c.peek_kind() {
            Some(TokenKind::Ident(_)) => slots.push(Some(piece(c, names)?)),
            Some(TokenKind::Comma) | Some(TokenKind::RBracket) => slots.push(None),
            _ => return Err(c.expected("a piece name, `,` or `]`")),
        }
        if c.eat(&TokenKind::Comma).is_some() {
            continue;
        }
        c.expect(&TokenKind::RBracket, "`,` or `]`")?;
        break;
    }
    Ok((open, slots))
}

/// Board lines while the next token is `[`; at least one.
fn lines(c: &mut Cursor, names: &Names) -> Result<Vec<(Span, Line)>> {
    let mut out = vec![line(c, names)?];
    while c.at(&TokenKind::LBracket) {
        out.push(line(c, names)?);
    }
    Ok(out)
}

/// All lines as long as the first one.
fn check_rectangular(lines: &[(Span, Line)]) -> Result<()> {
    let width = lines.first().map_or(0, |l| l.1.len());
    for (span, l) in lines {
        if l.len() != width {
            return Err(Error::new(
                *span,
                format!(
                    "expected {width} squares as in the first line, found {}",
                    l.len()
                ),
            ));
        }
    }
    Ok(())
}

/// A generated board's cells: `cells[layer][row][col]`.
type Cells = Vec<Vec<Line>>;

/// The order in which generated vertices are created, which is also their
/// numbering (as in the original RBG parser, whose game manager numbers the
/// vertices of its move texts this way): layer by layer, each layer row by
/// row starting with the first written line (the top), each row left to
/// right; empty slots are skipped. The first one is the start.
fn generated_vertex_order(cells: &Cells) -> Vec<(usize, usize, usize)> {
    let mut order = Vec::new();
    for (l, layer) in cells.iter().enumerate() {
        for (r, row) in layer.iter().enumerate() {
            for (col, slot) in row.iter().enumerate() {
                if slot.is_some() {
                    order.push((l, r, col));
                }
            }
        }
    }
    order
}

/// Builds a generated board. `neighbour(dir, layer, row, col)` gives the
/// target cell of the edge in that direction (bounds and empty cells are
/// checked here); edges are listed in direction order.
fn build(
    cells: &Cells,
    dirs: Vec<String>,
    name: impl Fn(usize, usize, usize) -> String,
    neighbour: impl Fn(usize, usize, usize, usize) -> Option<(usize, usize, usize)>,
    at: Span,
) -> Result<Board> {
    let order = generated_vertex_order(cells);
    if order.is_empty() {
        return Err(Error::new(
            at,
            "the board has no squares: expected at least one piece name in the lines",
        ));
    }
    let ids: HashMap<(usize, usize, usize), VertexId> = order
        .iter()
        .enumerate()
        .map(|(i, &p)| (p, i as VertexId))
        .collect();
    let piece_at = |(l, r, c): (usize, usize, usize)| -> Option<PieceId> {
        cells.get(l)?.get(r)?.get(c).copied().flatten()
    };
    let mut vertices = Vec::with_capacity(order.len());
    for &(l, r, c) in &order {
        let mut edges = Vec::new();
        for d in 0..dirs.len() {
            if let Some(t) = neighbour(d, l, r, c) {
                if let Some(&tid) = ids.get(&t) {
                    edges.push((d as DirId, tid));
                }
            }
        }
        vertices.push(Vertex {
            name: name(l, r, c),
            piece: piece_at((l, r, c)).unwrap_or(0),
            edges,
        });
    }
    Ok(Board { dirs, vertices })
}

/// `rectangle(up, down, left, right, lines)`.
fn rectangle(c: &mut Cursor, names: &mut Names) -> Result<Board> {
    let at = c.here();
    let dirs = labels(c, names, 4, "up, down, left, right")?;
    let lines = lines(c, names)?;
    c.expect(&TokenKind::RParen, "`[` starting a board line or `)`")?;
    check_rectangular(&lines)?;
    let cells: Cells = vec![lines.into_iter().map(|l| l.1).collect()];
    build(
        &cells,
        dirs,
        |_, r, col| format!("x{col}y{r}"),
        |d, l, r, col| {
            Some(match d {
                0 => (l, r.checked_sub(1)?, col),
                1 => (l, r + 1, col),
                2 => (l, r, col.checked_sub(1)?),
                _ => (l, r, col + 1),
            })
        },
        at,
    )
}

/// `hexagon(nw, ne, e, se, sw, w, lines)`.
fn hexagon(c: &mut Cursor, names: &mut Names) -> Result<Board> {
    let at = c.here();
    let dirs = labels(
        c,
        names,
        6,
        "north-west, north-east, east, south-east, south-west, west",
    )?;
    let lines = lines(c, names)?;
    c.expect(&TokenKind::RParen, "`[` starting a board line or `)`")?;
    // Lengths grow by one up to the peak, then shrink by one.
    let mut shrinking = false;
    for w in lines.windows(2) {
        let (prev, (span, cur)) = (w[0].1.len(), &w[1]);
        let ok = if shrinking {
            cur.len() + 1 == prev
        } else if cur.len() == prev + 1 {
            true
        } else {
            shrinking = cur.len() + 1 == prev;
            shrinking
        };
        if !ok {
            let msg = if shrinking && prev <= 1 {
                "expected `)` after a hexagon line of 1 square, found another line".to_string()
            } else {
                let expected = if shrinking || prev <= 1 {
                    format!("{}", if shrinking { prev - 1 } else { prev + 1 })
                } else {
                    format!("{} or {}", prev + 1, prev - 1)
                };
                format!(
                    "expected {expected} squares (hexagon lines grow by one up to the longest line, then shrink by one), found {}",
                    cur.len()
                )
            };
            return Err(Error::new(*span, msg));
        }
    }
    let lens: Vec<usize> = lines.iter().map(|l| l.1.len()).collect();
    let peak = lens
        .iter()
        .enumerate()
        .fold(
            (0, 0),
            |best, (i, &n)| if n > best.1 { (i, n) } else { best },
        )
        .0;
    let cells: Cells = vec![lines.into_iter().map(|l| l.1).collect()];
    build(
        &cells,
        dirs,
        |_, r, col| format!("x{col}y{r}"),
        |d, l, r, col| {
            let len = *lens.get(r)?;
            let above = r < peak;
            let below = r > peak;
            let last = col + 1 >= len;
            Some(match d {
                // north-west
                0 if col > 0 || below => {
                    (l, r.checked_sub(1)?, (col + below as usize).checked_sub(1)?)
                }
                // north-east
                1 if !last || below => (l, r.checked_sub(1)?, col + below as usize),
                2 => (l, r, col + 1),
                // south-east
                3 if !last || above => (l, r + 1, col + above as usize),
                // south-west
                4 if col > 0 || above => (l, r + 1, (col + above as usize).checked_sub(1)?),
                5 => (l, r, col.checked_sub(1)?),
                _ => return None,
            })
        },
        at,
    )
}

/// `cuboid(up, down, left, right, front, back, [lines] [lines] ...)`.
fn cuboid(c: &mut Cursor, names: &mut Names) -> Result<Board> {
    let at = c.here();
    let dirs = labels(c, names, 6, "up, down, left, right, front, back")?;
    let mut layers: Vec<(Span, Vec<(Span, Line)>)> = Vec::new();
    loop {
        let open = c.expect(&TokenKind::LBracket, "`[` starting a layer")?;
        let ls = lines(c, names)?;
        c.expect(&TokenKind::RBracket, "`[` starting a board line or `]`")?;
        layers.push((open, ls));
        if !c.at(&TokenKind::LBracket) {
            break;
        }
    }
    c.expect(&TokenKind::RParen, "`[` starting a layer or `)`")?;
    let height = layers.first().map_or(0, |l| l.1.len());
    let width = layers
        .first()
        .and_then(|l| l.1.first())
        .map_or(0, |l| l.1.len());
    for (span, ls) in &layers {
        if ls.len() != height {
            return Err(Error::new(
                *span,
                format!(
                    "expected {height} lines as in the first layer, found {}",
                    ls.len()
                ),
            ));
        }
        for (lspan, l) in ls {
            if l.len() != width {
                return Err(Error::new(
                    *lspan,
                    format!(
                        "expected {width} squares as in the first line, found {}",
                        l.len()
                    ),
                ));
            }
        }
    }
    let cells: Cells = layers
        .into_iter()
        .map(|(_, ls)| ls.into_iter().map(|l| l.1).collect())
        .collect();
    build(
        &cells,
        dirs,
        |l, r, col| format!("x{col}y{r}z{l}"),
        |d, l, r, col| {
            Some(match d {
                0 => (l, r.checked_sub(1)?, col),
                1 => (l, r + 1, col),
                2 => (l, r, col.checked_sub(1)?),
                3 => (l, r, col + 1),
                4 => (l + 1, r, col),
                _ => (l.checked_sub(1)?, r, col),
            })
        },
        at,
    )
}
