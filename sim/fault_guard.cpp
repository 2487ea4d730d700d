#include "sim/fault_guard.h"

#include "sim/code_address.h"

#include <signal.h>
#include <ucontext.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <mutex>
#include <optional>
#include <string>
#include <vector>


namespace syncscope::sim {
namespace {

std::atomic<bool> enabled{false};
// The watchdog's signal and its test, as it installed them (install_preemption_handler).
std::atomic<int> preemption_signal{0};
std::atomic<bool (*)()> preemption_requested{nullptr};
constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};

std::atomic<UnguardedFaultHook> unguarded_hook{nullptr};
std::atomic<uintptr_t> page_size{0};  // read once, outside the handler

// Where the signal interrupted the thread: its instruction, stack and frame pointers.
struct Interrupted {
  uintptr_t pc = 0, sp = 0, fp = 0;
};
Interrupted interrupted_at(void* context);

// The interrupted instruction and the return addresses up its frame-pointer chain, read only
// inside the fiber's own stack (a build without frame pointers leaves a register there that is no
// chain: the walk stops at the first link outside the stack or not above the one before).
InterruptedCode interrupted_code(const Interrupted& at, const GuardedFiber& fiber) {
  InterruptedCode code;
  code.pc = at.pc;
  const uintptr_t bottom = fiber.stack_top - fiber.stack_size;
  uintptr_t fp = at.fp;
  for (int k = 0; k < InterruptedCode::kCallers; ++k) {
    if (fp < bottom || fp + 2 * sizeof(uintptr_t) > fiber.stack_top || fp % sizeof(uintptr_t) != 0) break;
    const auto* frame = reinterpret_cast<const uintptr_t*>(fp);
    code.return_addresses[k] = frame[1];
    if (frame[0] <= fp) break;
    fp = frame[0];
  }
  return code;
}

// The stack's lowest page is its guard page (Boost.Context's protected stack counts it in the
// size): reading starts above it, where an overflow's stack pointer may already be. Not under
// AddressSanitizer: the words between frames are its red zones, and reading them is the point.
__attribute__((no_sanitize_address, noinline)) void copy_stack_words(const Interrupted& at, const GuardedFiber& fiber, FaultLanding& landing) {
  const uintptr_t bottom = fiber.stack_top - fiber.stack_size + page_size.load(std::memory_order_relaxed);
  uintptr_t word = std::max(at.sp, bottom) & ~uintptr_t{sizeof(uintptr_t) - 1};
  for (int k = 0; k < FaultLanding::kStackWords; ++k, word += sizeof(uintptr_t)) {
    if (word + sizeof(uintptr_t) > fiber.stack_top) break;
    landing.stack_words[k] = *reinterpret_cast<const uintptr_t*>(word);
  }
}

void on_fault(int sig, siginfo_t* info, void* context) {
  GuardedFiber* const running = tls_running_fiber ? *tls_running_fiber : nullptr;
  FaultLanding* landing = running ? running->fault_landing : nullptr;
  if (!landing) {  // not in a guarded kernel: what the signal would have done
    if (UnguardedFaultHook hook = unguarded_hook.load()) hook(sig, info, context);
    signal(sig, SIG_DFL);
    return;  // the instruction faults again, now with the default action
  }
  running->fault_landing = nullptr;
  landing->signal = sig;
  landing->address = info ? info->si_addr : nullptr;
  const Interrupted at = interrupted_at(context);
  landing->code = interrupted_code(at, *running);
  copy_stack_words(at, *running, *landing);
  siglongjmp(landing->where, 1);
}

Interrupted interrupted_at(void* context) {
  const auto& m = static_cast<ucontext_t*>(context)->uc_mcontext;
#if defined(__x86_64__)
  return {static_cast<uintptr_t>(m.gregs[REG_RIP]), static_cast<uintptr_t>(m.gregs[REG_RSP]),
          static_cast<uintptr_t>(m.gregs[REG_RBP])};
#elif defined(__aarch64__)
  return {static_cast<uintptr_t>(m.pc), static_cast<uintptr_t>(m.sp), static_cast<uintptr_t>(m.regs[29])};
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
  landing->address = nullptr;
  landing->code = interrupted_code(at, *running);
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
    page_size = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
    for (int sig : kSignals) sigaction(sig, &action, nullptr);
    enabled = true;
  });
}

void set_unguarded_fault_hook(UnguardedFaultHook hook) { unguarded_hook = hook; }

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

void set_preempted(FaultLanding& landing, uintptr_t pc) {
  landing.signal = preemption_signal.load();
  landing.address = nullptr;
  landing.code = InterruptedCode{pc};
}

namespace {

// The fibers' stacks end in a guard page (sim/context_switch.h): a fault there is the stack running
// out.
bool stack_overflow(const FaultLanding& landing, uintptr_t stack_bottom) {
  constexpr uintptr_t kNear = 64 * 1024;
  const auto address = reinterpret_cast<uintptr_t>(landing.address);
  return landing.signal == SIGSEGV && stack_bottom != 0 && address + kNear >= stack_bottom &&
         address < stack_bottom + kNear;
}

}  // namespace

std::optional<CodeLine> line_of_fault(const FaultLanding& landing, uintptr_t stack_bottom) {
  // An overflow's instruction is wherever the stack happened to cross its guard page (a store in
  // the function's frame, the call's push): the recursion is the call that came back to it, the
  // first kernel line among the return addresses.
  std::optional<CodeLine> line;
  if (stack_overflow(landing, stack_bottom)) {
    line = kernel_line_among_returns(landing.code.return_addresses, InterruptedCode::kCallers);
    if (!line) line = kernel_line_among_returns(landing.stack_words, FaultLanding::kStackWords);
  }
  return line ? line : line_of_interrupted_code(landing.code);
}

std::string describe_fault(const FaultLanding& landing, int thread, uintptr_t stack_bottom) {
  const auto address = reinterpret_cast<uintptr_t>(landing.address);
  char hex[32];
  std::snprintf(hex, sizeof hex, "0x%zx", static_cast<size_t>(address));
  const bool overflow = stack_overflow(landing, stack_bottom);
  const std::optional<CodeLine> line = line_of_fault(landing, stack_bottom);
  const std::string at = line ? " at " + line->text() : "";
  if (overflow) return "stack overflow in T" + std::to_string(thread) + " (recursion" + at + "?)";
  switch (landing.signal) {
    case SIGFPE: return "integer division by zero" + at + " (SIGFPE)";
    case SIGILL: return "illegal instruction" + at + " (SIGILL: a function that returns no value, or code the compiler "
                        "proved unreachable?)";
    case SIGBUS: return "bad memory access at " + std::string(hex) + at + " (SIGBUS)";
    default:
      return "invalid memory access at " + std::string(hex) + (address < 4096 ? " (a null pointer)" : "") + at +
             " (SIGSEGV: a pointer or index outside the kernel API?)";
  }
}

int* running_fiber_runtime_depth() {
  GuardedFiber* const running = tls_running_fiber ? *tls_running_fiber : nullptr;
  return running ? &running->runtime_depth : nullptr;
}

}  // namespace syncscope::sim
