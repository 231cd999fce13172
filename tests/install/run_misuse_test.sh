#!/usr/bin/env bash
# run_misuse_test.sh BUILD_DIR SOURCE_DIR MPIRUN: what a program gets wrong with the library
# inside its MPI job, in each of its three layers, and what every rank is told (ctest
# install_misuse_mpi, labels integration and install_mpi; docs/library.md, "What the library
# checks"). Installs the build tree, builds three outside programs against it with pkg-config
# alone (tests/install/embed/embed_faults.cpp, tests/install/c/misuse.c,
# tests/install/fortran/misuse.f90, its module dlb.mod put by -J in a folder of its own), and
# runs each case under mpirun -np 3, every job bounded here (a hang fails it):
#  - C++ (embed_faults misuse): ranks whose loop lengths, policies, arrays differ, finish on one
#    rank against a loop on the others: a usage_error on every rank naming the field and the
#    ranks, found within 1 s (not at the 30 s timeout); a rank throwing between its session and
#    its loop: the others told within 1 s which; a loop after finish, a group larger
#    than P, parse_policy of a bad name: usage errors; parse_policy(""): no policy; after each, a
#    new session on the same communicator is right;
#  - C++ (embed_faults skip-then-new 5): a rank skips a session (the others' times out after
#    1 s), the ranks meet with their own MPI_Barrier, a new session is right, 5 times in 5;
#  - C++: a typed AUTO-ALL with the program's candidates runs; a typed CSS:0 and a policy both
#    typed and in the options are usage errors naming the field(s);
#  - C and Fortran: AUTO-ALL with --candidates runs; a policy named and in the options
#    DLB_ERR_USAGE naming both; before MPI_Init and after MPI_Finalize DLB_ERR_USAGE (not the
#    job's end); a body returning 7 DLB_ERR_RUN on every rank naming it; a mismatched length or
#    policy and a loop after finish DLB_ERR_USAGE; Fortran's dlb_create_with; each followed by a
#    right session;
# and no process of the runs is left.
set -euo pipefail
build=$(cd "$1" && pwd)
source=$(cd "$2" && pwd)
mpirun=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/dlb-misuse.XXXXXX")
trap 'rm -rf "$work"' EXIT
. "$source/tests/install/common.sh"
outside_mpi_env "$work"

echo "== install into $work/prefix, build the three programs with pkg-config alone"
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
export PKG_CONFIG_PATH=$work/prefix/lib/pkgconfig
cp "$source/tests/install/embed/embed_faults.cpp" "$source/tests/install/c/misuse.c" \
   "$source/tests/install/fortran/misuse.f90" "$work/"
g++ -std=c++20 -O1 -o "$work/embed_faults" "$work/embed_faults.cpp" \
  $(pkg-config --cflags --libs dlb-mpi) || fail "g++ embed_faults.cpp with dlb-mpi"
mpicc -std=c11 -Wall -Wextra -Werror -o "$work/misuse_c" "$work/misuse.c" \
  $(pkg-config --cflags --libs dlb-mpi-c) || fail "mpicc misuse.c with dlb-mpi-c"
mkdir -p "$work/mod"
(cd "$work" && mpifort -std=f2008 -J "$work/mod" -o "$work/misuse_f" \
   "$work/prefix/share/dlb/fortran/dlb.f90" misuse.f90 $(pkg-config --libs dlb-mpi-c)) ||
  fail "mpifort misuse.f90 with the module dlb"
[[ -f $work/mod/dlb.mod && ! -e $work/dlb.mod ]] || fail "dlb.mod not in the -J folder alone"

# run BOUND EXE ARGS...: one mpirun job of 3 ranks; its output in $work/out (sorted).
run() {
  local bound=$1 exe=$2 rc=0
  shift 2
  echo "== mpirun -np 3 $exe $*"
  (cd / && DLB_MISUSE_TEST="$work" timeout "$bound" "$mpirun" --oversubscribe -np 3 \
     "$work/$exe" "$@" > "$work/raw" 2>&1) || rc=$?
  sort "$work/raw" > "$work/out"
  [[ $rc != 124 ]] || { cat "$work/out"; fail "$exe $* did not end within $bound s"; }
  [[ $rc == 0 ]] || { cat "$work/out"; fail "exit $rc: $exe $*"; }
}
# expect N PATTERN WHAT: N lines of the output match PATTERN (grep -E).
expect() {
  local n
  n=$(grep -cE "$2" "$work/out" || true)
  [[ $n == "$1" ]] || { cat "$work/out"; fail "$3: $n lines (expected $1) match: $2"; }
}
# right PREFIX CASE: every rank's new session after CASE was right.
right() { expect 3 "^$1: rank [0-2]: $2: then right$" "$2: a new session on the communicator after it"; }

within1="after 0\.[0-9] s"
p=embed_faults
run 60 embed_faults misuse
expect 3 "^$p: rank [0-2]: mismatched-n: usage_error $within1: dlb::mpi::session: the ranks disagree on the loop's length \(loop_spec::iterations\): rank 2 has 300 iterations, ranks 0-1 have 400 iterations$" \
  "a loop length that differs: a usage error on every rank within 1 s"
expect 3 "^$p: rank [0-2]: mismatched-policy: usage_error $within1: .*session_params::policy: rank 2 has policy SS, ranks 0-1 have policy GDDLB$" \
  "a policy that differs"
