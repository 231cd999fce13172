// mpi_transport.cpp: the seam's transport over MPI (mpi_transport.hpp).
#include "mpi_transport.hpp"

#include <mpi.h>
#include <sched.h>
#include <signal.h>
#include <time.h>

#include <algorithm>
#include <csignal>

#include "dlb/runtime/messenger.hpp"

namespace dlb::mpi_detail {

namespace {
volatile std::sig_atomic_t g_terminated = 0;
extern "C" void on_term(int) { g_terminated = 1; }

void pause_for(std::chrono::microseconds d) {
  if (d.count() <= 0) return;
  timespec ts{static_cast<time_t>(d.count() / 1'000'000),
              static_cast<long>(d.count() % 1'000'000) * 1000};
  nanosleep(&ts, nullptr);
}
}  // namespace

bool terminated() { return g_terminated != 0; }

void install_term_handler() {
  struct sigaction sa {};
  sa.sa_handler = on_term;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGTERM, &sa, nullptr);
}

// One MPI_Isend and the payload it reads until it completes.
struct mpi_transport::pending {
  MPI_Request request = MPI_REQUEST_NULL;
  std::shared_ptr<const bytes> body;
};

mpi_transport::mpi_transport(MPI_Comm comm, int rank, std::vector<std::string> hosts,
                             exit_watch& watch)
    : comm_(comm),
      rank_(rank),
      hosts_(std::move(hosts)),
      exits_(watch),
      watched_(hosts_.size(), false) {
  for (const auto& h : hosts_) several_hosts_ = several_hosts_ || h != hosts_.front();
}

mpi_transport::~mpi_transport() {
  // Sends still pending here belong to a failed run. Under run_app MPI_Abort ends the job; inside
  // a user's program (dlb::mpi::session) the program goes on, so MPI completes each such send on
  // its own (MPI_Request_free) and its payload is kept for the rest of the process, never freed
  // under MPI's feet.
  // First a bounded moment for them to complete: a failing rank's last message (its abort,
  // which says why) must be on its way before its exit watch closes, or the others would learn
  // only that it exited.
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(250);
  progress();
  while (!sends_.empty() && std::chrono::steady_clock::now() < until) {
    pause_for(std::chrono::microseconds(50));
    progress();
  }
  static auto* kept = new std::vector<std::shared_ptr<const bytes>>();
  for (auto& p : sends_) {
    MPI_Request_free(&p->request);
    kept->push_back(std::move(p->body));
  }
}

void mpi_transport::progress() {
  std::erase_if(sends_, [](const std::unique_ptr<pending>& p) {
    int done = 0;
    MPI_Test(&p->request, &done, MPI_STATUS_IGNORE);
    return done != 0;
  });
}

void mpi_transport::isend(int to, int tag, const std::shared_ptr<const bytes>& body) {
  auto p = std::make_unique<pending>();
  p->body = body;
  MPI_Isend(body->data(), static_cast<int>(body->size()), MPI_BYTE, to, tag, comm_, &p->request);
  sends_.push_back(std::move(p));
}

void mpi_transport::send(int to, int tag, const bytes& payload, std::size_t) {
  progress();
  isend(to, tag, std::make_shared<const bytes>(payload));
}

void mpi_transport::multicast(std::span<const int> to, int tag, const bytes& payload) {
  progress();
  const auto body = std::make_shared<const bytes>(payload);
  for (int r : to) isend(r, tag, body);
}

std::optional<envelope> mpi_transport::take_message() {
  int flag = 0;
  MPI_Status st;
  MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm_, &flag, &st);
  if (!flag) return std::nullopt;
  int count = 0;
  MPI_Get_count(&st, MPI_BYTE, &count);
  envelope e;
  e.from = st.MPI_SOURCE;
  e.tag = st.MPI_TAG;
  e.payload.resize(static_cast<std::size_t>(count));
  MPI_Recv(e.payload.data(), count, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, comm_, MPI_STATUS_IGNORE);
  return e;
}

