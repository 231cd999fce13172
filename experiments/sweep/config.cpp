// The sweep configuration format: parsing, validation and expansion into runs.
#include "sweep/config.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>

#include "dlb/core/policy.hpp"
#include "sweep/csv_table.hpp"
#include "sweep/text.hpp"

namespace dlb::sweep {
namespace {

// Settings of one scope (the defaults, or one section before merging with the defaults).
struct settings {
  std::optional<std::vector<int>> procs;
  std::optional<std::map<int, int>> group;
  std::optional<std::vector<std::string>> strategies;
  std::optional<int> repetitions;
  std::optional<std::vector<std::uint64_t>> seeds;
  std::size_t repetitions_line = 0, seeds_line = 0;  // where each was set
  std::optional<int> ml;
  std::optional<double> tl;
  std::optional<std::string> clock;
  std::optional<double> scale;
  std::optional<std::string> network;
  std::optional<std::string> backend;
  std::optional<double> timeout;
  std::optional<double> cpu_timeout;
  std::optional<std::vector<size_spec>> sizes;
  std::optional<std::string> args;
};

struct section {
  std::string app;
  std::size_t line = 0;
  settings s;
};

template <class T>
T pick(const std::optional<T>& own, const std::optional<T>& fallback, T dflt) {
  if (own) return *own;
  if (fallback) return *fallback;
  return dflt;
}

bool contains(const std::vector<std::string>& v, std::string_view x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

std::vector<std::string> allowed_size_params(std::string_view app) {
  if (app == "mxm") return {"n", "r", "m"};
  if (app == "synthetic") return {"iterations"};
  return {"n"};
}

class parser {
 public:
  parser(std::string_view source) : source_(source) {}

  [[noreturn]] void fail(std::size_t line, const std::string& msg) const {
    throw config_error(source_ + ":" + std::to_string(line) + ": " + msg);
  }

  int positive_int(std::size_t line, std::string_view key, std::string_view v) const {
    const auto n = parse_int(v);
    if (!n || *n < 1 || *n > 1000000)
      fail(line, std::string(key) + " must be a positive integer, got '" + std::string(v) + "'");
    return static_cast<int>(*n);
  }

  double positive_double(std::size_t line, std::string_view key, std::string_view v) const {
    const auto x = parse_double(v);
    if (!x || !(*x > 0))
      fail(line, std::string(key) + " must be a positive number, got '" + std::string(v) + "'");
    return *x;
  }

  // One `key = value` line into s: each key has its setter, which checks the value and that the
  // key is not set twice in the same scope.
  void set(settings& s, std::size_t line, const std::string& key, const std::string& value,
           bool in_section) const {
    using setter = void (parser::*)(settings&, std::size_t, const std::string&) const;
    static const std::map<std::string, setter> setters{{"procs", &parser::set_procs},
                                                       {"group", &parser::set_group},
                                                       {"strategies", &parser::set_strategies},
                                                       {"repetitions", &parser::set_repetitions},
                                                       {"seeds", &parser::set_seeds},
                                                       {"ml", &parser::set_ml},
                                                       {"tl", &parser::set_tl},
                                                       {"clock", &parser::set_clock},
                                                       {"scale", &parser::set_scale},
                                                       {"network", &parser::set_network},
                                                       {"backend", &parser::set_backend},
                                                       {"timeout", &parser::set_timeout},
                                                       {"cpu_timeout", &parser::set_cpu_timeout},
                                                       {"sizes", &parser::set_sizes},
                                                       {"args", &parser::set_args}};
    if (value.empty()) fail(line, "'" + key + "' has no value");
    const auto it = setters.find(key);
    if (it == setters.end()) {
      fail(line, "unknown key '" + key +
                     "' (known: procs group strategies repetitions seeds ml tl clock scale "
                     "network backend timeout cpu_timeout sizes args)");
    }
    if (key == "sizes" && !in_section)
      fail(line, "sizes belong in an [app NAME] section (they depend on the app)");
    (this->*it->second)(s, line, value);
  }

  std::string source_;

 private:
  template <class T>
  void once(const std::optional<T>& field, std::size_t line, std::string_view key) const {
    if (field) fail(line, "'" + std::string(key) + "' is set twice in the same scope");
  }

  void set_procs(settings& s, std::size_t line, const std::string& value) const {
    once(s.procs, line, "procs");
    std::vector<int> ps;
    for (const auto& w : split_blanks(value)) ps.push_back(positive_int(line, "procs", w));
    s.procs = ps;
  }

  void set_group(settings& s, std::size_t line, const std::string& value) const {
    once(s.group, line, "group");
    std::map<int, int> g;
    for (const auto& w : split_blanks(value)) {
      const auto parts = split_on(w, ':');
      if (parts.size() != 2)
        fail(line, "group entries are P:K pairs (e.g. 4:2 16:8), got '" + w + "'");
      g[positive_int(line, "P in group", parts[0])] = positive_int(line, "K in group", parts[1]);
    }
    s.group = g;
  }

  void set_strategies(settings& s, std::size_t line, const std::string& value) const {
    once(s.strategies, line, "strategies");
    std::vector<std::string> st;
    for (const auto& w : split_blanks(value)) {
      if (const std::string why = strategy_error(w); !why.empty()) fail(line, why);
      if (contains(st, w)) fail(line, "strategy '" + w + "' listed twice");
      st.push_back(w);
    }
    s.strategies = st;
  }

  void set_repetitions(settings& s, std::size_t line, const std::string& value) const {
    once(s.repetitions, line, "repetitions");
    s.repetitions = positive_int(line, "repetitions", value);
    s.repetitions_line = line;
  }

  void set_seeds(settings& s, std::size_t line, const std::string& value) const {
    once(s.seeds, line, "seeds");
    std::vector<std::uint64_t> seeds;
    for (const auto& w : split_blanks(value)) {
      const auto v = parse_uint(w);
      if (!v) fail(line, "seeds must be non-negative integers, got '" + w + "'");
      if (std::find(seeds.begin(), seeds.end(), *v) != seeds.end()) {
        fail(line, "seed " + w + " listed twice (each repetition needs its own load)");
      }
      seeds.push_back(*v);
    }
    s.seeds = seeds;
    s.seeds_line = line;
  }

  void set_ml(settings& s, std::size_t line, const std::string& value) const {
    once(s.ml, line, "ml");
    const auto v = parse_int(value);
    if (!v || *v < 0 || *v > 1000) fail(line, "ml must be an integer >= 0, got '" + value + "'");
    s.ml = static_cast<int>(*v);
  }

  void set_tl(settings& s, std::size_t line, const std::string& value) const {
    once(s.tl, line, "tl");
    s.tl = positive_double(line, "tl", value);
  }

  void set_clock(settings& s, std::size_t line, const std::string& value) const {
    once(s.clock, line, "clock");
    if (value != "emulated" && value != "native")
      fail(line, "clock must be emulated or native, got '" + value + "'");
    s.clock = value;
  }

  void set_scale(settings& s, std::size_t line, const std::string& value) const {
    once(s.scale, line, "scale");
    s.scale = positive_double(line, "scale", value);
  }

  void set_network(settings& s, std::size_t line, const std::string& value) const {
    once(s.network, line, "network");
    if (value != "ethernet1996" && value != "switched" && value != "ideal") {
      fail(line, "network must be ethernet1996, switched or ideal, got '" + value + "'");
    }
    s.network = value;
  }

  void set_backend(settings& s, std::size_t line, const std::string& value) const {
    once(s.backend, line, "backend");
    if (!contains(known_backends(), value))
      fail(line, "backend must be pvm, sim or mpi, got '" + value + "'");
    s.backend = value;
  }

  void set_timeout(settings& s, std::size_t line, const std::string& value) const {
    once(s.timeout, line, "timeout");
    s.timeout = positive_double(line, "timeout", value);
  }

  void set_cpu_timeout(settings& s, std::size_t line, const std::string& value) const {
    once(s.cpu_timeout, line, "cpu_timeout");
    s.cpu_timeout = positive_double(line, "cpu_timeout", value);
  }

  void set_sizes(settings& s, std::size_t line, const std::string& value) const {
    once(s.sizes, line, "sizes");
    std::vector<size_spec> sizes;
    for (const auto& item : split_on(value, ';')) {
      if (item.empty()) continue;
      try {
        sizes.push_back(parse_size(item));
      } catch (const config_error& e) {
        fail(line, e.what());
      }
    }
    if (sizes.empty()) fail(line, "sizes lists no size");
    s.sizes = sizes;
  }

  void set_args(settings& s, std::size_t line, const std::string& value) const {
    once(s.args, line, "args");
    s.args = value;
  }
};

}  // namespace

const std::vector<std::string>& known_strategies() {
  // From the policy tables (dlb/core/policy.hpp): NONE, the balancing rows, AUTO, ADAPTIVE,
  // every chunk rule but CSS (it needs its k), and AUTO-ALL last: the policies' order of the
  // existing tables stays as it was.
  static const std::vector<std::string> s = [] {
    using core::customized_mode;
    std::vector<std::string> out{"NONE"};
    for (const auto& r : core::balancing_rows) out.emplace_back(r.name);
    for (const auto m : {customized_mode::automatic, customized_mode::adaptive})
      out.emplace_back(core::to_string(m));
    for (const auto& r : core::chunk_rules)
      if (r.rule != core::chunk_rule::css) out.emplace_back(r.name);
    out.emplace_back(core::to_string(customized_mode::auto_all));
    return out;
  }();
  return s;
}

std::string strategy_error(const std::string& name) {
  // The programs' own parser (dlb/core/policy.hpp), and the spelling they echo.
  try {
    const std::string canonical = core::to_string(core::parse_policy(name));
    if (canonical != name)
      return "strategy '" + name + "' must be spelled as the programs echo it: '" + canonical + "'";
    return {};
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
}

const std::vector<std::string>& known_apps() {
  // synthetic: the synthetic loop (build/apps/synthetic, apps/synthetic/synthetic.cpp),
  // size iterations=I; its shape and work per iteration by args (--shape, --work-ms).
  static const std::vector<std::string> a{"mxm", "trfd", "ac", "synthetic"};
  return a;
}

const std::vector<std::string>& known_backends() {
  static const std::vector<std::string> b{"pvm", "sim", "mpi"};
  return b;
}

std::string size_spec::label() const {
  std::string out;
  for (const auto& [k, v] : params) {
    if (!out.empty()) out += ' ';
    out += k + "=" + std::to_string(v);
  }
  return out;
}

size_spec parse_size(std::string_view text) {
  std::string t(text);
  std::replace(t.begin(), t.end(), ',', ' ');
  size_spec s;
  for (const auto& w : split_blanks(t)) {
    const auto eq = w.find('=');
    if (eq == std::string::npos || eq == 0) {
      throw config_error("a size is name=value pairs (e.g. n=400 r=400 m=400), got '" + w + "'");
    }
    const std::string name = w.substr(0, eq);
    const auto v = parse_int(w.substr(eq + 1));
    if (!v || *v < 1)
      throw config_error("size parameter " + name + " must be a positive integer, got '" + w + "'");
    for (const auto& [k, _] : s.params) {
      if (k == name)
        throw config_error("size parameter " + name + " given twice in '" + std::string(text) +
                           "'");
    }
    s.params.emplace_back(name, *v);
  }
  if (s.params.empty()) throw config_error("empty size");
  return s;
}

const std::vector<std::string>& run_spec::key_columns() {
  static const std::vector<std::string> c{"app",   "P",       "K",       "size",      "strategy",
                                          "rep",   "seed",    "ml",      "tl",        "clock",
                                          "scale", "network", "backend", "extra_args"};
  return c;
}

std::vector<std::string> run_spec::key_values() const {
  return {app,
          std::to_string(procs),
          std::to_string(group),
          size.label(),
          strategy,
          std::to_string(rep),
          std::to_string(seed),
          std::to_string(ml),
          format_number(tl),
          clock,
          format_number(scale),
          network,
          backend,
          extra_args};
}

std::string run_spec::key() const {
  std::string k;
  for (const auto& v : key_values()) {
    k += v;
    k += '\x1f';
  }
  return k;
}

namespace {
// $DLB_MPIRUN, or mpirun found on PATH (the driver starts programs by path); "mpirun" if none.
std::string mpirun_path() {
  if (const char* m = std::getenv("DLB_MPIRUN"); m && *m) return m;
  const char* path = std::getenv("PATH");
  for (const auto& dir : split_on(path ? path : "", ':')) {
    const std::filesystem::path p = std::filesystem::path(dir) / "mpirun";
    if (::access(p.c_str(), X_OK) == 0) return p.string();
  }
  return "mpirun";
}
}  // namespace

std::vector<std::string> run_spec::argv(const std::filesystem::path& bin_dir) const {
  std::vector<std::string> a{(bin_dir / app).string(),
                             "--strategy",
                             strategy,
                             "--procs",
                             std::to_string(procs),
                             "--group",
                             std::to_string(group),
                             "--seed",
                             std::to_string(seed),
                             "--ml",
                             std::to_string(ml),
                             "--tl",
                             format_number(tl),
                             "--clock",
                             clock,
                             "--scale",
                             format_number(scale),
                             "--network",
                             network,
                             "--backend",
                             backend};
  for (const auto& [k, v] : size.params) {
    a.push_back("--" + k);
    a.push_back(std::to_string(v));
  }
  for (const auto& w : split_blanks(extra_args)) a.push_back(w);
  if (backend == "mpi")
    a.insert(a.begin(), {mpirun_path(), "--oversubscribe", "-np", std::to_string(procs + 1)});
  return a;
}

std::string run_spec::describe() const {
  std::string d = app + " P=" + std::to_string(procs) + " K=" + std::to_string(group) + " " +
                  size.label() + " " + strategy + " rep=" + std::to_string(rep) +
                  " seed=" + std::to_string(seed);
  if (ml != 5) d += " ml=" + std::to_string(ml);
  if (backend != "pvm") d += " backend=" + backend;
  return d;
}

bool grows_from(const run_spec& later, const run_spec& earlier) {
  return later.procs > earlier.procs && later.app == earlier.app &&
         later.strategy == earlier.strategy && later.extra_args == earlier.extra_args &&
         later.network == earlier.network && later.backend == earlier.backend &&
         later.clock == earlier.clock && later.ml == earlier.ml;
}

namespace {

// The config's text as the defaults (lines before the first section) and its sections, every
// value checked.
void read_sections(const parser& p, std::string_view text, settings& defaults,
                   std::vector<section>& sections) {
  std::size_t line_no = 0;
  std::string_view rest = text;
  while (!rest.empty()) {
    const auto nl = rest.find('\n');
    std::string_view raw = rest.substr(0, nl);
    rest.remove_prefix(nl == std::string_view::npos ? rest.size() : nl + 1);
    ++line_no;
    if (const auto hash = raw.find('#'); hash != std::string_view::npos) raw = raw.substr(0, hash);
    const std::string_view line = trim(raw);
    if (line.empty()) continue;
    if (line.front() == '[') {
      if (line.back() != ']') p.fail(line_no, "a section header looks like [app mxm]");
      const auto words = split_blanks(line.substr(1, line.size() - 2));
      if (words.size() != 2 || words[0] != "app")
        p.fail(line_no, "a section header looks like [app mxm], got '" + std::string(line) + "'");
      if (!contains(known_apps(), words[1]))
        p.fail(line_no, "unknown app '" + words[1] + "' (known: mxm trfd ac synthetic)");
      sections.push_back(section{words[1], line_no, {}});
      continue;
    }
    const auto eq = line.find('=');
    if (eq == std::string_view::npos)
      p.fail(line_no, "expected 'key = value', got '" + std::string(line) + "'");
    const std::string key(trim(line.substr(0, eq)));
    const std::string value(trim(line.substr(eq + 1)));
    p.set(sections.empty() ? defaults : sections.back().s, line_no, key, value, !sections.empty());
  }
  if (sections.empty()) p.fail(line_no, "no [app NAME] section: nothing to run");
}

// One load seed per repetition. Where one scope (the defaults, or one section) sets both
// repetitions and seeds, they must agree: as many seeds as repetitions. Where they come from
// different scopes, the section's own key wins: a section's repetitions takes the first that
// many of the defaults' seeds; a section's seeds make its repetitions. With no seeds, 1, 2, ...
template <class Fail>
std::vector<std::uint64_t> seeds_of(const parser& p, const settings& s, const settings& d,
                                    const Fail& sfail) {
  for (const settings* scope : {&d, &s}) {
    if (scope->seeds && scope->repetitions &&
        static_cast<int>(scope->seeds->size()) != *scope->repetitions) {
      const std::size_t first = std::min(scope->repetitions_line, scope->seeds_line);
      p.fail(first, "repetitions = " + std::to_string(*scope->repetitions) + " (line " +
                        std::to_string(scope->repetitions_line) + ") but seeds lists " +
                        std::to_string(scope->seeds->size()) + " values (line " +
                        std::to_string(scope->seeds_line) +
                        "): one seed per repetition; make them agree (seeds lists " +
                        std::to_string(scope->seeds->size()) + " values for " +
                        std::to_string(*scope->repetitions) + " repetitions)");
    }
  }
  std::optional<std::vector<std::uint64_t>> seeds_given;
  std::optional<int> reps_given;
  if (s.seeds || s.repetitions) {
    seeds_given = s.seeds ? s.seeds : (s.repetitions ? d.seeds : std::nullopt);
    reps_given = s.repetitions;
  } else {
    seeds_given = d.seeds;
    reps_given = d.repetitions;
  }
  const int reps =
      reps_given ? *reps_given : (seeds_given ? static_cast<int>(seeds_given->size()) : 1);
  std::vector<std::uint64_t> seeds;
  if (seeds_given) {
    if (static_cast<int>(seeds_given->size()) < reps) {
      sfail("seeds lists " + std::to_string(seeds_given->size()) + " values for " +
            std::to_string(reps) + " repetitions (one seed per repetition; repetitions at line " +
            std::to_string(s.repetitions ? s.repetitions_line : d.repetitions_line) +
            ", seeds at line " + std::to_string(s.seeds ? s.seeds_line : d.seeds_line) + ")");
    }
    seeds.assign(seeds_given->begin(), seeds_given->begin() + reps);
  } else {
    for (int r = 0; r < reps; ++r) seeds.push_back(static_cast<std::uint64_t>(r + 1));
  }
  return seeds;
}

// Every size of the section names only its app's parameters, and its first (n, iterations).
template <class Fail>
void check_sizes(const std::string& app, const std::vector<size_spec>& sizes, const Fail& sfail) {
  const auto allowed = allowed_size_params(app);
  for (const auto& sz : sizes) {
    bool has_n = false;
    for (const auto& [k, _] : sz.params) {
      if (!contains(allowed, k)) sfail("size parameter '" + k + "' is not an option of " + app);
      has_n = has_n || k == allowed.front();
    }
    if (!has_n) sfail("size '" + sz.label() + "' has no " + allowed.front());
  }
}

// What every run of the section shares: its settings, else the defaults, else the built-in ones.
run_spec base_run(const section& sec, const settings& d) {
  const auto& s = sec.s;
  run_spec base;
  base.app = sec.app;
  base.ml = pick(s.ml, d.ml, 5);
  base.tl = pick(s.tl, d.tl, 1.0);
  base.clock = pick(s.clock, d.clock, std::string("emulated"));
  base.scale = pick(s.scale, d.scale, 20.0);
  base.network = pick(s.network, d.network, std::string("ethernet1996"));
  base.backend = pick(s.backend, d.backend, std::string("pvm"));
  base.timeout_s = pick(s.timeout, d.timeout, 600.0);
  base.cpu_timeout_s = pick(s.cpu_timeout, d.cpu_timeout, 0.0);
  // One canonical spacing, so the identity does not depend on how args were typed.
  for (const auto& w : split_blanks(pick(s.args, d.args, std::string())))
    base.extra_args += (base.extra_args.empty() ? "" : " ") + w;
  return base;
}

// The section's runs, procs x sizes x repetitions x strategies in that nesting order, into plan;
// `seen` holds every run planned so far (no run twice).
void expand(const parser& p, const section& sec, const settings& d, sweep_plan& plan,
            std::set<std::string>& seen) {
  const auto& s = sec.s;
  auto sfail = [&](const std::string& msg) { p.fail(sec.line, "[app " + sec.app + "]: " + msg); };
  const auto procs = pick(s.procs, d.procs, std::vector<int>{});
  if (procs.empty()) sfail("no procs (set procs = 4 16 globally or in the section)");
  const auto group = pick(s.group, d.group, std::map<int, int>{});
  const auto strategies = pick(s.strategies, d.strategies, std::vector<std::string>{});
  if (strategies.empty()) sfail("no strategies");
  const auto seeds = seeds_of(p, s, d, sfail);
  if (!s.sizes) sfail("no sizes (e.g. sizes = n=400 r=400 m=400; n=800 r=400 m=400)");
  check_sizes(sec.app, *s.sizes, sfail);
  const run_spec base = base_run(sec, d);
  for (int P : procs) {
    int K = std::max(1, P / 2);  // the paper's local strategies used two groups
    if (auto it = group.find(P); it != group.end()) K = it->second;
    if (K > P || P % K != 0) {
      sfail("group size K=" + std::to_string(K) + " does not divide P=" + std::to_string(P));
    }
    for (const auto& sz : *s.sizes) {
      for (std::size_t r = 0; r < seeds.size(); ++r) {
        for (const auto& st : strategies) {
          run_spec run = base;
          run.procs = P;
          run.group = K;
          run.size = sz;
          run.rep = static_cast<int>(r);
          run.seed = seeds[r];
          run.strategy = st;
          if (!seen.insert(run.key()).second) sfail("plans a run twice: " + run.describe());
          plan.runs.push_back(run);
        }
      }
    }
  }
}

}  // namespace

sweep_plan parse_config(std::string_view text, std::string_view source) {
  const parser p(source);
  settings defaults;
  std::vector<section> sections;
  read_sections(p, text, defaults, sections);
  sweep_plan plan;
  plan.text = std::string(text);
  std::set<std::string> seen;
  for (const auto& sec : sections) expand(p, sec, defaults, plan, seen);
  return plan;
}

sweep_plan read_config(const std::filesystem::path& path) {
  std::string text;
  try {
    text = read_input(path, kConfigLimit);
  } catch (const std::exception& e) {
    throw config_error(e.what());
  }
  return parse_config(text, path.string());
}

}  // namespace dlb::sweep
