// network.cpp: emulated network arrival times and the shared medium.
#include "dlb/runtime/network.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace dlb {

std::string to_string(network_kind k) {
  switch (k) {
    case network_kind::ethernet1996:
      return "ethernet1996";
    case network_kind::switched:
      return "switched";
    case network_kind::ideal:
      return "ideal";
  }
  return "?";
}

std::optional<network_kind> parse_network(const std::string& s) {
  if (s == "ethernet1996") return network_kind::ethernet1996;
  if (s == "switched") return network_kind::switched;
  if (s == "ideal") return network_kind::ideal;
  return std::nullopt;
}

shared_medium::shared_medium(const std::string& name, bool owner) : name_(name), owner_(owner) {
  static_assert(std::atomic<std::uint64_t>::is_always_lock_free);
  const std::string path = "/" + name;
  int fd = shm_open(path.c_str(), owner ? (O_RDWR | O_CREAT | O_EXCL) : O_RDWR, 0600);
  if (fd < 0) throw std::runtime_error("shared medium " + path + ": " + std::strerror(errno));
  if (owner && ftruncate(fd, 4096) != 0) {
    int e = errno;
    close(fd);
    shm_unlink(path.c_str());
    throw std::runtime_error("shared medium " + path + ": ftruncate: " + std::strerror(e));
  }
  void* p = mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close(fd);
  if (p == MAP_FAILED) {
    if (owner) shm_unlink(path.c_str());
    throw std::runtime_error("shared medium " + path + ": mmap: " + std::strerror(errno));
  }
  word_ = static_cast<std::atomic<std::uint64_t>*>(p);
  if (owner) word_->store(std::bit_cast<std::uint64_t>(0.0));
}

shared_medium::~shared_medium() {
  if (word_) munmap(word_, 4096);
  if (owner_) shm_unlink(("/" + name_).c_str());
}

double shared_medium::reserve(double ready, double duration) {
  std::uint64_t old = word_->load();
  for (;;) {
    const double start = std::max(ready, std::bit_cast<double>(old));
    const std::uint64_t next = std::bit_cast<std::uint64_t>(start + duration);
    if (word_->compare_exchange_weak(old, next)) return start;
  }
}

network_model::network_model(network_params params, std::shared_ptr<shared_medium> medium)
    : params_(params), medium_(std::move(medium)) {
  if (params_.send_overhead < 0 || params_.send_overhead > params_.latency) {
    throw std::invalid_argument("send overhead must be between 0 and the latency");
  }
  if (params_.kind == network_kind::ethernet1996 && !medium_ && !params_.carried_by_transport) {
    throw std::invalid_argument("the ethernet1996 network needs a shared medium");
  }
}

double network_model::arrival(double sent, std::size_t payload_bytes) {
  const double transmit = static_cast<double>(payload_bytes) / params_.bandwidth;
  switch (params_.kind) {
    case network_kind::ideal:
      return sent;
    case network_kind::switched: {
      const double start = std::max(sent, port_free_);
      port_free_ = start + transmit;
      return port_free_ + params_.latency - params_.send_overhead;
    }
    case network_kind::ethernet1996:
      return medium_->reserve(sent, transmit) + transmit + params_.latency - params_.send_overhead;
  }
  return sent;
}

}  // namespace dlb
