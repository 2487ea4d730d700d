// Switching between simulated threads' stacks.
//
// Boost.Context's jump_fcontext also saves and restores the x87 and SSE control words on every
// switch; measured here that is 85% of a switch's cost, and simulated threads never change
// rounding modes. So on x86-64 a switch saves only the callee-saved integer registers (ten
// instructions, context_switch.cpp); elsewhere it is Boost's fcontext. Stacks always come from
// Boost.Context's protected stack allocator, so an overflow hits a guard page.
#pragma once

#include <boost/context/stack_context.hpp>

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

}  // namespace syncscope::sim
