//! The parser on valid descriptions: the specification's examples, board
//! generators and sugar.

use rbg_lang::ast::{Action, Arith, ArithOp, Board, CmpOp, Rule};
use rbg_lang::{parse_str, Game, SourceFile};

fn parse(text: &str) -> Game {
    parse_str(text).unwrap_or_else(|e| panic!("{}", SourceFile::new("t.rbg", text).diagnostic(e)))
}

const BOARD_3X3: &str = "
#board =
  v11 [whitePawn] {up: v12, right: v21}
  v21 [whitePawn] {up: v22, right: v31, left: v11}
  v31 [whitePawn] {up: v32, left: v21}
  v12 [empty] {up: v13, right: v22, down: v11}
  v22 [empty] {up: v23, right: v32, left: v12, down: v21}
  v32 [empty] {up: v33, left: v22, down: v31}
  v13 [blackPawn] {right: v23, down: v12}
  v23 [blackPawn] {right: v33, left: v13, down: v22}
  v33 [blackPawn] {left: v23, down: v32}
";

const BREAKTHROUGH_RULES: &str = "
#rules = ->white // white player moves
(
  (up* + down*)(left* + right*) // seek any square
  {whitePawn}[empty] // pick up my piece by replacing it with empty
  (
    up left {empty, blackPawn} // capturing, if diagonally
    + up {empty}
    + up right {empty, blackPawn}
  )[whitePawn]
  [$ white=1][$ black=0] // set white win, in case black ends with no pieces
  (
    {! up}->>{} // if white piece reached board top, it won
    + {? up} ->black // turn control to black otherwise
  )
  // black player moves, analogously
  (up* + down*)(left* + right*)
  {blackPawn}[empty]
  (
      down left {empty, whitePawn}
    + down {empty}
    + down right {empty, whitePawn}
  )[blackPawn]
  [$ black=1][$ white=0]
  (
      {! down}->>{}
    + {? down} ->white
  )
)*
";

const DECLS: &str = "
#players = white (100), black (100)
#pieces = whitePawn, blackPawn, empty
#variables = // no non-player variables
";

fn ll_breakthrough() -> Game {
    parse(&format!("{DECLS}{BOARD_3X3}{BREAKTHROUGH_RULES}"))
}

fn vertex<'a>(b: &'a Board, name: &str) -> (usize, &'a rbg_lang::ast::Vertex) {
    b.vertices
        .iter()
        .enumerate()
        .find(|(_, v)| v.name == name)
        .unwrap_or_else(|| panic!("no vertex {name}"))
}

/// The edges of `name` as sorted `(label, target name)` pairs.
fn edges(b: &Board, name: &str) -> Vec<(String, String)> {
    let (_, v) = vertex(b, name);
    let mut out: Vec<(String, String)> = v
        .edges
        .iter()
        .map(|&(d, t)| {
            (
                b.dirs[d as usize].clone(),
                b.vertices[t as usize].name.clone(),
            )
        })
        .collect();
    out.sort();
    out
}

fn pairs(p: &[(&str, &str)]) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = p
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    v.sort();
    v
}

fn actions(r: &Rule) -> Vec<Action> {
    let mut out = Vec::new();
    r.for_each_action(&mut |a, _| out.push(a.clone()));
    out
}

#[test]
fn declarations() {
    let g = ll_breakthrough();
    assert_eq!(g.players.len(), 2);
    assert_eq!(g.players[1].name, "black");
    assert_eq!(g.players[1].bound, 100);
    assert_eq!(g.pieces, vec!["whitePawn", "blackPawn", "empty"]);
    assert!(g.variables.is_empty());

    let g = parse(
        "#players = keeper(3) #pieces = e #variables = a(7), b(2147483647)
         #board = v[e]{} #rules = [$ a = b]",
    );
    assert_eq!(g.players[0].name, "keeper");
    assert_eq!(g.variables[1].bound, 2147483647);
    assert_eq!(g.num_vars(), 3);
    // players are variables 0..n, then the #variables
    assert_eq!(g.rules, Rule::Action(Action::Assign(1, Arith::Var(2))));
}

