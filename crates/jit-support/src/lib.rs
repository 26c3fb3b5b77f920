//! What both native engines (`rbg-jit`, `rg-jit`) need from Cranelift
//! besides generating their code: a JIT module for the host with the
//! engines' settings ([`module`]), the memory of the finished code, freed
//! when its owner goes ([`Memory`]), and the processor time code generation
//! is measured in ([`cpu_time`]).

use std::time::{Duration, Instant};

use cranelift_codegen::settings::{self, Configurable};
use cranelift_jit::{JITBuilder, JITModule};

/// A JIT module for the host: no verifier (it doubled the generation
/// time), no position-independent code; with `optimise`, Cranelift's
/// optimisations (`opt_level=speed`: the e-graph pass, alias analysis),
/// else none; with `pinned_reg`, Cranelift's pinned register is reserved
/// for the generated code.
pub fn module(pinned_reg: bool, optimise: bool) -> Result<JITModule, String> {
    let err = |e: &dyn std::fmt::Display| e.to_string();
    let mut flags = settings::builder();
    let opt_level = if optimise { "speed" } else { "none" };
    flags.set("opt_level", opt_level).map_err(|e| err(&e))?;
    flags.set("enable_verifier", "false").map_err(|e| err(&e))?;
    flags
        .set("use_colocated_libcalls", "false")
        .map_err(|e| err(&e))?;
    flags.set("is_pic", "false").map_err(|e| err(&e))?;
    if pinned_reg {
        flags
            .set("enable_pinned_reg", "true")
            .map_err(|e| err(&e))?;
    }
    let isa = cranelift_native::builder()
        .map_err(|e| err(&e))?
        .finish(settings::Flags::new(flags))
        .map_err(|e| err(&e))?;
    Ok(JITModule::new(JITBuilder::with_isa(
        isa,
        cranelift_module::default_libcall_names(),
    )))
}

/// The memory of a finished module's code. Its owner keeps it as long as
/// that code may run (the engines' walkers hold the code by an `Arc`); it
/// is freed on drop.
pub struct Memory(Option<JITModule>);

impl Memory {
    /// Takes the memory of `module`, whose definitions are finalized.
    pub fn new(module: JITModule) -> Memory {
        Memory(Some(module))
    }
}

// SAFETY: the module is not touched after it is finished, except to free
// it on drop, which needs exclusive ownership.
unsafe impl Send for Memory {}
// SAFETY: as for `Send`: a shared `Memory` gives no access to the module.
unsafe impl Sync for Memory {}

impl Drop for Memory {
    fn drop(&mut self) {
        if let Some(m) = self.0.take() {
            // SAFETY: the owner drops the memory only once no code of the
            // module can run any more (see the type's doc).
            unsafe { m.free_memory() };
        }
    }
}

/// The calling thread's processor time (wall-clock time where it is not
/// available): code generation is timed in processor time, which a busy
/// machine does not inflate.
pub fn cpu_time() -> Duration {
    #[cfg(unix)]
    {
        let mut t = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `clock_gettime` writes the timespec it is given.
        if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } == 0 {
            return Duration::new(t.tv_sec as u64, t.tv_nsec as u32);
        }
    }
    static EPOCH: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    EPOCH.get_or_init(Instant::now).elapsed()
}
