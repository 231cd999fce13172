// self_scheduling.hpp (internal): the master's side of a self-scheduled loop
// (self_scheduling.cpp), called by DLB_master_sync.
#pragma once

#include "loop_session.hpp"

namespace dlb::detail {

// Until every worker has handed in its results: answers each REQUEST with the next chunk of the
// rule in force (none once the pool is all handed out), with the chunk's input slices. The
// results handed in before it is called (master_state::results_in) count.
void run_self_scheduler(master_session& DLB);

// What a message costs in all (its parts' sum), and the payloads of the self-scheduling
// protocol's messages: a REQUEST's, and a CHUNK's besides its slices (one range). FSC's overhead
// (chunk_params_for) and AUTO-ALL's model of a rule (auto_all.cpp) count them.
double total(const core::message_parts& m);
double request_bytes();
double answer_bytes();

}  // namespace dlb::detail
