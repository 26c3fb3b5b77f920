//! The lowered game: dense tables the walk reads (leaf module).
//!
//! The semistate is one flat array of `u16` slots holding symbol numbers
//! (`layout.rs`): the user's variables first (the part the visited key looks
//! at), then `goals`, `visible`, `player`. Constants live in a second array of
//! the same kind. Expressions are operands: an immediate symbol, a slot of
//! either array, or a computed read (`Read`: a base plus key steps).

use rg_lang::types::Ty;

use crate::layout::KeyTables;
use crate::maps::MapPlan;
use crate::program::{AnyFilter, Ins, Program};
use crate::sealed::Sealed;

/// A value the walk reads: a symbol.
///
/// Reads that depend on one slot only (`other[me]`, `board[pos]`,
/// `board[first[line]]`) are precomputed as a table over that slot's symbol
/// ([`Tables::fun`]): one or two loads instead of a walk through the keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operand {
    /// A known symbol.
    Imm(u16),
    /// A semistate slot.
    Slot(u32),
    /// `fun[table + st[slot]]`: a symbol (a constant map applied to a slot).
    Tab(u32, u32),
    /// `st[fun[table + st[slot]]]`: a slot chosen by a slot's symbol.
    Ind(u32, u32),
    /// A computed read (index into [`Tables::reads`]).
    Read(u32),
}

/// How a computed read or place ([`Operand::Read`], [`Place::Gen`]) is
/// evaluated: shapes that need two table lookups are folded (the
/// [`Access`] stays in [`Tables::reads`] for the analysis).
#[derive(Clone, Copy, Debug)]
pub enum Fast {
    /// Through the key steps of the access.
    General,
    /// `fun[outer + st[fun[inner + st[slot]]]]` (fields `slot, inner,
    /// outer`): a constant map applied to an [`Operand::Ind`] read
    /// (`f[board[x]]`).
    TabInd(u32, u32, u32),
    /// `st[fun[outer + st[fun[inner + st[slot]]]]]`: a semistate map read
    /// through an [`Operand::Ind`] read; as a place, the table holds
    /// [`NO_SLOT`] for keys outside the map's keys.
    IndInd(u32, u32, u32),
    /// `fun[outer + st[fun[mid + st[fun[inner + st[slot]]]]]]` (fields
    /// `slot, inner, mid, outer`): a constant map applied to an
    /// [`Fast::IndInd`] read (`dec[counters[board[coord]]]`).
    TabIndInd(u32, u32, u32, u32),
    /// `consts[fun[first_table + first] + fun[second_table + second]]`: a
    /// constant map of maps read with two keys that are not computed reads
    /// (`arrive[piece][cur]`); the tables hold each key's offset (the
    /// first's with the map's base).
    Pair {
        /// The first key.
        first: Operand,
        /// The second key.
        second: Operand,
        /// Offset of the first key's table in [`Tables::fun`].
        first_table: u32,
        /// Offset of the second key's table.
        second_table: u32,
    },
}

/// Marks a key outside a map's keys in the slot tables of [`Place::Ind`].
pub const NO_SLOT: u32 = u32::MAX;

/// A semistate slot an assignment writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// A fixed slot.
    Slot(u32),
    /// `fun[table + st[slot]]` ([`NO_SLOT`]: a key outside the map's keys).
    Ind(u32, u32),
    /// A computed place (index into [`Tables::reads`]).
    Gen(u32),
}

/// Which array a read or map reference looks in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mem {
    /// The semistate.
    State,
    /// The constants.
    Const,
}

/// One access step: `offset += keys[table + value(key)] * stride`.
#[derive(Clone, Copy, Debug)]
pub struct KeyStep {
    /// The key's value.
    pub key: Operand,
    /// Offset of the source set's key table.
    pub table: u32,
    /// Size of the source set (the index of the default entry).
    pub limit: u16,
    /// Slots per entry.
    pub stride: u32,
}

/// A place in memory: `base` plus the key steps `steps.0 .. steps.0 + steps.1`.
#[derive(Clone, Copy, Debug)]
pub struct Access {
    /// Which array.
    pub mem: Mem,
    /// The root's first slot.
    pub base: u32,
    /// Range in [`Tables::steps`].
    pub steps: (u32, u32),
}

/// A whole value of a map type somewhere in memory (for map comparisons and
/// assignments, which are rare and take a slow path).
#[derive(Clone, Copy, Debug)]
pub struct MapRef {
    /// Where it is.
    pub at: Access,
    /// Its storage type.
    pub ty: Ty,
}

