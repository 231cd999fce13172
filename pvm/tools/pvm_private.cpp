// pvm-private: run a command inside a private PVM virtual machine.
//
//   pvm-private [--vmid ID] [--hostfile FILE] [--timeout-ms N] [--quiet] -- COMMAND [ARG...]
//
// Starts a pvmd with a fresh PVM_VMID, runs COMMAND with PVM_VMID/PVM_ROOT (and PVM_ALLOW_ROOT
// as root) in its environment, and halts the pvmd when COMMAND ends or when this tool is
// interrupted. Exits with COMMAND's status (128+N if it died of signal N), 2 on usage errors and
// on a bad hostfile (a line that does not parse, a host named twice, a host that cannot be added).
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "pvm/private_vm.hpp"

namespace {

void usage(std::ostream& os) {
  os << "usage: pvm-private [--vmid ID] [--hostfile FILE] [--timeout-ms N] [--quiet] -- COMMAND "
        "[ARG...]\n"
        "Runs COMMAND inside a private PVM virtual machine (fresh PVM_VMID) and halts it "
        "afterwards.\n";
}

int parse_int(const std::string& opt, const std::string& v) {
  try {
    std::size_t used = 0;
    int n = std::stoi(v, &used);
    if (used == v.size() && n > 0) return n;
  } catch (...) {
  }
  std::cerr << "pvm-private: " << opt << " needs a positive integer, got '" << v << "'\n";
  std::exit(2);
}

// The options before "--" into opts and quiet; returns the index of COMMAND in argv. Exits 0 on
// --help and 2 on a usage error.
int parse_options(int argc, char** argv, pvm::private_vm_options& opts, bool& quiet) {
  int i = 1;
  for (; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](const char* name) -> std::string {
      if (i + 1 >= argc) {
        std::cerr << "pvm-private: " << name << " needs a value\n";
        usage(std::cerr);
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--") {
      ++i;
      break;
    } else if (a == "-h" || a == "--help") {
      usage(std::cout);
      std::exit(0);
    } else if (a == "--vmid") {
      opts.vmid = value("--vmid");
    } else if (a == "--hostfile") {
      opts.hostfile = value("--hostfile");
    } else if (a == "--timeout-ms") {
      opts.start_timeout = std::chrono::milliseconds(parse_int(a, value("--timeout-ms")));
    } else if (a == "--quiet") {
      quiet = true;
    } else {
      std::cerr << "pvm-private: unknown option '" << a << "'\n";
      usage(std::cerr);
      std::exit(2);
    }
  }
  if (i >= argc) {
    std::cerr << "pvm-private: no command given\n";
    usage(std::cerr);
    std::exit(2);
  }
  return i;
}

// Runs the command in a child with the forwarded signals unblocked, passes those signals on to
// it, and returns its exit status as a shell would (128+N for signal N).
int run_command(char** command, const sigset_t& forward) {
  pid_t child = fork();
  if (child < 0) {
    std::cerr << "pvm-private: fork: " << std::strerror(errno) << "\n";
    return 1;
  }
  if (child == 0) {
    sigprocmask(SIG_UNBLOCK, &forward, nullptr);
    execvp(command[0], command);
    std::cerr << "pvm-private: cannot run '" << command[0] << "': " << std::strerror(errno) << "\n";
    _exit(127);
  }
  int status = 0;
  for (;;) {
    int sig = 0;
    sigwait(&forward, &sig);
    if (sig == SIGCHLD) {
      pid_t r = waitpid(child, &status, WNOHANG);
      if (r == child) break;
      continue;  // the pvmd or another child changed state
    }
    kill(child, sig);  // forward, then keep waiting for the child to end
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  pvm::private_vm_options opts;
  bool quiet = false;
  const int command = parse_options(argc, argv, opts, quiet);
  if (quiet) opts.notice = nullptr;

  // Block the signals we forward until the child runs, then wait for them synchronously.
  sigset_t forward;
  sigemptyset(&forward);
  for (int s : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) sigaddset(&forward, s);
  sigaddset(&forward, SIGCHLD);
  sigprocmask(SIG_BLOCK, &forward, nullptr);

  try {
    pvm::private_vm vm(opts);
    if (!quiet)
      std::cerr << "pvm-private: PVM_VMID=" << vm.vmid() << " pvmd pid " << vm.pvmd_pid() << "\n";
    const int status = run_command(argv + command, forward);
    vm.halt();
    return status;
  } catch (const pvm::hostfile_error& e) {
    std::cerr << "pvm-private: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "pvm-private: " << e.what() << "\n";
    return 1;
  }
}
