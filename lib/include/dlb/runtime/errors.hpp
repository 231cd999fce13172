// errors.hpp: a failed run. (A usage error, exit 2, is usage_error: options.hpp.)
#pragma once

#include <stdexcept>

namespace dlb {

// A failure of the run (a task died, the master aborted, a wait timed out, a malformed
// message): run_app exits 1 with one line naming what failed. The message names the task.
class run_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace dlb