#[test]
fn explicit_3x3_board() {
    let g = ll_breakthrough();
    let b = &g.board;
    assert_eq!(b.vertices.len(), 9);
    assert_eq!(b.vertices[0].name, "v11");
    // directions in order of first appearance (`left` at v21, `down` at v12)
    assert_eq!(b.dirs, vec!["up", "right", "left", "down"]);
    // vertices in the written order
    let (i, v22) = vertex(b, "v22");
    assert_eq!(i, 4);
    assert_eq!(v22.piece, 2);
    // declaration order of the edges is kept: v23, v32, v12, v21
    assert_eq!(v22.edges, vec![(0, 7), (1, 5), (2, 3), (3, 1)]);
    assert_eq!(vertex(b, "v13").1.piece, 1);
    assert_eq!(edges(b, "v33"), pairs(&[("left", "v23"), ("down", "v32")]));
    // Self loops and empty edge lists are fine.
    let g = parse("#players = a(1) #pieces = e #variables = #board = v[e]{l:v} w[e]{} #rules = l");
    assert_eq!(g.board.vertices[0].edges, vec![(0, 0)]);
    assert!(g.board.vertices[1].edges.is_empty());
}

#[test]
fn ll_breakthrough_rules() {
    let g = ll_breakthrough();
    let Rule::Concat(top) = &g.rules else {
        panic!("expected a concatenation, got {:?}", g.rules)
    };
    assert_eq!(top.len(), 2);
    assert_eq!(top[0], Rule::Action(Action::Switch(Some(0))));
    let Rule::Star(body) = &top[1] else {
        panic!("expected a star")
    };
    let Rule::Concat(parts) = &**body else {
        panic!("expected a concatenation")
    };
    assert_eq!(parts.len(), 18);
    // (up* + down*)
    let (up, right, left, down) = (0, 1, 2, 3);
    assert_eq!(
        parts[0],
        Rule::Alt(vec![
            Rule::Star(Box::new(Rule::Action(Action::Shift(up)))),
            Rule::Star(Box::new(Rule::Action(Action::Shift(down)))),
        ])
    );
    assert_eq!(parts[2], Rule::Action(Action::On(vec![0])));
    assert_eq!(parts[3], Rule::Action(Action::Off(2)));
    // up left {empty, blackPawn} + up {empty} + up right {empty, blackPawn}
    let sh = |d| Rule::Action(Action::Shift(d));
    assert_eq!(
        parts[4],
        Rule::Alt(vec![
            Rule::Concat(vec![sh(up), sh(left), Rule::Action(Action::On(vec![1, 2]))]),
            Rule::Concat(vec![sh(up), Rule::Action(Action::On(vec![2]))]),
            Rule::Concat(vec![
                sh(up),
                sh(right),
                Rule::Action(Action::On(vec![1, 2]))
            ]),
        ])
    );
    assert_eq!(parts[6], Rule::Action(Action::Assign(0, Arith::Num(1))));
    assert_eq!(parts[7], Rule::Action(Action::Assign(1, Arith::Num(0))));
    assert_eq!(
        parts[8],
        Rule::Alt(vec![
            Rule::Concat(vec![
                Rule::Action(Action::Pattern {
                    negated: true,
                    rule: Box::new(sh(up))
                }),
                Rule::Action(Action::Switch(None)),
                Rule::Action(Action::On(vec![])),
            ]),
            Rule::Concat(vec![
                Rule::Action(Action::Pattern {
                    negated: false,
                    rule: Box::new(sh(up))
                }),
                Rule::Action(Action::Switch(Some(1))),
            ]),
        ])
    );
    assert_eq!(parts[17].clone(), {
        let mut p = parts[8].clone();
        if let Rule::Alt(v) = &mut p {
            for c in v.iter_mut() {
                if let Rule::Concat(w) = c {
                    if let Rule::Action(Action::Pattern { rule, .. }) = &mut w[0] {
                        **rule = sh(down);
                    }
                    if w[1] == Rule::Action(Action::Switch(Some(1))) {
                        w[1] = Rule::Action(Action::Switch(Some(0)));
                    }
                }
            }
        }
        p
    });
    let all = actions(&g.rules);
    assert_eq!(all.len(), 1 + 2 * (4 + 2 + 8 + 1 + 2 + 7));
}

