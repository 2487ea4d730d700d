// One simulated run as the CLI and the app ask for it: options as the user typed them (the fields
// are core/config_fields.h's table), resolved against the algorithm's defaults and checked against
// the limits (bad input gets a ConfigError naming the field, the value and the limit), the input
// generated, the simulation run, the CPU reference computed and compared.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "core/config_fields.h"
#include "core/progress.h"
#include "kernels/algorithm.h"
#include "core/registry.h"
#include "sim/describe.h"
#include "sim/run_budget.h"
#include "sim/simulator.h"
#include "sim/schedule.h"

namespace syncscope {

enum class InputKind : uint8_t { Iota, Ones, Random, Values };

struct InputSpec {
  InputKind kind = InputKind::Iota;
  uint64_t seed = 0;
  std::vector<double> values;  // InputKind::Values
  std::string file;            // the values came from this file (@FILE; not for @-, standard input)
  std::string text() const;    // as the CLI spells it: iota, ones, random:7, 1,2,3, @data.txt
  // nullopt and *error set when the text is not an input. @FILE opens only a regular file
  // (core/regular_file.h: a FIFO, a device or a directory is refused without waiting); @- reads
  // standard input until it ends or holds more values than a run takes. An error quotes at most the
  // offending word, and only a short printable one.
  static std::optional<InputSpec> parse(const std::string& text, std::string* error);
  bool operator==(const InputSpec&) const = default;
};

struct RunConfig {
  const AlgorithmEntry* algorithm = nullptr;
  Problem problem;
  InputSpec input;
  sim::Schedule schedule;
  std::vector<int> detail_blocks;
  double time_limit_s = sim::kDefaultSecondsPerBlock;  // a block's wall-time budget (sim/run_budget.h)
  // Copies of global memory before, between and after the launches (sim::SimOptions::global_memory):
  // the app's Global arrays panel shows them; `syncscope run` prints none and turns them off.
  bool global_memory = true;

  int blocks() const;  // of the first launch
  std::string bug_name() const;  // "none" or the variant's name
  std::string describe() const;  // "kogge-stone n=8 tpb=8 blocks=1 dtype=float32 input=iota schedule=lockstep"
  // The same entry of the same registry, and every field equal.
  bool operator==(const RunConfig&) const = default;
};

std::variant<RunConfig, ConfigError> resolve(const Registry& registry, const RunOptions& options);

std::vector<double> make_input(const RunConfig& config);

struct Comparison {
  bool match = false;
  double relative_error = 0;  // ‖out − ref‖₂ / ‖ref‖₂; poisoned elements count as infinitely wrong
  int differing = 0;          // elements that differ from the reference
  std::vector<int> differing_indices;  // the first kMaxListed of them
  static constexpr size_t kMaxListed = 64;
};

// int32: exact. float32: ‖out − ref‖/‖ref‖ < 1e-5 (elements listed as differing beyond 1e-5 relative).
Comparison compare_with_reference(DType dtype, const std::vector<uint32_t>& bits,
                                  const std::vector<uint8_t>& poison, const std::vector<double>& reference);
// One element by compare_with_reference's rule: int32 exact, float32 within 1e-5 relative; a
// poisoned element always differs.
bool differs_from_reference(DType dtype, double out, bool poisoned, double reference);

struct BitComparison {
  bool identical = false;
  int differing = 0;
  std::vector<int> differing_indices;  // the first Comparison::kMaxListed
};
// Simulator vs GPU: the same bits, element by element (poisoned elements are "don't care").
BitComparison compare_bits(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b,
                           const std::vector<uint8_t>& poison_a);

struct RunResult {
  // Distinct for every simulate() in this process: views cache what they built from a run under it
  // (an address can be reused by the next run).
  uint64_t id = 0;
  RunConfig config;
  std::vector<double> input;
  SimOutcome sim;
  std::vector<double> expected;
  Comparison comparison;
  // Read from the hazard log once, here: the Results and Race lab panels rebuild their models every
  // frame, and the log's groups are derived on each call.
  bool has_hazards = false;
  bool out_of_bounds = false;  // a kernel reached past an array (reported as out-of-bounds errors)
};

// A GPU's output for this run against the simulator's (bit for bit) and the CPU reference.
struct GpuComparison {
  BitComparison vs_sim;
  Comparison vs_reference;
};
GpuComparison compare_gpu_output(const RunResult& r, const std::vector<uint32_t>& gpu_bits);

// `cancel` (may be null): set it to stop the run early; it then fails with SimErrorKind::Cancelled.
// `progress` (may be null): counts this run's blocks as they are done (core/progress.h).
RunResult simulate(const RunConfig& config, std::shared_ptr<const std::atomic<bool>> cancel = nullptr,
                   Progress* progress = nullptr);
// The simulator's options for a configuration: its schedule, recorded blocks and budget.
sim::SimOptions sim_options(const RunConfig& config, std::shared_ptr<const std::atomic<bool>> cancel = nullptr);

using sim::format_number;  // sim/describe.h
using sim::format_value;
using sim::format_seconds;

}  // namespace syncscope
