#include "sim/context_switch.h"

#include <pthread.h>

#include <cstdint>

namespace syncscope::sim {

FiberIdentity os_thread_fiber() {
  FiberIdentity id;
#if defined(SYNCSCOPE_ASAN_FIBERS)
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    void* bottom = nullptr;
    size_t size = 0;
    pthread_attr_getstack(&attr, &bottom, &size);
    pthread_attr_destroy(&attr);
    id.stack_bottom = bottom;
    id.stack_size = size;
  }
#endif
#if defined(SYNCSCOPE_TSAN_FIBERS)
  id.tsan_fiber = __tsan_get_current_fiber();
#endif
  return id;
}

void* create_fiber() {
#if defined(SYNCSCOPE_TSAN_FIBERS)
  return __tsan_create_fiber(0);
#else
  return nullptr;
#endif
}

void destroy_fiber(void* fiber) {
#if defined(SYNCSCOPE_TSAN_FIBERS)
  if (fiber) __tsan_destroy_fiber(fiber);
#else
  (void)fiber;
#endif
}

}  // namespace syncscope::sim

#if defined(__x86_64__) && defined(__linux__) && !defined(SYNCSCOPE_PORTABLE_CONTEXT)

// void syncscope_switch_context(void** from_sp, void* to_sp)
// The resumed thread returns through an indirect jump, not `ret`: the thread being resumed waits
// at the previous barrier while the one leaving stands at the next, so the return-stack predictor
// is wrong on every switch; the indirect predictor learns the pattern (measured: 11 -> 4 ns).
// void syncscope_context_start()   -- first return address of a new context: r12 = arg, r13 = entry
asm(R"(
  .text
  .globl syncscope_switch_context
  .type syncscope_switch_context, @function
  .p2align 4
syncscope_switch_context:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  movq 48(%rsp), %rax
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  addq $8, %rsp
  jmpq *%rax
  .size syncscope_switch_context, .-syncscope_switch_context

  .globl syncscope_context_start
  .type syncscope_context_start, @function
  .p2align 4
syncscope_context_start:
  movq %r12, %rdi
  andq $-16, %rsp
  callq *%r13
  ud2
  .size syncscope_context_start, .-syncscope_context_start
  .section .note.GNU-stack, "", @progbits
  .text
)");

extern "C" void syncscope_context_start();

namespace syncscope::sim {

void* make_context(const boost::context::stack_context& stack, ThreadEntry entry, void* arg) {
  auto top = reinterpret_cast<uintptr_t>(stack.sp) & ~uintptr_t{15};
  auto* frame = reinterpret_cast<void**>(top - 8 * sizeof(void*));
  frame[0] = nullptr;                                            // r15
  frame[1] = nullptr;                                            // r14
  frame[2] = reinterpret_cast<void*>(entry);                     // r13
  frame[3] = arg;                                                // r12
  frame[4] = nullptr;                                            // rbx
  frame[5] = nullptr;                                            // rbp
  frame[6] = reinterpret_cast<void*>(&syncscope_context_start);  // return address
  frame[7] = nullptr;
  return frame;
}

}  // namespace syncscope::sim

#else

#include <boost/context/detail/fcontext.hpp>

#include <mutex>
#include <unordered_map>

namespace syncscope::sim {
namespace {

namespace fc = boost::context::detail;

struct Start {
  ThreadEntry entry;
  void* arg;
};

// Fresh contexts and what they run; consulted once per context, at its start.
std::mutex starts_mutex;
std::unordered_map<void*, Start> starts;

void start(fc::transfer_t t) {
  auto** slots = static_cast<void**>(t.data);  // {slot of the context that switched here, this context}
  *static_cast<void**>(slots[0]) = t.fctx;
  Start s;
  {
    std::lock_guard lock(starts_mutex);
    auto it = starts.find(slots[1]);
    s = it->second;
    starts.erase(it);
  }
  s.entry(s.arg);
}

}  // namespace

void* make_context(const boost::context::stack_context& stack, ThreadEntry entry, void* arg) {
  void* ctx = fc::make_fcontext(stack.sp, stack.size, &start);
  std::lock_guard lock(starts_mutex);
  starts[ctx] = {entry, arg};
  return ctx;
}

void switch_context(void** from, void* to) {
  void* data[2] = {from, to};
  fc::transfer_t t = fc::jump_fcontext(to, data);
  auto** slots = static_cast<void**>(t.data);
  *static_cast<void**>(slots[0]) = t.fctx;
}

}  // namespace syncscope::sim

#endif
