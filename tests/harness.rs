//! The `arbor` command as a user runs it.
mod common;

use common::arbor;

#[test]
fn hand_prints_rank_category_and_best_five() {
    let (code, out, _) = arbor(&["hand", "As", "Kd", "Qh", "Jc", "Ts", "2c", "3d"]);
    assert_eq!(code, 0);
    assert!(out.contains("rank     5863 of 7462"), "{out}");
    assert!(out.contains("category straight"), "{out}");
    assert!(out.contains("best     As Kd Qh Jc Ts"), "{out}");
}

#[test]
fn hand_without_cards_ranks_the_built_in_example() {
    let (code, out, _) = arbor(&["hand"]);
    assert_eq!(code, 0);
    assert!(out.contains("category"), "{out}");
}

#[test]
fn bad_input_is_a_usage_error() {
    for args in [
        &["hand", "As", "As", "Kd", "Qh", "Jc"][..],
        &["hand", "Xx"],
        &["hand", "As", "Kd"],
        &["nonsense"],
    ] {
        let (code, _, err) = arbor(args);
        assert_eq!(code, 2, "{args:?}");
        assert!(err.contains("arbor:"), "{err}");
    }
}
