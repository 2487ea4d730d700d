// The race lab's GPU runs, recorded on a machine with a GPU (`syncscope gpu-runs --all`) into
// assets/gpu-runs/<device>-<date>.json, so that a class without a GPU still sees what a real one
// returns for every shipped bug variant at its lab sizes: the same bars, striped, labelled with the
// device and the date, as the Performance panel shows saved results.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/outcomes.h"
#include "core/registry.h"
#include "core/run.h"

namespace syncscope {

// A recorded configuration's name: the configuration as `describe()` says it, without the
// schedule (the GPU has none). "" for what is not recorded: a .cu program, typed-in input values.
std::string recorded_runs_key(const RunConfig& config);

// What `gpu-runs --all` records: every built-in algorithm with bug variants, the correct kernel and
// each variant, at TPB 8, 32, 256 and 1024 (n = TPB: one block), float32, iota input; and at each
// lesson's own configuration (`lessons`: the shipped scenarios' options, whatever their bug).
std::vector<RunConfig> recorded_runs_configs(const Registry& registry, const std::vector<RunOptions>& lessons = {});

// A file's worth: the device, the date (YYYY-MM-DD), and each configuration's outcomes. The wrong
// outputs are cut to the kMaxKeptOutputs most frequent (correct ones always kept); the rest are
// counted (Outcomes::distinct_not_kept), and `runs` stays the whole count, so the shares stay true.
inline constexpr int kMaxKeptOutputs = 16;
struct RecordedRun {
  std::string key;
  Outcomes outcomes;
};
nlohmann::json recorded_runs_json(const std::string& device, const std::string& date,
                                  const std::vector<RecordedRun>& runs);

// The outcomes recorded for `config` in the first file of `folders` that has them, with
// Outcomes::recorded_on set ("NVIDIA H100 80GB HBM3 (sm_90), 2026-11-26"); nullopt when none does.
// A file that cannot be read or parsed is passed over.
std::optional<Outcomes> find_recorded_outcomes(const RunConfig& config, const std::vector<std::string>& folders);

// `live` itself when a GPU gave it; when it says there is no GPU here (Outcomes::unavailable), what
// one returned when `config` was recorded, if it was (else `live`, which says why there is none).
Outcomes or_recorded(Outcomes live, const RunConfig& config);

// Where shipped recordings are looked for: ./assets/gpu-runs, then the source tree's.
std::vector<std::string> recorded_runs_folders();

}  // namespace syncscope
