//! The native engine for Regular Games: machine code for each game's move
//! walks at load time.
//!
//! [`compile`] turns a [`GameModel`]'s lowered tables into machine code
//! with Cranelift (`gen.rs`) and returns the same game played by that code.
//! States, moves and move order are the interpreter's; the two engines are
//! interchangeable. Games the generator does not take (see [`compile`]) are
//! reported with the reason, so callers can keep the interpreter.
//!
//! ```no_run
//! let text = std::fs::read_to_string("tictactoe.rg").unwrap();
//! let game = rg_engine::GameModel::from_text(&text).unwrap();
//! let native = rg_jit::compile(&game).unwrap();
//! let mut r = native.reasoner();
//! let mut s = native.initial_state();
//! let mut moves = rg_engine::MoveList::default();
//! r.moves(&mut s, &mut moves).unwrap();
//! ```
//!
//! # Performance notes
//!
//! - Generation (CPU time, `cargo run --release -p rg-jit --example
//!   coverage -- FILES`): the RG examples 1.4-3.7 ms, `games/hrg/` 2-10 ms,
//!   englishDraughts.hrg (404 edges) 23 ms, reversi.hrg (500) 38 ms;
//!   chess.hrg (7,923 edges, 5,034 walked, 14 functions) ~1.5 s, about half
//!   of it its 318 leaf programs and one writing program; its walk as one
//!   function ~1 s (Cranelift's register allocation grows faster than a
//!   function). Split games are generated without Cranelift's optimiser (a
//!   quarter of the time). With [`PART_EDGES`] 10,000 (was 500)
//!   englishDraughts.hrg (3,960 edges) and chess.hrg (9,187) are one
//!   function each: generation 125 -> 255 ms and 1.9 -> 3.2-3.5 s (the
//!   optimiser on; without it chess's ran 1.12x, not 1.37x, the split
//!   walk with the optimiser 1.24x), playouts per CPU second 1.17x
//!   (draughts, callgrind -15.5% instructions) and 1.26-1.37x (chess).
//! - Instructions of the playout loop (callgrind): direct resumes,
//!   known-path undo and inline records took breakthrough.hrg from 955K to
//!   751K per playout, ticTacToe.hrg 24.2K to 21.8K, connect4.hrg 88K to
//!   80K; leaf programs a further -4.4% (connect4.hrg), -2.0% (ticTacToe.hrg).
//! - Native against the interpreter (alternated `rbg --engine interp|native
//!   bench`, 2 s x 5 rounds): 1.0-1.7x on every RG example and `games/hrg/`
//!   game, fewer instructions per playout on all (callgrind); the CLI's
//!   default for RG games of at most 5,000 edges (chess.hrg, 9,187 edges,
//!   stays interpreted unless chosen: its generation takes seconds).
//! - Writing programs (`gen/program.rs`: checks that write, visit, choose
//!   and nest leaf checks) took callgrind's playout loop of chess.hrg from
//!   143M to 127M instructions (3 playouts), englishDraughts.hrg 184M to
//!   136M (200), reversi.hrg 224M to 197M (100). chess.hrg needs every leaf
//!   program generated (77K instructions; generation ~1.5 s): 143 to 176
//!   playouts per CPU second.
//! - One-slot checks as code (`gen/slot.rs`): callgrind's playout loop of
//!   hex.hrg 238M to 184M instructions (100 playouts), reversi.hrg 181M to
//!   143M (100).
//! - chess.hrg is all native code (no interpreted check); after its
//!   description's one-line legality test, 39K instructions per state
//!   against chess.rbg's 32K on rbg-jit (callgrind, 5 playouts); both play
//!   ~410 states per random playout (1,500 playouts, seeds 3 and 4).
//! - The workspace in the pinned register, filter loops and no second
//!   comparison after a passing symbol: hex.hrg -9.4%, breakthrough.hrg
//!   -8.2%, ticTacToe.hrg -4.8%, reversi.hrg -4.4% instructions per playout.
//! - Pops onto a known frame below (`gen::parts::parents`: a node whose frames
//!   are all pushed on one known chain undoes it and resumes the frame
//!   below directly), the record's copy unrolled where the log's length is
//!   known (`gen::parts::log_lengths`) with one capacity test, and the key hash
//!   and version kept only in the walks that read them (`gen::parts::keep`):
//!   breakthrough.hrg 647.7K -> 536.0K instructions per playout, hex.hrg
//!   1,580K -> 1,355K, connect4.hrg 69.9K -> 63.9K, ticTacToe.hrg 19.5K ->
//!   17.7K, englishDraughts.hrg -5.4%, chess.hrg -6.1%, reversi.hrg -0.5%
//!   (before the descriptions' own changes of the same session).
//! - Tags in playouts only counted where no visited check reads them
//!   (`Keep::tags`): breakthrough.hrg -2.0%, connect4.hrg -0.9%,
//!   ticTacToe.hrg -1.0%, englishDraughts.hrg -0.5%.
//! - Walks start from a key hash of 0 where no interpreted check (which
//!   memoises by the hash across walks) reads it, not from the
//!   semistate's: breakthrough.hrg -3.7%, hex.hrg -4.2%,
//!   englishDraughts.hrg -3.2%, chess.hrg -3.2%, reversi.hrg -2.1%.
//! - Visited checks of a key of one slot and no tags (the interpreter's
//!   dense keys of move walks) as stamps inline (`Gen::visit`): ur.hrg
//!   -2.4%; the other `games/hrg/` games have no such key.
//! - Filter loops read the slot as the symbol (no store, reload and
//!   restore) where the comparison reads it only directly
//!   (`Gen::reads_directly`): hex.hrg -3.4%, breakthrough.hrg -2.2%,
//!   ticTacToe.hrg -1.5%, englishDraughts.hrg -1.2%, connect4.hrg -1.2%,
//!   reversi.hrg -0.9%.
//! - A node's frame over all its edges pushed by a block of its own that
//!   jumps to its resume block (`Gen::emit_push_at`), not by the shared
//!   push and its jump table: breakthrough.hrg -2.7%,
//!   englishDraughts.hrg -1.9%, ticTacToe.hrg -1.2%, connect4.hrg -0.8%,
//!   reversi.hrg -0.7%, hex.hrg -0.1%.
//! - A filtered any-assignment whose comparison reads its slot only
//!   directly tests its symbols 64 at a time into a mask in the frame
//!   (`gen/filter.rs`: the slot a constant, table reads folded, no branch
//!   per symbol; rbg-jit walks a piece's squares by bitboard), instead of
//!   a loop with a data-dependent branch per symbol: instructions per
//!   playout about equal (breakthrough.hrg -2.2%, hex.hrg +4.6%), time
//!   (alternated, 5 x 1 s, load ~7) ticTacToe.hrg 1.19x, hex.hrg 1.11x,
//!   englishDraughts.hrg 1.05x, breakthrough.hrg 1.04x. Callgrind's
//!   counts miss this: these games' time goes largely to mispredicted
//!   branches and load chains (`perf record -e cpu-clock` samples the
//!   generated code: `/tmp/perf-PID.map` names it).
//! - chess.hrg against chess.rbg on rbg-jit (callgrind with its cache
//!   and branch simulation, 5 playouts): about the same instructions per
//!   state (~35K), but 6.6x the first-level instruction cache misses
//!   (~2,000 per state: 5.4 MB of code, 316 leaf checks of ~9.5 KB each,
//!   one 1.3 MB writing program, walk functions without Cranelift's
//!   optimiser) and 30x the data cache misses; HRG / RBG native ~0.6 in
//!   time. Its ~20 visited checks per state (`rt::visit`, ~15% of its
//!   instructions) are keys of 21 or 153 slots, with tags at `play` and
//!   `promote`: no dense key.
//! - The Rust side of a walk per call (`rt::Walker::moves`): records
//!   handed to `Effects` by swapping buffers, visited sets emptied only
//!   when used, the root's visited check only where guarded:
//!   ticTacToe.hrg -10.9% instructions per playout (278 -> 225 per call),
//!   alternated 1.07x, connect4.hrg 1.13x, breakthrough.hrg 1.04x.
//! - Checks with the same program share one function (`plan::Plan::share`):
//!   chess.hrg's 355 legality checks one 6.9 KB function (was 2.4 MB),
//!   its two writing programs one; generation 4.1 -> 1.9 s; 1.35x.
//! - Records read the slots of known log entries as constants
//!   (`gen::parts::log_lengths`): breakthrough.hrg -2.0% instructions,
//!   1.05x. Tried and dropped: the semistate copied into the workspace's
//!   allocation, addressed from the pinned register (one load less per
//!   block): breakthrough.hrg -2.6% instructions but 0.97-0.99x in time
//!   (alternated 10 x 2 s).
//! - The filter masks' loads were all made before their comparisons
//!   (Cranelift's e-graph places the pure `bor` tree at its use), spilled:
//!   the mask is stored every 8 symbols (`gen/filter.rs`), which places
//!   it there: breakthrough.hrg's walk 327 -> 111 stack accesses, -1.5%
//!   instructions; alternated 8 x 2 s hex.hrg 1.06, breakthrough.hrg and
//!   englishDraughts.hrg 1.00.
//! - Playouts skip tag counting (and its restore on backtracks) where no
//!   visited check reads tags and every move walk pushes at most 64
//!   (`rg_engine::raw::few_tags`): breakthrough.hrg -8.3% instructions, hex.hrg
//!   -9.0%, ticTacToe.hrg -4.4%, connect4.hrg -4.0%; alternated 1.06,
//!   1.09, 1.07, 1.02. Tried and not landed: arm masks (a choice's arm
//!   comparisons tested at the push into a frame mask, resumes taking the
//!   next bit by `ctz` and a jump table): breakthrough.hrg -2.5%
//!   instructions but 1.02-1.04 in time, chess.hrg -0.9% but 0.98,
//!   englishDraughts.hrg +0.4%; masks on if-else pairs only cost.
//! - Deferred last writes (`gen/tail.rs`): in playouts an assignment to a
//!   constant slot followed only by tags and `player = v` (`to = left[from]
//!   $$ to player = keeper`, `sq = Square(*)` past its filter `$$ sq
//!   player = keeper`) goes straight into the record, with no log entry,
//!   write, undo or tag bookkeeping: instructions per playout
//!   breakthrough.hrg -14.6%, hex.hrg -25.8%, ticTacToe.hrg -11.5%,
//!   connect4.hrg -11.1%, others unchanged; alternated (6 x 1 s)
//!   breakthrough 1.23, hex 1.27, ticTacToe 1.16, connect4 1.15. Tried
//!   and dropped: an any-assignment's symbol computed (`first + i`) where
//!   its range's symbols are consecutive, not read from `any_syms`: the
//!   e-graph sinks the sum to the write, after the log push, and spills
//!   the chunk it reads: instructions +0.6% (breakthrough.hrg), +1.0%
//!   (hex.hrg); alternated (8 x 1 s) 1.01 and 0.97. Also dropped: the top
//!   frame's address kept in the workspace (stored at each push and pop)
//!   instead of computed from the frames' count at each backtrack:
//!   instructions breakthrough.hrg -2.8%, hex.hrg -4.1%, englishDraughts.hrg
//!   -2.3%, ticTacToe.hrg and connect4.hrg -1.4%, reversi.hrg -0.7%; but
//!   alternated (8-12 x 1 s) breakthrough 1.02-1.09, englishDraughts 1.04,
//!   hex 0.99-1.01, ticTacToe 0.98 twice.
//! - Checks of translated RBG games as code (`scripts/translation-table.py`'s
//!   games had 2-7 interpreted checks each, 19-56% of native time):
//!   writing programs nesting writing programs (`plan.rs` rounds) and
//!   writing searches (`gen/search.rs`: cyclic checks with writes and
//!   visited checks, e.g. reversi's flips, draughts' capture chains).
//!   Callgrind instructions per playout connect4 -28%, reversi -30%,
//!   englishDraughts -34%, chess -4.8%; amazons' searches (4%) as fast as
//!   the interpreter's.
//!   Writing programs of one written slot keep it in a register
//!   (`gen/program.rs` shadowed): connect4 -24.5%, englishDraughts -31.2%,
//!   ticTacToe -22.1%; 1.57, 1.43, 1.71 alternated. Tried, not landed: the
//!   same for one-slot searches (`gen/slot.rs`: the pair's symbol as the
//!   slot's value, no store at each pop): instructions chess -6.3%,
//!   reversi -4.6%, hex -4.8%, but alternated chess 0.95-0.96 (three runs,
//!   1-2 s rounds), reversi 1.02-1.18, hex 0.97-1.13.
//! - One-slot searches expand a pair where it is reached (`gen/slot.rs`:
//!   inline for nodes of few edges, a direct jump where it is the last
//!   thing an expansion does; only the others pushed and popped through
//!   the jump table) and stamp only pairs whose node has more than one
//!   edge in (order is free: they cannot fail): callgrind instructions
//!   per playout chess -56.6%, reversi -29.6%, hex -17.3% (translations),
//!   hex.hrg -9.2%, reversi.hrg -4.9%; alternated (4 x 1 s) chess 1.73,
//!   reversi 1.38, hex 1.17, hex.hrg 1.20, reversi.hrg 1.09 (translated
//!   chess's check test finds the king by `coord = Coord(*)`: 64 pushes
//!   and pops a call before).
//! - Writing programs' and searches' visited checks of `Guard::Full`
//!   keys in generated code (`gen/visit.rs`: the key hash mixed with the
//!   node, a probe of the set's table (`rg_engine::raw::Seen`'s layout), the slots compared and copied in
//!   8-byte chunks; Rust for other keys, growth and errors) instead of
//!   four calls down to `Seen::insert` (~250 instructions a key):
//!   callgrind instructions per playout reversi -15.3%, connect4 -13.9%,
//!   englishDraughts -2.1%, chess -2.0% (translations), reversi.hrg -4.9%;
//!   alternated (3 x 1 s) reversi 1.06, connect4 1.09, reversi.hrg 1.04.
//!   Tried and dropped: the move walks' visited checks of untagged
//!   `Guard::Full` nodes probed inline the same way in the walk's set
//!   (`rt::visit` is 27% of translated reversi's instructions; its keys
//!   are 71 slots, 629 nodes guarded): instructions reversi -14.5%,
//!   englishDraughts -2.1%, others unchanged, but code generation
//!   0.6-0.8 -> 1.6-2.0 s (reversi) and alternated (2 s rounds, load 7)
//!   0.96-0.99; with keys past 4 words compared and copied in a loop,
//!   generation +28%, instructions -1.2%, 0.85. Next: one generated probe
//!   function per key shape, called from every such edge (small code, no
//!   Rust).
//! - Writing searches through nodes with local visited checks
//!   (rg-engine's `local.rs` stamps), checked in the search's set as the
//!   others (`gen/search.rs`): translated reversi's two has-a-move checks
//!   (32% of its instructions, interpreted) are code: callgrind
//!   instructions per playout reversi -25.5%, amazons -0.7%; alternated
//!   (6 x 1 s) reversi 1.25.
//! - Computed reads of maps (`Fast::General`, e.g. reversi's
//!   `dec[counters[board[coord]]]`) as code where every key keeps the
//!   offset in bounds (`safe::native_read`), not a call to
//!   `rg_engine::raw::read`: reversi -4.9% instructions, alternated 1.03.
//!   Tried and dropped: the move walks' untagged `Guard::Full` keys probed
//!   by one generated function per key shape (`lo .. hi`) called from every
//!   such check: no gain, since the 8 translations' move walks check no
//!   such node in playouts (reversi's hot move-walk checks, 42% of its
//!   instructions, are 110 tagged one-slot `@repeat` keys, which need the
//!   tag sequence's number: `Prefixes`); a native tag-sequence number (the
//!   prefix table probed by generated code at each tag push) is next.
//! - Nodes only checks search (a translation's copies of the rules,
//!   searched by the checks' own functions) get no walk code
//!   (`gen::parts::frame_bases` frames only nodes move walks reach), and
//!   their visited checks no longer make every walk keep tags: walk IR
//!   chess 137K -> 41K, reversi 98K -> 31K, amazons 30K -> 17K;
//!   generation chess 1.12-1.17 -> 0.66-0.72 s, reversi 0.61-0.64 ->
//!   0.37-0.38 s; instructions amazons -3.3%, others equal.
//! - The record's copy of an unknown log and the backtrack's undo loop
//!   read the semistate's address once, before the loop (entered where
//!   there is an entry, `Gen::do_while`), not at each entry: amazons
//!   -8.9% instructions per playout, breakthrough -4.3%, chess -1.3%.
//! - Frames hold the key hash and version only where the walks through
//!   their node keep them (`Gen::emit_push_at`), and a backtrack restores
//!   them in a block per resume block that needs it (`Gen::restoring`),
//!   no longer for every frame where any walk keeps them: amazons -5.8%
//!   instructions, breakthrough -2.8%, englishDraughts -1.7%; connect4
//!   +0.4%, reversi and chess +0.2% (a jump more where a node keeps them).
//! - A frame is popped before its last edge (its first) is taken, where
//!   its node is on no cycle, is not `@disjoint` and that edge is no
//!   any-assignment (`gen::parts::early_pops`; the root's pop undoes the
//!   log at the walk's end): what follows the edge backtracks onto the
//!   frame below, directly where its node's parent chain is known
//!   (`gen::parts::frames`), no longer through a resume and a pop:
//!   instructions per playout (translations) englishDraughts -3.2%,
//!   ticTacToe -2.8%, connect4 -2.8%, reversi -1.6%, breakthrough -1.5%,
//!   chess -1.4%, hex -0.7%, amazons +0.1%; alternated (4 x 1 s) connect4
//!   1.05, chess 1.02, englishDraughts 1.02, ticTacToe 1.01. With nodes
//!   on cycles too (amazons' rays): amazons -7.1%, ticTacToe -4.3%,
//!   englishDraughts -3.8%, but an improper walk round a cycle then no
//!   longer pushes frames, and `MAX_FRAMES` no longer bounds it (a random
//!   game's walk did not end).
//! - Where translated amazons' time goes (callgrind per address, 4
//!   playouts, `RG_JIT_TRACE` and `RG_JIT_BIN` beside `--dump-instr=yes`):
//!   the records' copy loops 26% (~8.2 log entries per move, mostly
//!   repeated `coord` writes), the generic backtrack ~21% (1.75 per
//!   recorded move: the record edges' chains are unknown, as the 16 ray
//!   nodes join at the `$$ coord` tail, and a ray node's frame below is
//!   its own node's or the ray's first node's). Next: a short inline tail
//!   before a record generated per incoming chain; ray nodes on cycles
//!   popped early with a bound of their own; `coord` kept in frames
//!   instead of the log, recorded once (playouts only: move lists keep
//!   the interpreter's changes).
//! - The log's entries are known from where walks start (`begin` and
//!   where moves end: `gen::parts::starts`), no longer also from the nodes
//!   whose frames pop through the generic backtrack (amazons' second ray
//!   choice, entered from the 16 first-ray ends: the empty log assumed
//!   there made every log past it unknown); deferred last writes
//!   (`gen/tail.rs`) take logs with computed places (`board[coord] = e`:
//!   such an entry records the deferred value where its slot is the
//!   deferred one): amazons' records unrolled and its moves' last
//!   `coord` write deferred, so they backtrack onto a known frame.
//!   Callgrind instructions per playout amazons -41.0%, breakthrough
//!   -20.9%, connect4 -0.8%, ticTacToe -0.5%, the others within 0.1%;
//!   alternated (4 x 1 s) amazons 1.74, breakthrough 1.18.
//! - Choices between comparisons of one operand with constants
//!   (draughts' "a man or a king of mine here", `board[coord] ==
//!   blackMan`, `board[coord] == blackKing`) are decided by a byte table
//!   over the operand's value (`gen/filter.rs` `Gen::pass_by_table`: one
//!   load, not a comparison each and their `or`) in filter masks, filter
//!   loops and writing programs' skipped symbols: callgrind instructions
//!   per playout englishDraughts -4.5%, the others within 0.02%;
//!   alternated (8 x 1 s, load ~5) englishDraughts 1.09. Tried and
//!   dropped: tables for single comparisons too: hex -1.8%, ticTacToe
//!   -0.6%, breakthrough -0.5% instructions (masks only: breakthrough
//!   -1.2%), but hex alternated 0.94-0.97 (6 x 1 s, noisy: a load after
//!   the load of the value, where a comparison was).
//! - Any-assignments into a choice between comparisons (`Act::AnyTests`:
//!   draughts' and chess's `coord = Coord(*)` then "a man or a king of
//!   mine here") filtered as single comparisons are (`gen/filter.rs`
//!   `Gen::tests`: a symbol passes where one comparison holds; masks where
//!   they read the slot only directly), no longer each square written,
//!   logged, its frame pushed and its comparisons failed one by one:
//!   instructions per playout englishDraughts -25.3%, chess -19.6%,
//!   amazons +0.3%, the others equal; alternated (6 x 1 s, load ~6)
//!   englishDraughts 1.30, chess 1.05.
//!   Writing programs skip an any-assignment's symbols the same way
//!   (`gen/program.rs`: rg-engine's `program::any_filters`, the
//!   comparisons its subtree starts with, one of which must hold; the
//!   symbol read as the slot where they read it only directly, else
//!   written in place for them), before the symbol is written, logged
//!   and hashed: englishDraughts -5.3%, chess -6.0%, breakthrough -0.7%,
//!   amazons -0.6%, the others equal; alternated (6 x 1 s, load ~9)
//!   englishDraughts 1.10, chess 1.05. Tried and dropped: those symbols
//!   tested into a mask on entry (at most 64, table reads folded), taken
//!   by `clz`: breakthrough +4.5%, chess +3.2%, reversi +3.9%,
//!   englishDraughts -0.8% (these checks mostly stop at an early
//!   symbol, so the mask's whole cost is mostly wasted).
//! - Where translated englishDraughts' native time goes after that
//!   (callgrind per address, 20 playouts, 5.5K instructions per state):
//!   the walk 57% (per own piece ~100 instructions: `$$ coord` and `$`
//!   tags each with a capacity test, log pushes with one each, a frame
//!   push of six stores, the semistate's address reloaded from the
//!   workspace in every block; the generic backtrack 4.5%, 5.4 a state,
//!   at the record's unknown chain as in amazons), its four writing
//!   checks 20% (two of them shadowed loops over the 32 squares, ~14
//!   instructions a square: "can a piece of mine capture"), the Rust
//!   side of `moves` 8%, `rt::visit` 4%. Next: a record's chain made
//!   known (the backtrack), per-walk capacity tests instead of per push.
//! - `moves`' check that the semistate's values are symbols (before the
//!   code indexes tables by them) takes the maximum in lanes of eight with
//!   an overlapping last lane (`rt::walker::max_value`; a plain fold had
//!   lanes of 16, then of 4, then a scalar tail: ~80 instructions for
//!   draughts' 43 slots). Instructions per playout (callgrind, seed 1):
//!   englishDraughts -1.9%, ticTacToe -3.5%, connect4 -2.9%, breakthrough
//!   -1.8%, reversi -1.0%, hex -0.4%, chess -0.4%, amazons -0.5%. Not
//!   the key hash: draughts' walks start from 0 (its one check not among
//!   the functions is a probe, so `Code::hash_base` is false); a lazy
//!   base (summed at the first interpreted check, as the interpreter's
//!   `key_hash`) measured 0.0% there and was dropped.
//! - Loops over an any-assignment's symbols whose comparisons read the
//!   slot only directly (writing programs' skipped symbols, walk filter
//!   loops) read `board[x]`-like table reads of it from a table over the
//!   loop's index (`Gen::indexed`, word tables in the build's store: one
//!   load, not the symbol's and then the entry's; the symbol read only
//!   where it passes) and test the index at the loop's end (no jump back
//!   to a test at the top): draughts' "can a piece of mine capture" loop
//!   ~19 -> ~12 instructions a square. Instructions per playout
//!   (callgrind, seed 1): englishDraughts -4.5%, breakthrough -2.3%,
//!   reversi -0.7%, amazons -0.5%, chess -0.2%, the others equal;
//!   alternated (load ~6, noisy) englishDraughts 0.996 (8 x 1 s) and
//!   1.09 (10 x 2 s). Tried and dropped: an index's `uextend` of an I32
//!   load replaced by the load again as I64 (Cranelift moves the register
//!   for `uextend` after a 32- or 16-bit load): the optimiser keeps the
//!   dead I32 load (two loads); done since by rewriting the load in place
//!   (`Gen::widen`, below).
//! - Paths that meet at a node without a frame (translated connect4's
//!   keeper: six `down^k` edges of one choice join at `board[go[coord]]
//!   != e`) keep what they know where they pushed as much since their
//!   top frames (`gen::parts::Chain::meet`): a failing edge undoes those
//!   entries and resumes the top frame at its own block (`Frame::next`,
//!   `Gen::resume_top`: the backtrack without its undo loop, its tags
//!   restored only where some were pushed); the frame of a node only
//!   walks start at has none below (`NO_FRAME`: the walk ends).
//!   Callgrind instructions per playout (seed 1) connect4 44,292 ->
//!   43,252 (-2.3%), ticTacToe -0.9%, reversi -0.4%, breakthrough,
//!   englishDraughts -0.2%, hex -0.2%, amazons 0.0%, chess +0.4% (its
//!   walk's register allocation: +390K stack accesses over 6 playouts).
//!   Draughts' and chess's records still backtrack generically: their
//!   paths meet with different depths since the top frame (a choice's
//!   early-popped first edge runs on the frame below); next, the short
//!   runs before a record generated once per incoming chain.
//! - Indices widened by their loads (`Gen::widen`): a value read by an
//!   I32 load (`uload16` of a slot, `load` of a `fun` entry, `uload8`)
//!   and then used as an index (`fun_at`, `st_addr`, byte tables, reads'
//!   keys, dense stamps, hash multipliers) has its load made an I64 one in
//!   place, the I32 value its `ireduce` (no instruction), instead of a
//!   `uextend` (a 32-bit register move after every such load, 3.3% of
//!   draughts' walk). Callgrind instructions per playout (seed 1) chess
//!   16,688,656 -> 15,814,494 (-5.24%), amazons -4.69%, englishDraughts
//!   316,579 -> 304,036 (-3.96%), breakthrough -3.93%, reversi -3.82%,
//!   connect4 43,252 -> 42,309 (-2.18%), ticTacToe -1.11%, hex -0.12%.
//! - Short runs after a join generated once per incoming chain
//!   (`gen::parts::runs`: from an edge of a node without a frame that
//!   edges enter inline on chains that differ, so it knows none, the
//!   inline edges that follow up to a frame's push, a map assignment or
//!   the move's record, where one of them can backtrack; at most 8 edges,
//!   8 chains, `edges / 8 + 64` edges in all): each copy knows its chain
//!   and backtracks directly. Draughts' man moves (two `coord = go..`
//!   edges joining at `$$ coord`, then the record). Callgrind instructions
//!   per playout (seed 1, against the kept workspace below)
//!   englishDraughts 267,903 -> 260,188 (-2.88%), breakthrough +0.42%,
//!   amazons +0.19%, ticTacToe +0.14%, hex -0.11%, reversi -0.10%, the
//!   others within 0.01%. First landed as 1932488 and reverted: a jump
//!   back to the run's first edge (a cycle through the run, or an edge's
//!   loop onto itself: a keeper's `m5`/`m6` cycle) went to the copy, whose
//!   chain is only its entries', so a failing visited check there undid
//!   too little (`random_games::a_keepers_self_loop_applies_as_the_interpreter`);
//!   now only the run's later edges, entered by the edge before them
//!   alone, jump to copies (`Gen::emit_run`).
//! - The workspace read from the pinned register once per block costs a
//!   register copy each time (`mov %r15, ..`: 10.6% of draughts' walk
//!   instructions, 8.7% of connect4's). Blocks a single cold exit
//!   splits off (the `@unique` step bound, the tag bound, a place's key
//!   test) go on with the values read before (`Gen::kept`,
//!   `Gen::enter_keeping`), and after a capacity test (`Gen::grow_if`)
//!   they are the next block's parameters, read afresh after the cold
//!   call (kept across it, they were spilled: draughts' walk 80K -> 245K
//!   stack accesses, connect4 +0.2% instructions). Callgrind
//!   instructions per playout (seed 1, against 8d664bf) amazons
//!   3,709,337 -> 3,634,849 (-2.01%), breakthrough -1.49%,
//!   englishDraughts 271,956 -> 267,903 (-1.49%), hex -1.20%, ticTacToe
//!   -0.98%, connect4 42,140 -> 41,830 (-0.74%), reversi -0.41%, chess
//!   -0.35%. Next: the other joins (edge blocks entered from several
//!   places read it afresh).
//! - `moves`' own cost per call (`rt::Walker::moves`: ~215 instructions
//!   beside the generated code's on connect4, 17,540 calls in 400
//!   playouts, half of them the keeper's): per node one `rt::Entry` (its
//!   start, hash, guard and disjoint flags, the root frame's target and
//!   resume block), where four per-node vectors and the node's tables
//!   were read one by one, and the semistate's maximum (the check before
//!   unchecked indexing) by AVX2's 16 lanes where the processor has it
//!   (`vpmaxuw`, chosen at run time; connect4's 48 slots ~55 -> ~26
//!   instructions): 215 -> 180 a call. Callgrind instructions per playout
//!   (seed 1) connect4 41,830 -> 40,295 (-3.67%), ticTacToe -2.79%, hex
//!   -2.42%, breakthrough -1.93%, englishDraughts -1.70%, reversi -0.65%,
//!   chess -0.33%, amazons -0.26%. Left per call: `flush`'s buffer swap
//!   and re-pointing (~40), the workspace's resets (~25), and in the
//!   generated entry the root frame's push through the shared push and
//!   its jump table, with the prologue (~50).
//! - A filter mask's resume (`gen/filter.rs` `Gen::filter_masks`) reads
//!   the semistate's address only where a chunk is tested, no longer at
//!   every resume (one that takes a bit from the mask, as every move of
//!   ticTacToe's `coord = Coord(*)` but the first, needs none): callgrind
//!   instructions per playout (seed 1, against 8d4795c) hex 596,891 ->
//!   582,981 (-2.33%), ticTacToe 10,091 -> 10,006 (-0.84%), connect4
//!   36,952 -> 36,657 (-0.80%), reversi -0.69%, breakthrough -0.59%,
//!   englishDraughts -0.32%, chess -0.24%, amazons -0.02%. Tried and
//!   dropped: `moves`' semistate check by an OR of saturating excesses
//!   and one `vptest` (no horizontal maximum): ticTacToe +1.7% (the
//!   loop's setup costs more than the maximum's ~19 instructions a call).
//!   Where ticTacToe's native instructions go (10.1K a playout, 7.6
//!   plies, 15.3 walks): `moves`' Rust ~180 a walk (resets, the
//!   semistate check, `flush`'s swap), the generated entry's shared root
//!   push and its jump table ~46 a walk, each recorded move ~45 (the
//!   mask's bit, the record's capacity test and stores, the top frame's
//!   address computed again). Next: a walk entered at its root node's
//!   own push (or none where the root pops early: the keeper's
//!   `board[coord] = x`), the frame's address kept across a record
//!   (the first done since, below).
//! - Fewer frames and cheaper chunks (issue 13, translated ticTacToe's
//!   native ratio .76): walks enter at their root's own block
//!   (`gen::Parts::direct`: the entry tests for a walk's start first,
//!   then one jump table over the start nodes, each pushing its frame
//!   with constants, not through the shared push and its table), with no
//!   frame where the root's only edge would pop it (the keeper's
//!   `board[coord] = x`); a choice of two edges whose frame pops before
//!   its first and whose second (tried first) is a test pushes no frame
//!   where that test fails (`Gen::tried_first_fails`: "has x won", "is
//!   the board full", draughts' "a man or a king"); a filter mask's chunk
//!   tests each run of 3 to 8 symbols whose comparisons read consecutive
//!   slots (`board[x] == e`) by one vector load, lane comparisons and
//!   `vhigh_bits` (`Gen::vector_run`: ticTacToe's 9 squares ~57 -> ~14
//!   instructions); the top frame's address as `frames + 56 len - 56`
//!   (three instructions, where `len - 1` first took five); `moves`'
//!   maximum function chosen once per walker. Callgrind instructions per
//!   playout (native, seed 1, against 5456932): ticTacToe 10,006 ->
//!   8,878 (-11.3%; RBG/RG .76 -> .857), englishDraughts 254,962 ->
//!   221,951 (-12.9%; .83 -> .95), hex -13.6%, breakthrough -10.0%,
//!   reversi -7.7%, connect4 -7.5%, chess -3.9%, amazons -3.0%. Of
//!   ticTacToe's, by step: root blocks -2.7%, vectors -3.0%, frameless
//!   tests -4.5%, the rest -1.1%. Next: the top frame's address kept
//!   across a record (~4 of each record's ~42 instructions; 42.6 records
//!   a playout), the record's `rec_inline` test, the jump over a
//!   capacity test's cold rejoin (`Gen::grow_if`), `moves`' Rust (~150 a
//!   walk).
//! - Translated internationalDraughts (issue 13): its keeper's committed
//!   choices check each alternative (`? c160a0 -> cacc`, ...; ~280
//!   checks of two targets) by searches from starts one edge apart, each
//!   its own function of ~40K IR instructions: code generation 14.5 s,
//!   and the budget spent before black's checks. Searches of one target
//!   whose regions meet now share one function entered at the caller's
//!   start (`plan.rs` groups): 4 search functions, generation ~1.4 s.
//!   `@disjoint` nodes of the walk decide their edges' checks as `? c`
//!   edges do (generated code), no longer through the interpreter
//!   (`rt::first_legal`, now only for map comparisons). Searches skip a
//!   filtered any-assignment's failing symbols before writing them
//!   (`Search::seek`), go on at the frame's next edge where a
//!   comparison fails (no pass through the frames' loop and its jump
//!   table), and take a pushed frame's last edge at once. Alternated
//!   (2 x 5 s, native) against the session's base: 638 -> 765
//!   playouts per CPU second (1.20x).
//! - Searches resume known frames directly (`gen/search/resume.rs`): an
//!   edge whose top frame (node, edge taken) and log entries written
//!   since are known on every inline chain into it undoes those entries
//!   and goes on at the frame's next symbol or edge itself; an exhausted
//!   frame resumes the frame below where every push agrees; the key hash
//!   is kept only with visited or nested checks, the version only with
//!   nested checks. internationalDraughts.rg (20 playouts, seed 7):
//!   233.6M -> 212.0M instructions (canCaptureMore's searches -17%; the
//!   frames' jump table 268K -> 13K passes); time about equal (native
//!   RG/RBG 0.25-0.27 before and after: its 400-800 KB search functions).
//!   Where its instructions go now: canCaptureMore searches 45%, the
//!   keeper's committed checks 23% (~7.6 searches a move, each of the
//!   keeper's remaining walk: quadratic in the path), the walk's tagged
//!   visited checks in Rust (`rt::visit`, ~260 each) 14%.
//! - Next: code size for chess.hrg (leaf checks that differ only in
//!   constants, beyond equal ones, as one function over a table; the optimiser for checks
//!   even when the walk is split), a native hash set for tagged visited
//!   keys (`rt::visit` -> `Seen::insert`, ~285 instructions), frames only
//!   at real choices, native local visited stamps.
//! - Exclusive comparisons (`gen/switch.rs`, issue 13): a node whose edges
//!   all compare one operand with distinct constants takes the passing
//!   edge through a byte table (past its test) and pops its frame at once
//!   when resumed. 15puzzle (its 15 `board[coord] == X` per candidate
//!   tile): native instructions per playout -20.4% (345K -> 275K); bar
//!   games -0.05% (hex) to -2.0% (englishDraughts). Only from four edges:
//!   paperSoccer's three-edge nodes (`board[goN[coord]] == whiteGoal /
//!   blackGoal / empty`) ran as many instructions through the table but
//!   7% slower (alternated 1,000-playout runs, median of 16: the
//!   dependent table load and the indirect jump).
//! - End-of-turn checks speculated as the interpreter does (`rt/ahead.rs`,
//!   issue 13): a walk's `? K` into a `player` assignment whose target `K`
//!   mirrors calls `rt::speculate`, which generates that target's moves
//!   with a second walker and keeps them for the next enumeration of that
//!   state; `K` holds where there are some, else its own code decides
//!   (memoised either way, so the `! K` edge reads the answer); not where
//!   a probe or a program under 32 instructions decides `K` (`plan.rs`
//!   `speculates`: ticTacToe, connect4, hex, foxAndHounds lost 9-24% of
//!   their instructions to handing over moves). Translated
//!   kingCapture chess (its checks' copies end before the pawns' promotion
//!   rows, mirrors one way only since this change): instructions -2.8%,
//!   first-level instruction cache misses -13% (chess_kingCapture, 20
//!   playouts; the checks' 2 x 102 KB of code is no longer run), time
//!   1.04-1.17x on the six games. Where the time goes there: the move
//!   walk's code, 326 KB (10.6K blocks) of which ~200 KB runs in a playout,
//!   93% of the misses (a miss per 35 instructions; `RG_JIT_BIN` with
//!   callgrind's `--dump-instr=yes`): next, denser code per edge (the
//!   semistate's address reloaded per block, capacity tests, inline
//!   records at every ray landing).
//! - Denser code (issue 13): the workspace's hot fields first (one-byte
//!   displacements), the semistate's address biased by 128 (`rt::ST_BIAS`:
//!   slots below 128 one-byte displacements), table reads from a base
//!   read once per block (`Ws::fun`) where the tables lie above 2 GB (every
//!   native run: a 10-byte absolute address per read before), the log's
//!   capacity tested before an assignment's write with the edge run again
//!   after a grow (`Gen::log_room`: no block parameters, no values kept
//!   across the call), only any-assignments' blocks with a parameter, and
//!   one undo block per known chain shared by the edges that fail onto it.
//!   Callgrind per playout (native, seed 7, against cf23477), instructions
//!   and first-level instruction cache misses: chess_kingCapture -2.5% and
//!   -21% (39.9K -> 31.7K), chessSilverman4x5_kingCapture -3.1% / -78%,
//!   chessQuick5x6_kingCapture -2.9% / -26%, chessLosAlamos6x6 -3.5% /
//!   -61%, chessGardner5x5 -2.9% / -44%; chess -1.1% / -15%, amazons -0.7%
//!   / -26%, reversi -1.6% / -34%, englishDraughts -2.0% / -37%,
//!   breakthrough -1.5%, connect4 -1.1%, ticTacToe -0.2%, hex -0.1%. The
//!   walk of chess_kingCapture 326 -> 297 KB. Yet native time is unchanged
//!   within noise (alternated 2-3 s runs, 0.99-1.03x): on this machine
//!   instruction cache misses are not what keeps translated chess at half
//!   the RBG engine's speed, though rbg-jit runs as many instructions with
//!   1/25 of the misses.
//! - Cold code out of the hot path (issue 13): the error block `fail` and
//!   the continuations of cold blocks (a grow's call, its failure test
//!   and rejoin) are cold, so the 1,180 split edges into `fail` (a stack
//!   reload of the caller's pinned register and a jump, 10 bytes each)
//!   and the rejoins leave the edges' code, and the 251 jumps over them
//!   go (chess_kingCapture's walk). Callgrind native instructions per
//!   playout (seed 1, 20 playouts) amazons -2.0%, hex -1.5%, breakthrough
//!   -1.0%, ticTacToe -0.6%, connect4 -0.6%, englishDraughts -0.4%, chess
//!   -0.25%, reversi -0.2%, the kingCapture family -0.4 to -0.5%;
//!   chess_kingCapture's first-level instruction cache misses -3.4%. Time
//!   within the noise of a loaded machine (alternated 1 s runs, medians
//!   0.98-1.05). Where the family's time goes (perf cpu-clock samples,
//!   chess_kingCapture): the walk 82%, of it the generic backtrack 14%
//!   (its undo loop ~9%: ~2.9 entries a backtrack, 45 backtracks a
//!   state, most after a record) and the records' copies of unknown logs
//!   ~5% (~6.6 entries a move: a ray's `coord` writes each logged); the
//!   rest spread over ~110 KB of hot code. The translation runs about
//!   as many instructions per state as rbg-jit on the original (16.0K
//!   vs 15.3K, 200 playouts) with 2x the instruction cache misses and
//!   +30% data accesses. Tried, not landed: constant
//!   slots' values carried across single-predecessor blocks (a pass over
//!   the walk's IR: a read after a write or read of the slot takes the
//!   value, stores to the workspace's other buffers keep what is known):
//!   674 of 3,191 16-bit loads go, but instructions +0.6% (breakthrough)
//!   to -0.3% (reversi), and the ray's `coord` reload stays (the frame
//!   push's capacity test rejoins between).

