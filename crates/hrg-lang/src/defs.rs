//! The declarations a translation looks things up in: domains expanded to
//! their values (`hrg-language.md` §3.1, §4.4, §4.14), functions and graphs
//! by name, and the value sets of types (domains, set literals and the
//! built-ins `Bool`, `PlayerOrSystem`, `Goals`, `Visibility`).

use std::collections::HashMap;
use std::rc::Rc;

use rbg_lang::{Error, Span};

use crate::ast::{Binding, BindingValues, DomainElement, Function, Game, Graph, Ident, Type};
use crate::value::Value;

/// At most this many values in all domains and `where` expansions together.
pub const MAX_VALUES: usize = 1 << 20;

/// A domain's values and what the `@integer` pragma needs.
pub struct DomainInfo {
    /// The values in order (duplicates kept).
    pub values: Rc<[Value]>,
    /// Where the domain is declared.
    pub name: Ident,
    /// `Some(min)` when the domain is one generator with one variable
    /// argument over a range starting at `min`.
    pub integer: Option<String>,
}

/// A type's shape once names are resolved.
pub enum Shape {
    /// A set of values.
    Set(Rc<[Value]>),
    /// `A -> B`.
    Arrow(Box<Shape>, Box<Shape>),
}

/// Lookup tables of a game.
pub struct Defs<'g> {
    /// Domains in file order.
    pub domains: Vec<DomainInfo>,
    /// Domain index by name.
    pub domain_index: HashMap<&'g str, usize>,
    /// Functions by name.
    pub functions: HashMap<&'g str, &'g Function>,
    /// Graphs by name (the first of equal names).
    pub graphs: HashMap<&'g str, &'g Graph>,
    /// Values produced so far (for [`MAX_VALUES`]).
    pub budget: usize,
}

