//! Whole-map comparisons and assignments (`m == n`, `m = n` on map types):
//! rare, so a slow structural path. Maps of one layout are compared or copied
//! slot by slot; otherwise key by key over both key sets and the defaults
//! (equality is semantic: a map equals another when every key reads equal).

use rg_lang::types::{Sym, Ty};

use crate::tables::{Mem, Tables};
use crate::walk::{offset, place_access};
use crate::RunError;

fn memory<'a>(t: &'a Tables, st: &'a [u16], mem: Mem) -> &'a [u16] {
    match mem {
        Mem::State => st,
        Mem::Const => &t.consts,
    }
}

/// Key set, target type and target size of a map type.
fn parts(t: &Tables, ty: Ty) -> Option<(&[Sym], Ty, usize)> {
    let (a, b) = t.types.arrow_parts(ty)?;
    Some((t.types.symbols(a)?, b, t.sizes[&b]))
}

fn position(keys: &[Sym], k: Sym) -> usize {
    keys.iter().position(|&x| x == k).unwrap_or(keys.len())
}

/// Whether the two sides of map comparison `i` are equal.
pub fn equal(t: &Tables, st: &[u16], i: u32) -> bool {
    let (a, b) = t.map_pairs[i as usize];
    let (ma, mb) = (memory(t, st, a.at.mem), memory(t, st, b.at.mem));
    let (oa, ob) = (offset(t, st, &a.at) as usize, offset(t, st, &b.at) as usize);
    eq(t, (ma, oa, a.ty), (mb, ob, b.ty))
}

fn eq(t: &Tables, (ma, oa, ta): (&[u16], usize, Ty), (mb, ob, tb): (&[u16], usize, Ty)) -> bool {
    if ta == tb {
        let n = t.sizes[&ta];
        return ma[oa..oa + n] == mb[ob..ob + n];
    }
    match (parts(t, ta), parts(t, tb)) {
        (None, None) => ma[oa] == mb[ob],
        (Some((ka, ba, sa)), Some((kb, bb, sb))) => {
            let at = |i: usize, j: usize| eq(t, (ma, oa + i * sa, ba), (mb, ob + j * sb, bb));
            ka.iter().enumerate().all(|(i, &k)| at(i, position(kb, k)))
                && kb.iter().enumerate().all(|(j, &k)| at(position(ka, k), j))
                && at(ka.len(), kb.len())
        }
        _ => false,
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
    let os = offset(t, st, &src.at) as usize;
    copy(
        t,
        writes,
        (od, dst.ty),
        (memory(t, st, src.at.mem), os, src.ty),
    );
    Ok(())
}

fn copy(
    t: &Tables,
    writes: &mut Vec<(u32, u16)>,
    (od, td): (usize, Ty),
    (ms, os, ts): (&[u16], usize, Ty),
) {
    if td == ts {
        let n = t.sizes[&td];
        writes.extend((0..n).map(|k| ((od + k) as u32, ms[os + k])));
        return;
    }
    match (parts(t, td), parts(t, ts)) {
        (Some((kd, bd, sd)), Some((ks, bs, ss))) => {
            for (i, &k) in kd.iter().enumerate() {
                copy(
                    t,
                    writes,
                    (od + i * sd, bd),
                    (ms, os + position(ks, k) * ss, bs),
                );
            }
            copy(
                t,
                writes,
                (od + kd.len() * sd, bd),
                (ms, os + ks.len() * ss, bs),
            );
        }
        _ => writes.push((od as u32, ms[os])),
    }
}
