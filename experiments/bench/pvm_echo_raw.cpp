// pvm_echo_raw: echo peer of the ping-pong benchmark, written on raw libpvm3 calls so that it
// costs the same whichever side (raw or wrapper) is being measured. Sends every message back
// to its sender with the same tag until tag 99; gives up after 60 s without a message.
#include <pvm3.h>
#include <sys/time.h>

#include <cstdlib>
#include <cstring>

int main(int argc, char** argv) {
  pvm_setopt(PvmAutoErr, 0);
  if (pvm_mytid() < 0) return 1;
  bool direct = argc > 1 && std::strcmp(argv[1], "direct") == 0;
  if (pvm_setopt(PvmRoute, direct ? PvmRouteDirect : PvmDontRoute) < 0) return 1;
  if (argc > 2 && pvm_setopt(PvmFragSize, std::atoi(argv[2])) < 0) return 1;
  for (;;) {
    timeval tv{60, 0};
    int buf = pvm_trecv(-1, -1, &tv);
    if (buf <= 0) break;
    int bytes = 0, tag = 0, from = 0;
    if (pvm_bufinfo(buf, &bytes, &tag, &from) < 0 || tag == 99) break;
    if (pvm_setsbuf(buf) < 0 || pvm_send(from, tag) < 0) break;
    pvm_setsbuf(0);
  }
  pvm_exit();
  return 0;
}
