// mpi_support.hpp: running a program as an MPI job in a test (--backend mpi).
//
// Every job is `mpirun --oversubscribe -np P+1 PROGRAM ...` (this machine has fewer cores than
// ranks) under run_process's timeout and marker, so a test finds any rank left behind. Open MPI
// refuses to run as root unless told: as root, the harness sets OMPI_ALLOW_RUN_AS_ROOT and
// OMPI_ALLOW_RUN_AS_ROOT_CONFIRM for its own jobs, with a notice, as the PVM runs set
// PVM_ALLOW_ROOT for their private virtual machines. Under the sanitizers, it adds the one ASan
// option LeakSanitizer needs to tell Open MPI's allocations from ours (below).
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
    // Sanitized (make check): LeakSanitizer's fast unwinder cannot walk Open MPI's uninstrumented
    // libraries, whose components are unloaded at MPI_Finalize, so their allocations would be
    // reported from "<unknown module>"; the slow unwinder attributes them to libmpi and its
    // siblings, which tests/sanitizer/lsan.supp suppresses. For this test's jobs only.
    if (const char* asan = std::getenv("ASAN_OPTIONS");
        asan && std::string(asan).find("fast_unwind_on_malloc") == std::string::npos) {
      std::cerr << "notice: sanitized MPI jobs: fast_unwind_on_malloc=0 added to ASAN_OPTIONS "
                   "(tests/sanitizer/lsan.supp)\n";
      setenv("ASAN_OPTIONS", (std::string(asan) + ":fast_unwind_on_malloc=0").c_str(), 1);
    }
    // Shared-memory messages by copy-in/copy-out rather than by reading the other process's
    // memory (process_vm_readv, which a container may forbid): the same on every machine.
    if (!std::getenv("OMPI_MCA_btl_vader_single_copy_mechanism"))
      setenv("OMPI_MCA_btl_vader_single_copy_mechanism", "none", 1);
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
