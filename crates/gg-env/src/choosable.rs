//! Which modifiers of an RBG game a player can apply: a static pass over
//! the rules, so that the action space leaves out the keeper's modifiers.
//!
//! Who is on move changes only at switches: `->p` hands the move to a
//! player, `->>` to the keeper, and the game starts with the keeper. A
//! modifier can be part of a player's move when some path through the rules
//! reaches it from a switch to a player (or, for the switch itself, is in a
//! player's move when it is reached) without passing another switch. The
//! pass tracks two facts per point of the rules, "a player may be on move"
//! and "the keeper may be on move": each part of the rules is summarised by
//! whether it can be crossed without a switch and whom its last switch can
//! hand the move to, and the summaries compose without iterating (a star
//! crossed any number of times is crossed at most once or ends with its
//! body's last switch). Patterns hold no modifiers of the rules.

use std::collections::HashMap;

use rbg_lang::ast::{Action, Rule};

/// Who may be on move at a point of the rules.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
struct Who {
    player: bool,
    keeper: bool,
}

impl Who {
    fn or(self, o: Who) -> Who {
        Who {
            player: self.player || o.player,
            keeper: self.keeper || o.keeper,
        }
    }
}

/// What crossing a part of the rules does to [`Who`]: the result is the
/// entry's (when the part can be crossed without a switch) plus `last`.
#[derive(Clone, Copy, Debug)]
struct Flow {
    through: bool,
    last: Who,
}

impl Flow {
    fn apply(self, entry: Who) -> Who {
        let kept = if self.through { entry } else { Who::default() };
        kept.or(self.last)
    }
}

/// Summaries of the parts of the rules, by address (each computed once).
struct Pass {
    memo: HashMap<*const Rule, Flow>,
    /// Per modifier, in textual order: whether a player can apply it.
    out: Vec<bool>,
}

impl Pass {
    fn flow(&mut self, r: &Rule) -> Flow {
        if let Some(&f) = self.memo.get(&(r as *const Rule)) {
            return f;
        }
        let f = match r {
            Rule::Action(Action::Switch(to)) => Flow {
                through: false,
                last: Who {
                    player: to.is_some(),
                    keeper: to.is_none(),
                },
            },
            Rule::Action(_) => Flow {
                through: true,
                last: Who::default(),
            },
            Rule::Concat(parts) => {
                let mut acc = Flow {
                    through: true,
                    last: Who::default(),
                };
                for p in parts {
                    let g = self.flow(p);
                    acc = Flow {
                        through: acc.through && g.through,
                        last: g.apply(acc.last),
                    };
                }
                acc
            }
            Rule::Alt(parts) => {
                let mut acc = Flow {
                    through: false,
                    last: Who::default(),
                };
                for p in parts {
                    let g = self.flow(p);
                    acc = Flow {
                        through: acc.through || g.through,
                        last: acc.last.or(g.last),
                    };
                }
                acc
            }
            Rule::Star(body) => Flow {
                through: true,
                last: self.flow(body).last,
            },
        };
        self.memo.insert(r as *const Rule, f);
        f
    }

    /// Visits `r` entered with `entry`, recording its modifiers in textual
    /// order.
    fn mark(&mut self, r: &Rule, entry: Who) {
        match r {
            Rule::Action(a) => {
                if a.is_modifier() {
                    self.out.push(entry.player);
                }
            }
            Rule::Concat(parts) => {
                let mut at = entry;
                for p in parts {
                    self.mark(p, at);
                    at = self.flow(p).apply(at);
                }
            }
            Rule::Alt(parts) => parts.iter().for_each(|p| self.mark(p, entry)),
            Rule::Star(body) => {
                let inside = entry.or(self.flow(body).last);
                self.mark(body, inside);
            }
        }
    }
}

/// For every modifier of `rules` in textual order (the order of their
/// numbers in move texts), whether a player can apply it in a move.
pub fn player_modifiers(rules: &Rule) -> Vec<bool> {
    let mut pass = Pass {
        memo: HashMap::new(),
        out: Vec::new(),
    };
    let start = Who {
        player: false,
        keeper: true,
    };
    pass.mark(rules, start);
    pass.out
}

/// Where a walk of the rules may be, for [`keeper_puts_away`]: who may
/// be on move, and whether the position may have changed since the last
/// player's move handed the turn to the keeper (or since the start).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
struct At {
    who: Who,
    moved: bool,
}

impl At {
    fn or(self, o: At) -> At {
        At {
            who: self.who.or(o.who),
            moved: self.moved || o.moved,
        }
    }
}

/// The walk of [`keeper_puts_away`]: each part of the rules crossed once
/// per state it is entered in (a few states at most), stars to their
/// fixpoint.
struct Walk {
    memo: HashMap<(*const Rule, At), At>,
    away: bool,
}

