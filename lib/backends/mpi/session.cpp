// session.cpp: dlb::mpi::session, the library inside a user's MPI program (dlb/mpi.hpp), over
// the same path as run_app's --backend mpi (mpi_job.hpp).
#include <cstdlib>
#include <exception>
#include <optional>

#include "dlb/mpi.hpp"
#include "mpi_job.hpp"

namespace dlb::mpi {

namespace {

// The policy: the parameters', else $DLB_POLICY, else the runtime's default (none given).
std::vector<std::string> policy_args(const session_params& p) {
  if (!p.policy.empty()) return {"--strategy", p.policy};
  if (const char* env = std::getenv("DLB_POLICY"); env && *env) return {"--strategy", env};
  return {};
}

// The parameters as the command line run_app would parse: the one reading of the options.
std::pair<options, run_params> read(const session_params& p) {
  std::vector<std::string> args = {"--backend", "mpi", "--clock", p.clock};
  for (auto& a : policy_args(p)) args.push_back(std::move(a));
  if (p.group > 0) args.insert(args.end(), {"--group", std::to_string(p.group)});
  args.insert(args.end(), p.options.begin(), p.options.end());
  options opts = options::parse(common_options(), args);
  run_params params;
  try {
    params = read_params(opts);
  } catch (const usage_error& e) {
    if (p.policy.empty() && std::getenv("DLB_POLICY"))
      throw usage_error(std::string("environment variable DLB_POLICY: ") + e.what());
    throw;
  }
  if (params.backend != backend_kind::mpi)
    throw usage_error("dlb::mpi::session runs on MPI: leave --backend out of its options");
  detail::check_run_options(opts, params);
  return {std::move(opts), std::move(params)};
}

}  // namespace

struct session::impl {
  bool own_mpi = false;  // this session called MPI_Init
  int rank = 0, slaves = 0;
  detail::launch_spec spec;
  std::optional<mpi_detail::job> job;
  std::string failure;  // why the run failed, once it has
  bool finished = false;
  int unwinding = 0;  // std::uncaught_exceptions() at construction

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
  auto [opts, run] = read(params);
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    mpi_detail::check_mpi_binding();
    MPI_Init(nullptr, nullptr);
    impl_->own_mpi = true;
  }
  try {
    impl_->job.emplace(comm, impl_->spec, std::move(opts), std::move(run));
    impl_->rank = impl_->job->rank();
    impl_->slaves = impl_->job->rt().slaves();
  } catch (...) {
    if (impl_->own_mpi) MPI_Finalize();
    throw;
  }
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
  if (impl_->own_mpi) MPI_Finalize();
}

bool session::master() const { return impl_->rank == 0; }
int session::rank() const { return impl_->rank; }
int session::slaves() const { return impl_->slaves; }
dlb::runtime& session::runtime() {
  if (!impl_->job) throw run_error("dlb::mpi::session::runtime() after finish()");
  return impl_->job->rt();
}

run_stats session::parallel_for(const loop_spec& loop, const std::vector<array_ref>& arrays,
                                const std::function<void(std::int64_t)>& body) {
  if (!impl_->failure.empty()) throw run_error("the DLB run failed earlier: " + impl_->failure);
  if (impl_->finished) throw run_error("dlb::mpi::session::parallel_for after finish()");
  try {
    return dlb::parallel_for(impl_->job->rt(), loop, arrays, body);
  } catch (const std::exception& e) {
    impl_->fail(e.what());
    throw;
  }
}

void session::finish() {
  if (impl_->finished) return;
  impl_->finished = true;
  if (!impl_->failure.empty()) {
    impl_->job.reset();
    throw run_error("the DLB run failed: " + impl_->failure);
  }
  try {
    impl_->job->rt().finish();
    impl_->job->settle();
  } catch (const std::exception& e) {
    impl_->fail(e.what());
    impl_->job.reset();
    throw;
  }
  impl_->job.reset();
}

}  // namespace dlb::mpi
