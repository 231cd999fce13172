// backend_table.hpp (internal): what each backend can do, one row per backend (its capability
// columns), and the run's refusals that follow from them (refuse_for_backend). A new backend is a
// row; a new thing some backend cannot do is a column and a line of the refusals' table.
#pragma once

#include "dlb/runtime/options.hpp"
#include "dlb/runtime/params.hpp"

namespace dlb::detail {

// Each column but max_slaves: null where the backend can, else why it cannot (what its refusal
// says after naming the backends that can).
struct backend_caps {
  backend_kind kind;
  int max_slaves;               // --procs at most
  const char* no_native_clock;  // --clock native
  const char* no_hosts;         // --hostfile, --join-vm: hosts of a PVM virtual machine
  const char* no_outside_kill;  // --fault-mark: a slave ended from outside the run
  const char* no_recovery;      // --on-loss recover: the run goes on after a lost task
  const char* no_shared_rank;   // --master-rank computes: the master's rank also a slave's
};

// The row of backend b.
const backend_caps& caps_of(backend_kind b);
// The largest --procs of any backend.
int max_slaves_of_any();

// The options of `o` that backend p.backend cannot have (usage_error naming the option, the
// backends that can, and why this one cannot).
void refuse_for_backend(const options& o, const run_params& p);

}  // namespace dlb::detail
