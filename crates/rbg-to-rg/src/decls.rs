//! The declarations of a translation: types, constants (vertex relations and
//! arithmetic as maps) and variables, and the labels that read them.

use std::collections::HashMap;

use rg_lang::ast::{Binding, Entry, Expr, Label, Name, Type, TypeDef, Value};

/// One step of a chain of labels: parallel alternatives.
pub type Step = Vec<Label>;

use crate::arith::{Input, Table};
use crate::names::Names;

/// A map value from `(key, value)` entries: the most common value becomes
/// the default (ties: the first seen), the others explicit entries.
pub fn map_value(entries: Vec<(String, Value)>, fallback: Value) -> Value {
    let mut counts: Vec<(&Value, usize)> = Vec::new();
    for (_, v) in &entries {
        match counts.iter_mut().find(|(x, _)| *x == v) {
            Some(c) => c.1 += 1,
            None => counts.push((v, 1)),
        }
    }
    let mut best: Option<(&Value, usize)> = None;
    for &(v, c) in &counts {
        if best.is_none_or(|b| c > b.1) {
            best = Some((v, c));
        }
    }
    let default = best.map_or(fallback, |(v, _)| v.clone());
    let mut out: Vec<Entry> = entries
        .into_iter()
        .filter(|(_, v)| *v != default)
        .map(|(k, v)| Entry {
            key: Some(Name::new(k)),
            value: v,
        })
        .collect();
    out.push(Entry {
        key: None,
        value: default,
    });
    Value::Map {
        entries: out,
        loc: Default::default(),
    }
}

/// A symbol value.
pub fn sym(s: &str) -> Value {
    Value::Name(Name::new(s))
}

/// `a == b` (or `!=`).
pub fn cmp(a: Expr, b: Expr, equal: bool) -> Label {
    Label::Compare {
        left: a,
        right: b,
        equal,
    }
}

/// `a = b`.
pub fn assign(a: Expr, b: Expr) -> Label {
    Label::Assign {
        target: a,
        value: b,
    }
}

pub(crate) fn tref(name: &str) -> Type {
    Type::Ref(Name::new(name))
}

/// The translation's declarations, made on demand and shared.
pub struct Decls {
    /// Fresh names.
    pub names: Names,
    /// Type definitions in order.
    pub types: Vec<TypeDef>,
    /// Constants in order.
    pub constants: Vec<Binding>,
    /// Variables in order.
    pub variables: Vec<Binding>,
    /// `Coord`, `CoordOrNull`, `Piece`, `Square` type names.
    pub coord_ty: String,
    /// Vertices and `null`.
    pub coord_or_null_ty: String,
    /// Pieces.
    pub piece_ty: String,
    /// Pieces and `null`.
    pub square_ty: String,
    /// The null symbol (no vertex; on the board: no piece).
    pub null: String,
    /// The undefined-number symbol.
    pub nan: String,
    /// The current vertex.
    pub coord: String,
    /// The board.
    pub board: String,
    /// Piece counts (when the rules read them).
    pub counters: Option<String>,
    /// Per piece: the variable holding its vertex, when tracked
    /// (`royal.rs`).
    pub whereabouts: Vec<Option<String>>,
    /// Vertex names.
    pub vertices: Vec<String>,
    /// The piece on every vertex at the start.
    pub initial: Vec<u32>,
    /// Piece names.
    pub pieces: Vec<String>,
    /// Player names.
    pub players: Vec<String>,
    /// RG names of the RBG variables (players' scores excluded).
    pub vars: Vec<String>,
    /// Bounds of all variables (players first).
    pub bounds: Vec<u64>,
    ranges: HashMap<u64, String>,
    /// Types `{lo..hi}` (with `nan` when asked) of intermediate values.
    pub(crate) int_types: HashMap<(i64, i64, bool), String>,
    /// The prefix of negative numbers' symbols.
    pub(crate) minus: Option<String>,
    val_ty: Option<String>,
    tables: HashMap<(Table, bool), String>,
    /// Constant maps already declared, by value.
    maps: HashMap<(Type, Value), String>,
    /// Set types of some vertices, by their members.
    vertex_sets: HashMap<Vec<bool>, String>,
    /// Move maps that take no two vertices to one vertex.
    pub injective: std::collections::HashSet<String>,
    /// Every move map's targets (vertex indices, `None` = `null`; `null`
    /// goes to `null`).
    pub moves: HashMap<String, Vec<Option<u32>>>,
}

