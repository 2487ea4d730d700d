#include "app/state/record_gpu_runs.h"

#include <cctype>
#include <filesystem>

#include <CLI/CLI.hpp>

#include "app/command_line/config_args.h"
#include "app/state/gpu_child.h"
#include "app/state/scenario.h"
#include "core/atomic_file.h"
#include "core/cuda/gpu_runner.h"
#include "core/outcomes.h"
#include "core/recorded_runs.h"
#include "core/registry.h"
#include "core/utc_date.h"

namespace syncscope::app {
namespace {

constexpr int kExitWritten = 0, kExitCannotWrite = 1, kExitBadArguments = 2, kExitNoGpu = 3;

// "NVIDIA H100 80GB HBM3 (sm_90)" -> "nvidia-h100-80gb-hbm3-sm_90": a file name of the device.
std::string file_name_of(const std::string& device) {
  std::string name;
  for (char ch : device) {
    if (std::isalnum(static_cast<unsigned char>(ch)) || ch == '_') name += static_cast<char>(std::tolower(ch));
    else if (!name.empty() && name.back() != '-') name += '-';
  }
  while (!name.empty() && name.back() == '-') name.pop_back();
  return name.empty() ? "gpu" : name;
}

}  // namespace

int record_gpu_runs_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  CLI::App app{"syncscope gpu-runs: record every shipped bug variant's GPU runs for classes without a GPU"};
  app.name("syncscope gpu-runs");
  bool all = false;
  std::optional<std::string> runs_text;
  std::string folder = "assets/gpu-runs";
  app.add_flag("--all", all, "every shipped bug variant at the race lab's sizes, and each lesson's configuration");
  app.add_option(count_options::kRecordRuns.option, runs_text, count_options::kRecordRuns.help);
  app.add_option("--out", folder, "the folder to write <device>-<date>.json into (default assets/gpu-runs)");
  try {
    app.parse(std::vector<std::string>(args.rbegin(), args.rend() - 1));  // CLI11 takes them last first
  } catch (const CLI::CallForHelp&) {
    out << app.help();
    return kExitWritten;
  } catch (const CLI::ParseError& e) {
    err << "syncscope: gpu-runs: " << e.what() << "\n";
    return kExitBadArguments;
  }
  std::optional<int> runs = kDefaultRecordedRuns;
  if (runs_text)
    if (auto bad = command_line::parse_count(count_options::kRecordRuns, *runs_text, runs)) {
      err << "syncscope: gpu-runs " << *bad << "\n";
      return kExitBadArguments;
    }
  if (!all) {
    err << "syncscope: gpu-runs: say --all (every shipped bug variant at the race lab's sizes)\n";
    return kExitBadArguments;
  }
  if (!gpu_status().usable) {
    err << "syncscope: gpu-runs: no usable GPU: " << gpu_status().reason << "\n";
    return kExitNoGpu;
  }
  const std::string device = gpu_status().device, date = utc_date();
  // The shipped lessons' own configurations too: what a class opens before toggling a bug.
  std::vector<RunOptions> lessons;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("assets/scenarios", ec))
    if (auto loaded = load_scenario(entry.path().string()); auto* s = std::get_if<Scenario>(&loaded))
      lessons.push_back(s->options);
  const std::vector<RunConfig> configs = recorded_runs_configs(builtin_registry(), lessons);
  std::vector<RecordedRun> recorded;
  for (size_t k = 0; k < configs.size(); ++k) {
    const RunConfig& config = configs[k];
    const std::vector<double> input = make_input(config);
    Outcomes o = tally_gpu_runs(config, input, run_on_gpu_in_child(own_executable(), config, input, *runs));
    out << "[" << k + 1 << "/" << configs.size() << "] " << recorded_runs_key(config) << ": " << gpu_verdict(o, config)
        << "\n"
        << std::flush;
    recorded.push_back({recorded_runs_key(config), std::move(o)});
  }
  std::filesystem::create_directories(folder, ec);
  const std::string path = (std::filesystem::path(folder) / (file_name_of(device) + "-" + date + ".json")).string();
  if (auto failed = write_file_atomically(path, recorded_runs_json(device, date, recorded).dump(1) + "\n")) {
    err << "syncscope: " << *failed << "\n";
    return kExitCannotWrite;
  }
  out << "wrote " << path << ": " << recorded.size() << " configurations, " << *runs << " runs each, on " << device
      << "\n";
  return kExitWritten;
}

}  // namespace syncscope::app