/// The action of an edge, lowered.
#[derive(Clone, Copy, Debug)]
pub enum Op {
    /// No action.
    Skip,
    /// `$ s`.
    Tag(u16),
    /// `$$ v`: the slot of `v`.
    TagVar(u32),
    /// `a == b` (`eq`) or `a != b` on symbols.
    Cmp(Operand, Operand, bool),
    /// The same on maps (index into [`Tables::map_pairs`]).
    CmpMap(u32, bool),
    /// `? check` (`true`) or `! check`.
    Reach(u32, bool),
    /// `place = value` on a symbol slot.
    Assign(Place, Operand),
    /// `place = value` on maps (index into [`Tables::map_pairs`], place first).
    AssignMap(u32),
    /// `place = T(*)`: symbols `syms.0 .. syms.0 + syms.1` of [`Tables::any_syms`].
    AssignAny(Place, (u32, u32)),
    /// `player = value`: ends a move walk.
    SetPlayer(Operand),
}

/// What the walk does after an edge's action succeeded, decided by the
/// target node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// The target has no edges: the walk ends there.
    Dead,
    /// The target has a single edge (not an any-assignment, not `@disjoint`):
    /// follow it without a frame.
    Inline(u32),
    /// The target offers a choice: push a frame.
    Frame,
}

/// An edge: action and target node.
#[derive(Clone, Copy, Debug)]
pub struct Edge {
    /// The action.
    pub op: Op,
    /// The target node.
    pub to: u32,
    /// Whether the target has a visited check.
    pub guard: bool,
    /// How the walk goes on at the target.
    pub next: Next,
    /// For an any-assignment to a fixed slot whose target's only edge is a
    /// comparison: that edge, tested for each symbol before the symbol is
    /// taken (`shortcut.rs`); [`NO_EDGE`] otherwise.
    pub filter: u32,
    /// For the edge closing a ray (`cycles.rs`): index into
    /// [`Tables::cyclic`]; the target's check is needed only for the values
    /// its table marks. [`NO_EDGE`]: always (when `guard`).
    pub cyclic: u32,
}

/// An edge's fact for the walk's any-assignments ([`Tables::acts`]); the
/// edge's action itself is specialised in [`crate::raw::Kind`] (`code.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Act {
    /// `x = T(*)` into a node where some comparison must hold for a walk
    /// to go on: edges `first .. first + count`, each a comparison; a
    /// symbol for which none holds is skipped before it is taken
    /// (`shortcut.rs`, filtered any-assignments).
    AnyTests {
        /// The first comparison's edge.
        first: u32,
        /// The number of comparisons (at least 2: one is [`Edge::filter`]).
        count: u32,
    },
    /// Any other edge.
    Other,
}

/// No edge (see [`Edge::filter`]).
pub const NO_EDGE: u32 = u32::MAX;

/// How the walk avoids visiting a node twice with the same key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Guard {
    /// Never needed: the node cannot be reached twice with one key (or the
    /// game's `@unique` says to skip the check).
    None,
    /// Checked on (node, tags, user variables). Only the slots `lo .. hi`
    /// are compared: the others are never written in an enumeration that
    /// can reach the node, so they are equal.
    Full(u32, u32),
    /// Checked on (node, tags, the listed variables) (`@repeat`; index into
    /// [`Tables::repeat_slots`]).
    Repeat(u32),
}

/// Per-node facts.
#[derive(Clone, Copy, Debug)]
pub struct NodeInfo {
    /// First edge in [`Tables::edges`].
    pub first: u32,
    /// One past the last edge.
    pub end: u32,
    /// Visited check.
    pub guard: Guard,
    /// `@disjoint`: only the first legal edge (file order) is taken.
    pub disjoint: bool,
    /// For a [`Guard::Full`] or [`Guard::Repeat`] comparing one slot: where its keys start in
    /// a check's dense visited set (one stamp per symbol of the slot;
    /// `seen.rs`); [`NO_DENSE`] otherwise.
    pub dense: u32,
    /// Whether move walks reach the node only without tags (no tag edge
    /// leads to it before a `player` assignment): its keys' tags are all
    /// empty, so a one-slot key is a dense stamp in moves too.
    pub untagged: bool,
    /// For a local visited check (`local.rs`): where its stamps start;
    /// [`NO_DENSE`] otherwise.
    pub local: u32,
    /// The slot a local check keys on ([`NO_SLOT`]: none, one stamp).
    pub local_slot: u32,
    /// Whether a local check's stamps are logged, to be restored when its
    /// frame node's frame is popped: where a visit of the frame node may
    /// nest in another (`local.rs`).
    pub local_logged: bool,
    /// A choice between a local check's frame node and its node
    /// (`local.rs`): its frames carry the number of the frame below.
    pub relay: bool,
    /// A local check's frame node (`local.rs`): its frame is pushed even
    /// where one edge can pass (its number keys the check's stamps).
    pub owner: bool,
    /// For a choice between comparisons of one read (`switch.rs`): its
    /// index in [`Tables::switches`]; [`NO_SWITCH`] otherwise.
    pub switch: u32,
}

