// What sees a block's events as the runner produces them (the trace recorder, tests' probes).
#pragma once

#include <deque>
#include <string>
#include <string_view>

#include "sim/events.h"
#include "sim/memory.h"

namespace syncscope::sim {

// Sees every event of the blocks it is attached to, in schedule order.
class EventObserver {
 public:
  virtual ~EventObserver() = default;
  virtual void on_event(const Event& e) = 0;
  // The block passed a barrier (barrier == line) or finished (barrier == kNoLine); the first
  // `count` entries of `shared` are the block's shared arrays as they are now.
  virtual void on_step_end(LineId barrier, const std::deque<ArrayStore>& shared, int count) = 0;
  // The kernel's caption for the current step (its first in the step).
  virtual void on_caption(const std::string& text) { (void)text; }
  // Thread `thread` printed `text` (one device printf call, whole) at `line`.
  virtual void on_print(int thread, LineId line, std::string_view text) { (void)thread, (void)line, (void)text; }
};

}  // namespace syncscope::sim
