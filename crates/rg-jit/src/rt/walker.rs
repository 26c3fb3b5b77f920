//! The per-thread [`Walker`]: runs the generated walk functions over a
//! workspace and hands the moves to the caller's sink.

use std::sync::Arc;

use rg_engine::raw::{self, Guard, Tables};
use rg_engine::{NativeWalker, RunError, SinkMut};

use super::*;
use crate::Code;

/// The dense visited key of move walks at `node`, as the interpreter's:
/// a node reached without tags whose key is one slot has its stamps from
/// `NodeInfo::dense` on (its base and the slot).
pub(crate) fn dense_key(t: &Tables, node: u32) -> Option<(u32, u32)> {
    let info = t.nodes[node as usize];
    if !info.untagged || info.dense == raw::NO_DENSE {
        return None;
    }
    match info.guard {
        Guard::Full(lo, _) => Some((info.dense, lo)),
        Guard::Repeat(i) => Some((info.dense, t.repeat_slots[i as usize][0])),
        Guard::None => None,
    }
}

/// Length of the dense stamps: every node's base plus any symbol (the
/// generated code indexes them unchecked).
pub(super) fn dense_stamps(t: &Tables) -> usize {
    (0..t.nodes.len() as u32)
        .filter_map(|n| dense_key(t, n))
        .map(|(base, _)| base as usize + t.symbols as usize)
        .max()
        .unwrap_or(0)
}

/// A thread's native walker.
pub(crate) struct Walker {
    ws: Box<Ws>,
    /// The workspace's code, held here too so that a run borrows it
    /// beside the workspace (no reference count changes per walk).
    code: Arc<Code>,
    /// [`max_value_fn`] (or 0 where the states are known to be of the
    /// game: [`Walker::ahead`]).
    max_value: fn(&[u16]) -> u16,
    /// `Code::entry`, where a lazy root's walk as written is made a start
    /// for the while (`Walker::moves_aside`).
    entry: Vec<Entry>,
}

// SAFETY: the raw pointers in `Ws` point into buffers it owns; a walker is
// used by one thread at a time (`&mut self`).
unsafe impl Send for Walker {}
// SAFETY: as for `Send`: every use takes `&mut self`.
unsafe impl Sync for Walker {}

/// The function giving the largest value in a semistate (0 if empty): by
/// AVX2's 16 lanes where the processor has it (a quarter of `moves`' own
/// instructions were the 8-lane loop's on connect4's 48 slots), else 8;
/// chosen once per walker (the detection's test took ~4 instructions a
/// walk).
fn max_value_fn() -> fn(&[u16]) -> u16 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2.
        return |st| unsafe { max_value_avx2(st) };
    }
    max_in_lanes::<8>
}

/// [`max_in_lanes`] in AVX2's lanes (`vpmaxuw`).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn max_value_avx2(st: &[u16]) -> u16 {
    max_in_lanes::<16>(st)
}

/// The largest value in `st` (0 if empty), `LANES` at a time, the last
/// lane overlapping the one before (a maximum does not mind counting a
/// value twice): one vector loop and no scalar tail, where a plain fold
/// compiles to lanes of 16, then of 4, then one at a time (43 slots:
/// ~80 instructions, ~45 so).
#[inline(always)]
fn max_in_lanes<const LANES: usize>(st: &[u16]) -> u16 {
    if st.len() < LANES {
        return st.iter().fold(0, |m, &v| m.max(v));
    }
    let mut m = [0u16; LANES];
    let mut lane = |c: &[u16]| {
        for (m, &v) in m.iter_mut().zip(c) {
            *m = (*m).max(v);
        }
    };
    for c in st.chunks_exact(LANES) {
        lane(c);
    }
    lane(&st[st.len() - LANES..]);
    m.iter().fold(0, |a, &v| a.max(v))
}

impl Walker {
    pub(crate) fn new(code: Arc<Code>) -> Walker {
        Walker {
            ws: Ws::new(code.clone()),
            entry: code.entry.clone(),
            code,
            max_value: max_value_fn(),
        }
    }

