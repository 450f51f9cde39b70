//! GP expression trees: the genotype of a persona formula. Evaluation follows the protected
//! semantics of [`crate::match3::Program`] bit for bit, so that the fitness measured on a
//! tree is the fitness of the persona file compiled from it.
use std::fmt;

use crate::Error;
use crate::match3::{Op, Program, protected_div, protected_sqrt};

/// A variable of section IV.C.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Var {
    /// Child wins (sum of rewards).
    W,
    /// Child visits.
    N,
    /// Parent visits (`NP` in the formula text).
    P,
    /// The child's number of legal moves.
    M,
}

impl Var {
    /// All four, in the order of [`Tree::eval`]'s arguments.
    pub const ALL: [Var; 4] = [Var::W, Var::N, Var::P, Var::M];

    fn op(self) -> Op {
        match self {
            Var::W => Op::Wins,
            Var::N => Op::Visits,
            Var::P => Op::ParentVisits,
            Var::M => Op::Moves,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Var::W => "W",
            Var::N => "N",
            // The formula text's name, so that printed trees read like persona files.
            Var::P => "NP",
            Var::M => "M",
        }
    }
}

/// A binary primitive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    /// a + b
    Add,
    /// a − b
    Sub,
    /// a × b
    Mul,
    /// a / b, or 1 when b = 0
    Div,
}

impl BinOp {
    /// All four, for uniform choice.
    pub const ALL: [BinOp; 4] = [BinOp::Add, BinOp::Sub, BinOp::Mul, BinOp::Div];

    /// Applies the primitive with the formula language's protection (the core's
    /// [`protected_div`]), so a tree computes what its compiled program computes.
    pub fn apply(self, a: f64, b: f64) -> f64 {
        match self {
            BinOp::Add => a + b,
            BinOp::Sub => a - b,
            BinOp::Mul => a * b,
            BinOp::Div => protected_div(a, b),
        }
    }

    fn op(self) -> Op {
        match self {
            BinOp::Add => Op::Add,
            BinOp::Sub => Op::Sub,
            BinOp::Mul => Op::Mul,
            BinOp::Div => Op::Div,
        }
    }

    fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
        }
    }
}

/// An expression tree. Constants are `f32` because the persona bytecode stores them so;
/// a tree then compiles without rounding.
#[derive(Clone, Debug, PartialEq)]
pub enum Tree {
    /// A variable.
    Var(Var),
    /// A constant.
    Const(f32),
    /// Protected square root.
    Sqrt(Box<Tree>),
    /// A binary primitive.
    Bin(BinOp, Box<Tree>, Box<Tree>),
}

impl Tree {
    /// `op(a, b)`.
    pub fn bin(op: BinOp, a: Tree, b: Tree) -> Tree {
        Tree::Bin(op, Box::new(a), Box::new(b))
    }

    /// `sqrt(a)`.
    pub fn sqrt(a: Tree) -> Tree {
        Tree::Sqrt(Box::new(a))
    }

    /// Evaluates at `vars` = [W, N, P, M], exactly as [`Program::eval`] does.
    pub fn eval(&self, vars: [f64; 4]) -> f64 {
        match self {
            Tree::Var(v) => vars[*v as usize],
            Tree::Const(c) => f64::from(*c),
            Tree::Sqrt(a) => protected_sqrt(a.eval(vars)),
            Tree::Bin(op, a, b) => op.apply(a.eval(vars), b.eval(vars)),
        }
    }

    /// Number of nodes, which is the number of bytecode instructions.
    pub fn size(&self) -> usize {
        match self {
            Tree::Var(_) | Tree::Const(_) => 1,
            Tree::Sqrt(a) => 1 + a.size(),
            Tree::Bin(_, a, b) => 1 + a.size() + b.size(),
        }
    }

    /// Depth: 0 for a terminal.
    pub fn depth(&self) -> usize {
        match self {
            Tree::Var(_) | Tree::Const(_) => 0,
            Tree::Sqrt(a) => 1 + a.depth(),
            Tree::Bin(_, a, b) => 1 + a.depth().max(b.depth()),
        }
    }

    /// The subtree at preorder index `at` (0 is the root), if there is one.
    pub fn node(&self, at: usize) -> Option<&Tree> {
        if at == 0 {
            return Some(self);
        }
        match self {
            Tree::Var(_) | Tree::Const(_) => None,
            Tree::Sqrt(a) => a.node(at - 1),
            Tree::Bin(_, a, b) => {
                let left = a.size();
                if at <= left {
                    a.node(at - 1)
                } else {
                    b.node(at - 1 - left)
                }
            }
        }
    }

