//! The RG automaton of a translation: one node per Glushkov state, the
//! leaves' labels on the edges between them.
//!
//! - A transition into state `t` performs leaf `t`: a chain of labels whose
//!   intermediate nodes belong to `t`, so transitions from different states
//!   meet after their first edge (walks with equal tags and variables merge
//!   there, which keeps the RG count of moves equal to RBG's).
//! - Shifts leave `coord` = `null` instead of failing; a test of the piece
//!   there fails anyway, and before anything else that could let the walk
//!   go on, `coord != null` is tested (node `C` of the state).
//! - A player's move ends by switching to the keeper, whose move checks in a
//!   copy of the rules (no tags, switches lead to one accepting node) that
//!   the next player has a move, and switches to that player or ends the
//!   game (RBG: a player without a move ends the game). Where the next
//!   player surely has a move (only always-legal actions up to a switch),
//!   the move switches directly.
//!
//!   The copy ends its check (into its accepting node) at the first state
//!   from which a move surely completes (`sure`, `coord` a vertex there),
//!   not at the next switch: the interpreter's mirror proofs (`rg-engine`
//!   `mirror.rs`) take the rest of the move walk (assignments, tags, a
//!   `player` assignment) as certain, so its lazy roots and speculated
//!   checks stay. Callgrind instructions per playout against the full copy:
//!   native connect4 -16.5%, reversi -5.9%, englishDraughts -6.8%; interp
//!   reversi -12.9%, englishDraughts -1.9%; the other games within 1.2%.
//!   (Before the proofs took assignments, interp connect4 was +16%, hex
//!   +23%.) Tried and dropped: the copy's tests into such states leading
//!   straight into the accepting node (no node, no `coord` move, no skip
//!   edge after them): interp breakthrough +5.3%, englishDraughts +3.4%;
//!   native -0.46%, -0.37%; ticTacToe, connect4, hex within 0.03%.
//! - A pattern that is one comparison from its start into its accepting
//!   node (connect4's `{! down {e}}`: `board[go[coord]] == e`) is no
//!   check: its leaf is the comparison in place, negated for `{! p}`
//!   (both sides are defined on `null`, as the check reads them).
//!   Callgrind instructions per playout (seed 1) on translated connect4:
//!   interp -15.0%, native -7.0%; the other 7 translations unchanged.
//! - The keeper's alternatives that are tests changing nothing with equal
//!   continuations (hex's `({! a} + {! b})`) end in equal states: RBG's
//!   keeper takes the first that completes, the RG walk every one. The
//!   later one is walked only after the earlier one's negation
//!   (`Emitter::unless_earlier`), so hex's second flood fill runs only
//!   where the first one holds: interp -14.8%, native -6.4%; the other 7
//!   translations unchanged. (In a player's move the walks would be
//!   found in another order: the moves' order, hence same-seed playouts,
//!   would change.)
//!
//!   Tried and dropped on translated ticTacToe's keeper (callgrind,
//!   seed 1, by hand): its `{? W}`/`{! W}` choice as an if-then-else (a
//!   `@disjoint` node: `? W`, then a no-op): interp +1.8%, native +79%;
//!   its two `{! W}` alternatives as one node (a choice where there were
//!   two chains of single edges; the engines memoise a check per
//!   semistate version anyway): interp +1.8%, native +1.0%; the first
//!   keeper move's "the first player has a move" check left out (it holds
//!   at the start): interp 0.0%, native -0.6%.

use rg_lang::ast::{Edge, Expr, Label, Name};

use crate::board::{shape, Shape};
use crate::decls::{assign, cmp, Decls, Step};
use crate::ranges::{Ranges, Span};
use crate::regex::{Leaf, Lowered, Nfa};
use crate::TranslateError;

/// Contexts of a state: executed while the keeper / a player is on move.
pub(crate) const KEEPER: u8 = 1;
const PLAYER: u8 = 2;

#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    Main,
    Copy,
    Pattern,
}

