#!/usr/bin/env bash
# run_c_test.sh BUILD_DIR SOURCE_DIR MPIRUN: the installed library from C and Fortran, and from
# C++ with pkg-config alone (ctest install_c_mpi, label integration; where the library has the MPI
# backend):
#  1. installs the build tree into a temporary prefix;
#  2. builds tests/install/c/sum.c, copied out of the source tree, twice: with Open MPI's mpicc
#     and `pkg-config --cflags --libs dlb-mpi-c`, and with plain gcc and that line alone (MPI's
#     flags come from dlb-mpi-c's Requires); and tests/install/embed/embed.cpp with plain g++ and
#     `pkg-config --cflags --libs dlb-mpi` alone (a C++ program that calls MPI itself); and
#     tests/install/fortran/sum.f90 with mpifort and the installed module source (use dlb);
#  3. runs sum.c under mpirun -np 3 and -np 4, and sum.f90 under -np 3, under every policy (an index-only loop, the
#     program's own reduction, the total and the count checked, then the error codes), and
#     embed.cpp under -np 3;
#  4. leaves nothing behind: no process of the runs, its temporary directory.
set -euo pipefail
build=$(cd "$1" && pwd)
source=$(cd "$2" && pwd)
mpirun=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/dlb-c-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
. "$source/tests/install/common.sh"
outside_mpi_env "$work"

echo "== install into $work/prefix"
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
for f in include/dlb/dlb.h lib/pkgconfig/dlb-mpi.pc lib/pkgconfig/dlb-mpi-c.pc; do
  [[ -f $work/prefix/$f ]] || fail "not installed: $f"
done
cp -r "$source/tests/install/c" "$work/c"
cp "$source/tests/install/embed/embed.cpp" "$work/embed.cpp"
export PKG_CONFIG_PATH=$work/prefix/lib/pkgconfig

echo "== mpicc sum.c \$(pkg-config --cflags --libs dlb-mpi-c)"
mpicc -std=c11 -Wall -Wextra -Werror -o "$work/sum_mpicc" "$work/c/sum.c" \
  $(pkg-config --cflags --libs dlb-mpi-c) || fail "mpicc with dlb-mpi-c"
echo "== gcc sum.c \$(pkg-config --cflags --libs dlb-mpi-c): the package's line alone"
gcc -std=c11 -Wall -Wextra -Werror -o "$work/sum_gcc" "$work/c/sum.c" \
  $(pkg-config --cflags --libs dlb-mpi-c) || fail "gcc with dlb-mpi-c alone"
echo "== g++ embed.cpp \$(pkg-config --cflags --libs dlb-mpi): a C++ MPI program, the line alone"
g++ -O2 -o "$work/embed" "$work/embed.cpp" $(pkg-config --cflags --libs dlb-mpi) ||
  fail "g++ with dlb-mpi alone"
echo "== mpifort share/dlb/fortran/dlb.f90 sum.f90 \$(pkg-config --libs dlb-mpi-c): use dlb"
cp -r "$source/tests/install/fortran" "$work/fortran"
(cd "$work/fortran" && mpifort -std=f2008 -o "$work/sum_fortran" \
   "$work/prefix/share/dlb/fortran/dlb.f90" sum.f90 $(pkg-config --libs dlb-mpi-c)) ||
  fail "mpifort with the module dlb"
for exe in sum_mpicc sum_gcc sum_fortran embed; do
  # (ldd's whole output first: grep -q ending the pipe early would fail it under pipefail)
  ldd "$work/$exe" > "$work/ldd.txt"
  grep -q "libdlb.so => $work/prefix/lib" "$work/ldd.txt" ||
    { cat "$work/ldd.txt"; fail "$exe does not load the installed libdlb.so"; }
done

policies=$(printf '%s\n' NONE GCDLB GDDLB LCDLB LDDLB AUTO ADAPTIVE AUTO-ALL SS CSS:4 GSS TSS FAC2 AWF)
# run_sum EXE NP PREFIX: EXE under mpirun -np NP and every policy; each policy's line "PREFIX: rank 0:
# POLICY: OK" and every rank's "PREFIX: rank R: done".
run_sum() {
  local exe=$1 np=$2 prefix=$3 ok done_ranks n
  echo "== mpirun -np $np $exe (every policy)"
  rc=0
  (cd / && DLB_C_TEST="$work" timeout 300 "$mpirun" --oversubscribe -np "$np" "$work/$exe" \
     $policies > "$work/out" 2>&1) || rc=$?
  [[ $rc == 0 ]] || { cat "$work/out"; fail "exit $rc: mpirun -np $np $exe"; }
  ok=$(grep -c "^$prefix: rank 0: .*: OK$" "$work/out" || true)
  n=$(wc -w <<< "$policies")
  [[ $ok == "$n" ]] || { cat "$work/out"; fail "$exe: $ok of $n policies right"; }
  done_ranks=$(grep -c "^$prefix: rank [0-9]*: done$" "$work/out" || true)
  [[ $done_ranks == "$np" ]] || { cat "$work/out"; fail "$exe: $done_ranks of $np ranks done"; }
}
for exe in sum_mpicc sum_gcc; do
  for np in 3 4; do run_sum "$exe" "$np" dlb_c; done
done
run_sum sum_fortran 3 dlb_f

echo "== mpirun -np 3 embed (built with dlb-mpi alone)"
rc=0
(cd / && DLB_C_TEST="$work" DLB_POLICY=TSS timeout 120 "$mpirun" --oversubscribe -np 3 \
   "$work/embed" > "$work/out" 2>&1) || rc=$?
[[ $rc == 0 ]] || { cat "$work/out"; fail "exit $rc: mpirun -np 3 embed"; }
ok=$(grep -c "^embed: rank [0-9]*: OK$" "$work/out" || true)
[[ $ok == 3 ]] || { cat "$work/out"; fail "$ok of 3 ranks said OK"; }

wait_none_left DLB_C_TEST "$work"
echo "C test passed"
