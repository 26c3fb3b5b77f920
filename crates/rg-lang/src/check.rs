//! Static checks (`rg-language.md` §3, §4, §7): names, built-ins, types, map
//! literals, assignments, tags, reachability of `end`. The result is a
//! [`CheckedGame`]. The first error found is returned.
//!
//! Where the reference accepts something that cannot work, ours rejects it
//! (§7.11–7.13): `$$ player`, assigning a name that is both a constant and a
//! variable, recursive aliases, unresolved names in unused types, an arrow as
//! the source of an arrow, `T(*)` with an arrow `T`. Possibly recursive
//! reachability checks are warnings, as in the reference.

use std::collections::HashMap;

use rbg_lang::{Error, Span};

use crate::ast::{Binding, Expr, Game, Label, Name, Type, Value};
use crate::checked::{CEdge, CExpr, CLabel, CheckedGame, Decl, Node, Val};
use crate::types::{Sym, Symbols, Ty, TypeArena};
use crate::{syntax, typedefs};

/// Checks a parsed (or built) game and resolves it.
pub fn check(game: &Game) -> Result<CheckedGame, Error> {
    syntax::validate(game)?;
    let mut symbols = Symbols::default();
    let keeper = symbols.intern("keeper");
    let random = symbols.intern("random");
    let mut types = TypeArena::default();
    let defs = typedefs::resolve(game, &mut symbols, &mut types, keeper, random)?;
    let players = types
        .symbols(defs.player)
        .expect("Player is a set type")
        .to_vec();
    let mut c = Checker {
        symbols,
        types,
        typedefs: defs.by_name,
        constants: Vec::new(),
        const_sizes: Vec::new(),
        const_index: HashMap::new(),
        budget: MAX_VALUE_NODES,
        variables: Vec::new(),
        var_index: HashMap::new(),
    };
    let mut seen: HashMap<&str, Span> = HashMap::new();
    for b in &game.constants {
        if let Some(&first) = seen.get(b.name.text.as_str()) {
            return Err(duplicate("the constant", &b.name, first));
        }
        seen.insert(&b.name.text, b.name.span());
        c.constant(b)?;
    }
    let builtin_vars = c.variables(game, &defs.builtins)?;
    let mut nodes = Nodes::default();
    nodes.intern("begin");
    nodes.intern("end");
    let mut edges = Vec::with_capacity(game.edges.len());
    let edge_spans = game.edges.iter().map(|e| e.loc.0).collect();
    for e in &game.edges {
        let label = c.label(&e.label, &mut nodes)?;
        if e.from.text == e.to.text && matches!(label, CLabel::Tag(_) | CLabel::TagVariable(_)) {
            return Err(Error::new(
                e.loc.0,
                "expected an edge between two nodes, found a tag on a loop (an endless tag sequence)",
            ));
        }
        edges.push(CEdge {
            from: nodes.intern(&e.from.text),
            to: nodes.intern(&e.to.text),
            label,
        });
    }
    let checked = CheckedGame {
        symbols: c.symbols,
        types: c.types,
        typedefs: c.typedefs,
        constants: c.constants,
        variables: c.variables,
        goals: builtin_vars[0],
        visible: builtin_vars[1],
        player: builtin_vars[2],
        players,
        keeper,
        random,
        nodes: nodes.names,
        edges,
        edge_spans,
        pragmas: game.pragmas.clone(),
        warnings: Vec::new(),
    };
    crate::graph::check_reachability(checked, game)
}

#[derive(Default)]
struct Nodes {
    names: Vec<String>,
    index: HashMap<String, Node>,
}

impl Nodes {
    fn intern(&mut self, name: &str) -> Node {
        if let Some(&n) = self.index.get(name) {
            return n;
        }
        let n = Node(self.names.len() as u32);
        self.names.push(name.to_string());
        self.index.insert(name.to_string(), n);
        n
    }
}

/// How many symbols and maps the values of a game may have in all.
pub const MAX_VALUE_NODES: usize = 1 << 20;

/// The built-in variables: name, type alias, default initial value.
const BUILTIN_VARS: [&str; 3] = ["goals", "visible", "player"];

