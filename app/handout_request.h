// What a hand-out run asks for (`gui --gif/--sheet/--step-png`, File > Export ...): read by the
// command line (app/command_line/gui_options.h) and drawn by app/handouts.h.
#pragma once

#include <string>

namespace syncscope::app {

struct HandoutRequest {
  std::string gif, sheet, step_png;
  int from = 0, to = -1;  // timeline positions, inclusive; -1: the last
  double fps = 4;
  bool wanted() const { return !gif.empty() || !sheet.empty() || !step_png.empty(); }
};

}  // namespace syncscope::app
