#!/usr/bin/env bash
# run_embed_test.sh BUILD_DIR SOURCE_DIR MPIRUN: the library inside a user's own MPI program
# (ctest install_embed_mpi, label integration; built where the library has the MPI backend).
#
#  1. installs the build tree into a temporary prefix;
#  2. copies tests/install/embed (an MPI program that owns MPI_Init and MPI_Finalize and runs
#     dlb::mpi::session on a communicator of its own, embed.cpp) out of the source tree and
#     builds it there with CMake (find_package(DLB COMPONENTS mpi), DLB::mpi) against the prefix;
#  3. runs it under mpirun: -np 4 (the library on a sub-communicator of 3 ranks, the 4th outside
#     it) and -np 3 (on the world), the first loop's policy from DLB_POLICY; every rank must say
#     OK and the job exit 0 (the first loop with every rank a worker, the default, rank 0
#     computing iterations of its own; the second with a dedicated master);
#     docs/library.md's example (docs_example.cpp) under -np 4; then a bad DLB_POLICY, which
#     every rank must catch as a dlb::usage_error and go on to MPI_Finalize (no MPI_Abort: exit
#     1 from main); then a body that throws on one rank (the last; then rank 0, beside its
#     master part), after which every rank must have caught an exception and the job end with
#     MPI_Finalize (exit 0);
#  4. leaves nothing behind: no process of the runs, its temporary directory.
set -euo pipefail
build=$(cd "$1" && pwd)
source=$(cd "$2" && pwd)
mpirun=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/dlb-embed-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
. "$source/tests/install/common.sh"
outside_mpi_env "$work"

echo "== install into $work/prefix; the outside MPI program, copied out of the source tree, built with find_package(DLB COMPONENTS mpi)"
build_embed "$build" "$source" "$work"
ldd "$work/build/embed" > "$work/ldd.txt"  # whole: grep -q ending a pipe early fails it
grep -q "libdlb.so => $work/prefix/lib" "$work/ldd.txt" ||
  { cat "$work/ldd.txt"; fail "embed does not load the installed libdlb.so"; }

for np in 4 3; do
  for policy in GDDLB LCDLB; do
    echo "== mpirun -np $np embed (DLB_POLICY=$policy)"
    rc=0
    (cd / && DLB_EMBED_TEST="$work" DLB_POLICY=$policy timeout 120 "$mpirun" --oversubscribe \
       -np "$np" "$work/build/embed" > "$work/out" 2>&1) || rc=$?
    [[ $rc == 0 ]] || { cat "$work/out"; fail "exit $rc: mpirun -np $np embed"; }
    ok=$(grep -c "^embed: rank [0-9]*: OK$" "$work/out" || true)
    [[ $ok == "$np" ]] || { cat "$work/out"; fail "$ok of $np ranks said OK"; }
  done
done

echo "== mpirun -np 4 docs_example (docs/library.md's example: the library on ranks 0-2)"
rc=0
(cd / && DLB_EMBED_TEST="$work" timeout 120 "$mpirun" --oversubscribe -np 4 \
   "$work/build/docs_example" > "$work/out" 2>&1) || rc=$?
[[ $rc == 0 ]] || { cat "$work/out"; fail "exit $rc: mpirun -np 4 docs_example"; }
n=$(grep -c "^rank [0-2]: y\[9999\] = 99.995000$" "$work/out" || true)
[[ $n == 3 ]] || { cat "$work/out"; fail "$n of 3 ranks have the gathered result"; }

echo "== a bad DLB_POLICY: a dlb::usage_error on every rank, caught by the program, which goes on to MPI_Finalize"
rc=0
(cd / && DLB_EMBED_TEST="$work" DLB_POLICY=BOGUS timeout 120 "$mpirun" --oversubscribe -np 3 \
   "$work/build/embed" > "$work/out" 2>&1) || rc=$?
[[ $rc == 1 ]] || { cat "$work/out"; fail "exit $rc (expected 1): DLB_POLICY=BOGUS"; }
n=$(grep -c "FAILED: environment variable DLB_POLICY: option --strategy" "$work/out" || true)
[[ $n == 3 ]] || { cat "$work/out"; fail "$n of 3 ranks caught the usage error"; }
! grep -q "MPI_ABORT" "$work/out" || { cat "$work/out"; fail "the job was aborted"; }

for thrower in 1 0; do
  echo "== a body that throws on one rank (DLB_EMBED_FAIL=$thrower: 1 the last rank, 0 rank 0, which computes beside its master part): every rank catches an exception, the program goes on to MPI_Finalize"
  rc=0
  (cd / && DLB_EMBED_TEST="$work" DLB_EMBED_FAIL=$thrower timeout 120 "$mpirun" --oversubscribe \
     -np 3 "$work/build/embed" > "$work/out" 2>&1) || rc=$?
  [[ $rc == 0 ]] || { cat "$work/out"; fail "exit $rc: DLB_EMBED_FAIL=$thrower"; }
  n=$(grep -c "^embed: rank [0-9]*: caught$" "$work/out" || true)
  [[ $n == 3 ]] || { cat "$work/out"; fail "$n of 3 ranks caught the failure"; }
done

# No process of the runs is left (an MPI rank may still be exiting: up to 10 s).
wait_none_left DLB_EMBED_TEST "$work"
echo "embed test passed"
