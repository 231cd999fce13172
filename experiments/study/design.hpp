// The sensitivity study's design: which of the paper's unstated parameters vary, over
// which levels, at how many points, with which load seeds; and the sweep config it expands to.
//
// A design file is `key = value` lines ('#' starts a comment). Keys: `base` (the sweep config
// whose configurations every point runs, e.g. experiments/configs/paper.conf), `seeds` (the
// paired load seeds of every point), `points` (space-filling points besides the defaults point),
// `design_seed` (the Latin hypercube's permutations), `bootstrap` (replicates per point for the
// confidence intervals), and one line per parameter (parameter_table()): a list of levels
// (`tl_factor = 0.5 1 2 5`) or a range (`tl_factor = range 0.5 50 5 log`: 5 levels from 0.5 to 50, log-spaced;
// `lin` for equal steps). Every point but the defaults point is drawn from a Latin hypercube over
// the levels: each parameter's levels appear equally often (within one) over the points, in an
// order shuffled per parameter, so the points fill the region instead of a corner of it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace dlb::study {

class design_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One of the paper's unstated parameters: its name in a design file, the runtime's default
// (what `make reproduce` uses) with its source, and what a level may be.
struct parameter_info {
  std::string name;           // design file key, e.g. "tl"
  std::string default_level;  // the level `make reproduce` runs at
  std::string option;         // how a run sets it, e.g. "--tl" (config key tl)
  std::string source;         // where the default comes from (evidence, not the paper's answer)
  bool numeric = true;        // numeric levels (ranges allowed) or words
  double min = 0;             // numeric levels must lie in [min, max]
  double max = 0;
  std::vector<std::string> words;  // the allowed levels of a non-numeric parameter
};
// Every parameter a design may vary, in report order.
const std::vector<parameter_info>& parameter_table();
const parameter_info* find_parameter(std::string_view name);

struct parameter_levels {
  std::string name;
  std::vector<std::string> levels;  // canonical text (format_number for numbers)
};

struct design {
  std::string base;  // sweep config, as written (relative to the working directory)
  std::vector<std::uint64_t> seeds;
  int points = 0;  // besides the defaults point
  std::uint64_t design_seed = 1;
  int bootstrap = 200;
  std::vector<parameter_levels> parameters;  // in file order; parameters not listed stay default
};

// Parses a design. `source` names it in errors ("FILE:LINE: message"). Throws design_error naming
// the bad input: an unknown key or parameter, a level outside the parameter's range, a range with
// low > high, no seeds (or seed list empty), a repeated key, points < 1.
design parse_design(std::string_view text, std::string_view source);
design read_design(const std::filesystem::path& path);

// One design point: a level of every parameter (defaults for those the design does not vary).
struct point {
  std::string id;  // "defaults", "p01", "p02", ...
  bool is_defaults = false;
  std::map<std::string, std::string> levels;  // parameter name -> level
};

// The defaults point first, then `points` Latin-hypercube points (deterministic in
// design_seed; no two points alike, none equal to the defaults).
std::vector<point> make_points(const design& d);

// A point's network description (split of L and header bytes) when it differs from the
// runtime's default: such a point needs its own network profile for the cost model.
struct network_variant {
  std::string name;  // file-name safe, e.g. "os0.1-or0.7-h98"
  std::string send_overhead, recv_overhead, header_bytes, wire_share, broadcast;
  // dlb_netchar's options for this description (without --out / --name).
  std::vector<std::string> netchar_args() const;
};
// nullopt-like: empty name when the point uses the default network description.
network_variant network_of(const point& p);

// The options a point passes to every app (the config's `args`), given the directory holding
// the network profiles (`<dir>/<variant>.profile`). Empty for the defaults point.
std::string point_args(const point& p, const std::filesystem::path& profile_dir);
// The point's tl values (config key tl): each section's tl in the base (or the base's global
// one, or dlb_sweep's 5 s) times the point's tl_factor, four significant digits, each once.
std::vector<std::string> point_tls(const point& p, std::string_view base_text);

// The sweep config of the whole study: the base config's global keys with the design's seeds,
// then every section of the base once per point, each with its tl times the point's tl_factor
// and the point's args. Throws design_error if the base sets a key the study must own (args).
std::string study_config(const design& d, std::string_view base_text,
                         const std::vector<point>& points,
                         const std::filesystem::path& profile_dir);

// The points as CSV: id, defaults flag, one column per parameter, tl_values (point_tls, blank
// separated), args.
std::string points_csv(const std::vector<point>& points, std::string_view base_text,
                       const std::filesystem::path& profile_dir);

}  // namespace dlb::study
