// A scenario file for class: the algorithm, its configuration and input, the schedule, and where in
// the timeline to open. JSON; saves are atomic (a temporary file renamed over the target).
#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/atomic_file.h"
#include "core/config_codec.h"
#include "core/run.h"

namespace syncscope::app {

struct Scenario {
  RunOptions options;
  int launch = 0;
  int step = 0;
  std::string title;  // optional, shown in the window title
};

nlohmann::json scenario_to_json(const Scenario& s);
// The scenario, or a message naming what is wrong (field, value).
std::variant<Scenario, std::string> scenario_from_json(const nlohmann::json& j);

std::variant<Scenario, std::string> load_scenario(const std::string& path);
// nullopt on success, else why not.
std::optional<std::string> save_scenario(const std::string& path, const Scenario& s);

// A scenario for what is on screen.
Scenario scenario_of(const RunConfig& config, int launch, int step);

}  // namespace syncscope::app
