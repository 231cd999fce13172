// The experiment tools' file writing (experiments/sweep/safe_files.hpp, issue 55): an output
// replaces only a regular file, one process never writes one file twice, and a folder lock left
// by a killed holder is taken over and said so.
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "sweep/safe_files.hpp"

namespace fs = std::filesystem;

namespace {

class SafeFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "dlb_safe_files_XXXXXX").string();
    dir_ = ::mkdtemp(tmpl.data());
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::string slurp(const fs::path& p) const {
    std::ifstream in(p);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  fs::path dir_;
};

TEST_F(SafeFiles, AnOutputThatIsNotARegularFileIsRefusedAndKept) {
  ASSERT_EQ(::mkfifo((dir_ / "fifo").c_str(), 0644), 0);
  fs::create_directory(dir_ / "folder");
  fs::create_symlink("fifo", dir_ / "link_fifo");
  {
    const int s = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un a{};
    a.sun_family = AF_UNIX;
    const std::string p = (dir_ / "sock").string();
    ASSERT_LT(p.size(), sizeof a.sun_path);
    p.copy(a.sun_path, p.size());
    ASSERT_EQ(::bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
    ::close(s);
  }
  struct row {
    const char* name;
    const char* kind;  // what the message calls it
  };
  for (const row r :
       {row{"fifo", "a named pipe"}, row{"folder", "a directory"},
        row{"link_fifo", "a named pipe (FIFO) (through a symlink)"}, row{"sock", "a socket"}}) {
    const fs::path p = dir_ / r.name;
    EXPECT_NE(dlb::sweep::unreplaceable_output(p).find(r.kind), std::string::npos) << r.name;
    try {
      dlb::sweep::write_atomically(p, "text\n");
      ADD_FAILURE() << r.name << " was replaced";
    } catch (const dlb::sweep::input_error& e) {
      EXPECT_NE(std::string(e.what()).find(p.string()), std::string::npos) << e.what();
    }
    EXPECT_THROW(dlb::sweep::temporary_output(p), dlb::sweep::input_error) << r.name;
    EXPECT_FALSE(fs::is_regular_file(p)) << r.name;
  }
  EXPECT_TRUE(fs::is_fifo(dir_ / "fifo"));
  EXPECT_TRUE(fs::is_symlink(dir_ / "link_fifo"));
  // What may be replaced: a regular file, a new file, a symlink to nothing (its target made).
  fs::create_symlink("new_target", dir_ / "dangling");
  for (const char* ok : {"new", "dangling"})
    EXPECT_EQ(dlb::sweep::unreplaceable_output(dir_ / ok), "") << ok;
  dlb::sweep::write_atomically(dir_ / "dangling", "made\n");
  EXPECT_EQ(slurp(dir_ / "new_target"), "made\n");
  // Nothing but what was asked for is left in the folder (no temporary file).
  int entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir_)) ++entries;
  EXPECT_EQ(entries, 6);
}

TEST_F(SafeFiles, OneProcessNeverWritesOneFileTwiceUnlessItIsItsOwn) {
  dlb::sweep::write_atomically(dir_ / "a.md", "first\n");
  EXPECT_THROW(dlb::sweep::write_atomically(dir_ / "." / "a.md", "second\n"),
               dlb::sweep::input_error);
  fs::create_hard_link(dir_ / "a.md", dir_ / "hard.md");
  EXPECT_THROW(dlb::sweep::write_atomically(dir_ / "hard.md", "second\n"), dlb::sweep::input_error);
  EXPECT_EQ(slurp(dir_ / "a.md"), "first\n");
  // A results file its sweep widens is its own.
  dlb::sweep::write_atomically(dir_ / "results.csv", "a\n", true);
  dlb::sweep::write_atomically(dir_ / "results.csv", "a\nb\n", true);
  EXPECT_EQ(slurp(dir_ / "results.csv"), "a\nb\n");
}

TEST_F(SafeFiles, ALockLeftByAKilledHolderIsTakenOverAndSaidOnce) {
  // A pid that is no longer alive: a child that has exited and been reaped.
  const pid_t gone = ::fork();
  if (gone == 0) ::_exit(0);
  int status = 0;
  ::waitpid(gone, &status, 0);
  std::ofstream(dir_ / ".dlb_sweep.lock") << gone << "\n";
  {
    const dlb::sweep::folder_lock lock(dir_);
    EXPECT_EQ(lock.taken_over_from(), gone);
    EXPECT_EQ(slurp(dir_ / ".dlb_sweep.lock"), std::to_string(::getpid()) + "\n");
  }
  // Released in order: the file is empty, and the next holder takes over nothing.
  EXPECT_EQ(slurp(dir_ / ".dlb_sweep.lock"), "");
  const dlb::sweep::folder_lock again(dir_);
  EXPECT_EQ(again.taken_over_from(), 0);
}

}  // namespace