fn rect_game(board: &str, rules: &str) -> Game {
    parse(&format!(
        "#players = a(1) #pieces = e, w, b #variables = #board = {board} #rules = {rules}"
    ))
}

#[test]
fn rectangle_board() {
    let g = rect_game(
        "rectangle(up, down, left, right, [b,b,b] [e,e,e] [w,w,w])",
        "up",
    );
    let b = &g.board;
    // Directions are numbered in order of first appearance on the edges
    // (see `Game::canonicalize_directions`).
    assert_eq!(b.dirs, vec!["down", "right", "left", "up"]);
    assert_eq!(b.vertices.len(), 9);
    let names: Vec<&str> = b.vertices.iter().map(|v| v.name.as_str()).collect();
    // The original RBG parser's numbering: row by row from the first written
    // line, left to right.
    assert_eq!(
        names,
        vec!["x0y0", "x1y0", "x2y0", "x0y1", "x1y1", "x2y1", "x0y2", "x1y2", "x2y2"]
    );
    // top-left is the start; the first written line is the top
    assert_eq!(b.vertices[0].piece, 2);
    assert_eq!(b.vertices[8].piece, 1);
    // edges in the generator's order (up, down, left, right)
    assert_eq!(b.vertices[0].edges, vec![(0, 3), (1, 1)]);
    assert_eq!(b.vertices[4].edges, vec![(3, 1), (0, 7), (2, 3), (1, 5)]);
}

#[test]
fn rectangle_with_missing_squares() {
    let g = rect_game(
        "rectangle(up, down, left, right, [e,e,e] [e, ,e] [e,e,e])",
        "up",
    );
    let b = &g.board;
    assert_eq!(b.vertices.len(), 8);
    assert!(b.vertices.iter().all(|v| v.name != "x1y1"));
    assert_eq!(
        edges(b, "x1y0"),
        pairs(&[("left", "x0y0"), ("right", "x2y0")])
    );
    assert_eq!(edges(b, "x0y1"), pairs(&[("up", "x0y0"), ("down", "x0y2")]));
    // leading and trailing empty slots; the start is the first existing square
    let g = rect_game("rectangle(up, down, left, right, [ ,w, ] [e,e,e])", "up");
    let b = &g.board;
    assert_eq!(b.vertices.len(), 4);
    assert_eq!(b.vertices[0].name, "x1y0");
    assert_eq!(b.vertices[0].piece, 1);
    assert_eq!(edges(b, "x1y0"), pairs(&[("down", "x1y1")]));
    assert_eq!(edges(b, "x0y1"), pairs(&[("right", "x1y1")]));
}

