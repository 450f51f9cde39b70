extern crate std;
use std::vec;
use std::vec::Vec;

use super::*;
use crate::search::game::{Game, Turn, seeded_rng};

/// Runs `algorithm` on `root` for `iterations` and returns the exploitability report.
fn solve<G: Hidden>(
    root: &G,
    algorithm: Algorithm,
    infosets: usize,
    actions: usize,
    iterations: u64,
    seed: u64,
) -> (Exploitability, Vec<u64>, Vec<f64>, usize) {
    let mut keys = vec![0u64; infosets];
    let mut values = vec![0.0; Cfr::values_len(infosets, actions).unwrap()];
    let mut cfr = Cfr::new(&mut keys, &mut values, actions, algorithm).unwrap();
    cfr.iterate(root, iterations, &mut seeded_rng(seed))
        .unwrap();
    let used = cfr.infosets();
    let found = measure(root, &cfr, infosets, actions);
    (found, keys, values, used)
}

fn measure<G: Hidden>(
    root: &G,
    profile: &impl Strategy<G>,
    infosets: usize,
    actions: usize,
) -> Exploitability {
    let mut keys = vec![0u64; infosets];
    let mut values = vec![0.0; BestResponse::values_len(infosets, actions).unwrap()];
    let mut br = BestResponse::new(&mut keys, &mut values, actions).unwrap();
    exploitability(root, profile, &mut br).unwrap()
}

/// The iterations the Kuhn test and docs/cfr.md state.
const KUHN_ITERATIONS: u64 = 1000;

#[test]
fn kuhn_cfr_plus_reaches_the_equilibrium() {
    let (found, _, _, used) = solve(
        &Kuhn::new(),
        Algorithm::CfrPlus,
        Kuhn::INFOSETS,
        Kuhn::ACTIONS,
        KUHN_ITERATIONS,
        1,
    );
    let chips = Kuhn::CHIPS_PER_UNIT;
    assert_eq!(used, Kuhn::INFOSETS);
    assert!((found.value * chips + 1.0 / 18.0).abs() < 1e-3, "{found:?}");
    assert!(found.exploitability * chips < 1e-3, "{found:?}");
}

#[test]
fn kuhn_dcfr_and_external_sampling_converge() {
    let chips = Kuhn::CHIPS_PER_UNIT;
    let dcfr = solve(&Kuhn::new(), Algorithm::Dcfr, 12, 2, KUHN_ITERATIONS, 1).0;
    assert!(dcfr.exploitability * chips < 1e-3, "{dcfr:?}");
    let sampled = solve(&Kuhn::new(), Algorithm::ExternalSampling, 12, 2, 20_000, 1).0;
    assert!(sampled.exploitability * chips < 0.01, "{sampled:?}");
    assert!(
        (sampled.value * chips + 1.0 / 18.0).abs() < 0.01,
        "{sampled:?}"
    );
}

/// The known best responses to uniform play pin the best-response code down: in Kuhn a
/// uniform opponent is exploitable, by hand-checkable amounts.
#[test]
fn uniform_kuhn_is_exploitable_and_its_value_is_known() {
    let found = measure(&Kuhn::new(), &Uniform, 12, 2);
    let chips = Kuhn::CHIPS_PER_UNIT;
    // Uniform vs uniform: player 0 wins 1/8 chip (each 1/6 deal, computed by hand below).
    let mut value = 0.0;
    for (a, b) in [(0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1)] {
        let sign = if a > b { 1.0 } else { -1.0 };
        // pass-pass 1/4 showdown 1; pass-bet-pass 1/8 -1; pass-bet-bet 1/8 showdown 2;
        // bet-pass 1/4 +1; bet-bet 1/4 showdown 2.
        value += (0.25 * sign - 0.125 + 0.125 * 2.0 * sign + 0.25 + 0.25 * 2.0 * sign) / 6.0;
    }
    assert!(
        (found.value * chips - value).abs() < 1e-9,
        "{found:?} {value}"
    );
    assert!(found.best_response[0] > found.value && -found.best_response[1] < found.value);
    assert!(found.exploitability * chips > 0.1, "{found:?}");
}

