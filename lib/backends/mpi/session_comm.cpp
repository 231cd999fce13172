// session_comm.cpp: the MPI side of a session's agreement (session_comm.hpp).
#include "session_comm.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <memory>

#include "dlb/runtime/errors.hpp"
#include "dlb/runtime/options.hpp"

namespace dlb::mpi_detail {

namespace {

// A session's creation that has not completed on this rank: the duplicate, then the statements.
struct creation {
  MPI_Request idup = MPI_REQUEST_NULL;
  MPI_Comm comm = MPI_COMM_NULL;
  bool gathering = false;  // the duplicate is made, the statements are under way
  MPI_Request gather = MPI_REQUEST_NULL;
  statement mine;
  std::vector<statement> all;
};

// What the library keeps on a program's communicator.
struct comm_state {
  std::int64_t sessions = 0;  // made on it (one more than the largest any rank stated)
  // The library's own duplicate of it, made by the first session, from which every session's
  // communicator is made: so that what a timed-out session left pending is on the library's
  // communicator, never on the program's (but for the first session's duplicate of it).
  MPI_Comm base = MPI_COMM_NULL;
  std::unique_ptr<creation> base_pending, pending;
};

bool under_way(const std::unique_ptr<creation>& c) {
  return c && (c->idup != MPI_REQUEST_NULL || c->gather != MPI_REQUEST_NULL);
}

int delete_state(MPI_Comm, int, void* value, void*) {
  auto* state = static_cast<comm_state*>(value);
  // A collective still under way writes into its buffers: they stay, with the request, and so
  // does the duplicate it was made on.
  if (under_way(state->pending) || under_way(state->base_pending)) {
    (void)state->pending.release();
    (void)state->base_pending.release();
  } else if (state->base != MPI_COMM_NULL) {
    MPI_Comm_free(&state->base);
  }
  delete state;
  return MPI_SUCCESS;
}

// The attribute's key: made once per process, the first time a session is made (MPI is
// initialized then), freed never (MPI frees it at MPI_Finalize).
int state_key() {
  static const int key = [] {
    int k = MPI_KEYVAL_INVALID;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_state, &k, nullptr);
    return k;
  }();
  return key;
}

comm_state& state_of(MPI_Comm comm) {
  void* value = nullptr;
  int found = 0;
  MPI_Comm_get_attr(comm, state_key(), &value, &found);
  if (found) return *static_cast<comm_state*>(value);
  auto* state = new comm_state();
  MPI_Comm_set_attr(comm, state_key(), state);
  return *state;
}

std::string seconds(double s) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", s);
  return text;
}

std::string ranks_of(MPI_Comm comm) {
  int size = 0;
  MPI_Comm_size(comm, &size);
  return std::to_string(size) + " ranks";
}

}  // namespace

deadline deadline_after(double s) {
  return std::chrono::steady_clock::now() +
         std::chrono::microseconds(static_cast<std::int64_t>(s * 1e6));
}

bool wait_until(MPI_Request& request, deadline by, const std::function<bool()>& give_up) {
  std::chrono::microseconds pause(1);
  for (int polls = 0;; ++polls) {
    int done = 0;
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done) return true;
    if (std::chrono::steady_clock::now() >= by) return false;
    if (give_up && polls % 16 == 15 && give_up()) return false;
    usleep(static_cast<useconds_t>(pause.count()));
    pause = std::min(pause * 2, std::chrono::microseconds(1000));
  }
}

void keep_for_good(std::shared_ptr<void> buffers) {
  static auto* kept = new std::vector<std::shared_ptr<void>>();
  if (buffers) kept->push_back(std::move(buffers));
}

void wait_or_throw(MPI_Request& request, deadline by, double timeout_s, const std::string& what,
                   std::shared_ptr<void> buffers) {
  if (wait_until(request, by)) return;
  keep_for_good(std::move(buffers));
  throw run_error(what + " within --timeout " + seconds(timeout_s) + " s");
}

