//! Persona formulas as compact, allocation-free bytecode: a postfix program over the four
//! variables of the paper's section IV.C, evaluated on a fixed stack.
//!
//! Text form (what GP individuals print, DEAP style, prefix calls):
//! `add(div(W, N), mul(0.5, sqrt(div(NP, N))))`, with the variables `W` (child wins: its sum
//! of rewards), `N` (child visits), `NP` (parent visits), `M` (the child's number of legal
//! moves), decimal constants, and `add`, `sub`, `mul`, `div` (protected: x / 0 = 1),
//! `sqrt` (protected: √|x|).
//!
//! Binary form (what a game client loads): byte 0 is the version (1), byte 1 the number of
//! instructions n, then n instructions in postfix order, one opcode byte each
//! (0 add, 1 sub, 2 mul, 3 div, 4 sqrt, 5 W, 6 N, 7 NP, 8 M, 9 constant), a constant
//! followed by its `f32` in little-endian order. The loader checks the version, the length,
//! every opcode, that constants are finite and that the stack never underflows and ends
//! with exactly one value.
use core::fmt;

use super::op::{MAX_INSTRUCTIONS, Op, protected_div, protected_sqrt};
use super::policy::{FORMULA_LANES, Formula};
use super::registers::Registers;
use crate::Error;

/// Deepest stack a program may use (a program of 64 instructions needs at most 33).
const MAX_STACK: usize = 40;
/// Slots of the evaluation stack: `MAX_STACK` rounded up to a power of two.
const STACK_SLOTS: usize = MAX_STACK.next_power_of_two();
/// Deepest nesting the text parser follows.
const MAX_DEPTH: usize = 32;
/// Binary format version.
pub const FORMULA_VERSION: u8 = 1;
/// Most bytes of a program's binary form: the two header bytes and 64 constants of five
/// bytes each.
pub const MAX_ENCODED_LEN: usize = 2 + 5 * MAX_INSTRUCTIONS;

/// A validated formula program. `Copy`, about 1.3 KB, no allocation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Program {
    ops: [Op; MAX_INSTRUCTIONS],
    len: u8,
    /// The same program in register form, for batched evaluation.
    pub(super) registers: Registers,
}

impl Program {
    /// Validates a postfix instruction list: at most 64 instructions, finite constants,
    /// no stack underflow, exactly one value at the end.
    pub fn from_ops(ops: &[Op]) -> Result<Program, Error> {
        if ops.is_empty() || ops.len() > MAX_INSTRUCTIONS {
            return Err(Error::InvalidLength);
        }
        let mut depth = 0usize;
        for &op in ops {
            if let Op::Const(c) = op {
                if !c.is_finite() {
                    return Err(Error::InvalidArgument);
                }
            }
            let (pop, push) = op.arity();
            if depth < pop {
                return Err(Error::InvalidArgument);
            }
            depth = depth - pop + push;
            if depth > MAX_STACK {
                return Err(Error::InvalidArgument);
            }
        }
        if depth != 1 {
            return Err(Error::InvalidArgument);
        }
        let mut program = Program {
            ops: [Op::Wins; MAX_INSTRUCTIONS],
            len: ops.len() as u8,
            registers: Registers::compile(ops),
        };
        program.ops[..ops.len()].copy_from_slice(ops);
        Ok(program)
    }

    /// The instructions.
    pub fn ops(&self) -> &[Op] {
        &self.ops[..usize::from(self.len)]
    }

    /// UCB1 without the logarithm the instruction set lacks, as a sample persona:
    /// W/N + √(NP/N)·0.5.
    pub fn sample() -> Program {
        use Op::*;
        // The list is valid by construction; `from_ops` cannot refuse it.
        Program::from_ops(&[
            Wins,
            Visits,
            Div,
            Const(0.5),
            ParentVisits,
            Visits,
            Div,
            Sqrt,
            Mul,
            Add,
        ])
        .unwrap_or(Program {
            ops: [Op::Wins; MAX_INSTRUCTIONS],
            len: 1,
            registers: Registers::compile(&[Op::Wins]),
        })
    }