#[test]
fn hexagon_spec_example() {
    let text = |board: &str| {
        format!("#players = a(1) #pieces = e #variables = #board = {board} #rules = east")
    };
    let gen = parse(&text(
        "hexagon(northWest, northEast, east, southEast, southWest, west,
          [e,e]
          [e,e,e]
          [e,e])",
    ));
    let explicit = parse(&text(
        "v00[e]{ east:v10,southEast:v11,southWest:v01 }
         v10[e]{ southEast:v21,southWest:v11,west:v00 }
         v01[e]{ east:v11,northEast:v00,southEast:v02 }
         v11[e]{ east:v21,northEast:v10,northWest:v00,southEast:v12,southWest:v02,west:v01 }
         v21[e]{ northWest:v10,southWest:v12,west:v11 }
         v02[e]{ east:v12,northEast:v11,northWest:v01 }
         v12[e]{ northEast:v21,northWest:v11,west:v02 }",
    ));
    let (gb, eb) = (&gen.board, &explicit.board);
    assert_eq!(
        gb.dirs,
        vec![
            "east",
            "southEast",
            "southWest",
            "west",
            "northEast",
            "northWest"
        ]
    );
    assert_eq!(gb.vertices.len(), eb.vertices.len());
    for (i, ev) in eb.vertices.iter().enumerate() {
        // vXY is column X, row Y; the generator names it xXyY
        let gname = format!("x{}y{}", &ev.name[1..2], &ev.name[2..3]);
        assert_eq!(gb.vertices[i].name, gname, "same vertex order");
        let rename = |v: Vec<(String, String)>| -> Vec<(String, String)> {
            v.into_iter()
                .map(|(l, t)| (l, format!("x{}y{}", &t[1..2], &t[2..3])))
                .collect()
        };
        let mut want = rename(edges(eb, &ev.name));
        want.sort();
        assert_eq!(edges(gb, &gname), want, "edges of {gname}");
    }
}

#[test]
fn hexagon_shapes() {
    let t = |lines: &str| rect_game(&format!("hexagon(nw, ne, e1, se, sw, w1, {lines})"), "e1");
    // only growing, and growing then shrinking with equal ends
    assert_eq!(t("[e] [e,e] [e,e,e]").board.vertices.len(), 6);
    assert_eq!(
        t("[e,e,e] [e,e,e,e] [e,e,e] [e,e]").board.vertices.len(),
        12
    );
    // only shrinking
    let g = t("[e,e] [e]");
    assert_eq!(
        edges(&g.board, "x0y1"),
        pairs(&[("ne", "x1y0"), ("nw", "x0y0")])
    );
    // empty slots
    let g = t("[e, ] [e,e,e]");
    assert_eq!(g.board.vertices.len(), 4);
    assert_eq!(
        edges(&g.board, "x0y0"),
        pairs(&[("se", "x1y1"), ("sw", "x0y1")])
    );
}

#[test]
fn cuboid_board() {
    let g = rect_game(
        "cuboid(up, down, left, right, front, back,
          [[e,e,e]
           [e,e,e]]
          [[w,w,w]
           [w, ,w]]
          [[b,b,b]
           [b,b,b]])",
        "front",
    );
    let b = &g.board;
    assert_eq!(b.dirs, vec!["down", "right", "front", "left", "up", "back"]);
    assert_eq!(b.vertices.len(), 17);
    // layer by layer, row by row, left to right; the hole is skipped
    assert_eq!(b.vertices[0].name, "x0y0z0");
    assert_eq!(b.vertices[1].name, "x1y0z0");
    assert_eq!(b.vertices[1].piece, 0);
    assert_eq!(b.vertices[6].name, "x0y0z1");
    assert_eq!(b.vertices[6].piece, 1);
    assert_eq!(b.vertices[10].name, "x2y1z1");
    assert_eq!(b.vertices[11].name, "x0y0z2");
    assert_eq!(b.vertices[16].name, "x2y1z2");
    assert_eq!(b.vertices[16].piece, 2);
    assert_eq!(
        edges(b, "x1y0z1"),
        pairs(&[
            ("left", "x0y0z1"),
            ("right", "x2y0z1"),
            ("front", "x1y0z2"),
            ("back", "x1y0z0"),
        ])
    );
    assert_eq!(
        edges(b, "x1y1z0"),
        pairs(&[("up", "x1y0z0"), ("left", "x0y1z0"), ("right", "x2y1z0")])
    );
}

