# Sourced by the install tests (run_install_test.sh, run_embed_test.sh): what both do around the
# installed library. fail: the test's one way out on a failed check. allow_mpi_as_root: Open MPI
# refuses root unless told; set for this test's own jobs, with a notice. private_mpi_files DIR:
# Open MPI's files of this test's jobs under DIR. outside_mpi_env WORK: both, and a clean
# environment. build_embed: the outside MPI programs of
# tests/install/embed built against the installed library. wait_none_left VAR
# VALUE: waits (100 looks 0.1 s apart, 10 s or more: a pvmd or an MPI rank may still be exiting when its run has
# returned) until no process has VAR=VALUE in its environment, and fails naming any that is.
fail() { echo "FAIL: $*" >&2; exit 1; }

allow_mpi_as_root() {
  if [[ $(id -u) == 0 && -z ${OMPI_ALLOW_RUN_AS_ROOT:-} ]]; then
    echo "notice: running as root: OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 set for this test's mpirun jobs"
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  fi
}

# private_mpi_files DIR: this test's mpirun jobs keep Open MPI's session files and shared-memory
# segments under DIR (removed with the test's temporary directory), so that a job ended by the
# test's own time bound leaves nothing in /dev/shm or /tmp.
private_mpi_files() {
  mkdir -p "$1"
  export OMPI_MCA_orte_tmpdir_base=$1 OMPI_MCA_btl_vader_backing_directory=$1
}

# outside_mpi_env WORK: what an outside MPI program's test starts from: none of the caller's
# compiler, linker or DLB settings (the installed package alone must be enough), Open MPI told
# that root may run it, and its files under WORK/mpi.
outside_mpi_env() {
  unset CPATH C_INCLUDE_PATH CPLUS_INCLUDE_PATH LIBRARY_PATH LD_LIBRARY_PATH PKG_CONFIG_PATH \
        CMAKE_PREFIX_PATH DLB_NETWORK_DIR CFLAGS CXXFLAGS LDFLAGS DLB_POLICY
  allow_mpi_as_root
  private_mpi_files "$1/mpi"
}

# build_embed BUILD SOURCE WORK [cmake --build options...]: installs the build tree BUILD into
# WORK/prefix, copies tests/install/embed out of SOURCE and builds it against the prefix in
# WORK/build (find_package(DLB COMPONENTS mpi)); fails naming the step that did not work.
build_embed() {
  local build=$1 source=$2 work=$3
  shift 3
  cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
  [[ -f $work/prefix/include/dlb/mpi.hpp ]] || fail "not installed: include/dlb/mpi.hpp"
  cp -r "$source/tests/install/embed" "$work/embed"
  cmake -S "$work/embed" -B "$work/build" -DCMAKE_PREFIX_PATH="$work/prefix" \
        -DCMAKE_BUILD_TYPE=Release -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF > "$work/cmake.log" ||
    { cat "$work/cmake.log"; fail "cmake configure of the outside MPI program"; }
  cmake --build "$work/build" "$@" > "$work/build.log" ||
    { cat "$work/build.log"; fail "cmake build of the outside MPI program"; }
}

processes_with_env() {  # VAR VALUE: the /proc/PID of every process with VAR=VALUE
  local env
  for env in /proc/[0-9]*/environ; do
    if { tr '\0' '\n' < "$env"; } 2> /dev/null | grep -xF "$1=$2" > /dev/null; then
      echo "${env%/environ}"
    fi
  done
}

wait_none_left() {  # VAR VALUE
  local left
  for _ in $(seq 100); do
    [ -z "$(processes_with_env "$1" "$2")" ] && return 0
    sleep 0.1
  done
  left=$(processes_with_env "$1" "$2")
  [ -z "$left" ] || fail "a process of the runs is still alive: $left"
}