    /// Evaluates the program. Never panics; the result may be infinite or NaN (the search
    /// treats NaN as the lowest score).
    ///
    /// This is the inner loop of a persona search (every child of every node on every
    /// descent), so the stack is indexed modulo its power-of-two size: no bounds checks and
    /// no panic paths. A validated program never goes below empty or above `MAX_STACK`, so
    /// the wrap never happens.
    pub fn eval(&self, wins: f64, visits: f64, parent_visits: f64, moves: f64) -> f64 {
        const WRAP: usize = STACK_SLOTS - 1;
        let mut stack = [0.0f64; STACK_SLOTS];
        // `top` is the number of values on the stack.
        let mut top = 0usize;
        for &op in self.ops() {
            let value = match op {
                Op::Wins => wins,
                Op::Visits => visits,
                Op::ParentVisits => parent_visits,
                Op::Moves => moves,
                Op::Const(c) => f64::from(c),
                Op::Sqrt => {
                    let a = &mut stack[top.wrapping_sub(1) & WRAP];
                    *a = protected_sqrt(*a);
                    continue;
                }
                Op::Add | Op::Sub | Op::Mul | Op::Div => {
                    top = top.wrapping_sub(1);
                    let b = stack[top & WRAP];
                    let a = &mut stack[top.wrapping_sub(1) & WRAP];
                    *a = match op {
                        Op::Add => *a + b,
                        Op::Sub => *a - b,
                        Op::Mul => *a * b,
                        _ => protected_div(*a, b),
                    };
                    continue;
                }
            };
            stack[top & WRAP] = value;
            top = top.wrapping_add(1);
        }
        stack[0]
    }

    /// Bytes of the binary form.
    pub fn encoded_len(&self) -> usize {
        2 + self
            .ops()
            .iter()
            .map(|op| if matches!(op, Op::Const(_)) { 5 } else { 1 })
            .sum::<usize>()
    }

    /// Writes the binary form into `out` and returns its length; `Error::BufferTooSmall` if
    /// `out` is shorter than [`Program::encoded_len`].
    pub fn encode(&self, out: &mut [u8]) -> Result<usize, Error> {
        let len = self.encoded_len();
        let out = out.get_mut(..len).ok_or(Error::BufferTooSmall)?;
        out[0] = FORMULA_VERSION;
        out[1] = self.len;
        let mut at = 2;
        for &op in self.ops() {
            out[at] = op.code();
            at += 1;
            if let Op::Const(c) = op {
                out[at..at + 4].copy_from_slice(&c.to_le_bytes());
                at += 4;
            }
        }
        Ok(len)
    }

    /// Loads and validates the binary form. Errors: `Error::InvalidLength` (truncated, too
    /// long, or trailing bytes), `Error::InvalidArgument` (version, opcode, non-finite
    /// constant, or a malformed stack).
    pub fn decode(bytes: &[u8]) -> Result<Program, Error> {
        let [version, count, rest @ ..] = bytes else {
            return Err(Error::InvalidLength);
        };
        if *version != FORMULA_VERSION {
            return Err(Error::InvalidArgument);
        }
        let count = usize::from(*count);
        if count == 0 || count > MAX_INSTRUCTIONS {
            return Err(Error::InvalidLength);
        }
        let mut ops = [Op::Wins; MAX_INSTRUCTIONS];
        let mut at = 0usize;
        for op in ops.iter_mut().take(count) {
            let code = *rest.get(at).ok_or(Error::InvalidLength)?;
            at += 1;
            *op = match Op::from_code(code).ok_or(Error::InvalidArgument)? {
                Op::Const(_) => {
                    let raw = rest.get(at..at + 4).ok_or(Error::InvalidLength)?;
                    at += 4;
                    Op::Const(f32::from_le_bytes([raw[0], raw[1], raw[2], raw[3]]))
                }
                op => op,
            };
        }
        if at != rest.len() {
            return Err(Error::InvalidLength);
        }
        Program::from_ops(&ops[..count])
    }

