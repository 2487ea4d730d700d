// Controls panel: what it lists (algorithms by group, the chosen one's variants and description)
// around the form (app/state/controls_form.h).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "app/state/controls_form.h"
#include "core/registry.h"
#include "core/run.h"

namespace syncscope::app {

struct ControlsModel {
  struct Group {
    std::string title;
    std::vector<std::string> algorithms;
  };
  std::vector<Group> groups;  // scans, reductions
  bool two_dimensional = false;
  bool program = false;  // a .cu: its main() chooses sizes and input, so the form has no boxes for them
  std::string description;
  std::vector<BugInfo> bugs;  // the algorithm's variants
  std::string shape;  // "2 blocks × 8 threads · 8 steps in 2 launches"
};
ControlsModel build_controls_model(const Registry& registry, const ControlsForm& form, const RunResult* shown);

}  // namespace syncscope::app
