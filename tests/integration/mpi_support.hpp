// mpi_support.hpp: running a program as an MPI job in a test (--backend mpi).
//
// Every job is `mpirun --oversubscribe -np P+1 PROGRAM ...` (this machine has fewer cores than
// ranks) under run_process's timeout and marker, so a test finds any rank left behind. Open MPI
// refuses to run as root unless told: as root, the harness sets OMPI_ALLOW_RUN_AS_ROOT and
// OMPI_ALLOW_RUN_AS_ROOT_CONFIRM for its own jobs, with a notice, as the PVM runs set
// PVM_ALLOW_ROOT for their private virtual machines.
#pragma once

#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "run_process.hpp"

namespace mpi_testing {

inline void allow_root_once() {
  static const bool done = [] {
    if (geteuid() == 0 && !std::getenv("OMPI_ALLOW_RUN_AS_ROOT")) {
      std::cerr << "notice: running as root: OMPI_ALLOW_RUN_AS_ROOT=1 and "
                   "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 set for this test's mpirun jobs\n";
      setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
      setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
    }
    return true;
  }();
  (void)done;
}

// `ranks` MPI ranks of argv (program first), with a timeout.
inline testing_support::process_result run_mpi(int ranks, std::vector<std::string> argv,
                                               double timeout_s = 120) {
  allow_root_once();
  argv.insert(argv.begin(), {DLB_MPIRUN, "--oversubscribe", "-np", std::to_string(ranks)});
  return testing_support::run_process(argv, timeout_s);
}

}  // namespace mpi_testing
