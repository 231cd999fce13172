// fiber.hpp (internal): a function run on a stack of its own, by turns with the thread that
// resumes it: resume() runs it until it yields or ends, yield() (from inside) goes back to
// where resume() was called. No other thread is involved: where handing work to another thread
// and back costs two wake-ups of the scheduler, a switch here saves and restores the registers a
// call preserves, on x86-64 a few nanoseconds (elsewhere glibc's swapcontext, which also makes a
// system call for the signal mask: `switching` below chooses, and the unit test runs both).
//
// Rank 0 of a run whose master computes runs the master's part as one (mpi_port.hpp): the
// program's thread resumes it between its own iterations and while it waits.
//
// The switches are annotated for AddressSanitizer (make check), which otherwise takes the other
// stack's frames for overflows.
#pragma once

#include <ucontext.h>

#include <cstddef>
#include <exception>
#include <functional>

// The register switching's first entry into a new fiber (fiber.cpp).
extern "C" __attribute__((visibility("hidden"))) void dlb_fiber_run(void* f);

namespace dlb::mpi_detail {

class fiber {
 public:
  enum class switching {
    registers,  // the callee-saved registers and the stack pointer (x86-64 only)
    ucontext    // glibc's getcontext/makecontext/swapcontext, any architecture
  };
  static constexpr switching native_switching =
#if defined(__x86_64__)
      switching::registers;
#else
      switching::ucontext;
#endif
  // `body` must not be null; what it throws is kept and rethrown by the resume() it ends in.
  explicit fiber(std::function<void()> body, std::size_t stack_bytes = std::size_t{8} << 20,
                 switching how = native_switching);
  // A fiber destroyed before its body ended (a suspended body) leaves its frames unwound:
  // callers run it to its end first (mpi_port::serve_master).
  ~fiber();
  fiber(const fiber&) = delete;
  fiber& operator=(const fiber&) = delete;

  // From outside: run the body until it yields or ends. Nothing once it has ended.
  void resume();
  // From inside the body: back to the resume() that ran it.
  void yield();
  bool inside() const { return inside_; }
  bool finished() const { return finished_; }

 private:
  friend void ::dlb_fiber_run(void* f);
  static void entry(unsigned hi, unsigned lo);
  void run();  // the body, then back for good (called on the fiber's stack)
  void leave(bool for_good);
  void arrived_from_caller();
  void switch_in();
  void switch_out();
  std::function<void()> body_;
  std::exception_ptr thrown_;
  switching how_;
  ucontext_t caller_{};  // switching::ucontext
  ucontext_t self_{};
  void* caller_sp_ = nullptr;  // switching::registers: each side's saved stack pointer
  void* self_sp_ = nullptr;
  void* map_ = nullptr;  // the stack, a guard page below it
  std::size_t map_bytes_ = 0;
  char* stack_ = nullptr;
  std::size_t stack_bytes_ = 0;
  bool inside_ = false;
  bool finished_ = false;
  // AddressSanitizer's view of the switch (unused otherwise).
  void* fake_stack_ = nullptr;
  const void* caller_bottom_ = nullptr;
  std::size_t caller_size_ = 0;
};

}  // namespace dlb::mpi_detail
