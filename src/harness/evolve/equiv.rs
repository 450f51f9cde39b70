//! Equivalence of formulas (section IV.C): two formulas are equivalent when their
//! difference simplifies to zero. Two tests, either of which suffices:
//!
//! - algebra: a canonical normal form (constants folded, sums and products flattened and
//!   sorted, like terms collected, x − x → 0, x·0 → 0, x + 0 → x, x·1 → x). Its rules only
//!   use identities that also hold under the protected operations (it never cancels through
//!   a division or a square root, only `a / a → 1`, which protection keeps true at 0), so a
//!   zero difference is a proof;
//! - numbers: the protected evaluations agree at every point of a fixed sample that mixes
//!   random points with the points where protection triggers (zeros, equal variables, ±1).
//!   This finds the identities the rules miss (W·(N + M) against W·N + W·M), and a
//!   formula that only differs where protection triggers (W·N / N against W) is kept apart.
use std::collections::BTreeMap;
use std::fmt;
use std::sync::OnceLock;

use rand_core::SeedableRng;
use rand_xorshift::XorShiftRng;

use super::generate::unit;
use super::tree::{BinOp, Tree, Var};
use crate::match3::protected_sqrt;

/// Coefficients smaller than this after collecting like terms are zero (rounding of
/// constants that cancel, such as 0.1 + 0.2 − 0.3).
const EPSILON: f64 = 1e-9;

/// A formula in normal form.
#[derive(Clone, Debug, PartialEq)]
pub enum Norm {
    /// A constant.
    Const(f64),
    /// A variable.
    Var(Var),
    /// A sum of at least two terms, sorted, none a sum, at most one constant (last).
    Sum(Vec<Norm>),
    /// A product of at least two factors, sorted, none a product, at most one constant
    /// (first, never 0 or 1).
    Prod(Vec<Norm>),
    /// A protected division that no rule simplifies.
    Div(Box<Norm>, Box<Norm>),
    /// A protected square root of a non-constant.
    Sqrt(Box<Norm>),
}

impl Norm {
    /// The normal form of a tree.
    pub fn of(tree: &Tree) -> Norm {
        match tree {
            Tree::Var(v) => Norm::Var(*v),
            Tree::Const(c) => Norm::Const(f64::from(*c)),
            Tree::Sqrt(a) => match Norm::of(a) {
                Norm::Const(c) => Norm::Const(protected_sqrt(c)),
                a => Norm::Sqrt(Box::new(a)),
            },
            Tree::Bin(op, a, b) => {
                let (a, b) = (Norm::of(a), Norm::of(b));
                match op {
                    BinOp::Add => sum(vec![a, b]),
                    BinOp::Sub => sum(vec![a, scale(-1.0, b)]),
                    BinOp::Mul => product(vec![a, b]),
                    BinOp::Div => divide(a, b),
                }
            }
        }
    }

    /// The canonical text of the form: equal texts, equal forms.
    pub fn key(&self) -> String {
        self.to_string()
    }

    /// Splits off the constant coefficient: 3·W·N → (3, W·N).
    fn split(self) -> (f64, Option<Norm>) {
        match self {
            Norm::Const(c) => (c, None),
            Norm::Prod(mut factors) => match factors.first() {
                Some(&Norm::Const(c)) => {
                    factors.remove(0);
                    let rest = if factors.len() == 1 {
                        factors.pop()
                    } else {
                        Some(Norm::Prod(factors))
                    };
                    (c, rest)
                }
                _ => (1.0, Some(Norm::Prod(factors))),
            },
            other => (1.0, Some(other)),
        }
    }
}

fn scale(c: f64, n: Norm) -> Norm {
    product(vec![Norm::Const(c), n])
}

fn sum(items: Vec<Norm>) -> Norm {
    let mut terms = Vec::new();
    for item in items {
        match item {
            Norm::Sum(inner) => terms.extend(inner),
            other => terms.push(other),
        }
    }
    // Like terms collected under their canonical text, which also sorts them.
    let mut constant = 0.0;
    let mut groups: BTreeMap<String, (f64, Norm)> = BTreeMap::new();
    for term in terms {
        match term.split() {
            (c, None) => constant += c,
            (c, Some(rest)) => groups.entry(rest.key()).or_insert((0.0, rest)).0 += c,
        }
    }
    let mut out: Vec<Norm> = groups
        .into_values()
        .filter(|(c, _)| c.abs() > EPSILON)
        .map(|(c, rest)| with_coefficient(c, rest))
        .collect();
    if constant.abs() > EPSILON {
        out.push(Norm::Const(constant));
    }
    match out.len() {
        0 => Norm::Const(0.0),
        1 => out.pop().unwrap_or(Norm::Const(0.0)),
        _ => Norm::Sum(out),
    }
}

