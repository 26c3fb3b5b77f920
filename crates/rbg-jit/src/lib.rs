//! The native engine: machine code for each game at load time.
//!
//! [`compile`] turns a [`GameModel`]'s tables into machine code with
//! Cranelift (`gen.rs`: the walks, `probe.rs`: the probes) and returns the
//! same game played by that code. States, moves and move order are the
//! interpreter's; the two engines are interchangeable.
//!
//! # Safety
//!
//! Generated code indexes without checks, in bounds by construction, as
//! the interpreter does: vertices come from the state's position (a checked
//! state) or from tables whose entries are vertices or `NONE` (tested
//! before use); pieces come from the board, which only holds the game's
//! pieces; directions, slots, sets, variables and rows are constants of the
//! game's own tables; stack and move-prefix writes check the capacity and
//! call a helper to grow (a state's block checks the stack once for the
//! pushes it can make outside loops, at most `rt::STACK_SLACK`, which the
//! helper leaves free; a level walked inside the block, a modifier's or a
//! pattern's, returns with the stack as long as it found it); a level's
//! stamps are indexed `slot * nv + v` in a buffer of `num_slots * nv`; a
//! root state outside a function's jump table returns "no move". The code holds the tables' addresses, so the tables
//! live in the engine's `Code` as long as the code does. Native recursion is one frame
//! per level, bounded as the interpreter's (`gen/bound.rs`).
//!
//! # Performance notes
//!
//! - Code generation (`rbg check --timings`, `rbg bench`): Cranelift does
//!   ~300k IR instructions per CPU second here, in proportion to the IR
//!   (not to a function's size): chess 52k IR, pentago 91k, arimaa 263k.
//!   The verifier is off (it doubled the time), and so are Cranelift's
//!   optimisations (`opt_level=none`: generation -30%; the code was as
//!   fast side by side, some games faster: the e-graph's merged values
//!   lived longer). A called level checks its bounds and records its
//!   modifier itself (one copy per function, not per modifier: arimaa -18%
//!   IR, pentago -12%); levels that decide a pattern are not inlined
//!   (chess -15% IR). One function per pattern, not one for all: chess -25%
//!   instructions per state. One function per level (tried) copies states
//!   shared by levels: IR +12% on chess, x5 on arimaa, no faster.
//!   Generator-side trimming (the workspace read once per block, constant
//!   indices as offsets, the stack's room checked once per state, the
//!   keeper's keep test and settling out of line in `rt::kept`, a switch
//!   row's mark hoisted, stack entries as two halves): chess IR 62k -> 52k,
//!   arimaa 337k -> 263k, generation chess 162-176 -> 130-147 ms, and
//!   instructions per playout -6% chess and reversi, connect4 +0.2%.
//!   What is left per transition (chess, with inlined levels): a switch
//!   row ~90 IR instructions (192 of them, a third of chess), an `Off`
//!   ~90, an assignment ~55: pushing a found node, marking it and testing
//!   it, spread evenly; no single piece of it is large.
//! - Where the time goes (callgrind against the code `RBG_JIT_BIN` writes,
//!   breakthrough flat MC): the rules walk ~4,400 instructions per state;
//!   per pawn with a move the `[empty]` level ~150, ~70 of them overhead
//!   (bounds, move prefix, stamps, the stop test); pop and dispatch ~17 per
//!   node. Perft leaves pay ~320 instructions in Rust (`clone_from`,
//!   `apply_raw`, the keeper loop) besides ~120 in the keeper function.
//! - Tried: rbg2cpp's lazy modifiers (recording a move's final modifiers
//!   without applying them): no suite game gains (moves end in a switch to
//!   the keeper or in a pattern test).
//! - The keyed walk ([`compile_keyed`], for `gg-env`'s batches): a copy
//!   of the rules' function that writes each move's first key beside its
//!   end, the key computed where the move's first modifier is pushed (a
//!   constant plus the vertex) or at the switch; the plain walk is
//!   unchanged (playouts: the same code). About 4-5 instructions per
//!   recorded move and per first modifier, against ~18 per move for the
//!   batch listing the keys from the moves afterwards. Computing the key at
//!   the record from the prefix's first atom through a table (session 22)
//!   cost as much as the batch's listing.
//! - What would move it: less IR per transition (chess's 50 ms needs
//!   ~17k in all: vertices as 64-bit values would drop ~5k zero-extensions;
//!   the rest needs shared out-of-line code for pushes and marks), a generated
//!   `apply` and a state in one buffer (one copy per perft leaf).
//!
//! ```no_run
//! let text = std::fs::read_to_string("games/ticTacToe.rbg").unwrap();
//! let game = rbg_engine::GameModel::from_text(&text).unwrap();
//! let native = rbg_jit::compile(&game).unwrap();
//! let mut r = native.reasoner();
//! let mut moves = rbg_engine::MoveList::default();
//! r.legal_moves(&native.initial_state(), &mut moves);
//! ```

