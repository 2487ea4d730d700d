// Hazards panel: the race detector's reports, grouped like compute-sanitizer's (kind and pair of
// source lines, with a count); each one knows where to jump in the timeline and the code.
#pragma once

#include <string>
#include <vector>

#include "core/run.h"

namespace syncscope::app {

struct HazardRowView {
  std::string text;  // "error: race (WAR) on shared between read at ... and write at ... [hazards: 7, blocks: 0]"
  bool error = false;
  int launch = 0, step = 0, block = 0;
  std::vector<sim::LineId> lines;
};

struct HazardsModel {
  std::vector<HazardRowView> rows;
  std::string summary;  // "no hazards" / "2 errors, 1 warning"
  std::vector<std::string> fixes;  // "a barrier between kernels/x.h:29 and kernels/x.h:31 would order ..."
  std::string failure;  // the run stopped with this error (barrier divergence, ...)
};

HazardsModel build_hazards(const RunResult& run);

}  // namespace syncscope::app