pub(crate) struct Checker {
    pub(crate) symbols: Symbols,
    pub(crate) types: TypeArena,
    pub(crate) typedefs: HashMap<String, Ty>,
    constants: Vec<Decl>,
    /// Nodes of each constant's value (symbols and maps).
    const_sizes: Vec<usize>,
    const_index: HashMap<String, usize>,
    /// Value nodes still allowed in the game (constants are copied into the
    /// values naming them, so nesting them could grow exponentially).
    budget: usize,
    variables: Vec<Decl>,
    var_index: HashMap<String, usize>,
}

fn duplicate(kind: &str, name: &Name, first: Span) -> Error {
    Error::new(
        name.span(),
        format!("expected a new name, found {kind} `{name}` defined twice"),
    )
    .with_secondary(first, "first defined here")
}

impl Checker {
    fn show(&self, t: Ty) -> String {
        self.types.show(t, &self.symbols)
    }

    /// The resolved type of a type written in a declaration or label.
    fn ty(&mut self, t: &Type) -> Result<Ty, Error> {
        typedefs::resolve_type(t, &self.typedefs, &mut self.symbols, &mut self.types)
    }

    fn constant(&mut self, b: &Binding) -> Result<(), Error> {
        let ty = self.ty(&b.ty)?;
        let visible = self.constants.len();
        let before = self.budget;
        let value = self.value(&b.value, ty, visible)?;
        self.const_sizes.push(before - self.budget);
        self.const_index
            .insert(b.name.text.clone(), self.constants.len());
        self.constants.push(Decl {
            name: b.name.text.clone(),
            ty,
            value,
        });
        Ok(())
    }

    /// The user's variables, then the built-in ones; returns the indices of
    /// `goals`, `visible` and `player`.
    fn variables(
        &mut self,
        game: &Game,
        builtins: &typedefs::Builtins,
    ) -> Result<[usize; 3], Error> {
        let mut seen: HashMap<&str, Span> = HashMap::new();
        for b in &game.variables {
            if let Some(&first) = seen.get(b.name.text.as_str()) {
                return Err(duplicate("the variable", &b.name, first));
            }
            seen.insert(&b.name.text, b.name.span());
        }
        let mut redeclared: [Option<&Binding>; 3] = [None; 3];
        for b in &game.variables {
            if let Some(k) = BUILTIN_VARS.iter().position(|&n| n == b.name.text) {
                redeclared[k] = Some(b);
                continue;
            }
            let ty = self.ty(&b.ty)?;
            let value = self.value(&b.value, ty, self.constants.len())?;
            self.add_variable(&b.name.text, ty, value);
        }
        let mut out = [0; 3];
        for (k, name) in BUILTIN_VARS.iter().enumerate() {
            let builtin_ty = builtins.var_types[k];
            let (ty, value) = match redeclared[k] {
                Some(b) => {
                    let ty = self.ty(&b.ty)?;
                    if !self.types.assignable(ty, builtin_ty) {
                        return Err(Error::new(
                            b.ty.span(),
                            format!(
                                "expected the built-in type of `{name}` ({}), found {}",
                                self.show(builtin_ty),
                                self.show(ty)
                            ),
                        ));
                    }
                    (ty, self.value(&b.value, ty, self.constants.len())?)
                }
                None => {
                    let v = builtins.var_values[k].clone();
                    let ty = builtin_ty;
                    (
                        ty,
                        self.value(&v, ty, self.constants.len()).map_err(|e| {
                            e.with_note(format!("in the built-in initial value of `{name}`"))
                        })?,
                    )
                }
            };
            out[k] = self.add_variable(name, ty, value);
        }
        Ok(out)
    }

    fn add_variable(&mut self, name: &str, ty: Ty, value: Val) -> usize {
        let i = self.variables.len();
        self.var_index.insert(name.to_string(), i);
        self.variables.push(Decl {
            name: name.to_string(),
            ty,
            value,
        });
        i
    }

