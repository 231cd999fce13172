// pvm_fixture.hpp: a private virtual machine per test process, halted (and checked to be gone)
// at the end. Every integration test binary that needs PVM registers this environment.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <optional>

#include "pvm/pvm.hpp"

namespace testing_support {

class private_vm_environment : public ::testing::Environment {
 public:
  void SetUp() override {
    pvm::private_vm_options opts;
    opts.notice = nullptr;
    vm_ = std::make_unique<pvm::private_vm>(opts);
    vmid_ = vm_->vmid();
  }
  void TearDown() override {
    const std::string address = vm_->address_file();
    vm_->halt();
    // The suite asserts that it leaves nothing behind: no pvmd, no task, no pvmd file.
    EXPECT_TRUE(pvm::processes_of_vm(vmid_).empty())
        << "processes of PVM_VMID=" << vmid_ << " still running";
    EXPECT_NE(::access(address.c_str(), F_OK), 0) << address << " left behind";
    vm_.reset();
  }
  const std::string& vmid() const { return vmid_; }

 private:
  std::unique_ptr<pvm::private_vm> vm_;
  std::string vmid_;
};

}  // namespace testing_support