/// Builds the edges.
pub struct Emitter<'a> {
    /// The declarations (extended on demand).
    pub d: Decls,
    pub(crate) low: &'a Lowered,
    /// The edges in order.
    pub edges: Vec<Edge>,
    /// Nodes whose visited key may be (node, tags, coord).
    pub repeat_ok: Vec<String>,
    /// Per pattern: its start node and accepting node.
    patterns: Vec<(String, String)>,
    /// Per pattern: its one comparison, when its automaton is a single
    /// comparison from its start into its accepting node (the check is
    /// then that comparison, or its negation, in place).
    inline: Vec<Option<Label>>,
    /// The copy's accepting node.
    pub(crate) copy_accept: String,
    /// `@disjoint` nodes and their edges' targets.
    pub disjoint: Vec<(String, Vec<Name>)>,
    pub(crate) created: std::collections::HashSet<String>,
    /// The automaton being emitted: its fused shift states' walks
    /// (`fuse.rs`) and its nodes' prefix.
    pub(crate) fuse: (crate::fuse::Fusion, String),
    /// The tracked piece every state's search jumps to (`royal.rs`).
    jumps: crate::royal::Jumps,
    /// Per state of the rules: whether its walks take at most one of its
    /// transitions (`single.rs`).
    pub(crate) single: Vec<bool>,
    /// Per piece: whether an expression reads its count (`counts.rs`).
    read_counts: Vec<bool>,
    /// The automaton being emitted: per state, whether a modifier into it
    /// keeps the replaced and the put piece's counts (`counts.rs`).
    kept_counts: Vec<(bool, bool)>,
}

fn skip() -> Label {
    Label::Skip
}

