//! Whole-map comparisons and assignments (`m == n`, `m = n` on map types):
//! rare, so no table tricks, but their slots are paired at load time
//! ([`plan`]): maps of one layout slot by slot; otherwise key by key over
//! both key sets and the defaults (equality is semantic: a map equals another
//! when every key reads equal). Running one is a loop over its pairs.

use rg_lang::types::{Sym, Ty};

use crate::layout::Layouts;
use crate::tables::{Mem, Tables};
use crate::walk::{offset, place_access};
use crate::{LoadError, RunError};

/// Pairs of a map plan beyond which a game is not loaded (nested maps of
/// different key sets pair slots once per key of either side).
const MAX_PAIRS: usize = 1 << 24;

/// A map comparison or assignment with its slots paired: offsets relative
/// to the left map's (the place, for assignments) and the right map's.
#[derive(Clone, Debug)]
pub enum MapPlan {
    /// One layout: `n` slots in order.
    Same(u32),
    /// Slot pairs (left, right).
    Pairs(Vec<(u32, u32)>),
    /// A map compared with a non-map: never equal.
    Never,
}

/// The plan of `left == right` (`compare`) or `left = right` on types
/// `left` and `right`. Iterative: the depth of nested map types is the
/// input's.
pub fn plan(
    layouts: &mut Layouts,
    left: Ty,
    right: Ty,
    compare: bool,
) -> Result<MapPlan, LoadError> {
    if left == right {
        return Ok(MapPlan::Same(layouts.size(left)? as u32));
    }
    let too_big = || LoadError(format!("a map operation pairs more than {MAX_PAIRS} slots"));
    let mut pairs: Vec<(u32, u32)> = Vec::new();
    let mut stack = vec![(0usize, left, 0usize, right)];
    while let Some((oa, ta, ob, tb)) = stack.pop() {
        if pairs.len() + stack.len() > MAX_PAIRS {
            return Err(too_big());
        }
        if ta == tb {
            let n = layouts.size(ta)?;
            if pairs.len() + n > MAX_PAIRS {
                return Err(too_big());
            }
            pairs.extend((0..n).map(|k| ((oa + k) as u32, (ob + k) as u32)));
            continue;
        }
        match (layouts.arrow(ta), layouts.arrow(tb)) {
            (Some((ka, ba)), Some((kb, bb))) => {
                let (sa, sb) = (layouts.size(ba)?, layouts.size(bb)?);
                let at = |i: usize, j: usize| (oa + i * sa, ba, ob + j * sb, bb);
                stack.push(at(ka.len(), kb.len()));
                stack.extend(ka.iter().enumerate().map(|(i, &k)| at(i, position(kb, k))));
                if compare {
                    stack.extend(kb.iter().enumerate().map(|(j, &k)| at(position(ka, k), j)));
                }
            }
            (None, None) => pairs.push((oa as u32, ob as u32)),
            _ if compare => return Ok(MapPlan::Never),
            _ => pairs.push((oa as u32, ob as u32)),
        }
    }
    Ok(MapPlan::Pairs(pairs))
}

fn memory<'a>(t: &'a Tables, st: &'a [u16], mem: Mem) -> &'a [u16] {
    match mem {
        Mem::State => st,
        Mem::Const => &t.consts,
    }
}

fn position(keys: &[Sym], k: Sym) -> usize {
    keys.iter().position(|&x| x == k).unwrap_or(keys.len())
}

/// Whether the two sides of map comparison `i` are equal.
pub fn equal(t: &Tables, st: &[u16], i: u32) -> bool {
    let (a, b) = t.map_pairs[i as usize];
    let (ma, mb) = (memory(t, st, a.at.mem), memory(t, st, b.at.mem));
    let (oa, ob) = (offset(t, st, &a.at) as usize, offset(t, st, &b.at) as usize);
    match &t.map_plans[i as usize] {
        MapPlan::Same(n) => ma[oa..oa + *n as usize] == mb[ob..ob + *n as usize],
        MapPlan::Pairs(pairs) => pairs
            .iter()
            .all(|&(x, y)| ma[oa + x as usize] == mb[ob + y as usize]),
        MapPlan::Never => false,
    }
}

/// The slot writes of map assignment `i`, into `writes`.
pub fn assign(
    t: &Tables,
    st: &[u16],
    i: u32,
    writes: &mut Vec<(u32, u16)>,
) -> Result<(), RunError> {
    let (dst, src) = t.map_pairs[i as usize];
    let od = place_access(t, st, &dst.at)? as usize;
    let (ms, os) = (memory(t, st, src.at.mem), offset(t, st, &src.at) as usize);
    match &t.map_plans[i as usize] {
        MapPlan::Same(n) => writes.extend((0..*n as usize).map(|k| ((od + k) as u32, ms[os + k]))),
        MapPlan::Pairs(pairs) => writes.extend(
            pairs
                .iter()
                .map(|&(d, s)| ((od + d as usize) as u32, ms[os + s as usize])),
        ),
        MapPlan::Never => {}
    }
    Ok(())
}