//! - Lazy roots (rg-engine's `mirror.rs`, issue 13) taken as the
//!   interpreter takes them: `moves` at a lazy root walks from its target
//!   first (a start of its own where the code there knows no frame and an
//!   empty log: `gen::parts::lazy_roots`), out of line
//!   (`rt::Walker::moves_aside`, reached as any node that is no start).
//!   Only translated internationalDraughts' keeper starts qualify (the
//!   other suite lazy roots lie one assignment past a start, so neither
//!   engine asks for moves there): its native instructions per playout
//!   198.6M -> 185.0M (-6.9%, 20 playouts, seed 1).
//! - Piece choices through constant maps (issue 13, kingCapture family):
//!   translated chess picks a piece by `coord = Coord(*)` into six edges,
//!   one of them `isOneOf[board[coord]] == 1` (the rooks, moved or not).
//!   That map kept the filter mask's chunk from vectors (~900 straight
//!   instructions per 64 squares, three chunks a state, 17% of the
//!   first-level instruction cache misses) and the choice from its byte
//!   table. A mapped comparison now joins the lanes as the runs of values
//!   that pass (`gen/filter.rs` `Lane::Within`: `v - lo <= hi - lo`, one
//!   run for a side's pieces) and the exclusive choice as the values its
//!   map sends to its constant (`gen/switch.rs`). The rays themselves
//!   write no slot per step there: they are unrolled over composed
//!   tables (`board[go14[coord]] == empty`), `coord` written at a landing
//!   only. Callgrind native instructions per playout (seed 1, 20
//!   playouts): chess_kingCapture -17.3% (first-level instruction cache
//!   misses 1.18M -> 0.81M), chess_kingCapture_200 -18.1%, chessGardner5x5
//!   -15.1%, chess -13.5%; the other kingCapture games pick pieces by
//!   plain comparisons, already vectors and a table (unchanged), as are
//!   the other bar games. Time (alternated 1 s runs, median of 6) 1.10x,
//!   1.15x, 1.13x, chess 1.09x.
//! - Deferred last writes past unknown logs (issue 13, amazons_split2a
//!   native): a split queen move's second half joins the queen's further
//!   steps and none (logs of one `coord` entry and of none) before the
//!   arrow, so the log is not known there and the arrow landings' `coord`
//!   writes were logged, tagged and recorded after the rays' join, which
//!   backtracked through the frames' jump table (15 a state, 255
//!   targets). `gen/tail.rs` now defers them too: the record copies the
//!   log with the value written in the semistate for the while.
//!   Callgrind native instructions per playout (seed 1, 20 playouts)
//!   amazons_split2a -19.3%, simulated indirect branch mispredictions
//!   47.5K -> 9.5K; alternated (8 x 1 s) 1.33x, RG/RBG native 0.56 ->
//!   0.79. The walk's code grew 155 -> 207 KB (a record per landing).

