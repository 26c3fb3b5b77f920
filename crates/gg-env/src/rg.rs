//! The RG engine as an environment ([`Spec`] for `rg_engine::GameModel`).
//!
//! Choices are tags: action `t` is the tag of symbol number `t`; a move's
//! changes and end node are no choice, so where a move's tags stop, the
//! end action chooses it among moves that go on. Observations depend on
//! what the players may see: with perfect information, a one-hot plane
//! per slot over the symbols (`slots`, `[slots, symbols]`); otherwise no
//! state at all but, per symbol, how many times the viewer was shown it
//! as a tag (`seen`). Then the tags chosen so far in the move in progress
//! that the viewer sees (`move`) and the player to choose, one-hot
//! (`on_move`).

use gg_core::{Game, Turn};
use gg_games::rg_engine::forward::Atom;
use gg_games::rg_engine::{GameModel, State};

use crate::spec::{Numbering, Segment, Spec, View};

fn symbols(g: &GameModel) -> usize {
    g.description().symbols.len()
}

fn sees(who: u64, viewer: usize) -> bool {
    who.checked_shr(viewer as u32).unwrap_or(1) & 1 == 1
}

/// RG's numbering: a tag's id is its symbol's number.
#[derive(Clone, Debug)]
pub struct RgIds {
    model: GameModel,
    symbols: u32,
}

impl Numbering<Atom> for RgIds {
    fn num_atoms(&self) -> u32 {
        self.symbols
    }

    #[inline]
    fn atom_id(&self, a: Atom) -> Option<u32> {
        match a {
            Atom::Tag(t, _) => Some(t as u32),
            _ => None,
        }
    }

    fn action_text(&self, id: u32) -> Option<String> {
        (id < self.symbols).then(|| self.model.symbol_name(id as u16).to_string())
    }
}

impl Spec for GameModel {
    type Ids = RgIds;

    fn numbering(&self) -> RgIds {
        RgIds {
            model: self.clone(),
            symbols: symbols(self) as u32,
        }
    }

    fn apply_prefix(&self, _s: &mut State, _prefix: &[Atom]) -> bool {
        false
    }

    fn memory_len(&self) -> usize {
        if self.perfect_information() {
            0
        } else {
            self.num_players() * symbols(self)
        }
    }

    fn remember(&self, m: &[Atom], memory: &mut [f32]) {
        let n = symbols(self);
        for a in m {
            if let Atom::Tag(t, who) = *a {
                for p in 0..self.num_players() {
                    if sees(who, p) {
                        memory[p * n + t as usize] += 1.0;
                    }
                }
            }
        }
    }

    fn observation_layout(&self) -> Vec<Segment> {
        let n = symbols(self);
        let first = if self.perfect_information() {
            let slots = GameModel::initial_state(self).slots().len();
            Segment::new("slots", vec![slots, n])
        } else {
            Segment::new("seen", vec![n])
        };
        vec![
            first,
            Segment::new("move", vec![n]),
            Segment::new("on_move", vec![self.num_players()]),
        ]
    }

    fn observe(&self, view: View<'_, Self>, viewer: usize, out: &mut [f32]) {
        out.fill(0.0);
        let n = symbols(self);
        let first = if view.memory.is_empty() {
            let slots = view.state.slots();
            for (i, &v) in slots.iter().enumerate() {
                out[i * n + v as usize] = 1.0;
            }
            slots.len() * n
        } else {
            out[..n].copy_from_slice(&view.memory[viewer * n..(viewer + 1) * n]);
            n
        };
        for a in view.prefix {
            if let Atom::Tag(t, who) = *a {
                if sees(who, viewer) {
                    out[first + t as usize] = 1.0;
                }
            }
        }
        if let Turn::Player(p) = view.turn {
            out[first + n + p] = 1.0;
        }
    }
}
