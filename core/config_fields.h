// The one table of a run's configuration fields. Each row holds a field's key (JSON, scenario
// files), its command-line spelling, its type (the RunOptions member it fills), its range (from the
// simulator's limits, sim/limits.h and sim/run_budget.h), its default where the algorithm does not
// give one, and its help text. The codec (core/config_codec.h), the command line's options
// (app/command_line), the Controls form's messages (app/state/controls_form) and the GPU child's
// request are generated from it, and a bad value's error carries the field as a ConfigField, so
// each of them spells it its own way. A new field is a RunOptions member, a ConfigField, one row
// here, and its use (resolve() in core/run.cpp, and wherever it takes effect).
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "kernels/algorithm.h"
#include "sim/limits.h"
#include "sim/run_budget.h"

namespace syncscope {

// What the user asked for; unset fields take the algorithm's defaults.
struct RunOptions {
  std::string algorithm;
  std::optional<int> n, rows, tpb;
  std::optional<std::string> dtype, input, schedule;
  std::optional<std::string> bug;  // a variant's name; unset or "none": the correct kernel
  std::vector<int> blocks;  // blocks to record in full
  std::optional<std::string> time_limit;  // seconds a block may run, as typed (read back exactly)
};

// In the table's order (checked below).
enum class ConfigField : uint8_t { Algorithm, N, Rows, Tpb, Dtype, Input, Schedule, Bug, Blocks, TimeLimit };

// gridDim.y's limit on the GPU: the 2D algorithms run one block per row.
inline constexpr int kMaxRows = 65535;

struct FieldRange {
  double min = 0, max = 0;
};

// A row without its RunOptions member: what code that does not touch RunOptions needs.
struct FieldInfo {
  ConfigField field;
  const char* key;     // JSON and scenario files: "tpb"
  const char* option;  // the command line: "--tpb" ("ALGO": the positional argument)
  const char* noun;    // how messages name it: "threads per block"
  std::optional<FieldRange> range = {};
  std::optional<double> fixed_default = {};  // unset: the algorithm's default (or none)
  const char* limit_note = nullptr;  // the limit of a field without a fixed range: "0..blocks-1"
  const char* placeholder;  // what follows the option in a synopsis: "N", "float32|int32"
  const char* help;
};

template <class Member>
struct FieldRow {
  FieldInfo info;
  Member RunOptions::*member;
};

inline constexpr std::tuple kConfigFields{
    FieldRow<std::string>{{.field = ConfigField::Algorithm, .key = "algorithm", .option = "ALGO", .noun = "algorithm",
                           .placeholder = "ALGO", .help = "algorithm (see `syncscope list`)"},
                          &RunOptions::algorithm},
    FieldRow<std::optional<int>>{{.field = ConfigField::N, .key = "n", .option = "--n", .noun = "elements",
                                  .range = FieldRange{1, sim::kMaxElements}, .placeholder = "N",
                                  .help = "elements (axis-sum: elements per row)"},
                                 &RunOptions::n},
    FieldRow<std::optional<int>>{{.field = ConfigField::Rows, .key = "rows", .option = "--rows", .noun = "rows",
                                  .range = FieldRange{1, kMaxRows}, .placeholder = "R", .help = "rows (2D algorithms)"},
                                 &RunOptions::rows},
    FieldRow<std::optional<int>>{{.field = ConfigField::Tpb, .key = "tpb", .option = "--tpb", .noun = "threads per block",
                                  .range = FieldRange{1, sim::kMaxThreadsPerBlock}, .placeholder = "TPB",
                                  .help = "threads per block"},
                                 &RunOptions::tpb},
    FieldRow<std::optional<std::string>>{{.field = ConfigField::Dtype, .key = "dtype", .option = "--dtype",
                                          .noun = "element type", .placeholder = "float32|int32",
                                          .help = "float32 | int32"},
                                         &RunOptions::dtype},
    FieldRow<std::optional<std::string>>{
        {.field = ConfigField::Input, .key = "input", .option = "--input", .noun = "input",
         .placeholder = "iota|ones|random:SEED|v1,v2,...|@FILE",
         .help = "iota | ones | random:SEED | v1,v2,... | @FILE (numbers separated by commas, spaces or newlines; @- stdin)"},
        &RunOptions::input},
    FieldRow<std::optional<std::string>>{{.field = ConfigField::Schedule, .key = "schedule", .option = "--schedule",
                                          .noun = "schedule", .placeholder = "lockstep|forward|reverse|random:SEED|all",
                                          .help = "lockstep | forward | reverse | random:SEED (run: also all)"},
                                         &RunOptions::schedule},
    FieldRow<std::optional<std::string>>{{.field = ConfigField::Bug, .key = "bug", .option = "--bug", .noun = "bug variant",
                                          .placeholder = "NAME",
                                          .help = "a bug variant of the algorithm (see `syncscope list`), or none"},
                                         &RunOptions::bug},
    FieldRow<std::vector<int>>{{.field = ConfigField::Blocks, .key = "blocks", .option = "--block", .noun = "block",
                                .limit_note = "0..blocks-1", .placeholder = "B",
                                .help = "block to show in full (repeatable; default: all when <= 4, else 0)"},
                               &RunOptions::blocks},
    FieldRow<std::optional<std::string>>{
        {.field = ConfigField::TimeLimit, .key = "time-limit", .option = "--time-limit", .noun = "seconds a block may run",
         .range = FieldRange{sim::kMinSecondsPerBlock, sim::kMaxSecondsPerBlock},
         .fixed_default = sim::kDefaultSecondsPerBlock, .placeholder = "SECONDS",
         .help = "seconds one block may run before the simulation stops it as a runaway"},
        &RunOptions::time_limit},
};

inline constexpr auto kFieldInfos = std::apply([](const auto&... row) { return std::array{row.info...}; }, kConfigFields);

constexpr bool fields_in_enum_order() {
  for (size_t k = 0; k < kFieldInfos.size(); ++k)
    if (static_cast<size_t>(kFieldInfos[k].field) != k) return false;
  return true;
}
static_assert(fields_in_enum_order(), "kConfigFields' rows follow ConfigField's order");

constexpr const FieldInfo& field_info(ConfigField f) { return kFieldInfos[static_cast<size_t>(f)]; }

// Calls visit(info, options.*member) for every row, in the table's order.
template <class Options, class Visit>
void visit_fields(Options& options, Visit&& visit) {
  std::apply([&](const auto&... row) { (visit(row.info, options.*(row.member)), ...); }, kConfigFields);
}

// "1..1024", "0.05..86400"; the limit note of a field without a range ("0..blocks-1"); else "".
std::string limit_text(ConfigField f);
// The command line's help: "threads per block, 1..1024", "..., 0.05..86400 (default 2)".
std::string help_text(ConfigField f);
// A number as the table and the messages write it: the shortest text that reads back the same.
std::string shortest_text(double v);

// A value the configuration refuses: the field, the value as given and why, with the limit.
struct ConfigError {
  ConfigField field;
  std::string value;    // "2000"
  std::string message;  // "threads per block must be 1..1024"
  // The message is the algorithm's own wording and names the command-line option itself
  // ("--n 100000 at --tpb 64 needs 98 blocks ..."): shown as it is.
  bool message_names_option = false;

