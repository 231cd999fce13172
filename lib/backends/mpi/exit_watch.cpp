// exit_watch.cpp: the exit notices of an MPI run over plain TCP connections (exit_watch.hpp).
#include "exit_watch.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include "dlb/runtime/messenger.hpp"

namespace dlb::mpi_detail {

namespace {

using steady = std::chrono::steady_clock;

int ms_left(steady::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - steady::now());
  return static_cast<int>(std::max<std::int64_t>(0, left.count()));
}

// Every IPv4 address of this host's interfaces, the loopback last (a slave on another host
// reaches one of the others).
std::vector<std::string> own_addresses() {
  std::vector<std::string> out, loop;
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) != 0) return {"127.0.0.1"};
  for (ifaddrs* a = list; a; a = a->ifa_next) {
    if (!a->ifa_addr || a->ifa_addr->sa_family != AF_INET) continue;
    char text[INET_ADDRSTRLEN] = {};
    const auto* in = reinterpret_cast<const sockaddr_in*>(a->ifa_addr);
    inet_ntop(AF_INET, &in->sin_addr, text, sizeof text);
    (std::string(text).rfind("127.", 0) == 0 ? loop : out).push_back(text);
  }
  freeifaddrs(list);
  out.insert(out.end(), loop.begin(), loop.end());
  if (out.empty()) out.push_back("127.0.0.1");
  return out;
}

// Connects to addr:port within `ms`; -1 if it cannot.
int connect_to(const std::string& addr, int port, int ms) {
  sockaddr_in sa{};
  sa.sin_family = AF_INET;
  sa.sin_port = htons(static_cast<std::uint16_t>(port));
  if (inet_pton(AF_INET, addr.c_str(), &sa.sin_addr) != 1) return -1;
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) return -1;
  if (::connect(fd, reinterpret_cast<sockaddr*>(&sa), sizeof sa) != 0 && errno != EINPROGRESS) {
    ::close(fd);
    return -1;
  }
  pollfd p{fd, POLLOUT, 0};
  int err = 0;
  socklen_t len = sizeof err;
  if (poll(&p, 1, ms) != 1 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0 || err != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

bool read_all(int fd, void* into, std::size_t n, steady::time_point deadline) {
  auto* p = static_cast<char*>(into);
  while (n > 0) {
    pollfd pf{fd, POLLIN, 0};
    if (poll(&pf, 1, ms_left(deadline)) != 1) return false;
    const ssize_t got = ::read(fd, p, n);
    if (got <= 0 && !(got < 0 && (errno == EAGAIN || errno == EINTR))) return false;
    if (got > 0) {
      p += got;
      n -= static_cast<std::size_t>(got);
    }
  }
  return true;
}

}  // namespace

exit_watch::~exit_watch() { close_all(); }

std::string exit_watch::listen() {
  listener_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in sa{};
  sa.sin_family = AF_INET;
  sa.sin_addr.s_addr = htonl(INADDR_ANY);
  socklen_t len = sizeof sa;
  if (listener_ < 0 || bind(listener_, reinterpret_cast<sockaddr*>(&sa), sizeof sa) != 0 ||
      ::listen(listener_, 128) != 0 ||
      getsockname(listener_, reinterpret_cast<sockaddr*>(&sa), &len) != 0)
    throw run_error(std::string("the master cannot listen for its slaves' exit notices: ") +
                    std::strerror(errno));
  std::ostringstream os;
  const auto addrs = own_addresses();
  addresses_.assign(1, addrs.front());
  for (std::size_t i = 0; i < addrs.size(); ++i) os << (i ? "," : "") << addrs[i];
  os << ":" << ntohs(sa.sin_port);
  return os.str();
}

void exit_watch::accept_slaves(int slaves, std::chrono::milliseconds bound) {
  const auto deadline = steady::now() + bound;
  while (static_cast<int>(peers_.size()) < slaves) {
    pollfd p{listener_, POLLIN, 0};
    if (poll(&p, 1, ms_left(deadline)) != 1)
      throw run_error("only " + std::to_string(peers_.size()) + " of " + std::to_string(slaves) +
                      " slaves reached the master's exit watch (TCP) within " +
                      std::to_string(bound.count()) + " ms");
    sockaddr_in from{};
    socklen_t from_len = sizeof from;
    const int fd = accept4(listener_, reinterpret_cast<sockaddr*>(&from), &from_len, SOCK_CLOEXEC);
    if (fd < 0) continue;
    std::int32_t rank = -1;
    if (!read_all(fd, &rank, sizeof rank, deadline) || rank < 1 || rank > slaves) {
      ::close(fd);
      continue;
    }
    peers_.emplace_back(rank, fd);
    char text[INET_ADDRSTRLEN] = {};
    inet_ntop(AF_INET, &from.sin_addr, text, sizeof text);
    addresses_.resize(std::max<std::size_t>(addresses_.size(), static_cast<std::size_t>(rank) + 1));
    addresses_[static_cast<std::size_t>(rank)] = text;
  }
  ::close(listener_);
  listener_ = -1;
}

void exit_watch::connect(const std::string& where, int rank, std::chrono::milliseconds bound) {
  const auto colon = where.rfind(':');
  const int port = std::atoi(where.c_str() + colon + 1);
  const auto deadline = steady::now() + bound;
  std::istringstream addrs(where.substr(0, colon));
  for (std::string a; std::getline(addrs, a, ',');) {
    const int fd = connect_to(a, port, std::min(ms_left(deadline), 2000));
    if (fd < 0) continue;
    const std::int32_t r = rank;
    if (::write(fd, &r, sizeof r) == static_cast<ssize_t>(sizeof r)) {
      peers_.emplace_back(0, fd);
      return;
    }
    ::close(fd);
  }
  throw run_error("slave " + std::to_string(rank) + " (MPI rank " + std::to_string(rank) +
                  ") cannot reach the master's exit watch at " + where +
                  " (TCP; every host must reach the master's)");
}

std::optional<int> exit_watch::exited() {
  for (auto& [rank, fd] : peers_) {
    if (fd < 0) continue;
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, 0) != 1) continue;
    char c = 0;
    const ssize_t got = ::recv(fd, &c, 1, MSG_DONTWAIT);
    if (got < 0 && (errno == EAGAIN || errno == EINTR)) continue;
    ::close(fd);  // end-of-file or a reset: the peer is gone (it never writes after its rank)
    fd = -1;
    return rank;
  }
  return std::nullopt;
}

void exit_watch::close_all() noexcept {
  for (auto& [rank, fd] : peers_) {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
  if (listener_ >= 0) ::close(listener_);
  listener_ = -1;
}

}  // namespace dlb::mpi_detail