impl<'a> Emitter<'a> {
    /// An emitter for the lowered rules.
    pub fn new(d: Decls, low: &'a Lowered, jumps: crate::royal::Jumps) -> Emitter<'a> {
        Emitter {
            low,
            edges: Vec::new(),
            repeat_ok: Vec::new(),
            patterns: Vec::new(),
            inline: Vec::new(),
            copy_accept: "cacc".to_string(),
            disjoint: Vec::new(),
            created: Default::default(),
            fuse: Default::default(),
            read_counts: crate::counts::read_counts(low, d.pieces.len()),
            kept_counts: Vec::new(),
            d,
            jumps,
            single: Vec::new(),
        }
    }

    pub(crate) fn edge(&mut self, from: &str, to: &str, label: Label) {
        self.edges.push(Edge {
            from: Name::new(from),
            to: Name::new(to),
            label,
            loc: Default::default(),
        });
    }

    /// Emits every pattern, the rules and the copy for the checks.
    pub fn run(&mut self) -> Result<(), TranslateError> {
        for k in 0..self.low.patterns.len() {
            let nfa = &self.low.patterns[k];
            let prefix = format!("p{k}n");
            let modifies = nfa
                .leaves
                .iter()
                .any(|l| matches!(l, Leaf::Off(..) | Leaf::Assign(..)));
            let first = self.edges.len();
            self.kept_counts = crate::counts::kept(nfa, &self.read_counts, true);
            let accept = self.pattern(nfa, &prefix)?;
            let start = format!("{prefix}0");
            self.inline
                .push(single_comparison(&self.edges[first..], &start, &accept));
            self.patterns.push((start, accept));
            if !modifies {
                // Only `coord` changes in the check.
                let nodes: Vec<String> = self
                    .created
                    .iter()
                    .filter(|n| n.starts_with(&prefix))
                    .cloned()
                    .collect();
                self.repeat_ok.extend(nodes);
            }
        }
        let nfa = &self.low.rules;
        let jumps: Vec<bool> = (0..nfa.states() as u32)
            .map(|t| self.jump_to(nfa, t).is_some())
            .collect();
        let info = Info::new(self.low, &self.d, &jumps);
        self.single = crate::single::single_states(
            nfa,
            &self.low.patterns,
            &self.low.relations,
            &info.commit,
            &info.ctx,
            self.d.vertices.len(),
        );
        self.automaton(nfa, "m", Mode::Main, Some(&info))?;
        // Main nodes whose key may be (node, tags, coord).
        for name in &self.created {
            let Some(rest) = name.strip_prefix('m') else {
                continue;
            };
            let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
            let Ok(s) = rest[..digits].parse::<usize>() else {
                continue;
            };
            let ok = match &rest[digits..] {
                "" | "c" => info.tagged_since_start[s],
                tail if tail.starts_with('_') || tail.starts_with("k_") => info.tagged_within[s],
                _ => false,
            };
            if ok {
                self.repeat_ok.push(name.clone());
            }
        }
        // The start: the keeper's first move, if it has one.
        if info.sure[0] {
            self.edge("begin", "m0", skip());
        } else {
            self.check_branches("begin", 0, Some("m0"), None);
        }
        if info.checked.iter().chain(&info.commit).any(|&c| c) {
            self.automaton(nfa, "c", Mode::Copy, Some(&info))?;
        }
        Ok(())
    }

    /// The check that a move exists from main state `s`, and its negation
    /// ending the game: from `src`, `?` continues to `then` (directly, or by
    /// switching to `player` through an extra node), `!` ends the game.
    fn check_branches(&mut self, src: &str, s: u32, then: Option<&str>, player: Option<&str>) {
        let start = format!("c{s}");
        let accept = self.copy_accept.clone();
        let reach = |positive| Label::Reach {
            positive,
            from: Name::new(&start),
            to: Name::new(&accept),
        };
        let then = then.expect("a continuation");
        match player {
            Some(p) => {
                let y = format!("m{s}y");
                self.edge(src, &y, reach(true));
                if self.created.insert(y.clone()) {
                    self.edge(&y, then, assign(Expr::name("player"), Expr::name(p)));
                }
            }
            None => self.edge(src, then, reach(true)),
        }
        let z = format!("m{s}z");
        self.edge(src, &z, reach(false));
        if self.created.insert(z.clone()) {
            self.edge(
                &z,
                "end",
                assign(Expr::name("player"), Expr::name("keeper")),
            );
        }
    }

    /// Emits an automaton; returns its accepting node (patterns).
    fn automaton(
        &mut self,
        nfa: &Nfa,
        prefix: &str,
        mode: Mode,
        info: Option<&Info>,
    ) -> Result<String, TranslateError> {
        let node = |s: u32| format!("{prefix}{s}");
        self.kept_counts = crate::counts::kept(nfa, &self.read_counts, false);
        let maynull: Vec<bool> = (0..nfa.states() as u32)
            .map(|s| s > 0 && self.may_null(nfa.leaf(s)))
            .collect();
        // Copy states from which a move surely completes (`coord` a vertex
        // there): the check accepts on reaching them.
        let ends: Vec<bool> = match (mode, info) {
            (Mode::Copy, Some(info)) => (0..nfa.states())
                .map(|s| s > 0 && info.sure[s] && !maynull[s])
                .collect(),
            _ => vec![false; nfa.states()],
        };
        let reach = match mode {
            Mode::Copy => info.expect("main info").copy_states(nfa, &ends),
            _ => nfa.reachable(),
        };
        self.fuse = match (mode, info) {
            (Mode::Main | Mode::Copy, Some(info)) => {
                let fixed = info.fixed(nfa, mode, &ends);
                (
                    crate::fuse::fusions(nfa, &self.low.relations, &reach, &info.commit, &fixed),
                    prefix.to_string(),
                )
            }
            _ => Default::default(),
        };
        let fused =
            |f: &crate::fuse::Fusion, t: u32| f.walks.get(t as usize).is_some_and(Option::is_some);
        let puts = match (mode, info) {
            (Mode::Main, Some(info)) => self.puts(nfa, &reach, &maynull, info),
            _ => vec![None; nfa.states()],
        };
        let mut gone = vec![false; nfa.states()];
        for p in puts.iter().flatten() {
            for &t in p.tests.iter().chain(&p.puts[1..]) {
                gone[t as usize] = true;
            }
        }
        for s in 0..nfa.states() as u32 {
            if !reach[s as usize] || fused(&self.fuse.0, s) || gone[s as usize] {
                // (A fused shift state's walks are emitted by the
                // transitions into it.)
                continue;
            }
            self.created.insert(node(s));
            if mode == Mode::Copy
                && s > 0
                && matches!(nfa.leaf(s), Leaf::Switch(..))
                && !info.is_some_and(|i| i.checked[s as usize])
            {
                continue;
            }
            if ends[s as usize] {
                let acc = self.copy_accept.clone();
                self.edge(&node(s), &acc, skip());
                continue;
            }
            if let (Mode::Main, Some(info)) = (mode, info) {
                if info.commit[s as usize] {
                    self.commit(nfa, s, maynull[s as usize], info)?;
                    continue;
                }
            }
            if let Some(p) = &puts[s as usize] {
                self.put(&node(s), &node(p.puts[0]), &p.piece);
                continue;
            }
            let lazy = self.fuse.0.lazy.get(s as usize).copied().unwrap_or(false);
            for (i, &t) in nfa.next[s as usize].iter().enumerate() {
                if lazy && fused(&self.fuse.0, t) {
                    // (Taken from the lazy test's nodes, `fuse.rs`.)
                    continue;
                }
                let src = self.source(node(s), maynull[s as usize], nfa.leaf(t));
                let src = match info {
                    Some(info) if !maynull[s as usize] => {
                        self.unless_earlier(nfa, s, i, src, info)?
                    }
                    _ => src,
                };
                self.transition(nfa, &src, t, &node(t), mode, info)?;
            }
        }
        let accept = format!("{prefix}acc");
        if mode == Mode::Copy {
            self.created.insert(accept.clone());
        }
        Ok(accept)
    }

    /// Per state of the rules, its keeper's choice of the piece to put by
    /// vertex (`put.rs`), where the emitter can make it one assignment.
    fn puts(
        &self,
        nfa: &Nfa,
        reach: &[bool],
        maynull: &[bool],
        info: &Info,
    ) -> Vec<Option<crate::put::Put>> {
        let mut preds: Vec<Vec<u32>> = vec![Vec::new(); nfa.states()];
        for s in (0..nfa.states() as u32).filter(|&s| reach[s as usize]) {
            for &t in &nfa.next[s as usize] {
                preds[t as usize].push(s);
            }
        }
        let tagged = |t: u32| info.ctx[t as usize] & PLAYER != 0;
        let plain = |p: &crate::put::Put| {
            self.d.counters.is_none()
                && p.tests.iter().chain(&p.puts).all(|&t| {
                    self.fuse
                        .0
                        .walks
                        .get(t as usize)
                        .is_none_or(Option::is_none)
                        && self.jumps.at(self.low, nfa, t).is_none()
                        && !info.commit[t as usize]
                })
                && p.puts.iter().all(|&u| match nfa.leaf(u) {
                    Leaf::Off(piece, _) => self.d.whereabouts[*piece as usize].is_none(),
                    _ => false,
                })
        };
        (0..nfa.states() as u32)
            .map(|s| {
                let ok = reach[s as usize] && !maynull[s as usize] && !info.commit[s as usize];
                ok.then(|| crate::put::put_at(nfa, &self.low.relations, &preds, &tagged, s))
                    .flatten()
                    .filter(plain)
            })
            .collect()
    }

    /// `board[coord] = put[coord]` from `src` to `to`: the piece `piece[v]`
    /// put on each vertex `v` (`put.rs`).
    fn put(&mut self, src: &str, to: &str, piece: &[u32]) {
        let values = piece
            .iter()
            .map(|&p| self.d.pieces[p as usize].clone())
            .collect();
        let (ty, null) = (self.d.square_ty.clone(), self.d.null.clone());
        let table = self.d.vertex_map("put", &ty, values, &null);
        let coord = || Expr::name(&self.d.coord);
        let label = assign(
            Expr::name(&self.d.board).at(coord()),
            Expr::name(&table).at(coord()),
        );
        self.edge(src, to, label);
    }

    /// The node from which the transition from state `s` into its `i`-th
    /// successor `t` goes on: `src`, or a node after the negations of the
    /// keeper's earlier alternatives that are equivalent to `t` (see
    /// [`Emitter::negation`]). The RBG keeper takes the first alternative
    /// that completes; the RG walk follows every one, and both walks would
    /// end in equal states, so the later one is walked only where the
    /// earlier fails (hex: the second flood fill of `{! a} + {! b}` runs
    /// only when the first pattern holds).
    fn unless_earlier(
        &mut self,
        nfa: &Nfa,
        s: u32,
        i: usize,
        src: String,
        info: &Info,
    ) -> Result<String, TranslateError> {
        let next = &nfa.next[s as usize];
        let t = next[i];
        let mut from = src;
        for (k, &u) in next[..i].iter().enumerate() {
            let same = alike(nfa, &info.ctx, u, t) && self.negation(nfa.leaf(t))?.is_some();
            if !same {
                continue;
            }
            let Some(label) = self.negation(nfa.leaf(u))? else {
                continue;
            };
            let to = format!("{from}u{i}x{k}");
            self.edge(&from, &to, label);
            self.created.insert(to.clone());
            from = to;
        }
        Ok(from)
    }

    /// The negation of a test that changes nothing (a pattern, a
    /// comparison of variables read by one label), as one label.
    fn negation(&mut self, leaf: &Leaf) -> Result<Option<Label>, TranslateError> {
        let steps = match leaf {
            Leaf::Pattern(..) | Leaf::Compare(..) => self.leaf_steps(leaf, None, None)?,
            _ => None,
        };
        Ok(match steps.as_deref() {
            Some([step]) => match step.as_slice() {
                [Label::Compare { left, right, equal }] => {
                    Some(cmp(left.clone(), right.clone(), !equal))
                }
                [Label::Reach { positive, from, to }] => Some(Label::Reach {
                    positive: !positive,
                    from: from.clone(),
                    to: to.clone(),
                }),
                _ => None,
            },
            _ => None,
        })
    }

    /// `n` after `coord != null` (created once).
    pub(crate) fn checked_node(&mut self, n: &str) -> String {
        let c = format!("{n}c");
        if self.created.insert(c.clone()) {
            let label = cmp(Expr::name(&self.d.coord), Expr::name(&self.d.null), false);
            self.edge(n, &c, label);
        }
        c
    }

    /// The node a transition into `leaf` leaves from: `at`, or `at` after
    /// `coord != null` where `coord` may be `null` there and `leaf` would
    /// not fail on it by itself.
    pub(crate) fn source(&mut self, at: String, may_be_null: bool, leaf: &Leaf) -> String {
        if may_be_null && !self.null_safe(leaf) {
            self.checked_node(&at)
        } else {
            at
        }
    }

    /// Whether `leaf` is a shift that may leave `coord` = `null`.
    pub(crate) fn may_null(&self, leaf: &Leaf) -> bool {
        may_null(&self.low.relations, leaf)
    }

    /// Whether `leaf` may start with `coord` = `null` (it then fails).
    pub(crate) fn null_safe(&self, leaf: &Leaf) -> bool {
        match leaf {
            Leaf::On(_) => true,
            Leaf::Move(r) => !matches!(
                shape(&self.low.relations[*r]),
                Shape::Uniform { starts: None, .. }
            ),
            _ => false,
        }
    }

    /// Emits the transition from node `src` into state `t` (node `to`).
    pub(crate) fn transition(
        &mut self,
        nfa: &Nfa,
        src: &str,
        t: u32,
        to: &str,
        mode: Mode,
        info: Option<&Info>,
    ) -> Result<(), TranslateError> {
        if let Some(Some(walks)) = self.fuse.0.walks.get(t as usize).cloned() {
            let prefix = self.fuse.1.clone();
            self.fused_shifts(nfa, src, &walks, &|u| format!("{prefix}{u}"));
            return Ok(());
        }
        let leaf = nfa.leaf(t);
        let tagged = mode == Mode::Main && info.is_some_and(|i| i.ctx[t as usize] & PLAYER != 0);
        let mut steps: Vec<Step> = Vec::new();
        if tagged && leaf.modifier() > 0 {
            steps.push(vec![Label::TagVariable(Name::new(&self.d.coord))]);
            steps.push(vec![Label::Tag(Name::new(format!(
                "index_{}",
                leaf.modifier()
            )))]);
        }
        if let Leaf::Switch(target, _) = leaf {
            let target = target.map(|p| self.d.players[p as usize].clone());
            if mode == Mode::Copy {
                let acc = self.copy_accept.clone();
                self.edge(src, &acc, skip());
                return Ok(());
            }
            let info = info.expect("main info");
            let sure = info.sure[t as usize];
            let player = |p: &str| vec![assign(Expr::name("player"), Expr::name(p))];
            if tagged || info.ctx[t as usize] & PLAYER != 0 {
                // The player's move ends here.
                if sure {
                    steps.push(player(target.as_deref().unwrap_or("keeper")));
                    return self.chain(src, to, steps);
                }
                steps.push(player("keeper"));
                let k = format!("{to}k");
                self.chain(src, &k, steps)?;
                if self.created.insert(k.clone()) {
                    self.check_branches(&k, t, Some(to), target.as_deref());
                }
                return Ok(());
            }
            // The keeper moves on.
            match (sure, target) {
                (true, Some(p)) => self.chain(src, to, vec![player(&p)]),
                (true, None) => self.chain(src, to, Vec::new()),
                (false, p) => {
                    self.check_branches(src, t, Some(to), p.as_deref());
                    Ok(())
                }
            }
        } else if let Some(w) = self.jump_to(nfa, t) {
            // Only the tracked piece's vertex passes the tests after it.
            steps.push(vec![assign(Expr::name(&self.d.coord), Expr::name(&w))]);
            self.chain(src, to, steps)
        } else {
            let spans = info.and_then(|i| i.ranges.before(t));
            match self.leaf_steps(leaf, spans, Some(t))? {
                None => Ok(()),
                Some(more) => {
                    steps.extend(more);
                    self.chain(src, to, steps)
                }
            }
        }
    }

    /// Emits `steps` from `src` to `to`, the intermediate nodes belonging to
    /// state `t` (their edges emitted once).
    pub(crate) fn chain(
        &mut self,
        src: &str,
        to: &str,
        steps: Vec<Step>,
    ) -> Result<(), TranslateError> {
        if steps.is_empty() {
            self.edge(src, to, skip());
            return Ok(());
        }
        let n = steps.len();
        let mut from = src.to_string();
        for (k, step) in steps.into_iter().enumerate() {
            let next = if k + 1 == n {
                to.to_string()
            } else {
                format!("{to}_{}", k + 1)
            };
            if k > 0 && !self.created.insert(from.clone()) {
                // The rest of the chain exists already.
                return Ok(());
            }
            for label in step {
                self.edge(&from, &next, label);
            }
            from = next;
        }
        Ok(())
    }

    /// The labels of a non-switch leaf (entering state `t` of the automaton
    /// being emitted, if known), the variables within `spans` (if known)
    /// before it; `None` when it never holds.
    fn leaf_steps(
        &mut self,
        leaf: &Leaf,
        spans: Option<&[Span]>,
        t: Option<u32>,
    ) -> Result<Option<Vec<Step>>, TranslateError> {
        let (cn, bn) = (self.d.coord.clone(), self.d.board.clone());
        let coord = || Expr::name(&cn);
        Ok(Some(match leaf {
            Leaf::Move(r) => self.move_steps(*r),
            Leaf::On(set) => vec![vec![self.on_label(set, coord())]],
            Leaf::Off(p, _) => {
                let at = || Expr::name(&bn).at(coord());
                let piece = Expr::name(&self.d.pieces[*p as usize]);
                let mut steps = Vec::new();
                if let Some(c) = self.d.counters.clone() {
                    let (down, up) = t
                        .and_then(|t| self.kept_counts.get(t as usize).copied())
                        .unwrap_or((true, true));
                    if down {
                        let dec = self.d.step_table(false);
                        let old = Expr::name(&c).at(at());
                        steps.push(vec![assign(old.clone(), Expr::name(&dec).at(old))]);
                    }
                    steps.push(vec![assign(at(), piece.clone())]);
                    if up {
                        let inc = self.d.step_table(true);
                        let new = Expr::name(&c).at(piece);
                        steps.push(vec![assign(new.clone(), Expr::name(&inc).at(new))]);
                    }
                } else {
                    steps.push(vec![assign(at(), piece)]);
                }
                if let Some(w) = &self.d.whereabouts[*p as usize] {
                    // Where the piece is now (`royal.rs`).
                    steps.push(vec![assign(Expr::name(w), coord())]);
                }
                steps
            }
            Leaf::Assign(v, e, _) => {
                let bound = self.d.bounds[*v as usize] as i64;
                let place = self.d.var_place(*v);
                match self.d.assign_steps(place, e, bound, spans)? {
                    Some(steps) => steps,
                    None => return Ok(None),
                }
            }
            Leaf::Compare(l, op, r) => match self.d.compare_steps(l, *op, r, spans)? {
                Some(steps) => steps,
                None => return Ok(None),
            },
            Leaf::Pattern(negated, k) if self.inline.get(*k).is_some_and(Option::is_some) => {
                let Some(Label::Compare { left, right, equal }) = self.inline[*k].clone() else {
                    unreachable!("an inlined pattern is a comparison")
                };
                vec![vec![cmp(left, right, equal != *negated)]]
            }
            Leaf::Pattern(negated, k) => {
                let (start, accept) = self.patterns[*k].clone();
                vec![vec![Label::Reach {
                    positive: !negated,
                    from: Name::new(start),
                    to: Name::new(accept),
                }]]
            }
            Leaf::Switch(..) => unreachable!("switches are handled by the caller"),
        }))
    }

    /// The variable holding the vertex a search at state `t` jumps to
    /// (`royal.rs`), if it jumps.
    pub(crate) fn jump_to(&self, nfa: &Nfa, t: u32) -> Option<String> {
        let p = self.jumps.at(self.low, nfa, t)?;
        self.d.whereabouts[p as usize].clone()
    }

    /// `coord` becomes any vertex of `targets` (a set type of them; `None`:
    /// every vertex).
    pub(crate) fn any_vertex(&mut self, targets: Option<&[bool]>) -> Label {
        let ty = match targets {
            Some(t) => self.d.vertex_set(t),
            None => self.d.coord_ty.clone(),
        };
        Label::AssignAny {
            target: Expr::name(&self.d.coord),
            ty: rg_lang::ast::Type::Ref(Name::new(&ty)),
        }
    }

    /// The labels moving `coord` by relation `r`.
    fn move_steps(&mut self, r: usize) -> Vec<Step> {
        let rel = &self.low.relations[r];
        let cn = self.d.coord.clone();
        let coord = || Expr::name(&cn);
        let one = || Expr::name("1");
        match shape(rel) {
            Shape::Identity | Shape::Never => unreachable!("not a leaf"),
            Shape::Filter(set) => {
                let f = self.d.vertex_test(&set);
                vec![vec![cmp(Expr::name(&f).at(coord()), one(), true)]]
            }
            Shape::Maps(maps) => {
                let step = maps
                    .iter()
                    .map(|m| {
                        let g = self.d.vertex_move(m);
                        assign(coord(), Expr::name(&g).at(coord()))
                    })
                    .collect();
                vec![step]
            }
            Shape::Uniform { starts, targets } => {
                let mut steps = Vec::new();
                if let Some(s) = starts {
                    let f = self.d.vertex_test(&s);
                    steps.push(vec![cmp(Expr::name(&f).at(coord()), one(), true)]);
                }
                steps.push(vec![self.any_vertex(targets.as_deref())]);
                steps
            }
            Shape::Blocks(_) | Shape::Structural => unreachable!("split when lowered"),
        }
    }
}

/// The label of `edges`' one edge when it is a comparison from `start`
/// into `accept` and no edge enters `start` (a pattern that is one test;
/// its negation is the opposite comparison: both sides are defined on
/// every value, `null` included, as the check reads them).
fn single_comparison(edges: &[Edge], start: &str, accept: &str) -> Option<Label> {
    match edges {
        [e] if e.from.text == start
            && e.to.text == accept
            && matches!(e.label, Label::Compare { .. }) =>
        {
            Some(e.label.clone())
        }
        _ => None,
    }
}

/// Whether the keeper's alternatives into states `u` and `t` end in equal
/// states (see [`Emitter::unless_earlier`]): both keeper-only, with the
/// same successors and finality.
pub(crate) fn alike(nfa: &Nfa, ctx: &[u8], u: u32, t: u32) -> bool {
    ctx[u as usize] == KEEPER
        && ctx[t as usize] == KEEPER
        && nfa.next[u as usize] == nfa.next[t as usize]
        && nfa.finals[u as usize] == nfa.finals[t as usize]
}

/// Whether `leaf` is a shift (by one of `relations`) that may leave
/// `coord` = `null`.
pub(crate) fn may_null(relations: &[crate::board::Relation], leaf: &Leaf) -> bool {
    matches!(leaf, Leaf::Move(r) if matches!(shape(&relations[*r]), Shape::Maps(_)))
}

/// What the main automaton's emission needs to know about its states.
pub(crate) struct Info {
    /// Per state: the contexts its leaf runs in.
    pub(crate) ctx: Vec<u8>,
    /// Per state: a move surely exists from it (always-legal actions up to
    /// a switch).
    sure: Vec<bool>,
    /// Per state: a move start whose move must be checked.
    checked: Vec<bool>,
    /// Per state: the keeper's choice leaving it is committed (see
    /// [`Emitter::commit`]).
    pub(crate) commit: Vec<bool>,
    /// Per state: every modifier since the walk's start emitted tags, so
    /// (tags, `coord`) determine the variables at its node.
    tagged_since_start: Vec<bool>,
    /// Per state: the same for the intermediate nodes of its leaf.
    tagged_within: Vec<bool>,
    /// The variables' values at each state.
    ranges: Ranges,
}

impl Info {
    /// `jumps`: per state, its search jumps to a tracked piece's vertex.
    fn new(low: &Lowered, d: &Decls, jumps: &[bool]) -> Info {
        let nfa = &low.rules;
        let n = nfa.states();
        let is_switch = |s: u32| s > 0 && matches!(nfa.leaf(s), Leaf::Switch(..));
        // Contexts, propagated to a fixpoint.
        let mut ctx = vec![0u8; n];
        ctx[0] = KEEPER;
        let mut work = vec![0u32];
        while let Some(s) = work.pop() {
            let out = match (s > 0).then(|| nfa.leaf(s)) {
                Some(Leaf::Switch(Some(_), _)) => PLAYER,
                Some(Leaf::Switch(None, _)) => KEEPER,
                _ => ctx[s as usize],
            };
            for &t in &nfa.next[s as usize] {
                if ctx[t as usize] | out != ctx[t as usize] {
                    ctx[t as usize] |= out;
                    work.push(t);
                }
            }
        }
        let maynull: Vec<bool> = (0..n as u32)
            .map(|s| s > 0 && may_null(&low.relations, nfa.leaf(s)))
            .collect();
        let ranges = Ranges::new(nfa, &d.bounds, d.vertices.len() as u64);
        let sure = crate::sure::sure_states(low, d, &maynull, &ranges);
        let reach = nfa.reachable();
        let checked = (0..n as u32)
            .map(|s| reach[s as usize] && (s == 0 || is_switch(s)) && !sure[s as usize])
            .collect();
        // Where a walk restarts (a `player` assignment), and modifiers that
        // emit no tags.
        let restarts = |t: u32| match nfa.leaf(t) {
            Leaf::Switch(target, _) => ctx[t as usize] & PLAYER != 0 || target.is_some(),
            _ => false,
        };
        let untagged = |t: u32| {
            matches!(nfa.leaf(t), Leaf::Off(..) | Leaf::Assign(..)) && ctx[t as usize] & PLAYER == 0
        };
        let mut preds: Vec<Vec<u32>> = vec![Vec::new(); n];
        for s in 0..n as u32 {
            if reach[s as usize] {
                for &t in &nfa.next[s as usize] {
                    preds[t as usize].push(s);
                }
            }
        }
        let mut post = vec![true; n];
        let mut pre = vec![true; n];
        loop {
            let mut changed = false;
            for t in 1..n as u32 {
                let p = preds[t as usize].iter().all(|&s| post[s as usize]);
                let q = restarts(t) || (!untagged(t) && p);
                changed |= p != pre[t as usize] || q != post[t as usize];
                pre[t as usize] = p;
                post[t as usize] = q;
            }
            if !changed {
                break;
            }
        }
        let within = (0..n as u32)
            .map(|t| t > 0 && pre[t as usize] && !untagged(t))
            .collect();
        let commit = crate::keeper::commits(nfa, &ctx, &reach, &low.relations, jumps);
        Info {
            ctx,
            sure,
            checked,
            commit,
            tagged_since_start: post,
            tagged_within: within,
            ranges,
        }
    }

