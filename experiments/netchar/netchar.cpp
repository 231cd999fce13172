// dlb_netchar: characterizes the network in use, as section 1.5.1 of the paper did off-line:
// latency and bandwidth by ping-pong, and the cost of one-to-all, all-to-one and all-to-all
// exchanges of profile-sized messages for p = 2..P, each fitted by a polynomial in p. Writes a
// network profile file (read by the cost model), the raw measurements and the fits (for our
// Figure 1.6). Runs on the same runtime and network model as the DLB programs: under the
// emulated clock it measures the emulated 1996 network, under --clock native the real one.
//
//   dlb_netchar --procs 16 --out results/network --name ethernet1996
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>
#include <vector>

#include "dlb/core/fit.hpp"
#include "dlb/core/paper.hpp"
#include "dlb/runtime/clocks.hpp"
#include "dlb/runtime/messenger.hpp"
#include "dlb/runtime/network_profile.hpp"
#include "dlb/runtime/runtime.hpp"
#include "dlb/runtime/runtime_internals.hpp"
#include "dlb/runtime/strategy_table.hpp"
#include "pvm/session.hpp"
#include "report/stats.hpp"
#include "sweep/safe_files.hpp"

namespace {

enum class pattern : int {
  ping_pong = 0,
  one_to_all = 1,
  all_to_one = 2,
  all_to_all = 3,
  done = 9
};
constexpr auto kCommand = static_cast<dlb::tag>(200);
constexpr auto kReport = static_cast<dlb::tag>(201);
constexpr auto kData = static_cast<dlb::tag>(202);

const char* name_of(pattern p) {
  switch (p) {
    case pattern::ping_pong:
      return "ping_pong";
    case pattern::one_to_all:
      return "one_to_all";
    case pattern::all_to_one:
      return "all_to_one";
    case pattern::all_to_all:
      return "all_to_all";
    case pattern::done:
      return "done";
  }
  return "?";
}

std::vector<dlb::option_spec> app_options() {
  return {
      {"out", "results/network", "directory for the profile, measurements and fits"},
      {"name", "", "name of the profile (default: the network, or native-loopback)"},
      {"reps", "5", "repetitions of each measurement (the median is used)"},
      {"payload", "96", "bytes of a profile-sized message for the collectives"},
      {"sizes", "1,64,1024,16384,65536,262144,1048576", "ping-pong message sizes, bytes"},
      {"degree", "2", "degree of the polynomial fits in p"},
  };
}

std::vector<long long> parse_sizes(const std::string& s) {
  std::vector<long long> v;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ',')) {
    try {
      std::size_t used = 0;
      long long x = std::stoll(item, &used);
      if (used != item.size() || x < 1 || x > (1LL << 26)) throw std::invalid_argument(item);
      v.push_back(x);
    } catch (const std::exception&) {
      throw dlb::usage_error(
          "option --sizes needs sizes in bytes (1..64 MiB) separated by commas, got '" + s + "'");
    }
  }
  if (v.size() < 2) throw dlb::usage_error("option --sizes needs at least two sizes to fit a line");
  return v;
}

void validate(const dlb::options& o) {
  o.integer("reps", 1, 1000);
  o.integer("payload", 1, 1 << 20);
  o.integer("degree", 0, 3);
  parse_sizes(o.str("sizes"));
  if (o.str("out").empty()) throw dlb::usage_error("option --out needs a directory");
  const std::filesystem::path out = o.str("out");
  if (std::filesystem::exists(out) && !std::filesystem::is_directory(out))
    throw dlb::usage_error("option --out: '" + out.string() + "' exists and is not a directory");
  if (o.integer("procs", 1, 64) < 2)
    throw dlb::usage_error("option --procs must be at least 2 for a network characterization");
}

// Sleeps (or waits in emulated time) until time t of the run.
void start_at(dlb::runtime& rt, double t) {
  auto& clk = dlb::detail::clock_of(rt);
  if (clk.emulated()) {
    clk.wait_until(t);
  } else if (t > clk.now()) {
    std::this_thread::sleep_for(std::chrono::duration<double>(t - clk.now()));
  }
}

dlb::bytes payload_of(long long n, int round) {
  dlb::writer w;
  w.put(round);
  dlb::bytes b = w.take();
  b.resize(static_cast<std::size_t>(std::max<long long>(n, static_cast<long long>(sizeof(int)))));
  return b;
}

