// The observer that turns one block's event stream into its BlockTrace: events per step, and a
// snapshot of every shared array at each step's end.
#pragma once

#include "sim/event_observer.h"
#include "sim/limits.h"
#include "sim/trace.h"

namespace syncscope::sim {

class TraceRecorder final : public EventObserver {
 public:
  explicit TraceRecorder(BlockTrace& block) : block_(block) { block_.steps.emplace_back(); }

  void on_event(const Event& e) override { block_.steps.back().events.push_back(e); }
  void on_caption(const std::string& text) override { block_.steps.back().caption = text; }

  // Kept within sim/limits.h's caps: a kernel printing from every thread of every step must not
  // make the trace as large as its output. What is left out is counted in the step.
  void on_print(int thread, LineId line, std::string_view text) override {
    StepTrace& step = block_.steps.back();
    if (step.printed.size() >= static_cast<size_t>(kMaxPrintedLinesPerStep) || printed_ >= kMaxPrintedLinesPerBlock) {
      ++step.printed_dropped;
      return;
    }
    ++printed_;
    if (!text.empty() && text.back() == '\n') text.remove_suffix(1);
    std::string kept(text.substr(0, kMaxPrintedChars));
    if (text.size() > kept.size()) kept += "...";
    step.printed.push_back({static_cast<uint16_t>(thread), line, std::move(kept)});
  }

  void on_step_end(LineId barrier, const std::deque<ArrayStore>& shared, int count) override {
    StepTrace& step = block_.steps.back();
    step.barrier = barrier;
    step.shared.clear();
    for (int k = 0; k < count; ++k) step.shared.push_back({shared[k].id, shared[k].bits, shared[k].poison});
    if (barrier != kNoLine) block_.steps.emplace_back();
  }

 private:
  BlockTrace& block_;
  int printed_ = 0;  // lines kept for this block
};

}  // namespace syncscope::sim