mod gen;
mod probe;
mod record;
mod rt;

use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

use cranelift_codegen::ir::types::{I32, I64};
use cranelift_codegen::ir::{AbiParam, Signature};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_module::{FuncId, Linkage, Module};
use jit_support::Memory;
use rbg_engine::raw::{Compiled, NONE};
use rbg_engine::{GameModel, Native, NativeWalker};

use gen::{Callees, Mode, Walk};
use rt::{KeeperFn, WalkFn};

/// Why code generation failed (an unsupported host, or a Cranelift error).
#[derive(Clone, Debug)]
pub struct Error(pub String);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "native code generation failed: {}", self.0)
    }
}

impl std::error::Error for Error {}

/// Which engine plays a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// The table-driven interpreter of `rbg-engine`.
    Interp,
    /// Machine code generated at load time.
    Native,
}

impl Engine {
    /// The default engine: native code where Cranelift generates it
    /// (x86-64 and aarch64), the interpreter elsewhere.
    pub fn default_for_host() -> Engine {
        if cfg!(any(target_arch = "x86_64", target_arch = "aarch64")) {
            Engine::Native
        } else {
            Engine::Interp
        }
    }

    /// Prepares `game` for this engine.
    pub fn prepare(self, game: &GameModel) -> Result<GameModel, Error> {
        match self {
            Engine::Interp => Ok(game.interpreted()),
            Engine::Native => compile(game),
        }
    }
}

impl std::str::FromStr for Engine {
    type Err = String;
    fn from_str(s: &str) -> Result<Engine, String> {
        match s {
            "interp" => Ok(Engine::Interp),
            "native" => Ok(Engine::Native),
            _ => Err(format!("unknown engine {s:?} (expected interp or native)")),
        }
    }
}

/// The generated code of one game, with the tables it reads.
pub(crate) struct Code {
    /// The tables; the code embeds their addresses.
    pub c: Arc<Compiled>,
    /// The rules' walk.
    pub rules: WalkFn,
    /// The keeper's move (its prefix, then the rules' walk).
    pub keeper: KeeperFn,
    /// Processor time spent generating the code.
    pub time: Duration,
    /// The largest stack frame of a walk (bytes, without the return
    /// address): the stack a level takes.
    pub frame: u32,
    /// The keyed copy of the rules' walk ([`compile_keyed`]).
    pub keyed: Option<Keyed>,
    /// The code's memory (walkers hold the `Code` by an `Arc`, so it
    /// outlives every run of the code).
    _memory: Memory,
}