/// c·rest for a non-constant, non-sum `rest`, without re-normalising.
fn with_coefficient(c: f64, rest: Norm) -> Norm {
    if c == 1.0 {
        return rest;
    }
    let mut factors = vec![Norm::Const(c)];
    match rest {
        Norm::Prod(inner) => factors.extend(inner),
        other => factors.push(other),
    }
    Norm::Prod(factors)
}

fn product(items: Vec<Norm>) -> Norm {
    let mut coefficient = 1.0;
    let mut factors = Vec::new();
    let mut stack = items;
    while let Some(item) = stack.pop() {
        match item {
            Norm::Const(c) => coefficient *= c,
            Norm::Prod(inner) => stack.extend(inner),
            other => factors.push(other),
        }
    }
    if coefficient == 0.0 {
        return Norm::Const(0.0);
    }
    if factors.is_empty() {
        return Norm::Const(coefficient);
    }
    // A constant distributes over a lone sum, so that c·(a + b) − (c·a + c·b) cancels.
    if factors.len() == 1 && coefficient != 1.0 {
        if let Some(Norm::Sum(terms)) = factors.first() {
            let terms = terms
                .iter()
                .map(|t| scale(coefficient, t.clone()))
                .collect();
            return sum(terms);
        }
    }
    factors.sort_by_cached_key(Norm::key);
    if factors.len() == 1 && coefficient == 1.0 {
        return factors.pop().unwrap_or(Norm::Const(1.0));
    }
    if coefficient != 1.0 {
        factors.insert(0, Norm::Const(coefficient));
    }
    Norm::Prod(factors)
}

fn divide(a: Norm, b: Norm) -> Norm {
    match b {
        // Protection: x / 0 = 1 (the pattern matches −0 too).
        Norm::Const(0.0) => Norm::Const(1.0),
        Norm::Const(c) => scale(1.0 / c, a),
        // a / a is 1 where a ≠ 0, and 1 by protection where a = 0.
        b if a == b => Norm::Const(1.0),
        b => Norm::Div(Box::new(a), Box::new(b)),
    }
}

impl fmt::Display for Norm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |f: &mut fmt::Formatter<'_>, name: &str, items: &[Norm]| {
            write!(f, "{name}(")?;
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write!(f, "{item}")?;
            }
            f.write_str(")")
        };
        match self {
            // `{:?}` prints the shortest text that reads back to the same f64.
            Norm::Const(c) => write!(f, "{c:?}"),
            Norm::Var(v) => write!(f, "{v:?}"),
            Norm::Sum(terms) => list(f, "add", terms),
            Norm::Prod(factors) => list(f, "mul", factors),
            Norm::Div(a, b) => write!(f, "div({a}, {b})"),
            Norm::Sqrt(a) => write!(f, "sqrt({a})"),
        }
    }
}

/// The sample of the numeric test: every combination of values where protection
/// triggers or variables coincide, then random points of every magnitude and sign.
fn sample_points() -> &'static [[f64; 4]] {
    static POINTS: OnceLock<Vec<[f64; 4]>> = OnceLock::new();
    POINTS.get_or_init(|| {
        const SPECIAL: [f64; 5] = [0.0, 1.0, -1.0, 2.0, 0.5];
        let mut points = Vec::new();
        for &w in &SPECIAL {
            for &n in &SPECIAL {
                for &p in &SPECIAL {
                    for &m in &SPECIAL {
                        points.push([w, n, p, m]);
                    }
                }
            }
        }
        // A fixed seed: equivalence is a function of the two formulas alone.
        let mut rng = XorShiftRng::seed_from_u64(0x6576_6f6c_7665);
        for _ in 0..200 {
            let mut point = [0.0; 4];
            for x in &mut point {
                let magnitude = 10f64.powf(unit(&mut rng) * 6.0 - 2.0);
                *x = (unit(&mut rng) * 2.0 - 1.0) * magnitude;
            }
            points.push(point);
        }
        points
    })
}

