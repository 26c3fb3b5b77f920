//! The modes of the walk: one unit type per mode, so that each is compiled
//! on its own.

use crate::compile::Tr;

/// What a walk is for: the type parameter of `Searcher::node`, one unit
/// type per mode, so each mode is compiled on its own and the matches on
/// [`Mode::KIND`] are folded and exhaustive.
pub(super) trait Mode {
    const KIND: Kind;
}

/// The modes of the walk.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    /// Report every move (stop never).
    Collect,
    /// Report whether any move exists (stop at the first).
    Exists,
    /// Decide a pattern: stop at the first accepting state.
    Pattern,
    /// Keeper: apply the first move found and stop.
    Keeper,
}

/// [`Kind::Collect`].
pub(super) struct Collect;
/// [`Kind::Exists`].
pub(super) struct Exists;
/// [`Kind::Pattern`].
pub(super) struct Pattern;
/// [`Kind::Keeper`].
pub(super) struct Keeper;

impl Mode for Collect {
    const KIND: Kind = Kind::Collect;
}
impl Mode for Exists {
    const KIND: Kind = Kind::Exists;
}
impl Mode for Pattern {
    const KIND: Kind = Kind::Pattern;
}
impl Mode for Keeper {
    const KIND: Kind = Kind::Keeper;
}

/// Whether discovering a node through `tr` decides the walk: in `Pattern`
/// mode, when the node's state is accepting.
#[inline(always)]
pub(super) fn accepts<M: Mode>(tr: &Tr) -> bool {
    M::KIND == Kind::Pattern && tr.accepting
}
