// The sensitivity study (experiments/study): design files, the Latin hypercube, the study config,
// and the aggregation (share of the region, bootstrap support, main effects, Table 1.4
// agreement, the calibrated point) on synthetic results whose answers are known.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "study/aggregate.hpp"
#include "study/design.hpp"
#include "sweep/config.hpp"
#include "sweep/results_store.hpp"
#include "sweep/text.hpp"

namespace {

using dlb::report::verdict;
using dlb::study::claim_at_point;
using dlb::study::design_error;
using dlb::study::parse_design;

const char* kGood =
    "base = experiments/configs/paper.conf\n"
    "seeds = 1 2 3\n"
    "points = 6\n"
    "design_seed = 4\n"
    "bootstrap = 10\n"
    "tl_factor = range 0.5 50 5 log   # comment\n"
    "split = 0.4/0.4 0.1/0.7 0.7/0.1\n"
    "header_bytes = 0 98\n"
    "threshold_pct = 0.5 1 4\n"
    "after_no_move = idle stop\n"
    "balancer = master dedicated\n"
    "delta_ms = 1 20\n"
    "t_op_factor = 0.8 1 1.2\n";

std::string error_of(const std::string& text) {
  try {
    parse_design(text, "d.design");
  } catch (const design_error& e) {
    return e.what();
  }
  return "";
}

TEST(StudyDesign, ParsesLevelsAndRanges) {
  const auto d = parse_design(kGood, "d.design");
  EXPECT_EQ(d.base, "experiments/configs/paper.conf");
  EXPECT_EQ(d.seeds, (std::vector<std::uint64_t>{1, 2, 3}));
  EXPECT_EQ(d.points, 6);
  EXPECT_EQ(d.bootstrap, 10);
  ASSERT_EQ(d.parameters.size(), 8u);
  EXPECT_EQ(d.parameters[0].name, "tl_factor");
  // 0.5 to 50 in 5 log steps: factor sqrt(10) each.
  EXPECT_EQ(d.parameters[0].levels, (std::vector<std::string>{"0.5", "1.581", "5", "15.81", "50"}));
  EXPECT_EQ(d.parameters[1].levels, (std::vector<std::string>{"0.4/0.4", "0.1/0.7", "0.7/0.1"}));
  const auto lin = parse_design("base = b\nseeds = 1\npoints = 1\ndelta_ms = range 0 10 3\n", "x");
  EXPECT_EQ(lin.parameters[0].levels, (std::vector<std::string>{"0", "5", "10"}));
}

TEST(StudyDesign, BadInputNamesIt) {
  const std::string base = "base = b\nseeds = 1 2\npoints = 2\n";
  const auto unknown = error_of(base + "tl_max = 1 2\n");
  EXPECT_NE(unknown.find("unknown parameter or key 'tl_max'"), std::string::npos) << unknown;
  EXPECT_NE(unknown.find("d.design:4"), std::string::npos) << unknown;
  const auto lohi = error_of(base + "tl_factor = range 50 0.5 4 log\n");
  EXPECT_NE(lohi.find("range low 50 > high 0.5"), std::string::npos) << lohi;
  const auto zero = error_of("base = b\nseeds =\npoints = 2\n");
  EXPECT_NE(zero.find("zero seeds"), std::string::npos) << zero;
  const auto none = error_of("base = b\npoints = 2\n");
  EXPECT_NE(none.find("no 'seeds'"), std::string::npos) << none;
  EXPECT_NE(error_of(base + "balancer = master remote\n").find("'remote' is not one of"),
            std::string::npos);
  EXPECT_NE(error_of(base + "threshold_pct = 0 1\n").find("outside"), std::string::npos);
  EXPECT_NE(error_of(base + "tl_factor = 1 1\n").find("level 1 twice"), std::string::npos);
  EXPECT_NE(error_of(base + "split = 0.6/0.6\n").find("summing to less than 1"), std::string::npos);
  // A split that leaves no wire time for the largest header.
  EXPECT_NE(error_of(base + "split = 0.9995/0\nheader_bytes = 0 98\n").find("negative wire"),
            std::string::npos);
  EXPECT_NE(error_of(base + "seeds = 3\n").find("set twice"), std::string::npos);
  EXPECT_NE(error_of("seeds = 1\npoints = 2\n").find("no 'base'"), std::string::npos);
  EXPECT_NE(error_of(base + "points = 0\n").find("set twice"), std::string::npos);
  EXPECT_NE(error_of("base = b\nseeds = 1\npoints = 0\n").find("points must be"),
            std::string::npos);
  EXPECT_EQ(error_of(kGood), "");
}

TEST(StudyDesign, LatinHypercubeIsBalancedDistinctAndDeterministic) {
  const auto d = parse_design(kGood, "d.design");
  const auto pts = dlb::study::make_points(d);
  ASSERT_EQ(pts.size(), 7u);
  EXPECT_TRUE(pts[0].is_defaults);
  EXPECT_EQ(pts[0].levels.at("tl_factor"), "1");
  EXPECT_EQ(pts[0].levels.at("balancer"), "master");
  std::set<std::map<std::string, std::string>> distinct;
  for (const auto& p : pts) distinct.insert(p.levels);
  EXPECT_EQ(distinct.size(), pts.size());
  for (const auto& par : d.parameters) {
    std::map<std::string, int> count;
    for (std::size_t i = 1; i < pts.size(); ++i) ++count[pts[i].levels.at(par.name)];
    const int expect_lo = 6 / static_cast<int>(par.levels.size());
    for (const auto& l : par.levels) {
      EXPECT_GE(count[l], expect_lo) << par.name << " " << l;
      EXPECT_LE(count[l], expect_lo + 1) << par.name << " " << l;
    }
  }
  const auto again = dlb::study::make_points(d);
  for (std::size_t i = 0; i < pts.size(); ++i) EXPECT_EQ(pts[i].levels, again[i].levels);
  auto other = d;
  other.design_seed = 5;
  const auto diff = dlb::study::make_points(other);
  bool differs = false;
  for (std::size_t i = 0; i < pts.size(); ++i) differs |= pts[i].levels != diff[i].levels;
  EXPECT_TRUE(differs);
  // Too many points for the level combinations.
  auto tiny = parse_design("base = b\nseeds = 1\npoints = 3\nbalancer = master dedicated\n", "t");
  EXPECT_THROW(dlb::study::make_points(tiny), design_error);
}

TEST(StudyDesign, TlFactorScalesEverySectionsTl) {
  // paper.conf's shape: a global tl for the runs without load, a tl per loaded section.
  const std::string base =
      "tl = 5\n[app mxm]\ntl = 20.2\nsizes = n=1\n[app trfd]\ntl = 0.395\nsizes = n=1\n"
      "[app mxm]\nml = 0\nsizes = n=1\n[app ac]\ntl = 20.2\nsizes = n=1\n";
  dlb::study::point p;
  p.levels["tl_factor"] = "1";
  EXPECT_EQ(dlb::study::point_tls(p, base), (std::vector<std::string>{"20.2", "0.395", "5"}));
  p.levels["tl_factor"] = "3.333";  // 3 load changes per block instead of 10
  EXPECT_EQ(dlb::study::point_tls(p, base), (std::vector<std::string>{"67.33", "1.317", "16.66"}));
  p.levels["tl_factor"] = "0.1";
  EXPECT_EQ(dlb::study::point_tls(p, "[app mxm]\nsizes = n=1\n"), (std::vector<std::string>{"0.5"}));
  EXPECT_THROW(dlb::study::point_tls(p, "tl = soon\n[app mxm]\nsizes = n=1\n"), design_error);
}

TEST(StudyDesign, StudyConfigRunsEverySectionPerPoint) {
  const std::string base =
      "backend = sim\nprocs = 4\nstrategies = NONE GDDLB\nrepetitions = 5\nseeds = 1 2 3 4 5\n"
      "tl = 5\n[app mxm]\ntl = 20\nsizes = n=40 r=40 m=40\n[app ac]\nml = 0\nrepetitions = 1\n"
      "sizes = n=10\n";
  const auto d = parse_design(kGood, "d.design");
  const auto pts = dlb::study::make_points(d);
  const auto conf = dlb::study::study_config(d, base, pts, "/tmp/profiles");
  const auto plan = dlb::sweep::parse_config(conf, "study.conf");
  // Per point: mxm 3 seeds x 2 strategies + ac 1 x 2.
  EXPECT_EQ(plan.runs.size(), pts.size() * (3 * 2 + 2));
  std::map<std::string, int> per_args;
  for (const auto& r : plan.runs) ++per_args[r.extra_args + " tl=" + std::to_string(r.tl)];
  // Each point: its args with the mxm section's tl (20) and the ac section's (the global 5),
  // each times the point's tl_factor.
  EXPECT_EQ(per_args.size(), 2 * pts.size());
  for (const auto& p : pts) {
    const auto args = dlb::study::point_args(p, "/tmp/profiles");
    if (p.is_defaults) {
      EXPECT_EQ(args, "");
    } else {
      EXPECT_NE(args.find("--t-op-factor " + p.levels.at("t_op_factor")), std::string::npos);
      EXPECT_NE(args.find("--balancer " + p.levels.at("balancer")), std::string::npos);
      const bool default_net =
          p.levels.at("split") == "0.4/0.4" && p.levels.at("header_bytes") == "98";
      EXPECT_EQ(args.find("--network-profile /tmp/profiles/") != std::string::npos, !default_net);
    }
    const double f = std::stod(p.levels.at("tl_factor"));
    EXPECT_EQ(per_args[args + " tl=" + std::to_string(std::stod(dlb::sweep::format_sig(20 * f, 4)))], 6)
        << p.id;
    EXPECT_EQ(per_args[args + " tl=" + std::to_string(std::stod(dlb::sweep::format_sig(5 * f, 4)))], 2)
        << p.id;
    const auto tls = dlb::study::point_tls(p, base);
    ASSERT_EQ(tls.size(), 2u) << p.id;
    EXPECT_EQ(std::stod(tls[0]), std::stod(dlb::sweep::format_sig(20 * f, 4))) << p.id;
  }
  EXPECT_THROW(dlb::study::study_config(d, "args = --x 1\n" + base, pts, "/p"), design_error);
}

// The protocol's readings as axes: each point passes its first-synchronization owner, and a
// point whose broadcast or wire share is not the default measures a network profile of its own
// under them (the model must see the network the runs see).
TEST(StudyDesign, ProtocolReadingsAreAxesWithTheirOwnProfiles) {
  const auto d = parse_design(
      "base = b\nseeds = 1\npoints = 4\nfirst_sync = strategy master-group master-global\n"
      "broadcast = mcast unicast\nwire_share = 0.768 1\n",
      "p.design");
  int unicast = 0;
  for (const auto& p : dlb::study::make_points(d)) {
    if (p.is_defaults) continue;
    const auto args = dlb::study::point_args(p, "/tmp/profiles");
    EXPECT_NE(args.find("--first-sync " + p.levels.at("first_sync")), std::string::npos) << args;
    const auto net = dlb::study::network_of(p);
    const bool default_net =
        p.levels.at("broadcast") == "mcast" && p.levels.at("wire_share") == "0.768";
    EXPECT_EQ(net.name.empty(), default_net) << net.name;
    const auto na = net.netchar_args();
    EXPECT_NE(std::find(na.begin(), na.end(), p.levels.at("broadcast")), na.end());
    EXPECT_NE(std::find(na.begin(), na.end(), p.levels.at("wire_share")), na.end());
    unicast += p.levels.at("broadcast") == "unicast";
  }
  EXPECT_EQ(unicast, 2);  // a Latin hypercube: each level of each axis equally often
  EXPECT_THROW(parse_design("base = b\nseeds = 1\npoints = 2\nfirst_sync = everyone\n", "x"),
               design_error);
}

claim_at_point at(verdict v, std::optional<double> support = std::nullopt) {
  claim_at_point c;
  c.outcome = v;
  c.support = support;
  return c;
}

TEST(StudyAggregate, ShareOfRegionWithIntervals) {
  // 5 measured points: 3 hold (one of them unsurely), 2 fail (one unsurely); one not measured.
  const auto s =
      dlb::study::share_of_region({at(verdict::holds, 1.0), at(verdict::holds, 0.99),
                                   at(verdict::holds, 0.6), at(verdict::does_not_hold, 0.3),
                                   at(verdict::does_not_hold, 0.0), at(verdict::not_measured)});
  EXPECT_EQ(s.measured, 5u);
  EXPECT_EQ(s.holds, 3u);
  EXPECT_DOUBLE_EQ(s.share, 0.6);
  EXPECT_DOUBLE_EQ(s.low, 0.4);   // sure holds: 1.0, 0.99
  EXPECT_DOUBLE_EQ(s.high, 0.8);  // sure fails: only 0.0
  // Without support every verdict counts as sure.
  const auto t = dlb::study::share_of_region({at(verdict::holds), at(verdict::does_not_hold)});
  EXPECT_DOUBLE_EQ(t.share, 0.5);
  EXPECT_DOUBLE_EQ(t.low, 0.5);
  EXPECT_DOUBLE_EQ(t.high, 0.5);
  EXPECT_EQ(dlb::study::share_of_region({at(verdict::not_measured)}).measured, 0u);
}

TEST(StudyAggregate, MainEffectsFindTheDecidingParameter) {
  // The claim holds exactly when tl is 1; balancer is balanced against it and moves nothing.
  const std::vector<dlb::study::parameter_levels> params{{"tl", {"1", "10"}},
                                                         {"balancer", {"master", "dedicated"}}};
  std::vector<std::map<std::string, std::string>> levels{{{"tl", "1"}, {"balancer", "master"}},
                                                         {{"tl", "1"}, {"balancer", "dedicated"}},
                                                         {{"tl", "10"}, {"balancer", "master"}},
                                                         {{"tl", "10"}, {"balancer", "dedicated"}},
                                                         {{"tl", "10"}, {"balancer", "dedicated"}}};
  const std::vector<std::optional<bool>> holds{true, true, false, false, std::nullopt};
  const auto e = dlb::study::main_effects(levels, holds, params);
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[0].parameter, "tl");
  EXPECT_DOUBLE_EQ(e[0].range, 1.0);
  EXPECT_EQ(e[0].levels[0].measured, 2u);
  EXPECT_EQ(e[0].levels[0].holds, 2u);
  EXPECT_EQ(e[0].levels[1].measured, 2u);  // the unmeasured point is left out
  EXPECT_DOUBLE_EQ(e[1].range, 0.0);
  EXPECT_DOUBLE_EQ(e[1].levels[0].share(), 0.5);
}

