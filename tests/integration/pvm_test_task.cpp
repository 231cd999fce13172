// pvm_test_task: the task the pvm wrapper's integration tests spawn.
//   echo   forward every message back to the parent with the same tag until tag 99 arrives
//   hello  send (index from argv[2], own tid) to the parent with tag 10, then exit
//   sleep  wait (bounded: 30 s) for a message that never comes; killed by the test
// Every wait is bounded so that a lost parent never leaves this task running.
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <string>

#include "pvm/pvm.hpp"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: pvm_test_task echo|hello INDEX|sleep [direct]\n";
    return 2;
  }
  std::string mode = argv[1];
  try {
    pvm::session_options opts;
    if (argc > 2 && std::string(argv[argc - 1]) == "direct") opts.routing = pvm::route::direct;
    pvm::session s(opts);
    if (!s.parent()) {
      std::cerr << "pvm_test_task: must be spawned by a PVM task\n";
      return 2;
    }
    const pvm::tid parent = *s.parent();
    if (mode == "echo") {
      for (;;) {
        auto m = s.recv_for(std::chrono::seconds(30), parent);
        if (!m) return 3;
        if (m->tag().value == 99) return 0;
        s.forward(parent, m->tag(), *m);
      }
    } else if (mode == "hello") {
      int index = argc > 2 ? std::atoi(argv[2]) : -1;
      auto b = s.buffer();
      b.pack(index, s.self().value);
      s.send(parent, pvm::tag{10}, b);
      return 0;
    } else if (mode == "sleep") {
      auto m = s.recv_for(std::chrono::seconds(30), parent);
      return m ? 0 : 3;
    }
    std::cerr << "pvm_test_task: unknown mode '" << mode << "'\n";
    return 2;
  } catch (const pvm::error& e) {
    std::cerr << "pvm_test_task: " << e.what() << "\n";
    return 1;
  }
}