/// No switch (see [`NodeInfo::switch`]).
pub const NO_SWITCH: u32 = u32::MAX;

/// A node whose edges all compare `st[fun[table + st[slot]]]` with
/// symbols (`switch.rs`).
#[derive(Clone, Copy, Debug)]
pub struct Switch {
    /// The key's slot.
    pub slot: u32,
    /// The slot table of the read.
    pub table: u32,
    /// Where its edge ranges start in [`Tables::switch_ranges`] (one per
    /// symbol of the read).
    pub ranges: u32,
}

/// No node (see [`Tables::lazy`]).
pub const NO_NODE: u32 = crate::mirror::NO_NODE;

/// No dense visited set (see [`NodeInfo::dense`]).
pub const NO_DENSE: u32 = u32::MAX;

/// A reachability check: from `start`, can the walk reach `target`?
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Check {
    /// Start node.
    pub start: u32,
    /// Node to reach.
    pub target: u32,
}

/// A reachability check decided without a walk: its automaton is a path
/// from the start, optionally beginning with an any-assignment to a fixed
/// slot, then comparisons (and no-ops) only, ending at the target. Then the
/// check holds iff for some symbol of the assignment (or once) every
/// comparison holds.
#[derive(Clone, Copy, Debug)]
pub struct Probe {
    /// The any-assignment: slot and range of [`Tables::any_syms`].
    pub any: Option<(u32, (u32, u32))>,
    /// The comparisons: range of [`Tables::probe_conds`].
    pub conds: (u32, u32),
}