impl Decls {
    /// The basic types and variables of `game`.
    pub fn new(game: &rbg_lang::Game, mut names: Names, counted: bool) -> Decls {
        let vertices: Vec<String> = game
            .board
            .vertices
            .iter()
            .map(|v| names.symbol(&v.name))
            .collect();
        let pieces: Vec<String> = game.pieces.iter().map(|p| names.symbol(p)).collect();
        let players: Vec<String> = game.players.iter().map(|p| names.symbol(&p.name)).collect();
        let null = names.fresh("null");
        let nan = names.fresh("nan");
        let coord_ty = names.fresh("Coord");
        let coord_or_null_ty = names.fresh("CoordOrNull");
        let piece_ty = names.fresh("Piece");
        let square_ty = names.fresh("Square");
        let set = |list: &[String]| Type::set(list.iter().cloned());
        let with_null =
            |list: &[String]| Type::set(std::iter::once(null.clone()).chain(list.iter().cloned()));
        let max_score = game.players.iter().map(|p| p.bound).max().unwrap_or(0);
        let mut d = Decls {
            types: vec![
                TypeDef {
                    name: Name::new("Player"),
                    ty: set(&players),
                },
                TypeDef {
                    name: Name::new("Score"),
                    ty: Type::set((0..=max_score).map(|i| i.to_string())),
                },
                TypeDef {
                    name: Name::new(&coord_ty),
                    ty: set(&vertices),
                },
                TypeDef {
                    name: Name::new(&coord_or_null_ty),
                    ty: with_null(&vertices),
                },
                TypeDef {
                    name: Name::new(&piece_ty),
                    ty: set(&pieces),
                },
                TypeDef {
                    name: Name::new(&square_ty),
                    ty: with_null(&pieces),
                },
            ],
            constants: Vec::new(),
            variables: Vec::new(),
            coord: names.fresh("coord"),
            board: names.fresh("board"),
            counters: None,
            whereabouts: vec![None; game.pieces.len()],
            coord_ty,
            coord_or_null_ty,
            piece_ty,
            square_ty: square_ty.clone(),
            null,
            nan,
            vertices,
            initial: game.board.vertices.iter().map(|v| v.piece).collect(),
            pieces,
            players,
            vars: Vec::new(),
            bounds: (0..game.num_vars() as u32)
                .map(|v| game.var_bound(v))
                .collect(),
            ranges: HashMap::new(),
            int_types: HashMap::new(),
            minus: None,
            val_ty: None,
            tables: HashMap::new(),
            maps: HashMap::new(),
            vertex_sets: HashMap::new(),
            injective: Default::default(),
            moves: HashMap::new(),
            names,
        };
        // The board: every vertex's piece, `null` holds `null`.
        let entries: Vec<(String, Value)> = game
            .board
            .vertices
            .iter()
            .enumerate()
            .map(|(i, v)| (d.vertices[i].clone(), sym(&d.pieces[v.piece as usize])))
            .collect();
        let mut board = map_value(entries, sym(&d.null));
        if let Value::Map { entries, .. } = &mut board {
            let null_entry = Entry {
                key: Some(Name::new(&d.null)),
                value: sym(&d.null),
            };
            entries.insert(0, null_entry);
        }
        d.variables.push(Binding {
            name: Name::new(&d.board),
            ty: Type::Arrow(
                Box::new(tref(&d.coord_or_null_ty)),
                Box::new(tref(&square_ty)),
            ),
            value: board,
        });
        d.variables.push(Binding {
            name: Name::new(&d.coord),
            ty: tref(&d.coord_or_null_ty),
            value: sym(&d.vertices[0]),
        });
        if counted {
            let nv = d.vertices.len() as u64;
            let cnt = d.range(nv);
            let name = d.names.fresh("counters");
            let mut counts = vec![0u64; d.pieces.len()];
            for v in &game.board.vertices {
                counts[v.piece as usize] += 1;
            }
            let entries = d
                .pieces
                .iter()
                .zip(&counts)
                .map(|(p, c)| (p.clone(), sym(&c.to_string())))
                .collect();
            d.variables.push(Binding {
                name: Name::new(&name),
                ty: Type::Arrow(Box::new(tref(&d.piece_ty)), Box::new(tref(&cnt))),
                value: map_value(entries, sym("0")),
            });
            d.counters = Some(name);
        }
        for v in &game.variables {
            let name = d.names.fresh(&v.name);
            let ty = d.range(v.bound);
            d.variables.push(Binding {
                name: Name::new(&name),
                ty: tref(&ty),
                value: sym("0"),
            });
            d.vars.push(name);
        }
        d
    }

