// Kernels loaded at run time (kernel files) are anybody's code: a fault in one (a null pointer
// outside the kernel API, a runaway recursion) must fail the simulation, not end the program.
// While a simulated thread runs its kernel, SIGSEGV, SIGBUS, SIGFPE and SIGILL return to the start
// of that thread's fiber (siglongjmp, on the fiber's own stack; the handler on an alternate stack)
// and the block fails with what happened. Elsewhere those signals keep their default action.
// Off until enable_fault_guard() (the kernel-file loader calls it), so built-in kernels and
// sanitizer builds see signals as usual.
#pragma once

#include <atomic>
#include <csetjmp>
#include <csignal>
#include <optional>
#include <cstdint>
#include <string>

#include "sim/code_address.h"

namespace syncscope::sim {

struct FaultLanding {
  sigjmp_buf where;
  int signal = 0;
  const void* address = nullptr;  // a fault's data address
  InterruptedCode code;           // the instruction a fault or a preemption interrupted, and its callers
  // A fault's stack from its stack pointer up: where the runner's code (built without frame
  // pointers) overflowed the stack, the recursion's return addresses are among these words.
  static constexpr int kStackWords = 128;
  uintptr_t stack_words[kStackWords] = {};
};

// What the handlers need of a simulated thread's fiber (sim/sim_thread.h holds one per thread).
struct GuardedFiber {
  FaultLanding* fault_landing = nullptr;  // while its kernel runs, where a fault returns to
  int runtime_depth = 0;                  // inside the simulator's own code: no preemption (RuntimeSection)
  uintptr_t stack_top = 0;                // its stack: [stack_top - stack_size, stack_top)
  size_t stack_size = 0;
};

// The block runner's "fiber running now" (nullptr: its scheduler) on this OS thread, set once per
// block run: the handler finds the running fiber's landing through it.
inline thread_local GuardedFiber* const* tls_running_fiber = nullptr;

// While a simulated thread is inside the simulator's own code (the API's out-of-line parts, the line
// table), the watchdog's preemption waits: that code may hold a lock or be halfway through an
// allocation; the signal comes again at the next scan. Each fiber counts its own depth
// (SimThread::runtime_depth, 0 while its kernel runs), so a context switch costs nothing extra; the
// signal fences keep the count where the code it guards is.
class RuntimeSection {
 public:
  explicit RuntimeSection(int* depth) : depth_(depth) {
    if (depth_) ++*depth_;
    std::atomic_signal_fence(std::memory_order_seq_cst);
  }
  ~RuntimeSection() {
    std::atomic_signal_fence(std::memory_order_seq_cst);
    if (depth_) --*depth_;
  }
  RuntimeSection(const RuntimeSection&) = delete;
  RuntimeSection& operator=(const RuntimeSection&) = delete;

 private:
  int* depth_;
};
// The running fiber's depth (nullptr outside a guarded block run), for code that does not know its
// runner.
int* running_fiber_runtime_depth();

void enable_fault_guard();
// Called for a fault outside any guarded kernel (the kernel worker reports it, then the signal
// takes its default action): `context` is the handler's ucontext.
using UnguardedFaultHook = void (*)(int signal, siginfo_t* info, void* context);
void set_unguarded_fault_hook(UnguardedFaultHook hook);
// The watchdog's signal leaves a guarded kernel the same way (sim/watchdog.h); the watchdog
// installs it before it sends one, with its test of whether it asked this OS thread to leave.
void install_preemption_handler(int signal, bool (*requested)());
// The landing was reached by the watchdog's preemption, not a fault; `code` is where it
// interrupted the kernel.
bool preempted(const FaultLanding& landing);
// Leaves the running kernel through its landing as a preemption would, at `pc` (for a thread the
// runtime itself found over its budget).
void set_preempted(FaultLanding& landing, uintptr_t pc);
bool fault_guard_enabled();
// An alternate signal stack for this OS thread (once), so a fiber's stack overflow can be caught.
void prepare_fault_stack();
// What a fault in thread `thread` was, in a student's words, with the kernel's line where the
// debug information has it: "stack overflow in T3 (recursion at k.h:32?)", "integer division by
// zero at k.h:32", "invalid memory access at 0x0 (a null pointer) at k.h:32".
std::string describe_fault(const FaultLanding& landing, int thread, uintptr_t stack_bottom);
// The kernel line that message names (a stack overflow: its recursion's call).
std::optional<CodeLine> line_of_fault(const FaultLanding& landing, uintptr_t stack_bottom);

}  // namespace syncscope::sim
