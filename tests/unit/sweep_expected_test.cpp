// Expected results with tolerances (experiments/report/expected.hpp): seed subsets, the derived
// bands and verdicts, the check, and the expected file refused when malformed.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "report/expected.hpp"
#include "sweep/csv_table.hpp"
#include "sweep/sha256.hpp"

namespace dlb::report {
namespace {

TEST(SeedSubsets, EveryChoiceOfKSeedsInOrder) {
  struct row {
    std::vector<int> seeds;
    int k;
    std::size_t count;
    std::set<int> first, last;
  };
  const std::vector<row> table = {
      {{1, 2, 3}, 1, 3, {1}, {3}},
      {{1, 2, 3}, 3, 1, {1, 2, 3}, {1, 2, 3}},
      {{1, 2, 3, 4, 5}, 2, 10, {1, 2}, {4, 5}},
      {{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 3, 120, {1, 2, 3}, {8, 9, 10}},
      {{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 5, 252, {1, 2, 3, 4, 5}, {6, 7, 8, 9, 10}},
  };
  for (const auto& r : table) {
    const auto s = seed_subsets(r.seeds, r.k);
    ASSERT_EQ(s.size(), r.count) << "k=" << r.k;
    EXPECT_EQ(s.front(), r.first);
    EXPECT_EQ(s.back(), r.last);
  }
}

TEST(SeedSubsets, KOutOfRangeIsRefused) {
  for (int k : {0, -1, 4}) EXPECT_THROW(seed_subsets({1, 2, 3}, k), std::invalid_argument) << k;
}

TEST(KeepSeeds, KeepsTheChosenSeedsAndEveryRunWithoutLoad) {
  sweep::csv_table t;
  t.columns = {"seed", "ml", "status"};
  t.rows = {
      {"1", "5", "ok"}, {"2", "5", "ok"}, {"3", "5", "ok"}, {"1", "0", "ok"}, {"2", "0", "ok"}};
  const auto kept = keep_seeds(t, {2});
  ASSERT_EQ(kept.rows.size(), 3u);
  EXPECT_EQ(kept.rows[0][0], "2");
  EXPECT_EQ(kept.rows[1][1], "0");
  EXPECT_EQ(seeds_of(t), (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(runs_not_ok(t), 0u);
  t.rows[1][2] = "unverified";
  EXPECT_EQ(runs_not_ok(t), 1u);
}

measurements numbers(double a, double b) {
  measurements m;
  m["x"].number = a;
  m["y"].number = b;
  return m;
}

TEST(DeriveExpected, NumbersTakeTheMedianAndTheRangeOfTheSubsets) {
  struct row {
    std::vector<double> values;
    double slack, expected, lo, hi;
  };
  const std::vector<row> table = {
      {{0.7}, 0, 0.7, 0.7, 0.7},
      {{0.7, 0.9, 0.8}, 0, 0.8, 0.7, 0.9},
      {{0.7, 0.9, 0.8, 1.0}, 0.01, 0.85, 0.69, 1.01},
      {{3, 3, 4}, 0, 3, 3, 4},
  };
  for (const auto& r : table) {
    std::vector<measurements> subsets;
    for (double v : r.values) subsets.push_back(numbers(v, 1));
    const auto e = derive_expected(subsets, "test", r.slack);
    ASSERT_EQ(e.size(), 2u);
    EXPECT_EQ(e[0].key, "x");
    EXPECT_EQ(e[0].kind, "number");
    EXPECT_DOUBLE_EQ(e[0].expected, r.expected);
    EXPECT_DOUBLE_EQ(e[0].lo, r.lo);
    EXPECT_DOUBLE_EQ(e[0].hi, r.hi);
  }
}

TEST(DeriveExpected, VerdictsAllowWhatTheSubsetsGaveMostFrequentFirst) {
  std::vector<measurements> subsets(3);
  subsets[0]["M1 strict"].verdict = "holds";
  subsets[1]["M1 strict"].verdict = "does not hold";
  subsets[2]["M1 strict"].verdict = "does not hold";
  for (auto& s : subsets) s["T4 strict"].verdict = "holds";
  const auto e = derive_expected(subsets, "3 subsets", 0);
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[0].verdicts, (std::vector<std::string>{"does not hold", "holds"}));
  EXPECT_NE(e[0].rule.find("unstable"), std::string::npos);
  EXPECT_EQ(e[1].verdicts, (std::vector<std::string>{"holds"}));
  EXPECT_NE(e[0].spread.find("holds in 1"), std::string::npos);
}

TEST(DeriveExpected, AKeyMissingFromASubsetIsNotExpected) {
  std::vector<measurements> subsets = {numbers(1, 2), measurements{}};
  subsets[1]["x"].number = 1.5;
  const auto e = derive_expected(subsets, "", 0);
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].key, "x");
}

TEST(CheckExpected, NumbersInsideTheirBandVerdictsAmongTheAllowed) {
  std::vector<expected_row> expected(2);
  expected[0].key = "n";
  expected[0].kind = "number";
  expected[0].expected = 0.8;
  expected[0].lo = 0.7;
  expected[0].hi = 0.9;
  expected[1].key = "v";
  expected[1].kind = "verdict";
  expected[1].verdicts = {"holds"};
  struct row {
    std::optional<double> n;
    std::string v;
    bool n_ok, v_ok;
  };
  const std::vector<row> table = {
      {0.8, "holds", true, true},
      {0.7, "holds", true, true},
      {0.9, "holds", true, true},
      {0.6999, "holds", false, true},
      {0.95, "does not hold", false, false},
      {std::nullopt, "", false, false},
  };
  for (const auto& r : table) {
    measurements got;
    if (r.n) got["n"].number = *r.n;
    if (!r.v.empty()) got["v"].verdict = r.v;
    const auto lines = check_expected(expected, got);
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_EQ(lines[0].ok, r.n_ok) << lines[0].text;
    EXPECT_EQ(lines[1].ok, r.v_ok) << lines[1].text;
    EXPECT_EQ(lines[0].text.rfind(r.n_ok ? "ok" : "OUTSIDE", 0), 0u) << lines[0].text;
  }
  measurements all;
  all["n"].number = 0.8;
  all["v"].verdict = "holds";
  EXPECT_EQ(check_summary(check_expected(expected, all)),
            "expected results: 2 of 2 within tolerance");
  all["v"].verdict = "does not hold";
  EXPECT_EQ(check_summary(check_expected(expected, all)),
            "expected results: 1 of 2 within tolerance");
}

TEST(CheckExpected, SaysWhetherAValueIsOursAtTheSameSeeds) {
  std::vector<measurements> subsets;
  for (double v : {0.8, 0.7, 0.9}) subsets.push_back(numbers(v, 1));
  subsets[0]["v"].verdict = "holds";
  subsets[1]["v"].verdict = "does not hold";
  subsets[2]["v"].verdict = "holds";
  const auto e = derive_expected(subsets, "", 0);
  ASSERT_EQ(e.size(), 3u);  // v, x, y
  EXPECT_EQ(e[0].ours_verdict, "holds");
  ASSERT_TRUE(e[1].ours);
  EXPECT_DOUBLE_EQ(*e[1].ours, 0.8);  // the first subset's
  struct row {
    double x;
    std::string v;
    std::size_t same;
  };
  const std::vector<row> table = {
      {0.8, "holds", 3}, {0.7, "holds", 2}, {0.8000000001, "does not hold", 2}};
  for (const auto& r : table) {
    measurements got = numbers(r.x, 1);
    got["v"].verdict = r.v;
    const auto lines = check_expected(e, got);
    EXPECT_EQ(same_as_ours_summary(lines),
              "identical to ours (same seeds, relative 1e-6): " + std::to_string(r.same) + " of 3")
        << r.x << " " << r.v;
    EXPECT_EQ(check_summary(lines), "expected results: 3 of 3 within tolerance");
  }
  // Written and read back, the file keeps ours.
  const auto back =
      read_expected(sweep::parse_csv_table(sweep::format_csv_table(expected_table(e)), "e.csv"));
  ASSERT_TRUE(back[1].ours);
  EXPECT_DOUBLE_EQ(*back[1].ours, 0.8);
  EXPECT_EQ(back[0].ours_verdict, "holds");
  EXPECT_EQ(same_as_ours_summary(check_expected(std::vector<expected_row>{}, {})), "");
}

TEST(ExpectedFile, WrittenAndReadBack) {
  std::vector<expected_row> rows(2);
  rows[0] = fixed_band("crosscheck max |norm difference| %", 0.4, 0, 5, "target");
  rows[1].key = "paper claim T4 strict";
  rows[1].kind = "verdict";
  rows[1].verdicts = {"holds", "does not hold"};
  const auto text = sweep::format_csv_table(expected_table(rows));
  const auto back = read_expected(sweep::parse_csv_table(text, "expected.csv"));
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[0].key, rows[0].key);
  EXPECT_DOUBLE_EQ(back[0].expected, 0.4);
  EXPECT_DOUBLE_EQ(back[0].hi, 5);
  EXPECT_EQ(back[1].verdicts, rows[1].verdicts);
}

// FIPS 180-4's examples and the empty text; 55, 56 and 64 bytes cross the padding's block edge.
TEST(Sha256, KnownDigests) {
  struct row {
    std::string text, hex;
  };
  const std::vector<row> table = {
      {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
      {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
      {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
      {std::string(55, 'a'), "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"},
      {std::string(56, 'a'), "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"},
      {std::string(64, 'a'), "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"},
  };
  for (const auto& r : table) EXPECT_EQ(sweep::sha256_hex(r.text), r.hex) << r.text.size();
}

// A sealed file reads back; cut, edited, a row taken out or without its seal it is refused,
// naming the file.
TEST(ExpectedFile, SealedFileIsCheckedWhole) {
  std::vector<expected_row> rows(3);
  for (int i = 0; i < 3; ++i)
    rows[i] = fixed_band("q" + std::to_string(i), 0.5 + i, 0, 5, "target");
  const auto table = expected_table(rows);
  const std::string body = sweep::format_csv_table(table);
  const std::string sealed = seal_expected(body, table.rows.size());
  EXPECT_EQ(sealed.substr(body.size()),
            "# integrity: rows=3 sha256=" + sweep::sha256_hex(body) + "\n");
  ASSERT_EQ(read_sealed_expected(sealed, "E.csv").size(), 3u);
  std::string edited = sealed;
  edited[body.find("0.5")] = '7';
  const auto last_row = body.rfind('\n', body.size() - 2) + 1;
  struct row {
    std::string text, message;
  };
  const std::vector<row> cases = {
      {sealed.substr(0, sealed.size() - 40), "E.csv: cut short"},
      {sealed.substr(0, body.size() / 2), "E.csv: cut short"},
      {body, "E.csv: cut short or not written by dlb_expected: no integrity line"},
      {edited, "E.csv: its content does not match its checksum"},
      {body.substr(0, last_row) + sealed.substr(body.size()), "its checksum"},
      {seal_expected(body, 4), "E.csv: holds 3 rows where its integrity line says 4"},
      {body + "# integrity: rows=3 sha256=abc\n", "a malformed integrity line"},
      {"", "E.csv: cut short"},
  };
  for (const auto& c : cases) {
    try {
      read_sealed_expected(c.text, "E.csv");
      ADD_FAILURE() << "accepted: " << c.text;
    } catch (const sweep::csv_error& e) {
      EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos) << e.what();
    }
  }
}

TEST(ExpectedFile, MalformedRowsAreRefusedNamingTheLine) {
  const std::string header = "key,kind,expected,lo,hi,verdicts,spread,rule\n";
  struct row {
    std::string text, message;
  };
  const std::vector<row> table = {
      {"key,kind\nx,number\n", "no column 'expected'"},
      {header + "x,number,abc,0,1,,,\n", "line 2: column expected must be a number, got 'abc'"},
      {header + "x,number,1,0,,,,\n", "column hi must be a number, got ''"},
      {header + "x,number,1,2,1,,,\n", "lo > hi"},
      {header + "x,verdict,,,,,,\n", "no verdicts"},
      {header + "x,guess,,,,,,\n", "kind must be number or verdict, got 'guess'"},
      {header + ",number,1,0,2,,,\n", "empty key"},
  };
  for (const auto& r : table) {
    try {
      read_expected(sweep::parse_csv_table(r.text, "expected.csv"));
      ADD_FAILURE() << "accepted: " << r.text;
    } catch (const sweep::csv_error& e) {
      EXPECT_NE(std::string(e.what()).find(r.message), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace dlb::report
