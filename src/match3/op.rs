//! The instruction set of persona formulas ([`Op`]) and what each operator computes. The
//! stack interpreter ([`Program::eval`](super::Program::eval)), the batched register form and
//! the harness's GP trees all compute with [`protected_div`] and [`protected_sqrt`], so that
//! a formula gives the same bits whichever of them runs it.

/// Most instructions in a program: the binary form stores the count in one byte, and the
/// register form sizes its code by it.
pub const MAX_INSTRUCTIONS: usize = 64;

/// One instruction.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Op {
    /// a + b
    Add,
    /// a − b
    Sub,
    /// a × b
    Mul,
    /// a / b, or 1 when b = 0
    Div,
    /// √|a|
    Sqrt,
    /// Child wins (sum of rewards).
    Wins,
    /// Child visits.
    Visits,
    /// Parent visits.
    ParentVisits,
    /// The child's number of legal moves.
    Moves,
    /// A constant.
    Const(f32),
}

impl Op {
    /// (values popped, values pushed).
    pub(super) const fn arity(self) -> (usize, usize) {
        match self {
            Op::Add | Op::Sub | Op::Mul | Op::Div => (2, 1),
            Op::Sqrt => (1, 1),
            _ => (0, 1),
        }
    }

    /// The opcode byte of the binary form.
    pub(super) const fn code(self) -> u8 {
        match self {
            Op::Add => 0,
            Op::Sub => 1,
            Op::Mul => 2,
            Op::Div => 3,
            Op::Sqrt => 4,
            Op::Wins => 5,
            Op::Visits => 6,
            Op::ParentVisits => 7,
            Op::Moves => 8,
            Op::Const(_) => 9,
        }
    }

    /// The instruction of opcode `code` (the inverse of [`Op::code`]), `None` for an unknown
    /// code. A constant comes back as `Const(0.0)`: its value follows the opcode in the
    /// binary form, and the reader fills it in.
    pub(super) const fn from_code(code: u8) -> Option<Op> {
        Some(match code {
            0 => Op::Add,
            1 => Op::Sub,
            2 => Op::Mul,
            3 => Op::Div,
            4 => Op::Sqrt,
            5 => Op::Wins,
            6 => Op::Visits,
            7 => Op::ParentVisits,
            8 => Op::Moves,
            9 => Op::Const(0.0),
            _ => return None,
        })
    }
}

/// Protected division: `a / b`, or 1 when `b` is zero (of either sign), so that a formula
/// never divides by zero; every other case is the IEEE 754 quotient.
#[inline]
pub fn protected_div(a: f64, b: f64) -> f64 {
    if b == 0.0 { 1.0 } else { a / b }
}

/// Protected square root: √|a|, so that a formula never takes the root of a negative.
/// `libm` rather than `f64::sqrt` because the no_std core has no `std` maths; both are the
/// correctly rounded IEEE 754 root.
#[inline]
pub fn protected_sqrt(a: f64) -> f64 {
    libm::sqrt(libm::fabs(a))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn division_by_zero_is_one_and_the_rest_is_ieee() {
        assert_eq!(protected_div(3.0, 0.0), 1.0);
        assert_eq!(protected_div(-3.0, -0.0), 1.0);
        assert_eq!(protected_div(0.0, 0.0), 1.0);
        assert_eq!(protected_div(1.0, 3.0).to_bits(), (1.0f64 / 3.0).to_bits());
        assert_eq!(protected_div(1.0, 1e-320), f64::INFINITY);
        assert!(protected_div(f64::NAN, 2.0).is_nan());
    }

    #[test]
    fn square_root_is_of_the_magnitude() {
        assert_eq!(protected_sqrt(-4.0), 2.0);
        assert_eq!(protected_sqrt(2.0).to_bits(), 2.0f64.sqrt().to_bits());
        assert_eq!(protected_sqrt(-0.0), 0.0);
        assert_eq!(protected_sqrt(f64::NEG_INFINITY), f64::INFINITY);
    }

    #[test]
    fn arity_and_codes_follow_the_binary_form() {
        assert_eq!(Op::Div.arity(), (2, 1));
        assert_eq!(Op::Sqrt.arity(), (1, 1));
        assert_eq!(Op::Const(1.5).arity(), (0, 1));
        assert_eq!(Op::Add.code(), 0);
        assert_eq!(Op::Const(2.5).code(), 9);
        for code in 0..=u8::MAX {
            match Op::from_code(code) {
                Some(op) => assert_eq!(op.code(), code),
                None => assert!(code > 9),
            }
        }
    }
}
