// `syncscope perf --json` and the saved results in assets/perf/ that the Performance panel opens
// without a GPU.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/perf.h"

namespace syncscope {

nlohmann::json perf_json(const PerfReport& report);
// A saved report, or why it cannot be read ("'rungs' is missing").
std::optional<PerfReport> perf_from_json(const nlohmann::json& j, std::string* error);
// The same from a regular file (core/regular_file.h): "is a FIFO, not a file", "cannot open (...)",
// "not JSON (...)" or what perf_from_json says.
std::optional<PerfReport> perf_from_file(const std::string& path, std::string* error);

}  // namespace syncscope
