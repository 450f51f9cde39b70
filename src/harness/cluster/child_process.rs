//! Programs a rank starts (GTP engines, ACPC clients) are not ranks of the run. They would
//! inherit the launcher's variables, and an MPI program among them (arbor itself, built with
//! the `mpi` feature) would then try to join a run that does not count it, and fail to start.
use std::ffi::OsStr;
use std::process::Command;

/// Prefixes of the variables Open MPI, MPICH (Hydra) and PMI/PMIx launchers such as Slurm's
/// `srun` hand their ranks.
const LAUNCHER_PREFIXES: [&str; 9] = [
    "OMPI_",
    "ORTE_",
    "OPAL_",
    "PMIX_",
    "PMI_",
    "HYDRA_",
    "HYDI_",
    "MPIR_",
    "MPI_LOCAL",
];

/// Whether the variable `name` tells a process that it is a rank of a launched run.
fn is_launcher_variable(name: &OsStr) -> bool {
    let name = name.to_string_lossy();
    LAUNCHER_PREFIXES
        .iter()
        .any(|prefix| name.starts_with(prefix))
}

/// Removes the launcher's variables from `command`'s environment, so that the program runs
/// on its own as it would outside the run.
pub fn outside_the_run(command: &mut Command) -> &mut Command {
    for (name, _) in std::env::vars_os() {
        if is_launcher_variable(&name) {
            command.env_remove(name);
        }
    }
    command
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_launchers_variables_are_removed() {
        for name in [
            "OMPI_COMM_WORLD_RANK",
            "PMIX_RANK",
            "PMI_FD",
            "HYDRA_CONTROL_FD",
        ] {
            assert!(is_launcher_variable(OsStr::new(name)), "{name}");
        }
        for name in ["PATH", "HOME", "SLURM_JOB_ID", "OMP_NUM_THREADS", "MPICH"] {
            assert!(!is_launcher_variable(OsStr::new(name)), "{name}");
        }
    }
}