fn same_value(a: f64, b: f64) -> bool {
    if a.is_nan() || b.is_nan() {
        return a.is_nan() && b.is_nan();
    }
    if a == b {
        return true; // infinities included
    }
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

/// What the equivalence test needs of one formula, computed once per individual.
#[derive(Clone, Debug)]
pub struct Fingerprint {
    key: String,
    values: Vec<f64>,
}

impl Fingerprint {
    /// The fingerprint of a tree.
    pub fn of(tree: &Tree) -> Fingerprint {
        Fingerprint {
            key: Norm::of(tree).key(),
            values: sample_points().iter().map(|&p| tree.eval(p)).collect(),
        }
    }

    /// The canonical text of the normal form.
    pub fn key(&self) -> &str {
        &self.key
    }

    /// Whether the two formulas are equivalent. With canonical normal forms, the difference
    /// normalises to zero exactly when the forms are equal.
    pub fn equivalent(&self, other: &Fingerprint) -> bool {
        self.key == other.key
            || self
                .values
                .iter()
                .zip(&other.values)
                .all(|(&a, &b)| same_value(a, b))
    }
}

/// Whether two trees are equivalent (see the module notes).
pub fn equivalent(a: &Tree, b: &Tree) -> bool {
    Fingerprint::of(a).equivalent(&Fingerprint::of(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Tree {
        // Small prefix reader for the tests: the formula text, back into a tree.
        fn expr(s: &mut &str) -> Tree {
            *s = s.trim_start();
            let end = s
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '-'))
                .unwrap_or(s.len());
            let (word, rest) = s.split_at(end);
            *s = rest.trim_start();
            let var = |v| Tree::Var(v);
            match word {
                "W" => var(Var::W),
                "N" => var(Var::N),
                "NP" => var(Var::P),
                "M" => var(Var::M),
                "sqrt" => {
                    *s = &s[1..];
                    let a = expr(s);
                    *s = &s.trim_start()[1..];
                    Tree::sqrt(a)
                }
                "add" | "sub" | "mul" | "div" => {
                    let op = match word {
                        "add" => BinOp::Add,
                        "sub" => BinOp::Sub,
                        "mul" => BinOp::Mul,
                        _ => BinOp::Div,
                    };
                    *s = &s[1..];
                    let a = expr(s);
                    *s = &s.trim_start()[1..];
                    let b = expr(s);
                    *s = &s.trim_start()[1..];
                    Tree::bin(op, a, b)
                }
                number => Tree::Const(number.parse().unwrap()),
            }
        }
        let mut s = text;
        let tree = expr(&mut s);
        assert!(s.trim().is_empty(), "{text}");
        tree
    }

    fn eq(a: &str, b: &str) -> bool {
        equivalent(&parse(a), &parse(b))
    }

    #[test]
    fn difference_simplifies_to_zero() {
        for (a, b) in [
            ("add(W, N)", "add(N, W)"),
            ("sub(W, 4)", "add(-4, W)"),
            ("mul(add(W, N), 3)", "add(mul(3, N), mul(W, 3))"),
            ("add(W, W)", "mul(2, W)"),
            ("div(sqrt(M), sqrt(M))", "1"),
            ("div(W, 4)", "mul(0.25, W)"),
        ] {
            let difference = Tree::bin(BinOp::Sub, parse(a), parse(b));
            assert_eq!(Norm::of(&difference), Norm::Const(0.0), "{a} vs {b}");
        }
    }

    #[test]
    fn normalisation_rules() {
        let norm = |t: &str| Norm::of(&parse(t)).key();
        assert_eq!(norm("sub(W, W)"), "0.0");
        assert_eq!(norm("mul(sqrt(NP), 0)"), "0.0");
        assert_eq!(norm("add(M, 0)"), "M");
        assert_eq!(norm("mul(1, M)"), "M");
        assert_eq!(norm("add(2, mul(3, 4))"), "14.0");
        assert_eq!(norm("div(W, 0)"), "1.0");
        assert_eq!(norm("sqrt(-9)"), "3.0");
    }

    #[test]
    fn equivalent_pairs() {
        assert!(eq("add(W, N)", "add(N, W)"));
        assert!(eq("sub(W, W)", "0"));
        assert!(eq("mul(W, add(N, M))", "add(mul(W, N), mul(M, W))"));
        assert!(eq("sqrt(mul(4, N))", "mul(2, sqrt(N))"));
        assert!(eq("div(M, M)", "1"));
    }

    #[test]
    fn different_pairs() {
        assert!(!eq("div(W, N)", "mul(W, N)"));
        assert!(!eq("add(W, N)", "add(W, M)"));
        // Equal wherever N ≠ 0, but protection makes the first 1 at N = 0.
        assert!(!eq("div(mul(W, N), N)", "W"));
        assert!(!eq("mul(div(W, N), N)", "W"));
        // √(x²) is |x|, not x.
        assert!(!eq("sqrt(mul(W, W))", "W"));
        assert!(!eq("div(W, sub(N, N))", "W"));
        assert!(!eq("div(W, N)", "div(W, add(N, 0.001))"));
    }
}
