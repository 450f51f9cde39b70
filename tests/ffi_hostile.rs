//! The hostile-input test of the C ABI (issue 15): `ffi-tests/hostile/generate.py` reads
//! `include/arbor.h` and writes a C program that calls every exported function with NULLs,
//! huge and short lengths, misaligned and too-small buffers, random structs and buffers,
//! out-of-range values and aliased buffers, and checks the statuses the conventions fix.
//! This test generates it, compiles it with gcc against the static library this test build
//! produced (as `tests/ffi.rs` does), and runs it plain and under ASan+UBSan (two tests).
//!
//! `ARBOR_HOSTILE_SECONDS` sets each run's budget of random rounds (default 6); the
//! program's other variables (`ARBOR_HOSTILE_SEED`, `ARBOR_HOSTILE_ONLY`, ...) pass through.
//! Without python3 the test is skipped with a message saying so.
use std::path::{Path, PathBuf};
use std::process::Command;

mod c_programs;
use c_programs::{compile, run, static_library};

fn python() -> Option<&'static str> {
    ["python3", "python"].into_iter().find(|name| {
        Command::new(name)
            .args(["-c", "import sys; sys.exit(sys.version_info[0] != 3)"])
            .output()
            .is_ok_and(|out| out.status.success())
    })
}

/// Generates the program, compiles it plain or under ASan+UBSan, and runs it: two tests, so
/// that the test harness runs the two side by side.
fn generate_compile_and_run(sanitize: bool) {
    let Some(python) = python() else {
        println!("SKIPPED ffi_hostile: python3 is not installed; generate.py needs it");
        eprintln!("SKIPPED ffi_hostile: python3 is not installed; generate.py needs it");
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out_dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("ffi-hostile");
    std::fs::create_dir_all(&out_dir).expect("create the output directory");
    let name = if sanitize { "hostile-san" } else { "hostile" };
    let source = out_dir.join(format!("{name}.c"));
    let generated = Command::new(python)
        .arg(root.join("ffi-tests/hostile/generate.py"))
        .arg("--header")
        .arg(root.join("include/arbor.h"))
        .arg("--out")
        .arg(&source)
        .output()
        .expect("python3 runs");
    assert!(
        generated.status.success(),
        "generate.py could not read the header:\n{}",
        String::from_utf8_lossy(&generated.stderr)
    );
    let exe = out_dir.join(name);
    compile(&source, &static_library(), sanitize, &exe);
    let seconds = std::env::var("ARBOR_HOSTILE_SECONDS").unwrap_or_else(|_| "6".into());
    run(&exe, &[("ARBOR_HOSTILE_SECONDS", seconds)]);
}

#[test]
fn every_exported_function_survives_hostile_input() {
    generate_compile_and_run(false);
}

#[test]
fn every_exported_function_survives_hostile_input_under_sanitizers() {
    generate_compile_and_run(true);
}
