#!/usr/bin/env bash
# outside_steps.sh WORK: the outside user's part of run_install_test.sh (see there), run from a
# copy in WORK, possibly with the source tree hidden: build WORK/outside against WORK/prefix with
# pkg-config and with CMake, run both verified under both backends (and as MPI jobs where the
# library has the MPI backend), then the profile lookup's error and DLB_NETWORK_DIR. Takes nothing from the source tree.
set -euo pipefail
work=$1
prefix=$work/prefix
fail() { echo "FAIL: $*" >&2; exit 1; }
[[ -f $work/outside/myloop.cpp ]] || fail "no outside program in $work"

echo "== build with pkg-config"
mkdir "$work/pc"
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
# shellcheck disable=SC2046
g++ -O2 -Wall -Wextra -o "$work/pc/myloop" "$work/outside/myloop.cpp" $(pkg-config --cflags --libs dlb)
unset PKG_CONFIG_PATH

echo "== build with CMake"
cmake -S "$work/outside" -B "$work/cm" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF > "$work/cmake.log" ||
  { cat "$work/cmake.log"; fail "cmake configure of the outside program"; }
grep -q "^DLB_DIR:PATH=$prefix/lib/cmake/DLB$" "$work/cm/CMakeCache.txt" ||
  fail "find_package(DLB) did not find the moved prefix: $(grep DLB_DIR "$work/cm/CMakeCache.txt")"
cmake --build "$work/cm" > "$work/build.log" || { cat "$work/build.log"; fail "cmake build"; }

# Every run: in its own private PVM_TMP (left empty afterwards) and from / (no relative paths).
mkdir "$work/pvmtmp"
run() {  # run EXPECTED_EXIT OUTPUT_FILE PROGRAM ARGS...
  local expected=$1 out=$2
  shift 2
  local rc=0
  (cd / && DLB_INSTALL_TEST="$work" PVM_TMP="$work/pvmtmp" timeout 120 "$@" > "$out" 2>&1) ||
    rc=$?
  [[ $rc == "$expected" ]] || { cat "$out"; fail "exit $rc (expected $expected): $*"; }
}
for program in "$work/pc/myloop" "$work/cm/myloop"; do
  ldd "$program" > "$work/ldd"
  grep -q "libdlb.so => $prefix/lib.*/libdlb.so" "$work/ldd" ||
    fail "$program does not load the installed libdlb.so: $(grep dlb "$work/ldd")"
  for backend in "pvm --clock emulated --scale 20" "sim"; do
    echo "== $program --backend $backend"
    # shellcheck disable=SC2086
    run 0 "$work/out" "$program" --backend $backend --strategy AUTO --procs 4 --quiet
    grep -q "Verification = SUCCESSFUL" "$work/out" || { cat "$work/out"; fail "not verified"; }
    grep -q "chosen=[GL][CD]DLB" "$work/out" || { cat "$work/out"; fail "AUTO chose nothing"; }
  done
done

# The MPI backend, where the library has it (dlb.pc's mpi variable): the component of
# find_package(DLB), and both builds as MPI jobs (run_install_test.sh set what mpirun needs).
if [[ $(PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --variable=mpi dlb) == yes ]]; then
  echo "== find_package(DLB COMPONENTS mpi)"
  mkdir "$work/mpicheck"
  printf '%s\n' 'cmake_minimum_required(VERSION 3.18)' 'project(mpicheck LANGUAGES CXX)' \
    'find_package(DLB 1.0 REQUIRED COMPONENTS mpi)' > "$work/mpicheck/CMakeLists.txt"
  cmake -S "$work/mpicheck" -B "$work/mpicheck/build" -DCMAKE_PREFIX_PATH="$prefix" \
        -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF > "$work/mpicheck.log" ||
    { cat "$work/mpicheck.log"; fail "find_package(DLB COMPONENTS mpi)"; }
  for program in "$work/pc/myloop" "$work/cm/myloop"; do
    echo "== mpirun -np 5 $program --backend mpi"
    run 0 "$work/out" mpirun --oversubscribe -np 5 "$program" --backend mpi --strategy AUTO --quiet
    grep -q "Verification = SUCCESSFUL" "$work/out" || { cat "$work/out"; fail "not verified"; }
    grep -q "AUTO P=4" "$work/out" || { cat "$work/out"; fail "not a run of 4 slaves"; }
  done
else
  echo "== (the installed library has no MPI backend: no MPI runs)"
fi

echo "== without the installed profiles: a clear error naming where it looked"
mv "$prefix/share/dlb/network" "$work/profiles"
run 1 "$work/out" "$work/cm/myloop" --backend sim --strategy AUTO --procs 4 --quiet
grep -q "no network profile 'ethernet1996.profile'" "$work/out" || { cat "$work/out"; fail "error"; }
grep -qF "$prefix/share/dlb/network" "$work/out" || { cat "$work/out"; fail "error names no place"; }
echo "== with DLB_NETWORK_DIR"
DLB_NETWORK_DIR=$work/profiles run 0 "$work/out" "$work/cm/myloop" --backend sim --strategy AUTO \
  --procs 4 --quiet
grep -q "Verification = SUCCESSFUL" "$work/out" || { cat "$work/out"; fail "not verified"; }

leftover=$(ls -A "$work/pvmtmp")
[[ -z $leftover ]] || fail "left in PVM_TMP: $leftover"
