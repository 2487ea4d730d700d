// The timeline a run gives: every step of every launch, in order, each labelled with the barrier
// that ends it. The app's position is an index into it.
#pragma once

#include <string>
#include <vector>

#include "sim/source_lines.h"
#include "sim/trace.h"

namespace syncscope::app {

struct TimelineMark {
  int launch = 0;
  int step = 0;
  sim::LineId barrier = sim::kNoLine;  // kNoLine: the step ends when the threads exit
  std::string label;                   // "kogge_stone.h:22", or "exit"
  std::string caption;  // the kernel's caption for the step (first recorded block), or ""
  std::string name;     // its short form for the mark: "load", "offset 1 read", "stride 4"; or ""
};

class Timeline {
 public:
  Timeline() = default;
  explicit Timeline(const sim::Trace& trace);

  const std::vector<TimelineMark>& marks() const { return marks_; }
  int size() const { return static_cast<int>(marks_.size()); }
  int launches() const { return static_cast<int>(first_of_launch_.size()); }
  int first_of_launch(int launch) const { return first_of_launch_.at(launch); }
  // The position of (launch, step), clamped into the timeline.
  int index_of(int launch, int step) const;

 private:
  std::vector<TimelineMark> marks_;
  std::vector<int> first_of_launch_;
};

// "kernels/kogge_stone.h:22" -> "kogge_stone.h:22"
std::string short_location(sim::LineId line);

}  // namespace syncscope::app
