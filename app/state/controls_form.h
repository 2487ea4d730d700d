// The Controls panel's fields as the user typed them, checked into a run configuration or into
// messages shown next to the offending field (the last good run stays on screen meanwhile).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/registry.h"
#include "core/run.h"

namespace syncscope::app {

using InputChoice = InputKind;
using ScheduleChoice = sim::ScheduleKind;

struct ControlsForm {
  std::string algorithm = "kogge-stone";
  std::string bug = "none";  // a variant of the algorithm (race-condition lab)
  int n = 8;
  int rows = 1;
  int tpb = 8;
  DType dtype = DType::Float32;
  InputChoice input = InputChoice::Iota;
  int input_seed = 1;
  std::string values;  // "3,1,4,1,5"
  ScheduleChoice schedule = ScheduleChoice::Lockstep;
  int schedule_seed = 1;
  std::vector<int> blocks;  // recorded in full
  std::optional<std::string> time_limit;  // as given (the command line, a scenario); unset: the default

  RunOptions to_options(const AlgorithmEntry* algorithm) const;
  static ControlsForm from(const RunConfig& config);
  // The algorithm's defaults, keeping the user's schedule.
  ControlsForm with_algorithm(const AlgorithmEntry& algorithm) const;
};

struct FormCheck {
  std::optional<RunConfig> config;
  // The field's message, shown under it: "2000: threads per block must be 1..1024".
  std::map<ConfigField, std::string> errors;
};
FormCheck check_form(const Registry& registry, const ControlsForm& form);

}  // namespace syncscope::app
