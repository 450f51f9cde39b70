//! Compiles every C program in `ffi-tests/` against `include/arbor.h` and the static library
//! that this test build produced, with `gcc -std=c99 -Wall -Wextra -Werror -pedantic`, once
//! plain and once with `-fsanitize=address,undefined` (two tests), and runs each one.
use std::path::{Path, PathBuf};

mod c_programs;
use c_programs::{compile, run, static_library};

fn c_sources(root: &Path) -> Vec<PathBuf> {
    let mut programs: Vec<PathBuf> = std::fs::read_dir(root.join("ffi-tests"))
        .expect("ffi-tests/ exists")
        .map(|entry| entry.expect("readable entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "c"))
        .collect();
    programs.sort();
    programs
}

/// Compiles and runs every program, plain or under the sanitizers: two tests, so that the
/// test harness runs the two builds side by side.
fn compile_and_run_all(sanitize: bool) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let library = static_library();
    let out_dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("ffi-tests");
    std::fs::create_dir_all(&out_dir).expect("create the output directory");
    let programs = c_sources(root);
    assert!(!programs.is_empty(), "ffi-tests/ holds C programs");
    for source in &programs {
        let name = source.file_stem().expect("a file name").to_string_lossy();
        let exe = out_dir.join(format!("{name}{}", if sanitize { "-san" } else { "" }));
        compile(source, &library, sanitize, &exe);
        run(&exe, &[]);
    }
}

#[test]
fn c_programs_pass_plain() {
    compile_and_run_all(false);
}

#[test]
fn c_programs_pass_under_sanitizers() {
    compile_and_run_all(true);
}