dlb::messenger::match data_of(int round, int from = -1) {
  return [round, from](const dlb::delivered& d) {
    return d.kind == kData && (from < 0 || d.from == from) &&
           dlb::reader(d.payload).get<int>() == round;
  };
}

// One slave's part of a round; returns the time it reports.
double take_part(dlb::runtime& rt, pattern kind, long long param, int round, double t0,
                 long long payload) {
  auto& net = dlb::detail::net(rt);
  const int me = rt.rank();
  auto others = [&](int p) {
    std::vector<int> v;
    for (int r = 1; r <= p; ++r) {
      if (r != me) v.push_back(r);
    }
    return v;
  };
  start_at(rt, t0);
  switch (kind) {
    case pattern::ping_pong:
      if (me == 1) {
        net.send(2, kData, payload_of(param, round));
        net.wait(data_of(round, 2), "the ping-pong reply");
        return t0 + (dlb::detail::clock_of(rt).now() - t0) / 2;  // reports the one-way time
      }
      if (me == 2) {
        net.wait(data_of(round, 1), "the ping");
        net.send(1, kData, payload_of(param, round));
      }
      return t0;
    case pattern::one_to_all:
      if (me > param) return t0;
      if (me == 1) {
        net.multicast(others(static_cast<int>(param)), kData, payload_of(payload, round),
                      rt.params().broadcast);
        return t0;
      }
      net.wait(data_of(round, 1), "the one-to-all message");
      return dlb::detail::clock_of(rt).now();
    case pattern::all_to_one:
      if (me > param) return t0;
      if (me == 1) {
        for (int k = 1; k < param; ++k) net.wait(data_of(round), "the all-to-one messages");
        return dlb::detail::clock_of(rt).now();
      }
      net.send(1, kData, payload_of(payload, round));
      return t0;
    case pattern::all_to_all:
      if (me > param) return t0;
      net.multicast(others(static_cast<int>(param)), kData, payload_of(payload, round),
                    rt.params().broadcast);
      for (int k = 1; k < param; ++k) net.wait(data_of(round), "the all-to-all messages");
      return dlb::detail::clock_of(rt).now();
    case pattern::done:
      break;
  }
  return t0;
}

// A slave: takes part in each round it is told of, reports its time, until told it is done.
int slave_loop(dlb::runtime& rt) {
  auto& net = dlb::detail::net(rt);
  for (;;) {
    auto cmd = net.wait(dlb::with_tag(kCommand), "the next command of the characterization");
    dlb::reader r = cmd.body();
    const int round = r.get<int>();
    const auto kind = static_cast<pattern>(r.get<int>());
    const long long param = r.get<long long>();
    const double t0 = r.get<double>();
    const long long payload = r.get<long long>();
    if (kind == pattern::done) return 0;
    const double t = take_part(rt, kind, param, round, t0, payload);
    dlb::writer w;
    w.put(round).put(t);
    net.send(0, kReport, w.data());
  }
}

struct sample {
  pattern kind;
  long long param;
  int rep;
  double seconds;
};

// The master's side of the measurement: every round of every repetition, then "done" to all.
class measurement {
 public:
  measurement(dlb::runtime& rt, long long payload) : rt_(rt), payload_(payload) {
    const bool emulated = rt.params().emulated;
    const int P = rt.slaves();
    // Room for the command to reach every slave before the round starts.
    margin_ =
        emulated
            ? 0.05 + 2.0 * P * (rt.params().network.latency + 64.0 / rt.params().network.bandwidth)
            : 0.02;
  }

  std::vector<sample> run(int reps, const std::vector<long long>& sizes) {
    const int P = rt_.slaves();
    std::vector<sample> samples;
    for (int rep = 0; rep < reps; ++rep) {
      for (long long s : sizes)
        samples.push_back({pattern::ping_pong, s, rep, run_round(pattern::ping_pong, s)});
      for (pattern kind : {pattern::one_to_all, pattern::all_to_one, pattern::all_to_all}) {
        for (int p = 2; p <= P; ++p) samples.push_back({kind, p, rep, run_round(kind, p)});
      }
      if (!rt_.params().quiet)
        std::cerr << "dlb_netchar: repetition " << rep + 1 << " of " << reps << " done\n";
    }
    std::vector<int> all;
    for (int r = 1; r <= P; ++r) all.push_back(r);
    dlb::writer w;
    w.put(++round_).put(static_cast<int>(pattern::done)).put(0LL).put(0.0).put(0LL);
    dlb::detail::net(rt_).multicast(all, kCommand, w.data(), dlb::broadcast_kind::unicast);
    return samples;
  }

