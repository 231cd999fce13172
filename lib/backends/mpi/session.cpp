// session.cpp: dlb::mpi::session, the library inside a user's MPI program (dlb/mpi.hpp), over
// the same path as run_app's --backend mpi (mpi_job.hpp).
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "agreement.hpp"
#include "dlb/mpi.hpp"
#include "mpi_job.hpp"
#include "one_sided.hpp"
#include "reduction.hpp"
#include "session_comm.hpp"

namespace dlb::mpi {

namespace {

// The policy as text, only when the parameters have none: $DLB_POLICY as --strategy (else the
// runtime's default). A typed policy never becomes text: read_params takes it as it is.
std::vector<std::string> env_policy_args(const session_params& p) {
  if (p.policy) return {};
  if (const char* env = std::getenv("DLB_POLICY"); env && *env) return {"--strategy", env};
  return {};
}

std::string decimal(double x) {
  std::ostringstream os;
  os.precision(17);
  os << x;
  return os.str();
}

// The typed fields, each checked, then as the options run_app reads: the one reading of a run's
// options, done once, when the session is made.
std::vector<std::string> typed_args(const session_params& p) {
  if (p.group < 0)
    throw usage_error("dlb::mpi::session_params::group must be 0 (P/2) or more, got " +
                      std::to_string(p.group));
  const double timeout = p.timeout.count();
  if (!(timeout > 0) || !std::isfinite(timeout))
    throw usage_error("dlb::mpi::session_params::timeout must be a positive duration, got " +
                      decimal(timeout) + " s");
  if (!(p.prefetch >= 0 && p.prefetch < 1))
    throw usage_error("dlb::mpi::session_params::prefetch must be in [0, 1), got " +
                      decimal(p.prefetch));
  std::vector<std::string> args = {
      "--backend",     "mpi",
      "--clock",       p.clock == clock_kind::native ? "native" : "emulated",
      "--master-rank", p.master == master_rank::computes ? "computes" : "dedicated",
      "--timeout",     decimal(timeout)};
  for (auto& a : env_policy_args(p)) args.push_back(std::move(a));
  if (p.group > 0) args.insert(args.end(), {"--group", std::to_string(p.group)});
  if (p.quiet) args.emplace_back("--quiet");
  if (p.prefetch > 0) args.insert(args.end(), {"--prefetch", decimal(p.prefetch)});
  return args;
}

// The typed policy, checked as a name is (usage_error naming the field), and given once: a
// policy, AUTO-ALL's candidates or its forced commitment given also in the options is refused,
// naming both.
void check_typed_policy(const session_params& p, const options& opts) {
  if (!p.policy) return;
  try {
    core::check_policy(*p.policy);
  } catch (const std::invalid_argument& e) {
    throw usage_error("dlb::mpi::session_params::policy: " + std::string(e.what()));
  }
  const auto twice = [&opts](const std::string& what, const std::string& typed, const char* opt) {
    if (opts.given(opt))
      throw usage_error("dlb::mpi::session: " + what + " given twice: session_params::policy " +
                        typed + " and --" + opt + " " + opts.str(opt) +
                        " in session_params::options; give it once");
  };
  twice("the policy is", core::to_string(*p.policy), "strategy");
  std::string names;
  for (const core::policy& c : p.policy->candidates())
    names += (names.empty() ? "" : " ") + core::to_string(c);
  if (!names.empty()) twice("AUTO-ALL's candidates are", "(" + names + ")", "candidates");
  if (const core::policy* f = p.policy->forced())
    twice("AUTO-ALL's forced policy is", "(" + core::to_string(*f) + ")", "auto-force");
}

// The parameters as the command line run_app would parse: the one reading of the options.
std::pair<options, run_params> read(const session_params& p) {
  std::vector<std::string> args = typed_args(p);
  // A real program's default: no simulated external load (the paper's ml = 5 is the
  // experiments' setting, which the session's options may still ask for: the last value given
  // wins).
  args.insert(args.end(), {"--ml", "0"});
  args.insert(args.end(), p.options.begin(), p.options.end());
  options opts = options::parse(common_options(), args);
  check_typed_policy(p, opts);
  run_params params;
  try {
    params = read_params(opts, p.policy);
  } catch (const usage_error& e) {
    if (!p.policy && std::getenv("DLB_POLICY"))
      throw usage_error(std::string("environment variable DLB_POLICY: ") + e.what());
    throw;
  }
  if (params.backend != backend_kind::mpi)
    throw usage_error("dlb::mpi::session runs on MPI: leave --backend out of its options");
  detail::check_run_options(opts, params);
  return {std::move(opts), std::move(params)};
}

// A session lives between the program's MPI_Init and MPI_Finalize, on a communicator (an
// intracommunicator every rank of which makes one): usage_error otherwise, before any MPI call
// that would end the job (MPI's default error handler aborts on MPI_COMM_NULL).
void check_mpi_state(MPI_Comm comm) {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (finalized)
    throw usage_error(
        "dlb::mpi::session after MPI_Finalize: make and finish every session between the "
        "program's MPI_Init and MPI_Finalize");
  if (!initialized)
    throw usage_error(
        "dlb::mpi::session before MPI_Init: the program owns MPI; call MPI_Init (or "
        "MPI_Init_thread) first and MPI_Finalize after the last session");
  if (comm == MPI_COMM_NULL)
    throw usage_error(
        "dlb::mpi::session on MPI_COMM_NULL: give it a communicator every rank of which makes "
        "the session (a rank that MPI_Comm_split left out makes none)");
  int inter = 0;
  MPI_Comm_test_inter(comm, &inter);
  if (inter)
    throw usage_error(
        "dlb::mpi::session on an intercommunicator: give it an intracommunicator (MPI_COMM_WORLD, "
        "or a part of it from MPI_Comm_split)");
}

// K at most P, P being the communicator's ranks (less one with a dedicated master).
void check_group(MPI_Comm comm, const session_params& p) {
  int size = 0;
  MPI_Comm_size(comm, &size);
  const int slaves = p.master == master_rank::computes ? size : size - 1;
  if (p.group > slaves && slaves >= 1)
    throw usage_error("dlb::mpi::session_params::group must not exceed P, the session's " +
                      std::to_string(slaves) + " slaves (the communicator's " +
                      std::to_string(size) + " ranks" +
                      (p.master == master_rank::computes ? ")" : " less the master)") + ", got " +
                      std::to_string(p.group));
}

// "y f64 200x2 out": an array as the ranks' disagreement names it.
std::string shape_text(const DLB_array& d) {
  static const char* const types[] = {
#define DLB_TYPE_NAME(name, type) #name,
      DLB_ELEMENT_TYPES(DLB_TYPE_NAME)
#undef DLB_TYPE_NAME
  };
  const auto t = static_cast<std::size_t>(d.type);
  std::string role = d.input && d.output ? "in-out" : d.output ? "out" : "in";
  return d.name + " " + (t < std::size(types) ? types[t] : "?") + " " + std::to_string(d.rows) +
         "x" + std::to_string(d.cols) + " " + role;
}

// What this rank is about to run (agreement.hpp): the step, the loop's number and shape.
mpi_detail::statement loop_statement(mpi_detail::step what, std::int64_t loop_number,
                                     const loop_spec* loop, const std::vector<array_ref>& arrays) {
  using mpi_detail::field;
  mpi_detail::statement st;
  st[field::what] = static_cast<std::int64_t>(what);
  st[field::loop] = loop_number;
  if (loop) {
    st[field::iterations] = loop->iterations;
    st[field::distribution] = loop->initial == data_distribution::block ? 0 : 1;
  }
  st[field::arrays] = static_cast<std::int64_t>(arrays.size());
  std::vector<std::int64_t> shapes;
  std::string text;
  for (const array_ref& a : arrays) {
    const DLB_array* d = a.get();
    if (!d) continue;
    text += (text.empty() ? "" : ", ") + shape_text(*d);
    shapes.insert(
        shapes.end(),
        {static_cast<std::int64_t>(d->type), d->rows, d->cols, static_cast<std::int64_t>(d->layout),
         static_cast<std::int64_t>(d->distribution), static_cast<std::int64_t>(d->axis),
         static_cast<std::int64_t>(d->map), (d->input ? 1 : 0) + (d->output ? 2 : 0)});
  }
  st[field::array_shapes] = mpi_detail::digest(shapes);
  st.set_shapes(text);
  return st;
}

}  // namespace

std::optional<core::policy> parse_policy(std::string_view text) {
  if (text.empty()) return std::nullopt;
  try {
    return core::parse_policy(text);
  } catch (const std::invalid_argument& e) {
    throw usage_error(std::string("dlb::mpi::parse_policy: ") + e.what());
  }
}

struct session::impl {
  int rank = 0, slaves = 0;
  detail::launch_spec spec;
  std::optional<mpi_detail::job> job;
  std::string failure;  // why the run failed, once it has
  bool finished = false;
  std::int64_t loops = 0;        // run so far (the next loop's number)
  int unwinding = 0;             // std::uncaught_exceptions() at construction
  mpi_detail::path_state paths;  // the one-sided path's (one_sided.hpp)
  bool quiet = false;

