// The reference fingerprint cache of the applications (apps/common/reference_cache.hpp): a
// result identical to the cached reference passes without recomputing it; anything else is
// checked against a recomputed reference; no directory, no cache.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "reference_cache.hpp"

namespace {

namespace fs = std::filesystem;
using apps::common::fingerprint_of;
using apps::common::verify_cached;

struct temp_dir {
  fs::path path =
      fs::temp_directory_path() / ("dlb_refcache_" + std::to_string(::getpid()) + "_" +
                                   std::to_string(reinterpret_cast<std::uintptr_t>(this)));
  ~temp_dir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

TEST(ReferenceCache, FingerprintSeesEveryBitAndTheOrder) {
  const std::vector<double> a{1.0, 2.0, 3.0};
  EXPECT_EQ(fingerprint_of(a), fingerprint_of(std::vector<double>{1.0, 2.0, 3.0}));
  EXPECT_FALSE(fingerprint_of(a) == fingerprint_of(std::vector<double>{1.0, 3.0, 2.0}));
  EXPECT_FALSE(fingerprint_of(a) ==
               fingerprint_of(std::vector<double>{1.0, 2.0, std::nextafter(3.0, 4.0)}));
  EXPECT_FALSE(fingerprint_of(std::vector<double>{0.0}) ==
               fingerprint_of(std::vector<double>{-0.0}));
  EXPECT_FALSE(fingerprint_of(a) == fingerprint_of(std::vector<double>{1.0, 2.0}));
}

TEST(ReferenceCache, IdenticalResultSkipsTheReferenceOthersRecomputeIt) {
  temp_dir dir;
  const std::vector<double> ref{0.5, 1.5, 2.5};
  int computed = 0;
  auto reference = [&] {
    ++computed;
    return ref;
  };
  auto whole = [](const std::vector<double>& a) { return a; };
  auto check_of = [](const std::vector<double>& got) {
    return [got](const std::vector<double>& want) {
      return apps::compare(got, want, apps::relative_tolerance(4));
    };
  };
  // First run: computed, checked, fingerprint kept.
  auto r1 = verify_cached(dir.path.string(), "k", ref, whole, reference, check_of(ref));
  EXPECT_EQ(computed, 1);
  EXPECT_TRUE(r1.v.passed);
  EXPECT_FALSE(r1.from_cache);
  EXPECT_EQ(r1.source(), "computed");
  EXPECT_TRUE(fs::exists(dir.path / "k.ref"));
  // The same bits again: passes on the fingerprint, the reference is not computed.
  auto r2 = verify_cached(dir.path.string(), "k", ref, whole, reference, check_of(ref));
  EXPECT_EQ(computed, 1);
  EXPECT_TRUE(r2.v.passed);
  EXPECT_EQ(r2.source(), "cached");
  EXPECT_EQ(r2.v.compared, 3u);
  // A wrong result: recomputed and failed, never passed on the cache.
  const std::vector<double> wrong{0.5, 1.5, 2.6};
  auto r3 = verify_cached(dir.path.string(), "k", wrong, whole, reference, check_of(wrong));
  EXPECT_EQ(computed, 2);
  EXPECT_FALSE(r3.v.passed);
  EXPECT_FALSE(r3.from_cache);
  // Within tolerance but not identical: recomputed, passes on the usual check.
  const std::vector<double> close{0.5, 1.5, std::nextafter(2.5, 3.0)};
  auto r4 = verify_cached(dir.path.string(), "k", close, whole, reference, check_of(close));
  EXPECT_EQ(computed, 3);
  EXPECT_TRUE(r4.v.passed);
  EXPECT_FALSE(r4.from_cache);
  // Only the checked part counts: a change outside it still matches.
  auto first2 = [](const std::vector<double>& a) {
    return std::vector<double>(a.begin(), a.begin() + 2);
  };
  verify_cached(dir.path.string(), "part", ref, first2, reference, check_of(ref));
  const std::vector<double> outside{0.5, 1.5, 99.0};
  auto r5 = verify_cached(dir.path.string(), "part", outside, first2, reference, check_of(outside));
  EXPECT_TRUE(r5.from_cache);
  // No directory: always computed, no source.
  const int before = computed;
  auto r6 = verify_cached("", "k", ref, whole, reference, check_of(ref));
  EXPECT_EQ(computed, before + 1);
  EXPECT_EQ(r6.source(), "");
  // A corrupt cache file is ignored (recomputed) and replaced.
  { std::ofstream(dir.path / "bad.ref") << "not a fingerprint\n"; }
  auto r7 = verify_cached(dir.path.string(), "bad", ref, whole, reference, check_of(ref));
  EXPECT_FALSE(r7.from_cache);
  EXPECT_TRUE(r7.v.passed);
  auto r8 = verify_cached(dir.path.string(), "bad", ref, whole, reference, check_of(ref));
  EXPECT_TRUE(r8.from_cache);
}

}  // namespace