    /// The subtree at preorder index `at`, mutably.
    pub fn node_mut(&mut self, at: usize) -> Option<&mut Tree> {
        if at == 0 {
            return Some(self);
        }
        match self {
            Tree::Var(_) | Tree::Const(_) => None,
            Tree::Sqrt(a) => a.node_mut(at - 1),
            Tree::Bin(_, a, b) => {
                let left = a.size();
                if at <= left {
                    a.node_mut(at - 1)
                } else {
                    b.node_mut(at - 1 - left)
                }
            }
        }
    }

    /// Compiles to the persona bytecode. Fails with the errors of [`Program::from_ops`],
    /// in practice `Error::InvalidLength` when the tree has more than 64 nodes.
    pub fn to_program(&self) -> Result<Program, Error> {
        let mut ops = Vec::with_capacity(self.size());
        self.postfix(&mut ops);
        Program::from_ops(&ops)
    }

    /// The tree of a program (the inverse of [`Tree::to_program`]).
    pub fn from_program(program: &Program) -> Tree {
        let mut stack: Vec<Tree> = Vec::new();
        for &op in program.ops() {
            let tree = match op {
                Op::Wins => Tree::Var(Var::W),
                Op::Visits => Tree::Var(Var::N),
                Op::ParentVisits => Tree::Var(Var::P),
                Op::Moves => Tree::Var(Var::M),
                Op::Const(c) => Tree::Const(c),
                Op::Sqrt => Tree::sqrt(stack.pop().unwrap_or(Tree::Const(0.0))),
                Op::Add | Op::Sub | Op::Mul | Op::Div => {
                    // A validated program never underflows its stack.
                    let b = stack.pop().unwrap_or(Tree::Const(0.0));
                    let a = stack.pop().unwrap_or(Tree::Const(0.0));
                    let bin = match op {
                        Op::Add => BinOp::Add,
                        Op::Sub => BinOp::Sub,
                        Op::Mul => BinOp::Mul,
                        _ => BinOp::Div,
                    };
                    Tree::bin(bin, a, b)
                }
            };
            stack.push(tree);
        }
        stack.pop().unwrap_or(Tree::Const(0.0))
    }

    fn postfix(&self, ops: &mut Vec<Op>) {
        match self {
            Tree::Var(v) => ops.push(v.op()),
            Tree::Const(c) => ops.push(Op::Const(*c)),
            Tree::Sqrt(a) => {
                a.postfix(ops);
                ops.push(Op::Sqrt);
            }
            Tree::Bin(op, a, b) => {
                a.postfix(ops);
                b.postfix(ops);
                ops.push(op.op());
            }
        }
    }

    fn write_operand(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Every binary operand is parenthesised: no precedence rules for the reader to apply.
        if matches!(self, Tree::Bin(..)) {
            write!(f, "({self})")
        } else {
            write!(f, "{self}")
        }
    }
}

/// Readable infix, e.g. `(W / N) + sqrt(NP)`.
impl fmt::Display for Tree {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tree::Var(v) => f.write_str(v.name()),
            Tree::Const(c) => write!(f, "{c}"),
            Tree::Sqrt(a) => write!(f, "sqrt({a})"),
            Tree::Bin(op, a, b) => {
                a.write_operand(f)?;
                write!(f, " {} ", op.symbol())?;
                b.write_operand(f)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> Tree {
        use Tree::Var as V;
        Tree::bin(
            BinOp::Add,
            Tree::bin(BinOp::Div, V(Var::W), V(Var::N)),
            Tree::sqrt(V(Var::P)),
        )
    }

    #[test]
    fn infix_is_readable() {
        assert_eq!(example().to_string(), "(W / N) + sqrt(NP)");
        let t = Tree::bin(BinOp::Sub, Tree::Const(2.5), Tree::Var(Var::M));
        assert_eq!(t.to_string(), "2.5 - M");
    }

    #[test]
    fn compiles_to_the_formula_text() {
        let program = example().to_program().unwrap();
        assert_eq!(program.to_string(), "add(div(W, N), sqrt(NP))");
    }

    #[test]
    fn programs_convert_back_to_the_same_tree() {
        let t = Tree::bin(BinOp::Mul, Tree::Const(-2.75), example());
        assert_eq!(Tree::from_program(&t.to_program().unwrap()), t);
    }

    #[test]
    fn protected_semantics() {
        let t = example();
        assert_eq!(t.eval([3.0, 0.0, -4.0, 0.0]), 1.0 + 2.0);
        assert_eq!(t.size(), 6);
        assert_eq!(t.depth(), 2);
        assert_eq!(t.node(4), Some(&Tree::sqrt(Tree::Var(Var::P))));
    }
}