std::vector<statement> exchange(MPI_Comm comm, const statement& mine, deadline by, double timeout_s,
                                const std::string& what, const std::function<bool()>& give_up) {
  int size = 0;
  MPI_Comm_size(comm, &size);
  // Kept alive with the request if it times out (the session's communicator is never reused).
  auto all = std::make_shared<std::vector<statement>>(static_cast<std::size_t>(size));
  auto sent = std::make_shared<statement>(mine);
  MPI_Request request = MPI_REQUEST_NULL;
  MPI_Iallgather(sent.get(), sizeof(statement), MPI_BYTE, all->data(), sizeof(statement), MPI_BYTE,
                 comm, &request);
  if (!wait_until(request, by, give_up)) {
    keep_for_good(all);
    keep_for_good(sent);
    if (std::chrono::steady_clock::now() < by) return {};  // given up
    throw run_error("not every rank of the session (" + ranks_of(comm) + ") " + what +
                    " within --timeout " + seconds(timeout_s) + " s");
  }
  return *all;
}

namespace {

// The library's duplicate of `user`, made once (resumed by the next session if it timed out).
MPI_Comm base_of(MPI_Comm user, comm_state& state, deadline by, const std::string& bound) {
  if (state.base != MPI_COMM_NULL) return state.base;
  if (!state.base_pending) {
    state.base_pending = std::make_unique<creation>();
    MPI_Comm_idup(user, &state.base_pending->comm, &state.base_pending->idup);
  }
  if (!wait_until(state.base_pending->idup, by))
    throw run_error("not every rank of the communicator (" + ranks_of(user) +
                    ") made its dlb::mpi::session" + bound +
                    ": every rank of it makes one, collectively (the first session on a "
                    "communicator leaves its duplication of it pending there: the next session "
                    "resumes it, and the program's own collectives on it would be matched to "
                    "it)");
  state.base = state.base_pending->comm;
  state.base_pending.reset();
  return state.base;
}

}  // namespace

MPI_Comm open_session_comm(MPI_Comm user, statement mine, double timeout_s) {
  comm_state& state = state_of(user);
  const deadline by = deadline_after(timeout_s);
  const std::string bound = " within --timeout " + seconds(timeout_s) + " s";
  const MPI_Comm base = base_of(user, state, by, bound);
  if (!state.pending) {
    state.pending = std::make_unique<creation>();
    MPI_Comm_idup(base, &state.pending->comm, &state.pending->idup);
  }
  creation& p = *state.pending;
  if (!p.gathering) {
    if (!wait_until(p.idup, by))
      throw run_error("not every rank of the communicator (" + ranks_of(user) +
                      ") made its dlb::mpi::session" + bound +
                      ": every rank of it makes one, collectively (the next session on it "
                      "resumes this one's start)");
    mine[field::session] = state.sessions;
    p.mine = mine;
    int size = 0;
    MPI_Comm_size(p.comm, &size);
    p.all.assign(static_cast<std::size_t>(size), statement{});
    MPI_Iallgather(&p.mine, sizeof(statement), MPI_BYTE, p.all.data(), sizeof(statement), MPI_BYTE,
                   p.comm, &p.gather);
    p.gathering = true;
  }
  if (!wait_until(p.gather, by))
    throw run_error("not every rank of the communicator (" + ranks_of(user) +
                    ") stated its dlb::mpi::session" + bound +
                    " (the next session on it resumes this one's start)");
  const std::unique_ptr<creation> done = std::move(state.pending);
  std::int64_t top = 0;
  for (const statement& s : done->all) top = std::max(top, s[field::session]);
  state.sessions = top + 1;
  if (const auto d = find_disagreement(done->all)) {
    MPI_Comm_free(&done->comm);
    throw usage_error("dlb::mpi::session: " + describe(*d));
  }
  return done->comm;
}

}  // namespace dlb::mpi_detail
