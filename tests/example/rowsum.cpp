// The README's loop with the typed API ("The library in one example"): the lines between
// the markers are the README's, word for word (ReadmeExample.SourceIsTheReadmes checks), and the
// program is built and run on both backends by tests/integration/readme_example_test.cpp, which
// checks the sum it prints against the sum of x computed independently.
#include <cstdint>
#include <iostream>
#include <numeric>
#include <string>
#include <vector>

#include "dlb/array.hpp"
#include "dlb/dlb.hpp"

// BEGIN README
int body(dlb::runtime& rt) {  // runs on the master and on every slave
  const std::int64_t n = 1000, m = 50;
  std::vector<double> x(n * m), y(n);  // full size; each task fills what it owns
  if (rt.master()) std::iota(x.begin(), x.end(), 0.0);
  dlb::array X("x", x, n, m, dlb::data_distribution::block);                   // rows move
  auto Y = dlb::array("y", y, n, 1, dlb::data_distribution::block).result();   // gathered
  dlb::loop_spec loop{n, [](std::int64_t i) { return 1e-3 * (1 + i % 10); }};  // cost of i, s
  auto stats = dlb::parallel_for(rt, loop, {&X, &Y}, [&](std::int64_t i) {
    for (std::int64_t j = 0; j < m; ++j) Y(i, 0) += X(i, j);
  });
  const double sum = std::accumulate(y.begin(), y.end(), 0.0);  // on the master: every y
  if (rt.master()) std::cout << stats.summary() << "\nsum " << std::to_string(sum) << "\n";
  return 0;
}
int main(int argc, char** argv) {
  return dlb::run_app(argc, argv, {"rowsum", "Row sums", {}, {}}, body);
}
// END README
