// The repository stands on its own: a clone placed anywhere has what the tools read, and no
// tracked file names a place outside the clone (a folder beside the developers' checkout, a path
// of their machine), which a user's clone would not have.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "report/paper.hpp"

namespace fs = std::filesystem;

namespace {

const fs::path source_dir = DLB_SOURCE_DIR;

// The tracked files of the checkout (git ls-files), or nothing when it is not a git checkout.
std::vector<fs::path> tracked_files() {
  const std::string cmd = "git -C '" + source_dir.string() + "' ls-files -z 2>/dev/null";
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(cmd.c_str(), "r"), pclose);
  std::vector<fs::path> files;
  if (!pipe) return files;
  std::string name;
  for (int c; (c = std::fgetc(pipe.get())) != EOF;) {
    if (c == '\0') {
      files.emplace_back(name);
      name.clear();
    } else {
      name += static_cast<char>(c);
    }
  }
  return files;
}

// Does a relative path written in file `in` (a path of the repository) leave the repository?
// It is read from the file's own folder, as a link in a Markdown page or an #include would be.
bool escapes(const fs::path& in, const std::string& rel) {
  int depth = 0;
  for (const auto& part : in.parent_path()) {
    if (!part.empty()) ++depth;
  }
  for (const auto& part : fs::path(rel)) {
    if (part == "..") {
      if (--depth < 0) return true;
    } else if (part != "." && !part.empty()) {
      ++depth;
    }
  }
  return false;
}

// Every line of file `f` (read from `in`) that names a path outside the repository: the
// developers' shared folder, their workplace, or a relative path (at the start of a word) that
// climbs out of the repository from the file that holds it.
std::vector<std::string> outside_paths(const fs::path& f, std::istream& in) {
  // Written in two pieces, so that this file does not name them itself.
  static const std::regex named(R"(\.\./shared|/wor)"
                                R"(k/)");
  static const std::regex relative(R"((^|[\s"'`(=:,\[])((\.\./)+[A-Za-z0-9_.-]*))");
  std::vector<std::string> found;
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.find('\0') != std::string::npos) break;  // a binary file (PNG)
    const std::string where = f.string() + ":" + std::to_string(n) + ": " + line;
    if (std::regex_search(line, named)) {
      found.push_back(where);
      continue;
    }
    for (std::sregex_iterator m(line.begin(), line.end(), relative), end; m != end; ++m) {
      if (escapes(f, (*m)[2].str())) {
        found.push_back(where);
        break;
      }
    }
  }
  return found;
}

TEST(Repository, NoTrackedFileNamesAPathOutsideIt) {
  const auto files = tracked_files();
  if (files.empty()) GTEST_SKIP() << source_dir << " is not a git checkout";
  std::vector<std::string> found;
  for (const fs::path& f : files) {
    std::ifstream in(source_dir / f, std::ios::binary);
    for (auto& place : outside_paths(f, in)) found.push_back(std::move(place));
  }
  std::ostringstream shown;
  for (const auto& f : found) shown << "  " << f << "\n";
  EXPECT_TRUE(found.empty()) << "tracked files name paths outside the repository:\n" << shown.str();
}

// The check above catches what it should: a path into the developers' shared folder, a
// workplace path, a relative path that climbs out of the repository from its file; and not a
// path that climbs within it, an install-relative path or an ellipsis.
TEST(Repository, OutsidePathCheckFindsWhatItShould) {
  const auto count = [](const char* file, const std::string& text) {
    std::istringstream in(text);
    return outside_paths(file, in).size();
  };
  // The paths that must be found are assembled, so that this file does not contain them.
  const std::string up = "..";
  EXPECT_EQ(count("README.md", "see `" + up + "/shared/PVM-NOTES.md`\n"), 1u);
  EXPECT_EQ(count("lib/x.cpp", "// " + up + "/shared/seeds/000_...\n"), 1u);
  EXPECT_EQ(count("scripts/x",
                  "paper=${PAPER_DIR:-/wor"
                  "k/shared/paper}\n"),
            1u);
  EXPECT_EQ(count("README.md", "[notes](" + up + "/notes.md)\n"), 1u);
  EXPECT_EQ(count("lib/runtime/sim.cpp", "#include \"" + up + "/" + up + "/" + up + "/x.hpp\"\n"),
            1u);
  EXPECT_EQ(count("lib/runtime/sim.cpp", "// see ../../docs/simgrid-notes.md\n"), 0u);
  EXPECT_EQ(count("lib/runtime/sim.cpp", "#include \"../include/dlb/x.hpp\"\n"), 0u);
  EXPECT_EQ(count("lib/README.md", "<prefix>/lib/../share/dlb/network\n"), 0u);
  EXPECT_EQ(count("experiments/README.md", "--results .../results.csv\n"), 0u);
  EXPECT_EQ(count("docs/a.md", "line 1\nline 2 ../../x\n"), 1u);
}

// The paper's tables are in the repository, and the tools read them from there by default:
// 22 entries of Tables 1.1-1.3 and 28 rows of Table 1.4.
TEST(Repository, PaperTablesAreInTheSourceTree) {
  const fs::path dir = dlb::report::default_paper_dir;
  EXPECT_TRUE(fs::equivalent(dir, source_dir / "experiments" / "paper"));
  EXPECT_EQ(dlb::report::read_paper_nodlb(dir).size(), 22u);
  EXPECT_EQ(dlb::report::read_paper_best(dir).size(), 28u);
  EXPECT_TRUE(fs::is_regular_file(dir / "claims.md"));
  EXPECT_TRUE(fs::is_regular_file(dir / "network.csv"));
}

}  // namespace

