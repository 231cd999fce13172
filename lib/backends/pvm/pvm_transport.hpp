// pvm_transport.hpp: the transport over real PVM tasks (pvm/ wrapper). Rank r is tids[r];
// rank 0 is the master. Payloads travel as raw bytes in one pack. Task-exit notifications
// (pvm_notify) come out of receive() as envelopes with tag kTaskExitTag from the exited rank.
#pragma once

#include <vector>

#include "dlb/runtime/seam.hpp"
#include "pvm/session.hpp"

namespace dlb {

class pvm_transport final : public transport {
 public:
  pvm_transport(pvm::session& s, std::vector<pvm::tid> tids, int my_rank);
  int rank() const override { return rank_; }
  int size() const override { return static_cast<int>(tids_.size()); }
  void send(int to, int tag, const bytes& payload, std::size_t charged_bytes) override;
  void multicast(std::span<const int> to, int tag, const bytes& payload) override;
  std::optional<envelope> receive(std::chrono::microseconds bound) override;
  bool probe() override;
  std::string describe(int rank) const override;
  // Asks PVM to report the exit of these ranks.
  void watch(std::span<const int> ranks) override;
  void kill(int rank) noexcept override;
  void await_exit(std::span<const int> ranks) override;
  const std::vector<pvm::tid>& tids() const { return tids_; }

 private:
  int rank_of(pvm::tid t) const;
  pvm::session& s_;
  std::vector<pvm::tid> tids_;
  int rank_;
};

}  // namespace dlb
