//! The `arbor` command-line harness.
fn main() -> std::process::ExitCode {
    // Joins the other ranks when started by an MPI launcher (the `mpi` feature).
    let _ranks = arbor::harness::cluster::start();
    // OS strings: a file name need not be UTF-8, and text that is not is an error, not a panic.
    arbor::harness::run(std::env::args_os().skip(1).collect())
}
