//! A formula program compiled for batched evaluation. The stack machine's positions are known
//! before it runs, so every value gets a fixed register: variables are read in place instead
//! of pushed, each operator becomes one instruction `dst = a op b`, a constant operand is
//! carried in the instruction itself (no register to fill per batch), and operators on
//! constants alone are folded once. Every remaining operation is the one
//! [`Program::eval`](super::Program::eval) does on the same operands in the same order, so
//! results are bit-identical to it.
use super::op::{MAX_INSTRUCTIONS, Op, protected_div, protected_sqrt};
use super::policy::FORMULA_LANES;

/// Registers 0–3 hold W, N, NP, M; temporaries follow, one per stack position.
const VARIABLES: usize = 4;
/// The most registers a program can use: the variables and a temporary per stack position
/// below the top (at most 33 of them for 64 instructions), rounded up to a power of two.
const MAX_REGISTERS: usize = 64;
/// Lanes of a full batch.
const LANES: usize = FORMULA_LANES;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Add,
    Sub,
    Mul,
    Div,
    Sqrt,
}

impl Kind {
    /// The scalar operation, exactly as the stack interpreter does it.
    fn apply(self, a: f64, b: f64) -> f64 {
        match self {
            Kind::Add => a + b,
            Kind::Sub => a - b,
            Kind::Mul => a * b,
            Kind::Div => protected_div(a, b),
            Kind::Sqrt => protected_sqrt(a),
        }
    }
}

/// `out[i]` = √|a[i]|, two lanes per `sqrtpd` where SSE2 is there (every x86-64): the
/// square root is the slowest operation, and the scalar one in `libm` is an `asm!` block the
/// compiler cannot vectorise. IEEE 754 square roots are correctly rounded, so the bits are
/// those of [`protected_sqrt`].
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
fn sqrt_lanes<const N: usize>(a: &[f64; N], out: &mut [f64; N]) {
    use core::arch::x86_64::{_mm_cvtsd_f64, _mm_set_pd, _mm_sqrt_pd, _mm_unpackhi_pd};
    for (a, out) in a.chunks_exact(2).zip(out.chunks_exact_mut(2)) {
        // SAFETY: the cfg gate guarantees SSE2 on the compiling target, which is all these
        // intrinsics need; they take values, not pointers, and touch no memory.
        let (low, high) = unsafe {
            let roots = _mm_sqrt_pd(_mm_set_pd(libm::fabs(a[1]), libm::fabs(a[0])));
            (
                _mm_cvtsd_f64(roots),
                _mm_cvtsd_f64(_mm_unpackhi_pd(roots, roots)),
            )
        };
        out[0] = low;
        out[1] = high;
    }
}

/// `out[i]` = √|a[i]|.
#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
fn sqrt_lanes<const N: usize>(a: &[f64; N], out: &mut [f64; N]) {
    for (&a, out) in a.iter().zip(out) {
        *out = protected_sqrt(a);
    }
}

/// A value on the compile-time stack, and a program's result.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Value {
    Register(u8),
    Constant(f64),
}

/// Where an instruction's operands come from: two registers, or a register and the
/// instruction's constant on the right or on the left (operand order is kept, so `k - a`
/// and `k / a` are their own shapes and every result has the interpreter's bits).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Shape {
    Registers,
    ConstantRight,
    ConstantLeft,
}

/// `registers[dst] = registers[a] kind registers[b]`, with `constant` standing for one
/// operand as `shape` says (`b` and `constant` unused by `Sqrt`).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Instruction {
    kind: Kind,
    shape: Shape,
    dst: u8,
    a: u8,
    b: u8,
    constant: f64,
}

/// A program in register form. Built from a validated instruction list.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Registers {
    code: [Instruction; MAX_INSTRUCTIONS],
    len: u8,
    /// Registers in use: the variables, then temporaries.
    used: u8,
    result: Value,
}

