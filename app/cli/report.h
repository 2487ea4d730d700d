// What `syncscope list` and `syncscope run` print: plain text for people, JSON for programs.
#pragma once

#include <optional>
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "core/cuda/gpu_runner.h"
#include "core/cuda_program_gpu.h"
#include "core/registry.h"
#include "core/outcomes.h"
#include "core/run.h"

namespace syncscope::cli {

class JsonArrays;

// The GPU's side of one run (--gpu); the comparisons when the run went through.
struct GpuReport : GpuComparison {
  GpuStatus status;
  GpuRun run;
  // A .cu program's run instead: its main() on the GPU and its copies to the host against the simulator's.
  std::optional<ProgramGpuRun> program;
  HostCopyComparison copies;
};

GpuReport run_gpu_side(const RunResult& r);

// The race-condition lab's extras: outcomes under every schedule, and of R runs on the GPU.
struct LabReport {
  std::optional<Outcomes> schedules;
  std::optional<Outcomes> gpu;
};


void print_list(std::ostream& out, const Registry& registry);
// `verbose`: the reports of races one barrier would order are listed under their group's line.
void print_run(std::ostream& out, const RunResult& r, bool steps, const std::optional<GpuReport>& gpu,
               const LabReport& lab = {}, bool verbose = false);

nlohmann::json list_json(const Registry& registry);
// `long_arrays`: how arrays longer than app/cli/json_arrays.h's limit are written (null: whole).
nlohmann::json run_json(const RunResult& r, bool steps, const std::optional<GpuReport>& gpu, const LabReport& lab = {},
                        JsonArrays* long_arrays = nullptr);

}  // namespace syncscope::cli