// A synthetic results table: MXM P=4 n=400 r=400 m=400 under load, NONE and the four
// strategies, one row per (strategy, seed) with the given normalized times (NONE = 100 s).
dlb::sweep::csv_table synthetic(const std::vector<std::map<std::string, double>>& per_seed,
                                const std::string& args = "", const std::string& tl = "5") {
  dlb::sweep::csv_table t;
  t.columns = dlb::sweep::run_spec::key_columns();
  t.columns.insert(t.columns.end(), {"status", "total_s", "loop1_s", "loop2_s", "syncs"});
  for (std::size_t s = 0; s < per_seed.size(); ++s) {
    std::map<std::string, double> times = per_seed[s];
    times["NONE"] = 1.0;
    for (const auto& [strategy, norm] : times) {
      const std::string total = std::to_string(100.0 * norm);
      t.rows.push_back({"mxm", "4", "2", "n=400 r=400 m=400", strategy, std::to_string(s),
                        std::to_string(s + 1), "5", tl, "emulated", "10", "ethernet1996", "sim",
                        args, "ok", total, total, "0", "3"});
    }
  }
  return t;
}

std::map<std::string, double> order(double gd, double gc, double ld, double lc) {
  return {{"GDDLB", gd}, {"GCDLB", gc}, {"LDDLB", ld}, {"LCDLB", lc}};
}

