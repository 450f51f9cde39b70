//! Compiles every C program in `ffi-tests/` against `include/arbor.h` and the static library
//! that this test build produced, with `gcc -std=c99 -Wall -Wextra -Werror -pedantic`, once
//! plain and once with `-fsanitize=address,undefined`, and runs each one.
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

fn c_programs(root: &Path) -> Vec<PathBuf> {
    let mut programs: Vec<PathBuf> = std::fs::read_dir(root.join("ffi-tests"))
        .expect("ffi-tests/ exists")
        .map(|entry| entry.expect("readable entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "c"))
        .collect();
    programs.sort();
    programs
}

fn compile_and_run(source: &Path, library: &Path, sanitize: bool, out_dir: &Path) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let name = source
        .file_stem()
        .expect("a file name")
        .to_string_lossy()
        .into_owned();
    let exe = out_dir.join(format!("{name}{}", if sanitize { "-san" } else { "" }));
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
    gcc.arg("-I")
        .arg(root.join("include"))
        .arg("-I")
        .arg(root.join("ffi-tests"));
    gcc.arg(source).arg(library).arg("-o").arg(&exe);
    // What a Rust std static library needs from the system (rustc --print native-static-libs).
    gcc.args(["-lgcc_s", "-lutil", "-lrt", "-lpthread", "-lm", "-ldl"]);
    let built = gcc.output().expect("gcc runs");
    assert!(
        built.status.success(),
        "gcc failed on {name}:\n{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let ran = Command::new(&exe)
        .env("ASAN_OPTIONS", "detect_leaks=1")
        .output()
        .expect("the program runs");
    let stdout = String::from_utf8_lossy(&ran.stdout);
    print!("{stdout}");
    assert!(
        ran.status.success(),
        "{name} (sanitize: {sanitize}) failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&ran.stderr)
    );
    assert!(
        stdout.contains(" passed, 0 failed"),
        "{name} printed no summary"
    );
}

#[test]
fn c_programs_pass_plain_and_under_sanitizers() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let library = static_library();
    let out_dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("ffi-tests");
    std::fs::create_dir_all(&out_dir).expect("create the output directory");
    let programs = c_programs(root);
    assert!(!programs.is_empty(), "ffi-tests/ holds C programs");
    for source in &programs {
        compile_and_run(source, &library, false, &out_dir);
        compile_and_run(source, &library, true, &out_dir);
    }
}