impl Registers {
    /// Compiles `ops`, which must be a validated program (as `Program::from_ops` checks);
    /// anything else compiles to a program that returns W rather than panicking.
    pub(crate) fn compile(ops: &[Op]) -> Registers {
        let mut out = Registers::fallback();
        let mut stack = [Value::Constant(0.0); MAX_INSTRUCTIONS];
        let mut top = 0usize;
        let mut len = 0usize;
        for &op in ops {
            let kind = match op {
                Op::Wins | Op::Visits | Op::ParentVisits | Op::Moves | Op::Const(_) => {
                    let value = match op {
                        Op::Wins => Value::Register(0),
                        Op::Visits => Value::Register(1),
                        Op::ParentVisits => Value::Register(2),
                        Op::Moves => Value::Register(3),
                        Op::Const(c) => Value::Constant(f64::from(c)),
                        _ => Value::Constant(0.0),
                    };
                    let Some(slot) = stack.get_mut(top) else {
                        return Registers::fallback();
                    };
                    *slot = value;
                    top += 1;
                    continue;
                }
                Op::Add => Kind::Add,
                Op::Sub => Kind::Sub,
                Op::Mul => Kind::Mul,
                Op::Div => Kind::Div,
                Op::Sqrt => Kind::Sqrt,
            };
            let arity = if kind == Kind::Sqrt { 1 } else { 2 };
            let Some(base) = top.checked_sub(arity) else {
                return Registers::fallback();
            };
            let (a, b) = (stack[base], stack[top - 1]);
            top = base + 1;
            let (shape, a, b, constant) = match (a, b) {
                (Value::Constant(x), Value::Constant(y)) => {
                    stack[base] = Value::Constant(kind.apply(x, y));
                    continue;
                }
                (Value::Register(a), Value::Register(b)) => (Shape::Registers, a, b, 0.0),
                (Value::Register(a), Value::Constant(k)) => (Shape::ConstantRight, a, a, k),
                (Value::Constant(k), Value::Register(b)) => (Shape::ConstantLeft, b, b, k),
            };
            let dst = (VARIABLES + base) as u8;
            let Some(slot) = out.code.get_mut(len) else {
                return Registers::fallback();
            };
            *slot = Instruction {
                kind,
                shape,
                dst,
                a,
                b,
                constant,
            };
            len += 1;
            out.used = out.used.max(dst + 1);
            stack[base] = Value::Register(dst);
        }
        if top != 1 || usize::from(out.used) > MAX_REGISTERS {
            return Registers::fallback();
        }
        out.len = len as u8;
        out.result = stack[0];
        out
    }

    /// What an invalid list compiles to: W, with no code.
    fn fallback() -> Registers {
        let nop = Instruction {
            kind: Kind::Add,
            shape: Shape::Registers,
            dst: 0,
            a: 0,
            b: 0,
            constant: 0.0,
        };
        Registers {
            code: [nop; MAX_INSTRUCTIONS],
            len: 0,
            used: VARIABLES as u8,
            result: Value::Register(0),
        }
    }

    /// `out[i]` = the program on lane `i` of `vars` (W, N, NP, M) for `i < len`. Runs 2, 4,
    /// 6 or 8 lanes wide, whichever covers `len`: fixed widths let each operation compile to a
    /// few vector instructions, and the last lanes of a node's visited children are rarely
    /// full (divisions and square roots in empty lanes cost as much as in full ones).
    pub(crate) fn eval_lanes(&self, vars: &[[f64; LANES]; 4], len: usize, out: &mut [f64; LANES]) {
        match len {
            0 => {}
            1..=2 => self.eval_batch::<2>(vars, out),
            3..=4 => self.eval_batch::<4>(vars, out),
            5..=6 => self.eval_batch::<6>(vars, out),
            _ => self.eval_batch::<LANES>(vars, out),
        }
    }

    /// The first `N` lanes, on the smallest register file that holds the program (it is
    /// initialised on every call, so its size counts).
    fn eval_batch<const N: usize>(&self, vars: &[[f64; LANES]; 4], out: &mut [f64; LANES]) {
        let values = match self.used {
            0..=8 => self.run::<N, 8>(vars),
            9..=16 => self.run::<N, 16>(vars),
            17..=32 => self.run::<N, 32>(vars),
            _ => self.run::<N, MAX_REGISTERS>(vars),
        };
        for (o, &value) in out.iter_mut().zip(&values) {
            *o = value;
        }
    }

