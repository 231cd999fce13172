#!/usr/bin/env bash
# run_embed_faults_test.sh BUILD_DIR SOURCE_DIR MPIRUN: what a program that embeds
# dlb::mpi::session can do wrong, and what the library must do then (ctest
# install_embed_mpi_faults, label integration; where the library has the MPI backend). The
# outside program tests/install/embed/embed_faults.cpp, built against the installed library with
# pkg-config alone, runs one case per mpirun job (-np 3), each job bounded by
# `timeout` here (a hang fails the case, whatever ctest's timeout):
#  - a session before MPI_Init, after MPI_Finalize, on MPI_COMM_NULL: a dlb::usage_error naming
#    the mistake, and the program's MPI goes on (its own later MPI_Init works);
#  - under every policy, ten times: a session whose body throws on one rank, then a new session
#    on the same communicator and one on a fresh duplicate, both right on every rank;
#  - a rank that never makes its session: the others get a run_error within their --timeout;
#  - the texts: the master and the other slave are told which rank's body threw and its
#    message, nobody that a live rank exited;
# and no process of the runs is left.
set -euo pipefail
build=$(cd "$1" && pwd)
source=$(cd "$2" && pwd)
mpirun=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/dlb-embed-faults.XXXXXX")
trap 'rm -rf "$work"' EXIT
. "$source/tests/install/common.sh"
outside_mpi_env "$work"

echo "== install into $work/prefix, build tests/install/embed/embed_faults.cpp with pkg-config"
# (find_package(DLB) is install_embed_mpi's; pkg-config alone is quicker to build with.)
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
mkdir -p "$work/build"
g++ -std=c++20 -O1 -o "$work/build/embed_faults" "$source/tests/install/embed/embed_faults.cpp" \
  $(PKG_CONFIG_PATH=$work/prefix/lib/pkgconfig pkg-config --cflags --libs dlb-mpi) ||
  fail "g++ embed_faults.cpp with dlb-mpi"

# run BOUND CASE ARGS...: one mpirun job of 3 ranks; its output in $work/out, its status in $rc.
run() {
  local bound=$1
  shift
  echo "== mpirun -np 3 embed_faults $*"
  rc=0
  (cd / && DLB_EMBED_TEST="$work" timeout "$bound" "$mpirun" --oversubscribe -np 3 \
     "$work/build/embed_faults" "$@" > "$work/out" 2>&1) || rc=$?
  [[ $rc != 124 ]] || { cat "$work/out"; fail "embed_faults $* did not end within $bound s"; }
}
# expect N PATTERN WHAT: N lines of the output match PATTERN (grep -E).
expect() {
  local n
  n=$(grep -cE "$2" "$work/out" || true)
  [[ $n == "$1" ]] || { cat "$work/out"; fail "$3: $n lines (expected $1) match: $2"; }
}

run 60 before-init
[[ $rc == 0 ]] || { cat "$work/out"; fail "exit $rc: before-init"; }
expect 3 "^embed_faults: before MPI_Init: usage_error: dlb::mpi::session before MPI_Init" \
  "a session before MPI_Init is a usage error"
expect 3 "^embed_faults: rank [0-9]: MPI_Init works$" "the program's own MPI_Init afterwards"

run 60 after-finalize
[[ $rc == 0 ]] || { cat "$work/out"; fail "exit $rc: after-finalize"; }
expect 3 "^embed_faults: after MPI_Finalize: usage_error: dlb::mpi::session after MPI_Finalize" \
  "a session after MPI_Finalize is a usage error"

run 60 null
[[ $rc == 0 ]] || { cat "$work/out"; fail "exit $rc: null"; }
expect 3 "^embed_faults: rank [0-9]: usage_error: dlb::mpi::session on MPI_COMM_NULL" \
  "MPI_COMM_NULL is a usage error"
expect 3 "^embed_faults: rank [0-9]: usage_error: dlb::mpi::session_params::group must be 0 \(P/2\) or more, got -1$" \
  "a negative group is a usage error naming the field"
expect 3 "^embed_faults: rank [0-9]: usage_error: dlb::mpi::session_params::timeout must be a positive duration, got 0 s$" \
  "a zero timeout is a usage error naming the field"
expect 3 "^embed_faults: rank [0-9]: usage_error: dlb::mpi::session_params::prefetch must be in \[0, 1\), got 1$" \
  "a prefetch of 1 is a usage error naming the field"
expect 3 "^embed_faults: rank [0-9]: MPI goes on$" "the job goes on after MPI_COMM_NULL and the bad parameters"
expect 0 "MPI_ERR|MPI_ABORT" "nothing of MPI's own errors"

run 60 blame
[[ $rc == 0 ]] || { cat "$work/out"; fail "exit $rc: blame"; }
expect 1 "^embed_faults: rank 2: told: the body failed at iteration" "rank 2 gets its own exception"
expect 1 "^embed_faults: rank 0: told: slave 2 \(MPI rank 2\) failed: its loop body threw: the body failed at iteration" \
  "the master is told that rank 2's body threw, and its message"
expect 1 "^embed_faults: rank 1: told: the master aborted the run: slave 2 \(MPI rank 2\) failed: its loop body threw: the body failed" \
  "slave 1 is told that rank 2's body threw, and its message"
expect 0 "exited" "no live rank said to have exited"

run 60 missing-rank
[[ $rc == 0 ]] || { cat "$work/out"; fail "exit $rc: missing-rank"; }
expect 2 "^embed_faults: rank [01]: run_error after ([4-9]|1[0-9])\.[0-9] s: not every rank of the communicator \(3 ranks\) made its dlb::mpi::session within --timeout 4 s" \
  "a rank that makes no session: the others' run_error within their --timeout (4 s)"

run 300 fail-then-new 10 all
[[ $rc == 0 ]] || { cat "$work/out"; fail "exit $rc: fail-then-new"; }
policies=$(grep -c "^embed_faults: rank 0: .*: [0-9]* of 10 " "$work/out" || true)
(( policies >= 14 )) || { cat "$work/out"; fail "$policies policies tried (expected every one, 14 or more)"; }
expect $((3 * policies)) "^embed_faults: rank [0-2]: [^ ]*: 10 of 10 " \
  "after a failed session, new sessions right on every rank, under every policy, 10 of 10"
grep "^embed_faults: rank 0: " "$work/out"

wait_none_left DLB_EMBED_TEST "$work"
echo "embed faults test passed"