#[test]
fn sugar() {
    let g = rect_game(
        "rectangle(up, down, left, right, [e])",
        "up^3 [e, w, b] [$ a = 1, a = a + 1] (up left)^2 .",
    );
    let sh = |d| Rule::Action(Action::Shift(d));
    assert_eq!(
        g.rules,
        Rule::Concat(vec![
            sh(0),
            sh(0),
            sh(0),
            Rule::Alt(vec![
                Rule::Action(Action::Off(0)),
                Rule::Action(Action::Off(1)),
                Rule::Action(Action::Off(2)),
            ]),
            Rule::Action(Action::Assign(0, Arith::Num(1))),
            Rule::Action(Action::Assign(
                0,
                Arith::Bin(
                    Box::new(Arith::Var(0)),
                    ArithOp::Add,
                    Box::new(Arith::Num(1))
                )
            )),
            sh(0),
            sh(2),
            sh(0),
            sh(2),
            Rule::Action(Action::Noop),
        ])
    );
    // ^1 is the identity, ** collapses, nested alternatives flatten
    let g = rect_game(
        "rectangle(up, down, left, right, [e])",
        "(up + (down + left))^1**",
    );
    assert_eq!(
        g.rules,
        Rule::Star(Box::new(Rule::Alt(vec![sh(0), sh(1), sh(2)])))
    );
}

#[test]
fn ons_comparisons_arithmetic() {
    let g = parse(
        "#players = a(10), b(10) #pieces = e, w #variables = v(5)
         #board = rectangle(up, down, left, right, [e, w])
         #rules = {w, e, w} {$ 1 + 2 * v - (a - b) / 3 >= w} {$ a != 0} {$ a < 1} {$ a <= 1} {$ a == 1} {$ a > 1}",
    );
    let acts = actions(&g.rules);
    assert_eq!(acts[0], Action::On(vec![0, 1]));
    let n = |x| Box::new(Arith::Num(x));
    let v = |x| Box::new(Arith::Var(x));
    // ((1 + (2 * v)) - ((a - b) / 3)) >= count(w)
    assert_eq!(
        acts[1],
        Action::Compare(
            Arith::Bin(
                Box::new(Arith::Bin(
                    n(1),
                    ArithOp::Add,
                    Box::new(Arith::Bin(n(2), ArithOp::Mul, v(2)))
                )),
                ArithOp::Sub,
                Box::new(Arith::Bin(
                    Box::new(Arith::Bin(v(0), ArithOp::Sub, v(1))),
                    ArithOp::Div,
                    n(3)
                ))
            ),
            CmpOp::Ge,
            Arith::PieceCount(1)
        )
    );
    let ops: Vec<CmpOp> = acts[2..]
        .iter()
        .map(|a| match a {
            Action::Compare(_, op, _) => *op,
            _ => panic!(),
        })
        .collect();
    assert_eq!(
        ops,
        vec![CmpOp::Ne, CmpOp::Lt, CmpOp::Le, CmpOp::Eq, CmpOp::Gt]
    );
    // left associativity
    let g = parse(
        "#players = a(10) #pieces = e #variables =
         #board = v[e]{} #rules = [$ a = 8 - 2 - 1]",
    );
    assert_eq!(
        g.rules,
        Rule::Action(Action::Assign(
            0,
            Arith::Bin(
                Box::new(Arith::Bin(n(8), ArithOp::Sub, n(2))),
                ArithOp::Sub,
                n(1)
            )
        ))
    );
}

#[test]
fn nested_patterns_and_deep_but_allowed_nesting() {
    let g = rect_game(
        "rectangle(up, down, left, right, [e])",
        "{? up {! down {e}}} ->>",
    );
    let acts = actions(&g.rules);
    assert_eq!(acts.len(), 6);
    assert!(matches!(acts[0], Action::Pattern { negated: false, .. }));
    assert!(matches!(acts[2], Action::Pattern { negated: true, .. }));
    assert_eq!(acts[5], Action::Switch(None));
    // exactly 256 levels are fine
    let deep = format!("{}up{}", "(".repeat(256), ")".repeat(256));
    let g = rect_game("rectangle(up, down, left, right, [e])", &deep);
    assert_eq!(g.rules, Rule::Action(Action::Shift(0)));
}
