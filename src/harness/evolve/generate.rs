//! Random trees and the variation operators, after DEAP's `genFull`, `genGrow`,
//! `genHalfAndHalf`, `mutEphemeral`, `mutUniform` and `cxOnePoint`. All randomness comes
//! from the caller's seeded generator.
use rand_core::Rng;
use rand_xorshift::XorShiftRng;

use super::tree::{BinOp, Tree, Var};

/// Largest constant of a new terminal (constants are uniform in [0, 10]).
pub const MAX_CONSTANT: f32 = 10.0;

/// Uniform in `0..n` (`n > 0`), by a multiply-shift whose bias is below 2⁻⁵⁰ for the small
/// `n` used here.
pub fn below(rng: &mut XorShiftRng, n: usize) -> usize {
    ((u128::from(rng.next_u64()) * n as u128) >> 64) as usize
}

/// Uniform in [0, 1).
pub fn unit(rng: &mut XorShiftRng) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

/// A fair coin.
pub fn coin(rng: &mut XorShiftRng) -> bool {
    rng.next_u64() >> 63 == 1
}

fn constant(rng: &mut XorShiftRng) -> f32 {
    (unit(rng) * f64::from(MAX_CONSTANT)) as f32
}

/// A terminal: each of the four variables and the constant generator equally likely, as
/// DEAP draws among its terminals.
pub fn terminal(rng: &mut XorShiftRng) -> Tree {
    match below(rng, 5) {
        4 => Tree::Const(constant(rng)),
        i => Tree::Var(Var::ALL[i]),
    }
}

/// A primitive over the given children makers: the four binary ones and `sqrt`, equally
/// likely.
fn primitive(rng: &mut XorShiftRng, child: &mut dyn FnMut(&mut XorShiftRng) -> Tree) -> Tree {
    match below(rng, 5) {
        4 => Tree::sqrt(child(rng)),
        i => {
            let a = child(rng);
            let b = child(rng);
            Tree::bin(BinOp::ALL[i], a, b)
        }
    }
}

/// A full tree: every branch reaches exactly `depth`.
pub fn full(rng: &mut XorShiftRng, depth: usize) -> Tree {
    if depth == 0 {
        terminal(rng)
    } else {
        primitive(rng, &mut |rng| full(rng, depth - 1))
    }
}

/// A grown tree of depth at most `max`: below `min`, always a primitive; from `min` on, a
/// terminal with DEAP's probability (terminals / all symbols = 5 / 10).
pub fn grow(rng: &mut XorShiftRng, min: usize, max: usize) -> Tree {
    if max == 0 || (min == 0 && coin(rng)) {
        terminal(rng)
    } else {
        primitive(rng, &mut |rng| grow(rng, min.saturating_sub(1), max - 1))
    }
}

/// Ramped half-and-half: a height uniform in `min..=max`, then full or grown with equal
/// chance.
pub fn half_and_half(rng: &mut XorShiftRng, min: usize, max: usize) -> Tree {
    let height = min + below(rng, max - min + 1);
    if coin(rng) {
        full(rng, height)
    } else {
        grow(rng, min, height)
    }
}

/// Replaces one constant, chosen uniformly, by a new one (DEAP's `mutEphemeral`, mode
/// "one"). A tree without constants is unchanged.
pub fn mutate_constant(tree: &mut Tree, rng: &mut XorShiftRng) {
    let constants: Vec<usize> = (0..tree.size())
        .filter(|&i| matches!(tree.node(i), Some(Tree::Const(_))))
        .collect();
    if constants.is_empty() {
        return;
    }
    let at = constants[below(rng, constants.len())];
    let value = constant(rng);
    if let Some(node) = tree.node_mut(at) {
        *node = Tree::Const(value);
    }
}

/// DEAP's `mutUniform` with `genFull` of depth 0 to 2: a random subtree (the root
/// included) is replaced by a new full tree.
pub fn mutate_uniform(tree: &mut Tree, rng: &mut XorShiftRng) {
    let at = below(rng, tree.size());
    let depth = below(rng, 3);
    let new = full(rng, depth);
    if let Some(node) = tree.node_mut(at) {
        *node = new;
    }
}

/// The paper's mutation: with probability ½ a constant first, then `mutUniform`.
pub fn mutate(tree: &Tree, rng: &mut XorShiftRng) -> Tree {
    let mut child = tree.clone();
    if coin(rng) {
        mutate_constant(&mut child, rng);
    }
    mutate_uniform(&mut child, rng);
    child
}

/// DEAP's `cxOnePoint`: swaps a random non-root subtree of each parent. Parents that are a
/// single node have nothing to swap and come back unchanged.
pub fn crossover(a: &Tree, b: &Tree, rng: &mut XorShiftRng) -> (Tree, Tree) {
    let (mut a, mut b) = (a.clone(), b.clone());
    if a.size() < 2 || b.size() < 2 {
        return (a, b);
    }
    let i = 1 + below(rng, a.size() - 1);
    let j = 1 + below(rng, b.size() - 1);
    if let (Some(x), Some(y)) = (a.node_mut(i), b.node_mut(j)) {
        std::mem::swap(x, y);
    }
    (a, b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::SeedableRng;

    #[test]
    fn depths_are_as_asked() {
        let mut rng = XorShiftRng::seed_from_u64(1);
        for _ in 0..200 {
            let depth = below(&mut rng, 4);
            let t = full(&mut rng, depth);
            assert_eq!(t.depth(), depth);
            let t = half_and_half(&mut rng, 2, 6);
            assert!((2..=6).contains(&t.depth()), "{t}");
        }
    }

    #[test]
    fn constants_are_in_range() {
        let mut rng = XorShiftRng::seed_from_u64(2);
        for _ in 0..1000 {
            if let Tree::Const(c) = terminal(&mut rng) {
                assert!((0.0..=MAX_CONSTANT).contains(&c));
            }
        }
    }

    #[test]
    fn crossover_keeps_the_node_count() {
        let mut rng = XorShiftRng::seed_from_u64(3);
        for _ in 0..200 {
            let a = half_and_half(&mut rng, 2, 4);
            let b = half_and_half(&mut rng, 2, 4);
            let (c, d) = crossover(&a, &b, &mut rng);
            assert_eq!(a.size() + b.size(), c.size() + d.size());
            let m = mutate(&a, &mut rng);
            assert!(m.depth() <= a.depth() + 2);
        }
    }

    #[test]
    fn mutating_a_constant_touches_only_constants() {
        let mut rng = XorShiftRng::seed_from_u64(4);
        let mut t = Tree::bin(BinOp::Add, Tree::Var(Var::W), Tree::Const(3.0));
        mutate_constant(&mut t, &mut rng);
        assert!(matches!(&t, Tree::Bin(BinOp::Add, a, b)
            if **a == Tree::Var(Var::W) && matches!(**b, Tree::Const(c) if c != 3.0)));
    }
}