namespace {

// A comment, string or character literal starting at src[i]: skipped (i left on its last
// character, its lines counted), true; false where none starts.
bool skip_comment_or_literal(const std::string& src, std::size_t& i, int& line) {
  const char c = src[i];
  if (c == '/' && i + 1 < src.size() && src[i + 1] == '/') {
    while (i < src.size() && src[i] != '\n') ++i;
    ++line;
    return true;
  }
  if (c == '/' && i + 1 < src.size() && src[i + 1] == '*') {
    for (i += 2; i + 1 < src.size() && !(src[i] == '*' && src[i + 1] == '/'); ++i)
      if (src[i] == '\n') ++line;
    ++i;
    return true;
  }
  if (c == '"' || c == '\'') {
    if (c == '"' && i > 0 && src[i - 1] == 'R') {  // a raw string R"(...)"
      const std::size_t close = src.find(")\"", i);
      for (; i < close && i < src.size(); ++i)
        if (src[i] == '\n') ++line;
      ++i;
      return true;
    }
    for (++i; i < src.size() && src[i] != c; ++i)
      if (src[i] == '\\') ++i;
    return true;
  }
  return false;
}

// The functions of a C++ source over `limit` lines, as "name:line: N lines". A function is a brace
// block opened outside any function (namespaces, classes and structs are containers) by a head
// with a parameter list: not a namespace, class, struct, enum or union, nor an initializer
// (`= {`). Comments, strings and character literals are skipped. A heuristic, enough for this
// tree's style (clang-format, one definition per head).
std::vector<std::string> long_functions(const std::string& name, const std::string& src,
                                        int limit) {
  std::vector<std::string> found;
  std::vector<bool> container;  // per open brace: a container (true) or inside a function
  std::string head;             // text since the last ; { or } outside functions
  int line = 1, start = 0, depth_in_function = 0;
  for (std::size_t i = 0; i < src.size(); ++i) {
    const char c = src[i];
    if (c == '\n') ++line;
    if (skip_comment_or_literal(src, i, line)) continue;
    if (depth_in_function > 0) {
      if (c == '{') ++depth_in_function;
      if (c == '}' && --depth_in_function == 0) {
        if (line - start + 1 > limit)
          found.push_back(name + ":" + std::to_string(start) + ": " +
                          std::to_string(line - start + 1) + " lines");
        head.clear();
      }
      continue;
    }
    if (c == '{') {
      static const std::regex kind(R"((^|\s)(namespace|class|struct|enum|union|extern)\b)");
      const bool is_container =
          std::regex_search(head, kind) && head.find('(') == std::string::npos;
      const bool is_function = head.find('(') != std::string::npos &&
                               head.find('=') == std::string::npos && !is_container;
      if (is_function) {
        depth_in_function = 1;
        start = line;
      } else {
        container.push_back(true);
      }
      head.clear();
      continue;
    }
    if (c == '}') {
      if (!container.empty()) container.pop_back();
      head.clear();
      continue;
    }
    if (c == ';') {
      head.clear();
      continue;
    }
    head += c;
  }
  return found;
}

// The scanner finds a long function where there is one, and only there.
TEST(Repository, LongFunctionScannerFindsWhatItShould) {
  std::string body;
  for (int k = 0; k < 61; ++k) body += "  x += " + std::to_string(k) + ";  // }\n";
  const std::string src = "namespace a {\nstruct s {\n  int f() {\n" + body +
                          "  }\n};\nconst int t[] = {1, 2};\nint g(int y) { return y; }\n"
                          "const char* u = \"{ { {\";\n}  // namespace a\n";
  const auto found = long_functions("x.cpp", src, 60);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0], "x.cpp:3: 63 lines");
  EXPECT_TRUE(long_functions("x.cpp", src, 63).empty());
}

// The functions over 60 lines of every C++ file under `dir`, and how many files were read.
std::pair<std::vector<std::string>, std::size_t> long_functions_under(const fs::path& dir) {
  std::vector<std::string> found;
  std::size_t files = 0;
  for (const auto& e : fs::recursive_directory_iterator(source_dir / dir)) {
    const auto ext = e.path().extension();
    if (!e.is_regular_file() || (ext != ".cpp" && ext != ".hpp")) continue;
    std::ifstream in(e.path());
    std::stringstream ss;
    ss << in.rdbuf();
    ++files;
    for (auto& f : long_functions(fs::relative(e.path(), source_dir).string(), ss.str(), 60))
      found.push_back(f);
  }
  return {found, files};
}

// No function in the library is over 60 lines (issue 35's bound; the design keeps routines short:
// a long one is a sign that a decision wants to be a function of values in the core).
TEST(Repository, NoFunctionInTheLibraryIsOverSixtyLines) {
  const auto [found, files] = long_functions_under("lib");
  EXPECT_GT(files, 50u);
  for (const auto& f : found) ADD_FAILURE() << f;
}

// Nor in the experiment tools (issue 43): a tool's main reads its options and calls functions.
TEST(Repository, NoFunctionInTheExperimentToolsIsOverSixtyLines) {
  const auto [found, files] = long_functions_under("experiments");
  EXPECT_GT(files, 40u);
  for (const auto& f : found) ADD_FAILURE() << f;
}

// Nor anywhere else in the tree: the applications, the plots, the PVM wrapper and the tests
// (their helpers and the test bodies alike: a long test is a table or a helper waiting to be
// named).
TEST(Repository, NoFunctionInTheAppsThePlotsThePvmWrapperOrTheTestsIsOverSixtyLines) {
  for (const char* dir : {"apps", "plots", "pvm", "tests"}) {
    const auto [found, files] = long_functions_under(dir);
    EXPECT_GT(files, 0u) << dir;
    for (const auto& f : found) ADD_FAILURE() << f;
  }
}

}  // namespace