TEST(StudyAggregate, BootstrapSupportFollowsTheSeeds) {
  // Every seed: GDDLB < GCDLB < LDDLB < LCDLB, so M1, M2, M3, M5 hold in every replicate.
  std::vector<std::map<std::string, double>> all(10, order(0.6, 0.7, 0.8, 0.9));
  const auto sure = dlb::study::judge_point("p", synthetic(all), {}, 50, 7);
  EXPECT_EQ(sure.claims.at("M1").outcome, verdict::holds);
  EXPECT_DOUBLE_EQ(*sure.claims.at("M1").support, 1.0);
  EXPECT_DOUBLE_EQ(*sure.claims.at("M2").support, 1.0);
  EXPECT_EQ(sure.claims.at("T1").outcome, verdict::not_measured);
  EXPECT_FALSE(sure.claims.at("T1").support.has_value());
  EXPECT_EQ(sure.runs, 50u);
  EXPECT_EQ(sure.runs_ok, 50u);

  // 9 seeds favour GDDLB over GCDLB, one opposes strongly: the median still favours it and
  // only replicates drawing the opposing seed at least 5 times of 10 could flip M1.
  auto nine = all;
  nine[3] = order(0.95, 0.7, 0.8, 0.9);
  const auto mostly = dlb::study::judge_point("p", synthetic(nine), {}, 200, 7);
  EXPECT_EQ(mostly.claims.at("M1").outcome, verdict::holds);
  EXPECT_GE(*mostly.claims.at("M1").support, 0.975);

  // Half the seeds one way, half the other: the bootstrap cannot be sure either way.
  auto half = all;
  for (std::size_t s = 0; s < 5; ++s) half[s] = order(0.75, 0.7, 0.8, 0.9);
  const auto unsure = dlb::study::judge_point("p", synthetic(half), {}, 200, 7);
  EXPECT_GT(*unsure.claims.at("M1").support, 0.025);
  EXPECT_LT(*unsure.claims.at("M1").support, 0.975);
  // M2 (LDDLB < LCDLB) is unaffected.
  EXPECT_DOUBLE_EQ(*unsure.claims.at("M2").support, 1.0);

  // Reversed: LCDLB best everywhere; M2 fails surely.
  std::vector<std::map<std::string, double>> rev(10, order(0.9, 0.8, 0.7, 0.6));
  const auto fails = dlb::study::judge_point("p", synthetic(rev), {}, 50, 7);
  EXPECT_EQ(fails.claims.at("M2").outcome, verdict::does_not_hold);
  EXPECT_DOUBLE_EQ(*fails.claims.at("M2").support, 0.0);
}