  void fail(const std::string& why) {
    if (!failure.empty()) return;
    failure = why;
    if (job) job->rt().abort(why);  // tells the others (never throws)
  }
};

session::session(MPI_Comm comm, session_params params) : impl_(std::make_unique<impl>()) {
  impl_->unwinding = std::uncaught_exceptions();
  impl_->spec.name = params.name;
  impl_->spec.report = params.report ? params.report : report_sink(report_to_standard_streams);
  check_mpi_state(comm);
  check_group(comm, params);
  auto [opts, run] = read(params);
  impl_->job.emplace(comm, impl_->spec, std::move(opts), std::move(run));
  impl_->rank = impl_->job->rank();
  impl_->slaves = impl_->job->rt().slaves();
  const run_params& run_params = impl_->job->rt().params();
  impl_->paths.path = params.path;
  impl_->paths.emulated = run_params.emulated;
  impl_->paths.rank0_computes = run_params.master_computes;
  impl_->quiet = run_params.quiet;
}

session::~session() {
  if (impl_->job && !impl_->finished) {
    if (std::uncaught_exceptions() > impl_->unwinding) {
      impl_->fail("rank " + std::to_string(rank()) + " left the run on an exception");
    } else {
      try {
        finish();
      } catch (const std::exception&) {
        // Destructors never throw; finish() is where the program hears of it.
      }
    }
  }
  impl_->job.reset();
}

bool session::master() const { return impl_->rank == 0; }
int session::rank() const { return impl_->rank; }
int session::slaves() const { return impl_->slaves; }
dlb::runtime& session::runtime() {
  if (!impl_->job) throw usage_error("dlb::mpi::session::runtime() after finish()");
  return impl_->job->rt();
}

run_stats session::parallel_for(const loop_spec& loop, const std::vector<array_ref>& arrays,
                                const std::function<void(std::int64_t)>& body) {
  return run_loop(loop, arrays, body, nullptr);
}

double session::parallel_reduce(const loop_spec& loop, const reduction& r,
                                const std::function<double(std::int64_t)>& body, run_stats* stats) {
  if (impl_->failure.empty() && !impl_->finished && loop.iterations < 0)
    throw usage_error("dlb::mpi::session::parallel_reduce: a negative iteration count");
  mpi_detail::block_reducer reducer(r, std::max<std::int64_t>(loop.iterations, 0));
  run_stats st = run_loop(
      loop, {}, [&reducer, &body](std::int64_t i) { reducer.add(i, body(i)); }, &r);
  if (stats) *stats = std::move(st);
  mpi_detail::job& job = *impl_->job;
  try {
    return mpi_detail::reduce_over(job.comm(), reducer, job.timeout_s(),
                                   [&job] { return job.failed_elsewhere(); });
  } catch (const std::exception& e) {
    impl_->fail(e.what());
    throw;
  }
}

run_stats session::run_loop(const loop_spec& loop, const std::vector<array_ref>& arrays,
                            const std::function<void(std::int64_t)>& body, const reduction* r) {
  if (!impl_->failure.empty()) throw run_error("the DLB run failed earlier: " + impl_->failure);
  if (impl_->finished)
    throw usage_error(
        "dlb::mpi::session::parallel_for after finish(): make a new session for more loops");
  agree(static_cast<int>(mpi_detail::step::loop), &loop, arrays, r);
  const bool one_sided = one_sided_path(loop, !arrays.empty());
  // What the other ranks are told names the cause: this rank's body, or the library.
  bool body_threw = false;
  const auto guarded = [&body, &body_threw](std::int64_t i) {
    try {
      body(i);
    } catch (...) {
      body_threw = true;
      throw;
    }
  };
  try {
    if (one_sided)
      if (auto st = run_one_sided(loop, guarded)) return std::move(*st);
    if (impl_->job->worker()) return colocated(loop, arrays, guarded, body_threw);
    return dlb::parallel_for(impl_->job->rt(), loop, arrays, guarded);
  } catch (const std::exception& e) {
    impl_->fail(body_threw ? std::string("its loop body threw: ") + e.what() : e.what());
    throw;
  } catch (...) {
    impl_->fail(body_threw ? "its loop body threw an exception that is not a std::exception"
                           : "an exception that is not a std::exception");
    throw;
  }
}

// Rank 0 of a session whose master computes: the master's part a fiber that slave P (the
// program's body) resumes between its iterations, both on this thread (mpi_port.hpp). What the
// body threw comes first; then the master's failure (another rank's, told to the master). Both
// use the program's arrays: the scatter reaches slave P last, so the master has read every input
// it sends before P writes its own share; afterwards the two touch disjoint slices (the master
// reads only inputs of iterations it has not handed out, and writes the outputs at the gather,
// once every slave is done).
run_stats session::colocated(const loop_spec& loop, const std::vector<array_ref>& arrays,
                             const std::function<void(std::int64_t)>& body, bool& body_threw) {
  run_stats stats;
  const auto out = impl_->job->run_colocated(
      [&](dlb::runtime& master) {
        stats = dlb::parallel_for(master, loop, arrays, [](std::int64_t) {});
      },
      [&](dlb::runtime& slave) { dlb::parallel_for(slave, loop, arrays, body); });
  if (out.worker && body_threw) std::rethrow_exception(out.worker);
  if (out.master) std::rethrow_exception(out.master);
  if (out.worker) std::rethrow_exception(out.worker);
  return stats;
}

// Every rank states what it is about to run and checks that all the others state the same,
// within the session's --timeout: a usage_error on every rank naming what differs (the session is
// then over, nothing having moved), a run_error when a rank does not come.
void session::agree(int what, const loop_spec* loop, const std::vector<array_ref>& arrays,
                    const reduction* r) {
  const auto step = static_cast<mpi_detail::step>(what);
  auto mine = loop_statement(step, impl_->loops, loop, arrays);
  mine[mpi_detail::field::path] = static_cast<std::int64_t>(impl_->paths.path);
  mine[mpi_detail::field::reduction] = r ? static_cast<std::int64_t>(r->op) : -1;
  if (r && r->op == reduce_op::user)
    mine[mpi_detail::field::reduction_name] =
        mpi_detail::digest(std::vector<std::int64_t>(r->name.begin(), r->name.end()));
  mpi_detail::job& job = *impl_->job;
  std::vector<mpi_detail::statement> all;
  try {
    all = mpi_detail::exchange(
        job.comm(), mine, mpi_detail::deadline_after(job.timeout_s()), job.timeout_s(),
        step == mpi_detail::step::loop ? "came to its loop number " + std::to_string(impl_->loops)
                                       : "came to finish()",
        [&job] { return job.failed_elsewhere(); });
  } catch (const std::exception& e) {
    impl_->fail(e.what());  // the ranks that did come stop waiting for this one
    throw;
  }
  // Another rank failed the run: the runtime's next wait says so, naming it.
  if (all.empty()) return;
  if (const auto d = mpi_detail::find_disagreement(all)) {
    impl_->failure = mpi_detail::describe(*d);
    throw usage_error("dlb::mpi::session: " + impl_->failure);
  }
  if (step == mpi_detail::step::loop) ++impl_->loops;
}

bool session::one_sided_path(const loop_spec&, bool arrays) {
  std::string say;
  const bool yes = mpi_detail::choose_one_sided(impl_->paths, impl_->job->comm(),
                                                impl_->job->rt().params().policy, arrays, say);
  if (!say.empty()) say_two_sided(say);
  return yes;
}

std::optional<run_stats> session::run_one_sided(const loop_spec& loop,
                                                const std::function<void(std::int64_t)>& body) {
  mpi_detail::one_sided_loop l;
  l.comm = impl_->job->comm();
  l.rank0_computes = impl_->paths.rank0_computes;
  l.shared = impl_->paths.one_node.value_or(false);
  l.timeout_s = impl_->job->timeout_s();
  l.policy = impl_->job->rt().params().policy;
  l.iterations = loop.iterations;
  l.chunk = [&body](std::int64_t begin, std::int64_t end) {
    for (std::int64_t i = begin; i < end; ++i) body(i);
  };
  auto out = mpi_detail::run_one_sided(l);
  if (!out.window_failed) return out.stats ? std::move(*out.stats) : run_stats{};
  if (impl_->paths.path == loop_path::one_sided)
    throw usage_error(
        "dlb::mpi::session_params::path is one_sided, but the loop's window "
        "could not be made: " +
        out.why);
  impl_->paths.two_sided_why = "the loop's window could not be made: " + out.why;
  say_two_sided(impl_->paths.two_sided_why);
  return std::nullopt;
}

void session::say_two_sided(const std::string& why) {
  impl_->paths.said = true;
  if (impl_->quiet) return;
  impl_->spec.report(report_kind::notice, impl_->spec.name + ": rank " + std::to_string(rank()) +
                                              ": index-only loops take the two-sided path: " + why);
}

void session::finish() {
  if (impl_->finished) return;
  impl_->finished = true;
  if (impl_->failure.empty()) {
    try {
      agree(static_cast<int>(mpi_detail::step::finish), nullptr, {});
    } catch (const usage_error&) {
      impl_->job.reset();
      throw;
    } catch (const std::exception&) {
    }
  }
  if (!impl_->failure.empty()) {
    impl_->job.reset();
    throw run_error("the DLB run failed: " + impl_->failure);
  }
  try {
    impl_->job->rt().finish();
    if (dlb::runtime* worker = impl_->job->worker()) worker->finish();
    impl_->job->settle();
  } catch (const std::exception& e) {
    impl_->fail(e.what());
    impl_->job.reset();
    throw;
  }
  impl_->job.reset();
}

}  // namespace dlb::mpi
