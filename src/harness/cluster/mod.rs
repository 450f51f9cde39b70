//! The processes of one run. Started by an MPI launcher (`mpirun -np K arbor …`, Slurm's
//! `srun arbor …`) from a build with the `mpi` feature, a run has K ranks: rank 0, the
//! root, reads and writes the files and prints; the others take their share of the work and
//! stay silent. Without the feature, or outside a launcher, one process is the whole run and
//! every function here answers as its only rank.
//!
//! Commands keep every rank on the same path: each rank computes the same state from the
//! same options and seeds, and the collectives below ([`all_gather`], [`broadcast`]) are the
//! only places they meet, so a distributed result is the one-process result.
mod from_root;
mod launcher;
#[cfg(feature = "mpi")]
mod mpi_ranks;
#[cfg(feature = "mpi")]
pub mod ppn2;
pub mod tasks;
pub mod wire;

pub use from_root::from_root;
pub use launcher::outside_the_run;

use std::sync::OnceLock;

/// This process's rank and the number of ranks, set once by [`start`].
static RANKS: OnceLock<(usize, usize)> = OnceLock::new();

/// Held by `main` for the whole run: with the `mpi` feature, dropping it shuts MPI down.
pub struct Session {
    #[cfg(feature = "mpi")]
    _universe: Option<mpi::environment::Universe>,
}

/// Joins the run's ranks (with the `mpi` feature; otherwise a run of one).
pub fn start() -> Session {
    #[cfg(feature = "mpi")]
    {
        let (universe, ranks) = mpi_ranks::start();
        let _ = RANKS.set(ranks);
        Session {
            _universe: universe,
        }
    }
    #[cfg(not(feature = "mpi"))]
    {
        let _ = RANKS.set((0, 1));
        Session {}
    }
}

/// This process's rank: 0 for the root, and for a run of one.
pub fn rank() -> usize {
    RANKS.get().map_or(0, |&(rank, _)| rank)
}

/// The number of ranks of the run (1 without MPI).
pub fn size() -> usize {
    RANKS.get().map_or(1, |&(_, size)| size)
}

/// Whether this process prints and writes files for the run.
pub fn is_root() -> bool {
    rank() == 0
}

/// Every rank's `bytes`, in rank order, on every rank (a collective: every rank calls it).
pub fn all_gather(bytes: &[u8]) -> Vec<Vec<u8>> {
    #[cfg(feature = "mpi")]
    if size() > 1 {
        return mpi_ranks::all_gather(bytes);
    }
    vec![bytes.to_vec()]
}

/// The root's `bytes` on every rank; the other ranks' `bytes` are ignored (a collective).
pub fn broadcast(bytes: Vec<u8>) -> Vec<u8> {
    #[cfg(feature = "mpi")]
    if size() > 1 {
        return mpi_ranks::broadcast(bytes);
    }
    bytes
}

/// Ends every rank of a failed run with `code`: a rank that failed alone would otherwise
/// leave the others waiting at their next collective. Returns only in a run of one.
pub fn stop_all(code: u8) {
    #[cfg(feature = "mpi")]
    if size() > 1 {
        mpi_ranks::abort(code);
    }
    let _ = code;
}