  std::string text() const;       // the command line's: "--tpb 2000: threads per block must be 1..1024"
  std::string json_text() const;  // a scenario file's: "\"tpb\" 2000: threads per block must be 1..1024"
  std::string form_text() const;  // next to the form's field: "2000: threads per block must be 1..1024"
};

// The whole-number options that are not part of a run's configuration: where the app opens
// (`gui --launch L --step K`), how it is shown and how many GPU runs to count. Their ranges live
// here beside the configuration's, and both commands check them by this table (app/command_line):
// `--step -1: steps count from 0`, `--gpu-runs 0: runs must be 1..100000`.
struct CountOption {
  const char* option;  // "--step"
  const char* noun;    // "steps"
  int min = 0;
  int max = std::numeric_limits<int>::max();  // the largest int: no limit but the type's
  const char* help;
};

namespace count_options {
inline constexpr CountOption kLaunch{.option = "--launch", .noun = "launches", .help = "start at this launch (0-based)"};
inline constexpr CountOption kStep{.option = "--step", .noun = "steps",
                                   .help = "start at this step (of the whole timeline, or of --launch)"};
inline constexpr CountOption kReplay{.option = "--replay", .noun = "operations",
                                     .help = "start the step view this many operations into the step (0: its start)"};
inline constexpr CountOption kFocus{.option = "--focus", .noun = "threads",
                                    .help = "large blocks: open the step view's focus window at this thread"};
inline constexpr CountOption kGpuRuns{.option = "--gpu-runs", .noun = "runs", .min = 1, .max = 100000,
                                      .help = "GPU runs of the variant to count"};
inline constexpr CountOption kRecordRuns{.option = "--runs", .noun = "runs", .min = 1, .max = 10000,
                                         .help = "gpu-runs: GPU runs of each configuration (default 200)"};
inline constexpr CountOption kWidth{.option = "--width", .noun = "window width", .min = 320, .max = 8192, .help = "window width"};
inline constexpr CountOption kHeight{.option = "--height", .noun = "window height", .min = 240, .max = 8192,
                                     .help = "window height"};
inline constexpr CountOption kBenchFrames{.option = "--bench-frames", .noun = "frames",
                                          .help = "play this many frames, print frame times, exit"};
inline constexpr CountOption kFrom{.option = "--from", .noun = "steps",
                                   .help = "GIF and sheet: the first step (timeline position, default 0)"};
inline constexpr CountOption kTo{.option = "--to", .noun = "steps", .help = "GIF and sheet: the last step (default the last)"};
}  // namespace count_options

// "0..2147483647", "1..100000".
std::string limit_text(const CountOption& o);
// Why `value` is outside the option's range ("steps count from 0", "runs must be 1..100000"), or
// "" when it is inside.
std::string out_of_range(const CountOption& o, long long value);

// An algorithm's refusal (kernels/algorithm.h) as the configuration's error: its field, with that
// field's value in `p` ("--tpb 48: block-reduce halves the block ...").
ConfigError config_error(const ProblemError& refused, const Problem& p);

}  // namespace syncscope