 private:
  // Only the round's participants are told and report: a bystander's report would cross the
  // shared medium during the measurement (on the simulated Ethernet, whose link is shared
  // fairly, it slowed a P = 16 ping-pong by tens of microseconds).
  double run_round(pattern kind, long long param) {
    auto& net = dlb::detail::net(rt_);
    const double t0 = dlb::detail::clock_of(rt_).now() + margin_;
    dlb::writer w;
    w.put(++round_).put(static_cast<int>(kind)).put(param).put(t0).put(payload_);
    const int n = kind == pattern::ping_pong ? 2 : static_cast<int>(param);
    std::vector<int> part;
    for (int r = 1; r <= n; ++r) part.push_back(r);
    net.multicast(part, kCommand, w.data(), dlb::broadcast_kind::unicast);
    double last = t0;
    for (int k = 0; k < n; ++k) {
      auto rep = net.wait(dlb::with_tag(kReport), "reports of round " + std::to_string(round_));
      dlb::reader r = rep.body();
      if (r.get<int>() != round_) throw dlb::run_error("a report of another round");
      last = std::max(last, r.get<double>());
    }
    return last - t0;
  }

  dlb::runtime& rt_;
  long long payload_;
  double margin_ = 0;
  int round_ = 0;
};

// Per parameter value of one pattern (in order of first appearance), the median time.
std::pair<std::vector<double>, std::vector<double>> medians(const std::vector<sample>& samples,
                                                            pattern kind) {
  std::vector<double> x, y;
  std::vector<long long> params;
  for (const auto& s : samples) {
    if (s.kind == kind && std::find(params.begin(), params.end(), s.param) == params.end())
      params.push_back(s.param);
  }
  for (long long prm : params) {
    std::vector<double> v;
    for (const auto& s : samples) {
      if (s.kind == kind && s.param == prm) v.push_back(s.seconds);
    }
    x.push_back(static_cast<double>(prm));
    y.push_back(dlb::report::median(v).value_or(0.0));
  }
  return {x, y};
}

const std::vector<pattern>& collectives() {
  static const std::vector<pattern> c{pattern::one_to_all, pattern::all_to_one,
                                      pattern::all_to_all};
  return c;
}

// The profile's polynomial of a collective (a const profile gives a const one).
template <class profile>
auto& fit_of(profile& prof, pattern kind) {
  return kind == pattern::one_to_all   ? prof.one_to_all
         : kind == pattern::all_to_one ? prof.all_to_one
                                       : prof.all_to_all;
}

// Latency and bandwidth from the ping-pongs, a polynomial in p for each collective.
dlb::core::network_profile fit_profile(const std::vector<sample>& samples, int degree, int P) {
  const auto [pb, pt] = medians(samples, pattern::ping_pong);
  const auto lb = dlb::core::fit_latency_bandwidth(pb, pt);
  dlb::core::network_profile prof;
  prof.latency = lb.latency;
  prof.bandwidth = lb.bandwidth;
  const int deg = std::min(degree, P - 2);  // p = 2..P gives P - 1 distinct points
  for (pattern kind : collectives()) {
    const auto [x, y] = medians(samples, kind);
    fit_of(prof, kind) = dlb::core::fit_polynomial(x, y, deg);
  }
  return prof;
}

// Writes `text` to `path` through a temporary file (the tools' shared writer), so that a failed
// run leaves no part file.
void write_file(const std::filesystem::path& path, const std::string& text) {
  try {
    dlb::sweep::write_atomically(path, text);
  } catch (const std::exception& e) {
    throw dlb::run_error(e.what());
  }
}

