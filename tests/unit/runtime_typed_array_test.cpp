// dlb::array<T> (dlb/array.hpp): the element type deduced, the extents checked against the data
// when the array is made, typed element and slice access, and the description the runtime moves.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "dlb/array.hpp"

namespace {

using dlb::along;
using dlb::data_distribution;

TEST(TypedArray, DeducesTheElementTypeIntoTheDescription) {
  std::vector<double> d(6);
  std::vector<float> f(6);
  std::vector<std::int32_t> i32(6);
  std::vector<std::int64_t> i64(6);
  EXPECT_EQ(dlb::array("d", d, 2, 3, data_distribution::block).description().type,
            dlb::element_type::f64);
  EXPECT_EQ(dlb::array("f", f, 2, 3, data_distribution::block).description().type,
            dlb::element_type::f32);
  EXPECT_EQ(dlb::array("i", i32, 2, 3, data_distribution::block).description().type,
            dlb::element_type::i32);
  EXPECT_EQ(dlb::array("l", i64, 2, 3, data_distribution::block).description().type,
            dlb::element_type::i64);
}

// The one list (DLB_ELEMENT_TYPES) gives the enum, the type check and the sizes the wire carries.
TEST(TypedArray, ElementTypesComeFromTheOneList) {
  static_assert(dlb::is_element_type<double> && dlb::is_element_type<float> &&
                dlb::is_element_type<std::int32_t> && dlb::is_element_type<std::int64_t>);
  static_assert(!dlb::is_element_type<char> && !dlb::is_element_type<std::uint64_t> &&
                !dlb::is_element_type<long double>);
  int listed = 0;
#define DLB_TEST_ELEMENT_TYPE(name, type)                                       \
  EXPECT_EQ(dlb::element_type_of<type>(), dlb::element_type::name);             \
  EXPECT_EQ(dlb::element_size(dlb::element_type::name), sizeof(type)) << #name; \
  ++listed;
  DLB_ELEMENT_TYPES(DLB_TEST_ELEMENT_TYPE)
#undef DLB_TEST_ELEMENT_TYPE
  EXPECT_EQ(listed, 4);
  EXPECT_EQ(dlb::element_size(dlb::element_type::f32), 4u);
  EXPECT_EQ(dlb::element_size(dlb::element_type::i64), 8u);
}

TEST(TypedArray, RefusesBadExtentsNamingTheArray) {
  std::vector<double> d(6);
  struct row {
    std::string name;
    std::int64_t rows, cols;
    std::string says;
  };
  const std::vector<row> rows{
      {"x", 2, 4, "dlb::array x: 2 x 4 needs 8 elements, the data has 6"},
      {"x", 3, 1, "dlb::array x: 3 x 1 needs 3 elements, the data has 6"},
      {"y", 0, 6, "dlb::array y: extents must be positive, got 0 x 6"},
      {"z", 6, -1, "dlb::array z: extents must be positive, got 6 x -1"},
      {"", 2, 3, "dlb::array: an array needs a name"},
  };
  for (const row& r : rows) {
    try {
      dlb::array a(r.name, d, r.rows, r.cols, data_distribution::block);
      ADD_FAILURE() << r.says << ": accepted";
    } catch (const dlb::usage_error& e) {
      EXPECT_EQ(std::string(e.what()), r.says);
    }
  }
  EXPECT_THROW(dlb::array<double>("p", nullptr, 0, 1, 1, data_distribution::block),
               dlb::usage_error);
}

TEST(TypedArray, ElementsAndSlicesReachTheCallersData) {
  std::vector<std::int32_t> d{0, 1, 2, 3, 4, 5};  // 2 x 3, row-major
  dlb::array byrow("r", d, 2, 3, data_distribution::block);
  EXPECT_EQ(byrow(1, 2), 5);
  const auto row1 = byrow.slice(1);
  ASSERT_EQ(row1.size(), 3);
  EXPECT_EQ(row1[0], 3);
  EXPECT_EQ(row1[2], 5);
  dlb::array bycol("c", d, 2, 3, data_distribution::cyclic, along::columns);
  const auto col2 = bycol.slice(2);
  ASSERT_EQ(col2.size(), 2);
  EXPECT_EQ(col2[0], 2);
  EXPECT_EQ(col2[1], 5);
  col2[1] = 42;
  EXPECT_EQ(d[5], 42);
  EXPECT_EQ(bycol.description().slice_count(), 3);
  EXPECT_EQ(bycol.description().distribution, data_distribution::cyclic);
}

TEST(TypedArray, RolesSetTheDescription) {
  std::vector<double> d(4);
  auto in = dlb::array("in", d, 4, 1, data_distribution::block);
  EXPECT_TRUE(in.description().input);
  EXPECT_FALSE(in.description().output);
  auto out = dlb::array("out", d, 4, 1, data_distribution::block).result();
  EXPECT_FALSE(out.description().input);
  EXPECT_TRUE(out.description().output);
  auto both = dlb::array("both", d, 4, 1, data_distribution::block).updated().bitonic();
  EXPECT_TRUE(both.description().input);
  EXPECT_TRUE(both.description().output);
  EXPECT_EQ(both.description().map, dlb::iteration_map::bitonic);
}

TEST(TypedArray, TypedAndUntypedArraysGoToParallelForAlike) {
  std::vector<double> d(4), e(4);
  dlb::array typed("t", d, 4, 1, data_distribution::block);
  auto untyped = dlb::DLB_array::of("u", e.data(), 4, 1, data_distribution::block);
  const std::vector<dlb::array_ref> refs{&typed, &untyped};
  EXPECT_EQ(refs[0].get(), &typed.description());
  EXPECT_EQ(refs[1].get(), &untyped);
}

}  // namespace
