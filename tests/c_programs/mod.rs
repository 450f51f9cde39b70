//! Compiling and running C programs against the static library of this test build, shared
//! by the C ABI tests (`ffi.rs`, `ffi_hostile.rs`): the same gcc flags as CI's C step
//! (`-std=c99 -Wall -Wextra -Werror -pedantic`), plain or under ASan and UBSan.
use std::path::{Path, PathBuf};
use std::process::Command;

/// The static library cargo built next to this test binary.
pub fn static_library() -> PathBuf {
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

/// Compiles `source` with the repository's `include/` and `ffi-tests/` on the include path
/// into `exe`, linked with `library`; panics with gcc's messages if it fails.
pub fn compile(source: &Path, library: &Path, sanitize: bool, exe: &Path) {
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
    gcc.arg("-I")
        .arg(root.join("include"))
        .arg("-I")
        .arg(root.join("ffi-tests"));
    gcc.arg(source).arg(library).arg("-o").arg(exe);
    // What a Rust std static library needs from the system (rustc --print native-static-libs).
    gcc.args(["-lgcc_s", "-lutil", "-lrt", "-lpthread", "-lm", "-ldl"]);
    if cfg!(feature = "mpi") {
        gcc.args(mpi_link_flags());
    }
    let built = gcc.output().expect("gcc runs");
    assert!(
        built.status.success(),
        "gcc failed on {} (sanitize: {sanitize}):\n{}",
        source.display(),
        String::from_utf8_lossy(&built.stderr)
    );
}

/// A library built with the `mpi` feature (as `.ci/test.sh` builds the tests) also needs MPI's
/// own library: the flags its compiler wrapper names.
fn mpi_link_flags() -> Vec<String> {
    let out = Command::new("mpicc")
        .arg("--showme:link")
        .output()
        .expect("mpicc runs (a build with the mpi feature has MPI installed)");
    assert!(out.status.success(), "mpicc --showme:link failed");
    String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .map(str::to_owned)
        .collect()
}

/// Runs `exe` (with `env` added), prints its output, and checks that it succeeded and
/// printed its `… passed, 0 failed` summary.
pub fn run(exe: &Path, env: &[(&str, String)]) {
    let mut command = Command::new(exe);
    command
        .env("ASAN_OPTIONS", "detect_leaks=1:abort_on_error=0")
        .env("UBSAN_OPTIONS", "print_stacktrace=1");
    for (name, value) in env {
        command.env(name, value);
    }
    let ran = command.output().expect("the program runs");
    let stdout = String::from_utf8_lossy(&ran.stdout);
    print!("{stdout}");
    assert!(
        ran.status.success(),
        "{} failed ({}):\n{stdout}\n{}",
        exe.display(),
        ran.status,
        String::from_utf8_lossy(&ran.stderr)
    );
    assert!(
        stdout.contains(" passed, 0 failed"),
        "{} printed no summary",
        exe.display()
    );
}
