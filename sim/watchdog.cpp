#include "sim/watchdog.h"

#include <signal.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include "sim/fault_guard.h"

namespace syncscope::sim {

int64_t now_ns() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

int watchdog_signal() { return SIGUSR2; }

// The process's one watchdog thread: started with the first runner, never stopped (it sleeps while
// no block runs).
class Watchdog {
 public:
  static Watchdog& instance() {
    static Watchdog* w = new Watchdog;  // leaked on purpose: runners may outlive static destructors
    return *w;
  }
  void add(WatchedRunner* r) {
    std::lock_guard lock(mutex_);
    runners_.push_back(r);
  }
  void remove(WatchedRunner* r) {
    std::lock_guard lock(mutex_);
    runners_.erase(std::remove(runners_.begin(), runners_.end(), r), runners_.end());
  }
 private:
  // A thread that calls the kernel API checks its own budget within milliseconds; only one that
  // has not done so this long after its deadline is preempted.
  static constexpr int64_t kGraceNs = 200'000'000;
  static constexpr auto kScanEvery = std::chrono::milliseconds(50);
  static constexpr auto kIdleScanEvery = std::chrono::milliseconds(100);

  Watchdog() {
    install_preemption_handler(watchdog_signal(), [] {
      const WatchedRunner* watched = tls_watched_runner;
      return watched && watched->preempt_requested();
    });
    std::thread([this] { loop(); }).detach();
  }

  void loop() {
    std::unique_lock lock(mutex_);
    for (;;) {
      const bool any_armed = std::any_of(runners_.begin(), runners_.end(), [](const WatchedRunner* r) {
        return r->armed_.load(std::memory_order_acquire);
      });
      wake_.wait_for(lock, any_armed ? kScanEvery : kIdleScanEvery);
      const int64_t now = now_ns();
      for (WatchedRunner* r : runners_) {
        std::lock_guard arming(r->arming_);
        if (!r->armed_.load(std::memory_order_acquire)) continue;
        bool overdue = now > r->deadline_ns_.load(std::memory_order_relaxed) + kGraceNs;
        const std::atomic<bool>* cancel = r->cancel_.load(std::memory_order_relaxed);
        if (cancel && cancel->load(std::memory_order_relaxed)) {
          int64_t seen = r->cancel_seen_ns_.load(std::memory_order_relaxed);
          if (seen == 0) r->cancel_seen_ns_.store(seen = now, std::memory_order_relaxed);
          overdue = overdue || now > seen + kGraceNs;
        }
        if (!overdue) continue;
        r->preempt_.store(true, std::memory_order_release);
        pthread_kill(r->thread_, watchdog_signal());  // again at every scan until the block ends
      }
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<WatchedRunner*> runners_;
};

WatchedRunner::WatchedRunner() { Watchdog::instance().add(this); }
WatchedRunner::~WatchedRunner() { Watchdog::instance().remove(this); }

void WatchedRunner::arm(int64_t deadline_ns, const std::atomic<bool>* cancel) {
  std::lock_guard arming(arming_);
  thread_ = pthread_self();
  preempt_.store(false, std::memory_order_relaxed);
  deadline_ns_.store(deadline_ns, std::memory_order_relaxed);
  cancel_.store(cancel, std::memory_order_relaxed);
  cancel_seen_ns_.store(0, std::memory_order_relaxed);
  tls_watched_runner = this;
  armed_.store(true, std::memory_order_release);
}

void WatchedRunner::disarm() {
  std::lock_guard arming(arming_);
  armed_.store(false, std::memory_order_release);
  preempt_.store(false, std::memory_order_release);
  if (tls_watched_runner == this) tls_watched_runner = nullptr;
}

}  // namespace syncscope::sim
