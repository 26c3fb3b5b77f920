//! HRG → RG (`hrg-language.md` §3): declarations here, graphs and statements
//! in [`graph`], conditions and run-time expressions in [`cond`].
//!
//! Every name of the produced game carries the span of the HRG text it comes
//! from, so the RG checks that run on the result report HRG positions.

mod args;
mod cond;
mod graph;

use std::collections::{BTreeSet, HashMap, HashSet};

use rbg_lang::{Error, Span};
use rg_lang::ast::{self as rg, Name};

use crate::ast::{Game, Graph, Type};
use crate::defs::{Defs, Shape};
use crate::encode::{function_table, symbol, to_rg};
use crate::eval::{Env, Evaluator};
use crate::value::{MapValue, Value};

/// At most this many edges in a translation (non-reusable graphs are copied
/// at every call, which can multiply).
pub const MAX_EDGES: usize = 250_000;
/// How deeply blocks and graph calls may nest during translation.
pub const MAX_DEPTH: usize = 256;

/// Node indices of the built-in nodes.
const BEGIN: usize = 0;
const END: usize = 1;

/// Translates a parsed game to RG.
pub fn translate(game: &Game) -> Result<rg::Game, Error> {
    let mut defs = Defs::new(game)?;
    for required in ["Player", "Score"] {
        if defs.domain(required).is_none() {
            return Err(Error::new(
                Span::default(),
                format!("expected `domain {required} = ...` (required by RG), found none"),
            ));
        }
    }
    let mut out = rg::Game::default();
    let mut integers = Vec::new();
    for d in &defs.domains {
        let symbols = d
            .values
            .iter()
            .map(|v| symbol(v, d.name.span))
            .collect::<Result<Vec<_>, _>>()?;
        if let Some(min) = &d.integer {
            integers.push(rg::Pragma::Integer {
                digits: Name::at(min.clone(), d.name.span),
                names: symbols.clone(),
            });
        }
        out.types.push(rg::TypeDef {
            name: Name::at(d.name.text.clone(), d.name.span),
            ty: rg::Type::Set {
                symbols,
                loc: rg::Loc(d.name.span),
            },
        });
    }
    let mut ev = Evaluator::new(&mut defs);
    let mut tables = Vec::with_capacity(game.functions.len());
    for f in &game.functions {
        tables.push(function_table(&mut ev, f)?);
    }
    for i in constant_order(game, &tables) {
        let f = &game.functions[i];
        out.constants.push(rg::Binding {
            name: Name::at(f.name.text.clone(), f.name.span),
            ty: rg_type(&f.ty),
            value: to_rg(&tables[i], f.name.span)?,
        });
    }
    for v in &game.variables {
        let value = match &v.init {
            Some(e) => ev.eval(e, &Env::new())?,
            None => default_value(&ev, &v.ty)?,
        };
        out.variables.push(rg::Binding {
            name: Name::at(v.name.text.clone(), v.name.span),
            ty: rg_type(&v.ty),
            value: to_rg(&value, v.name.span)?,
        });
    }
    let user_names: HashSet<&str> = game
        .variables
        .iter()
        .map(|v| v.name.text.as_str())
        .chain(game.functions.iter().map(|f| f.name.text.as_str()))
        .chain(game.domains.iter().map(|d| d.name.text.as_str()))
        .collect();
    let domain_values = ev
        .defs
        .domains
        .iter()
        .flat_map(|d| d.values.iter().cloned())
        .collect();
    let mut t = Translator {
        ev,
        nodes: vec!["begin".into(), "end".into()],
        edges: Vec::new(),
        counter: 0,
        graphs: HashMap::new(),
        expanding: Vec::new(),
        depth: 0,
        artificial: BTreeSet::new(),
        extra: Vec::new(),
        user_names,
        shared_reach: args::shared_reach(game),
        domain_values,
    };
    t.entry()?;
    t.finish(out, integers)
}

/// Functions in file order, except that one whose table names another
/// function (a function-valued result, §4.20) comes after it: an RG
/// constant sees only earlier constants. Cycles keep file order.
fn constant_order(game: &Game, tables: &[Value]) -> Vec<usize> {
    let index: HashMap<&str, usize> = game
        .functions
        .iter()
        .enumerate()
        .map(|(i, f)| (f.name.text.as_str(), i))
        .collect();
    let n = tables.len();
    let mut deps: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); n];
    for (i, t) in tables.iter().enumerate() {
        let mut stack = vec![t];
        while let Some(v) = stack.pop() {
            match v {
                Value::Sym(s) => {
                    if let Some(&j) = index.get(&**s) {
                        if j != i {
                            deps[i].insert(j);
                        }
                    }
                }
                Value::Map(m) => {
                    stack.push(&m.default);
                    stack.extend(m.entries.iter().map(|(_, v)| v));
                }
                Value::Ctor(..) => {}
            }
        }
    }
    let mut pending: Vec<usize> = deps.iter().map(BTreeSet::len).collect();
    let mut users: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, d) in deps.iter().enumerate() {
        for &j in d {
            users[j].push(i);
        }
    }
    let mut ready: BTreeSet<usize> = (0..n).filter(|&i| pending[i] == 0).collect();
    let mut done = vec![false; n];
    let mut order = Vec::with_capacity(n);
    let mut scan = 0;
    while order.len() < n {
        let next = match ready.pop_first() {
            Some(i) => i,
            None => {
                // A cycle: take the first function not placed yet.
                while done[scan] {
                    scan += 1;
                }
                scan
            }
        };
        if done[next] {
            continue;
        }
        done[next] = true;
        order.push(next);
        for &u in &users[next] {
            pending[u] = pending[u].saturating_sub(1);
            if pending[u] == 0 && !done[u] {
                ready.insert(u);
            }
        }
    }
    order
}

