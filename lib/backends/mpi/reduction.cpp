// reduction.cpp: the reproducible reduction of an index-only loop (reduction.hpp).
#include "reduction.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "dlb/runtime/errors.hpp"
#include "session_comm.hpp"

namespace dlb::mpi_detail {

namespace {

// A record's header words travel as doubles, bit for bit.
double word(std::int64_t v) { return std::bit_cast<double>(v); }
std::int64_t word_of(double d) { return std::bit_cast<std::int64_t>(d); }

enum : std::int64_t { whole_block = 0, fragment = 1 };

}  // namespace

std::int64_t reduction_block(std::int64_t iterations) {
  return std::max<std::int64_t>(1, (iterations + 1023) / 1024);
}

double reduction_identity(const mpi::reduction& r) {
  switch (r.op) {
    case mpi::reduce_op::sum:
      return 0.0;
    case mpi::reduce_op::min:
      return std::numeric_limits<double>::infinity();
    case mpi::reduce_op::max:
      return -std::numeric_limits<double>::infinity();
    case mpi::reduce_op::user:
      break;
  }
  return r.identity;
}

block_reducer::block_reducer(const mpi::reduction& r, std::int64_t iterations)
    : op_(r.op),
      user_(r.combine),
      identity_(reduction_identity(r)),
      iterations_(iterations),
      block_(reduction_block(iterations)) {
  if (op_ == mpi::reduce_op::user && !user_)
    throw usage_error("dlb::mpi::reduction: reduce_op::user needs its combine function");
}

void block_reducer::add(std::int64_t i, double value) {
  if (i < 0 || i >= iterations_) throw std::logic_error("block_reducer: iteration out of range");
  if (!buffer_.empty() && i != next_) flush();  // not the next of the run: a new run
  if (buffer_.empty()) {
    buffer_start_ = i;
    block_end_ = std::min((i / block_ + 1) * block_, iterations_);
  }
  buffer_.push_back(value);
  next_ = i + 1;
  if (next_ == block_end_) flush();
}

void block_reducer::flush() {
  if (buffer_.empty()) return;
  const bool whole = buffer_start_ % block_ == 0 &&
                     buffer_start_ + static_cast<std::int64_t>(buffer_.size()) == block_end_;
  if (whole) {
    double acc = identity_;
    for (double v : buffer_) acc = combine(acc, v);
    records_.insert(records_.end(), {word(whole_block), word(buffer_start_ / block_), acc});
  } else {
    records_.insert(records_.end(), {word(fragment), word(buffer_start_),
                                     word(static_cast<std::int64_t>(buffer_.size()))});
    records_.insert(records_.end(), buffer_.begin(), buffer_.end());
  }
  buffer_.clear();
}

std::vector<double> block_reducer::take() {
  flush();
  next_ = -1;
  return std::exchange(records_, {});
}

double block_reducer::fold(const std::vector<double>& records) const {
  const std::int64_t blocks = (iterations_ + block_ - 1) / block_;
  std::vector<std::optional<double>> partial(static_cast<std::size_t>(blocks));
  struct piece {
    std::int64_t start, count;
    std::size_t at;  // its first value in `records`
  };
  std::vector<std::vector<piece>> pieces(static_cast<std::size_t>(blocks));
  const auto bad = [] {
    return run_error("the reduction's values do not cover every iteration exactly once");
  };
  for (std::size_t at = 0; at + 3 <= records.size();) {
    const std::int64_t kind = word_of(records[at]), where = word_of(records[at + 1]);
    if (kind == whole_block) {
      if (where < 0 || where >= blocks || partial[static_cast<std::size_t>(where)]) throw bad();
      partial[static_cast<std::size_t>(where)] = records[at + 2];
      at += 3;
      continue;
    }
    const std::int64_t count = word_of(records[at + 2]);
    if (where < 0 || count < 1 || where + count > iterations_) throw bad();
    pieces[static_cast<std::size_t>(where / block_)].push_back({where, count, at + 3});
    at += 3 + static_cast<std::size_t>(count);
  }
  double result = identity_;
  for (std::int64_t b = 0; b < blocks; ++b) {
    auto& mine = pieces[static_cast<std::size_t>(b)];
    auto& whole = partial[static_cast<std::size_t>(b)];
    if (whole && !mine.empty()) throw bad();
    if (!whole) {
      std::sort(mine.begin(), mine.end(),
                [](const piece& x, const piece& y) { return x.start < y.start; });
      double acc = identity_;
      std::int64_t next = b * block_;
      for (const piece& p : mine) {
        if (p.start != next) throw bad();
        for (std::int64_t k = 0; k < p.count; ++k)
          acc = combine(acc, records[p.at + static_cast<std::size_t>(k)]);
        next += p.count;
      }
      if (next != std::min((b + 1) * block_, iterations_)) throw bad();
      whole = acc;
    }
    result = combine(result, *whole);
  }
  return result;
}

namespace {

// Waits for a collective of the reduction, its buffers kept if it never ends.
void finish(MPI_Request& req, deadline by, double timeout_s, const std::function<bool()>& give_up,
            std::shared_ptr<void> buffers) {
  if (wait_until(req, by, give_up)) return;
  keep_for_good(std::move(buffers));
  if (std::chrono::steady_clock::now() < by)
    throw run_error("the reduction stopped: another rank failed the run");
  throw run_error("not every rank came to the loop's reduction within --timeout " +
                  std::to_string(timeout_s) + " s");
}

}  // namespace

double reduce_over(MPI_Comm comm, block_reducer& reducer, double timeout_s,
                   const std::function<bool()>& give_up) {
  int size = 0, rank = 0;
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(comm, &rank);
  const deadline by = deadline_after(timeout_s);
  auto mine = std::make_shared<std::vector<double>>(reducer.take());
  auto counts = std::make_shared<std::vector<int>>(static_cast<std::size_t>(size));
  int count = static_cast<int>(mine->size());
  MPI_Request req = MPI_REQUEST_NULL;
  MPI_Igather(&count, 1, MPI_INT, counts->data(), 1, MPI_INT, 0, comm, &req);
  finish(req, by, timeout_s, give_up, counts);
  auto all = std::make_shared<std::vector<double>>();
  auto offsets = std::make_shared<std::vector<int>>(static_cast<std::size_t>(size), 0);
  if (rank == 0) {
    std::size_t total = 0;
    for (int r = 0; r < size; ++r) {
      (*offsets)[static_cast<std::size_t>(r)] = static_cast<int>(total);
      total += static_cast<std::size_t>((*counts)[static_cast<std::size_t>(r)]);
    }
    all->resize(total);
  }
  MPI_Igatherv(mine->data(), count, MPI_DOUBLE, all->data(), counts->data(), offsets->data(),
               MPI_DOUBLE, 0, comm, &req);
  finish(req, by, timeout_s, give_up,
         std::make_shared<
             std::tuple<decltype(mine), decltype(all), decltype(counts), decltype(offsets)>>(
             mine, all, counts, offsets));
  // The result and whether rank 0 could fold (0: the records were wrong).
  auto answer = std::make_shared<std::array<double, 2>>(std::array<double, 2>{0.0, 1.0});
  std::string why;
  if (rank == 0) {
    try {
      (*answer)[0] = reducer.fold(*all);
    } catch (const run_error& e) {
      (*answer)[1] = 0.0;
      why = e.what();
    }
  }
  MPI_Ibcast(answer->data(), 2, MPI_DOUBLE, 0, comm, &req);
  finish(req, by, timeout_s, give_up, answer);
  if ((*answer)[1] == 0.0)
    throw run_error(rank == 0 ? why : "rank 0 could not fold the loop's reduction");
  return (*answer)[0];
}

}  // namespace dlb::mpi_detail
