//! Arithmetic expressions, comparisons and variable assignments, and
//! patterns (by the pattern walk, a probe, or the memo).

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I32, I64, I8};
use cranelift_codegen::ir::{Block, BlockArg, InstBuilder, Value};
use rbg_engine::raw::{apply_op, Act, Expr, Op, Tr, NONE};
use rbg_lang::ast::{ArithOp, CmpOp};

use super::{Walk, FLAGS};
use crate::rt::Off;

impl<'a, 'b> Walk<'a, 'b> {
    /// An arithmetic expression as an i64; jumps to `fail` where the
    /// interpreter's evaluation is undefined (overflow, division by zero).
    pub(super) fn expr(&mut self, e: &Expr, fail: Block) -> Value {
        match e {
            Expr::Const(k) => self.b.ins().iconst(I64, *k),
            Expr::Var(x) => {
                let vars = self.wload(I64, Off::VARS);
                let val = self.b.ins().load(I32, FLAGS, vars, *x as i32 * 4);
                self.b.ins().sextend(I64, val)
            }
            Expr::Count(p) => {
                let counts = self.wload(I64, Off::COUNTS);
                let val = self.b.ins().load(I32, FLAGS, counts, *p as i32 * 4);
                self.b.ins().sextend(I64, val)
            }
            Expr::Bin(l, op, r) => {
                if let (Expr::Const(x), Expr::Const(y)) = (&**l, &**r) {
                    match apply_op(*x, *op, *y) {
                        Some(k) => return self.b.ins().iconst(I64, k),
                        None => {
                            self.b.ins().jump(fail, &[]);
                            let dead = self.b.create_block();
                            self.b.switch_to_block(dead);
                            return self.b.ins().iconst(I64, 0);
                        }
                    }
                }
                let x = self.expr(l, fail);
                let y = self.expr(r, fail);
                let (val, overflow) = match op {
                    ArithOp::Add => self.b.ins().sadd_overflow(x, y),
                    ArithOp::Sub => self.b.ins().ssub_overflow(x, y),
                    ArithOp::Mul => self.b.ins().smul_overflow(x, y),
                    ArithOp::Div => {
                        let zero = self.b.ins().icmp_imm(IntCC::Equal, y, 0);
                        let minus1 = self.b.ins().icmp_imm(IntCC::Equal, y, -1);
                        let min = self.b.ins().icmp_imm(IntCC::Equal, x, i64::MIN);
                        let ovf = self.b.ins().band(minus1, min);
                        let bad = self.b.ins().bor(zero, ovf);
                        let ok = self.b.ins().bxor_imm(bad, 1);
                        self.require(ok, fail);
                        let q = self.b.ins().sdiv(x, y);
                        let no = self.b.ins().iconst(I8, 0);
                        (q, no)
                    }
                };
                let ok = self.b.ins().bxor_imm(overflow, 1);
                self.require(ok, fail);
                val
            }
        }
    }

    /// Decides pattern automaton `k` at `v` (i32 0 or 1), with the memo.
    pub(super) fn pattern(&mut self, k: u32, v: Value) -> Value {
        let c = self.c;
        let m = c.memo_index[k as usize];
        if m == NONE {
            return self.pattern_search(k, v);
        }
        let memo = self.wload(I64, Off::MEMO);
        let i = self.b.ins().uextend(I64, v);
        let i = self.b.ins().iadd_imm(i, m as i64 * c.num_vertices as i64);
        let off = self.b.ins().ishl_imm(i, 3);
        let a = self.b.ins().iadd(memo, off);
        let e = self.b.ins().load(I64, FLAGS, a, 0);
        let version = self.wload(I64, Off::VERSION);
        let ev = self.b.ins().ushr_imm(e, 1);
        let hit = self.b.ins().icmp(IntCC::Equal, ev, version);
        let (hitb, miss, join) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        self.b.append_block_param(join, I32);
        self.b.ins().brif(hit, hitb, &[], miss, &[]);
        self.b.switch_to_block(hitb);
        let r = self.b.ins().band_imm(e, 1);
        let r = self.b.ins().ireduce(I32, r);
        self.b.ins().jump(join, &[BlockArg::Value(r)]);
        self.b.switch_to_block(miss);
        let r = self.pattern_search(k, v);
        let memo = self.wload(I64, Off::MEMO);
        let a = self.b.ins().iadd(memo, off);
        let vs = self.b.ins().ishl_imm(version, 1);
        let r64 = self.b.ins().uextend(I64, r);
        let e = self.b.ins().bor(vs, r64);
        self.b.ins().store(FLAGS, e, a, 0);
        self.b.ins().jump(join, &[BlockArg::Value(r)]);
        self.b.switch_to_block(join);
        self.b.block_params(join)[0]
    }

