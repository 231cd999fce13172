// pvm_pingpong_bench: round-trip time of raw libpvm3 calls vs the pvm/ wrapper, side by side in
// one run, for 1 B, 1 KiB, 64 KiB and 1 MiB messages, routed via the pvmds and directly.
// Starts its own private virtual machine; prints the wrapper/raw ratio of the medians at the end.
#include <benchmark/benchmark.h>
#include <pvm3.h>

#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "pvm/pvm.hpp"

namespace {

constexpr int kTag = 5;

struct world {
  pvm::session* session = nullptr;
  pvm::tid echo_via_pvmd;
  pvm::tid echo_direct;
};
world g;  // set once in main before any benchmark runs

pvm::tid peer(int route) { return route == 0 ? g.echo_via_pvmd : g.echo_direct; }

void BM_raw(benchmark::State& state) {
  const auto bytes = static_cast<int>(state.range(0));
  const int to = peer(static_cast<int>(state.range(1))).value;
  std::vector<char> out(static_cast<std::size_t>(bytes), 'x'), in(out.size());
  for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): benchmark idiom
    if (pvm_initsend(PvmDataDefault) < 0 || pvm_pkbyte(out.data(), bytes, 1) < 0 ||
        pvm_send(to, kTag) < 0 || pvm_recv(to, kTag) < 0 || pvm_upkbyte(in.data(), bytes, 1) < 0) {
      state.SkipWithError("libpvm3 call failed");
      break;
    }
  }
  state.SetBytesProcessed(2 * state.iterations() * bytes);
}

void BM_wrapper(benchmark::State& state) {
  const auto bytes = static_cast<std::size_t>(state.range(0));
  const pvm::tid to = peer(static_cast<int>(state.range(1)));
  std::vector<char> out(bytes, 'x'), in(bytes);
  pvm::session& s = *g.session;
  for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): benchmark idiom
    {
      pvm::send_buffer b(pvm::encoding::xdr);
      b.pack(std::span<const char>(out));
      s.send(to, pvm::tag{kTag}, b);
    }
    pvm::message m = s.recv(to, pvm::tag{kTag});
    std::span<char> into(in);
    m.unpack(into);
  }
  state.SetBytesProcessed(2 * state.iterations() * static_cast<std::int64_t>(bytes));
}

void sizes(benchmark::internal::Benchmark* b) {
  for (int route : {0, 1}) {
    for (int size : {1, 1024, 64 * 1024, 1024 * 1024}) b->Args({size, route});
  }
  b->ArgNames({"bytes", "direct"})->UseRealTime()->Unit(benchmark::kMicrosecond);
}
BENCHMARK(BM_raw)->Apply(sizes);
BENCHMARK(BM_wrapper)->Apply(sizes);

// Collects the median of each benchmark and prints wrapper/raw per size and route.
class ratio_reporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const auto& r : runs) {
      bool median = r.run_type == Run::RT_Aggregate && r.aggregate_name == "median";
      bool single = r.run_type == Run::RT_Iteration && r.repetitions <= 1;
      if (median || single) times_[r.run_name.str()] = r.GetAdjustedRealTime();
    }
  }
  void Finalize() override {
    ConsoleReporter::Finalize();
    std::printf(
        "\n| size | route | raw (us) | wrapper (us) | wrapper/raw |\n|---:|---|---:|---:|---:|\n");
    for (int route : {0, 1}) {
      for (int size : {1, 1024, 64 * 1024, 1024 * 1024}) {
        std::string suffix =
            "/bytes:" + std::to_string(size) + "/direct:" + std::to_string(route) + "/real_time";
        auto raw = times_.find("BM_raw" + suffix), wrap = times_.find("BM_wrapper" + suffix);
        if (raw == times_.end() || wrap == times_.end()) continue;
        std::printf("| %d B | %s | %.1f | %.1f | %.3f |\n", size, route ? "direct" : "via pvmd",
                    raw->second, wrap->second, wrap->second / raw->second);
      }
    }
  }

 private:
  std::map<std::string, double> times_;
};

}  // namespace

int main(int argc, char** argv) {
  pvm::tune_malloc_for_messages();  // as the applications do (pvm/session.hpp)
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  try {
    pvm::private_vm vm;
    pvm::session_options opts;
    opts.routing = pvm::route::direct;
    opts.fragment_size = 1 << 20;
    pvm::session s(opts);
    auto a = s.spawn(ECHO_TASK, {"pvmd", std::to_string(1 << 20)}, 1);
    auto b = s.spawn(ECHO_TASK, {"direct", std::to_string(1 << 20)}, 1);
    if (!a.complete() || !b.complete()) {
      std::fprintf(stderr, "pvm_pingpong_bench: cannot start echo tasks: %s; %s\n",
                   a.summary().c_str(), b.summary().c_str());
      return 1;
    }
    g = world{&s, a.started[0], b.started[0]};
    ratio_reporter reporter;
    benchmark::RunSpecifiedBenchmarks(&reporter);
    for (pvm::tid t : {g.echo_via_pvmd, g.echo_direct}) s.send(t, pvm::tag{99}, s.buffer());
    g = world{};
    benchmark::Shutdown();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "pvm_pingpong_bench: %s\n", e.what());
    return 1;
  }
  return 0;
}