mod gen;
mod plan;
mod rt;
mod safe;

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use cranelift_codegen::ir::types::{I32, I64};
use cranelift_codegen::ir::{AbiParam, Signature};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_module::{Linkage, Module};
use jit_support::Memory;
use rg_engine::{GameModel, Native, NativeWalker};

pub use gen::PART_EDGES;
pub use plan::{check_codes, check_functions, native_speculated, CheckCode};
use rt::WalkFn;

/// Edges beyond this are left to the interpreter: code generation time
/// grows with the game (about 40 IR instructions per edge, in functions of
/// at most [`PART_EDGES`] edges).
pub const MAX_EDGES: usize = 20_000;

/// Edges of the searches of generated pure checks, all together, beyond
/// which further pure checks are left to the interpreter.
pub const MAX_PURE_EDGES: usize = 4_000;

/// Instructions of generated leaf programs, all together, beyond which
/// further programs are left to the interpreter (chess.hrg has 77K).
pub const MAX_PROGRAM_INS: usize = 100_000;

/// Instructions of generated writing programs and searches (4 per edge)
/// and of the leaf checks they nest (which go beyond [`MAX_PROGRAM_INS`]
/// and [`MAX_PURE_EDGES`]), all together, beyond which further ones are
/// left to the interpreter.
pub const MAX_WRITING_INS: usize = 100_000;

