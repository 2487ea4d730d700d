#include "app/state/timeline.h"

#include <cstring>

#include <algorithm>

namespace syncscope::app {

std::string short_location(sim::LineId line) {
  if (line == sim::kNoLine) return "exit";
  const sim::SourceLine& l = sim::LineTable::get(line);
  const auto slash = l.file.find_last_of('/');
  return (slash == std::string::npos ? l.file : l.file.substr(slash + 1)) + ":" + std::to_string(l.line);
}

Timeline::Timeline(const sim::Trace& trace) {
  for (int l = 0; l < static_cast<int>(trace.launches.size()); ++l) {
    const sim::LaunchTrace& lt = trace.launches[l];
    first_of_launch_.push_back(size());
    for (int s = 0; s < std::max(1, lt.steps); ++s) {
      TimelineMark m{l, s, sim::kNoLine, "exit", "", ""};
      for (const auto& b : lt.blocks)
        if (s < static_cast<int>(b.steps.size())) {
          m.barrier = b.steps[s].barrier;
          m.caption = b.steps[s].caption;
          break;
        }
      m.label = short_location(m.barrier);
      m.name = m.caption.substr(0, m.caption.find(':'));  // "offset 1, read phase"
      for (const char* drop : {",", " phase"})
        for (size_t at; (at = m.name.find(drop)) != std::string::npos;) m.name.erase(at, std::strlen(drop));
      marks_.push_back(std::move(m));
    }
  }
}

int Timeline::index_of(int launch, int step) const {
  if (marks_.empty()) return 0;
  launch = std::clamp(launch, 0, launches() - 1);
  const int first = first_of_launch_[launch];
  const int end = launch + 1 < launches() ? first_of_launch_[launch + 1] : size();
  return std::clamp(first + std::max(step, 0), first, end - 1);
}

}  // namespace syncscope::app
