#!/usr/bin/env bash
# library_needs_test.sh LIBDLB PVM SIM MPI (each ON or OFF, the build's backends): libdlb.so
# needs (readelf's NEEDED) libpvm3 exactly when PVM is ON, libsimgrid exactly when SIM is, libmpi
# exactly when MPI is; and ldd resolves every one.
set -euo pipefail
lib=$1
fail() { echo "FAIL: $*" >&2; exit 1; }
needed=$(readelf -d "$lib" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
echo "libdlb.so needs: $(echo $needed)"
check() {  # check BACKEND ON|OFF PATTERN
  local has=OFF
  if echo "$needed" | grep -q "$3"; then has=ON; fi
  case $2 in ON | on | TRUE | 1) want=ON ;; *) want=OFF ;; esac
  [[ $has == "$want" ]] || fail "backend $1 is $2, but libdlb.so $( [[ $has == ON ]] && echo needs || echo "does not need") $3"
}
check pvm "$2" '^libpvm3'
check sim "$3" '^libsimgrid'
check mpi "$4" '^libmpi'
# ldd's whole output first: grep -q ending the pipe at a match would make ldd's status (SIGPIPE)
# the pipe's under pipefail, and `!` would turn that into a pass.
resolved=$(ldd "$lib")
! grep -q "not found" <<<"$resolved" || fail "ldd: $(grep "not found" <<<"$resolved")"
echo "libdlb.so needs the libraries of its backends only"