#[test]
fn leduc_exploitability_falls_with_iterations() {
    let mut previous = f64::INFINITY;
    let mut seen = Vec::new();
    for iterations in [10, 100, 1000] {
        let (found, _, _, used) = solve(
            &Leduc::new(),
            Algorithm::CfrPlus,
            Leduc::INFOSETS,
            Leduc::ACTIONS,
            iterations,
            1,
        );
        assert_eq!(used, Leduc::INFOSETS);
        let chips = found.exploitability * Leduc::CHIPS_PER_UNIT;
        seen.push((iterations, chips, used));
        assert!(chips < previous, "{seen:?}");
        previous = chips;
    }
    assert!(previous < 0.01, "{seen:?}");
}

#[test]
fn same_seed_same_tables() {
    let run = |seed| {
        solve(
            &Leduc::new(),
            Algorithm::ExternalSampling,
            Leduc::INFOSETS,
            3,
            200,
            seed,
        )
    };
    let (a, keys_a, values_a, _) = run(7);
    let (b, keys_b, values_b, _) = run(7);
    let (_, _, values_c, _) = run(8);
    assert_eq!(keys_a, keys_b);
    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&values_a), bits(&values_b));
    assert_eq!(a.exploitability.to_bits(), b.exploitability.to_bits());
    assert_ne!(bits(&values_a), bits(&values_c));
}

#[test]
fn a_small_table_is_an_error_not_a_panic() {
    let mut keys = [0u64; 8];
    let mut values = [0.0; 48];
    let mut cfr = Cfr::new(&mut keys, &mut values, 2, Algorithm::CfrPlus).unwrap();
    let err = cfr.iterate(&Kuhn::new(), 1, &mut seeded_rng(1));
    assert_eq!(err, Err(CfrError::TableFull { capacity: 8 }));
    // Leduc needs 3 actions where the table has room for 2.
    let mut keys = [0u64; 64];
    let mut values = [0.0; 384];
    let mut cfr = Cfr::new(&mut keys, &mut values, 2, Algorithm::CfrPlus).unwrap();
    let err = cfr.iterate(&Leduc::new(), 1, &mut seeded_rng(1));
    assert_eq!(err, Err(CfrError::TooManyActions { found: 3, limit: 2 }));
    assert!(Cfr::new(&mut [0u64; 4], &mut [0.0; 23], 2, Algorithm::Dcfr).is_err());
    assert!(Cfr::new(&mut [0u64; 4], &mut [0.0; 24], 0, Algorithm::Dcfr).is_err());
}

#[test]
fn leduc_rules() {
    let mut state = Leduc::new();
    state.play(Leduc::DEAL + 6 * 4 + 1); // king vs jack
    assert_eq!(state.turn(), Turn::Player(0));
    let mut moves = <Leduc as Game>::Moves::default();
    state.legal_moves(&mut moves);
    assert_eq!(moves.as_slice(), &[Leduc::CALL, Leduc::RAISE]);
    for mv in [Leduc::RAISE, Leduc::RAISE] {
        state.play(mv);
    }
    state.legal_moves(&mut moves);
    assert_eq!(moves.as_slice(), &[Leduc::FOLD, Leduc::CALL]);
    state.play(Leduc::CALL);
    assert_eq!(state.turn(), Turn::Chance);
    state.legal_moves(&mut moves);
    assert_eq!(moves.len(), 4);
    state.play(Leduc::PUBLIC); // a jack: player 1 pairs
    for mv in [Leduc::CALL, Leduc::RAISE, Leduc::CALL] {
        state.play(mv);
    }
    assert_eq!(state.turn(), Turn::Over);
    assert_eq!(state.net(), -9);
    assert_eq!(state.returns(), [4.0 / 26.0, 22.0 / 26.0]);
}