    /// The binary form in lower-case hex, as persona files and checkpoints store it.
    pub fn hex(&self) -> impl fmt::Display + '_ {
        Hex(self)
    }

    /// Reads the hex form of the binary form (either case). Errors: `Error::Parse` (not
    /// hex), or those of [`Program::decode`].
    pub fn from_hex(text: &str) -> Result<Program, Error> {
        let text = text.as_bytes();
        if !text.len().is_multiple_of(2) {
            return Err(Error::Parse);
        }
        let mut bytes = [0u8; MAX_ENCODED_LEN];
        let len = text.len() / 2;
        let out = bytes.get_mut(..len).ok_or(Error::InvalidLength)?;
        for (byte, pair) in out.iter_mut().zip(text.chunks_exact(2)) {
            let high = hex_digit(pair[0]).ok_or(Error::Parse)?;
            let low = hex_digit(pair[1]).ok_or(Error::Parse)?;
            *byte = high << 4 | low;
        }
        Program::decode(&bytes[..len])
    }

    /// Parses the text form. Fails with `Error::Parse` (syntax), `Error::InvalidLength`
    /// (more than 64 names and numbers), or the errors of [`Program::from_ops`].
    pub fn parse(text: &str) -> Result<Program, Error> {
        Program::parse_located(text).map_err(|error| error.error)
    }

    /// [`Program::parse`] with where and why it failed. A text with more names and numbers
    /// than a program has instructions is `Error::InvalidLength` before any syntax is
    /// looked at, however it nests.
    pub fn parse_located(text: &str) -> Result<Program, FormulaError> {
        let mut parser = Parser {
            text: text.as_bytes(),
            at: 0,
            ops: [Op::Wins; MAX_INSTRUCTIONS],
            len: 0,
        };
        if parser.words() > MAX_INSTRUCTIONS {
            return Err(FormulaError {
                error: Error::InvalidLength,
                offset: 0,
                message: "more than 64 names and numbers",
            });
        }
        parser.expr(0)?;
        parser.skip_space();
        if parser.at != parser.text.len() {
            return Err(parser.fail("text after the formula"));
        }
        Program::from_ops(&parser.ops[..parser.len]).map_err(|error| FormulaError {
            error,
            offset: 0,
            message: "not a valid program",
        })
    }

    fn write_node(&self, end: usize, f: &mut fmt::Formatter<'_>) -> Result<usize, fmt::Error> {
        // Writes the subtree whose last instruction is `end - 1`; returns its first index.
        let Some(&op) = self.ops().get(end.wrapping_sub(1)) else {
            return Err(fmt::Error);
        };
        let name = match op {
            Op::Wins => return f.write_str("W").map(|_| end - 1),
            Op::Visits => return f.write_str("N").map(|_| end - 1),
            Op::ParentVisits => return f.write_str("NP").map(|_| end - 1),
            Op::Moves => return f.write_str("M").map(|_| end - 1),
            Op::Const(c) => return write!(f, "{c}").map(|_| end - 1),
            Op::Add => "add",
            Op::Sub => "sub",
            Op::Mul => "mul",
            Op::Div => "div",
            Op::Sqrt => "sqrt",
        };
        // Find operand boundaries first (postfix: last operand ends at end - 1).
        if op == Op::Sqrt {
            write!(f, "{name}(")?;
            let start = self.write_node(end - 1, f)?;
            f.write_str(")")?;
            return Ok(start);
        }
        let b_start = self.subtree_start(end - 1).ok_or(fmt::Error)?;
        write!(f, "{name}(")?;
        let a_start = self.write_node(b_start, f)?;
        f.write_str(", ")?;
        self.write_node(end - 1, f)?;
        f.write_str(")")?;
        Ok(a_start)
    }

    /// First instruction of the subtree ending at `end - 1`.
    fn subtree_start(&self, end: usize) -> Option<usize> {
        let mut need = 1usize;
        let mut i = end;
        while need > 0 {
            i = i.checked_sub(1)?;
            let (pop, _) = self.ops().get(i)?.arity();
            need = need - 1 + pop;
        }
        Some(i)
    }
}

impl Formula for Program {
    fn eval(&self, wins: f64, visits: f64, parent_visits: f64, feature: f64) -> f64 {
        Program::eval(self, wins, visits, parent_visits, feature)
    }

    /// Runs the register form ([`Registers`]) over batches of children side by side: the
    /// instruction dispatch, most of an interpreter's cost, is paid once per batch, and the
    /// results are bit-identical to [`Program::eval`]'s.
    fn eval_lanes(
        &self,
        vars: &[[f64; FORMULA_LANES]; 4],
        len: usize,
        out: &mut [f64; FORMULA_LANES],
    ) {
        self.registers.eval_lanes(vars, len, out);
    }
}

/// The text form, which [`Program::parse`] reads back to the same program.
impl fmt::Display for Program {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_node(usize::from(self.len), f).map(|_| ())
    }
}

fn hex_digit(byte: u8) -> Option<u8> {
    match byte {
        b'0'..=b'9' => Some(byte - b'0'),
        b'a'..=b'f' => Some(byte - b'a' + 10),
        b'A'..=b'F' => Some(byte - b'A' + 10),
        _ => None,
    }
}

