// gnuplot string literals (plots/figure.hpp): what a label may contain never reaches a shell.
#include <gtest/gtest.h>

#include "figure.hpp"

namespace {

TEST(GnuplotQuote, EscapesQuotesAndBackslashes) {
  EXPECT_EQ(dlb::plots::gp_quote("a \"b\" c\\d"), "\"a \\\"b\\\" c\\\\d\"");
  EXPECT_EQ(dlb::plots::gp_quote("two\nlines"), "\"two\\nlines\"");
}

TEST(GnuplotQuote, ABackquoteIsNotACommand) {
  // gnuplot substitutes `cmd` by its output even inside a string; a configuration label such as
  // "synthetic `--shape uniform`" once ran "--shape uniform" through sh.
  const auto q = dlb::plots::gp_quote("synthetic `--shape uniform` ml=5");
  EXPECT_EQ(q.find('`'), std::string::npos) << q;
  EXPECT_EQ(q, "\"synthetic '--shape uniform' ml=5\"");
}

}  // namespace
