// c_api.cpp: the C layer (dlb/dlb.h) over dlb::mpi::session (dlb/mpi.hpp). Every entry point
// catches what the C++ side throws and turns it into a code and the thread's message: no
// exception crosses the C boundary.
#include <chrono>
#include <exception>
#include <functional>
#include <memory>
#include <new>
#include <sstream>
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

// The C layer's options as the session's: name/value pairs, or one text of command-line words
// ("--timeout 30 --quiet"; Fortran's).
struct c_options {
  int count = 0;
  const char* const* names = nullptr;
  const char* const* values = nullptr;
  const char* text = nullptr;
  double timeout_s = 0;  // > 0: session_params::timeout
  double prefetch = 0;   // session_params::prefetch
  // session_params::path
  int path = DLB_PATH_AUTO;
};

dlb::mpi::session_params params_of(const char* policy, const c_options& o) {
  if (o.count < 0) throw dlb::usage_error("the option count is negative");
  if (o.count > 0) require(o.names, "the option names");
  dlb::mpi::session_params p;
  p.policy = dlb::mpi::parse_policy(policy ? policy : "");
  p.name = "dlb";
  for (int k = 0; k < o.count; ++k) {
    require(o.names[k], "an option name");
    p.options.push_back("--" + std::string(o.names[k]));
    if (o.values && o.values[k]) p.options.emplace_back(o.values[k]);
  }
  if (o.text) {
    std::istringstream words(o.text);
    for (std::string w; words >> w;) p.options.push_back(w);
  }
  if (o.timeout_s > 0) p.timeout = std::chrono::duration<double>(o.timeout_s);
  p.prefetch = o.prefetch;
  if (o.path < DLB_PATH_AUTO || o.path > DLB_PATH_ONE_SIDED)
    throw dlb::usage_error("the path " + std::to_string(o.path) +
                           " is not DLB_PATH_AUTO, DLB_PATH_TWO_SIDED or DLB_PATH_ONE_SIDED");
  p.path = static_cast<dlb::mpi::loop_path>(o.path);
  return p;
}

int create(MPI_Comm comm, const char* policy, const c_options& o, dlb_session* out,
           const char* call) {
  return guarded(call, [&] {
    require(out, "the session pointer");
    *out = nullptr;
    dlb::mpi::session_params p = params_of(policy, o);
    auto s = std::make_unique<dlb_session_s>();
    s->session = std::make_unique<dlb::mpi::session>(comm, std::move(p));
    *out = s.release();
  });
}

// Fortran's handle, converted once MPI is known to be running: MPI_Comm_f2c before MPI_Init or
// after MPI_Finalize is outside MPI's rules (Open MPI ends the job).
MPI_Comm comm_of_f(MPI_Fint comm) {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (!initialized || finalized) return MPI_COMM_NULL;  // the session names the mistake
  return MPI_Comm_f2c(comm);
}

int loop(dlb_session session, int64_t iterations, dlb_cost_fn cost, void* user,
         const std::function<void(std::int64_t)>& body, const char* call) {
  return guarded(call, [&] {
    dlb_session_s* s = live(session);
    if (iterations < 0)
      throw dlb::usage_error("the iteration count " + std::to_string(iterations) + " is negative");
    dlb::loop_spec loop;
    loop.iterations = iterations;
    if (cost) loop.work = [cost, user](std::int64_t i) { return cost(i, user); };
    s->session->parallel_for(loop, {}, body);
  });
}

}  // namespace

