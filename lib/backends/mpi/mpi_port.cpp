// mpi_port.cpp: one MPI rank's side of a run, shared by its tasks (mpi_port.hpp).
#include "mpi_port.hpp"

#include <sched.h>
#include <time.h>

#include <algorithm>

namespace dlb::mpi_detail {

namespace {
void sleep_for(std::chrono::microseconds d) {
  if (d.count() <= 0) return;
  timespec ts{static_cast<time_t>(d.count() / 1'000'000),
              static_cast<long>(d.count() % 1'000'000) * 1000};
  nanosleep(&ts, nullptr);
}
}  // namespace

int wire_tag(int tag, bool from_second, bool to_second) {
  return tag * 4 + (from_second ? 2 : 0) + (to_second ? 1 : 0);
}

wire_parts parse_wire_tag(int wire) { return {wire / 4, (wire & 2) != 0, (wire & 1) != 0}; }

// One MPI_Isend and the payload it reads until it completes.
struct mpi_port::pending {
  MPI_Request request = MPI_REQUEST_NULL;
  std::shared_ptr<const bytes> body;
};

mpi_port::mpi_port(MPI_Comm comm, int rank, rank_layout layout, exit_watch& watch)
    : comm_(comm),
      rank_(rank),
      layout_(layout),
      exits_(watch),
      tasks_(layout.tasks_on(rank)),
      inbox_(tasks_.size()) {
  // Open MPI's MPI_Iprobe looks at the messages matched so far and only then progresses: after
  // a long chunk without an MPI call, the first probe brings in a request that has been waiting
  // but says none, the second sees it (one probe alone left another rank's request to wait a
  // whole chunk more).
  link_.others = layout.ranks > 1;
  link_.serve_others = [this] {
    pump();
    if (inbox_[0].empty()) pump();
    if (inbox_[0].empty() || master_ == nullptr || master_->inside()) return false;
    master_->resume();
    return true;
  };
}

mpi_port::~mpi_port() {
  // Sends still pending here belong to a failed run. Under run_app MPI_Abort ends the job; inside
  // a user's program (dlb::mpi::session) the program goes on, so MPI completes each such send on
  // its own (MPI_Request_free) and its payload is kept for the rest of the process, never freed
  // under MPI's feet. First a bounded moment for them to complete: a failing rank's last message
  // (its abort, which says why) must be on its way before its exit watch closes, or the others
  // would learn only that it exited.
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(250);
  progress();
  while (!sends_.empty() && std::chrono::steady_clock::now() < until) {
    sleep_for(std::chrono::microseconds(50));
    progress();
  }
  static auto* kept = new std::vector<std::shared_ptr<const bytes>>();
  for (auto& p : sends_) {
    MPI_Request_free(&p->request);
    kept->push_back(std::move(p->body));
  }
}

int mpi_port::slot_of(int task) const {
  for (std::size_t s = 0; s < tasks_.size(); ++s)
    if (tasks_[s] == task) return static_cast<int>(s);
  return -1;
}

void mpi_port::progress() {
  std::erase_if(sends_, [](const std::unique_ptr<pending>& p) {
    int done = 0;
    MPI_Test(&p->request, &done, MPI_STATUS_IGNORE);
    return done != 0;
  });
}

void mpi_port::send(int from, int to, int tag, const std::shared_ptr<const bytes>& body) {
  const int rank = layout_.rank_of(to);
  if (rank == rank_) {
    envelope e;
    e.from = from;
    e.tag = tag;
    e.payload = *body;
    inbox_[static_cast<std::size_t>(slot_of(to))].push_back(std::move(e));
    return;
  }
  const int second = layout_.ranks;  // slave P, rank 0's second task under master_computes
  const int wire = wire_tag(tag, layout_.master_computes && from == second,
                            layout_.master_computes && to == second);
  progress();
  auto p = std::make_unique<pending>();
  p->body = body;
  MPI_Isend(body->data(), static_cast<int>(body->size()), MPI_BYTE, rank, wire, comm_, &p->request);
  sends_.push_back(std::move(p));
}

std::optional<mpi_port::incoming> mpi_port::receive_any() {
  int flag = 0;
  MPI_Status st;
  MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm_, &flag, &st);
  if (!flag) return std::nullopt;
  int count = 0;
  MPI_Get_count(&st, MPI_BYTE, &count);
  incoming in{st.MPI_SOURCE, st.MPI_TAG, bytes(static_cast<std::size_t>(count))};
  MPI_Recv(in.payload.data(), count, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, comm_, MPI_STATUS_IGNORE);
  return in;
}

