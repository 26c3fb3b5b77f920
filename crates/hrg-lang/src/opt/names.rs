//! What the names of an RG game refer to (`rg-language.md` §4.2: an
//! expression's name is a constant, else a variable, else a symbol), and
//! expressions folded and specialised under known variable values.

use std::collections::{BTreeMap, HashMap, HashSet};

use rg_lang::ast::{self as rg, Expr, Label, Name, Pragma, Type, Value};

/// Known values of variables (set-typed ones only): name → symbol.
pub(super) type Env = BTreeMap<String, String>;

/// Variables the optimiser never tracks or removes.
pub(super) const BUILTIN_VARIABLES: [&str; 3] = ["player", "goals", "visible"];

/// The declarations of a game, by name.
pub(super) struct Names<'a> {
    consts: HashMap<&'a str, &'a Value>,
    /// Variables; the symbols of their type when it is a set type.
    vars: HashMap<&'a str, Option<Vec<String>>>,
    types: HashMap<&'a str, &'a Type>,
    /// Every variable's index (for [`Reads`]).
    ids: HashMap<&'a str, usize>,
    /// Nodes named by pragmas that change the enumeration (never edited).
    pub pragma_nodes: HashSet<String>,
    /// Variables named by pragmas (never tracked or removed).
    pub pragma_vars: HashSet<String>,
}

/// A value known when translating: a symbol or a constant map.
#[derive(Clone)]
enum Known<'a> {
    Sym(String),
    Map(&'a [rg::Entry]),
}

