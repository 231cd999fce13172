// sim_world_test: several simulated runs in one process. One SimGrid engine (there can be only
// one per process, hence one TEST in its own executable) holds several dlb::sim::worlds, each a
// run with its own P, strategy, network and load; each world's tasks build their dlb::runtime
// from a runtime_setup and run dlb::parallel_for. Every world must give exactly what the same
// run gives alone (synthetic --backend sim in its own process): the check that nothing
// in lib/ is global or static mutable state. Worlds of bare tasks check the simulated hosts'
// speed against the pure load function (dlb::core::finish_time).
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "backends/sim/sim.hpp"
#include "dlb/core/load.hpp"
#include "dlb/dlb.hpp"
#include "dlb/runtime/messenger.hpp"
#include "dlb/runtime/network.hpp"
#include "run_process.hpp"

namespace {

using testing_support::count_lines;
using testing_support::fields_of;

// The synthetic loop of apps/synthetic (--style parallel_for), its options and output lines.
std::vector<dlb::option_spec> loop_options() {
  return {{"iterations", "400", "I"},
          {"shape", "uniform", "uniform or triangular"},
          {"work-ms", "50", "base ms per iteration"}};
}

struct loop_outcome {
  bool ran = false;
  std::int64_t wrong = -1;
  dlb::run_stats stats;
};

double expected(const std::vector<double>& in, const std::vector<double>& w, std::int64_t i) {
  return 2 * in[static_cast<std::size_t>(i)] + w[static_cast<std::size_t>(i % 16)] +
         static_cast<double>(i);
}

dlb::app_body synthetic_loop(loop_outcome& outcome) {
  return [&outcome](dlb::runtime& rt) {
    const auto& o = rt.opts();
    const std::int64_t I = o.integer("iterations", 0, 100'000'000);
    const bool triangular = o.str("shape") == "triangular";
    const double work_s = o.real("work-ms", 0, 1e9) * 1e-3;
    std::vector<double> in(static_cast<std::size_t>(I)), out(static_cast<std::size_t>(I), 0.0),
        w(16);
    if (rt.master()) {
      for (std::int64_t i = 0; i < I; ++i)
        in[static_cast<std::size_t>(i)] = 0.5 * static_cast<double>(i) - 3.0;
      for (int j = 0; j < 16; ++j) w[static_cast<std::size_t>(j)] = 100.0 * j;
    }
    auto a_in = dlb::DLB_array::of("in", in.data(), I, 1, dlb::data_distribution::block);
    auto a_out = dlb::DLB_array::of("out", out.data(), I, 1, dlb::data_distribution::block);
    a_out.input = false;
    a_out.output = true;
    auto a_w = dlb::DLB_array::of("w", w.data(), 16, 1, dlb::data_distribution::whole);
    dlb::loop_spec loop;
    loop.iterations = I;
    loop.work = [=](std::int64_t i) {
      return triangular ? 2.0 * work_s * static_cast<double>(I - i) / static_cast<double>(I)
                        : work_s;
    };
    auto st = dlb::parallel_for(rt, loop, {&a_out, &a_in, &a_w}, [&](std::int64_t i) {
      out[static_cast<std::size_t>(i)] = expected(in, w, i);
    });
    if (rt.master()) {
      outcome.ran = true;
      outcome.wrong = 0;
      for (std::int64_t i = 0; i < I; ++i)
        if (out[static_cast<std::size_t>(i)] != expected(in, w, i)) ++outcome.wrong;
      outcome.stats = st;
    }
    return 0;
  };
}

// The SLAVE lines exactly as apps/synthetic prints them.
std::string slave_lines(const dlb::run_stats& st) {
  std::string text;
  for (std::size_t s = 0; s < st.slaves.size(); ++s) {
    const auto& x = st.slaves[s];
    char line[512];
    std::snprintf(line, sizeof line,
                  "SLAVE s=%zu group=%d done=%lld sent=%lld received=%lld syncs=%lld busy=%.6f "
                  "sync=%.6f idle=%.6f start=%.6f finish=%.6f lag=%.6f\n",
                  s + 1, x.group, static_cast<long long>(x.iterations_done),
                  static_cast<long long>(x.iterations_sent),
                  static_cast<long long>(x.iterations_received), static_cast<long long>(x.syncs),
                  x.busy, x.sync, x.idle, x.start, x.finish, x.lag);
    text += line;
  }
  return text;
}

std::string slave_lines(const std::string& out) {
  std::string text;
  std::size_t at = 0;
  while ((at = out.find("SLAVE ", at)) != std::string::npos) {
    const auto end = out.find('\n', at);
    text += out.substr(at, end - at + 1);
    at = end;
  }
  return text;
}

// One simulated run of the synthetic loop, described by its command line.
struct loop_world {
  std::string name;
  std::vector<std::string> args;
  dlb::options opts;
  dlb::run_params params;
  loop_outcome outcome;
};

dlb::app_spec loop_spec_of(const std::string& name) {
  return {name, "a synthetic loop", loop_options(), nullptr};
}

dlb::sim::task_fn runtime_task(loop_world& lw, const dlb::app_spec& spec,
                               const std::shared_ptr<dlb::shared_medium>& segment) {
  return [&lw, &spec, segment](int rank, dlb::transport& t, dlb::clock& c) {
    dlb::runtime_setup setup{spec.name, lw.opts, lw.params,     rank, &t,
                             &c,        segment, std::string(), {}};
    dlb::runtime rt(std::move(setup));
    return dlb::run_task(rt, spec, synthetic_loop(lw.outcome));
  };
}

// A world of bare tasks: slave r computes `work` base seconds from `start`; ends[r] is when it
// finished.
struct compute_world {
  std::string name;
  dlb::run_params params;
  double start = 0;
  double work = 0;
  std::vector<double> ends;
};

dlb::sim::task_fn compute_task(compute_world& cw) {
  cw.ends.assign(static_cast<std::size_t>(cw.params.procs) + 1, -1.0);
  return [&cw](int rank, dlb::transport&, dlb::clock& c) {
    if (rank == 0) return 0;
    c.wait_until(cw.start);
    c.compute(cw.work);
    cw.ends[static_cast<std::size_t>(rank)] = c.now();
    return 0;
  };
}

// A world of bare messengers on the 1996 Ethernet (default split), P = 2: slave 1 computes 2 s
// from 0; slave 2 sends it a message at 0.1, which arrives during that computation; the master
// is busy [1, 1.5) (a decision). Slave 1's computation is delayed by the message's receive
// overhead o_r (an interrupt), and, when the master shares its workstation (--balancer master),
// by the master's busy half second too.
struct cost_world {
  std::string name;
  dlb::run_params params;
  double compute_end = -1;  // slave 1
  double master_busy_end = -1;
};

dlb::sim::task_fn cost_task(cost_world& cw, const std::shared_ptr<dlb::shared_medium>& segment) {
  return [&cw, segment](int rank, dlb::transport& t, dlb::clock& c) {
    dlb::messenger m(t, c, dlb::network_model(cw.params.network, nullptr),
                     std::chrono::milliseconds(1000));
    if (cw.params.balancer_on_master && rank <= 1) m.share_cpu(segment, rank == 0, 1 - rank);
    if (rank == 0) {
      c.wait_until(1.0);
      m.busy(0.5);
      cw.master_busy_end = c.now();
    } else if (rank == 1) {
      m.compute(2.0);
      cw.compute_end = c.now();
      m.wait(dlb::with_tag(dlb::tag::work), "slave 2's message");
      m.send(2, dlb::tag::work, dlb::bytes(8));
    } else {
      c.wait_until(0.1);
      m.send(1, dlb::tag::work, dlb::bytes(8));
      m.wait(dlb::with_tag(dlb::tag::work), "slave 1's answer");
    }
    return 0;
  };
}

dlb::run_params compute_params(int procs, const std::vector<double>& speeds, int max_load,
                               double persistence, std::uint64_t seed) {
  dlb::run_params p;
  p.backend = dlb::backend_kind::sim;
  p.procs = procs;
  p.group = procs;
  p.speeds = speeds;
  p.load.seed = seed;
  p.load.max_load = max_load;
  p.load.persistence = persistence;
  p.network.kind = dlb::network_kind::ideal;
  p.network.carried_by_transport = true;
  return p;
}

// Two loops of the synthetic application, different in P, strategy, network, load, speeds and
// loop, with their specs.
std::vector<loop_world> two_loops(std::vector<dlb::app_spec>& specs) {
  std::vector<loop_world> loops(2);
  loops[0].name = "alpha";
  loops[0].args = {"--strategy", "GDDLB",      "--procs",   "3",   "--speeds",     "1,2,0.5",
                   "--seed",     "5",          "--tl",      "0.5", "--iterations", "90",
                   "--shape",    "triangular", "--work-ms", "40"};
  loops[1].name = "beta";
  loops[1].args = {"--strategy", "LCDLB", "--procs",      "8",   "--group",   "2",
                   "--network",  "ideal", "--seed",       "9",   "--ml",      "3",
                   "--tl",       "1",     "--iterations", "200", "--work-ms", "30"};
  for (auto& lw : loops) {
    specs.push_back(loop_spec_of(lw.name));
    auto with = lw.args;
    with.insert(with.end(), {"--backend", "sim"});
    auto all = dlb::common_options();
    for (auto& o : loop_options()) all.push_back(o);
    lw.opts = dlb::options::parse(all, with);
    lw.params = dlb::read_params(lw.opts);
  }

  return loops;
}

// The same hosts, loaded (a load that changes every 0.3 s; a constant load) and unloaded.
std::vector<compute_world> three_computes(const std::vector<double>& speeds) {
  std::vector<compute_world> computes(3);
  computes[0] = {"loaded", compute_params(3, speeds, 5, 0.3, 4), 0.37, 2.0, {}};
  computes[1] = {"constant",
                 compute_params(3, speeds, 5, std::numeric_limits<double>::infinity(), 4),
                 0.37,
                 2.0,
                 {}};
  computes[2] = {"unloaded", compute_params(3, speeds, 0, 0.3, 4), 0.37, 2.0, {}};

  return computes;
}

// The master's workstation shared with slave 1, and a dedicated one.
std::vector<cost_world> two_costs() {
  std::vector<cost_world> costs(2);
  for (std::size_t k = 0; k < costs.size(); ++k) {
    costs[k].name = k == 0 ? "shared-cpu" : "dedicated";
    costs[k].params = compute_params(2, {1.0, 1.0}, 0, 1.0, 1);
    costs[k].params.network = dlb::default_network(dlb::network_kind::ethernet1996);
    costs[k].params.network.carried_by_transport = true;
    costs[k].params.balancer_on_master = k == 0;
  }

  return costs;
}

// Each run: right results, statistics that add up, and exactly the run it is alone.
void expect_each_run_as_alone(std::vector<loop_world>& loops, double end) {
  double last = 0;
  for (auto& lw : loops) {
    SCOPED_TRACE(lw.name);
    ASSERT_TRUE(lw.outcome.ran);
    EXPECT_EQ(lw.outcome.wrong, 0);
    const auto& st = lw.outcome.stats;
    EXPECT_EQ(st.procs, lw.params.procs);
    EXPECT_EQ(st.policy, lw.params.policy);
    ASSERT_EQ(st.slaves.size(), static_cast<std::size_t>(lw.params.procs));
    std::int64_t done = 0;
    for (const auto& s : st.slaves) done += s.iterations_done;
    EXPECT_EQ(done, lw.opts.integer("iterations", 0, 100'000'000));
    EXPECT_GT(st.syncs, 0) << "a run without balancing proves little";
    last = std::max(last, st.total_time());

    std::vector<std::string> argv{DLB_SYNTHETIC_APP, "--backend",    "sim",
                                  "--style",         "parallel_for", "--quiet"};
    argv.insert(argv.end(), lw.args.begin(), lw.args.end());
    auto alone = testing_support::run_process(argv, 60);
    ASSERT_EQ(alone.exit_code, 0) << alone.err;
    ASSERT_EQ(count_lines(alone.out, "SLAVE "), lw.params.procs);
    EXPECT_EQ(slave_lines(st), slave_lines(alone.out));
    auto res = fields_of(alone.out, "RESULT ");
    char total[32];
    std::snprintf(total, sizeof total, "%.6f", st.total_time());
    EXPECT_EQ(res["total_s"], total);
    EXPECT_EQ(res["syncs"], std::to_string(st.syncs));
    EXPECT_EQ(res["iterations_moved"], std::to_string(st.iterations_moved));
    EXPECT_EQ(res["bytes_moved"], std::to_string(st.bytes_moved));
  }
  EXPECT_NE(loops[0].outcome.stats.total_time(), loops[1].outcome.stats.total_time());
  EXPECT_GE(end + 1e-9, last);
}

void expect_hosts_follow_the_load(const std::vector<compute_world>& computes,
                                  const std::vector<cost_world>& costs,
                                  const std::vector<double>& speeds) {
  // The hosts: w base seconds started at t0 end at core::finish_time, the load function's
  // answer; under load later than unloaded, and unloaded at t0 + w / S_i.
  for (auto& cw : computes) {
    SCOPED_TRACE(cw.name);
    for (int r = 1; r <= cw.params.procs; ++r) {
      const auto slave = static_cast<std::size_t>(r - 1);
      const double want =
          dlb::core::finish_time(cw.params.load, slave, speeds[slave], cw.start, cw.work);
      const double got = cw.ends[static_cast<std::size_t>(r)];
      EXPECT_NEAR(got, want, 1e-6 * want) << "slave " << r;
    }
  }
  // Who pays for a message, and what the master's workstation costs its slave.
  // (An 8-byte message: o_r and its unpacking, half the hosts' time per byte.)
  const double o_r = dlb::default_network(dlb::network_kind::ethernet1996).recv_cost(8);
  EXPECT_NEAR(costs[1].compute_end, 2.0 + o_r, 1e-9) << "dedicated master";
  EXPECT_NEAR(costs[0].compute_end, 2.0 + o_r + 0.5, 1e-9) << "master on slave 1's CPU";
  EXPECT_NEAR(costs[0].master_busy_end, 1.5, 1e-9) << "the balancer is not slowed by slave 1";
  for (std::size_t s = 0; s < speeds.size(); ++s) {
    const double unloaded = computes[2].ends[s + 1];
    EXPECT_NEAR(unloaded, 0.37 + 2.0 / speeds[s], 1e-9);
    EXPECT_GT(computes[0].ends[s + 1], unloaded + 0.01) << "slave " << s + 1;
    const int l = dlb::core::load_in_block(computes[1].params.load, s, 0);
    EXPECT_NEAR(computes[1].ends[s + 1], 0.37 + 2.0 * (l + 1) / speeds[s], 1e-6)
        << "slave " << s + 1;
  }
}

TEST(SimWorlds, SeveralRunsInOneEngineAreIndependentAndHostsFollowTheLoadFunction) {
  std::vector<dlb::app_spec> specs;
  std::vector<loop_world> loops = two_loops(specs);
  const std::vector<double> speeds{1.5, 0.7, 1.0};
  std::vector<compute_world> computes = three_computes(speeds);
  std::vector<cost_world> costs = two_costs();

  dlb::sim::engine e;
  std::vector<std::unique_ptr<dlb::sim::world>> worlds;
  for (std::size_t i = 0; i < loops.size(); ++i) {
    worlds.push_back(std::make_unique<dlb::sim::world>(e, loops[i].name, loops[i].params));
    worlds.back()->start(runtime_task(loops[i], specs[i], worlds.back()->segment()));
  }
  for (auto& cw : computes) {
    worlds.push_back(std::make_unique<dlb::sim::world>(e, cw.name, cw.params));
    worlds.back()->start(compute_task(cw));
  }
  for (auto& cw : costs) {
    worlds.push_back(std::make_unique<dlb::sim::world>(e, cw.name, cw.params));
    worlds.back()->start(cost_task(cw, worlds.back()->segment()));
  }
  const double end = e.run();

  for (const auto& w : worlds) {
    EXPECT_FALSE(w->deadlocked()) << w->deadlock_report();
    for (std::size_t r = 0; r < w->exit_codes().size(); ++r)
      EXPECT_EQ(w->exit_codes()[r], 0) << "rank " << r;
  }

  expect_each_run_as_alone(loops, end);
  expect_hosts_follow_the_load(computes, costs, speeds);
}

}  // namespace