std::optional<envelope> mpi_transport::take_exit() {
  while (auto r = exits_.exited()) {
    if (*r < 0 || static_cast<std::size_t>(*r) >= watched_.size() ||
        !watched_[static_cast<std::size_t>(*r)])
      continue;
    envelope e;
    e.from = *r;
    e.tag = kTaskExitTag;
    return e;
  }
  return std::nullopt;
}

std::optional<envelope> mpi_transport::receive(std::chrono::microseconds bound) {
  // A reply on its way costs no sleep: polls without pause for the first 200 us, then polls and
  // yields the processor (an oversubscribed host runs the other ranks meanwhile) until 2 ms,
  // and only then sleeps between polls, 10 us doubling to at most 200 us
  // (core::next_wait_step).
  const auto start = std::chrono::steady_clock::now();
  const auto deadline = start + bound;
  std::chrono::microseconds slept(0);
  for (;;) {
    progress();
    if (auto e = take_message()) return e;
    // Exits are rare and each peer's check is a system call: looked for at most every 100 us.
    const auto now = std::chrono::steady_clock::now();
    if (now - last_exit_check_ >= std::chrono::microseconds(100)) {
      last_exit_check_ = now;
      if (auto e = take_exit()) held_exits_.push_back({std::move(*e), now + kExitGrace});
    }
    // An exit is told once what the rank sent before it (its abort, saying why) has had its
    // moment to arrive: its connection can close a millisecond before MPI shows its last message.
    if (!held_exits_.empty() && now >= held_exits_.front().due) {
      envelope e = std::move(held_exits_.front().exit);
      held_exits_.erase(held_exits_.begin());
      return e;
    }
    if (terminated())
      throw run_error(describe(rank_) +
                      " was ended by mpirun (SIGTERM): another rank of the job ended first; "
                      "mpirun's message names it");
    const auto left = std::chrono::duration_cast<std::chrono::microseconds>(deadline - now);
    if (left.count() <= 0) return std::nullopt;
    const core::wait_step step = core::next_wait_step(
        std::chrono::duration_cast<std::chrono::microseconds>(now - start), slept, pacing_);
    if (step.what == core::wait_step::kind::yield) {
      sched_yield();
    } else if (step.what == core::wait_step::kind::sleep) {
      slept = step.sleep;
      pause_for(std::min(step.sleep, left));
    }
  }
}

bool mpi_transport::probe() {
  progress();
  int flag = 0;
  MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm_, &flag, MPI_STATUS_IGNORE);
  return flag != 0;
}

std::string mpi_transport::describe(int rank) const {
  std::string s = rank == 0 ? "the master" : "slave " + std::to_string(rank);
  if (rank < 0 || rank >= size()) return s;
  s += " (MPI rank " + std::to_string(rank);
  if (several_hosts_) s += " on " + hosts_[static_cast<std::size_t>(rank)];
  return s + ")";
}

void mpi_transport::watch(std::span<const int> ranks) {
  for (int r : ranks) watched_.at(static_cast<std::size_t>(r)) = true;
}

void mpi_transport::kill(int) noexcept {
  // MPI cannot end a single rank: after a failed run the launcher ends the job (MPI_Abort).
}

void mpi_transport::await_exit(std::span<const int>) {
  // The ranks leave together in settle() and MPI_Finalize, bounded there.
}

bool mpi_transport::settle(std::chrono::milliseconds bound) {
  // First this rank's sends complete (a large one needs its receiver, which drains meanwhile);
  // then the barrier: once it is met, no rank has anything in flight.
  std::fill(watched_.begin(), watched_.end(), false);
  MPI_Request barrier = MPI_REQUEST_NULL;
  const auto deadline = std::chrono::steady_clock::now() + bound;
  std::chrono::microseconds backoff(2);
  while (std::chrono::steady_clock::now() < deadline) {
    progress();
    while (take_message()) {
    }
    if (sends_.empty() && barrier == MPI_REQUEST_NULL) MPI_Ibarrier(comm_, &barrier);
    if (barrier != MPI_REQUEST_NULL) {
      int done = 0;
      MPI_Test(&barrier, &done, MPI_STATUS_IGNORE);
      if (done) return true;
    }
    pause_for(backoff);
    backoff = std::min(backoff * 2, std::chrono::microseconds(200));
  }
  return false;
}

}  // namespace dlb::mpi_detail
