// The sensitivity study's design file, its Latin hypercube and the sweep config it expands to.
#include "study/design.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <set>
#include <sstream>

#include "sweep/csv_table.hpp"
#include "sweep/text.hpp"

namespace dlb::study {
namespace {

using sweep::format_number;
using sweep::parse_double;
using sweep::split_blanks;
using sweep::trim;

// The paper's totals: every split must give back L for a 1-byte message (docs/design/clocks.md).
constexpr double kLatencyUs = 2414.5;
constexpr double kBandwidthBytesPerUs = 0.96;

[[noreturn]] void fail(std::string_view source, int line, const std::string& what) {
  throw design_error(std::string(source) + ":" + std::to_string(line) + ": " + what);
}

std::string strip_comment(std::string_view s) {
  const auto hash = s.find('#');
  return std::string(trim(hash == std::string_view::npos ? s : s.substr(0, hash)));
}

// "a/b" -> (a, b) fractions of L, or nullopt.
std::optional<std::pair<double, double>> parse_split(std::string_view s) {
  const auto slash = s.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  const auto a = parse_double(s.substr(0, slash));
  const auto b = parse_double(s.substr(slash + 1));
  if (!a || !b) return std::nullopt;
  return std::make_pair(*a, *b);
}

std::string canonical_split(double a, double b) {
  return format_number(a) + "/" + format_number(b);
}

// A numeric level, checked against the parameter's bounds, in canonical form.
std::string number_level(const parameter_info& p, const std::string& w, std::string_view source,
                         int line) {
  const auto x = parse_double(w);
  if (!x) fail(source, line, "parameter " + p.name + ": '" + w + "' is not a number");
  if (*x < p.min || *x > p.max) {
    fail(source, line,
         "parameter " + p.name + ": level " + w + " is outside [" + format_number(p.min) + ", " +
             format_number(p.max) + "]");
  }
  return format_number(*x);
}

// The levels of `range LOW HIGH COUNT [lin|log]` (`words`, "range" first).
std::vector<std::string> range_levels(const parameter_info& p,
                                      const std::vector<std::string>& words,
                                      std::string_view source, int line) {
  if (!p.numeric || p.name == "split") {
    fail(source, line, "parameter " + p.name + " takes a list of levels, not a range");
  }
  if (words.size() < 4 || words.size() > 5) {
    fail(source, line, "parameter " + p.name + ": a range is 'range LOW HIGH COUNT [lin|log]'");
  }
  const double lo = *parse_double(number_level(p, words[1], source, line));
  const double hi = *parse_double(number_level(p, words[2], source, line));
  if (lo > hi) {
    fail(source, line, "parameter " + p.name + ": range low " + words[1] + " > high " + words[2]);
  }
  const auto n = sweep::parse_int(words[3]);
  if (!n || *n < 1 || *n > 100) {
    fail(source, line, "parameter " + p.name + ": range count must be 1..100, got " + words[3]);
  }
  const std::string scale = words.size() == 5 ? words[4] : "lin";
  if (scale != "lin" && scale != "log") {
    fail(source, line, "parameter " + p.name + ": range scale must be lin or log, got " + scale);
  }
  if (scale == "log" && lo <= 0) {
    fail(source, line, "parameter " + p.name + ": a log range needs low > 0");
  }
  std::vector<std::string> out;
  for (std::int64_t i = 0; i < *n; ++i) {
    const double t = *n == 1 ? 0.0 : static_cast<double>(i) / static_cast<double>(*n - 1);
    const double x = scale == "log" ? lo * std::pow(hi / lo, t) : lo + (hi - lo) * t;
    // Four significant digits: levels are read by people and name runs.
    const double rounded = *parse_double(sweep::format_sig(x, 4));
    out.push_back(format_number(i == 0 ? lo : i == *n - 1 ? hi : rounded));
  }
  return out;
}

// One level of a list: a split SEND/RECV, a number, or one of the parameter's words.
std::string list_level(const parameter_info& p, const std::string& w, std::string_view source,
                       int line) {
  if (p.name == "split") {
    const auto s = parse_split(w);
    if (!s) fail(source, line, "parameter split: '" + w + "' is not SEND/RECV (fractions of L)");
    if (s->first < 0 || s->second < 0 || s->first + s->second >= 1) {
      fail(source, line,
           "parameter split: " + w + " must be two fractions >= 0 summing to less than 1");
    }
    return canonical_split(s->first, s->second);
  }
  if (p.numeric) return number_level(p, w, source, line);
  if (std::find(p.words.begin(), p.words.end(), w) == p.words.end()) {
    std::string allowed;
    for (const auto& a : p.words) allowed += (allowed.empty() ? "" : ", ") + a;
    fail(source, line, "parameter " + p.name + ": level '" + w + "' is not one of " + allowed);
  }
  return w;
}

// Levels of one parameter line: a list, or `range LOW HIGH COUNT [lin|log]`.
std::vector<std::string> parse_levels(const parameter_info& p, const std::string& value,
                                      std::string_view source, int line) {
  const auto words = split_blanks(value);
  if (words.empty()) fail(source, line, "parameter " + p.name + " has no levels");
  std::vector<std::string> out;
  if (words[0] == "range") {
    out = range_levels(p, words, source, line);
  } else {
    for (const auto& w : words) out.push_back(list_level(p, w, source, line));
  }
  std::set<std::string> seen;
  for (const auto& l : out) {
    if (!seen.insert(l).second)
      fail(source, line, "parameter " + p.name + ": level " + l + " twice");
  }
  return out;
}

std::map<std::string, std::string> default_levels() {
  std::map<std::string, std::string> m;
  for (const auto& p : parameter_table()) m[p.name] = p.default_level;
  return m;
}

// The wire's share left for the latency l after the overheads and a (h+1)-byte transmission.
double wire_latency_us(double send, double recv, double header_bytes) {
  return kLatencyUs * (1.0 - send - recv) - (header_bytes + 1.0) / kBandwidthBytesPerUs;
}

}  // namespace

namespace {

// The study's parameters: name, default level, the option it sets, the default's source, whether
// it is numeric (with its bounds) or categorical (with its levels).
const std::vector<parameter_info> kParameters{
    {"tl_factor",
     "1",
     "each section's tl in the base config times this (config key tl)",
     "the regime identified from the paper's measured times (experiments/regime/README.md): 10 "
     "load changes per slave's initial block, a tl per configuration in paper.conf; a factor f "
     "gives 10 / f changes (the paper lists tl among the model's parameters, section 1.3.1, but "
     "gives no value)",
     true,
     1e-3,
     1e3,
     {}},
    {"split",
     "0.4/0.4",
     "--send-overhead S --recv-overhead R (fractions of L)",
     "host software overhead dominated small-message latency on Ethernet workstations of the "
     "period (Keeton, Anderson, Patterson, Hot Interconnects 1995); PVM's default route crosses "
     "a daemon on each host; send and receive paths mirror each other (docs/design/clocks.md)",
     true,
     0,
     1,
     {}},
    {"header_bytes",
     "98",
     "--header-bytes",
     "Ethernet framing on the wire 38 + IPv4 20 + UDP 8 + PVM's packet and message headers "
     "about 32 (our estimate; lib/runtime/network.cpp)",
     true,
     0,
     10000,
     {}},
    {"threshold_pct",
     "1",
     "--threshold-pct (percent of the loop's iterations)",
     "ours: the paper moves no work below 'a threshold' without a value (section 1.2)",
     true,
     1e-6,
     100,
     {}},
    {"after_no_move",
     "idle",
     "--after-no-move",
     "the paper's text: 'cancelling work redistribution would lead to an idle processor' "
     "(section 1.2)",
     false,
     0,
     0,
     {"idle", "stop"}},
    {"balancer",
     "master",
     "--balancer",
     "the paper: the balancer is 'located at one master processor, which also takes part in "
     "computation' (section 1.2), with 'context switching' (section 1.5.2)",
     false,
     0,
     0,
     {"master", "dedicated"}},
    {"first_sync",
     "master-group",
     "--first-sync",
     "section 1.4.2: the master (pseudo-master in the distributed schemes) 'is responsible only "
     "for the first synchronization', and DLB_master_sync 'handles the first synchronization' "
     "in every scheme; deciding within the strategy's groups, as the local schemes are defined "
     "and modelled (sections 1.2.1, 1.3.2; docs/design/protocol.md)",
     false,
     0,
     0,
     {"strategy", "master-group", "master-global"}},
    {"broadcast",
     "mcast",
     "--broadcast",
     "the profiles are 'broadcast' (sections 1.2.1-1.2.2), and PVM 3's broadcast is pvm_mcast: "
     "one send by the task, one copy per destination host (docs/design/protocol.md, \"Broadcasts\")",
     false,
     0,
     0,
     {"mcast", "unicast"}},
    {"wire_share",
     "0.768",
     "--wire-share (the wire's part of each byte's 1/B)",
     "the paper's B = 0.96 MB/s is end to end ('the cost of packing, receiving, and the real "
     "communication time'); 10 Mb/s Ethernet carries 1.25 MB/s: 0.96/1.25 of a byte's time on "
     "the wire, the rest on the hosts",
     true,
     1e-6,
     1,
     {}},
    {"delta_ms",
     "1",
     "--delta-ms",
     "ours: 1 ms of a 1996 workstation per decision (the paper gives no value)",
     true,
     0,
     1e6,
     {}},
    {"t_op_factor",
     "1",
     "--t-op-factor (times the calibrated t_op)",
     "t_op calibrated per application against one no-DLB entry of Tables 1.1-1.3 (NONE, P=4, "
     "smallest size; apps/README.md, Calibration)",
     true,
     1e-3,
     1e3,
     {}},
};

}  // namespace

const std::vector<parameter_info>& parameter_table() { return kParameters; }

const parameter_info* find_parameter(std::string_view name) {
  for (const auto& p : parameter_table()) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

namespace {

// What a design file has said so far.
struct design_seen {
  std::set<std::string> keys;
  bool seeds = false, points = false;
};

// One `key = value` line of a design file into `d`.
void design_line(design& d, design_seen& seen, const std::string& key, const std::string& value,
                 std::string_view source, int line) {
  if (key == "base") {
    if (value.empty()) fail(source, line, "base needs a sweep config path");
    d.base = value;
  } else if (key == "seeds") {
    seen.seeds = true;
    std::set<std::uint64_t> unique;
    for (const auto& w : split_blanks(value)) {
      const auto x = sweep::parse_uint(w);
      if (!x) fail(source, line, "seeds: '" + w + "' is not a non-negative integer");
      if (!unique.insert(*x).second) fail(source, line, "seeds: seed " + w + " listed twice");
      d.seeds.push_back(*x);
    }
    if (d.seeds.empty()) fail(source, line, "seeds: zero seeds (every point needs at least one)");
  } else if (key == "points") {
    seen.points = true;
    const auto x = sweep::parse_int(value);
    if (!x || *x < 1 || *x > 10000)
      fail(source, line, "points must be 1..10000, got '" + value + "'");
    d.points = static_cast<int>(*x);
  } else if (key == "design_seed") {
    const auto x = sweep::parse_uint(value);
    if (!x) fail(source, line, "design_seed must be a non-negative integer, got '" + value + "'");
    d.design_seed = *x;
  } else if (key == "bootstrap") {
    const auto x = sweep::parse_int(value);
    if (!x || *x < 0 || *x > 100000) {
      fail(source, line, "bootstrap must be 0..100000, got '" + value + "'");
    }
    d.bootstrap = static_cast<int>(*x);
  } else if (const auto* p = find_parameter(key)) {
    d.parameters.push_back({key, parse_levels(*p, value, source, line)});
  } else {
    std::string known;
    for (const auto& q : parameter_table()) known += " " + q.name;
    fail(source, line,
         "unknown parameter or key '" + key +
             "' (keys: base seeds points design_seed bootstrap;"
             " parameters:" +
             known + ")");
  }
}

// The whole design: its required keys, and every split leaving a non-negative wire latency with
// every header size it may meet.
void check_design(const design& d, const design_seen& seen, std::string_view source) {
  const std::string where(source);
  if (d.base.empty()) throw design_error(where + ": no 'base' (the sweep config every point runs)");
  if (!seen.seeds) throw design_error(where + ": no 'seeds' (zero seeds)");
  if (!seen.points) throw design_error(where + ": no 'points'");
  std::vector<std::string> splits{"0.4/0.4"}, headers{"98"};
  for (const auto& p : d.parameters) {
    if (p.name == "split") splits = p.levels;
    if (p.name == "header_bytes") headers = p.levels;
  }
  for (const auto& sp : splits) {
    const auto s = *parse_split(sp);
    for (const auto& h : headers) {
      if (wire_latency_us(s.first, s.second, *parse_double(h)) < 0) {
        throw design_error(where + ": split " + sp + " with header_bytes " + h +
                           " leaves a negative wire latency (overheads and headers exceed L = "
                           "2414.5 us)");
      }
    }
  }
}

}  // namespace

design parse_design(std::string_view text, std::string_view source) {
  design d;
  design_seen seen;
  std::istringstream in{std::string(text)};
  std::string raw;
  int line = 0;
  while (std::getline(in, raw)) {
    ++line;
    const std::string s = strip_comment(raw);
    if (s.empty()) continue;
    const auto eq = s.find('=');
    if (eq == std::string::npos) fail(source, line, "expected 'key = value', got '" + s + "'");
    const std::string key(trim(std::string_view(s).substr(0, eq)));
    const std::string value(trim(std::string_view(s).substr(eq + 1)));
    if (!seen.keys.insert(key).second) fail(source, line, "'" + key + "' is set twice");
    design_line(d, seen, key, value, source, line);
  }
  check_design(d, seen, source);
  return d;
}

design read_design(const std::filesystem::path& path) {
  std::string text;
  try {
    text = sweep::read_input(path, sweep::kConfigLimit);
  } catch (const sweep::input_error& e) {
    throw design_error(std::string("design file ") + e.what());
  } catch (const std::exception& e) {
    throw design_error("design file " + path.string() + ": cannot be read");
  }
  return parse_design(text, path.string());
}

namespace {

using level_map = std::map<std::string, std::string>;

// Among 200 Latin hypercubes of n points over the design's levels (each parameter's levels
// cycled to n entries, shuffled), the one whose closest two points (the defaults included)
// differ in the most parameters (maximin): the points spread over the region. Empty when no
// hypercube has n points distinct from each other and from the defaults.
std::vector<level_map> maximin_hypercube(const design& d, const level_map& defaults,
                                         std::size_t n) {
  std::mt19937_64 rng(d.design_seed);
  auto draw = [&] {
    std::vector<level_map> pts(n, defaults);
    for (const auto& p : d.parameters) {
      std::vector<std::size_t> idx(n);
      for (std::size_t i = 0; i < n; ++i) idx[i] = i % p.levels.size();
      for (std::size_t i = n; i > 1; --i) std::swap(idx[i - 1], idx[rng() % i]);
      for (std::size_t i = 0; i < n; ++i) pts[i][p.name] = p.levels[idx[i]];
    }
    return pts;
  };
  auto distance = [](const level_map& a, const level_map& b) {
    std::size_t dd = 0;
    for (const auto& [k, v] : a) dd += b.at(k) != v;
    return dd;
  };
  std::vector<level_map> best;
  std::size_t best_min = 0;
  for (int tries = 0; tries < 200; ++tries) {
    auto pts = draw();
    std::size_t min_d = SIZE_MAX;
    for (std::size_t i = 0; i < n; ++i) {
      min_d = std::min(min_d, distance(pts[i], defaults));
      for (std::size_t j = i + 1; j < n; ++j) min_d = std::min(min_d, distance(pts[i], pts[j]));
    }
    if (min_d > 0 && (best.empty() || min_d > best_min)) {
      best = std::move(pts);
      best_min = min_d;
    }
  }
  return best;
}

}  // namespace

std::vector<point> make_points(const design& d) {
  const auto defaults = default_levels();
  std::vector<point> out;
  point def;
  def.id = "defaults";
  def.is_defaults = true;
  def.levels = defaults;
  out.push_back(def);

  const auto n = static_cast<std::size_t>(d.points);
  std::size_t combinations = 1;
  for (const auto& p : d.parameters) {
    combinations = std::min<std::size_t>(combinations * p.levels.size(), 1u << 30);
  }
  if (combinations < n + 1) {
    throw design_error("design: " + std::to_string(n) + " distinct points need at least " +
                       std::to_string(n + 1) + " level combinations; the parameters give " +
                       std::to_string(combinations));
  }
  const auto best = maximin_hypercube(d, defaults, n);
  if (best.empty()) {
    throw design_error("design: no Latin hypercube of " + std::to_string(n) +
                       " distinct points found (too few levels for that many points)");
  }
  for (std::size_t i = 0; i < n; ++i) {
    point p;
    const std::string number = std::to_string(i + 1);
    p.id = "p" + std::string(number.size() < 2 ? 2 - number.size() : 0, '0') + number;
    p.levels = best[i];
    out.push_back(p);
  }
  return out;
}

std::vector<std::string> network_variant::netchar_args() const {
  return {"--send-overhead", send_overhead,  "--recv-overhead", recv_overhead, "--header-bytes",
          header_bytes,      "--wire-share", wire_share,        "--broadcast", broadcast};
}

network_variant network_of(const point& p) {
  network_variant v;
  const auto s = *parse_split(p.levels.at("split"));
  v.send_overhead = format_number(s.first);
  v.recv_overhead = format_number(s.second);
  v.header_bytes = p.levels.at("header_bytes");
  v.wire_share = p.levels.at("wire_share");
  v.broadcast = p.levels.at("broadcast");
  bool all_default = true;
  for (const char* name : {"split", "header_bytes", "wire_share", "broadcast"})
    all_default = all_default && p.levels.at(name) == find_parameter(name)->default_level;
  if (!all_default) {
    v.name = "os" + v.send_overhead + "-or" + v.recv_overhead + "-h" + v.header_bytes + "-w" +
             v.wire_share + "-" + v.broadcast;
  }
  return v;
}

namespace {

// The base config's tl of a scope ("" when it sets none), times the point's factor.
std::string scaled_tl(const std::string& base_tl, const point& p) {
  const auto tl = parse_double(base_tl);
  const auto f = parse_double(p.levels.at("tl_factor"));
  if (!tl || !(*tl > 0))
    throw design_error("base config: tl '" + base_tl + "' is not a positive number");
  // Four significant digits, like a range's levels: the value names the point's runs.
  return format_number(*parse_double(sweep::format_sig(*tl * *f, 4)));
}

// The base config split into its global lines and its sections (comments dropped), with the
// global tl and each section's own (or "" when a section sets none).
struct base_config {
  std::vector<std::string> global;
  std::string global_tl;
  struct section {
    std::string header, tl;
    std::vector<std::string> lines;
  };
  std::vector<section> sections;
};

base_config split_base(std::string_view base_text) {
  base_config b;
  std::istringstream in{std::string(base_text)};
  std::string raw;
  auto key_of = [](const std::string& s) {
    const auto eq = s.find('=');
    return eq == std::string::npos ? std::string()
                                   : std::string(trim(std::string_view(s).substr(0, eq)));
  };
  auto value_of = [](const std::string& s) {
    return std::string(trim(std::string_view(s).substr(s.find('=') + 1)));
  };
  while (std::getline(in, raw)) {
    const std::string s = strip_comment(raw);
    if (s.empty()) continue;
    if (s.front() == '[') {
      b.sections.push_back({s, "", {}});
      continue;
    }
    const std::string key = key_of(s);
    if (b.sections.empty()) {
      if (key == "tl") b.global_tl = value_of(s);
      if (key == "seeds" || key == "repetitions" || key == "tl") continue;
      if (key == "args") {
        throw design_error(
            "base config sets 'args'; the study sets each point's args (a base "
            "config must not)");
      }
      b.global.push_back(s);
    } else if (key == "tl") {
      b.sections.back().tl = value_of(s);
    } else if (key == "args") {
      throw design_error("base config: section " + b.sections.back().header +
                         " sets 'args'; the study sets each point's args (a base config must not)");
    } else {
      b.sections.back().lines.push_back(s);
    }
  }
  if (b.global_tl.empty()) b.global_tl = "5";  // dlb_sweep's default
  return b;
}

}  // namespace

std::vector<std::string> point_tls(const point& p, std::string_view base_text) {
  const auto b = split_base(base_text);
  std::vector<std::string> out;
  for (const auto& sec : b.sections) {
    const auto tl = scaled_tl(sec.tl.empty() ? b.global_tl : sec.tl, p);
    if (std::find(out.begin(), out.end(), tl) == out.end()) out.push_back(tl);
  }
  return out;
}

std::string point_args(const point& p, const std::filesystem::path& profile_dir) {
  if (p.is_defaults) return "";
  const auto net = network_of(p);
  std::string a = "--send-overhead " + net.send_overhead + " --recv-overhead " + net.recv_overhead +
                  " --header-bytes " + net.header_bytes + " --wire-share " + net.wire_share +
                  " --broadcast " + net.broadcast;
  if (!net.name.empty()) {
    a += " --network-profile " + (profile_dir / (net.name + ".profile")).string();
  }
  a += " --threshold-pct " + p.levels.at("threshold_pct");
  a += " --after-no-move " + p.levels.at("after_no_move");
  a += " --balancer " + p.levels.at("balancer");
  a += " --first-sync " + p.levels.at("first_sync");
  a += " --delta-ms " + p.levels.at("delta_ms");
  a += " --t-op-factor " + p.levels.at("t_op_factor");
  return a;
}

std::string study_config(const design& d, std::string_view base_text,
                         const std::vector<point>& points,
                         const std::filesystem::path& profile_dir) {
  const auto base = split_base(base_text);
  const auto& global = base.global;
  std::ostringstream out;
  out << "# The sensitivity study: every section of the base config once per design point.\n";
  for (const auto& g : global) out << g << "\n";
  out << "seeds =";
  for (const auto s : d.seeds) out << " " << s;
  out << "\nrepetitions = " << d.seeds.size() << "\n";
  for (const auto& p : points) {
    const std::string args = point_args(p, profile_dir);
    for (const auto& sec : base.sections) {
      out << "\n" << sec.header << "  # point " << p.id << "\n";
      for (const auto& l : sec.lines) out << l << "\n";
      out << "tl = " << scaled_tl(sec.tl.empty() ? base.global_tl : sec.tl, p) << "\n";
      if (!args.empty()) out << "args = " << args << "\n";
    }
  }
  return out.str();
}

std::string points_csv(const std::vector<point>& points, std::string_view base_text,
                       const std::filesystem::path& profile_dir) {
  std::vector<std::string> header{"point", "defaults"};
  for (const auto& p : parameter_table()) header.push_back(p.name);
  header.insert(header.end(), {"tl_values", "args"});
  std::string out = sweep::csv_line(header);
  for (const auto& p : points) {
    std::vector<std::string> row{p.id, p.is_defaults ? "1" : "0"};
    for (const auto& q : parameter_table()) row.push_back(p.levels.at(q.name));
    std::string tls;
    for (const auto& t : point_tls(p, base_text)) tls += (tls.empty() ? "" : " ") + t;
    row.push_back(tls);
    row.push_back(point_args(p, profile_dir));
    out += sweep::csv_line(row);
  }
  return out;
}

}  // namespace dlb::study