    /// Declares the variable holding the vertex of piece `p` (`royal.rs`),
    /// the vertex holding it at the start (`null` if none does).
    pub fn track(&mut self, p: u32) {
        let name = self.names.fresh(&format!("{}At", self.pieces[p as usize]));
        let start = self.initial.iter().position(|&q| q == p);
        let value = start.map_or_else(|| sym(&self.null), |v| sym(&self.vertices[v]));
        self.variables.push(Binding {
            name: Name::new(&name),
            ty: tref(&self.coord_or_null_ty),
            value,
        });
        self.whereabouts[p as usize] = Some(name);
    }

    /// Declares a constant; returns its name.
    pub(crate) fn constant(&mut self, base: &str, ty: Type, value: Value) -> String {
        let key = (ty, value);
        if let Some(n) = self.maps.get(&key) {
            return n.clone();
        }
        let name = self.names.fresh(base);
        self.constants.push(Binding {
            name: Name::new(&name),
            ty: key.0.clone(),
            value: key.1.clone(),
        });
        self.maps.insert(key, name.clone());
        name
    }

    /// Declares a type; returns its name.
    pub(crate) fn type_def(&mut self, base: &str, ty: Type) -> String {
        let name = self.names.fresh(base);
        self.types.push(TypeDef {
            name: Name::new(&name),
            ty,
        });
        name
    }

    /// The type `{0, ..., upper}`.
    pub fn range(&mut self, upper: u64) -> String {
        if let Some(n) = self.ranges.get(&upper) {
            return n.clone();
        }
        let name = self.names.fresh(&format!("Upto{upper}"));
        self.types.push(TypeDef {
            name: Name::new(&name),
            ty: Type::set((0..=upper).map(|i| i.to_string())),
        });
        self.ranges.insert(upper, name.clone());
        name
    }

    /// The type of table results: `nan` and the numbers up to the largest
    /// bound.
    pub(crate) fn val_type(&mut self) -> String {
        if let Some(v) = &self.val_ty {
            return v.clone();
        }
        let top = self
            .bounds
            .iter()
            .copied()
            .chain([self.vertices.len() as u64])
            .max()
            .unwrap_or(0);
        let name = self.names.fresh("Val");
        self.types.push(TypeDef {
            name: Name::new(&name),
            ty: Type::set(
                std::iter::once(self.nan.clone()).chain((0..=top).map(|i| i.to_string())),
            ),
        });
        self.val_ty = Some(name.clone());
        name
    }

    /// The expression reading an input of an arithmetic expression.
    pub fn input(&self, i: Input) -> Expr {
        match i {
            Input::Var(v) => self.var_place(v),
            Input::Count(p) => Expr::name(self.counters.as_ref().expect("counted"))
                .at(Expr::name(&self.pieces[p as usize])),
        }
    }

