#include "sim/fault_guard.h"

#include <signal.h>
#include <ucontext.h>

#include <atomic>
#include <cstdio>
#include <mutex>
#include <vector>


namespace syncscope::sim {
namespace {

std::atomic<bool> enabled{false};
// The watchdog's signal and its test, as it installed them (install_preemption_handler).
std::atomic<int> preemption_signal{0};
std::atomic<bool (*)()> preemption_requested{nullptr};
constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};

void on_fault(int sig, siginfo_t* info, void*) {
  GuardedFiber* const running = tls_running_fiber ? *tls_running_fiber : nullptr;
  FaultLanding* landing = running ? running->fault_landing : nullptr;
  if (!landing) {  // not in a guarded kernel: what the signal would have done
    signal(sig, SIG_DFL);
    return;  // the instruction faults again, now with the default action
  }
  running->fault_landing = nullptr;
  landing->signal = sig;
  landing->address = info ? info->si_addr : nullptr;
  siglongjmp(landing->where, 1);
}

// Where the signal interrupted the thread: its instruction and stack pointer.
struct Interrupted {
  uintptr_t pc = 0, sp = 0;
};
Interrupted interrupted_at(void* context) {
  const auto& m = static_cast<ucontext_t*>(context)->uc_mcontext;
#if defined(__x86_64__)
  return {static_cast<uintptr_t>(m.gregs[REG_RIP]), static_cast<uintptr_t>(m.gregs[REG_RSP])};
#elif defined(__aarch64__)
  return {static_cast<uintptr_t>(m.pc), static_cast<uintptr_t>(m.sp)};
#else
  (void)m;
  return {};
#endif
}

// The watchdog's signal (sim/watchdog.h): leave the kernel only when the watchdog asked this
// thread to, a guarded kernel is running, and the interrupted code runs on that fiber's own stack
// (not halfway through a switch to it).
void on_preempt(int sig, siginfo_t*, void* context) {
  bool (*requested)() = preemption_requested.load(std::memory_order_relaxed);
  if (!requested || !requested()) return;
  GuardedFiber* const running = tls_running_fiber ? *tls_running_fiber : nullptr;
  FaultLanding* landing = running ? running->fault_landing : nullptr;
  if (!landing || running->runtime_depth > 0) return;
  const Interrupted at = interrupted_at(context);
  const uintptr_t top = running->stack_top;
  if (at.sp > top || at.sp < top - running->stack_size) return;
  running->fault_landing = nullptr;
  landing->signal = sig;
  landing->address = reinterpret_cast<const void*>(at.pc);
  siglongjmp(landing->where, 1);
}

}  // namespace

void install_preemption_handler(int sig, bool (*requested)()) {
  preemption_requested = requested;
  preemption_signal = sig;
  struct sigaction action {};
  action.sa_sigaction = on_preempt;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER | SA_RESTART;  // SA_NODEFER: see enable_fault_guard
  sigemptyset(&action.sa_mask);
  sigaction(sig, &action, nullptr);
}

void enable_fault_guard() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction action {};
    action.sa_sigaction = on_fault;
    // SA_NODEFER: the landing is left by siglongjmp without restoring the signal mask (the
    // fibers' sigsetjmp saves none: a system call per thread and block would cost too much), so
    // the signal must not stay blocked.
    action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    for (int sig : kSignals) sigaction(sig, &action, nullptr);
    enabled = true;
  });
}

bool fault_guard_enabled() { return enabled.load(std::memory_order_relaxed); }

void prepare_fault_stack() {
  thread_local bool prepared = false;
  if (prepared) return;
  prepared = true;
  // A sanitizer's runtime may have given this thread an alternate stack already (and frees it when
  // the thread ends): that one serves as well.
  stack_t current{};
  if (sigaltstack(nullptr, &current) == 0 && !(current.ss_flags & SS_DISABLE) && current.ss_size >= 32 * 1024) return;
  thread_local std::vector<char> stack;
  stack.resize(64 * 1024);
  stack_t alternate{};
  alternate.ss_sp = stack.data();
  alternate.ss_size = stack.size();
  sigaltstack(&alternate, nullptr);
}

bool preempted(const FaultLanding& landing) { return landing.signal != 0 && landing.signal == preemption_signal.load(); }

void set_preempted(FaultLanding& landing, const void* address) {
  landing.signal = preemption_signal.load();
  landing.address = address;
}

std::string describe_fault(const FaultLanding& landing) {
  const char* name = landing.signal == SIGSEGV ? "SIGSEGV (invalid memory access"
                     : landing.signal == SIGBUS ? "SIGBUS (bad memory access"
                     : landing.signal == SIGFPE ? "SIGFPE (arithmetic error, e.g. an integer division by zero"
                                                : "SIGILL (illegal instruction";
  char text[160];
  std::snprintf(text, sizeof text, "%s at 0x%zx)", name, reinterpret_cast<size_t>(landing.address));
  return text;
}

int* running_fiber_runtime_depth() {
  GuardedFiber* const running = tls_running_fiber ? *tls_running_fiber : nullptr;
  return running ? &running->runtime_depth : nullptr;
}

}  // namespace syncscope::sim