// The profile, the raw samples and the fits (for Figure 1.6), each with the same header.
void write_outputs(const std::filesystem::path& dir, const std::string& name,
                   const std::string& header, const std::vector<sample>& samples,
                   const dlb::core::network_profile& prof) {
  std::filesystem::create_directories(dir);
  std::ostringstream profile, raw, fit;
  profile << header;
  dlb::write_network_profile(profile, prof);
  raw << header << "pattern,param,rep,seconds\n";
  for (const auto& s : samples)
    raw << name_of(s.kind) << "," << s.param << "," << s.rep << "," << s.seconds << "\n";
  fit << header << "pattern,p,measured_s,fit_s\n";
  for (pattern kind : collectives()) {
    const auto [x, y] = medians(samples, kind);
    for (std::size_t i = 0; i < x.size(); ++i) {
      fit << name_of(kind) << "," << x[i] << "," << y[i] << ","
          << dlb::core::evaluate(fit_of(prof, kind), x[i]) << "\n";
    }
  }
  const auto [pb, pt] = medians(samples, pattern::ping_pong);
  for (std::size_t i = 0; i < pb.size(); ++i) {
    fit << "ping_pong_bytes," << pb[i] << "," << pt[i] << ","
        << prof.latency + pb[i] / prof.bandwidth << "\n";
  }
  write_file(dir / (name + ".profile"), profile.str());
  write_file(dir / (name + "_samples.csv"), raw.str());
  write_file(dir / (name + "_fit.csv"), fit.str());
}

void print_profile(dlb::runtime& rt, const dlb::core::network_profile& prof,
                   const std::filesystem::path& dir, const std::string& name) {
  std::printf("latency = %.1f us (paper 2414.5 us, %+.2f%%)\n", prof.latency * 1e6,
              100.0 * (prof.latency / dlb::paper::latency_s - 1));
  std::printf("bandwidth = %.4f MB/s (paper 0.96 MB/s, %+.2f%%)\n", prof.bandwidth / 1e6,
              100.0 * (prof.bandwidth / dlb::paper::bandwidth_Bps - 1));
  for (pattern kind : collectives()) {
    const auto& poly = fit_of(prof, kind);
    std::printf("%s(p) =", name_of(kind));
    for (std::size_t k = 0; k < poly.coefficients.size(); ++k)
      std::printf(" %+.6g p^%zu", poly.coefficients[k], k);
    std::printf(" s\n");
  }
  std::printf("lag = %.4f s\nwrote %s/%s.profile, %s_samples.csv, %s_fit.csv\n",
              dlb::detail::clock_of(rt).lag(), dir.c_str(), name.c_str(), name.c_str(),
              name.c_str());
}

int body(dlb::runtime& rt) {
  if (!rt.master()) return slave_loop(rt);
  const auto& o = rt.opts();
  const int P = rt.slaves();
  const int reps = static_cast<int>(o.integer("reps", 1, 1000));
  const long long payload = o.integer("payload", 1, 1 << 20);
  const bool emulated = rt.params().emulated;
  std::string name = o.str("name");
  if (name.empty()) name = emulated ? dlb::to_string(rt.params().network.kind) : "native-loopback";

  const std::vector<sample> samples =
      measurement(rt, payload).run(reps, parse_sizes(o.str("sizes")));
  const auto prof = fit_profile(samples, static_cast<int>(o.integer("degree", 0, 3)), P);

  const std::filesystem::path dir = o.str("out");
  const std::string header =
      std::string("# dlb_netchar: ") +
      (rt.params().backend == dlb::backend_kind::sim
           ? "simulated (SimGrid), network " + dlb::to_string(rt.params().network.kind)
       : emulated
           ? "emulated clock, network " + dlb::to_string(rt.params().network.kind)
           : "native clock (real " +
                 std::string(rt.params().backend == dlb::backend_kind::mpi ? "MPI" : "PVM") + ")") +
      ", P = " + std::to_string(P) + ", repetitions " + std::to_string(reps) + ", payload " +
      std::to_string(payload) + " bytes, broadcasts as " +
      std::string(dlb::to_string(rt.params().broadcast)) + "; medians; times in seconds\n";
  write_outputs(dir, name, header, samples, prof);
  print_profile(rt, prof, dir, name);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  pvm::tune_malloc_for_messages();  // a program's choice, not the library's (pvm/session.hpp)
  dlb::app_spec spec{
      "dlb_netchar",
      "Measures latency, bandwidth and collective costs of the network in use (Figure 1.6).",
      app_options(), validate};
  // The coordinator (the master task) is not part of the network measured: it gets a
  // workstation of its own unless told otherwise, so that its commands and reports take no CPU
  // from slave 1, the root of the collectives.
  std::vector<char*> args(argv, argv + argc);
  bool placed = false;
  for (int i = 1; i < argc; ++i)
    placed = placed || std::string(argv[i]).rfind("--balancer", 0) == 0;
  std::string flag = "--balancer=dedicated";
  if (!placed) args.push_back(flag.data());
  return dlb::run_app(static_cast<int>(args.size()), args.data(), spec, body);
}
