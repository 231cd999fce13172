// Numbers quoted in hand-written docs against the generated files they come from: every row of
// tests/quoted_numbers.csv names a doc, the words around a number in it ("{}" where the number
// is), and its source. The test fails when the doc's words are gone (the list is out of date)
// or when the number and its source disagree. Sources:
//   - a sweep config (.conf), key "runs": the number of runs it plans (dlb_sweep's plan);
//   - a network profile (.profile), key a "name = value" line's name, times `scale`;
//   - an expected-results file (experiments/expected/*.csv), key a row's key: the doc's number
//     must lie inside the row's band [lo, hi] (compare "band"), or equal the row's `ours`, the
//     value at the seeds the doc's command runs (compare "ours": make reproduce, seeds 1-5);
//   - any other text file (a generated .md), key words around the number as in the doc.
// compare "equal": the source's number, rounded to the doc's printed decimals, is the doc's.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>
#include <string>

#include "report/expected.hpp"
#include "sweep/config.hpp"
#include "sweep/csv_table.hpp"

namespace fs = std::filesystem;

namespace {

const fs::path source_dir = DLB_SOURCE_DIR;

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Runs of blanks (line breaks included) as one space, so a quote may span a wrapped line.
std::string squeeze(const std::string& text) {
  return std::regex_replace(text, std::regex(R"(\s+)"), " ");
}

// The number where "{}" is in `quote`, found in `text` (both squeezed); nullopt when the words
// are not there. `printed` gets the number as printed.
std::optional<double> find_quoted(const std::string& text, const std::string& quote,
                                  std::string* printed = nullptr) {
  const auto hole = quote.find("{}");
  if (hole == std::string::npos) return std::nullopt;
  const auto escape = [](const std::string& s) {
    return std::regex_replace(squeeze(s), std::regex(R"([.^$|()\[\]{}*+?\\])"), R"(\$&)");
  };
  const std::regex re(escape(quote.substr(0, hole)) + R"((-?[0-9][0-9,]*(?:\.[0-9]+)?))" +
                      escape(quote.substr(hole + 2)));
  std::smatch m;
  const std::string s = squeeze(text);
  if (!std::regex_search(s, m, re)) return std::nullopt;
  std::string digits = m[1].str();
  if (printed) *printed = digits;
  digits.erase(std::remove(digits.begin(), digits.end(), ','), digits.end());
  return std::stod(digits);
}

int decimals(const std::string& printed) {
  const auto dot = printed.find('.');
  return dot == std::string::npos ? 0 : static_cast<int>(printed.size() - dot - 1);
}

// The number a source holds under `key`, or a failure message.
struct source_value {
  std::optional<double> value;
  double lo = 0, hi = 0;  // an expected file's band
  std::optional<double> ours;  // and its value at the command's own seeds
  std::string error;
};

source_value read_source(const fs::path& path, const std::string& key) {
  source_value v;
  if (!fs::exists(path)) {
    v.error = "source " + path.string() + " does not exist";
    return v;
  }
  const auto ext = path.extension();
  if (ext == ".conf") {
    if (key != "runs") {
      v.error = "a config's key must be 'runs'";
      return v;
    }
    v.value = static_cast<double>(dlb::sweep::read_config(path).runs.size());
  } else if (ext == ".profile") {
    std::istringstream in(slurp(path));
    for (std::string line; std::getline(in, line);) {
      if (line.rfind(key + " = ", 0) == 0) v.value = std::stod(line.substr(key.size() + 3));
    }
  } else if (ext == ".csv") {
    for (const auto& r : dlb::report::read_expected(dlb::sweep::read_csv_table(path))) {
      if (r.key == key && r.kind == "number") {
        v.value = r.expected;
        v.lo = r.lo;
        v.hi = r.hi;
        v.ours = r.ours;
      }
    }
  } else {
    v.value = find_quoted(slurp(path), key);
  }
  if (!v.value) v.error = "no '" + key + "' in " + path.string();
  return v;
}

TEST(QuotedNumbers, EveryQuotedNumberAgreesWithItsGeneratedSource) {
  const auto list = dlb::sweep::read_csv_table(source_dir / "tests/quoted_numbers.csv");
  ASSERT_GT(list.rows.size(), 0u);
  for (const auto& row : list.rows) {
    const std::string doc(list.field(row, "doc")), quote(list.field(row, "quote")),
        source(list.field(row, "source")), key(list.field(row, "key")),
        compare(list.field(row, "compare")), scale_text(list.field(row, "scale"));
    SCOPED_TRACE(doc + ": '" + quote + "' <- " + source + " [" + key + "]");
    std::string printed;
    const auto quoted = find_quoted(slurp(source_dir / doc), quote, &printed);
    ASSERT_TRUE(quoted) << doc << " no longer has these words: update the doc or the list";
    const auto src = read_source(source_dir / source, key);
    ASSERT_TRUE(src.value) << src.error;
    if (compare == "band") {
      EXPECT_GE(*quoted, src.lo) << "quoted " << printed << ", band [" << src.lo << ", " << src.hi << "]";
      EXPECT_LE(*quoted, src.hi) << "quoted " << printed << ", band [" << src.lo << ", " << src.hi << "]";
    } else if (compare == "ours") {
      ASSERT_TRUE(src.ours) << source << " has no value 'ours' for " << key;
      EXPECT_DOUBLE_EQ(*quoted, *src.ours) << "quoted " << printed;
    } else {
      ASSERT_EQ(compare, "equal");
      const double scale = scale_text.empty() ? 1.0 : std::stod(scale_text);
      const double unit = std::pow(10.0, -decimals(printed));
      const double expected = std::round(*src.value * scale / unit) * unit;
      EXPECT_NEAR(*quoted, expected, unit / 10)
          << "quoted " << printed << ", the source has " << *src.value * scale;
    }
  }
}

// The matcher itself, table-style.
TEST(QuotedNumbers, FindsTheNumberBetweenTheWords) {
  struct row {
    std::string text, quote;
    std::optional<double> expected;
  };
  const std::vector<row> table = {
      {"That is 732 runs, each", "That is {} runs", 732},
      {"has 2414.0 us and\n0.9600 MB/s", "us and {} MB/s", 0.96},
      {"took 1,392 runs", "took {} runs", 1392},
      {"That is many runs", "That is {} runs", std::nullopt},
      {"a (b) 1.5 [c]", "a (b) {} [c]", 1.5},
  };
  for (const auto& r : table) {
    const auto got = find_quoted(r.text, r.quote);
    EXPECT_EQ(got.has_value(), r.expected.has_value()) << r.quote;
    if (got && r.expected) {
      EXPECT_DOUBLE_EQ(*got, *r.expected) << r.quote;
    }
  }
}

}  // namespace
