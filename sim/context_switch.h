// Switching between simulated threads' stacks.
//
// Boost.Context's jump_fcontext also saves and restores the x87 and SSE control words on every
// switch; measured here that is 85% of a switch's cost, and simulated threads never change
// rounding modes. So on x86-64 a switch saves only the callee-saved integer registers (ten
// instructions, context_switch.cpp); elsewhere it is Boost's fcontext. Stacks always come from
// Boost.Context's protected stack allocator, so an overflow hits a guard page.
#pragma once

#include <boost/context/stack_context.hpp>

#include <cstddef>

#if defined(__SANITIZE_ADDRESS__)
#define SYNCSCOPE_ASAN_FIBERS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SYNCSCOPE_ASAN_FIBERS 1
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#define SYNCSCOPE_TSAN_FIBERS 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define SYNCSCOPE_TSAN_FIBERS 1
#endif
#endif
#if defined(SYNCSCOPE_ASAN_FIBERS)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif
#if defined(SYNCSCOPE_TSAN_FIBERS)
#include <sanitizer/tsan_interface.h>
#endif

namespace syncscope::sim {

using ThreadEntry = void (*)(void* arg);

// A suspended context is an opaque pointer (its saved stack pointer). Make one that will call
// entry(arg) on `stack` when first switched to; entry must never return.
void* make_context(const boost::context::stack_context& stack, ThreadEntry entry, void* arg);

// Saves the running context into *from and continues `to`. Returns when someone switches back.
#if defined(__x86_64__) && defined(__linux__) && !defined(SYNCSCOPE_PORTABLE_CONTEXT)
extern "C" void syncscope_switch_context(void** from_sp, void* to_sp);
inline void switch_context(void** from, void* to) { syncscope_switch_context(from, to); }
#else
void switch_context(void** from, void* to);
#endif

// ---- Telling the sanitizers about every switch ----
// AddressSanitizer checks accesses against the running stack's bounds and keeps a "fake stack" per
// stack; ThreadSanitizer keeps a clock per logical thread. Neither can see switch_context change
// stacks, so each switch is announced (compiled to nothing without a sanitizer).
struct FiberIdentity {
  const void* stack_bottom = nullptr;  // ASan: the lowest address of the stack switched to
  size_t stack_size = 0;
  void* tsan_fiber = nullptr;          // TSan: the switched-to context's fiber
};

// The calling OS thread's own stack and TSan fiber (the block runner's scheduler context).
FiberIdentity os_thread_fiber();
// A TSan fiber for a simulated thread (nullptr without TSan); destroy_fiber releases it.
void* create_fiber();
void destroy_fiber(void* fiber);

// Around every switch_context: `saved` lives in the leaving context's frame.
inline void before_switch(void** saved, const FiberIdentity& to) {
#if defined(SYNCSCOPE_ASAN_FIBERS)
  __sanitizer_start_switch_fiber(saved, to.stack_bottom, to.stack_size);
#else
  (void)saved;
#endif
#if defined(SYNCSCOPE_TSAN_FIBERS)
  __tsan_switch_to_fiber(to.tsan_fiber, 0);
#else
  (void)to;
#endif
}
inline void after_switch(void* saved) {
#if defined(SYNCSCOPE_ASAN_FIBERS)
  __sanitizer_finish_switch_fiber(saved, nullptr, nullptr);
#else
  (void)saved;
#endif
}
// A context is about to be made on `stack` again (a fiber restarted after its block failed, or a
// stack mapped where another was): frames left there without returning still have their red
// zones marked in ASan's shadow memory.
inline void stack_reused(const boost::context::stack_context& stack) {
#if defined(SYNCSCOPE_ASAN_FIBERS)
  ASAN_UNPOISON_MEMORY_REGION(static_cast<char*>(stack.sp) - stack.size, stack.size);
#else
  (void)stack;
#endif
}
// Execution came back up this stack by a jump (a fault or a preemption landing): the frames below
// the caller are gone without having returned, and ASan still marks their red zones.
#if defined(SYNCSCOPE_ASAN_FIBERS)
[[gnu::noinline]] inline void frames_below_abandoned(const boost::context::stack_context& stack) {
  char here;
  char* bottom = static_cast<char*>(stack.sp) - stack.size;
  if (&here > bottom && &here < static_cast<char*>(stack.sp)) ASAN_UNPOISON_MEMORY_REGION(bottom, &here - bottom);
}
#else
inline void frames_below_abandoned(const boost::context::stack_context&) {}
#endif
// The first code a new context runs (it was not switched from inside before_switch/after_switch).
inline void fiber_started() { after_switch(nullptr); }

}  // namespace syncscope::sim