    /// The states of `nfa` emitted in `mode` whose node is entered from
    /// outside the automaton or emitted in its own way (`ends`: the
    /// copy's accepting states).
    fn fixed(&self, nfa: &Nfa, mode: Mode, ends: &[bool]) -> Vec<bool> {
        let mut fixed = match mode {
            Mode::Copy => (0..nfa.states())
                .map(|s| ends[s] || self.checked[s])
                .collect(),
            _ => self.commit.clone(),
        };
        for s in (0..nfa.states()).filter(|&s| self.commit[s]) {
            for &t in &nfa.next[s] {
                fixed[t as usize] = true;
            }
        }
        fixed
    }

    /// The main states the copy needs: those reachable from a checked move
    /// start without passing a switch or leaving a state of `ends`.
    fn copy_states(&self, nfa: &Nfa, ends: &[bool]) -> Vec<bool> {
        let mut seen = vec![false; nfa.states()];
        let mut stack: Vec<u32> = (0..nfa.states() as u32)
            .filter(|&s| self.checked[s as usize])
            .collect();
        // A committed choice checks each alternative from its target on.
        for s in 0..nfa.states() {
            if self.commit[s] {
                stack.extend(&nfa.next[s]);
            }
        }
        for &s in &stack {
            seen[s as usize] = true;
        }
        while let Some(s) = stack.pop() {
            if ends[s as usize] {
                continue;
            }
            for &t in &nfa.next[s as usize] {
                // A switch ends the checked move: its transition leads to
                // the accepting node.
                if matches!(nfa.leaf(t), Leaf::Switch(..)) {
                    continue;
                }
                if !std::mem::replace(&mut seen[t as usize], true) {
                    stack.push(t);
                }
            }
        }
        seen
    }
}