extern "C" {

int dlb_session_create(MPI_Comm comm, const char* policy, dlb_session* session) {
  return create(comm, policy, {}, session, "dlb_session_create");
}

int dlb_session_create_with(MPI_Comm comm, const char* policy, int count, const char* const* names,
                            const char* const* values, dlb_session* session) {
  return create(comm, policy, {count, names, values, nullptr, 0}, session,
                "dlb_session_create_with");
}

int dlb_session_create_f(MPI_Fint comm, const char* policy, dlb_session* session) {
  return create(comm_of_f(comm), policy, {}, session, "dlb_session_create_f");
}

int dlb_session_create_with_f(MPI_Fint comm, const char* policy, double timeout_s, double prefetch,
                              const char* options, dlb_session* session) {
  return create(comm_of_f(comm), policy, {0, nullptr, nullptr, options, timeout_s, prefetch},
                session, "dlb_session_create_with_f");
}

dlb_session_params dlb_session_params_default(void) {
  return dlb_session_params{nullptr, 0.0, 0.0, nullptr, DLB_PATH_AUTO};
}

int dlb_session_create_params(MPI_Comm comm, const dlb_session_params* params,
                              dlb_session* session) {
  const dlb_session_params p = params ? *params : dlb_session_params_default();
  return create(comm, p.policy, {0, nullptr, nullptr, p.options, p.timeout_s, p.prefetch, p.path},
                session, "dlb_session_create_params");
}

int dlb_session_create_path_f(MPI_Fint comm, const char* policy, double timeout_s, double prefetch,
                              const char* options, int path, dlb_session* session) {
  return create(comm_of_f(comm), policy, {0, nullptr, nullptr, options, timeout_s, prefetch, path},
                session, "dlb_session_create_path_f");
}

int dlb_parallel_reduce(dlb_session session, int64_t iterations, dlb_cost_fn cost,
                        dlb_value_fn body, int op, dlb_combine_fn combine, double identity,
                        void* user, double* result) {
  return guarded("dlb_parallel_reduce", [&] {
    dlb_session_s* s = live(session);
    require(reinterpret_cast<const void*>(body), "the body");
    require(result, "the result pointer");
    if (op < DLB_REDUCE_SUM || op > DLB_REDUCE_USER)
      throw dlb::usage_error("the operation " + std::to_string(op) +
                             " is not DLB_REDUCE_SUM, _MIN, _MAX or _USER");
    if (op == DLB_REDUCE_USER) require(reinterpret_cast<const void*>(combine), "the combine");
    if (iterations < 0)
      throw dlb::usage_error("the iteration count " + std::to_string(iterations) + " is negative");
    dlb::loop_spec loop;
    loop.iterations = iterations;
    if (cost) loop.work = [cost, user](std::int64_t i) { return cost(i, user); };
    dlb::mpi::reduction r;
    r.op = static_cast<dlb::mpi::reduce_op>(op);
    if (op == DLB_REDUCE_USER) {
      r.combine = [combine, user](double a, double b) { return combine(a, b, user); };
      r.identity = identity;
      r.name = "the C layer's user operation";
    }
    *result = s->session->parallel_reduce(loop, r,
                                          [body, user](std::int64_t i) { return body(i, user); });
  });
}

int dlb_parallel_for(dlb_session session, int64_t iterations, dlb_cost_fn cost, dlb_body_fn body,
                     void* user) {
  if (body == nullptr)
    return guarded("dlb_parallel_for", [] { throw dlb::usage_error("the body is NULL"); });
  return loop(
      session, iterations, cost, user, [body, user](std::int64_t i) { body(i, user); },
      "dlb_parallel_for");
}

int dlb_parallel_for_rc(dlb_session session, int64_t iterations, dlb_cost_fn cost,
                        dlb_body_rc_fn body, void* user) {
  if (body == nullptr)
    return guarded("dlb_parallel_for_rc", [] { throw dlb::usage_error("the body is NULL"); });
  const int rank = dlb_session_rank(session);
  return loop(
      session, iterations, cost, user,
      [body, user, rank](std::int64_t i) {
        if (const int rc = body(i, user); rc != 0)  // the loop's failure on every rank
          throw dlb::run_error("the body returned " + std::to_string(rc) + " at iteration " +
                            std::to_string(i) + " on rank " + std::to_string(rank));
      },
      "dlb_parallel_for_rc");
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
