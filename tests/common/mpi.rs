//! Runs the `arbor` binary under `mpirun`, for the tests of the distributed mode (built with
//! the `mpi` feature, which needs an MPI implementation installed: `.ci/run` installs Open MPI).
use std::process::Command;

/// `mpirun -np <ranks> arbor <args>`, oversubscribed (more ranks than cores) and allowed to
/// run as root (CI containers): exit code (-1 if killed), standard output, standard error.
pub fn mpirun(ranks: usize, args: &[&str]) -> (i32, String, String) {
    let output = Command::new("mpirun")
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .args(["--oversubscribe", "-np", &ranks.to_string()])
        .arg(env!("CARGO_BIN_EXE_arbor"))
        .args(args)
        .output()
        .unwrap_or_else(|error| {
            panic!(
                "mpirun did not start ({error}): install Open MPI (openmpi-bin) to run these tests"
            )
        });
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}
