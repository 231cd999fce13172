// The fiber rank 0's master runs as when every rank is a worker (lib/backends/mpi/fiber.hpp):
// turns, exceptions, its own stack and the floating-point control state, under both ways of
// switching (the x86-64 registers' and glibc's ucontext, the fallback elsewhere).
#include <gtest/gtest.h>

#include <cfenv>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "fiber.hpp"

namespace {

using dlb::mpi_detail::fiber;

class Fiber : public ::testing::TestWithParam<fiber::switching> {
 protected:
  void SetUp() override {
#if defined(__SANITIZE_ADDRESS__)
    // AddressSanitizer intercepts makecontext and reports (a warning, which make check counts as
    // a report) that it cannot follow it; the register switching, x86-64's, is checked there.
    if (GetParam() == fiber::switching::ucontext)
      GTEST_SKIP() << "glibc's ucontext under AddressSanitizer";
#endif
  }
};

TEST_P(Fiber, RunsByTurnsWithItsCaller) {
  std::vector<std::string> seen;
  fiber f(
      [&] {
        seen.push_back("in 1");
        f.yield();
        seen.push_back("in 2");
        f.yield();
        seen.push_back("in 3");
      },
      std::size_t{64} << 10, GetParam());
  EXPECT_FALSE(f.finished());
  for (int i = 1; i <= 3; ++i) {
    f.resume();
    seen.push_back("out " + std::to_string(i));
  }
  EXPECT_TRUE(f.finished());
  f.resume();  // an ended fiber: nothing
  f.yield();   // from outside: nothing
  EXPECT_EQ(seen, (std::vector<std::string>{"in 1", "out 1", "in 2", "out 2", "in 3", "out 3"}));
}

TEST_P(Fiber, TellsWhetherTheCallerIsInside) {
  bool inside_seen = false;
  fiber f([&] { inside_seen = f.inside(); }, std::size_t{64} << 10, GetParam());
  EXPECT_FALSE(f.inside());
  f.resume();
  EXPECT_TRUE(inside_seen);
  EXPECT_FALSE(f.inside());
}

TEST_P(Fiber, WhatTheBodyThrowsComesOutOfTheResumeItEndsIn) {
  int caught_inside = 0;
  fiber f(
      [&] {
        try {
          f.yield();
          throw std::runtime_error("inside");
        } catch (const std::runtime_error&) {
          ++caught_inside;  // thrown and caught on the fiber's stack, across a yield
        }
        f.yield();
        throw std::logic_error("the body's own failure");
      },
      std::size_t{64} << 10, GetParam());
  f.resume();
  f.resume();
  EXPECT_EQ(caught_inside, 1);
  EXPECT_FALSE(f.finished());
  try {
    f.resume();
    FAIL() << "the body's exception did not come out";
  } catch (const std::logic_error& e) {
    EXPECT_STREQ(e.what(), "the body's own failure");
  }
  EXPECT_TRUE(f.finished());
  EXPECT_NO_THROW(f.resume());  // told once
}

// Deep enough to need most of a 4 MiB stack: the stack is the fiber's own, as large as asked.
int deep(int n, volatile char* sink) {
  volatile char frame[4096];
  frame[0] = static_cast<char>(n);
  *sink = frame[0];
  return n == 0 ? 0 : 1 + deep(n - 1, sink);
}

TEST_P(Fiber, HasTheStackItWasGiven) {
  int depth = 0;
  volatile char sink = 0;
  fiber f([&] { depth = deep(800, &sink); }, std::size_t{4} << 20, GetParam());
  f.resume();
  EXPECT_TRUE(f.finished());
  EXPECT_EQ(depth, 800);
}

TEST_P(Fiber, EachSideKeepsItsRoundingMode) {
  const int outside = std::fegetround();
  int inside_after_yield = -1;
  fiber f(
      [&] {
        std::fesetround(FE_DOWNWARD);
        f.yield();
        inside_after_yield = std::fegetround();
      },
      std::size_t{64} << 10, GetParam());
  f.resume();
  const int outside_between = std::fegetround();
  f.resume();
  std::fesetround(outside);
  EXPECT_EQ(outside_between, outside);
  EXPECT_EQ(inside_after_yield, FE_DOWNWARD);
}

TEST_P(Fiber, ManyFibersTakeTurnsWithOneCaller) {
  std::vector<int> order;
  std::vector<std::unique_ptr<fiber>> fibers;
  fibers.reserve(3);  // each body holds its slot
  for (int k = 0; k < 3; ++k) {
    auto* slot = &fibers.emplace_back();
    *slot = std::make_unique<fiber>(
        [&order, slot, k] {
          for (int r = 0; r < 2; ++r) {
            order.push_back(10 * k + r);
            (*slot)->yield();
          }
        },
        std::size_t{64} << 10, GetParam());
  }
  for (int round = 0; round < 3; ++round)
    for (auto& f : fibers) f->resume();
  for (auto& f : fibers) EXPECT_TRUE(f->finished());
  EXPECT_EQ(order, (std::vector<int>{0, 10, 20, 1, 11, 21}));
}

INSTANTIATE_TEST_SUITE_P(Switching, Fiber,
                         ::testing::Values(fiber::switching::registers, fiber::switching::ucontext),
                         [](const auto& info) {
                           return info.param == fiber::switching::registers ? "Registers"
                                                                            : "Ucontext";
                         });

}  // namespace
