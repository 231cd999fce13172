// The README's typed example (tests/example/rowsum.cpp) is the README's text, compiles, and runs
// verified on both backends: the sum of the gathered row sums equals the sum of x, computed here.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>

#include "run_process.hpp"

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The text between "// BEGIN README\n" and "// END README" of the example.
std::string example_block() {
  const std::string src = read_file(DLB_SOURCE_DIR "/tests/example/rowsum.cpp");
  const std::string begin = "// BEGIN README\n";
  const auto b = src.find(begin);
  const auto e = src.find("// END README");
  if (b == std::string::npos || e == std::string::npos) return {};
  return src.substr(b + begin.size(), e - b - begin.size());
}

TEST(ReadmeExample, SourceIsTheReadmes) {
  const std::string block = example_block();
  ASSERT_FALSE(block.empty());
  const std::string readme = read_file(DLB_SOURCE_DIR "/README.md");
  EXPECT_NE(readme.find("```cpp\n" + block + "```\n"), std::string::npos)
      << "README.md does not hold tests/example/rowsum.cpp's block word for word:\n"
      << block;
  // The loop itself (the function `body`, up to its closing brace) stays short.
  const std::string loop = block.substr(0, block.find("\n}\n") + 3);
  int lines = 0;
  for (char c : loop) lines += c == '\n';
  EXPECT_LE(lines, 15) << "the README's loop should stay short:\n" << loop;
}

// docs/library.md's embedding example is tests/install/embed/docs_example.cpp's block, word for
// word (that file is built against the installed library and run by install_embed_mpi).
TEST(DocsExample, EmbeddingExampleIsTheDocs) {
  const std::string src = read_file(DLB_SOURCE_DIR "/tests/install/embed/docs_example.cpp");
  const std::string begin = "// BEGIN DOCS\n";
  const auto b = src.find(begin);
  const auto e = src.find("// END DOCS");
  ASSERT_NE(b, std::string::npos);
  ASSERT_NE(e, std::string::npos);
  const std::string block = src.substr(b + begin.size(), e - b - begin.size());
  const std::string docs = read_file(DLB_SOURCE_DIR "/docs/library.md");
  EXPECT_NE(docs.find("```cpp\n" + block + "```\n"), std::string::npos)
      << "docs/library.md does not hold tests/install/embed/docs_example.cpp's block word for "
         "word:\n"
      << block;
}

class ReadmeExampleRun : public testing::TestWithParam<const char*> {};

TEST_P(ReadmeExampleRun, PrintsTheSumOfX) {
  const auto r = testing_support::run_process({ROWSUM_BIN, "--backend", GetParam(), "--procs", "4",
                                               "--strategy", "GDDLB", "--timeout", "60"},
                                              120.0);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto at = r.out.find("\nsum ");
  ASSERT_NE(at, std::string::npos) << r.out;
  const double sum = std::stod(r.out.substr(at + 5));
  const std::int64_t elements = std::int64_t{1000} * 50;  // n * m of the example
  const std::int64_t expected = elements * (elements - 1) / 2;
  EXPECT_EQ(sum, static_cast<double>(expected));
}

INSTANTIATE_TEST_SUITE_P(Backends, ReadmeExampleRun, testing::Values("sim", "pvm"));

}  // namespace
