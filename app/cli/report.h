// What `syncscope list` and `syncscope run` print: plain text for people, JSON for programs.
#pragma once

#include <optional>
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "kernels/cuda/gpu_runner.h"
#include "kernels/registry.h"
#include "kernels/run.h"

namespace syncscope::cli {

// The GPU's side of one run (--gpu).
struct GpuReport {
  GpuStatus status;
  GpuRun run;
  BitComparison vs_sim;
  Comparison vs_reference;
};

GpuReport run_gpu_side(const RunResult& r);

// One line per hazard group, like compute-sanitizer's racecheck analysis mode:
// "error: race (WAR) between read at kernels/x.h:21 and write at kernels/x.h:23 [hazards: 7, blocks: 0]"
std::string describe_hazard(const sim::HazardGroup& g, const sim::Trace& trace);

void print_list(std::ostream& out, const Registry& registry);
void print_run(std::ostream& out, const RunResult& r, bool steps, const std::optional<GpuReport>& gpu);

nlohmann::json list_json(const Registry& registry);
nlohmann::json run_json(const RunResult& r, bool steps, const std::optional<GpuReport>& gpu);

}  // namespace syncscope::cli