    /// The place of RBG variable `v` (players' scores are `goals[p]`).
    pub fn var_place(&self, v: u32) -> Expr {
        let np = self.players.len();
        if (v as usize) < np {
            Expr::name("goals").at(Expr::name(&self.players[v as usize]))
        } else {
            Expr::name(&self.vars[v as usize - np])
        }
    }

    /// The upper bound of an input's values.
    pub fn input_bound(&self, i: Input) -> u64 {
        match i {
            Input::Var(v) => self.bounds[v as usize],
            Input::Count(_) => self.vertices.len() as u64,
        }
    }

    /// `T[i1][i2]...` for a table (declared on first use); `boolean` tables
    /// hold `0`/`1` (Bool), others numbers or `nan`.
    pub fn table_read(&mut self, t: &Table, boolean: bool) -> Expr {
        let key = (t.clone(), boolean);
        let name = match self.tables.get(&key) {
            Some(n) => n.clone(),
            None => {
                let target = if boolean {
                    "Bool".to_string()
                } else {
                    self.val_type()
                };
                let mut ty = tref(&target);
                for &u in t.upper.iter().rev() {
                    let r = self.range(u);
                    ty = Type::Arrow(Box::new(tref(&r)), Box::new(ty));
                }
                let leaf = |v: &Option<i64>| match v {
                    Some(x) => x.to_string(),
                    None => self.nan.clone(),
                };
                let values: Vec<String> = t.values.iter().map(leaf).collect();
                let value = nested(&values, &t.upper, &self.nan);
                let name = self.names.fresh(if boolean { "test" } else { "calc" });
                self.constants.push(Binding {
                    name: Name::new(&name),
                    ty,
                    value,
                });
                self.tables.insert(key, name.clone());
                name
            }
        };
        t.inputs
            .iter()
            .fold(Expr::name(&name), |e, &i| e.at(self.input(i)))
    }

    /// A constant map over vertices and `null` (`CoordOrNull -> target`)
    /// with the given value per vertex and `fallback` at `null`; identical
    /// maps are declared once.
    pub fn vertex_map(
        &mut self,
        base: &str,
        target: &str,
        per_vertex: Vec<String>,
        fallback: &str,
    ) -> String {
        let entries: Vec<(String, Value)> = self
            .vertices
            .iter()
            .zip(per_vertex)
            .map(|(v, x)| (v.clone(), sym(&x)))
            .collect();
        let mut value = map_value(entries, sym(fallback));
        if let Value::Map { entries: e, .. } = &mut value {
            let default = e.last().expect("a default").value.clone();
            if default != sym(fallback) {
                e.insert(
                    0,
                    Entry {
                        key: Some(Name::new(&self.null)),
                        value: sym(fallback),
                    },
                );
            }
        }
        let ty = Type::Arrow(
            Box::new(tref(&self.coord_or_null_ty)),
            Box::new(tref(target)),
        );
        self.constant(base, ty, value)
    }

    /// The set type of the vertices in `set` (declared once per set).
    pub fn vertex_set(&mut self, set: &[bool]) -> String {
        if let Some(t) = self.vertex_sets.get(set) {
            return t.clone();
        }
        let members: Vec<String> = (0..set.len())
            .filter(|&v| set[v])
            .map(|v| self.vertices[v].clone())
            .collect();
        let name = self.type_def("Coords", Type::set(members));
        self.vertex_sets.insert(set.to_vec(), name.clone());
        name
    }

    /// A test map over vertices (`1` where `set[v]`).
    pub fn vertex_test(&mut self, set: &[bool]) -> String {
        let values = set
            .iter()
            .map(|&b| if b { "1" } else { "0" }.to_string())
            .collect();
        self.vertex_map("at", "Bool", values, "0")
    }

