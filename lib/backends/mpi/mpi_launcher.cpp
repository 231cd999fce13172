// mpi_launcher.cpp: run_app's --backend mpi, a thin front end over the path a user's own MPI
// program takes (dlb::mpi::session; both build an mpi_detail::job, mpi_job.hpp).
//
// mpirun (or srun) starts P+1 copies of the program: MPI rank 0 is the master, ranks 1..P the
// slaves; under --master-rank computes, P copies, rank 0 also slave P (mpi_port.hpp). Every rank
// has parsed the same command line (run_app), so all agree on the options without a configuration
// message; --procs, when given, must be the job's ranks less one.
//
// What run_app adds, owning the process: MPI_Init and MPI_Finalize, the SIGTERM handler (mpirun
// ends a job so), and the end of a failed run: MPI_Abort once its error is reported, the master
// at once, a slave after giving the master a bounded moment to report it (the master's MPI_Abort
// ends the slave first). Nothing of the job stays behind: mpirun ends every rank.
#include <mpi.h>

#include <iostream>
#include <optional>

#include "mpi_job.hpp"

namespace dlb::detail {

int launch_mpi(const launch_spec& spec, options opts, run_params params, const app_body& body) {
  if (launched_rank() < 0)
    throw usage_error(
        "option --backend mpi: this process was not started by mpirun or srun; "
        "run mpirun -np P+1 " +
        spec.name + " --backend mpi ... (the master and P slaves; srun -n P+1 under Slurm)");
  mpi_detail::check_mpi_binding();
  MPI_Init(nullptr, nullptr);
  mpi_detail::install_term_handler();
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::optional<mpi_detail::job> job;
  int rc = 1;
  try {
    try {
      job.emplace(MPI_COMM_WORLD, spec, std::move(opts), std::move(params));
    } catch (const usage_error& e) {
      // Every rank is here with the same error: rank 0 reports it before the ranks finalize
      // together (a rank that exited first would have mpirun end rank 0 before it printed).
      if (rank == 0) {
        report_of(spec)(report_kind::error, spec.name + ": " + e.what());
        report_of(spec)(report_kind::error, "see '" + spec.name + " --help'");
      }
      MPI_Finalize();
      return 2;
    }
    if (job->worker()) {
      // --master-rank computes: rank 0 runs the master's task and slave P's side by side.
      int master_rc = 1, worker_rc = 1;
      job->run_colocated([&](runtime& m) { master_rc = run_task(m, spec, body); },
                         [&](runtime& w) { worker_rc = run_task(w, spec, body); });
      rc = master_rc != 0 ? master_rc : worker_rc;
    } else {
      rc = run_task(job->rt(), spec, body);
    }
    if (rc == 0) job->settle();
    if (rc != 0 && rank > 0) job->linger();
  } catch (const usage_error& e) {
    // A task's usage error while it sets up (an unwritable --trace-dir file): exit 2 naming it,
    // as on the other backends.
    report_of(spec)(report_kind::error, spec.name + ": " + e.what());
    rc = 2;
  } catch (const std::exception& e) {
    rc = 1;
    report_of(spec)(report_kind::error,
                    spec.name + (rank > 0 ? " (slave " + std::to_string(rank) + ")" : "") +
                        ": error: " + e.what());
  }
  if (rc == 0) {
    job.reset();
    MPI_Finalize();
    return 0;
  }
  std::cout.flush();
  std::cerr.flush();
  MPI_Abort(MPI_COMM_WORLD, rc);
  return rc;
}

// The MPI backend registers itself.
const backend_registrar mpi_backend{{"mpi", launch_mpi, {}}};

}  // namespace dlb::detail