impl<'a> Names<'a> {
    pub(super) fn new(game: &'a rg::Game) -> Names<'a> {
        let mut n = Names {
            consts: game
                .constants
                .iter()
                .map(|c| (c.name.text.as_str(), &c.value))
                .collect(),
            vars: HashMap::new(),
            ids: HashMap::new(),
            types: game
                .types
                .iter()
                .map(|t| (t.name.text.as_str(), &t.ty))
                .collect(),
            pragma_nodes: HashSet::new(),
            pragma_vars: HashSet::new(),
        };
        for b in BUILTIN_VARIABLES {
            n.vars.insert(b, None);
        }
        for v in &game.variables {
            let set = if BUILTIN_VARIABLES.contains(&v.name.text.as_str()) {
                None
            } else {
                n.symbols(&v.ty)
            };
            n.vars.insert(v.name.text.as_str(), set);
        }
        let mut keys: Vec<&str> = n.vars.keys().copied().collect();
        keys.sort_unstable();
        n.ids = keys.into_iter().enumerate().map(|(i, k)| (k, i)).collect();
        for p in &game.pragmas {
            let (nodes, vars): (Vec<&Name>, Vec<&Name>) = match p {
                Pragma::Disjoint { node, .. } => (vec![node], vec![]),
                Pragma::Iterator { nodes, .. } => (nodes.iter().collect(), vec![]),
                Pragma::Repeat { nodes, variables } => {
                    (nodes.iter().collect(), variables.iter().collect())
                }
                Pragma::SimpleApply {
                    from,
                    to,
                    assignments,
                    ..
                } => {
                    for (a, b) in assignments {
                        n.pragma_vars.insert(a.root().text.clone());
                        n.pragma_vars.insert(b.root().text.clone());
                    }
                    (vec![from, to], vec![])
                }
                Pragma::TagIndex { nodes, .. } | Pragma::Unique(nodes) => {
                    (nodes.iter().collect(), vec![])
                }
                Pragma::ArtificialTag(_)
                | Pragma::Integer { .. }
                | Pragma::TranslatedFromRbg
                | Pragma::Unknown { .. } => (vec![], vec![]),
            };
            n.pragma_nodes
                .extend(nodes.into_iter().map(|x| x.text.clone()));
            n.pragma_vars
                .extend(vars.into_iter().map(|x| x.text.clone()));
        }
        n
    }

    /// The symbols of a set type (aliases and the built-in set types
    /// resolved); `None` for arrows and unknown names.
    pub(super) fn symbols(&self, ty: &Type) -> Option<Vec<String>> {
        let mut t = ty;
        for _ in 0..64 {
            match t {
                Type::Set { symbols, .. } => {
                    return Some(symbols.iter().map(|s| s.text.clone()).collect())
                }
                Type::Arrow(..) => return None,
                Type::Ref(name) => match self.types.get(name.text.as_str()) {
                    Some(next) => t = next,
                    None if name.text == "Bool" => return Some(vec!["0".into(), "1".into()]),
                    None => return None,
                },
            }
        }
        None
    }

    /// The index of a variable.
    pub(super) fn id(&self, var: &str) -> Option<usize> {
        self.ids.get(var).copied()
    }

    /// The variables `label` reads, as a set.
    pub(super) fn read_set(&self, label: &Label) -> Reads {
        let mut r = Reads::default();
        self.reads(label, &mut |v| {
            if let Some(i) = self.id(v) {
                r.insert(i);
            }
        });
        r
    }

    /// Whether a name in an expression stands for itself (a symbol).
    pub(super) fn is_symbol(&self, name: &str) -> bool {
        !self.consts.contains_key(name) && !self.vars.contains_key(name)
    }

    /// Whether `name` is a variable an expression can read (no constant of
    /// that name hides it).
    pub(super) fn is_variable(&self, name: &str) -> bool {
        self.vars.contains_key(name) && !self.consts.contains_key(name)
    }

    /// A variable whose value the optimiser may track: of a set type whose
    /// symbols all read as symbols, not built in, named by no pragma.
    pub(super) fn trackable(&self, name: &str) -> Option<&[String]> {
        if !self.is_variable(name) || self.pragma_vars.contains(name) {
            return None;
        }
        let symbols = self.vars.get(name)?.as_deref()?;
        symbols.iter().all(|s| self.is_symbol(s)).then_some(symbols)
    }

    /// The value of a constant name (names of earlier constants followed).
    fn value(&self, v: &'a Value) -> Option<Known<'a>> {
        let mut v = v;
        for _ in 0..64 {
            match v {
                Value::Map { entries, .. } => return Some(Known::Map(entries)),
                Value::Name(n) => match self.consts.get(n.text.as_str()) {
                    Some(next) => v = next,
                    None => return Some(Known::Sym(n.text.clone())),
                },
            }
        }
        None
    }

    /// `e` with known variables replaced and lookups of constant maps by
    /// known keys done; its value when that is a symbol.
    pub(super) fn fold(&self, e: &Expr, env: &'a Env) -> (Expr, Option<String>) {
        let (out, known) = self.fold_inner(e, env);
        let sym = match known {
            Some(Known::Sym(s)) => Some(s),
            _ => None,
        };
        (out, sym)
    }

    fn fold_inner(&self, e: &Expr, env: &'a Env) -> (Expr, Option<Known<'a>>) {
        let (out, known) = match e {
            Expr::Ref(n) => {
                let known = if let Some(v) = self.consts.get(n.text.as_str()) {
                    self.value(v)
                } else if self.vars.contains_key(n.text.as_str()) {
                    env.get(&n.text).map(|s| Known::Sym(s.clone()))
                } else {
                    Some(Known::Sym(n.text.clone()))
                };
                (e.clone(), known)
            }
            Expr::Access { map, key, loc } => {
                let (m, mk) = self.fold_inner(map, env);
                let (k, kk) = self.fold_inner(key, env);
                let known = match (mk, kk) {
                    (Some(Known::Map(entries)), Some(Known::Sym(k))) => {
                        let hit = entries
                            .iter()
                            .find(|en| en.key.as_ref().is_some_and(|x| x.text == *k))
                            .or_else(|| entries.iter().find(|en| en.key.is_none()));
                        hit.and_then(|en| self.value(&en.value))
                    }
                    _ => None,
                };
                let rebuilt = Expr::Access {
                    map: Box::new(m),
                    key: Box::new(k),
                    loc: *loc,
                };
                (rebuilt, known)
            }
            Expr::Cast { ty, expr, loc } => {
                let (inner, known) = self.fold_inner(expr, env);
                let rebuilt = Expr::Cast {
                    ty: ty.clone(),
                    expr: Box::new(inner),
                    loc: *loc,
                };
                return (rebuilt, known);
            }
        };
        match &known {
            Some(Known::Sym(s)) if self.is_symbol(s) => {
                (Expr::Ref(Name::at(s.clone(), e.span())), known)
            }
            _ => (out, known),
        }
    }

    /// A place (assignment target) with its keys folded; its root stays.
    fn fold_place(&self, e: &Expr, env: &'a Env) -> Expr {
        match e {
            Expr::Ref(_) => e.clone(),
            Expr::Access { map, key, loc } => Expr::Access {
                map: Box::new(self.fold_place(map, env)),
                key: Box::new(self.fold(key, env).0),
                loc: *loc,
            },
            Expr::Cast { ty, expr, loc } => Expr::Cast {
                ty: ty.clone(),
                expr: Box::new(self.fold_place(expr, env)),
                loc: *loc,
            },
        }
    }

    /// `label` under `env`: `None` when it is a comparison that cannot
    /// hold, a skip for one that always holds.
    pub(super) fn specialise(&self, label: &Label, env: &'a Env) -> Option<Label> {
        Some(match label {
            Label::Skip | Label::Tag(_) | Label::Reach { .. } => label.clone(),
            Label::TagVariable(v) => match env.get(&v.text) {
                Some(s) => Label::Tag(Name::at(s.clone(), v.span())),
                None => label.clone(),
            },
            Label::Assign { target, value } => Label::Assign {
                target: self.fold_place(target, env),
                value: self.fold(value, env).0,
            },
            Label::AssignAny { target, ty } => Label::AssignAny {
                target: self.fold_place(target, env),
                ty: ty.clone(),
            },
            Label::Compare { left, right, equal } => {
                let (l, ls) = self.fold(left, env);
                let (r, rs) = self.fold(right, env);
                match (ls, rs) {
                    (Some(a), Some(b)) if (a == b) == *equal => Label::Skip,
                    (Some(_), Some(_)) => return None,
                    _ => Label::Compare {
                        left: l,
                        right: r,
                        equal: *equal,
                    },
                }
            }
        })
    }

    /// `env` after `label` (taken from the original label): a whole
    /// assignment of a trackable variable to a known symbol records it, any
    /// other write forgets the variable written.
    pub(super) fn transfer(&self, env: &Env, label: &Label) -> Env {
        let mut out = env.clone();
        match label {
            Label::Assign { target, value } => {
                let root = target.root().text.as_str();
                if let Expr::Ref(n) = target {
                    if self.trackable(&n.text).is_some() {
                        if let Some(s) = self.fold(value, env).1 {
                            out.insert(n.text.clone(), s);
                            return out;
                        }
                    }
                }
                out.remove(root);
            }
            Label::AssignAny { target, .. } => {
                out.remove(target.root().text.as_str());
            }
            _ => {}
        }
        out
    }

    /// Calls `f` with every variable `label` reads (a partial assignment
    /// `x[k] = v` reads `x`: its other entries stay); checks not included.
    pub(super) fn reads(&self, label: &Label, f: &mut impl FnMut(&str)) {
        match label {
            Label::Skip | Label::Tag(_) | Label::Reach { .. } => {}
            Label::TagVariable(v) => f(&v.text),
            Label::Assign { target, value } => {
                self.place_reads(target, f);
                self.expr_reads(value, f);
            }
            Label::AssignAny { target, .. } => self.place_reads(target, f),
            Label::Compare { left, right, .. } => {
                self.expr_reads(left, f);
                self.expr_reads(right, f);
            }
        }
    }

    fn place_reads(&self, e: &Expr, f: &mut impl FnMut(&str)) {
        match e {
            Expr::Ref(_) => {}
            Expr::Access { map, key, .. } => {
                self.expr_reads(map, f);
                self.expr_reads(key, f);
            }
            Expr::Cast { expr, .. } => self.place_reads(expr, f),
        }
    }

    fn expr_reads(&self, e: &Expr, f: &mut impl FnMut(&str)) {
        match e {
            Expr::Ref(n) => {
                if self.is_variable(&n.text) {
                    f(&n.text)
                }
            }
            Expr::Access { map, key, .. } => {
                self.expr_reads(map, f);
                self.expr_reads(key, f);
            }
            Expr::Cast { expr, .. } => self.expr_reads(expr, f),
        }
    }
}

impl Names<'_> {
    /// `label` with `value` read in place of variable `x` (the root of an
    /// assignment's target stays).
    pub(super) fn replace(&self, label: &Label, x: &str, value: &Expr) -> Label {
        let r = |e: &Expr| self.replace_expr(e, x, value, false);
        let place = |e: &Expr| self.replace_expr(e, x, value, true);
        match label {
            Label::Skip | Label::Tag(_) | Label::Reach { .. } | Label::TagVariable(_) => {
                label.clone()
            }
            Label::Assign { target, value: v } => Label::Assign {
                target: place(target),
                value: r(v),
            },
            Label::AssignAny { target, ty } => Label::AssignAny {
                target: place(target),
                ty: ty.clone(),
            },
            Label::Compare { left, right, equal } => Label::Compare {
                left: r(left),
                right: r(right),
                equal: *equal,
            },
        }
    }

    fn replace_expr(&self, e: &Expr, x: &str, value: &Expr, place: bool) -> Expr {
        match e {
            Expr::Ref(n) if !place && n.text == x && self.is_variable(x) => value.clone(),
            Expr::Ref(_) => e.clone(),
            Expr::Access { map, key, loc } => Expr::Access {
                map: Box::new(self.replace_expr(map, x, value, place)),
                key: Box::new(self.replace_expr(key, x, value, false)),
                loc: *loc,
            },
            Expr::Cast { ty, expr, loc } => Expr::Cast {
                ty: ty.clone(),
                expr: Box::new(self.replace_expr(expr, x, value, place)),
                loc: *loc,
            },
        }
    }
}

/// The variable a label writes (the root of its target), if any.
pub(super) fn written(label: &Label) -> Option<&str> {
    match label {
        Label::Assign { target, .. } | Label::AssignAny { target, .. } => {
            Some(target.root().text.as_str())
        }
        _ => None,
    }
}

/// The variable a label replaces as a whole (`x = ...`, `x = T(*)`).
pub(super) fn replaced(label: &Label) -> Option<&str> {
    match label {
        Label::Assign {
            target: Expr::Ref(n),
            ..
        }
        | Label::AssignAny {
            target: Expr::Ref(n),
            ..
        } => Some(n.text.as_str()),
        _ => None,
    }
}

/// A set of variables (by [`Names::id`]).
#[derive(Clone, Default, PartialEq, Eq)]
pub(super) struct Reads(Vec<u64>);

impl Reads {
    pub(super) fn insert(&mut self, i: usize) {
        if self.0.len() <= i / 64 {
            self.0.resize(i / 64 + 1, 0);
        }
        self.0[i / 64] |= 1 << (i % 64);
    }

    pub(super) fn contains(&self, i: usize) -> bool {
        self.0.get(i / 64).is_some_and(|w| w & (1 << (i % 64)) != 0)
    }

    /// Adds `other`; whether anything was new.
    pub(super) fn union(&mut self, other: &Reads) -> bool {
        if self.0.len() < other.0.len() {
            self.0.resize(other.0.len(), 0);
        }
        let mut grew = false;
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            grew |= *b & !*a != 0;
            *a |= b;
        }
        grew
    }
}