    /// The walker of moves generated ahead (`rt/ahead.rs`): it does not
    /// speculate, and its states, the running walk's, are of this game
    /// (its maximum value is not looked for: [`Walker::of_game`]).
    pub(super) fn ahead(code: Arc<Code>) -> Walker {
        let mut w = Walker::new(code);
        w.ws.speculates = false;
        w.max_value = |_| 0;
        w
    }

    pub(super) fn run(&mut self, st: &mut [u16], node: u32, entry: Entry) -> Result<(), RunError> {
        let ws = &mut *self.ws;
        let code = &*self.code;
        if entry.flags & Entry::GUARD != 0 {
            ws.visit(st, node)?;
        }
        let (mut target, mut arg) = (entry.target, entry.next);
        if entry.flags & Entry::DISJOINT != 0 {
            let info = code.game.tables().nodes[node as usize];
            let (first, next) = match ws.first_legal(st, node)? {
                Some(e) => (e, e + 1),
                None => (info.first, info.first),
            };
            target += first - info.first;
            arg = code.bases[node as usize] + (next - info.first);
        }
        // SAFETY: the code was generated for these tables and checked
        // (`safe.rs`); `st` is a semistate of this game (checked by
        // `moves`); the workspace's buffers match its capacity fields.
        // The walk's functions pass control through here (`gen::Parts`):
        // the first pushes the root frame.
        let mut f = code.walk[0];
        loop {
            // SAFETY: see above; targets are the code's own.
            let r = unsafe { f(ws, st.as_mut_ptr(), target, arg) };
            match r {
                0 => return Ok(()),
                1 => return Err(ws.err.take().unwrap_or(RunError::NotAPlayer(0))),
                _ => {
                    (target, arg) = (r - 2, 0);
                    f = code.walk[code.targets[target as usize] as usize];
                }
            }
        }
    }
}

impl NativeWalker for Walker {
    #[inline(never)]
    fn moves(&mut self, st: &mut [u16], node: u32, mut out: SinkMut<'_>) -> Result<(), RunError> {
        if self.ws.take_ahead(st, node, &mut out) {
            return Ok(());
        }
        // (Not a start: no flags.)
        let entry = self.entry.get(node as usize).copied().unwrap_or_default();
        let valid = entry.flags & Entry::START != 0 && self.of_game(st);
        if !valid {
            return self.moves_aside(st, node, entry, out);
        }
        self.walk(st, node, entry, out)
    }

    fn clone_box(&self) -> Box<dyn NativeWalker> {
        Box::new(Walker::new(self.code.clone()))
    }
}

impl Walker {
    /// Whether `st` is a semistate of this game: its length, and every
    /// slot's value a symbol (what the generated code's unchecked reads
    /// rely on).
    #[inline(always)]
    fn of_game(&self, st: &[u16]) -> bool {
        st.len() == self.ws.st_len && ((self.max_value)(st) as usize) < self.code.symbols
    }

    /// [`NativeWalker::moves`] off its hot path: a lazy root's, as the
    /// interpreter's `Walker::moves` (its target's walks where there are
    /// any, else its own as written, made a start for the while), or not
    /// a start or not a state of this game (the interpreter's checked
    /// indexing answers it). Both walks are `moves`' own: where this
    /// function walked too, the three copies of [`Walker::walk`] left
    /// `run` and `flush` out of line (instructions per playout ticTacToe
    /// +8.8%, connect4 +6.7%).
    #[cold]
    #[inline(never)]
    fn moves_aside(
        &mut self,
        st: &mut [u16],
        node: u32,
        entry: Entry,
        mut out: SinkMut<'_>,
    ) -> Result<(), RunError> {
        let t = self.code.game.tables();
        // (A lazy root made a start gets here only for a state not of
        // this game.)
        let valid = entry.flags & Entry::START == 0 && self.of_game(st);
        if valid && entry.flags & Entry::LAZY != 0 {
            let b = t.lazy[node as usize];
            let found = match &mut out {
                SinkMut::List(l) => self.moves(st, b, SinkMut::List(l)).map(|_| l.len()),
                SinkMut::Effects(l) => self.moves(st, b, SinkMut::Effects(l)).map(|_| l.len()),
            };
            if matches!(found, Ok(n) if n > 0) {
                return Ok(());
            }
            self.entry[node as usize].flags |= Entry::START;
            let r = self.moves(st, node, out);
            self.entry[node as usize].flags = entry.flags;
            return r;
        }
        let mut w = raw::Walker::new(t);
        match out {
            SinkMut::List(l) => w.moves(t, st, node, l),
            SinkMut::Effects(l) => w.moves(t, st, node, l),
        }
    }