impl Walk {
    fn walk(&mut self, r: &Rule, at: At) -> At {
        if let Some(&x) = self.memo.get(&(r as *const Rule, at)) {
            return x;
        }
        let out = match r {
            Rule::Action(Action::Shift(_)) => At { moved: true, ..at },
            Rule::Action(Action::Off(_)) => {
                self.away |= at.who.keeper && at.moved;
                at
            }
            Rule::Action(Action::Switch(to)) => {
                // A player's `->>` hands the keeper the move's last vertex.
                let by_player = at.who.player && !at.who.keeper;
                At {
                    who: Who {
                        player: to.is_some(),
                        keeper: to.is_none(),
                    },
                    moved: at.moved && !(to.is_none() && by_player),
                }
            }
            Rule::Action(_) => at,
            Rule::Concat(parts) => parts.iter().fold(at, |a, p| self.walk(p, a)),
            Rule::Alt(parts) => parts
                .iter()
                .fold(At::default(), |acc, p| acc.or(self.walk(p, at))),
            Rule::Star(body) => {
                let mut s = at;
                loop {
                    let next = s.or(self.walk(body, s));
                    if next == s {
                        break s;
                    }
                    s = next;
                }
            }
        };
        self.memo.insert((r as *const Rule, at), out);
        out
    }
}

/// Whether the keeper may put a piece anywhere but on the vertex where the
/// last player's move ended (its switch to the keeper): when not, a move
/// changes the board only on its own atoms' vertices, and observations
/// can be patched there. Conservative: the keeper's puts of the initial
/// completion (never patched) count where a shift comes before them.
pub fn keeper_puts_away(rules: &Rule) -> bool {
    let mut w = Walk {
        memo: HashMap::new(),
        away: false,
    };
    let start = At {
        who: Who {
            player: false,
            keeper: true,
        },
        moved: false,
    };
    w.walk(rules, start);
    w.away
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(text: &str) -> Vec<bool> {
        let g = rbg_lang::parse_str(text).expect("valid game");
        player_modifiers(&g.rules)
    }

    const HEAD: &str = "#players = a(1), b(1)\n#pieces = e, x\n#variables = v(1)\n\
        #board = rectangle(up, down, left, right, [e, e])\n";

    #[test]
    fn keeper_modifiers_are_left_out() {
        // ->a [x] ->> [$ v=1] [e] ->b ...: the keeper's assignment and off
        // are no player's choice; the switches ending moves are.
        let g = format!("{HEAD}#rules = ->a [x] ->> [$ v=1] [e] ->b [x] ->> ->a");
        assert_eq!(
            of(&g),
            [false, true, true, false, false, false, true, true, false]
        );
    }

    /// The keeper's puts right after a player's move (no shift between)
    /// are on the move's last vertex; after a shift, or after the keeper's
    /// own switch following a shift, they are not.
    #[test]
    fn keeper_puts_on_the_moves_vertex_or_away() {
        let away = |rules: &str| {
            let g = rbg_lang::parse_str(&format!("{HEAD}#rules = {rules}")).expect("valid game");
            keeper_puts_away(&g.rules)
        };
        assert!(!away("->> (->a right [x] ->> [e] ->b left ->> [x])*"));
        assert!(away("->> (->a right ->> left [x])*"));
        assert!(away("->> (->a right ->> left ->> [x])*"));
        // Shifts in the keeper's initial completion count (conservative).
        assert!(away("->> right [x] ->a [x] ->>"));
        assert!(!away("->> [x] ->a right [x] ->> [e] ->> {}"));
        // The player's own puts are never the keeper's.
        assert!(!away("->> (->a right [x] left [e] ->>)*"));
        // Around a star: the keeper's second round puts after a shift.
        assert!(away("->> ->a right ->> ([x] left)*"));
        assert!(!away("->> ->a right ->> ([x] [e])*"));
        assert!(!away("->> (->a right ->> [x] right ->b ->> left)*"));
    }

    #[test]
    fn stars_carry_who_is_on_move_around() {
        // The first round of the star is the keeper's: [x] ->> [e] ->a;
        // the next rounds start with a's move [x] ->>.
        let g = format!("{HEAD}#rules = ([x] ->> [e] ->a)*");
        assert_eq!(of(&g), [true, true, false, false]);
        // Every round is the keeper's until ->a; a's [e] and ->> only.
        let g = format!("{HEAD}#rules = ->> ([x] ->> ->a [e] ->>)*");
        assert_eq!(of(&g), [false, false, false, false, true, true]);
        // Alternatives: [e] after either switch, by a or by the keeper.
        let g = format!("{HEAD}#rules = ->> (->a + ->>) [e] ->>");
        assert_eq!(of(&g), [false, false, false, true, true]);
    }
}