/// An HRG type as an RG type (domains keep their names).
pub fn rg_type(ty: &Type) -> rg::Type {
    match ty {
        Type::Set(names, span) => rg::Type::Set {
            symbols: names
                .iter()
                .map(|n| Name::at(n.text.clone(), n.span))
                .collect(),
            loc: rg::Loc(*span),
        },
        Type::Name(n) => rg::Type::Ref(Name::at(n.text.clone(), n.span)),
        Type::Arrow(a, b) => rg::Type::Arrow(Box::new(rg_type(a)), Box::new(rg_type(b))),
    }
}

/// The initial value of a variable declared without one: a set type's first
/// value; for a map type, a map whose every key has the default of the
/// result type. Set literals have none.
fn default_value(ev: &Evaluator, ty: &Type) -> Result<Value, Error> {
    let mut t = ty;
    loop {
        match t {
            Type::Set(_, span) => {
                return Err(Error::new(
                    *span,
                    "expected a domain name (a `{...}` type gives no initial value), found a set literal",
                ))
            }
            Type::Arrow(_, b) => t = b,
            Type::Name(_) => break,
        }
    }
    shape_default(&ev.defs.shape(ty)?, ty.span())
}

fn shape_default(shape: &Shape, span: Span) -> Result<Value, Error> {
    match shape {
        Shape::Set(values) => values
            .first()
            .cloned()
            .ok_or_else(|| Error::new(span, "expected a type with values, found an empty one")),
        Shape::Arrow(_, b) => Ok(Value::Map(std::rc::Rc::new(MapValue {
            default: shape_default(b, span)?,
            entries: Vec::new(),
        }))),
    }
}

/// What a translation remembers about a graph.
#[derive(Default)]
struct GraphState {
    /// Its argument variables are declared.
    args_declared: bool,
    /// Reusable graphs: the one shared copy.
    shared: Option<Shared>,
}

/// The shared copy of a reusable graph.
struct Shared {
    begin: usize,
    end: usize,
    translated: bool,
    /// The node after `end` where calls dispatch on `g_return`.
    ret: Option<usize>,
    /// The call ids (`g_call_N`), the symbols of `g_return_type`.
    calls: Vec<String>,
    /// Where the first call id was made.
    span: Span,
}

/// Declarations made during translation, in order.
enum Extra {
    /// A graph's argument variable.
    Arg(rg::Binding),
    /// A reusable graph's return variable and type.
    Return(String),
}

/// Everything in force while translating one graph body.
struct Ctx<'g> {
    graph: &'g Graph,
    /// Prefix of the body's node names.
    base: String,
    /// Where `end()` goes.
    end: usize,
    /// Where `return()` goes (none in graphs translated for `reachable`).
    ret: Option<usize>,
    /// The innermost loop's break and continue nodes.
    loop_nodes: Option<(usize, usize)>,
    /// `branch`/`repeat` variables and their values.
    subst: Env<'g>,
    /// Per parameter of `graph`, the constant passed at this copy's call
    /// (read in place of the argument variable; `args.rs`).
    consts: Vec<Option<Value>>,
}

struct Translator<'g, 'd> {
    ev: Evaluator<'g, 'd>,
    nodes: Vec<String>,
    edges: Vec<(usize, usize, rg::Label, Span)>,
    counter: usize,
    graphs: HashMap<&'g str, GraphState>,
    expanding: Vec<&'g str>,
    depth: usize,
    artificial: BTreeSet<String>,
    extra: Vec<Extra>,
    user_names: HashSet<&'g str>,
    /// Graphs a reusable graph leads to (`args::shared_reach`).
    shared_reach: HashSet<&'g str>,
    /// The values of all domains.
    domain_values: HashSet<Value>,
}