/// Why a game is not played by native code: the host, a Cranelift error, a
/// game too large, or tables that fail the facts the code relies on.
#[derive(Clone, Debug)]
pub struct Error(pub String);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "no native code: {}", self.0)
    }
}

impl std::error::Error for Error {}

/// The generated code of one game, with the tables it reads.
pub(crate) struct Code {
    /// The game (interpreted); the code embeds its tables' addresses.
    pub game: GameModel,
    /// Number of symbols (every semistate value is below it).
    pub symbols: usize,
    /// The move walk's functions (`gen::parts::Parts`).
    pub walk: Vec<WalkFn>,
    /// Per target of the walk (edges, then resume blocks), the function
    /// that holds it.
    pub targets: Vec<u32>,
    /// Per node, its first resume block (`gen::parts::frame_bases`).
    pub bases: Vec<u32>,
    /// Per node, how `moves` starts a walk there.
    pub entry: Vec<rt::Entry>,
    /// Whether walks start from the semistate's key hash (else from 0):
    /// interpreted checks memoise by it across walks.
    pub hash_base: bool,
    /// Processor time spent generating the code.
    pub time: Duration,
    /// The constant tables the code reads.
    _store: gen::Store,
    /// The code's memory (walkers hold the `Code` by an `Arc`, so it
    /// outlives every run of the code).
    _memory: Memory,
}

