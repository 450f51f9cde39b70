//! Genetic programming of persona formulas (section IV.C of the procedural-personas
//! paper): expression trees, their variation operators, formula equivalence, the
//! generation step, fitness by seeded games, and the resumable `arbor evolve` run. Std only: populations allocate, and live in the harness.
mod checkpoint;
mod command;
mod equiv;
mod figure;
mod fitness;
mod generate;
mod outputs;
mod population;
mod run;
mod tree;

pub use command::{COMMAND, run};
pub use equiv::{Fingerprint, Norm, equivalent};
pub use generate::{crossover, full, grow, half_and_half, mutate};
pub use population::{
    Exhausted, MAX_DEPTH, MIN_DEPTH, initial_population, next_generation, shares,
};
pub use tree::{BinOp, Tree, Var};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::match3::Formula;
    use rand_core::{Rng, SeedableRng};
    use rand_xorshift::XorShiftRng;

    #[test]
    fn trees_and_their_programs_agree() {
        let mut rng = XorShiftRng::seed_from_u64(9);
        let specials = [0.0, 1.0, -1.0, 0.5];
        let mut points = Vec::new();
        for round in 0..300 {
            let tree = half_and_half(&mut rng, 0, 4);
            let program = tree.to_program().unwrap();
            // 1 to 20 points: every batch width and partial batch.
            for _ in 0..=round % 20 {
                let mut v = [0.0; 4];
                for x in &mut v {
                    // A quarter of the values where protection triggers.
                    let r = rng.next_u64();
                    *x = if r % 4 == 0 {
                        specials[(r >> 8) as usize % 4]
                    } else {
                        (r >> 11) as f64 / (1u64 << 53) as f64 * 200.0 - 100.0
                    };
                }
                let (a, b) = (tree.eval(v), program.eval(v[0], v[1], v[2], v[3]));
                assert!(a.to_bits() == b.to_bits() || a.is_nan() && b.is_nan());
                points.push(v);
            }
            // The batched evaluation the search uses gives the same bits.
            let mut batched = vec![0.0; points.len()];
            Formula::eval_all(&program, &points, &mut batched);
            for (v, got) in points.drain(..).zip(batched) {
                let want = program.eval(v[0], v[1], v[2], v[3]);
                assert!(want.to_bits() == got.to_bits() || want.is_nan() && got.is_nan());
            }
        }
    }
}