impl<'g> Translator<'g, '_> {
    /// `begin, rules_begin: ;` and `rules` translated with end node `end`.
    fn entry(&mut self) -> Result<(), Error> {
        let Some(&rules) = self.ev.defs.graphs.get("rules") else {
            return Err(Error::new(
                Span::default(),
                "expected `graph rules() { ... }` (where the game starts), found none",
            ));
        };
        if let Some((p, _)) = rules.params.first() {
            return Err(Error::new(
                p.span,
                "expected `rules` without parameters, found one",
            ));
        }
        self.nodes.push("rules_begin".into());
        let start = self.nodes.len() - 1;
        self.edge(BEGIN, start, rg::Label::Skip, rules.name.span)?;
        let mut ctx = Ctx {
            graph: rules,
            base: node_base(&rules.name.text),
            end: END,
            ret: Some(END),
            loop_nodes: None,
            subst: Env::new(),
            consts: Vec::new(),
        };
        self.expanding.push(&rules.name.text);
        self.block(&mut ctx, &rules.body, start, END, rules.name.span)?;
        self.expanding.pop();
        Ok(())
    }

    /// A new node named after `base`.
    fn fresh(&mut self, base: &str) -> usize {
        self.counter += 1;
        self.nodes.push(format!("{base}_{}", self.counter));
        self.nodes.len() - 1
    }

    fn edge(&mut self, from: usize, to: usize, label: rg::Label, span: Span) -> Result<(), Error> {
        if self.edges.len() >= MAX_EDGES {
            return Err(Error::new(
                span,
                format!("expected a translation of at most {MAX_EDGES} edges, found more (graphs copied at too many calls?)"),
            ));
        }
        self.edges.push((from, to, label, span));
        Ok(())
    }

    fn enter(&mut self, span: Span) -> Result<(), Error> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(Error::new(
                span,
                format!(
                    "expected blocks and graph calls nested at most {MAX_DEPTH} deep, found deeper"
                ),
            ));
        }
        Ok(())
    }

    /// Declares the argument variables of `g` on its first translation.
    fn declare_args(&mut self, g: &'g Graph) -> Result<(), Error> {
        let state = self.graphs.entry(&g.name.text).or_default();
        if state.args_declared {
            return Ok(());
        }
        state.args_declared = true;
        for (i, (p, ty)) in g.params.iter().enumerate() {
            let name = arg_var(g, i);
            self.check_new_name(&name, p.span)?;
            let value = default_value(&self.ev, ty)?;
            self.extra.push(Extra::Arg(rg::Binding {
                name: Name::at(name, p.span),
                ty: rg_type(ty),
                value: to_rg(&value, p.span)?,
            }));
        }
        Ok(())
    }

    fn check_new_name(&self, name: &str, span: Span) -> Result<(), Error> {
        if self.user_names.contains(name) {
            return Err(Error::new(
                span,
                format!("expected the name `{name}` free for the translation's own variable, found it declared"),
            ));
        }
        Ok(())
    }

    /// Assembles the RG game.
    fn finish(
        mut self,
        mut out: rg::Game,
        mut integers: Vec<rg::Pragma>,
    ) -> Result<rg::Game, Error> {
        for extra in std::mem::take(&mut self.extra) {
            match extra {
                Extra::Arg(b) => out.variables.push(b),
                Extra::Return(g) => {
                    let shared = self.graphs[g.as_str()].shared.as_ref().expect("reusable");
                    let span = shared.span;
                    let ty_name = format!("{g}_return_type");
                    let var = format!("{g}_return");
                    self.check_new_name(&ty_name, span)?;
                    self.check_new_name(&var, span)?;
                    out.types.push(rg::TypeDef {
                        name: Name::at(ty_name.clone(), span),
                        ty: rg::Type::Set {
                            symbols: shared
                                .calls
                                .iter()
                                .map(|c| Name::at(c.clone(), span))
                                .collect(),
                            loc: rg::Loc(span),
                        },
                    });
                    out.variables.push(rg::Binding {
                        name: Name::at(var, span),
                        ty: rg::Type::Ref(Name::at(ty_name, span)),
                        value: rg::Value::Name(Name::at(shared.calls[0].clone(), span)),
                    });
                }
            }
        }
        let node = |i: usize, span: Span| Name::at(self.nodes[i].clone(), span);
        out.edges = self
            .edges
            .into_iter()
            .map(|(from, to, label, span)| rg::Edge {
                from: node(from, span),
                to: node(to, span),
                label,
                loc: rg::Loc(span),
            })
            .collect();
        integers.sort_by_cached_key(|p| rg_lang::print::PragmaText(p).to_string());
        if !self.artificial.is_empty() {
            out.pragmas.push(rg::Pragma::ArtificialTag(
                self.artificial.into_iter().map(Name::new).collect(),
            ));
        }
        out.pragmas.extend(integers);
        Ok(out)
    }
}

/// The variable holding argument `i` of `g`: `g_arg{i}_{name}`.
fn arg_var(g: &Graph, i: usize) -> String {
    format!("{}_arg{i}_{}", g.name.text, g.params[i].0.text)
}

/// A prefix for node names that keeps them clear of RG's declaration
/// keywords (an edge whose source starts with `type`, `const` or `var` does
/// not parse).
fn node_base(graph: &str) -> String {
    if crate::lexer::KEYWORDS.iter().any(|k| graph.starts_with(k)) {
        format!("g_{graph}")
    } else {
        graph.to_string()
    }
}
