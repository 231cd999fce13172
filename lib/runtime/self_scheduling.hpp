// self_scheduling.hpp (internal): the master's side of a self-scheduled loop
// (self_scheduling.cpp), called by DLB_master_sync.
#pragma once

#include "loop_session.hpp"

namespace dlb::detail {

// Until every worker has handed in its results: answers each REQUEST with the next chunk of the
// rule in force (none once the pool is all handed out), with the chunk's input slices. The
// results handed in before it is called (master_state::results_in) count.
void run_self_scheduler(master_session& DLB);

}  // namespace dlb::detail
