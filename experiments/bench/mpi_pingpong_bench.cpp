// mpi_pingpong_bench: round-trip time of raw MPI calls vs the DLB runtime's MPI transport
// (lib/backends/mpi/mpi_transport.hpp over its port), side by side in one run, for 1 B, 1 KiB, 64 KiB and 1 MiB
// messages. Two ranks: mpirun -np 2 mpi_pingpong_bench [--benchmark_...]. Rank 0 runs the
// benchmarks; rank 1 echoes every message back with raw MPI (the same echo for both). Prints the
// transport/raw ratio of the medians at the end.
#include <benchmark/benchmark.h>
#include <mpi.h>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "exit_watch.hpp"
#include "mpi_transport.hpp"
#include "pvm/session.hpp"

namespace {

constexpr int kTag = 5, kStop = 99;
dlb::mpi_detail::mpi_transport* g_transport = nullptr;  // set in main before any benchmark

void BM_raw(benchmark::State& state) {
  const auto bytes = static_cast<int>(state.range(0));
  std::vector<char> out(static_cast<std::size_t>(bytes), 'x'), in(out.size());
  for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): benchmark idiom
    MPI_Send(out.data(), bytes, MPI_BYTE, 1, kTag, MPI_COMM_WORLD);
    MPI_Recv(in.data(), bytes, MPI_BYTE, 1, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  state.SetBytesProcessed(2 * state.iterations() * bytes);
}

void BM_transport(benchmark::State& state) {
  const auto bytes = static_cast<std::size_t>(state.range(0));
  const dlb::bytes out(bytes, std::byte{'x'});
  for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): benchmark idiom
    g_transport->send(1, kTag, out, bytes);
    auto e = g_transport->receive(std::chrono::seconds(10));
    if (!e || e->payload.size() != bytes) {
      state.SkipWithError("no echo within 10 s");
      break;
    }
  }
  state.SetBytesProcessed(2 * state.iterations() * static_cast<std::int64_t>(bytes));
}

void sizes(benchmark::internal::Benchmark* b) {
  for (int size : {1, 1024, 64 * 1024, 1024 * 1024}) b->Arg(size);
  b->ArgNames({"bytes"})->UseRealTime()->Unit(benchmark::kMicrosecond);
}
BENCHMARK(BM_raw)->Apply(sizes);
BENCHMARK(BM_transport)->Apply(sizes);

// Collects the median of each benchmark and prints transport/raw per size.
class ratio_reporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const auto& r : runs) {
      const bool median = r.run_type == Run::RT_Aggregate && r.aggregate_name == "median";
      const bool single = r.run_type == Run::RT_Iteration && r.repetitions <= 1;
      if (median || single) times_[r.run_name.str()] = r.GetAdjustedRealTime();
    }
  }
  void Finalize() override {
    ConsoleReporter::Finalize();
    std::printf(
        "\n| size | raw MPI (us) | transport (us) | transport/raw |\n|---:|---:|---:|---:|\n");
    for (int size : {1, 1024, 64 * 1024, 1024 * 1024}) {
      const std::string suffix = "/bytes:" + std::to_string(size) + "/real_time";
      auto raw = times_.find("BM_raw" + suffix), t = times_.find("BM_transport" + suffix);
      if (raw == times_.end() || t == times_.end()) continue;
      std::printf("| %d B | %.2f | %.2f | %.3f |\n", size, raw->second, t->second,
                  t->second / raw->second);
    }
  }

 private:
  std::map<std::string, double> times_;
};

// Rank 1: every message back to rank 0 with its tag, until kStop.
void echo() {
  std::vector<char> buf(1 << 20);
  for (;;) {
    MPI_Status st;
    MPI_Recv(buf.data(), static_cast<int>(buf.size()), MPI_BYTE, 0, MPI_ANY_TAG, MPI_COMM_WORLD,
             &st);
    if (st.MPI_TAG == kStop) return;
    int n = 0;
    MPI_Get_count(&st, MPI_BYTE, &n);
    MPI_Send(buf.data(), n, MPI_BYTE, 0, st.MPI_TAG, MPI_COMM_WORLD);
  }
}

}  // namespace

int main(int argc, char** argv) {
  pvm::tune_malloc_for_messages();  // as the applications do (pvm/session.hpp)
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2) {
    if (rank == 0) std::fprintf(stderr, "mpi_pingpong_bench: run it as mpirun -np 2 ...\n");
    MPI_Finalize();
    return 2;
  }
  if (rank == 1) {
    echo();
    MPI_Finalize();
    return 0;
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) MPI_Abort(MPI_COMM_WORLD, 2);
  dlb::mpi_detail::exit_watch none;
  dlb::mpi_detail::mpi_port port(MPI_COMM_WORLD, 0, {2, false}, none);
  dlb::mpi_detail::mpi_transport t(port, 0, {"here", "here"});
  g_transport = &t;
  ratio_reporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  g_transport = nullptr;
  MPI_Send(nullptr, 0, MPI_BYTE, 1, kStop, MPI_COMM_WORLD);
  benchmark::Shutdown();
  MPI_Finalize();
  return 0;
}
