//! The hostile-input test of the C ABI (issue 15): `ffi-tests/hostile/generate.py` reads
//! `include/arbor.h` and writes a C program that calls every exported function with NULLs,
//! huge and short lengths, misaligned and too-small buffers, random structs and buffers,
//! out-of-range values and aliased buffers, and checks the statuses the conventions fix.
//! This test generates it, compiles it with gcc against the static library this test build
//! produced (as `tests/ffi.rs` does), and runs it plain and under ASan+UBSan.
//!
//! `ARBOR_HOSTILE_SECONDS` sets each run's budget of random rounds (default 6); the
//! program's other variables (`ARBOR_HOSTILE_SEED`, `ARBOR_HOSTILE_ONLY`, ...) pass through.
//! Without python3 the test is skipped with a message saying so.
use std::path::{Path, PathBuf};
use std::process::Command;

/// The static library cargo built next to this test binary.
fn static_library() -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    let deps = exe.parent().expect("the deps directory");
    [
        deps.join("libarbor.a"),
        deps.parent()
            .expect("the profile directory")
            .join("libarbor.a"),
    ]
    .into_iter()
    .find(|path| path.exists())
    .expect("cargo builds libarbor.a (crate-type staticlib) for the tests")
}

fn python() -> Option<&'static str> {
    ["python3", "python"].into_iter().find(|name| {
        Command::new(name)
            .args(["-c", "import sys; sys.exit(sys.version_info[0] != 3)"])
            .output()
            .is_ok_and(|out| out.status.success())
    })
}

fn compile(source: &Path, library: &Path, sanitize: bool, exe: &Path) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut gcc = Command::new("gcc");
    gcc.args([
        "-std=c99",
        "-Wall",
        "-Wextra",
        "-Werror",
        "-pedantic",
        "-O1",
        "-g",
    ]);
    if sanitize {
        gcc.args([
            "-fsanitize=address,undefined",
            "-fno-sanitize-recover=all",
            "-fno-omit-frame-pointer",
        ]);
    }
    gcc.arg("-I").arg(root.join("include"));
    gcc.arg(source).arg(library).arg("-o").arg(exe);
    gcc.args(["-lgcc_s", "-lutil", "-lrt", "-lpthread", "-lm", "-ldl"]);
    let built = gcc.output().expect("gcc runs");
    assert!(
        built.status.success(),
        "gcc failed on the generated hostile test (sanitize: {sanitize}):\n{}",
        String::from_utf8_lossy(&built.stderr)
    );
}

fn run(exe: &Path, sanitize: bool) {
    let seconds = std::env::var("ARBOR_HOSTILE_SECONDS").unwrap_or_else(|_| "6".into());
    let ran = Command::new(exe)
        .env("ARBOR_HOSTILE_SECONDS", seconds)
        .env("ASAN_OPTIONS", "detect_leaks=1:abort_on_error=0")
        .env("UBSAN_OPTIONS", "print_stacktrace=1")
        .output()
        .expect("the hostile test runs");
    let stdout = String::from_utf8_lossy(&ran.stdout);
    print!("{stdout}");
    assert!(
        ran.status.success(),
        "the hostile test (sanitize: {sanitize}) failed ({}):\n{stdout}\n{}",
        ran.status,
        String::from_utf8_lossy(&ran.stderr)
    );
    assert!(
        stdout.contains(" passed, 0 failed"),
        "the hostile test printed no summary"
    );
}

#[test]
fn every_exported_function_survives_hostile_input() {
    let Some(python) = python() else {
        println!("SKIPPED ffi_hostile: python3 is not installed; generate.py needs it");
        eprintln!("SKIPPED ffi_hostile: python3 is not installed; generate.py needs it");
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out_dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("ffi-hostile");
    std::fs::create_dir_all(&out_dir).expect("create the output directory");
    let source = out_dir.join("hostile.c");
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
    let library = static_library();
    for sanitize in [false, true] {
        let exe = out_dir.join(if sanitize { "hostile-san" } else { "hostile" });
        compile(&source, &library, sanitize, &exe);
        run(&exe, sanitize);
    }
}