    pub(super) fn pattern_search(&mut self, k: u32, v: Value) -> Value {
        if let Some(probe) = self.f.probes[k as usize] {
            let board = self.wload(I64, Off::BOARD);
            let call = self.b.ins().call(probe, &[board, v]);
            self.called();
            return self.b.inst_results(call)[0];
        }
        let start = self.b.ins().iconst(I32, self.c.starts[k as usize] as i64);
        let level = self.level();
        let lvl = self.b.ins().iadd_imm(level, 1);
        let walk = self.f.patterns[k as usize].expect("a walked pattern");
        let none = self.b.ins().iconst(I32, NONE as i64);
        let zero = self.b.ins().iconst(I32, 0);
        let call = self.b.ins().call(walk, &[start, v, lvl, none, zero]);
        self.called();
        self.b.inst_results(call)[0]
    }

    /// Whether test `tr` (a piece test, filter, no-op, comparison or
    /// pattern) passes at `v` (an i8); jumps to `fail` where a comparison
    /// is undefined.
    pub(super) fn test(&mut self, tr: &Tr, v: Value, fail: Block) -> Value {
        let c = self.c;
        match tr.op {
            Op::On => {
                let p = self.piece(v);
                self.in_set(p, self.on_row(tr.arg))
            }
            Op::Filter => {
                let tab = self.table(&c.filter_ok);
                let tab = self.b.ins().iadd_imm(tab, tr.arg as i64);
                let a = self.addr(tab, v, 1);
                self.b.ins().uload8(I32, FLAGS, a, 0)
            }
            Op::Compare => {
                let Act::Compare(l, op, r) = &c.acts[tr.to as usize] else {
                    unreachable!("decoded from a comparison")
                };
                let x = self.expr(l, fail);
                let y = self.expr(r, fail);
                let cc = match op {
                    CmpOp::Lt => IntCC::SignedLessThan,
                    CmpOp::Le => IntCC::SignedLessThanOrEqual,
                    CmpOp::Eq => IntCC::Equal,
                    CmpOp::Ne => IntCC::NotEqual,
                    CmpOp::Gt => IntCC::SignedGreaterThan,
                    CmpOp::Ge => IntCC::SignedGreaterThanOrEqual,
                };
                self.b.ins().icmp(cc, x, y)
            }
            Op::Pattern => {
                let holds = self.pattern(tr.arg >> 1, v);
                let negated = tr.arg & 1 != 0;
                self.b
                    .ins()
                    .icmp_imm(IntCC::NotEqual, holds, negated as i64)
            }
            Op::Noop => self.b.ins().iconst(I32, 1),
            op => unreachable!("not a test: {op:?}"),
        }
    }

    /// The value assignment `[$ var = e]` stores (an i32); jumps to `fail`
    /// where it is undefined or out of the variable's bounds.
    pub(super) fn assigned(&mut self, var: u32, e: &Expr, fail: Block) -> Value {
        let val = self.expr(e, fail);
        let lo = self
            .b
            .ins()
            .icmp_imm(IntCC::SignedGreaterThanOrEqual, val, 0);
        self.require(lo, fail);
        let hi = self.b.ins().icmp_imm(
            IntCC::SignedLessThanOrEqual,
            val,
            self.c.var_bounds[var as usize],
        );
        self.require(hi, fail);
        self.b.ins().ireduce(I32, val)
    }
}
