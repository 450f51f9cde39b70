#!/usr/bin/env bash
# The whole test suite: the README's test command, and CI's. Arguments go to `cargo test`
# (`bash .ci/test.sh --test cluster_solve` runs one file).
#
# The suite runs once, with the `mpi` feature, so that the distributed mode's tests
# (tests/cluster_*.rs: `mpirun -np 3` and `-np 4`, oversubscribed, against one process) share
# the build of all the others. The feature only adds code that runs under an MPI launcher
# (docs/cluster.md): outside one, every other test runs what the default build runs. Open MPI
# and libclang (for the mpi crate's bindings) are installed with apt-get when missing; where
# they cannot be, the suite runs without the feature and the distributed tests are SKIPPED
# with a message, except under ARBOR_REQUIRE_MPI=1 (CI), where that is a failure.
set -euo pipefail
cd "$(dirname "$0")/.."

have_mpi() {
    command -v mpirun >/dev/null && command -v mpicc >/dev/null &&
        compgen -G '/usr/lib/llvm-*/lib/libclang.so' >/dev/null
}

if ! have_mpi; then
    sudo=""
    [ "$(id -u)" = 0 ] || sudo="sudo -n"
    echo "installing Open MPI and libclang (openmpi-bin libopenmpi-dev libclang-dev)"
    { $sudo apt-get update -qq &&
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
            openmpi-bin libopenmpi-dev libclang-dev >/dev/null; } || true
fi
if ! have_mpi; then
    echo "SKIPPED: the distributed tests need Open MPI and libclang, which apt-get could not install" >&2
    [ "${ARBOR_REQUIRE_MPI:-0}" = 1 ] && exit 1
    exec cargo test "$@"
fi

# Open MPI refuses to run as root (CI containers) unless told it is meant.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
exec cargo test --features mpi "$@"
