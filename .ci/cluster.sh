#!/usr/bin/env bash
# The distributed mode's tests (the `mpi` feature, issue 19): each runs arbor under
# `mpirun -np 3` and `-np 4` (oversubscribed on a small machine) and compares with one
# process. Installs Open MPI and libclang (for the mpi crate's bindings) with apt-get when they
# are missing. Where they cannot be installed the tests are SKIPPED with a message, except
# under ARBOR_REQUIRE_MPI=1 (CI), where that is a failure.
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
    exit 0
fi

# Open MPI refuses to run as root (CI containers) unless told it is meant.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cargo test --features mpi --test cluster_solve --test cluster_evolve --test cluster_matches
