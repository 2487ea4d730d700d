// Timeline panel: one mark per step, grouped by launch, each labelled with its barrier's line.
#pragma once

#include <string>
#include <vector>

#include "app/state/app_state.h"

namespace syncscope::app {

struct TimelineLaunchView {
  std::string label;  // "1 prefix_sum_local_phase (2 blocks)"
  int first = 0;      // position of its first step
  int steps = 0;
};

struct TimelineModel {
  std::vector<TimelineLaunchView> launches;
  std::vector<TimelineMark> marks;
  int current = 0;
  std::string where;  // "launch 1/2 · step 3/8 · ends at barrier kogge_stone.h:22"
  bool playing = false;
  bool at_start = true, at_end = true;
};

TimelineModel build_timeline(const AppState& state);

}  // namespace syncscope::app