impl<'g> Defs<'g> {
    /// Expands the domains and indexes functions and graphs.
    pub fn new(game: &'g Game) -> Result<Defs<'g>, Error> {
        let mut defs = Defs {
            domains: Vec::new(),
            domain_index: HashMap::new(),
            functions: HashMap::new(),
            graphs: HashMap::new(),
            budget: 0,
        };
        let mut index: HashMap<&str, usize> = HashMap::new();
        for (i, d) in game.domains.iter().enumerate() {
            if let Some(&first) = index.get(d.name.text.as_str()) {
                return Err(Error::new(
                    d.name.span,
                    format!(
                        "expected a new name, found the domain `{}` declared twice",
                        d.name.text
                    ),
                )
                .with_secondary(game.domains[first].name.span, "first declared here"));
            }
            index.insert(&d.name.text, i);
        }
        let order = dependency_order(game, &index)?;
        let mut values: Vec<Option<Rc<[Value]>>> = vec![None; game.domains.len()];
        for i in order {
            let d = &game.domains[i];
            let mut out = Vec::new();
            for e in &d.elements {
                match e {
                    DomainElement::Name(n) => match index.get(n.text.as_str()) {
                        Some(&j) => {
                            let included = values[j].as_ref().expect("ordered");
                            defs.spend(included.len(), n.span)?;
                            out.extend(included.iter().cloned());
                        }
                        None => out.push(Value::sym(&n.text)),
                    },
                    DomainElement::Generator {
                        name,
                        args,
                        bindings,
                    } => defs.generate(name, args, bindings, &mut out)?,
                }
            }
            if out.is_empty() {
                return Err(Error::new(
                    d.name.span,
                    format!(
                        "expected at least one value in the domain `{}`, found none",
                        d.name.text
                    ),
                ));
            }
            values[i] = Some(out.into());
        }
        for (i, d) in game.domains.iter().enumerate() {
            defs.domain_index.insert(&d.name.text, i);
            defs.domains.push(DomainInfo {
                values: values[i].take().expect("expanded"),
                name: d.name.clone(),
                integer: integer_min(&d.elements),
            });
        }
        for f in &game.functions {
            if let Some(first) = defs.functions.insert(&f.name.text, f) {
                return Err(Error::new(
                    f.name.span,
                    format!(
                        "expected a new name, found the function `{}` defined twice",
                        f.name.text
                    ),
                )
                .with_secondary(first.name.span, "first defined here"));
            }
        }
        for g in &game.graphs {
            defs.graphs.entry(&g.name.text).or_insert(g);
        }
        Ok(defs)
    }

    /// Counts `n` more values against [`MAX_VALUES`].
    pub fn spend(&mut self, n: usize, span: Span) -> Result<(), Error> {
        self.budget = self.budget.saturating_add(n);
        if self.budget > MAX_VALUES {
            return Err(Error::new(
                span,
                format!("expected at most {MAX_VALUES} values in all domains and `where` expansions, found more"),
            ));
        }
        Ok(())
    }

    /// `C(args) where bindings`: each argument position runs over its
    /// variable's values (the first `where` binding of that name) or is a
    /// literal; the first position varies slowest.
    fn generate(
        &mut self,
        name: &Ident,
        args: &[Ident],
        bindings: &[Binding],
        out: &mut Vec<Value>,
    ) -> Result<(), Error> {
        let mut columns: Vec<Vec<Value>> = Vec::new();
        for a in args {
            if !a.is_variable() {
                columns.push(vec![Value::sym(&a.text)]);
                continue;
            }
            let b = bindings
                .iter()
                .find(|b| b.var.text == a.text)
                .ok_or_else(|| {
                    Error::new(
                        a.span,
                        format!(
                            "expected `{}` to be bound by `where`, found no binding",
                            a.text
                        ),
                    )
                })?;
            columns.push(self.binding_values(b)?);
        }
        let total = columns
            .iter()
            .try_fold(1usize, |acc, c| acc.checked_mul(c.len()))
            .filter(|&t| t <= MAX_VALUES)
            .ok_or_else(|| {
                Error::new(
                    name.span,
                    format!("expected at most {MAX_VALUES} values from a generator, found more"),
                )
            })?;
        self.spend(total, name.span)?;
        for_each_product(&columns, |combo| {
            out.push(Value::Ctor(Rc::from(name.text.as_str()), Rc::from(combo)));
        });
        Ok(())
    }

    /// The values of one `where` binding.
    pub fn binding_values(&mut self, b: &Binding) -> Result<Vec<Value>, Error> {
        match &b.values {
            BindingValues::Set(names) => Ok(names.iter().map(|n| Value::sym(&n.text)).collect()),
            BindingValues::Range(lo, hi) => {
                let (l, h) = (number(lo)?, number(hi)?);
                let count = if h >= l { (h - l + 1) as usize } else { 0 };
                self.spend(count, lo.span.to(hi.span))?;
                Ok((l..=h).map(Value::int).collect())
            }
        }
    }

    /// The values of a user domain.
    pub fn domain(&self, name: &str) -> Option<&Rc<[Value]>> {
        self.domain_index
            .get(name)
            .map(|&i| &self.domains[i].values)
    }

    /// The shape of a type: user domains first, then the RG built-ins.
    pub fn shape(&self, ty: &Type) -> Result<Shape, Error> {
        match ty {
            Type::Set(names, _) => Ok(Shape::Set(
                names.iter().map(|n| Value::sym(&n.text)).collect(),
            )),
            Type::Arrow(a, b) => Ok(Shape::Arrow(
                Box::new(self.shape(a)?),
                Box::new(self.shape(b)?),
            )),
            Type::Name(n) => self.named_shape(n),
        }
    }

    fn named_shape(&self, n: &Ident) -> Result<Shape, Error> {
        if let Some(v) = self.domain(&n.text) {
            return Ok(Shape::Set(v.clone()));
        }
        let set = |name: &str| -> Result<Shape, Error> {
            match self.domain(name) {
                Some(v) => Ok(Shape::Set(v.clone())),
                None if name == "Bool" => Ok(Shape::Set(vec![Value::int(0), Value::int(1)].into())),
                None => Err(missing_domain(n, name)),
            }
        };
        match n.text.as_str() {
            "Bool" => set("Bool"),
            "PlayerOrSystem" => {
                let mut v = self
                    .domain("Player")
                    .ok_or_else(|| missing_domain(n, "Player"))?
                    .to_vec();
                v.push(Value::sym("keeper"));
                v.push(Value::sym("random"));
                Ok(Shape::Set(v.into()))
            }
            "Goals" => Ok(Shape::Arrow(
                Box::new(set("Player")?),
                Box::new(set("Score")?),
            )),
            "Visibility" => Ok(Shape::Arrow(
                Box::new(set("Player")?),
                Box::new(set("Bool")?),
            )),
            _ => Err(Error::new(
                n.span,
                format!("expected a domain or a built-in type, found `{}`", n.text),
            )),
        }
    }

    /// The values of a type that must be a set.
    pub fn values(&self, ty: &Type) -> Result<Rc<[Value]>, Error> {
        match self.shape(ty)? {
            Shape::Set(v) => Ok(v),
            Shape::Arrow(..) => Err(Error::new(
                ty.span(),
                "expected a set type (a domain or `{...}`), found a map type",
            )),
        }
    }
}

fn missing_domain(at: &Ident, name: &str) -> Error {
    Error::new(
        at.span,
        format!(
            "expected the domain `{name}` (needed by `{}`), found none",
            at.text
        ),
    )
}

/// A range bound as a number.
fn number(n: &Ident) -> Result<i64, Error> {
    n.text
        .parse::<i64>()
        .ok()
        .filter(|v| *v <= i32::MAX as i64)
        .ok_or_else(|| {
            Error::new(
                n.span,
                format!("expected a number up to {}, found `{}`", i32::MAX, n.text),
            )
        })
}

/// `Some(min)` for a domain made of one generator with one variable argument
/// ranging over `min..max`.
fn integer_min(elements: &[DomainElement]) -> Option<String> {
    let [DomainElement::Generator { args, bindings, .. }] = elements else {
        return None;
    };
    let [arg] = args.as_slice() else { return None };
    if !arg.is_variable() {
        return None;
    }
    match &bindings.iter().find(|b| b.var.text == arg.text)?.values {
        BindingValues::Range(lo, _) => lo.text.parse::<i64>().ok().map(|v| v.to_string()),
        BindingValues::Set(_) => None,
    }
}

/// Calls `f` with every combination of one value per column, the first
/// column varying slowest.
pub fn for_each_product(columns: &[Vec<Value>], mut f: impl FnMut(Vec<Value>)) {
    if columns.iter().any(Vec::is_empty) {
        return;
    }
    let mut idx = vec![0usize; columns.len()];
    loop {
        f(idx
            .iter()
            .zip(columns)
            .map(|(&i, c)| c[i].clone())
            .collect());
        let mut k = columns.len();
        loop {
            if k == 0 {
                return;
            }
            k -= 1;
            idx[k] += 1;
            if idx[k] < columns[k].len() {
                break;
            }
            idx[k] = 0;
        }
    }
}

/// Domains in an order where every domain comes after those it includes
/// (Kahn's algorithm; a cycle is an error).
fn dependency_order(game: &Game, index: &HashMap<&str, usize>) -> Result<Vec<usize>, Error> {
    let n = game.domains.len();
    let mut users: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut pending = vec![0usize; n];
    for (i, d) in game.domains.iter().enumerate() {
        for e in &d.elements {
            if let DomainElement::Name(name) = e {
                if let Some(&j) = index.get(name.text.as_str()) {
                    users[j].push(i);
                    pending[i] += 1;
                }
            }
        }
    }
    let mut ready: Vec<usize> = (0..n).rev().filter(|&i| pending[i] == 0).collect();
    let mut order = Vec::with_capacity(n);
    while let Some(i) = ready.pop() {
        order.push(i);
        for &u in &users[i] {
            pending[u] -= 1;
            if pending[u] == 0 {
                ready.push(u);
            }
        }
    }
    if let Some(i) = (0..n).find(|&i| pending[i] > 0) {
        let d = &game.domains[i];
        return Err(Error::new(
            d.name.span,
            format!(
                "expected domains that do not include themselves, found `{}` in a cycle of unions",
                d.name.text
            ),
        ));
    }
    Ok(order)
}
