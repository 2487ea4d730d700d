// Preempting a simulated thread that loops without ever calling the kernel API: it never reaches
// a budget check, so another OS thread has to stop it. A process-wide watchdog thread looks at every
// armed runner a few times a second; one past its deadline (or cancelled) by more than a grace
// period is sent a signal, and if its running fiber is inside a guarded kernel (a kernel file:
// sim/fault_guard.h) the handler leaves the kernel through the fiber's landing, as a fault would.
// The kernel's own code holds no locks and owns nothing (kernels are device code), so abandoning
// its stack is safe; a thread that is inside the simulator's runtime checks its budget itself long
// before the grace period ends.
#pragma once

#include <pthread.h>

#include <atomic>
#include <cstdint>
#include <mutex>

namespace syncscope::sim {

// Monotonic nanoseconds.
int64_t now_ns();

class WatchedRunner {
 public:
  WatchedRunner();   // registers with the watchdog
  ~WatchedRunner();  // unregisters (waits for a scan in progress)
  WatchedRunner(const WatchedRunner&) = delete;
  WatchedRunner& operator=(const WatchedRunner&) = delete;

  // The calling OS thread runs a block until `deadline_ns`; `cancel` (may be null) stops it early
  // and must outlive the next disarm().
  void arm(int64_t deadline_ns, const std::atomic<bool>* cancel);
  // Also as soon as the block fails: composing its message (addr2line, say) must not be interrupted.
  // Once it returns the watchdog no longer looks at this runner's cancel flag nor signals its thread.
  void disarm();
  // The watchdog asked this runner's thread to leave its kernel (the signal handler's test). False
  // once disarmed: a signal still on its way is then ignored.
  bool preempt_requested() const {
    return armed_.load(std::memory_order_acquire) && preempt_.load(std::memory_order_acquire);
  }

 private:
  friend class Watchdog;
  // Held by arm, disarm and the watchdog's look at this runner: a scan never reads a cancel flag
  // that the run which armed it has already freed.
  std::mutex arming_;
  std::atomic<bool> armed_{false};
  std::atomic<bool> preempt_{false};
  std::atomic<int64_t> deadline_ns_{0};
  std::atomic<const std::atomic<bool>*> cancel_{nullptr};
  std::atomic<int64_t> cancel_seen_ns_{0};  // when the watchdog first saw the cancel
  pthread_t thread_{};
};

// The runner whose block the calling OS thread is running (the signal handler's way to it).
inline thread_local const WatchedRunner* tls_watched_runner = nullptr;

// The signal the watchdog sends; the fault guard's handler takes it (sim/fault_guard.cpp).
int watchdog_signal();

}  // namespace syncscope::sim
