//! Populations of distinct individuals: the initial one and the step from one generation
//! to the next (section IV.C: elites, then mutants, then crossover children, each
//! newcomer discarded when equivalent to one already accepted).
use std::collections::HashSet;
use std::fmt;

use rand_xorshift::XorShiftRng;

use super::equiv::Fingerprint;
use super::generate::{below, crossover, half_and_half, mutate};
use super::tree::Tree;
use crate::match3::MAX_INSTRUCTIONS;

/// Depths of the initial individuals.
pub const MIN_DEPTH: usize = 2;
/// See [`MIN_DEPTH`].
pub const MAX_DEPTH: usize = 6;
/// Candidates tried per place before giving up: a population whose individuals are all
/// alike may have no distinct offspring left to give.
const ATTEMPTS_PER_PLACE: usize = 1000;

/// Why a population could not be filled with distinct individuals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Exhausted {
    /// Individuals accepted before the attempts ran out.
    pub filled: usize,
    /// Individuals asked for.
    pub wanted: usize,
}

impl fmt::Display for Exhausted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "found only {} distinct individuals of {}",
            self.filled, self.wanted
        )
    }
}

impl std::error::Error for Exhausted {}

/// A population under construction: accepts only individuals that compile to a persona
/// (at most 64 nodes, which also bounds bloat) and are equivalent to none accepted.
struct Pool {
    trees: Vec<Tree>,
    prints: Vec<Fingerprint>,
    keys: HashSet<String>,
}

impl Pool {
    fn new(capacity: usize) -> Pool {
        Pool {
            trees: Vec::with_capacity(capacity),
            prints: Vec::with_capacity(capacity),
            keys: HashSet::with_capacity(capacity),
        }
    }

    fn offer(&mut self, tree: Tree) -> bool {
        if tree.size() > MAX_INSTRUCTIONS {
            return false;
        }
        let print = Fingerprint::of(&tree);
        // Equal normal forms answer at once; the numeric test runs only otherwise.
        if self.keys.contains(print.key()) || self.prints.iter().any(|p| p.equivalent(&print)) {
            return false;
        }
        self.keys.insert(print.key().to_owned());
        self.prints.push(print);
        self.trees.push(tree);
        true
    }

    fn len(&self) -> usize {
        self.trees.len()
    }

    /// Offers `make()` until the pool holds `target` individuals.
    fn fill(
        &mut self,
        target: usize,
        wanted: usize,
        mut make: impl FnMut() -> Vec<Tree>,
    ) -> Result<(), Exhausted> {
        let mut attempts = (target - self.len()) * ATTEMPTS_PER_PLACE;
        while self.len() < target {
            if attempts == 0 {
                return Err(Exhausted {
                    filled: self.len(),
                    wanted,
                });
            }
            attempts -= 1;
            for tree in make() {
                if self.len() < target {
                    self.offer(tree);
                }
            }
        }
        Ok(())
    }
}

/// `size` distinct individuals, ramped half-and-half of depth 2 to 6.
pub fn initial_population(size: usize, rng: &mut XorShiftRng) -> Result<Vec<Tree>, Exhausted> {
    let mut pool = Pool::new(size);
    pool.fill(size, size, || {
        vec![half_and_half(rng, MIN_DEPTH, MAX_DEPTH)]
    })?;
    Ok(pool.trees)
}

/// How a population of `size` splits: (elites, mutants, crossover children) =
/// 10% / 45% / 45%, rounded, at least one elite.
pub fn shares(size: usize) -> (usize, usize, usize) {
    let elites = ((size + 5) / 10).clamp(size.min(1), size);
    let mutants = (size - elites).div_ceil(2);
    (elites, mutants, size - elites - mutants)
}

/// The next generation from `sorted` (best first, distinct): the best 10% unchanged, 45%
/// mutants of random individuals, 45% one-point crossover children of shuffled pairs.
/// Same size as `sorted`; every newcomer is equivalent to none accepted before it.
pub fn next_generation(sorted: &[Tree], rng: &mut XorShiftRng) -> Result<Vec<Tree>, Exhausted> {
    let size = sorted.len();
    let (elites, mutants, _) = shares(size);
    let mut pool = Pool::new(size);
    for tree in &sorted[..elites] {
        pool.offer(tree.clone());
    }
    if size == 0 {
        return Ok(pool.trees);
    }
    pool.fill(elites + mutants, size, || {
        vec![mutate(&sorted[below(rng, size)], rng)]
    })?;
    // All pairs, shuffled (Fisher–Yates), taken in turn; reshuffled if they run out.
    let mut pairs: Vec<(usize, usize)> = (0..size)
        .flat_map(|i| (i + 1..size).map(move |j| (i, j)))
        .collect();
    let mut next = pairs.len();
    pool.fill(size, size, || {
        if pairs.is_empty() {
            return Vec::new();
        }
        if next == pairs.len() {
            for i in (1..pairs.len()).rev() {
                pairs.swap(i, below(rng, i + 1));
            }
            next = 0;
        }
        let (i, j) = pairs[next];
        next += 1;
        let (a, b) = crossover(&sorted[i], &sorted[j], rng);
        vec![a, b]
    })?;
    Ok(pool.trees)
}

#[cfg(test)]
mod tests {
    use super::super::equiv::equivalent;
    use super::*;
    use rand_core::SeedableRng;

    fn all_distinct(trees: &[Tree]) -> bool {
        (0..trees.len()).all(|i| (0..i).all(|j| !equivalent(&trees[i], &trees[j])))
    }

    #[test]
    fn shares_keep_the_proportions() {
        assert_eq!(shares(100), (10, 45, 45));
        assert_eq!(shares(20), (2, 9, 9));
        assert_eq!(shares(7), (1, 3, 3));
        assert_eq!(shares(1), (1, 0, 0));
        assert_eq!(shares(0), (0, 0, 0));
    }

    #[test]
    fn initial_population_is_distinct_and_compiles() {
        let mut rng = XorShiftRng::seed_from_u64(5);
        let population = initial_population(40, &mut rng).unwrap();
        assert_eq!(population.len(), 40);
        assert!(all_distinct(&population));
        for t in &population {
            assert!((MIN_DEPTH..=MAX_DEPTH).contains(&t.depth()), "{t}");
            assert!(t.to_program().is_ok());
        }
    }

    #[test]
    fn next_generation_keeps_elites_and_size() {
        let mut rng = XorShiftRng::seed_from_u64(6);
        let population = initial_population(30, &mut rng).unwrap();
        let next = next_generation(&population, &mut rng).unwrap();
        assert_eq!(next.len(), 30);
        assert_eq!(next[..3], population[..3]);
        assert!(all_distinct(&next));
        assert!(next.iter().all(|t| t.to_program().is_ok()));
    }

    #[test]
    fn seeded_runs_repeat() {
        let run = |seed| {
            let mut rng = XorShiftRng::seed_from_u64(seed);
            let population = initial_population(20, &mut rng).unwrap();
            next_generation(&population, &mut rng).unwrap()
        };
        assert_eq!(run(7), run(7));
        assert_ne!(run(7), run(8));
    }
}
