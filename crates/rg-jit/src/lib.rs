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
//!   chess.hrg (7,923 edges, 5,034 walked, 14 functions) ~0.75-0.8 s, ~160
//!   ms of it the pure checks' searches; as one function ~1 s (Cranelift's
//!   register allocation grows faster than a function). Leaf programs are
//!   capped at 2,000 instructions: 8,000 took chess to 0.84-0.91 s for no
//!   speed. Split games are generated without Cranelift's optimiser (a
//!   quarter of the time).
//! - Instructions of the playout loop (callgrind): direct resumes,
//!   known-path undo and inline records took breakthrough.hrg from 955K to
//!   751K per playout, ticTacToe.hrg 24.2K to 21.8K, connect4.hrg 88K to
//!   80K; leaf programs a further -4.4% (connect4.hrg), -2.0% (ticTacToe.hrg).
//! - Native against the interpreter (alternated `rbg --engine interp|native
//!   bench`): faster on most files, but not on all (ladders.hrg,
//!   dicerace.rg, knightthrough.hrg about 1.0), so RG stays interpreted by
//!   default. chess.hrg is no faster native: 60% of its time is one check
//!   with writes and visited sets, run by the interpreter.
//! - Next: checks with writes as native code, frames only at real choices
//!   (a node whose edges are exclusive comparisons needs none), native
//!   versions of the interpreter's local and dense visited stamps.

mod gen;
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
use rt::WalkFn;

/// Edges beyond this are left to the interpreter: code generation time
/// grows with the game (about 40 IR instructions per edge, in functions of
/// at most [`PART_EDGES`] edges).
pub const MAX_EDGES: usize = 20_000;

/// Edges of the searches of generated pure checks, all together, beyond
/// which further pure checks are left to the interpreter.
pub const MAX_PURE_EDGES: usize = 4_000;

/// Instructions of generated leaf programs, all together, beyond which
/// further programs are left to the interpreter.
pub const MAX_PROGRAM_INS: usize = 2_000;

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
    /// The move walk's functions (`gen::Parts`).
    pub walk: Vec<WalkFn>,
    /// Per target of the walk (edges, then resume blocks), the function
    /// that holds it.
    pub targets: Vec<u32>,
    /// Per node, its first resume block (`gen::frame_bases`).
    pub bases: Vec<u32>,
    /// Processor time spent generating the code.
    pub time: Duration,
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

fn build(game: GameModel, symbols: usize, part_edges: u32) -> Result<Code, Error> {
    let start = jit_support::cpu_time();
    let t = game.tables();
    let bases = gen::frame_bases(t);
    let parts = gen::Parts::new(t, &bases, part_edges);
    // Cranelift's optimiser costs a quarter of the generation time; large
    // games (several functions) go without it.
    let mut module = jit_support::module(false, parts.count == 1).map_err(Error)?;
    let call_conv = module.isa().default_call_conv();
    let mut sig = Signature::new(call_conv);
    sig.params
        .extend([I64, I64, I32, I32].iter().map(|&t| AbiParam::new(t)));
    sig.returns.push(AbiParam::new(I32));
    let mut ctx = module.make_context();
    let mut fctx = FunctionBuilderContext::new();
    // Leaf programs and leaf pure checks: functions of their own.
    let mut pure_ids = Vec::new();
    let (mut pure_edges, mut program_ins) = (0, 0);
    for c in 0..t.checks.len() {
        let program = gen::leaf_program(t, c)
            .filter(|&(a, b)| program_ins + (b - a) as usize <= MAX_PROGRAM_INS);
        let size = gen::leaf_pure(t, c);
        if program.is_none() && (size == 0 || pure_edges + size > MAX_PURE_EDGES) {
            pure_ids.push(None);
            continue;
        }
        let pid = module
            .declare_function(&format!("pure_{c}"), Linkage::Local, &sig)
            .map_err(err)?;
        ctx.func.signature = sig.clone();
        let helper = ctx.func.import_signature(sig.clone());
        let b = FunctionBuilder::new(&mut ctx.func, &mut fctx);
        match program {
            Some((a, end)) => {
                program_ins += (end - a) as usize;
                gen::emit_program(t, (a, end), b, helper);
            }
            None => {
                pure_edges += size;
                gen::emit_pure(t, c, b, helper);
            }
        }
        module.define_function(pid, &mut ctx).map_err(err)?;
        module.clear_context(&mut ctx);
        pure_ids.push(Some(pid));
    }
    if std::env::var_os("RG_JIT_TRACE").is_some() {
        eprintln!(
            "rg-jit: {} leaf checks ({program_ins} program instructions, {pure_edges} search edges) generated in {:?}",
            pure_ids.iter().flatten().count(),
            jit_support::cpu_time().saturating_sub(start)
        );
    }
    let mut ids = Vec::new();
    let bin_file = std::env::var_os("RG_JIT_BIN");
    let mut bin = Vec::new();
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
        let b = FunctionBuilder::new(&mut ctx.func, &mut fctx);
        gen::emit(t, b, helper, &pures, &bases, &parts, part);
        if std::env::var_os("RG_JIT_TRACE").is_some() {
            eprintln!(
                "rg-jit: walk {part}: {} IR instructions, {} blocks",
                ctx.func.dfg.num_insts(),
                ctx.func.dfg.num_blocks()
            );
        }
        module.define_function(id, &mut ctx).map_err(err)?;
        if let (Some(_), Some(cc)) = (&bin_file, ctx.compiled_code()) {
            bin.extend_from_slice(cc.code_buffer());
        }
        module.clear_context(&mut ctx);
        ids.push(id);
    }
    // `RG_JIT_BIN=FILE` writes the walk's machine code, its functions one
    // after the other (for `objdump -b binary -m i386:x86-64` beside
    // callgrind's counts).
    if let Some(f) = bin_file {
        let _ = std::fs::write(f, bin);
    }
    module.finalize_definitions().map_err(err)?;
    let walk = ids
        .iter()
        .map(|&id| {
            let p = module.get_finalized_function(id);
            // SAFETY: defined with the signature of `WalkFn` in the host's
            // default calling convention ("C").
            unsafe { std::mem::transmute::<*const u8, WalkFn>(p) }
        })
        .collect();
    Ok(Code {
        game,
        symbols,
        walk,
        targets: parts.target,
        bases,
        time: jit_support::cpu_time().saturating_sub(start),
        _memory: Memory::new(module),
    })
}
