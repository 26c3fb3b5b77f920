//! Type aliases: the user's and the built-in ones (`Bool`, `Goals`,
//! `Visibility`, `PlayerOrSystem`), resolved in dependency order.
//!
//! `Player` and `Score` are required set types. A user-given built-in alias
//! replaces the built-in one but must be assignable to its definition
//! (`rg-language.md` §3, §7.9). Recursive aliases, unresolved names (also in
//! unused aliases) and arrows whose source is not a set type are errors.

use std::collections::HashMap;

use rbg_lang::{Error, Span};

use crate::ast::{Entry, Game, Loc, Name, Type, Value};
use crate::types::{Sym, Symbols, Ty, TypeArena, MAX_TYPE_DEPTH};

/// The resolved aliases and what the built-in variables need.
pub(crate) struct Defs {
    /// Every alias by name.
    pub by_name: HashMap<String, Ty>,
    /// `Player`.
    pub player: Ty,
    /// The built-in variables' types and default values.
    pub builtins: Builtins,
}

/// Types (`Goals`, `Visibility`, `PlayerOrSystem`) and default initial values
/// (`{ :s0 }`, `{ :1 }`, `keeper`) of `goals`, `visible`, `player`.
pub(crate) struct Builtins {
    pub var_types: [Ty; 3],
    pub var_values: [Value; 3],
}

enum Def<'a> {
    User(&'a Type),
    Builtin(Type),
    PlayerOrSystem,
}

/// The error for a type name without a definition.
pub(crate) fn unresolved(name: &Name) -> Error {
    Error::new(
        name.span(),
        format!("expected a type, found `{name}`, which is not defined"),
    )
}

fn arrow(a: &str, b: &str) -> Type {
    Type::Arrow(
        Box::new(Type::Ref(Name::new(a))),
        Box::new(Type::Ref(Name::new(b))),
    )
}

/// Resolves every alias of `game`, built-ins included.
pub(crate) fn resolve(
    game: &Game,
    symbols: &mut Symbols,
    types: &mut TypeArena,
    keeper: Sym,
    random: Sym,
) -> Result<Defs, Error> {
    let mut names: Vec<&str> = Vec::new();
    let mut defs: Vec<(Def, Span)> = Vec::new();
    let mut index: HashMap<&str, usize> = HashMap::new();
    for t in &game.types {
        if let Some(&i) = index.get(t.name.text.as_str()) {
            return Err(Error::new(
                t.name.span(),
                format!(
                    "expected a new name, found the type `{}` defined twice",
                    t.name
                ),
            )
            .with_secondary(defs[i].1, "first defined here"));
        }
        index.insert(&t.name.text, defs.len());
        names.push(&t.name.text);
        defs.push((Def::User(&t.ty), t.name.span()));
    }
    for required in ["Player", "Score"] {
        if !index.contains_key(required) {
            return Err(Error::new(
                Span::default(),
                format!("expected the required `type {required} = {{...}};`, found none"),
            ));
        }
    }
    let builtin_defs = [
        ("Bool", Def::Builtin(Type::set(["0", "1"]))),
        ("Goals", Def::Builtin(arrow("Player", "Score"))),
        ("Visibility", Def::Builtin(arrow("Player", "Bool"))),
        ("PlayerOrSystem", Def::PlayerOrSystem),
    ];
    let mut user_builtins = Vec::new();
    for (name, def) in builtin_defs {
        if let Some(&i) = index.get(name) {
            user_builtins.push((i, def));
        } else {
            index.insert(name, defs.len());
            names.push(name);
            defs.push((def, Span::default()));
        }
    }
    let order = dependency_order(&defs, &names, &index)?;
    let mut by_name: HashMap<String, Ty> = HashMap::new();
    for i in order {
        let ty = match &defs[i].0 {
            Def::User(t) => resolve_type(t, &by_name, symbols, types)?,
            Def::Builtin(t) => resolve_type(t, &by_name, symbols, types)?,
            Def::PlayerOrSystem => player_or_system(&by_name, types, keeper, random),
        };
        if matches!(names[i], "Player" | "Score") && types.symbols(ty).is_none() {
            return Err(Error::new(
                defs[i].1,
                format!(
                    "expected `{}` to be a set type, found {}",
                    names[i],
                    types.show(ty, symbols)
                ),
            ));
        }
        by_name.insert(names[i].to_string(), ty);
    }
    let player = by_name["Player"];
    let score = by_name["Score"];
    for (i, def) in user_builtins {
        let expected = match def {
            Def::Builtin(t) => resolve_type(&t, &by_name, symbols, types)?,
            _ => player_or_system(&by_name, types, keeper, random),
        };
        let given = by_name[names[i]];
        if !types.assignable(given, expected) {
            return Err(Error::new(
                defs[i].1,
                format!(
                    "expected the built-in `{}` to equal {}, found {}",
                    names[i],
                    types.show(expected, symbols),
                    types.show(given, symbols)
                ),
            ));
        }
    }
    let first_score = symbols
        .name(types.symbols(score).expect("a set")[0])
        .to_string();
    let default_map = |v: &str| Value::Map {
        entries: vec![Entry {
            key: None,
            value: Value::Name(Name::new(v)),
        }],
        loc: Loc::default(),
    };
    let builtins = Builtins {
        var_types: [
            by_name["Goals"],
            by_name["Visibility"],
            by_name["PlayerOrSystem"],
        ],
        var_values: [
            default_map(&first_score),
            default_map("1"),
            Value::Name(Name::new("keeper")),
        ],
    };
    Ok(Defs {
        by_name,
        player,
        builtins,
    })
}

