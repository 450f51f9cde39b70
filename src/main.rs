//! The `arbor` command-line harness.
fn main() -> std::process::ExitCode {
    arbor::harness::run(std::env::args().skip(1).collect())
}