struct Engineered {
    code: Arc<Code>,
}

impl Native for Engineered {
    fn walker(&self) -> Box<dyn NativeWalker> {
        Box::new(rt::Walker::new(self.code.clone()))
    }

    fn name(&self) -> &'static str {
        "native"
    }

    fn codegen_time(&self) -> Duration {
        self.code.time
    }
}

/// Generates machine code for `game`'s move walks; returns the game played
/// by it, or why not (then play `game` with the interpreter).
pub fn compile(game: &GameModel) -> Result<GameModel, Error> {
    compile_split(game, PART_EDGES)
}

/// [`compile`] with walk functions of at most `part_edges` edges (and
/// resume blocks) each, a node's all in one (tests split small games).
pub fn compile_split(game: &GameModel, part_edges: u32) -> Result<GameModel, Error> {
    let game = game.interpreted();
    let t = game.tables();
    if t.edges.len() > MAX_EDGES {
        return Err(Error(format!(
            "{} edges (the generator takes at most {MAX_EDGES})",
            t.edges.len()
        )));
    }
    let symbols = game.description().symbols.len();
    safe::verify(t, symbols).map_err(Error)?;
    let code = build(game.clone(), symbols, part_edges)?;
    Ok(game.with_native(Arc::new(Engineered {
        code: Arc::new(code),
    })))
}

