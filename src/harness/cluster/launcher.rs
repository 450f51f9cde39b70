//! The variables an MPI launcher (`mpirun`, `mpiexec`, Slurm's `srun`) gives its ranks: they
//! tell a process that it is a rank, and they must not reach the programs a rank starts (GTP
//! engines, ACPC clients), which are no ranks of the run. An MPI program among those (arbor
//! itself, built with the `mpi` feature) would otherwise try to join a run that does not
//! count it.
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

/// Variables of which one is set in every rank: Open MPI's, PMIx's (Open MPI 4 and later,
/// `srun --mpi=pmix`), PMI's (MPICH's Hydra, `srun --mpi=pmi2`).
const RANK_MARKS: [&str; 4] = ["OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"];

/// Whether a launcher started this process as a rank of a run. A process started any other
/// way runs alone without initialising MPI (an MPI singleton would start a daemon for
/// nothing, and a program started by a rank must not join the rank's run).
#[cfg_attr(not(feature = "mpi"), allow(dead_code))]
pub fn started_as_rank() -> bool {
    RANK_MARKS
        .iter()
        .any(|name| std::env::var_os(name).is_some())
}

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
        // What marks a rank is removed from a rank's children.
        for name in RANK_MARKS {
            assert!(is_launcher_variable(OsStr::new(name)), "{name}");
        }
        for name in ["PATH", "HOME", "SLURM_JOB_ID", "OMP_NUM_THREADS", "MPICH"] {
            assert!(!is_launcher_variable(OsStr::new(name)), "{name}");
        }
    }
}