/// `Player`'s symbols, then `keeper` and `random` unless already there.
fn player_or_system(
    by_name: &HashMap<String, Ty>,
    types: &mut TypeArena,
    keeper: Sym,
    random: Sym,
) -> Ty {
    let mut list = types.symbols(by_name["Player"]).unwrap_or(&[]).to_vec();
    list.extend([keeper, random]);
    types.set(list)
}

/// The aliases a definition refers to.
fn references<'a>(t: &'a Type, out: &mut Vec<&'a Name>) {
    match t {
        Type::Set { .. } => {}
        Type::Arrow(a, b) => {
            references(a, out);
            references(b, out);
        }
        Type::Ref(n) => out.push(n),
    }
}

/// Aliases in an order where each comes after those it refers to.
fn dependency_order(
    defs: &[(Def, Span)],
    names: &[&str],
    index: &HashMap<&str, usize>,
) -> Result<Vec<usize>, Error> {
    let deps: Vec<Vec<usize>> = defs
        .iter()
        .map(|(d, _)| {
            let mut refs = Vec::new();
            match d {
                Def::User(t) => references(t, &mut refs),
                Def::Builtin(t) => references(t, &mut refs),
                Def::PlayerOrSystem => return Ok(vec![index["Player"]]),
            }
            refs.into_iter()
                .map(|n| {
                    index
                        .get(n.text.as_str())
                        .copied()
                        .ok_or_else(|| unresolved(n))
                })
                .collect()
        })
        .collect::<Result<_, Error>>()?;
    // Iterative depth-first search: 0 = new, 1 = on the stack, 2 = done.
    let mut state = vec![0u8; defs.len()];
    let mut order = Vec::with_capacity(defs.len());
    for root in 0..defs.len() {
        if state[root] != 0 {
            continue;
        }
        let mut stack = vec![(root, 0usize)];
        state[root] = 1;
        while let Some(&mut (node, ref mut next)) = stack.last_mut() {
            if let Some(&d) = deps[node].get(*next) {
                *next += 1;
                match state[d] {
                    0 => {
                        state[d] = 1;
                        stack.push((d, 0));
                    }
                    1 => {
                        return Err(Error::new(
                            defs[d].1,
                            format!("expected a type, found the recursive alias `{}`", names[d]),
                        ))
                    }
                    _ => {}
                }
            } else {
                state[node] = 2;
                order.push(node);
                stack.pop();
            }
        }
    }
    Ok(order)
}

/// Resolves a written type, its aliases looked up in `by_name`.
pub(crate) fn resolve_type(
    t: &Type,
    by_name: &HashMap<String, Ty>,
    symbols: &mut Symbols,
    types: &mut TypeArena,
) -> Result<Ty, Error> {
    match t {
        Type::Set { symbols: list, .. } => {
            let syms: Vec<Sym> = list.iter().map(|n| symbols.intern(&n.text)).collect();
            Ok(types.set(syms))
        }
        Type::Ref(n) => by_name.get(&n.text).copied().ok_or_else(|| unresolved(n)),
        Type::Arrow(a, b) => {
            let src = resolve_type(a, by_name, symbols, types)?;
            if types.symbols(src).is_none() {
                return Err(Error::new(
                    a.span(),
                    format!(
                        "expected a set type as the source of an arrow, found {}",
                        types.show(src, symbols)
                    ),
                ));
            }
            let dst = resolve_type(b, by_name, symbols, types)?;
            types.arrow(src, dst).ok_or_else(|| {
                Error::new(
                    t.span(),
                    format!(
                        "expected a type at most {MAX_TYPE_DEPTH} arrows deep, found a deeper one"
                    ),
                )
            })
        }
    }
}
