#!/usr/bin/env bash
# run_install_test.sh BUILD_DIR SOURCE_DIR: the library as an outside user gets it (ctest
# install_outside_program, label integration).
#
#  1. installs the build tree into a temporary prefix (what `make install PREFIX=...` does), then
#     moves the prefix elsewhere: everything must work from where it lands (relocatable);
#  2. checks that only the public headers are installed (none of lib/runtime/internal) and that
#     no installed file carries a path of the checkout or of the first prefix;
#  3. copies tests/install/outside (myloop: a loop of uneven iterations that checks its result)
#     to a temporary directory, the only thing taken from the source tree, and, with the source
#     tree and the build tree hidden (an empty tmpfs mounted over them in a private mount
#     namespace, where `unshare -m` is permitted: as root), builds it there with pkg-config and
#     with CMake (find_package(DLB)), against the moved prefix only;
#  4. runs both builds under --backend pvm (emulated clock) and --backend sim (and, where the
#     library has the MPI backend, under mpirun --backend mpi) with AUTO, whose
#     cost model needs the network profiles found relative to the installed library, and checks
#     the verification; then without the installed profiles (a clear error naming where it looked)
#     and with DLB_NETWORK_DIR;
#  5. leaves nothing behind: no process, its own temporary directories, an empty private PVM_TMP.
set -euo pipefail
build=$(cd "$1" && pwd)
source=$(cd "$2" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/dlb-install-test.XXXXXX")
trap '[[ -n ${DLB_KEEP_INSTALL_TEST:-} ]] || rm -rf "$work"' EXIT
. "$source/tests/install/common.sh"
# Nothing from the environment may point the builds at the source tree.
unset CPATH CPLUS_INCLUDE_PATH LIBRARY_PATH LD_LIBRARY_PATH PKG_CONFIG_PATH CMAKE_PREFIX_PATH \
      DLB_NETWORK_DIR CXXFLAGS LDFLAGS

# Open MPI refuses root unless told (for the MPI runs of outside_steps.sh): set here, for this
# test's own jobs, with a notice.
allow_mpi_as_root

echo "== install into $work/stage, then move it to $work/prefix"
cmake --install "$build" --prefix "$work/stage" > "$work/install.log"
mv "$work/stage" "$work/prefix"
prefix=$work/prefix
for f in lib/libdlb.so lib/pkgconfig/dlb.pc lib/cmake/DLB/DLBConfig.cmake \
         lib/cmake/DLB/DLBConfigVersion.cmake include/dlb/dlb.hpp include/pvm/pvm.hpp \
         share/dlb/network/ethernet1996.profile share/dlb/network/native-loopback.profile; do
  [[ -f $prefix/$f ]] || fail "not installed: $f"
done

echo "== the public headers only: none of the runtime's internals is installed"
internal=$(find "$prefix/include/dlb" -name '*.hpp' | grep -E \
  '/(seam|clocks|pvm_transport|sim|wire|protocol|messenger|network|strategy_table|loop_session|chooser|runtime_internals)\.hpp$' || true)
[[ -z $internal ]] || fail "internal headers installed: $internal"

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
cp "$source/tests/install/outside_steps.sh" "$work/outside_steps.sh"

# The rest runs with the checkout out of sight when the system lets us hide it. (The commands
# are expanded by the inner shell, with its own $1..$3.)
# shellcheck disable=SC2016
hide='mount -t tmpfs none "$1" && { [[ $2 == "$1"/* ]] || mount -t tmpfs none "$2"; }'
if unshare -m --propagation private bash -c "$hide" _ "$source" "$build" 2> /dev/null; then
  echo "== (source tree $source and build tree $build hidden from here on)"
  # shellcheck disable=SC2016
  unshare -m --propagation private bash -c "$hide"' && exec bash "$3/outside_steps.sh" "$3"' \
    _ "$source" "$build" "$work"
else
  echo "== (cannot hide the source tree here: unshare -m not permitted; building beside it)"
  bash "$work/outside_steps.sh" "$work"
fi

# No process of the runs (programs, pvmds, slaves) is left: a pvmd may still be exiting when its
# run has returned, so wait for that (up to 10 s) instead of a fixed time.
wait_none_left DLB_INSTALL_TEST "$work"
echo "install test passed"