fn err(e: impl fmt::Display) -> Error {
    Error(e.to_string())
}

/// `RG_JIT_BIN=PREFIX` writes each function's machine code to
/// `PREFIX.NAME.bin` (for `objdump -b binary -m i386:x86-64` beside
/// callgrind's counts).
fn dump(ctx: &cranelift_codegen::Context, name: &str) {
    if let (Some(prefix), Some(cc)) = (std::env::var_os("RG_JIT_BIN"), ctx.compiled_code()) {
        let mut f = prefix;
        f.push(format!(".{name}.bin"));
        let _ = std::fs::write(f, cc.code_buffer());
    }
}

fn build(game: GameModel, symbols: usize, part_edges: u32) -> Result<Code, Error> {
    let start = jit_support::cpu_time();
    let mut store = gen::Store::default();
    let t = game.tables();
    let bases = gen::frame_bases(t);
    let plan = plan::plan(t);
    let parts = gen::Parts::new(t, &bases, part_edges, &plan.checks);
    // Cranelift's optimiser costs a quarter of the generation time; large
    // games (several functions) go without it.
    // The workspace lives in the pinned register (`gen::emit`).
    let mut module = jit_support::module(true, parts.count == 1).map_err(Error)?;
    let call_conv = module.isa().default_call_conv();
    let mut sig = Signature::new(call_conv);
    sig.params
        .extend([I64, I64, I32, I32].iter().map(|&t| AbiParam::new(t)));
    sig.returns.push(AbiParam::new(I32));
    let mut ctx = module.make_context();
    let mut fctx = FunctionBuilderContext::new();
    let mut pure_ids = Vec::new();
    for (c, &code) in plan.checks.iter().enumerate() {
        if matches!(
            code,
            CheckCode::Interpreted | CheckCode::Probe | CheckCode::Writing(..) | CheckCode::Search
        ) {
            pure_ids.push(None);
            continue;
        }
        let first = plan.share[c] as usize;
        if first != c {
            // The same program: the same function.
            pure_ids.push(pure_ids[first]);
            continue;
        }
        let pid = module
            .declare_function(&format!("pure_{c}"), Linkage::Local, &sig)
            .map_err(err)?;
        ctx.func.signature = sig.clone();
        let helper = ctx.func.import_signature(sig.clone());
        let f = gen::Func {
            b: FunctionBuilder::new(&mut ctx.func, &mut fctx),
            sig: helper,
            store: &mut store,
        };
        match code {
            CheckCode::Program(a, end) => gen::emit_program(t, (a, end), f),
            CheckCode::Slot => gen::emit_slot(t, c, f),
            _ => gen::emit_pure(t, c, f),
        }
        let (t0, ins) = (jit_support::cpu_time(), ctx.func.dfg.num_insts());
        module.define_function(pid, &mut ctx).map_err(err)?;
        if std::env::var_os("RG_JIT_TRACE").is_some() {
            eprintln!(
                "rg-jit: check {c} {code:?}: {ins} IR instructions, {:?}",
                jit_support::cpu_time().saturating_sub(t0)
            );
        }
        dump(&ctx, &format!("pure_{c}"));
        module.clear_context(&mut ctx);
        pure_ids.push(Some(pid));
    }
    // Writing programs, calling the leaf checks and writing programs they
    // nest (generated before them).
    for &c in &plan.writing_order {
        let first = plan.share[c] as usize;
        if first != c {
            pure_ids[c] = pure_ids[first];
            continue;
        }
        // A search's function serves the checks that share it, entered at
        // their starts (the first's first).
        let starts: Vec<u32> = (c..plan.share.len())
            .filter(|&d| plan.share[d] as usize == c)
            .map(|d| t.checks[d].start)
            .collect();
        let target = t.checks[c].target;
        let nests: Vec<u32> = match plan.checks[c] {
            CheckCode::Writing(a, end) => gen::nested(t, (a, end)).collect(),
            _ => gen::region(t, &starts, target, &|_| true).map_or(Vec::new(), |r| r.nested),
        };
        let pid = module
            .declare_function(&format!("writing_{c}"), Linkage::Local, &sig)
            .map_err(err)?;
        ctx.func.signature = sig.clone();
        let helper = ctx.func.import_signature(sig.clone());
        let mut pures = vec![None; t.checks.len()];
        for c2 in nests {
            if let Some(id) = pure_ids[c2 as usize] {
                pures[c2 as usize] = Some(module.declare_func_in_func(id, &mut ctx.func));
            }
        }
        let f = gen::Func {
            b: FunctionBuilder::new(&mut ctx.func, &mut fctx),
            sig: helper,
            store: &mut store,
        };
        match plan.checks[c] {
            CheckCode::Writing(a, end) => {
                let visits = t.programs[c].is_some_and(|q| q.visits);
                gen::emit_writing(t, (a, end), visits, f, &pures);
            }
            _ => gen::emit_search(t, (&starts, target), f, &pures),
        }
        let (t0, ins) = (jit_support::cpu_time(), ctx.func.dfg.num_insts());
        module.define_function(pid, &mut ctx).map_err(err)?;
        if std::env::var_os("RG_JIT_TRACE").is_some() {
            eprintln!(
                "rg-jit: writing {c} {:?}: {ins} IR instructions, {:?}",
                plan.checks[c],
                jit_support::cpu_time().saturating_sub(t0)
            );
        }
        dump(&ctx, &format!("writing_{c}"));
        module.clear_context(&mut ctx);
        pure_ids[c] = Some(pid);
    }
    if std::env::var_os("RG_JIT_TRACE").is_some() {
        eprintln!(
            "rg-jit: {} checks ({} functions; {} writing programs, {} instructions with their nested checks) generated in {:?}",
            pure_ids.iter().flatten().count(),
            (0..plan.share.len()).filter(|&c| plan.share[c] as usize == c && pure_ids[c].is_some()).count(),
            plan.checks.iter().filter(|k| matches!(k, CheckCode::Writing(..))).count(),
            plan.writing_ins,
            jit_support::cpu_time().saturating_sub(start)
        );
    }
    if std::env::var_os("RG_JIT_TRACE").is_some() {
        eprintln!("rg-jit: walks keep {:?}", parts.keep.0);
        let taken = |v: &[u32]| v.iter().filter(|&&b| b != rg_engine::raw::NO_NODE).count();
        eprintln!(
            "rg-jit: {} of {} lazy roots taken",
            taken(&parts.lazy),
            taken(&t.lazy)
        );
    }
    let mut ids = Vec::new();
    for part in 0..parts.count {
        let id = module
            .declare_function(&format!("walk_{part}"), Linkage::Local, &sig)
            .map_err(err)?;
        ctx.func.signature = sig.clone();
        let helper = ctx.func.import_signature(sig.clone());
        let pures: Vec<_> = pure_ids
            .iter()
            .map(|id| id.map(|id| module.declare_func_in_func(id, &mut ctx.func)))
            .collect();
        let f = gen::Func {
            b: FunctionBuilder::new(&mut ctx.func, &mut fctx),
            sig: helper,
            store: &mut store,
        };
        gen::emit(t, f, &pures, &bases, &parts, part);
        if std::env::var_os("RG_JIT_TRACE").is_some() {
            eprintln!(
                "rg-jit: walk {part}: {} IR instructions, {} blocks",
                ctx.func.dfg.num_insts(),
                ctx.func.dfg.num_blocks()
            );
        }
        module.define_function(id, &mut ctx).map_err(err)?;
        dump(&ctx, &format!("walk_{part}"));
        module.clear_context(&mut ctx);
        ids.push(id);
    }
    module.finalize_definitions().map_err(err)?;
    if std::env::var_os("RG_JIT_TRACE").is_some() {
        // Where each function is (callgrind names generated code by address).
        for (part, &id) in ids.iter().enumerate() {
            eprintln!(
                "rg-jit: walk_{part} at {:p}",
                module.get_finalized_function(id)
            );
        }
        for (c, id) in pure_ids.iter().enumerate() {
            if let Some(id) = id.filter(|_| plan.share[c] as usize == c) {
                let kind = plan.checks[c];
                eprintln!(
                    "rg-jit: check {c} ({kind:?}) at {:p}",
                    module.get_finalized_function(id)
                );
            }
        }
    }
    let walk = ids
        .iter()
        .map(|&id| {
            let p = module.get_finalized_function(id);
            // SAFETY: defined with the signature of `WalkFn` in the host's
            // default calling convention ("C").
            unsafe { std::mem::transmute::<*const u8, WalkFn>(p) }
        })
        .collect();
    let entry = entries(t, &parts, &bases);
    Ok(Code {
        game,
        symbols,
        walk,
        entry,
        targets: parts.target,
        bases,
        hash_base: plan.checks.contains(&CheckCode::Interpreted),
        time: jit_support::cpu_time().saturating_sub(start),
        _store: store,
        _memory: Memory::new(module),
    })
}