void mpi_port::pump() {
  progress();
  while (auto in = receive_any()) {
    envelope e;
    const wire_parts w = parse_wire_tag(in->tag);
    e.from = w.from_second ? layout_.ranks : in->source;
    e.tag = w.tag;
    e.payload = std::move(in->payload);
    const std::size_t slot = w.to_second ? 1 : 0;
    if (slot >= inbox_.size()) continue;  // not a task of this rank: never sent so
    inbox_[slot].push_back(std::move(e));
    if (inbox_.size() == 1) break;  // one task: one message at a time, as it asks
  }
}

bool mpi_port::holds(int tag) {
  pump();
  for (const auto& box : inbox_)
    for (const envelope& e : box)
      if (e.tag == tag) return true;
  return false;
}

void mpi_port::run_master_if_due() {
  if (master_ == nullptr || master_->inside() || master_->finished()) return;
  if (inbox_[0].empty() && std::chrono::steady_clock::now() < master_due_) return;
  master_->resume();
}

std::optional<envelope> mpi_port::pop(int slot) {
  if (slot < 0 || inbox_[static_cast<std::size_t>(slot)].empty()) return std::nullopt;
  auto& box = inbox_[static_cast<std::size_t>(slot)];
  envelope e = std::move(box.front());
  box.pop_front();
  return e;
}

std::optional<envelope> mpi_port::take(int me) {
  const int slot = me < 0 ? -1 : slot_of(me);
  if (auto e = pop(slot)) return e;
  // What rank 0's two tasks send each other needs no MPI: the master answers its slave first
  // (and, waiting again, looks at MPI itself), then MPI is looked at here.
  if (!inbox_[0].empty()) {
    run_master_if_due();
    if (auto e = pop(slot)) return e;
  }
  pump();
  run_master_if_due();
  return pop(slot);
}

bool mpi_port::waiting(int me) {
  const auto slot = static_cast<std::size_t>(slot_of(me));
  if (!inbox_[slot].empty()) return true;
  if (inbox_.size() > 1) {
    pump();
    run_master_if_due();
    return !inbox_[slot].empty();
  }
  progress();
  int flag = 0;
  MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm_, &flag, MPI_STATUS_IGNORE);
  return flag != 0;
}

void mpi_port::pause(int me, std::chrono::microseconds d) {
  const auto now = std::chrono::steady_clock::now();
  if (hands_back()) {  // the master: the thread back to its slave until a message or `d`
    master_due_ = now + d;
    master_->yield();
    return;
  }
  if (master_ != nullptr && !master_->finished()) {
    run_master_if_due();
    const int slot = me < 0 ? -1 : slot_of(me);
    if (slot >= 0 && !inbox_[static_cast<std::size_t>(slot)].empty()) return;
    d = std::min(d, std::chrono::duration_cast<std::chrono::microseconds>(
                        master_due_ - std::chrono::steady_clock::now()));
  }
  sleep_for(d);
}

void mpi_port::serve_master() {
  // The other ranks' last requests are due soon: polls without pause first, then yields the
  // processor, then sleeps between polls, as a waiting receive does (core::next_wait_step).
  using std::chrono::microseconds;
  const core::wait_pacing pacing;
  const auto start = std::chrono::steady_clock::now();
  microseconds slept(0);
  while (master_ != nullptr && !master_->finished()) {
    take(-1);
    const auto waited =
        std::chrono::duration_cast<microseconds>(std::chrono::steady_clock::now() - start);
    const core::wait_step step = core::next_wait_step(waited, slept, pacing);
    if (step.what == core::wait_step::kind::yield) {
      sched_yield();
    } else if (step.what == core::wait_step::kind::sleep) {
      slept = step.sleep;
      pause(-1, step.sleep);
    }
  }
}

bool mpi_port::settle(std::chrono::milliseconds bound) {
  // First this rank's sends complete (a large one needs its receiver, which drains meanwhile);
  // then the barrier: once it is met, no rank has anything in flight.
  MPI_Request barrier = MPI_REQUEST_NULL;
  const auto deadline = std::chrono::steady_clock::now() + bound;
  std::chrono::microseconds backoff(2);
  while (std::chrono::steady_clock::now() < deadline) {
    progress();
    while (receive_any()) {
    }
    if (sends_.empty() && barrier == MPI_REQUEST_NULL) MPI_Ibarrier(comm_, &barrier);
    if (barrier != MPI_REQUEST_NULL) {
      int done = 0;
      MPI_Test(&barrier, &done, MPI_STATUS_IGNORE);
      if (done) return true;
    }
    sleep_for(backoff);
    backoff = std::min(backoff * 2, std::chrono::microseconds(200));
  }
  return false;
}

}  // namespace dlb::mpi_detail
