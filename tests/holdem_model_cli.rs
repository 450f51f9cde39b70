//! `arbor holdem train-model` and `eval` as a user runs them: a small run reports every
//! model on both test sets and writes weights source that reads back; bad populations and
//! bot specs are usage errors with a message, never a panic.
mod common;

use common::arbor;

#[test]
fn a_small_training_run_reports_every_model_and_writes_the_weights() {
    let dir = std::env::temp_dir().join(format!("arbor-holdem-model-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("weights.rs");
    let out_text = out.to_str().unwrap();
    let args = [
        "holdem",
        "train-model",
        "--hands",
        "10",
        "--epochs",
        "1",
        "--progress",
        "off",
        "--out",
        out_text,
    ];
    let (code, stdout, stderr) = arbor(&args);
    assert_eq!(code, 0, "{stderr}");
    for model in [
        "majority",
        "frequency",
        "cnn",
        "online, frequency prior",
        "online, cnn prior",
    ] {
        assert!(stdout.contains(model), "{model} missing:\n{stdout}");
    }
    assert!(stdout.contains("model size 9836 bytes"), "{stdout}");
    let source = std::fs::read_to_string(&out).unwrap();
    assert!(source.contains("pub const SHIPPED_CNN: CnnWeights"));
    assert!(source.contains("arbor holdem train-model --hands 10 --seed 1 --epochs 1"));
    // The same seed gives the same weights.
    let (code, _, stderr) = arbor(&args);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), source);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn eval_times_the_shipped_model() {
    let (code, stdout, stderr) =
        arbor(&["holdem", "eval-model", "--hands", "10", "--progress", "off"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains("us a prediction (full network)"),
        "{stdout}"
    );
    assert!(stdout.contains("a holding in a range sweep"), "{stdout}");
}

#[test]
fn bad_populations_and_specs_are_usage_errors() {
    for (args, expected) in [
        (&["--population", "call"][..], "at least two bots"),
        (&["--population", "call;wizard"][..], "unknown bot 'wizard'"),
        (&["--holdout", "style:seed=x"][..], "style[:seed=S]"),
        (&["--seed", "99999999999"][..], "at most 2^32-1"),
        (&["--dropout", "2"][..], "--dropout"),
    ] {
        let mut all = vec!["holdem", "train-model", "--progress", "off"];
        all.extend_from_slice(args);
        let (code, _, stderr) = arbor(&all);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}