    /// Checks `v` against `ty` with the first `visible` constants in scope.
    fn value(&mut self, v: &Value, ty: Ty, visible: usize) -> Result<Val, Error> {
        let size = match v {
            Value::Name(n) => self
                .visible_const(&n.text, visible)
                .map_or(1, |c| self.const_sizes[c]),
            Value::Map { .. } => 1,
        };
        if size > self.budget {
            return Err(Error::new(
                v.span(),
                format!("expected values of at most {MAX_VALUE_NODES} symbols and maps in all, found more"),
            ));
        }
        self.budget -= size;
        match v {
            Value::Name(n) => {
                if let Some(c) = self.visible_const(&n.text, visible) {
                    let ct = self.constants[c].ty;
                    if !self.types.assignable(ty, ct) {
                        return Err(self.mismatch(
                            n.span(),
                            ty,
                            &format!("the constant `{n}` of type {}", self.show(ct)),
                        ));
                    }
                    return Ok(self.constants[c].value.clone());
                }
                let s = self.symbols.intern(&n.text);
                match self.types.symbols(ty) {
                    Some(set) if set.contains(&s) => Ok(Val::Sym(s)),
                    _ => Err(self.mismatch(n.span(), ty, &format!("the symbol `{n}`"))),
                }
            }
            Value::Map { entries, loc } => {
                let mut default: Option<(Span, Val)> = None;
                let mut out: Vec<(Sym, Val)> = Vec::with_capacity(entries.len());
                let mut keys: HashMap<&str, Span> = HashMap::new();
                let Some((src, dst)) = self.types.arrow_parts(ty) else {
                    return Err(self.mismatch(loc.0, ty, "a map"));
                };
                for e in entries {
                    let value = self.value(&e.value, dst, visible)?;
                    match &e.key {
                        None => {
                            if let Some((first, _)) = default {
                                return Err(Error::new(
                                    e.value.span(),
                                    "expected one default value in the map, found a second `:`",
                                )
                                .with_secondary(first, "first default here"));
                            }
                            default = Some((e.value.span(), value));
                        }
                        Some(k) => {
                            if let Some(&first) = keys.get(k.text.as_str()) {
                                return Err(Error::new(
                                    k.span(),
                                    format!("expected distinct keys in the map, found `{k}` twice"),
                                )
                                .with_secondary(first, "first here"));
                            }
                            keys.insert(&k.text, k.span());
                            self.key(k, src, visible)?;
                            out.push((self.symbols.intern(&k.text), value));
                        }
                    }
                }
                let Some((_, default)) = default else {
                    return Err(Error::new(
                        loc.0,
                        "expected a default value (`:value`) in the map, found none",
                    ));
                };
                Ok(Val::Map {
                    default: Box::new(default),
                    entries: out,
                })
            }
        }
    }

    /// A map literal's key: the symbol itself, typed as a constant if one of
    /// that name is visible (§7.10).
    fn key(&mut self, k: &Name, src: Ty, visible: usize) -> Result<(), Error> {
        if let Some(c) = self.visible_const(&k.text, visible) {
            let ct = self.constants[c].ty;
            if !self.types.assignable(src, ct) {
                return Err(self.mismatch(
                    k.span(),
                    src,
                    &format!("the constant `{k}` of type {}", self.show(ct)),
                ));
            }
            return Ok(());
        }
        let s = self.symbols.intern(&k.text);
        match self.types.symbols(src) {
            Some(set) if set.contains(&s) => Ok(()),
            _ => Err(self.mismatch(k.span(), src, &format!("the key `{k}`"))),
        }
    }

    fn visible_const(&self, name: &str, visible: usize) -> Option<usize> {
        self.const_index.get(name).copied().filter(|&c| c < visible)
    }

    fn mismatch(&self, span: Span, expected: Ty, found: &str) -> Error {
        Error::new(
            span,
            format!(
                "expected a value of type {}, found {found}",
                self.show(expected)
            ),
        )
    }

    /// Resolves an expression and its static type.
    fn expr(&mut self, e: &Expr) -> Result<(CExpr, Ty), Error> {
        match e {
            Expr::Ref(n) => {
                if let Some(&c) = self.const_index.get(&n.text) {
                    Ok((CExpr::Const(c), self.constants[c].ty))
                } else if let Some(&v) = self.var_index.get(&n.text) {
                    Ok((CExpr::Var(v), self.variables[v].ty))
                } else {
                    let s = self.symbols.intern(&n.text);
                    Ok((CExpr::Sym(s), self.types.singleton(s)))
                }
            }
            Expr::Access { map, key, .. } => {
                let (m, mt) = self.expr(map)?;
                let Some((src, dst)) = self.types.arrow_parts(mt) else {
                    return Err(Error::new(
                        map.span(),
                        format!(
                            "expected a map to access, found a value of type {}",
                            self.show(mt)
                        ),
                    ));
                };
                let (k, kt) = self.expr(key)?;
                if self.types.symbols(kt).is_none() || !self.types.assignable(src, kt) {
                    return Err(Error::new(
                        key.span(),
                        format!(
                            "expected a key of type {}, found a value of type {}",
                            self.show(src),
                            self.show(kt)
                        ),
                    ));
                }
                Ok((CExpr::Access(Box::new(m), Box::new(k)), dst))
            }
            Expr::Cast { ty, expr, .. } => {
                let Some(&t) = self.typedefs.get(&ty.text) else {
                    return Err(typedefs::unresolved(ty));
                };
                let (inner, it) = self.expr(expr)?;
                if !self.types.assignable(t, it) {
                    return Err(Error::new(
                        expr.span(),
                        format!(
                            "expected a value castable to `{ty}` ({}), found a value of type {}",
                            self.show(t),
                            self.show(it)
                        ),
                    ));
                }
                Ok((inner, t))
            }
        }
    }