/// The keyed copy of the rules' walk ([`compile_keyed`]) and the table it
/// reads.
pub(crate) struct Keyed {
    /// The walk: as the rules', writing each move's key beside its end.
    pub rules: WalkFn,
    /// Of every action, its atoms' key `base + (vertex & mask)` as
    /// `[base, mask]`; the last entry for every larger action. The code
    /// embeds its address.
    pub _table: Arc<[[u32; 2]]>,
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

/// Generates machine code for `game`; returns the game played by it.
pub fn compile(game: &GameModel) -> Result<GameModel, Error> {
    compile_with(game, None)
}

/// [`compile`], with a copy of the rules' walk that also writes the key of
/// each move's first atom (`rbg_engine::NativeWalker::legal_moves_keyed`),
/// for environments that number atoms: atom `(action, vertex)` has key
/// `base + (vertex & mask)` where `[base, mask] = table[min(action, len -
/// 1)]`, and a move without atoms has none (it never happens in RBG: a move
/// ends with its switch). Each key is computed where the move's first
/// modifier is pushed, or at the switch when it has none, with the table's
/// entry as constants, so a recorded move stores one value more; the plain
/// walk (playouts) is unchanged. `table` must not be empty.
pub fn compile_keyed(game: &GameModel, table: &[[u32; 2]]) -> Result<GameModel, Error> {
    if table.is_empty() {
        return Err(Error("an empty key table".into()));
    }
    compile_with(game, Some(table.into()))
}

fn compile_with(game: &GameModel, keys: Option<Arc<[[u32; 2]]>>) -> Result<GameModel, Error> {
    let code = build(Arc::new(game.compiled().clone()), keys)?;
    Ok(game.with_native(Arc::new(Engineered {
        code: Arc::new(code),
    })))
}

fn err(e: impl fmt::Display) -> Error {
    Error(e.to_string())
}

fn build(c: Arc<Compiled>, keys: Option<Arc<[[u32; 2]]>>) -> Result<Code, Error> {
    let start = jit_support::cpu_time();
    // The workspace lives in the pinned register while generated code runs
    // (set by the entry functions), so no value spans a whole walk. Without
    // Cranelift's optimisations: generation -30%, the code as fast (see the
    // performance notes).
    let mut module = jit_support::module(true, false).map_err(Error)?;
    let call_conv = module.isa().default_call_conv();
    let ptr = I64;
    let sig = |params: &[cranelift_codegen::ir::Type], ret: Option<cranelift_codegen::ir::Type>| {
        let mut s = Signature::new(call_conv);
        s.params.extend(params.iter().map(|&t| AbiParam::new(t)));
        s.returns.extend(ret.map(AbiParam::new));
        s
    };
    let walk_sig = sig(&[I32; 5], Some(I32));
    let entry_sig = sig(&[ptr, I32, I32, I32, I32], Some(I32));
    let probe_sig = sig(&[ptr, I32], Some(I32));
    let rules_id = module
        .declare_function("rules", Linkage::Local, &walk_sig)
        .map_err(err)?;
    let mut pattern_ids: Vec<Option<FuncId>> = vec![None; c.starts.len()];
    for k in gen::walked_patterns(&c) {
        let id = module
            .declare_function(&format!("pattern_{k}"), Linkage::Local, &walk_sig)
            .map_err(err)?;
        pattern_ids[k as usize] = Some(id);
    }
    let probes = &c.probes;
    let probe_ids: Vec<Option<FuncId>> = (0..c.starts.len())
        .map(|k| {
            let pc = probes.start[k];
            if k == 0 || pc == NONE {
                return Ok(None);
            }
            module
                .declare_function(&format!("probe_{k}"), Linkage::Local, &probe_sig)
                .map(Some)
                .map_err(err)
        })
        .collect::<Result<_, _>>()?;
    let keeper_sig = sig(&[I32, I32], Some(I32));
    let keeper_entry_sig = sig(&[ptr, I32, I32], Some(I32));
    let keeper_id = module
        .declare_function("keeper", Linkage::Local, &keeper_sig)
        .map_err(err)?;
    let keyed_id = match keys {
        Some(_) => Some(
            module
                .declare_function("rules_keyed", Linkage::Local, &walk_sig)
                .map_err(err)?,
        ),
        None => None,
    };
    let mut ctx = module.make_context();
    let mut fctx = FunctionBuilderContext::new();
    for (k, id) in probe_ids.iter().enumerate() {
        let Some(id) = *id else { continue };
        ctx.func.signature = probe_sig.clone();
        let b = FunctionBuilder::new(&mut ctx.func, &mut fctx);
        probe::emit(&c, probes.start[k], b);
        module.define_function(id, &mut ctx).map_err(err)?;
        module.clear_context(&mut ctx);
    }
    let mut frame = 0;
    // (name, function, the function it calls for the next level, mode or
    // `None` for the keeper's, which calls the rules' walk, and whether it
    // is the keyed copy of the rules').
    let mut funcs = vec![
        (
            "rules".to_string(),
            rules_id,
            rules_id,
            Some(Mode::Rules),
            false,
        ),
        ("keeper".to_string(), keeper_id, rules_id, None, false),
    ];
    if let Some(id) = keyed_id {
        funcs.push(("rules_keyed".to_string(), id, id, Some(Mode::Rules), true));
    }
    for (k, id) in pattern_ids.iter().enumerate() {
        if let Some(id) = *id {
            funcs.push((
                format!("pattern_{k}"),
                id,
                id,
                Some(Mode::Pattern(k as u32)),
                false,
            ));
        }
    }
    for (name, fid, this_id, mode, keyed) in funcs {
        ctx.func.signature = match mode {
            Some(_) => walk_sig.clone(),
            None => keeper_sig.clone(),
        };
        let this = module.declare_func_in_func(this_id, &mut ctx.func);
        let patterns = pattern_ids
            .iter()
            .map(|id| id.map(|id| module.declare_func_in_func(id, &mut ctx.func)))
            .collect();
        let probe_refs = probe_ids
            .iter()
            .map(|id| id.map(|id| module.declare_func_in_func(id, &mut ctx.func)))
            .collect();
        let sig_ws = ctx.func.import_signature(sig(&[ptr], None));
        let sig_level = ctx.func.import_signature(sig(&[ptr, I32], Some(ptr)));
        let sig_watch = ctx
            .func
            .import_signature(sig(&[ptr, I32, I32, I32, I32, I32], Some(I32)));
        let sig_grow = ctx.func.import_signature(sig(&[ptr, I64, I32], None));
        let sig_kept = ctx
            .func
            .import_signature(sig(&[ptr, I32, I32, I32, I32], Some(I32)));
        let callees = Callees {
            this,
            patterns,
            probes: probe_refs,
            sig_ws,
            sig_level,
            sig_watch,
            sig_grow,
            sig_kept,
            keys: keys.clone().filter(|_| keyed),
        };
        let t0 = Instant::now();
        let b = FunctionBuilder::new(&mut ctx.func, &mut fctx);
        match mode {
            Some(mode) => Walk::emit(&c, mode, b, &callees),
            None => Walk::emit_keeper(&c, b, &callees),
        }
        let t1 = Instant::now();
        // Debugging aids: `RBG_JIT_DUMP` prints the machine code,
        // `RBG_JIT_IR` the Cranelift IR, `RBG_JIT_TRACE` the size and
        // generation time of each walk;
        // `RBG_JIT_BIN=DIR` writes each walk's code to `DIR/NAME.bin` (for
        // `objdump -b binary -m i386:x86-64`, beside callgrind's counts).
        if std::env::var_os("RBG_JIT_DUMP").is_some() {
            ctx.set_disasm(true);
        }
        if std::env::var_os("RBG_JIT_IR").is_some() {
            eprintln!("{name}:\n{}", ctx.func.display());
        }
        let insts = ctx.func.dfg.num_insts();
        let blocks = ctx.func.dfg.num_blocks();
        module.define_function(fid, &mut ctx).map_err(err)?;
        let frame_size = ctx.compiled_code().map_or(0, |c| c.frame_size);
        if let (Some(dir), Some(cc)) = (std::env::var_os("RBG_JIT_BIN"), ctx.compiled_code()) {
            let _ = std::fs::write(
                std::path::Path::new(&dir).join(format!("{name}.bin")),
                cc.code_buffer(),
            );
        }
        frame = frame.max(frame_size);
        if let Some(vcode) = ctx.compiled_code().and_then(|c| c.vcode.as_ref()) {
            eprintln!("{vcode}");
        }
        if std::env::var_os("RBG_JIT_TRACE").is_some() {
            eprintln!(
                "{name}: emit {:?} compile {:?} insts {insts} blocks {blocks} frame {frame_size}",
                t1 - t0,
                t1.elapsed()
            );
        }
        module.clear_context(&mut ctx);
    }
    // The functions Rust calls: they set the pinned register.
    let mut entries = [
        (rules_id, entry_sig.clone(), None, &[NONE as i64, 0][..]),
        (keeper_id, keeper_entry_sig, Some(gen::RunMode::Keeper), &[]),
    ]
    .into_iter()
    .chain(keyed_id.map(|id| (id, entry_sig, None, &[NONE as i64, 0][..])))
    .enumerate()
    .map(|(i, (target, entry_sig, run, extra))| {
        let id = module
            .declare_function(&format!("entry_{i}"), Linkage::Local, &entry_sig)
            .map_err(err)?;
        ctx.func.signature = entry_sig;
        let callee = module.declare_func_in_func(target, &mut ctx.func);
        gen::emit_entry(
            FunctionBuilder::new(&mut ctx.func, &mut fctx),
            callee,
            run,
            extra,
        );
        module.define_function(id, &mut ctx).map_err(err)?;
        module.clear_context(&mut ctx);
        Ok(id)
    })
    .collect::<Result<Vec<_>, Error>>()?
    .into_iter();
    let (rules_entry, keeper_entry) = (entries.next().unwrap(), entries.next().unwrap());
    let keyed_entry = entries.next();
    module.finalize_definitions().map_err(err)?;
    let p = module.get_finalized_function(rules_entry);
    let k = module.get_finalized_function(keeper_entry);
    let keyed = keyed_entry.zip(keys).map(|(id, table)| Keyed {
        // SAFETY: defined with the signature of `WalkFn`, as the rules'.
        rules: unsafe {
            std::mem::transmute::<*const u8, WalkFn>(module.get_finalized_function(id))
        },
        _table: table,
    });
    Ok(Code {
        c,
        // SAFETY: the function was defined with the signature of `WalkFn`
        // in the host's default calling convention ("C").
        rules: unsafe { std::mem::transmute::<*const u8, WalkFn>(p) },
        // SAFETY: defined with the signature of `KeeperFn`.
        keeper: unsafe { std::mem::transmute::<*const u8, KeeperFn>(k) },
        time: jit_support::cpu_time().saturating_sub(start),
        frame,
        keyed,
        _memory: Memory::new(module),
    })
}
