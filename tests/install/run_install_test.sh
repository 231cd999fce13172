#!/usr/bin/env bash
# run_install_test.sh BUILD_DIR SOURCE_DIR: the library as an outside user gets it (ctest
# install_outside_program, label integration).
#
#  1. installs the build tree into a temporary prefix (what `make install PREFIX=...` does), then
#     moves the prefix elsewhere: everything must work from where it lands (relocatable);
#  2. checks that no installed file carries a path of the checkout or of the first prefix;
#  3. copies tests/install/outside (myloop: a loop of uneven iterations that checks its result)
#     to a temporary directory, the only thing taken from the source tree, and builds it there
#     with pkg-config and with CMake (find_package(DLB)), against the moved prefix only;
#  4. runs both builds under --backend pvm (emulated clock) and --backend sim with AUTO, whose
#     cost model needs the network profiles found relative to the installed library, and checks
#     the verification; then without the installed profiles (a clear error naming where it looked)
#     and with DLB_NETWORK_DIR;
#  5. leaves nothing behind: its own temporary directories, and an empty private PVM_TMP.
set -euo pipefail
build=$(cd "$1" && pwd)
source=$(cd "$2" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/dlb-install-test.XXXXXX")
trap '[[ -n ${DLB_KEEP_INSTALL_TEST:-} ]] || rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
# Nothing from the environment may point the builds at the source tree.
unset CPATH CPLUS_INCLUDE_PATH LIBRARY_PATH LD_LIBRARY_PATH PKG_CONFIG_PATH CMAKE_PREFIX_PATH \
      DLB_NETWORK_DIR CXXFLAGS LDFLAGS

echo "== install into $work/stage, then move it to $work/prefix"
cmake --install "$build" --prefix "$work/stage" > "$work/install.log"
mv "$work/stage" "$work/prefix"
prefix=$work/prefix
for f in lib/libdlb.so lib/pkgconfig/dlb.pc lib/cmake/DLB/DLBConfig.cmake \
         lib/cmake/DLB/DLBConfigVersion.cmake include/dlb/dlb.hpp include/pvm/pvm.hpp \
         share/dlb/network/ethernet1996.profile share/dlb/network/native-loopback.profile; do
  [[ -f $prefix/$f ]] || fail "not installed: $f"
done

echo "== no path of the checkout ($source) or of the install prefix in the installed files"
while IFS= read -r -d '' f; do
  if strings -a "$f" | grep -F -e "$source" -e "$build" -e "$work/stage" > "$work/found"; then
    fail "$f carries a path of the checkout or of the install prefix: $(head -3 "$work/found")"
  fi
done < <(find "$prefix" -type f -print0)
# (The check can fail: strings does see the library's own strings.)
strings -a "$prefix/lib/libdlb.so" > "$work/strings"
grep -q "DLB_NETWORK_DIR" "$work/strings" || fail "strings found nothing in libdlb.so"

echo "== the outside program, copied out of the source tree"
cp -r "$source/tests/install/outside" "$work/outside"

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
  (cd / && PVM_TMP="$work/pvmtmp" timeout 120 "$@" > "$out" 2>&1) || rc=$?
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
echo "install test passed"
