# Sourced by the install tests (run_install_test.sh, run_embed_test.sh): what both do around the
# installed library. fail: the test's one way out on a failed check. allow_mpi_as_root: Open MPI
# refuses root unless told; set for this test's own jobs, with a notice. private_mpi_files DIR:
# Open MPI's files of this test's jobs under DIR. wait_none_left VAR
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