    /// A move map over vertices: the target of each vertex or `null`.
    pub fn vertex_move(&mut self, targets: &[Option<u32>]) -> String {
        let values = targets
            .iter()
            .map(|t| t.map_or(self.null.clone(), |v| self.vertices[v as usize].clone()))
            .collect();
        let ty = self.coord_or_null_ty.clone();
        let null = self.null.clone();
        let name = self.vertex_map("go", &ty, values, &null);
        self.moves.insert(name.clone(), targets.to_vec());
        let mut hit = vec![false; self.vertices.len()];
        if targets
            .iter()
            .flatten()
            .all(|&v| !std::mem::replace(&mut hit[v as usize], true))
        {
            self.injective.insert(name.clone());
        }
        name
    }

    /// A test map over pieces (`1` for the pieces in `set`, `0` at `null`,
    /// the piece on no vertex).
    pub fn piece_test(&mut self, set: &[u32]) -> String {
        let entries = self
            .pieces
            .iter()
            .enumerate()
            .map(|(p, name)| {
                (
                    name.clone(),
                    sym(if set.contains(&(p as u32)) { "1" } else { "0" }),
                )
            })
            .collect();
        let mut value = map_value(entries, sym("0"));
        if let Value::Map { entries, .. } = &mut value {
            if entries.last().is_some_and(|e| e.value != sym("0")) {
                entries.insert(
                    0,
                    Entry {
                        key: Some(Name::new(&self.null)),
                        value: sym("0"),
                    },
                );
            }
        }
        let ty = Type::Arrow(Box::new(tref(&self.square_ty)), Box::new(tref("Bool")));
        self.constant("isOneOf", ty, value)
    }

    /// The counter tables `name` (+1 or −1 over `0..=vertices`).
    pub fn step_table(&mut self, up: bool) -> String {
        let nv = self.vertices.len() as i64;
        let inputs = vec![Input::Count(0)];
        let t = Table::build(inputs, vec![nv as u64], |v| {
            let x = v[0] + if up { 1 } else { -1 };
            (0..=nv).contains(&x).then_some(x)
        })
        .expect("one input");
        let key = (t.clone(), false);
        if let Some(n) = self.tables.get(&key) {
            return n.clone();
        }
        let r = self.range(nv as u64);
        let values: Vec<String> = t
            .values
            .iter()
            .map(|v| v.map_or(self.nan.clone(), |x| x.to_string()))
            .collect();
        let value = nested(&values, &t.upper, &self.nan);
        let name = self.names.fresh(if up { "inc" } else { "dec" });
        let val = self.val_type();
        self.constants.push(Binding {
            name: Name::new(&name),
            ty: Type::Arrow(Box::new(tref(&r)), Box::new(tref(&val))),
            value,
        });
        self.tables.insert(key, name.clone());
        name
    }
}

/// A row-major table as a nested map over `0..=upper[k]`.
fn nested(values: &[String], upper: &[u64], fallback: &str) -> Value {
    let keys: Vec<Vec<String>> = upper
        .iter()
        .map(|&u| (0..=u).map(|k| k.to_string()).collect())
        .collect();
    nested_keys(values, &keys, fallback)
}

/// A row-major table as a nested map over the given keys per level.
pub fn nested_keys(values: &[String], keys: &[Vec<String>], fallback: &str) -> Value {
    match keys.split_first() {
        None => sym(&values[0]),
        Some((level, rest)) => {
            let stride = values.len() / level.len();
            let entries = level
                .iter()
                .enumerate()
                .map(|(k, key)| {
                    let part = &values[k * stride..(k + 1) * stride];
                    (key.clone(), nested_keys(part, rest, fallback))
                })
                .collect();
            map_value(entries, nested_default(rest.len(), fallback))
        }
    }
}

fn nested_default(depth: usize, fallback: &str) -> Value {
    if depth == 0 {
        sym(fallback)
    } else {
        map_value(Vec::new(), nested_default(depth - 1, fallback))
    }
}
