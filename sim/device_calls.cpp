// BlockRunner's device printf, assert and counting barrier (__syncthreads_count/_and/_or), the calls a
// translated .cu makes beyond the kernel contract.
#include <cstdio>
#include <string>

#include "sim/block_runner.h"
#include "sim/limits.h"

namespace syncscope::sim {

int BlockRunner::print(LineId line, const char* format, ...) {
  va_list args;
  va_start(args, format);
  const int n = vprint(line, format, args);
  va_end(args);
  return n;
}

int BlockRunner::simt_print(const SourceLocation& site, const char* format, ...) {
  va_list args;
  va_start(args, format);
  const int n = outside_kernel([&] { return vprint(LineTable::intern(site), format, args); });
  va_end(args);
  return n;
}

void BlockRunner::assert_failed(const char* file, unsigned line, const std::string& what) {
  const RuntimeSection runtime = in_runtime();
  tls_simt_kernel = nullptr;  // the unwinding below is the runtime's (outside_kernel's rule)
  const LineId at = LineTable::intern(file, line, "");
  count_operation(at);
  fail_in_thread(SimErrorKind::Kernel,
                 "thread " + std::to_string(current_) + " of block " + std::to_string(block_linear_) + ": " + what +
                     " at " + LineTable::describe(at) + " (on a GPU: device-side assert triggered)",
                 {at});
}

int BlockRunner::vprint(LineId line, const char* format, va_list args) {
  const RuntimeSection runtime = in_runtime();
  if (simt_) simt_park_before_operation();
  count_operation(line);
  va_list again;
  va_copy(again, args);
  char small[512];
  const int n = std::vsnprintf(small, sizeof small, format, args);
  std::string text;
  if (n >= static_cast<int>(sizeof small)) {
    text.resize(static_cast<size_t>(n));
    std::vsnprintf(text.data(), text.size() + 1, format, again);
  } else if (n > 0) {
    text.assign(small, static_cast<size_t>(n));
  }
  va_end(again);
  if (recording_)
    for (EventObserver* o : observers_) o->on_print(current_, line, text);
  // Held for stdout until the block's run stands; the launch as a whole keeps a GPU's printf buffer.
  const uint64_t held = launch_->printed_bytes.fetch_add(text.size(), std::memory_order_relaxed);
  if (held + text.size() > kMaxPrintedBytesPerLaunch) {
    launch_->printed_bytes.fetch_sub(text.size(), std::memory_order_relaxed);
    ++printed_dropped_;
  } else {
    printed_ += text;
  }
  if (switch_each_access_) yield();
  return n;
}

BlockRunner::Printed BlockRunner::take_printed() {
  Printed out{std::move(printed_), printed_dropped_};
  printed_.clear();
  printed_dropped_ = 0;
  return out;
}

void BlockRunner::discard_printed() {
  launch_->printed_bytes.fetch_sub(printed_.size(), std::memory_order_relaxed);
  printed_.clear();
  printed_dropped_ = 0;
}

int BlockRunner::simt_barrier_count(const SourceLocation& site, bool predicate) {
  return outside_kernel([&] { return barrier_count(LineTable::intern(site), predicate); });
}

}  // namespace syncscope::sim
