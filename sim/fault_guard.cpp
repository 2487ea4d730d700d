#include "sim/fault_guard.h"

#include <signal.h>

#include <atomic>
#include <cstdio>
#include <mutex>
#include <vector>

#include "sim/sim_thread.h"

namespace syncscope::sim {
namespace {

std::atomic<bool> enabled{false};
constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};

void on_fault(int sig, siginfo_t* info, void*) {
  SimThread* const running = tls_running_fiber ? *tls_running_fiber : nullptr;
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

}  // namespace

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
  thread_local std::vector<char> stack;
  if (!stack.empty()) return;
  stack.resize(64 * 1024);
  stack_t alternate{};
  alternate.ss_sp = stack.data();
  alternate.ss_size = stack.size();
  sigaltstack(&alternate, nullptr);
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

}  // namespace syncscope::sim