/// Everything the walk needs.
#[derive(Clone, Debug)]
pub struct Tables {
    /// Nodes (`begin` = 0, `end` = 1).
    pub nodes: Vec<NodeInfo>,
    /// Edges grouped by source node, file order within a node.
    pub edges: Vec<Edge>,
    /// Per edge, its any-assignment's filtering comparisons, if any.
    pub acts: Vec<Act>,
    /// Per edge, the edge as the interpreter's walk runs it (`code.rs`),
    /// verified for unchecked reads (`sealed.rs`).
    pub code: Sealed,
    /// Computed reads and places.
    pub reads: Vec<Access>,
    /// Per computed read or place, how it is evaluated.
    pub fast: Vec<Fast>,
    /// Tables of [`Operand::Tab`], [`Operand::Ind`], [`Place::Ind`] and [`Fast`].
    pub fun: Vec<u32>,
    /// Key steps of reads and places.
    pub steps: Vec<KeyStep>,
    /// Operand pairs of map comparisons and map assignments.
    pub map_pairs: Vec<(MapRef, MapRef)>,
    /// Per map pair, its slots paired.
    pub map_plans: Vec<MapPlan>,
    /// Symbols of any-assignments.
    pub any_syms: Vec<u16>,
    /// Reachability checks.
    pub checks: Vec<Check>,
    /// Per check, its probe if it has one.
    pub probes: Vec<Option<Probe>>,
    /// Per check, whether it is *pure*: no edge it can follow assigns, so
    /// the semistate is fixed and it is a plain graph search (`shortcut.rs`).
    pub pure: Vec<bool>,
    /// Per check, the slot a one-slot check writes (`shortcut.rs`), or
    /// [`NO_SLOT`].
    pub one_slot: Vec<u32>,
    /// Per node, its index among the nodes of one-slot checks, or
    /// [`NO_SLOT`]; and their number.
    pub slot_index: Vec<u32>,
    /// The number of nodes with a [`Tables::slot_index`].
    pub slot_nodes: u32,
    /// Per node: whether at most one edge enters it and its edges are all
    /// comparisons (at least one; not `@disjoint`): one-slot checks'
    /// searches expand such a node where they find it (`shortcut.rs`).
    pub cmp_only: Vec<bool>,
    /// The number of symbols (values of a slot).
    pub symbols: u32,
    /// Comparisons of probes: operands and `==` (true) or `!=`.
    pub probe_conds: Vec<(Operand, Operand, bool)>,
    /// Per node: the node whose move walks are its own when there are any
    /// (a lazy root, `mirror.rs`), or [`NO_NODE`].
    pub lazy: Vec<u32>,
    /// Per check: the node after `? check` whose only edge assigns `player`,
    /// when the check mirrors that edge's target (`mirror.rs`), or
    /// [`NO_NODE`].
    pub speculated: Vec<u32>,
    /// The switches (`switch.rs`).
    pub switches: Vec<Switch>,
    /// Per switch and symbol of its read: the edges a frame at the node
    /// tries (from the first to the last that pass).
    pub switch_ranges: Vec<(u32, u32)>,
    /// Per check, its program if it has one (`program.rs`).
    pub programs: Vec<Option<Program>>,
    /// The programs' instructions.
    pub program: Vec<Ins>,
    /// Per instruction of `program`, the comparisons filtering its
    /// any-assignment's symbols (`program::any_filters`).
    pub any_filters: Vec<AnyFilter>,
    /// See `any_filters`.
    pub any_filter_list: Vec<u32>,
    /// Per ray ([`Edge::cyclic`]): the slot, and the offset in
    /// [`Tables::fun`] of a table that is 1 for the values whose visits
    /// are checked.
    pub cyclic: Vec<(u32, u32)>,
    /// Whether walks count their steps along single edges
    /// ([`crate::raw::MAX_STEPS`]): some node is `@unique` (only then can
    /// single edges form a cycle without a visited check) and single edges
    /// followed inline form a cycle (`cycles::inline_cycle`). Translations
    /// have `@unique` nodes but no such cycle: the count cost 6% of their
    /// instructions.
    pub has_unique: bool,
    /// Whether some visited check of a move walk keys on tags (a
    /// [`Guard::Full`] or [`Guard::Repeat`] node without a local stamp
    /// that some tag edge leads to, see [`NodeInfo::untagged`]). When none does, a walk into a sink that keeps no tags
    /// (`Effects`) only counts them, for [`crate::raw::MAX_TAGS`].
    pub tags_read: bool,
    /// Whether a walk from any node pushes at most
    /// [`crate::raw::FEW_TAGS`] tags before a `player` assignment
    /// ([`crate::raw::few_tags`]): then a lean walk never reaches
    /// [`crate::raw::MAX_TAGS`] and does not count its tags.
    pub few_tags: bool,
    /// The tags on cycles ([`crate::cycles::cyclic_tags`]) a lean walk
    /// counts at most, taking the table whose other tags are no-ops
    /// (`sealed.rs`): [`crate::raw::MAX_TAGS`] less one less the most
    /// other tags a walk passes, so its tags stay below that bound; one
    /// more gives up, and the enumeration is made again counting every
    /// tag (`Walker::enumerate_walk`), so its outcome is the listing
    /// walk's. [`crate::raw::MAX_TAGS`] when the other tags are too many
    /// to bound: lean walks take the tagged table and count every tag.
    pub tag_limit: u32,
    /// Per node: the edge of a move walk rooted there that records its
    /// moves at once (its only edge, an any-assignment into a move's end,
    /// in a lean untagged walk: `walk/run.rs`, `root_tails`), or
    /// [`NO_EDGE`]. Decided here, once, not per enumeration.
    pub root_tails: Vec<u32>,
    /// Per node: how a walk rooted there starts (`walk/root.rs`,
    /// `root_starts`): the edge it follows without a frame, a fan its
    /// move walks resolve without one (`FAN_ROOT` and where its edges
    /// start in `fans`), or [`NO_EDGE`] (its frame pushed).
    pub root_starts: Vec<u32>,
    /// Per node: whether a keeper's walk from it has no choice and is
    /// applied in place (`walk/straight.rs`).
    pub straight: Vec<bool>,
    /// The fans' edges, each fan's in its node's order (`walk/root.rs`).
    pub fans: Vec<crate::walk::Landing>,
    /// The rays into a move's end recorded at once (`rays.rs`).
    pub rays: crate::rays::Rays,
    /// Entries of a check's dense visited set (`NodeInfo::dense`).
    pub dense_size: u32,
    /// Stamps of the local visited checks (`local.rs`).
    pub local_size: u32,
    /// Per node with a local visited check, its frame node p (`local.rs`);
    /// [`NO_NODE`] for the others.
    pub local_frames: Vec<u32>,
    /// Slots kept in the key at `@repeat` nodes.
    pub repeat_slots: Vec<Vec<u32>>,
    /// Key index tables.
    pub keys: KeyTables,
    /// The constants.
    pub consts: Vec<u16>,
    /// The initial semistate.
    pub initial: Vec<u16>,
    /// Slots of the user's variables (the key): `0 .. user_slots`.
    pub user_slots: usize,
    /// Random multipliers of the key hash, per slot (0 outside the key).
    pub hash_mul: Vec<u64>,
    /// The `player` slot.
    pub player_slot: u32,
    /// Per player: the slot of its `goals` entry.
    pub goal_slots: Vec<u32>,
    /// Per player: the slot of its `visible` entry, when `visible` can change.
    pub visible_slots: Option<Vec<u32>>,
    /// The symbol that means visible (`1`).
    pub visible_one: u16,
}
