// myloop: a program written outside the DLB source tree against the installed library only
// (its headers, libdlb.so, dlb.pc or find_package(DLB)); tests/install/run_install_test.sh
// copies it to a temporary directory, builds it there and runs it under both backends.
//
// y[i] = sqrt(x[i]) + i over a loop whose iterations cost different amounts (1 to 8 base
// milliseconds, growing with i), balanced by the strategy of --strategy. The master checks every
// y[i] against a sequential computation and exits 1 if one is wrong.
#include <cmath>
#include <cstdint>
#include <iostream>
#include <vector>

#include "dlb/dlb.hpp"

namespace {

constexpr std::int64_t kIterations = 2000;

double f(double x, std::int64_t i) { return std::sqrt(x) + static_cast<double>(i); }

int body(dlb::runtime& rt) {  // runs on the master and on every slave
  const auto n = static_cast<std::size_t>(kIterations);
  std::vector<double> x(n), y(n, 0.0);
  if (rt.master()) {
    for (std::size_t i = 0; i < n; ++i) x[i] = 3.0 * static_cast<double>(i) + 1.0;
  }
  auto X = dlb::DLB_array::of("x", x.data(), kIterations, 1, dlb::data_distribution::block);
  auto Y = dlb::DLB_array::of("y", y.data(), kIterations, 1, dlb::data_distribution::block);
  Y.input = false;  // y is a result: gathered, not scattered
  Y.output = true;
  dlb::loop_spec loop{kIterations, [](std::int64_t i) {
                        return 1e-3 * (1.0 + 7.0 * static_cast<double>(i) / kIterations);
                      }};
  const auto stats = dlb::parallel_for(rt, loop, {&X, &Y}, [&](std::int64_t i) {
    y[static_cast<std::size_t>(i)] = f(x[static_cast<std::size_t>(i)], i);
  });
  if (!rt.master()) return 0;
  std::int64_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (y[i] != f(x[i], static_cast<std::int64_t>(i))) ++wrong;
  }
  std::cout << stats.summary() << "\n";
  std::cout << "chosen=" << dlb::core::to_string(stats.chosen) << " wrong=" << wrong << "\n";
  std::cout << (wrong == 0 ? "Verification = SUCCESSFUL" : "Verification = FAILED") << "\n";
  return wrong == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  return dlb::run_app(
      argc, argv, {"myloop", "A loop of uneven iterations, built outside the DLB tree.", {}, {}},
      body);
}
