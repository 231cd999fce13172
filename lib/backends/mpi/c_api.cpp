// c_api.cpp: the C layer (dlb/dlb.h) over dlb::mpi::session (dlb/mpi.hpp). Every entry point
// catches what the C++ side throws and turns it into a code and the thread's message: no
// exception crosses the C boundary.
#include <exception>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "dlb/dlb.h"
#include "dlb/mpi.hpp"

struct dlb_session_s {
  std::unique_ptr<dlb::mpi::session> session;
};

namespace {

thread_local std::string last_error;

// Runs `f`, mapping what it throws to a code and a message.
template <class F>
int guarded(const char* call, F&& f) noexcept {
  try {
    last_error.clear();
    f();
    return DLB_OK;
  } catch (const dlb::usage_error& e) {
    last_error = std::string(call) + ": " + e.what();
    return DLB_ERR_USAGE;
  } catch (const dlb::run_error& e) {
    last_error = std::string(call) + ": " + e.what();
    return DLB_ERR_RUN;
  } catch (const std::exception& e) {
    last_error = std::string(call) + ": " + e.what();
    return DLB_ERR_OTHER;
  } catch (...) {
    last_error = std::string(call) + ": an exception that is not a std::exception";
    return DLB_ERR_OTHER;
  }
}

void require(const void* p, const char* what) {
  if (p == nullptr) throw dlb::usage_error(std::string(what) + " is NULL");
}

dlb_session_s* live(dlb_session s) {
  require(s, "the session");
  if (!s->session) throw dlb::usage_error("the session was freed");
  return s;
}

int create(MPI_Comm comm, const char* policy, int count, const char* const* names,
           const char* const* values, dlb_session* out, const char* call) {
  return guarded(call, [&] {
    require(out, "the session pointer");
    *out = nullptr;
    if (count < 0) throw dlb::usage_error("the option count is negative");
    if (count > 0) require(names, "the option names");
    dlb::mpi::session_params p;
    if (policy && *policy) {
      try {
        p.policy = dlb::core::parse_policy(policy);
      } catch (const std::invalid_argument& e) {
        throw dlb::usage_error(std::string("the policy: ") + e.what());
      }
    }
    p.name = "dlb";
    for (int k = 0; k < count; ++k) {
      require(names[k], "an option name");
      p.options.push_back("--" + std::string(names[k]));
      if (values && values[k]) p.options.emplace_back(values[k]);
    }
    auto s = std::make_unique<dlb_session_s>();
    s->session = std::make_unique<dlb::mpi::session>(comm, std::move(p));
    *out = s.release();
  });
}

}  // namespace

extern "C" {

int dlb_session_create(MPI_Comm comm, const char* policy, dlb_session* session) {
  return create(comm, policy, 0, nullptr, nullptr, session, "dlb_session_create");
}

int dlb_session_create_with(MPI_Comm comm, const char* policy, int count, const char* const* names,
                            const char* const* values, dlb_session* session) {
  return create(comm, policy, count, names, values, session, "dlb_session_create_with");
}

int dlb_session_create_f(MPI_Fint comm, const char* policy, dlb_session* session) {
  return create(MPI_Comm_f2c(comm), policy, 0, nullptr, nullptr, session, "dlb_session_create_f");
}

int dlb_parallel_for(dlb_session session, int64_t iterations, dlb_cost_fn cost, dlb_body_fn body,
                     void* user) {
  return guarded("dlb_parallel_for", [&] {
    dlb_session_s* s = live(session);
    if (body == nullptr) throw dlb::usage_error("the body is NULL");
    if (iterations < 0)
      throw dlb::usage_error("the iteration count " + std::to_string(iterations) + " is negative");
    dlb::loop_spec loop;
    loop.iterations = iterations;
    if (cost) loop.work = [cost, user](std::int64_t i) { return cost(i, user); };
    s->session->parallel_for(loop, {}, [body, user](std::int64_t i) { body(i, user); });
  });
}

int dlb_session_rank(dlb_session session) {
  return session && session->session ? session->session->rank() : -1;
}

int dlb_session_is_master(dlb_session session) {
  return session && session->session && session->session->master() ? 1 : 0;
}

int dlb_session_finish(dlb_session session) {
  return guarded("dlb_session_finish", [&] { live(session)->session->finish(); });
}

void dlb_session_free(dlb_session* session) {
  if (session == nullptr || *session == nullptr) return;
  delete *session;  // the session's destructor finishes it, swallowing errors
  *session = nullptr;
}

const char* dlb_error_message(void) { return last_error.c_str(); }

}  // extern "C"