    /// The walk from `node` (a start, `st` a state of this game) into
    /// `out`.
    #[inline(always)]
    fn walk(
        &mut self,
        st: &mut [u16],
        node: u32,
        entry: Entry,
        out: SinkMut<'_>,
    ) -> Result<(), RunError> {
        let code = &*self.code;
        let t = code.game.tables();
        let ws = &mut *self.ws;
        ws.want_vis = matches!(out, SinkMut::List(_));
        ws.rec_inline = matches!(out, SinkMut::Effects(_)) as u64;
        ws.changes_len = 0;
        ws.ends_len = 0;
        ws.sink = Some(match out {
            SinkMut::List(l) => {
                l.clear();
                SinkPtr::List(l)
            }
            // (Its walks are replaced by the walk's: `flush`.)
            SinkMut::Effects(l) => SinkPtr::Effects(l),
        });
        // As the interpreter's `begin`.
        ws.log_len = 0;
        ws.frames_len = 0;
        ws.tags_len = 0;
        ws.tag_ids_len = 0;
        ws.sets = false;
        ws.tag_hash = 0;
        ws.steps = 0;
        ws.err = None;
        // (Walks that never read the hash leave it stale. The others start
        // from 0 unless interpreted checks, which memoise by the hash
        // across walks, read it: the visited sets are emptied per walk
        // and compare whole keys, so the hash of a key's difference from
        // the walk's first semistate serves as well.)
        if entry.flags & Entry::HASH != 0 {
            ws.hash = match code.hash_base {
                true => st[..t.user_slots]
                    .iter()
                    .zip(&t.hash_mul)
                    .fold(0u64, |h, (&v, &m)| h.wrapping_add(m.wrapping_mul(v as u64))),
                false => 0,
            };
        }
        ws.dense_gen += 1;
        if ws.dense_gen >= u32::MAX as u64 {
            ws.dense_buf.fill(0);
            ws.dense_gen = 1;
        }
        ws.version = ws.next_version;
        ws.next_version += 1;
        let r = self.run(st, node, entry);
        let ws = &mut *self.ws;
        if r.is_err() {
            ws.rollback(st, 0);
            ws.frames_len = 0;
        }
        if let Some(SinkPtr::Effects(p)) = ws.sink {
            // SAFETY: as in `record`: `p` is the sink `moves` was given.
            ws.flush(unsafe { &mut *p });
        }
        ws.sink = None;
        r
    }
}

#[cfg(test)]
mod tests {
    use super::{max_in_lanes, max_value_fn};

    /// The largest value wherever it is: in the lanes, in the overlapping
    /// last lane only, in a state shorter than a lane; by 8 and 16 lanes
    /// and by the processor's choice.
    #[test]
    fn max_value_finds_the_largest_anywhere() {
        let maxes: [fn(&[u16]) -> u16; 3] = [max_value_fn(), max_in_lanes::<8>, max_in_lanes::<16>];
        for max in maxes {
            for len in 0..70 {
                for at in 0..len {
                    let mut st: Vec<u16> = (0..len as u16).map(|i| i % 7).collect();
                    st[at] = 1000 + at as u16;
                    assert_eq!(max(&st), 1000 + at as u16, "len {len}, at {at}");
                    // (Above the sign bit: the comparisons are unsigned.)
                    st[at] = 0x8000 + at as u16;
                    assert_eq!(max(&st), 0x8000 + at as u16, "len {len}, at {at}");
                }
                let st = vec![3u16; len];
                assert_eq!(max(&st), if len == 0 { 0 } else { 3 });
            }
        }
    }
}
