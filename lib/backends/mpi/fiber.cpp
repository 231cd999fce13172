// fiber.cpp: a function on its own stack, by turns with the thread that resumes it (fiber.hpp).
#include "fiber.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <stdexcept>
#include <system_error>
#include <utility>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#endif

namespace dlb::mpi_detail {

namespace {
// AddressSanitizer keeps its own idea of the stack in use: each switch is announced before
// (start) and confirmed after (finish), as its interface asks.
void start_switch([[maybe_unused]] void** fake, [[maybe_unused]] const void* bottom,
                  [[maybe_unused]] std::size_t size) {
#if defined(__SANITIZE_ADDRESS__)
  __sanitizer_start_switch_fiber(fake, bottom, size);
#endif
}
void finish_switch([[maybe_unused]] void* fake, [[maybe_unused]] const void** bottom,
                   [[maybe_unused]] std::size_t* size) {
#if defined(__SANITIZE_ADDRESS__)
  __sanitizer_finish_switch_fiber(fake, bottom, size);
#endif
}
}  // namespace

#if defined(__x86_64__)
// dlb_fiber_swap(save, load): pushes the registers a call preserves (rbx, rbp, r12-r15) and the
// SSE and x87 control words on the stack in use, stores its stack pointer in *save, takes `load`
// as the stack pointer and pops the same from there. dlb_fiber_start is where a new fiber's
// first swap returns to: it calls dlb_fiber_run with the fiber, which its stack holds for r12
// (and says, for debuggers and unwinders, that no frame lies beyond).
extern "C" {
__attribute__((visibility("hidden"))) void dlb_fiber_swap(void** save, void* load);
__attribute__((visibility("hidden"))) void dlb_fiber_start();
}
asm(R"(
  .text
  .globl dlb_fiber_swap
  .hidden dlb_fiber_swap
  .type dlb_fiber_swap,@function
dlb_fiber_swap:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  subq $8, %rsp
  stmxcsr (%rsp)
  fnstcw 4(%rsp)
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  ldmxcsr (%rsp)
  fldcw 4(%rsp)
  addq $8, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size dlb_fiber_swap,.-dlb_fiber_swap

  .globl dlb_fiber_start
  .hidden dlb_fiber_start
  .type dlb_fiber_start,@function
dlb_fiber_start:
  .cfi_startproc
  .cfi_undefined rip
  movq %r12, %rdi
  call dlb_fiber_run
  ud2
  .cfi_endproc
  .size dlb_fiber_start,.-dlb_fiber_start
)");
#endif

fiber::fiber(std::function<void()> body, std::size_t stack_bytes, switching how)
    : body_(std::move(body)), how_(how) {
  if (!body_) throw std::invalid_argument("fiber: no body");
  const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  map_bytes_ = (stack_bytes + page - 1) / page * page + page;
  map_ = mmap(nullptr, map_bytes_, PROT_READ | PROT_WRITE,
              MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (map_ == MAP_FAILED) throw std::system_error(errno, std::generic_category(), "fiber stack");
  mprotect(map_, page, PROT_NONE);  // an overflow faults instead of writing below the stack
  stack_ = static_cast<char*>(map_) + page;
  stack_bytes_ = map_bytes_ - page;
#if defined(__x86_64__)
  if (how_ == switching::registers) {
    // What dlb_fiber_swap pops, from the top of the stack down: the control words (their
    // defaults), r15..r12 (r12: this fiber), rbx, rbp, and the return to dlb_fiber_start, which
    // then finds the stack aligned to 16 bytes as a call expects.
    const auto top = reinterpret_cast<std::uintptr_t>(stack_ + stack_bytes_) & ~std::uintptr_t{15};
    auto* sp = reinterpret_cast<std::uint64_t*>(top - 80);
    sp[0] = 0x0000037f'00001f80;  // MXCSR 0x1f80, x87 control word 0x037f
    sp[1] = sp[2] = sp[3] = 0;
    sp[4] = reinterpret_cast<std::uintptr_t>(this);
    sp[5] = sp[6] = 0;
    sp[7] = reinterpret_cast<std::uintptr_t>(&dlb_fiber_start);
    self_sp_ = sp;
    return;
  }
#else
  if (how_ == switching::registers) how_ = switching::ucontext;
#endif
  getcontext(&self_);
  self_.uc_stack.ss_sp = stack_;
  self_.uc_stack.ss_size = stack_bytes_;
  self_.uc_link = nullptr;  // the body never returns through here: run() switches back
  const auto self = reinterpret_cast<std::uintptr_t>(this);
  makecontext(&self_, reinterpret_cast<void (*)()>(&fiber::entry), 2,
              static_cast<unsigned>(self >> 32), static_cast<unsigned>(self & 0xffffffffu));
}

fiber::~fiber() { munmap(map_, map_bytes_); }

void fiber::entry(unsigned hi, unsigned lo) {
  auto* f = reinterpret_cast<fiber*>((static_cast<std::uintptr_t>(hi) << 32) | lo);
  f->run();
}

void fiber::run() {
  arrived_from_caller();
  try {
    body_();
  } catch (...) {
    thrown_ = std::current_exception();
  }
  finished_ = true;
  leave(true);
}

void fiber::arrived_from_caller() { finish_switch(fake_stack_, &caller_bottom_, &caller_size_); }

void fiber::leave(bool for_good) {
  // A fiber that has ended frees its fake frames (null), one that yields keeps them.
  start_switch(for_good ? nullptr : &fake_stack_, caller_bottom_, caller_size_);
  switch_out();
  arrived_from_caller();
}

void fiber::resume() {
  if (finished_ || inside_) return;
  inside_ = true;
  void* caller_fake = nullptr;
  start_switch(&caller_fake, stack_, stack_bytes_);
  switch_in();
  finish_switch(caller_fake, nullptr, nullptr);
  inside_ = false;
  if (thrown_) std::rethrow_exception(std::exchange(thrown_, nullptr));
}

void fiber::switch_in() {
#if defined(__x86_64__)
  if (how_ == switching::registers) return dlb_fiber_swap(&caller_sp_, self_sp_);
#endif
  swapcontext(&caller_, &self_);
}

void fiber::switch_out() {
#if defined(__x86_64__)
  if (how_ == switching::registers) return dlb_fiber_swap(&self_sp_, caller_sp_);
#endif
  swapcontext(&self_, &caller_);
}

void fiber::yield() {
  if (!inside_) return;
  leave(false);
}

}  // namespace dlb::mpi_detail

#if defined(__x86_64__)
void dlb_fiber_run(void* f) { static_cast<dlb::mpi_detail::fiber*>(f)->run(); }
#endif