    /// The place assigned by `target`: its root must be a variable.
    fn target(&mut self, target: &Expr, any: bool) -> Result<(CExpr, Ty), Error> {
        let root = target.root();
        if self.const_index.contains_key(&root.text) {
            let mut err = Error::new(
                root.span(),
                format!("expected a variable to assign, found the constant `{root}`"),
            );
            if self.var_index.contains_key(&root.text) {
                err = err.with_note(
                    "a constant and a variable share this name; expressions read the constant",
                );
            }
            return Err(err);
        }
        let Some(&v) = self.var_index.get(&root.text) else {
            return Err(Error::new(
                root.span(),
                format!("expected a variable to assign, found the symbol `{root}`"),
            ));
        };
        if any && self.variables[v].name == "player" {
            return Err(Error::new(
                target.span(),
                "expected a single value for `player`, found an any-assignment `T(*)`",
            ));
        }
        self.expr(target)
    }

    fn label(&mut self, label: &Label, nodes: &mut Nodes) -> Result<CLabel, Error> {
        Ok(match label {
            Label::Skip => CLabel::Skip,
            Label::Tag(t) => CLabel::Tag(self.symbols.intern(&t.text)),
            Label::TagVariable(v) => {
                let Some(&i) = self.var_index.get(&v.text) else {
                    return Err(Error::new(
                        v.span(),
                        format!("expected a variable after `$$`, found `{v}`"),
                    ));
                };
                if v.text == "player" {
                    return Err(Error::new(
                        v.span(),
                        "expected a variable other than `player` after `$$`",
                    ));
                }
                let t = self.variables[i].ty;
                if self.types.symbols(t).is_none() {
                    return Err(Error::new(
                        v.span(),
                        format!(
                            "expected a variable of a set type after `$$`, found `{v}` of type {}",
                            self.show(t)
                        ),
                    ));
                }
                CLabel::TagVariable(i)
            }
            Label::Assign { target, value } => {
                let (t, tt) = self.target(target, false)?;
                let (v, vt) = self.expr(value)?;
                if !self.types.assignable(tt, vt) {
                    return Err(Error::new(
                        value.span(),
                        format!(
                            "expected a value assignable to type {}, found a value of type {}",
                            self.show(tt),
                            self.show(vt)
                        ),
                    ));
                }
                CLabel::Assign(t, v)
            }
            Label::AssignAny { target, ty } => {
                let (t, tt) = self.target(target, true)?;
                let any = self.ty(ty)?;
                let Some(symbols) = self.types.symbols(any).map(<[Sym]>::to_vec) else {
                    return Err(Error::new(
                        ty.span(),
                        format!("expected a set type in `(*)`, found {}", self.show(any)),
                    ));
                };
                if !self.types.strictly_assignable(tt, any) {
                    return Err(Error::new(
                        ty.span(),
                        format!(
                            "expected a set type whose every symbol fits the target's type {}, found {}",
                            self.show(tt),
                            self.show(any)
                        ),
                    ));
                }
                CLabel::AssignAny(t, symbols)
            }
            Label::Compare { left, right, equal } => {
                let (l, lt) = self.expr(left)?;
                let (r, rt) = self.expr(right)?;
                if !self.types.assignable(lt, rt) {
                    return Err(Error::new(
                        right.span(),
                        format!(
                            "expected a value comparable with type {}, found a value of type {}",
                            self.show(lt),
                            self.show(rt)
                        ),
                    ));
                }
                CLabel::Compare(l, r, *equal)
            }
            Label::Reach { positive, from, to } => {
                CLabel::Reach(*positive, nodes.intern(&from.text), nodes.intern(&to.text))
            }
        })
    }
}