/// [`Program::hex`].
struct Hex<'p>(&'p Program);

impl fmt::Display for Hex<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut bytes = [0u8; MAX_ENCODED_LEN];
        let len = self.0.encode(&mut bytes).map_err(|_| fmt::Error)?;
        bytes[..len]
            .iter()
            .try_for_each(|byte| write!(f, "{byte:02x}"))
    }
}

struct Parser<'t> {
    text: &'t [u8],
    at: usize,
    ops: [Op; MAX_INSTRUCTIONS],
    len: usize,
}

impl Parser<'_> {
    fn skip_space(&mut self) {
        while self.text.get(self.at).is_some_and(u8::is_ascii_whitespace) {
            self.at += 1;
        }
    }

    fn fail(&self, message: &'static str) -> FormulaError {
        FormulaError {
            error: Error::Parse,
            offset: self.at,
            message,
        }
    }

    /// The end of the name or number that starts at `start`.
    fn word_end(&self, start: usize) -> usize {
        let mut at = start;
        while self
            .text
            .get(at)
            .is_some_and(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'+' | b'_'))
        {
            // A sign only at the start or after an exponent marker.
            let b = self.text[at];
            if matches!(b, b'-' | b'+') && at != start && !matches!(self.text[at - 1], b'e' | b'E')
            {
                break;
            }
            at += 1;
        }
        at
    }

    /// Names and numbers in the whole text: each is one instruction of the program.
    fn words(&self) -> usize {
        let mut count = 0;
        let mut at = 0;
        while at < self.text.len() {
            let end = self.word_end(at);
            if end > at {
                count += 1;
                at = end;
            } else {
                at += 1;
            }
        }
        count
    }

    fn emit(&mut self, op: Op) -> Result<(), FormulaError> {
        let Some(slot) = self.ops.get_mut(self.len) else {
            return Err(FormulaError {
                error: Error::InvalidLength,
                offset: self.at,
                message: "more than 64 names and numbers",
            });
        };
        *slot = op;
        self.len += 1;
        Ok(())
    }

    fn expect(&mut self, byte: u8, message: &'static str) -> Result<(), FormulaError> {
        self.skip_space();
        if self.text.get(self.at) == Some(&byte) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.fail(message))
        }
    }

    fn expr(&mut self, depth: usize) -> Result<(), FormulaError> {
        if depth > MAX_DEPTH {
            return Err(self.fail("calls nested more than 32 deep"));
        }
        self.skip_space();
        let start = self.at;
        self.at = self.word_end(start);
        let word = core::str::from_utf8(&self.text[start..self.at]).unwrap_or("");
        let op = match word {
            "W" | "w" | "wins" => return self.emit(Op::Wins),
            "N" | "n" | "visits" => return self.emit(Op::Visits),
            "NP" | "np" | "parent_visits" => return self.emit(Op::ParentVisits),
            "M" | "m" | "moves" => return self.emit(Op::Moves),
            "add" => Op::Add,
            "sub" => Op::Sub,
            "mul" => Op::Mul,
            "div" | "protectedDiv" => Op::Div,
            "sqrt" | "protectedSqrt" => Op::Sqrt,
            _ => {
                let unknown = FormulaError {
                    error: Error::Parse,
                    offset: start,
                    message: if word.is_empty() {
                        "expected a name or a number"
                    } else {
                        "unknown name (W, N, NP, M, add, sub, mul, div, sqrt) or bad number"
                    },
                };
                let value: f32 = word.parse().map_err(|_| unknown)?;
                if !value.is_finite() {
                    return Err(FormulaError {
                        message: "a number too large for 32 bits",
                        ..unknown
                    });
                }
                return self.emit(Op::Const(value));
            }
        };
        self.expect(b'(', "expected `(`")?;
        self.expr(depth + 1)?;
        if op != Op::Sqrt {
            self.expect(b',', "expected `,`")?;
            self.expr(depth + 1)?;
        }
        self.expect(b')', "expected `)`")?;
        self.emit(op)
    }
}

/// Where and why a formula text does not parse: [`Program::parse_located`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FormulaError {
    /// `Error::Parse`, `Error::InvalidLength` or the errors of [`Program::from_ops`].
    pub error: Error,
    /// Byte offset in the text of the problem.
    pub offset: usize,
    /// What is wrong, in English.
    pub message: &'static str,
}