    /// Runs the code over `N` lanes with `R` registers (a power of two, at least `used`:
    /// register numbers are masked, which removes bounds checks and never changes them).
    fn run<const N: usize, const R: usize>(&self, vars: &[[f64; LANES]; 4]) -> [f64; N] {
        let mask = R - 1;
        let mut registers = [[0.0f64; N]; R];
        for (register, variable) in registers.iter_mut().zip(vars) {
            for (r, &v) in register.iter_mut().zip(variable) {
                *r = v;
            }
        }
        for instruction in &self.code[..usize::from(self.len)] {
            let a = registers[usize::from(instruction.a) & mask];
            let b = registers[usize::from(instruction.b) & mask];
            let k = instruction.constant;
            let dst = &mut registers[usize::from(instruction.dst) & mask];
            // One loop per kind and shape, so each compiles to straight vector code.
            let lanes = a.iter().zip(&b).zip(dst.iter_mut());
            match (instruction.kind, instruction.shape) {
                (Kind::Sqrt, _) => sqrt_lanes(&a, dst),
                (Kind::Add, Shape::Registers) => lanes.for_each(|((a, b), d)| *d = a + b),
                (Kind::Sub, Shape::Registers) => lanes.for_each(|((a, b), d)| *d = a - b),
                (Kind::Mul, Shape::Registers) => lanes.for_each(|((a, b), d)| *d = a * b),
                (Kind::Div, Shape::Registers) => {
                    lanes.for_each(|((&a, &b), d)| *d = protected_div(a, b))
                }
                (Kind::Add, Shape::ConstantRight) => lanes.for_each(|((a, _), d)| *d = a + k),
                (Kind::Sub, Shape::ConstantRight) => lanes.for_each(|((a, _), d)| *d = a - k),
                (Kind::Mul, Shape::ConstantRight) => lanes.for_each(|((a, _), d)| *d = a * k),
                (Kind::Div, Shape::ConstantRight) => {
                    lanes.for_each(|((&a, _), d)| *d = protected_div(a, k))
                }
                (Kind::Add, Shape::ConstantLeft) => lanes.for_each(|((a, _), d)| *d = k + a),
                (Kind::Sub, Shape::ConstantLeft) => lanes.for_each(|((a, _), d)| *d = k - a),
                (Kind::Mul, Shape::ConstantLeft) => lanes.for_each(|((a, _), d)| *d = k * a),
                (Kind::Div, Shape::ConstantLeft) => {
                    lanes.for_each(|((&a, _), d)| *d = protected_div(k, a))
                }
            }
        }
        match self.result {
            Value::Register(r) => registers[usize::from(r) & mask],
            Value::Constant(c) => [c; N],
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::match3::{Formula, Op, Program};

    /// The batched register form against the stack interpreter, bit for bit, on `n` points.
    fn agree(program: &Program, n: usize) {
        let mut points = [[0.0f64; 4]; 20];
        let specials = [0.0, 1.0, -1.0, 0.5, 3.25, -7.0, 1e300, -1e-300];
        for (i, point) in points.iter_mut().enumerate() {
            for (j, x) in point.iter_mut().enumerate() {
                *x = specials[(i * 3 + j * 5) % specials.len()];
            }
        }
        let mut batched = [0.0f64; 20];
        program.eval_all(&points[..n], &mut batched[..n]);
        for (v, got) in points[..n].iter().zip(&batched) {
            let want = program.eval(v[0], v[1], v[2], v[3]);
            assert!(want.to_bits() == got.to_bits() || want.is_nan() && got.is_nan());
        }
    }

    #[test]
    fn deepest_program_agrees() {
        use Op::*;
        // 32 leaves pushed before any operator: the deepest stack 64 instructions allow,
        // half of it constants, then a chain of operators of every kind.
        let mut ops = [Wins; 63];
        for (i, op) in ops[..32].iter_mut().enumerate() {
            *op = match i % 4 {
                0 => Const(i as f32 * 0.75),
                1 => Visits,
                2 => Const(0.0),
                _ => Moves,
            };
        }
        for (i, op) in ops[32..].iter_mut().enumerate() {
            *op = [Add, Sub, Mul, Div][i % 4];
        }
        let program = Program::from_ops(&ops).unwrap();
        for n in 1..=20 {
            agree(&program, n);
        }
        // The variables and a temporary per stack position below the top; constants ride
        // in the instructions.
        assert_eq!(program.registers.used, 4 + 31);
    }

    #[test]
    fn constants_fold_to_the_interpreters_bits() {
        use Op::*;
        // sqrt(2) / (0 * 5) is the protected 1; the rest folds too, only W is left.
        let program = Program::from_ops(&[
            Const(2.0),
            Sqrt,
            Const(0.0),
            Const(5.0),
            Mul,
            Div,
            Const(1.0),
            Const(3.0),
            Div,
            Sub,
            Wins,
            Mul,
        ])
        .unwrap();
        assert_eq!(program.registers.len, 1);
        for n in 1..=9 {
            agree(&program, n);
        }
        let leaf = Program::from_ops(&[Const(4.5)]).unwrap();
        assert_eq!(leaf.registers.len, 0);
        agree(&leaf, 3);
    }

    #[test]
    fn invalid_lists_compile_to_w_without_panicking() {
        use super::Registers;
        use Op::*;
        let too_long = [Wins; 70];
        for ops in [&[Add][..], &[Wins, Wins][..], &[][..], &too_long[..]] {
            let registers = Registers::compile(ops);
            let mut out = [0.0; super::LANES];
            registers.eval_lanes(
                &[
                    [2.5; super::LANES],
                    [1.0; super::LANES],
                    [3.0; super::LANES],
                    [4.0; super::LANES],
                ],
                1,
                &mut out,
            );
            assert_eq!(out[0], 2.5);
        }
    }
}