/// Per node, how `moves` starts a walk there ([`rt::Entry`]).
fn entries(t: &rg_engine::raw::Tables, parts: &gen::Parts, bases: &[u32]) -> Vec<rt::Entry> {
    use rt::Entry;
    let resumes = parts.target.len() as u32;
    let mut direct = vec![None; t.nodes.len()];
    for (k, &n) in parts.direct.iter().enumerate() {
        direct[n as usize] = Some(k as u32);
    }
    let shared = resumes + parts.direct.len() as u32;
    t.nodes
        .iter()
        .enumerate()
        .map(|(n, info)| {
            // A lazy root is no start: `moves` decides it out of line.
            let lazy = parts.lazy[n] != rg_engine::raw::NO_NODE;
            let flags = [
                (parts.starts[n] && !lazy, Entry::START),
                (lazy, Entry::LAZY),
                (parts.keep.1[n].hash, Entry::HASH),
                (info.guard != rg_engine::raw::Guard::None, Entry::GUARD),
                (info.disjoint, Entry::DISJOINT),
            ];
            Entry {
                target: match direct[n] {
                    Some(k) => resumes + k,
                    None => shared + info.first,
                },
                next: match bases[n] {
                    u32::MAX => 0,
                    b => b + (info.end - info.first),
                },
                flags: flags.iter().filter(|f| f.0).fold(0, |a, f| a | f.1),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The code of the game `text` (player `a` to move), after checking
    /// that both engines find `moves` moves in its first state.
    fn code_with_moves(text: &str, moves: usize) -> Code {
        let game = GameModel::from_text(text).unwrap();
        let symbols = game.description().symbols.len();
        let code = build(game.interpreted(), symbols, PART_EDGES).unwrap();
        let native = compile(&game).unwrap();
        for g in [&game, &native] {
            let mut list = rg_engine::MoveList::default();
            let mut s = g.initial_state();
            g.reasoner().moves(&mut s, &mut list).unwrap();
            assert_eq!(list.len(), moves, "{}", g.engine_name());
        }
        code
    }

    /// The moves of `text` by both engines, as their tags in order, in
    /// the states along the play of each state's first move (up to the
    /// end or `steps` states), and the native code.
    fn tags_of_moves(text: &str, steps: usize) -> [Vec<Vec<Vec<u16>>>; 2] {
        let game = GameModel::from_text(text).unwrap();
        let native = compile(&game).unwrap();
        [&game, &native].map(|g| {
            let (mut r, mut list) = (g.reasoner(), rg_engine::MoveList::default());
            let mut s = g.initial_state();
            let mut states = Vec::new();
            for _ in 0..steps {
                r.moves(&mut s.clone(), &mut list).unwrap();
                states.push((0..list.len()).map(|i| list.tags(i).to_vec()).collect());
                if list.is_empty() {
                    break;
                }
                r.apply(&mut s, &list, 0);
            }
            states
        })
    }

    /// Searches of one target whose regions meet share one function,
    /// entered at each check's start (`plan.rs` groups); a search of
    /// another target over the same nodes gets its own. The moves are
    /// the interpreter's: the first two checks hold (from `s1` and `s2`,
    /// the cycle `u`, `v` finds `x == r`), the third fails (`t2` needs
    /// `y == q`, which `y = r` and `y = p` never give).
    #[test]
    fn shares_searches_of_one_target() {
        let text = "type Player = {a, b};\ntype Score = {0, 1};\ntype C = {p, q, r};\n\
                    var x: C = p;\nvar y: C = p;\n\
                    begin, n1: ? s1 -> t;\nn1, n2: ? s2 -> t;\nn2, n3: ! s3 -> t2;\n\
                    n3, n4: $ p;\nn4, end: player = keeper;\n\
                    s1, u: y = q;\ns2, u: y = r;\ns3, w: y = r;\n\
                    w, u: x = p;\nu, v: x = C(*);\nv, u: y = p;\n\
                    v, t: x == r;\nv, t2: y == q;\n";
        let game = GameModel::from_text(text).unwrap();
        assert_eq!(check_codes(&game), [CheckCode::Search; 3]);
        assert_eq!(check_functions(&game), [0, 0, 2]);
        code_with_moves(text, 1);
    }

    /// A filter mask's chunk tests symbols whose comparisons read
    /// consecutive slots (`board[x] == e`, `board[x] != m`, one of
    /// `board[x] == m`, `board[x] == k`; through a constant map,
    /// `f[board[x]] == 1`, and one of `board[x] == k`, `f[board[x]] == 0`,
    /// as runs of values) eight slots at a time in a vector
    /// (`gen/filter.rs` `Gen::vector_run`): runs of 8 and 3 of 11 squares;
    /// the interpreter's moves in its order (a lane's bit in the wrong
    /// place, or a wrong sense, changes them).
    #[test]
    fn tests_slots_in_vectors() {
        let squares: Vec<String> = (0..11).map(|i| format!("s{i}")).collect();
        for (test, moves) in [
            ("n1, n2: board[x] == e;\n", 8),
            ("n1, n2: board[x] != m;\n", 9),
            ("n1, n2: board[x] == m;\nn1, n2: board[x] == k;\n", 3),
            ("n1, n2: f[board[x]] == 1;\n", 2),
            ("n1, n2: board[x] == k;\nn1, n2: f[board[x]] == 0;\n", 9),
        ] {
            let text = format!(
                "type Player = {{a, b}};\ntype Score = {{0, 1}};\ntype C = {{{}}};\n\
                 type P = {{e, m, k}};\ntype B = {{0, 1}};\nconst f: P -> B = {{ m: 1, :0 }};\n\
                 var board: C -> P = {{ s2: m, s5: k, s10: m, :e }};\n\
                 var x: C = s0;\nbegin, n1: x = C(*);\n{test}\
                 n2, n3: $$ x;\nn3, end: player = keeper;\n",
                squares.join(", ")
            );
            let [interp, native] = tags_of_moves(&text, 1);
            assert_eq!(interp[0].len(), moves, "{test}");
            assert_eq!(interp, native, "{test}");
            let game = GameModel::from_text(&text).unwrap();
            let symbols = game.description().symbols.len();
            let code = build(game.interpreted(), symbols, PART_EDGES).unwrap();
            assert!(code._store.vectors() >= 2, "{test}");
        }
    }

    /// Walks start at their root's own block (`gen::Parts::direct`): a
    /// root whose frame would be popped before its only edge pushes none
    /// (`begin`: `x = q`), one of two edges pushes its frame with
    /// constants (`s`); a choice between two comparisons pushes its frame
    /// only where the one tried first passes (`Gen::tried_first_fails`:
    /// it passes at `n1`, fails at `u` after `y = q` and passes after `y =
    /// r`); both engines find the same moves along a play (a wrong edge
    /// taken, or the test's sense flipped, changes them).
    #[test]
    fn starts_walks_at_their_roots_blocks() {
        let text = "type Player = {a, b};\ntype Score = {0, 1};\ntype C = {p, q, r};\n\
                    var x: C = p;\nvar y: C = p;\nbegin, n1: x = q;\n\
                    n1, n2: x == r;\nn1, n3: x == q;\nn2, s: player = b;\n\
                    n3, s: player = a;\ns, t1: y = q;\ns, t2: y = r;\n\
                    t1, u: $ q;\nt2, u: $ r;\nu, u1: y == q;\nu, u2: y == r;\n\
                    u1, end: player = keeper;\nu2, end: player = keeper;\n";
        let [interp, native] = tags_of_moves(text, 2);
        assert_eq!(interp.iter().map(Vec::len).collect::<Vec<_>>(), [1, 2]);
        assert_eq!(interp, native);
    }

    /// An any-assignment into a choice between comparisons of one operand
    /// with constants ("a man or a king of mine here") tests its symbols
    /// by a byte table (`gen/filter.rs` `Gen::pass_by_table`), with the
    /// interpreter's moves (both squares pass).
    #[test]
    fn filters_by_byte_tables() {
        // (Two squares: fewer than a vector's run, `Gen::vector_run`.)
        let text = "type Player = {a, b};\ntype Score = {0, 1};\ntype C = {p, r};\n\
                    type P = {e, m, k};\nvar board: C -> P = { p: m, :k };\n\
                    var x: C = p;\nbegin, n1: x = C(*);\n\
                    n1, n2: board[x] == m;\nn1, n3: board[x] == k;\n\
                    n2, end: player = keeper;\nn3, end: player = keeper;\n";
        assert!(!code_with_moves(text, 2)._store.no_bytes());
    }

    /// A lazy root (`r`: `? k1` into `m1`, `! k1` into the keeper's end,
    /// `k1` a copy of `m1`'s walk) is taken natively where the interpreter
    /// takes it: `moves` at `r` walks from `m1` (no frame of its own,
    /// entered at its edge; or a choice of two, its frame pushed), and
    /// where that walk has no move (`c` is 2) from `r` as written (the
    /// keeper's move). Perft (3 states of c, then the end) and the moves
    /// along a play are the interpreter's.
    #[test]
    fn takes_lazy_roots() {
        let head = "type Player = {a, b};\ntype Score = {0, 1};\ntype C = {0, 1, 2};\n\
                    var c: C = 0;\nbegin, r: player = a;\n\
                    r, m1: ? k1 -> kacc;\nr, z: ! k1 -> kacc;\nz, end: player = keeper;\n\
                    m1, m2: c != 2;\nm2, m3: c = C(*);\nm3, m4: $$ c;\nm4, r: player = a;\n\
                    k1, k2: c != 2;\nk2, k3: c = C(*);\nk3, kacc: ;\n";
        let choice = "m1, m5: c == 1;\nm5, m6: c = 0;\nm6, m4: $ c;\n\
                      k1, k5: c == 1;\nk5, k6: c = 0;\nk6, kacc: ;\n";
        for (text, leaves) in [
            (head.to_string(), [1, 3, 7, 14]),
            (format!("{head}{choice}"), [1, 3, 8, 19]),
        ] {
            let game = GameModel::from_text(&text).unwrap();
            assert_eq!(game.mirror_counts(), (1, 0), "{text}");
            let code = build(game.interpreted(), 3, PART_EDGES).unwrap();
            let lazy = code.entry.iter().filter(|e| e.flags & rt::Entry::LAZY != 0);
            assert_eq!(lazy.count(), 1, "{text}");
            let native = compile(&game).unwrap();
            for g in [&game, &native] {
                let counts: Vec<u64> = (0..4)
                    .map(|d| {
                        let c = rg_engine::perft::perft(g, d, rg_engine::perft::Counting::Walks);
                        c.unwrap().leaves
                    })
                    .collect();
                assert_eq!(counts, leaves, "{} {text}", g.engine_name());
            }
            let [interp, native] = tags_of_moves(&text, 6);
            assert_eq!(interp, native);
        }
    }

    /// A writing check's loop over an any-assignment's symbols reads
    /// `board[x]` from a table over the loop's index (`Gen::indexed`),
    /// with the interpreter's answer: only `x = p` passes the filter
    /// (`board[x]` is `m` or `k`) and then `x == p` (a table read in
    /// another order finds none).
    #[test]
    fn reads_tables_over_a_loops_index() {
        let text = "type Player = {a, b};\ntype Score = {0, 1};\ntype C = {p, q, r};\n\
                    type P = {e, m, k};\nvar board: C -> P = { p: m, :e };\n\
                    var x: C = q;\nbegin, n1: ? c0 -> c9;\n\
                    n1, end: player = keeper;\nc0, c1: x = C(*);\n\
                    c1, c2: board[x] == m;\nc1, c3: board[x] == k;\n\
                    c2, c9: x == p;\nc3, c9: x == p;\n";
        assert!(!code_with_moves(text, 1)._store.no_words());
    }
}