TEST(StudyAggregate, TableRowsAndCalibratedPoint) {
  dlb::report::paper_best_row row;
  row.app = "mxm";
  row.procs = 4;
  row.size = {{"n", 400}, {"r", 400}, {"m", 400}};
  row.size_text = "n=400 r=400";
  row.actual_best = "GDDLB";
  std::vector<std::map<std::string, double>> g(3, order(0.6, 0.7, 0.8, 0.9));
  std::vector<std::map<std::string, double>> l(3, order(0.9, 0.8, 0.7, 0.6));
  const auto a = dlb::study::judge_point("a", synthetic(l), {row}, 0, 1);
  const auto b = dlb::study::judge_point("b", synthetic(g), {row}, 0, 1);
  ASSERT_EQ(a.rows.size(), 1u);
  EXPECT_EQ(a.rows[0].ours, "LCDLB");
  EXPECT_FALSE(a.rows[0].matches());
  EXPECT_EQ(b.rows[0].ours, "GDDLB");
  EXPECT_TRUE(b.rows[0].matches());
  EXPECT_EQ(b.rows[0].key, "MXM P=4 n=400 r=400");
  const auto fb = dlb::study::fit_on(b, {"mxm", "trfd"});
  EXPECT_EQ(fb.rows, 1u);
  EXPECT_EQ(fb.rows_matched, 1u);
  EXPECT_EQ(fb.claims, 4u);  // M1, M2, M3, M5 measured (M4 needs two P)
  EXPECT_EQ(fb.claims_hold, 4u);
  EXPECT_EQ(dlb::study::fit_on(b, {"ac"}).rows, 0u);
  EXPECT_EQ(dlb::study::calibrated_point({a, b}), std::optional<std::size_t>(1));
  EXPECT_EQ(dlb::study::calibrated_point({b, a}), std::optional<std::size_t>(0));
  EXPECT_FALSE(dlb::study::calibrated_point({}).has_value());
  EXPECT_EQ(dlb::study::app_of_claim("T3"), "trfd");
  EXPECT_EQ(dlb::study::app_of_claim("O2"), "");
}

