//! Which state moves generated ahead by a speculated check (`mirror.rs`)
//! are of, and whether generating them pays: the interpreter's walker and
//! rg-jit's (`rt/ahead.rs`) keep their moves with one of these.

/// The state (slots, node, sink kind) moves generated ahead are of, and
/// how often such moves were made and taken.
#[derive(Clone, Default)]
pub struct AheadOf {
    slots: Vec<u16>,
    node: u32,
    /// Whether moves are kept, of (`slots`, `node`) for sinks with
    /// visibility (`kind`).
    valid: bool,
    kind: bool,
    /// Generations taken, and made: a game whose generated moves are rarely
    /// taken stops generating (the check's own walk stops at the first
    /// move).
    hits: u32,
    made: u32,
}

impl AheadOf {
    /// Whether to generate moves ahead now (counted as made): not once
    /// they are taken less than a quarter of the time, past 16.
    #[inline]
    pub fn start(&mut self) -> bool {
        if self.made > self.hits.saturating_mul(4).saturating_add(16) {
            return false;
        }
        self.made = self.made.saturating_add(1);
        true
    }

    /// Records the generation just made: moves kept for (`st`, `node`,
    /// `kind`) where it succeeded (`ok`), none otherwise.
    #[inline]
    pub fn made(&mut self, ok: bool, st: &[u16], node: u32, kind: bool) {
        self.valid = ok;
        if ok {
            self.slots.clear();
            self.slots.extend_from_slice(st);
            self.node = node;
            self.kind = kind;
        }
    }

    /// Whether the kept moves are of (`st`, `node`, `kind`), counted as
    /// taken. Kept moves are offered once.
    #[inline]
    pub fn take(&mut self, st: &[u16], node: u32, kind: bool) -> bool {
        let hit = std::mem::take(&mut self.valid)
            && self.kind == kind
            && self.node == node
            && self.slots[..] == st[..];
        if hit {
            self.hits = self.hits.saturating_add(1);
        }
        hit
    }
}
