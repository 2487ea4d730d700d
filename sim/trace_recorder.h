// The observer that turns one block's event stream into its BlockTrace: events per step, and a
// snapshot of every shared array at each step's end.
#pragma once

#include "sim/event_observer.h"
#include "sim/trace.h"

namespace syncscope::sim {

class TraceRecorder final : public EventObserver {
 public:
  explicit TraceRecorder(BlockTrace& block) : block_(block) { block_.steps.emplace_back(); }

  void on_event(const Event& e) override { block_.steps.back().events.push_back(e); }
  void on_caption(const std::string& text) override { block_.steps.back().caption = text; }

  void on_step_end(LineId barrier, const std::deque<ArrayStore>& shared, int count) override {
    StepTrace& step = block_.steps.back();
    step.barrier = barrier;
    step.shared.clear();
    for (int k = 0; k < count; ++k) step.shared.push_back({shared[k].id, shared[k].bits, shared[k].poison});
    if (barrier != kNoLine) block_.steps.emplace_back();
  }

 private:
  BlockTrace& block_;
};

}  // namespace syncscope::sim
