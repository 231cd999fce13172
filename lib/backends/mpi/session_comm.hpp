// session_comm.hpp (internal): the MPI side of a session's agreement (agreement.hpp), every wait
// bounded by the session's deadline.
//
// A session's own communicator is a duplicate of the program's (MPI_Comm_idup), and the ranks'
// statements go round it (MPI_Iallgather), both tested against the deadline: a rank that never
// comes is a run_error on the others at the deadline, never a hang. A collective that MPI started
// cannot be cancelled, and the next collective on the same communicator would be matched to it
// on the ranks that are late: so what timed out is kept on the program's communicator (an MPI
// attribute, cached there as MPI libraries cache their state) and the next session on it resumes
// it instead of starting a new one. Every rank thus starts the same collectives in the same order
// on the program's communicator, whichever session timed out and where: a rank that missed a
// session's creation joins the others' pending one when it makes its next session.
//
// The same attribute holds the communicator's session count (statement's field::session).
#pragma once

#include <mpi.h>

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "agreement.hpp"

namespace dlb::mpi_detail {

using deadline = std::chrono::steady_clock::time_point;

deadline deadline_after(double seconds);

// Waits for `request` until `by`, or until `give_up` (polled while waiting, if given) says so:
// true when it completed (its request then MPI_REQUEST_NULL).
bool wait_until(MPI_Request& request, deadline by, const std::function<bool()>& give_up = {});

// The buffers of a collective that did not complete: MPI may still write or read them, so they
// stay for the rest of the process (a session's communicator is never reused).
void keep_for_good(std::shared_ptr<void> buffers);

// Waits for `request` until `by`; else keeps `buffers` (keep_for_good: what the collective still
// uses) and throws run_error: "<what> within --timeout T s".
void wait_or_throw(MPI_Request& request, deadline by, double timeout_s, const std::string& what,
                   std::shared_ptr<void> buffers = nullptr);

// Every rank's statement, by rank, over `comm` (a session's own communicator): throws run_error
// when not every rank has stated within the deadline; empty when `give_up` said so first.
std::vector<statement> exchange(MPI_Comm comm, const statement& mine, deadline by, double timeout_s,
                                const std::string& what, const std::function<bool()>& give_up = {});

// A new session's communicator: a duplicate of `user`, and every rank's statement `mine` (its
// field::session set here to this rank's session count on `user`), within `timeout_s`. Throws
// run_error at the deadline (what was pending is resumed by the next call on `user`), usage_error
// when the statements differ (the duplicate is freed then). The session count becomes one more
// than the largest any rank stated.
MPI_Comm open_session_comm(MPI_Comm user, statement mine, double timeout_s);

}  // namespace dlb::mpi_detail