TEST(StudyAggregate, RowsOfAPointMatchTlAndArgs) {
  std::vector<std::map<std::string, double>> g(2, order(0.6, 0.7, 0.8, 0.9));
  auto t = synthetic(g, "--balancer dedicated", "5");
  const auto other = synthetic(g, "--balancer dedicated", "0.5");
  const auto third = synthetic(g, "", "5");
  t.rows.insert(t.rows.end(), other.rows.begin(), other.rows.end());
  t.rows.insert(t.rows.end(), third.rows.begin(), third.rows.end());
  EXPECT_EQ(dlb::study::rows_of_point(t, {"5"}, "--balancer dedicated").rows.size(), 10u);
  EXPECT_EQ(dlb::study::rows_of_point(t, {"0.5"}, "--balancer dedicated").rows.size(), 10u);
  EXPECT_EQ(dlb::study::rows_of_point(t, {"0.5", "5"}, "--balancer dedicated").rows.size(), 20u);
  EXPECT_EQ(dlb::study::rows_of_point(t, {"5.0"}, "").rows.size(), 10u);
  EXPECT_EQ(dlb::study::rows_of_point(t, {"1"}, "").rows.size(), 0u);
  EXPECT_EQ(dlb::study::rows_of_point(t, {}, "").rows.size(), 0u);
}

}  // namespace
