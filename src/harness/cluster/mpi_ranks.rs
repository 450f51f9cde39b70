//! The MPI side of [`super`]: initialisation and the two collectives, on `MPI_COMM_WORLD`.
//! Only the calling (main) thread talks to MPI; worker threads never do, so MPI is asked for
//! `Funneled` support.
use mpi::Count;
use mpi::datatype::PartitionMut;
use mpi::environment::Universe;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;

/// Initialises MPI; returns the universe (finalised when dropped) and (rank, size). A
/// process that no launcher started, or that cannot initialise MPI, runs alone.
pub fn start() -> (Option<Universe>, (usize, usize)) {
    if !super::launcher::started_as_rank() {
        return (None, (0, 1));
    }
    match mpi::initialize_with_threading(mpi::Threading::Funneled) {
        Some((universe, _)) => {
            let world = universe.world();
            let rank = usize::try_from(world.rank()).unwrap_or(0);
            let size = usize::try_from(world.size()).unwrap_or(1).max(1);
            (Some(universe), (rank, size))
        }
        None => (None, (0, 1)),
    }
}

/// The communicator of every rank.
pub fn world() -> SimpleCommunicator {
    SimpleCommunicator::world()
}

pub fn all_gather(bytes: &[u8]) -> Vec<Vec<u8>> {
    let world = world();
    let size = usize::try_from(world.size()).unwrap_or(1);
    let mine = Count::try_from(bytes.len()).unwrap_or(Count::MAX);
    let mut counts: Vec<Count> = vec![0; size];
    world.all_gather_into(&mine, &mut counts[..]);
    let displs: Vec<Count> = counts
        .iter()
        .scan(0, |offset, &count| {
            let at = *offset;
            *offset += count;
            Some(at)
        })
        .collect();
    let total: usize = counts
        .iter()
        .map(|&c| usize::try_from(c).unwrap_or(0))
        .sum();
    let mut joined = vec![0u8; total];
    {
        let mut partition = PartitionMut::new(&mut joined[..], &counts[..], &displs[..]);
        world.all_gather_varcount_into(bytes, &mut partition);
    }
    let mut parts = Vec::with_capacity(size);
    let mut rest = &joined[..];
    for &count in &counts {
        let (part, tail) = rest.split_at(usize::try_from(count).unwrap_or(0).min(rest.len()));
        parts.push(part.to_vec());
        rest = tail;
    }
    parts
}

pub fn broadcast(mut bytes: Vec<u8>) -> Vec<u8> {
    let world = world();
    let root = world.process_at_rank(0);
    let mut len = u64::try_from(bytes.len()).unwrap_or(u64::MAX);
    root.broadcast_into(&mut len);
    bytes.resize(usize::try_from(len).unwrap_or(0), 0);
    root.broadcast_into(&mut bytes[..]);
    bytes
}

pub fn abort(code: u8) -> ! {
    world().abort(i32::from(code))
}