expect 3 "^$p: rank [0-2]: finish-against-loop: usage_error $within1: .*what they call: rank 2 has called finish, ranks 0-1 have called parallel_for$" \
  "finish on one rank against a loop on the others"
expect 3 "^$p: rank [0-2]: mismatched-array: usage_error $within1: .*the arrays' element types, extents or roles: rank 2 has arrays y f64 200x2 in, ranks 0-1 have arrays y f64 200x3 in$" \
  "arrays of other extents"
expect 1 "^$p: rank 0: throws-before-loop: run_error $within1: slave 2 \(MPI rank 2\) failed: rank 2 left the run on an exception$" \
  "a rank throwing before its loop: the master told at once (not at the timeout)"
expect 1 "^$p: rank 1: throws-before-loop: run_error $within1: the master aborted the run: slave 2 \(MPI rank 2\) failed: rank 2 left the run on an exception$" \
  "a rank throwing before its loop: the other rank told at once"
expect 3 "^$p: rank [0-2]: loop-after-finish: usage_error .*parallel_for after finish\(\)" "a loop after finish"
expect 3 "^$p: rank [0-2]: group-too-large: usage_error .*session_params::group must not exceed P, the session's 3 slaves .*got 1000$" \
  "a group larger than P, naming the field"
expect 3 "^$p: rank [0-2]: typed-auto-all: no exception$" \
  "a typed AUTO-ALL with the program's candidates runs, committing to one of them"
expect 3 "^$p: rank [0-2]: typed-bad-policy: usage_error .*session_params::policy: strategy CSS needs a chunk size k >= 1, got 0$" \
  "a bad typed policy: a usage error naming the field"
expect 3 "^$p: rank [0-2]: policy-twice: usage_error .*the policy is given twice: session_params::policy GSS and --strategy TSS in session_params::options" \
  "a policy both typed and in the options: a usage error naming both"
expect 3 "^$p: rank [0-2]: parse-policy-bad: usage_error .*dlb::mpi::parse_policy: unknown strategy 'FASTEST'" \
  "parse_policy of a bad name"
expect 3 "^$p: rank [0-2]: parse-policy-empty: no exception$" "parse_policy(\"\"): no policy, no error"
for c in mismatched-n mismatched-policy finish-against-loop mismatched-array throws-before-loop \
         loop-after-finish group-too-large typed-auto-all typed-bad-policy policy-twice \
         parse-policy-bad parse-policy-empty; do right $p $c; done

run 60 embed_faults skip-then-new 5
expect 3 "^$p: rank [0-2]: skip-then-new: 5 of 5$" \
  "a session skipped by one rank, then a new one on the same communicator, 5 of 5"

for layer in c f; do
  p=dlb_${layer}_misuse
  run 30 misuse_$layer before-init
  expect 3 "^$p: before MPI_Init: rc 1: .*dlb::mpi::session before MPI_Init" "$layer before MPI_Init"
  expect 3 "^$p: rank [0-2]: MPI_Init works$" "$layer: the program's MPI_Init after it"
  run 30 misuse_$layer after-finalize
  expect 3 "^$p: after MPI_Finalize: rc 1: .*dlb::mpi::session after MPI_Finalize" "$layer after MPI_Finalize"
  run 60 misuse_$layer run
  expect 1 "^$p: rank 2: body-rc: rc 2.*: the body returned 7 at iteration [0-9]+ on rank 2$" \
    "$layer: the rank whose body returned 7"
  expect 1 "^$p: rank 0: body-rc: rc 2.*: slave 2 \(MPI rank 2\) failed: its loop body threw: the body returned 7 " \
    "$layer: the master is told which rank's body returned what"
  expect 1 "^$p: rank 1: body-rc: rc 2.*: the master aborted the run: slave 2 \(MPI rank 2\) failed: its loop body threw: the body returned 7 " \
    "$layer: the other rank is told too"
  expect 3 "^$p: rank [0-2]: mismatched-n: rc 1.*rank 2 has 300 iterations, ranks 0-1 have 400 iterations$" \
    "$layer: a loop length that differs"
  expect 3 "^$p: rank [0-2]: after-finish: rc 1.*parallel_for after finish\(\)" "$layer: a loop after finish"
  expect 3 "^$p: rank [0-2]: auto-all-candidates: rc 0, 500 of 500" \
    "$layer: AUTO-ALL among the program's candidates runs every iteration once"
  expect 3 "^$p: rank [0-2]: policy-twice: rc 1.*the policy is given twice: session_params::policy GSS and --strategy TSS in session_params::options" \
    "$layer: a policy named and in the options: DLB_ERR_USAGE naming both"
  for c in body-rc mismatched-n after-finish policy-twice; do right $p $c; done
  if [[ $layer == c ]]; then
    expect 3 "^$p: rank [0-2]: mismatched-policy: rc 1 .*rank 2 has policy SS, ranks 0-1 have policy TSS$" \
      "C: a policy that differs"
    right $p mismatched-policy
  else
    expect 3 "^$p: rank [0-2]: create-with: rc 0: $" \
      "Fortran: dlb_create_with, a timeout, options and a prefetch"
    expect 3 "^$p: rank [0-2]: bad-prefetch: rc 1: .*prefetch must be in \[0, 1\), got 1$" \
      "Fortran: a prefetch of 1 is DLB_ERR_USAGE naming it"
    for c in create-with bad-prefetch; do right $p $c; done
  fi
done

wait_none_left DLB_MISUSE_TEST "$work"
echo "misuse test passed"
