#include "app/cli/cli.h"

#include <CLI/CLI.hpp>

#include <exception>
#include <sstream>
#include <optional>

#include "app/command_line/config_args.h"
#include "app/command_line/kernel_option.h"
#include "app/cli/json_arrays.h"
#include "app/cli/perf_command.h"
#include "app/cli/progress_line.h"
#include "app/cli/report.h"
#include "app/state/gpu_child.h"
#include "core/api_table.h"
#include "core/cuda_program.h"
#include "core/kernel_file.h"
#include "core/worker/kernel_worker.h"
#include "core/outcomes.h"
#include "core/recorded_runs.h"
#include "core/registry.h"
#include "core/run.h"
#include "sim/schedule.h"

namespace syncscope::cli {

using namespace command_line;

namespace {

struct RunFlags {
  bool steps = false;
  bool verbose = false;  // the races one barrier would order, each of them, under their group
  bool gpu = false;
  bool json = false;
  bool full_arrays = false;  // --json writes arrays longer than 4096 elements whole
  std::optional<std::string> gpu_runs_text;  // "--gpu-runs" alone: kDefaultGpuRuns
  std::optional<int> gpu_runs;
  std::string kernel_file;  // --kernel FILE
  // A .cu without main(): core/cuda_program.h's ProgramLaunch.
  command_line::LaunchWords launch;
};

// --gpu-runs: a kernel file's GPU side is the student's code compiled by nvcc, so it runs in the
// GPU child (app/state/gpu_child.h), never in this process; built-in kernels run here.
Outcomes gpu_outcomes_here_or_in_child(const RunConfig& config, const std::vector<double>& input, int runs) {
  if (!app::gpu_side_in_child(config) || !gpu_status().usable)
    return gpu_outcomes(config, input, runs);  // without a GPU it says why
  return tally_gpu_runs(config, input, app::run_on_gpu_in_child(app::own_executable(), config, input, runs));
}

constexpr int kDefaultGpuRuns = 100;

int run_command(ConfigArgs& args, RunFlags flags, std::ostream& out, std::ostream& err, CliStage stage) {
  // With --grid, --block is the launch's block size (as GPUVerify and the CUDA runtime say it), not a
  // block of the trace to follow.
  if (auto bad = command_line::take_launch_block(args, flags.launch)) {
    err << "syncscope: " << *bad << "\n";
    return kExitBadArguments;
  }
  if (auto bad = finish_config(args)) {
    err << "syncscope: " << *bad << "\n";
    return kExitBadArguments;
  }
  if (flags.gpu_runs_text) {
    std::optional<int> runs;
    if (flags.gpu_runs_text->empty()) runs = kDefaultGpuRuns;  // the option alone
    else if (auto bad = parse_count(count_options::kGpuRuns, *flags.gpu_runs_text, runs)) {
      err << "syncscope: " << *bad << "\n";
      return kExitBadArguments;
    }
    flags.gpu_runs = runs;
  }
  // --schedule all: every schedule of the lab, grouped by outcome.
  const bool all_schedules = args.options.schedule && *args.options.schedule == "all";
  if (all_schedules) args.options.schedule.reset();
  // Before a kernel file is compiled: a mistyped schedule is said at once, with `all`, which only run takes.
  if (std::string why; args.options.schedule && !sim::Schedule::parse(*args.options.schedule, &why)) {
    if (!args.options.schedule->starts_with("random:")) why = "expected lockstep, forward, reverse, random:SEED or all";
    err << "syncscope: --schedule " << *args.options.schedule << ": " << why << "\n";
    return kExitBadArguments;
  }
  Registry registry = builtin_registry();
  // `syncscope run FILE.cu`: a plain CUDA program is loaded as --kernel would load it.
  if (flags.kernel_file.empty() && is_cuda_program_path(args.options.algorithm)) {
    flags.kernel_file = args.options.algorithm;
    args.options.algorithm.clear();
  }
  if (!flags.kernel_file.empty() && stage == CliStage::CheckOnly) {
    out << "kernel file: " << flags.kernel_file << " (not loaded)\n";
    return kExitRan;
  }
  // stdout carries one JSON document: a program's own printf goes to stderr then.
  if (flags.json) worker::send_program_output_to(2);
  ProgramLaunch launch;
  if (std::string why = command_line::program_launch(flags.launch, flags.kernel_file, launch); !why.empty()) {
    err << "syncscope: " << why << "\n";
    return kExitBadArguments;
  }
  if (!flags.kernel_file.empty()) {
    const std::optional<KernelFile> k = load_kernel_option(flags.kernel_file, registry, args.options, err, launch);
    if (!k) return kExitBadArguments;
    err << "syncscope: " << flags.kernel_file << ": " << k->entry.info.name << ", "
        << (k->from_cache ? std::string("from the cache") : "compiled in " + std::to_string(k->compile_seconds).substr(0, 4) + " s")
        << "\n";
  } else if (args.options.algorithm.empty()) {
    err << "syncscope: run: ALGO is required: name an algorithm (`syncscope list`) or give --kernel FILE\n";
    return kExitBadArguments;
  }
  auto resolved = resolve(registry, args.options);
  if (auto* e = std::get_if<ConfigError>(&resolved)) {
    err << "syncscope: " << e->text() << "\n";
    return kExitBadArguments;
  }
  RunConfig& config = std::get<RunConfig>(resolved);
  if (config.algorithm->info.program && config.problem.bug)
    if (const std::string why = build_program_variant(config.algorithm->info.name, config.problem.bug); !why.empty()) {
      err << "syncscope: " << why << "\n";
      return kExitBadArguments;
    }
  config.global_memory = false;  // the report prints the output and the steps, never global memory between launches
  if (stage == CliStage::CheckOnly) {
    out << config.describe() << "\n";
    return kExitRan;
  }
  // The GPU's outcomes (--gpu-runs) are read next to what the simulator's schedules give.
  const bool every_schedule = all_schedules || flags.gpu_runs;
  Progress progress(1 + (every_schedule ? static_cast<int>(lab_schedules().size()) : 0));
  RunResult result;
  LabReport lab;
  {
    const ProgressLineThread progress_line(progress, err, is_terminal_stderr(err));
    result = simulate(config, nullptr, &progress);
    if (every_schedule) lab.schedules = simulate_all_schedules(config, &progress);
  }
  if (flags.gpu_runs) {
    // No GPU here: what one returned when this configuration was recorded (assets/gpu-runs), if it was.
    lab.gpu = or_recorded(config.algorithm->info.program ? program_gpu_outcomes(config, result.input, *flags.gpu_runs)
                                                         : gpu_outcomes_here_or_in_child(config, result.input, *flags.gpu_runs),
                          config);
  }
  std::optional<GpuReport> gpu;
  if (flags.gpu) gpu = run_gpu_side(result);
  if (flags.json) {
    // Streamed: the document is small, and --full-arrays' long arrays go out element by element.
    JsonArrays arrays(flags.full_arrays ? ArrayDetail::Streamed : ArrayDetail::Summary);
    arrays.write(out, run_json(result, flags.steps, gpu, lab, &arrays));
    out << "\n";
  } else {
    print_run(out, result, flags.steps, gpu, lab, flags.verbose);
  }
  // A stopped run (crash, runaway, divergence, a worker that died) is reported above, and a script sees it here.
  return result.sim.trace.error ? kExitStopped : kExitRan;
}

}  // namespace

int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err, CliStage stage) {
  CLI::App app{"syncscope: step through GPU block scans and reductions barrier by barrier"};
  // The window is opened by the entry point (app/main.cpp) before this parser sees the words.
  app.footer(
      "The app:\n"
      "  syncscope                          open the default demo (kogge-stone, n=8, TPB=8)\n"
      "  syncscope --scenario FILE          open a saved scenario\n"
      "  syncscope gui [ALGO] [run options] [--launch L] [--step K] [--replay K] [--focus T] [--presenter]\n"
      "                [--screenshot out.png]   open the app there (`syncscope gui --help` for all)\n"
      "  syncscope gui [ALGO] ... --gif out.gif [--from K --to L] [--fps F] | --sheet out.png | --step-png out.png\n"
      "                | --trace out.json        hand-outs for slides, written off screen");
  app.name("syncscope");
  app.require_subcommand(0, 1);

  bool list_as_json = false, list_api = false;
  auto* list = app.add_subcommand("list", "algorithms with their parameters and defaults");
  list->add_flag("--json", list_as_json, "JSON instead of text");
  list->add_flag("--api", list_api, "the warp operations a kernel may call, as kernels/README.md's table rows");

  // Listed for --help only: the entry point opens the window before this parser sees "gui".
  app.add_subcommand("gui", "open the app (flags: `syncscope gui --help`): step view, presenter mode, GIF / sheet / trace export");
  ConfigArgs config;
  RunFlags flags;
  auto* run = app.add_subcommand("run", "simulate an algorithm and compare with the CPU reference");
  run->add_option("ALGO", config.options.algorithm, "algorithm (see `syncscope list`; with --kernel, the file's)");
  run->add_option("--kernel", flags.kernel_file,
                  "load your own kernel file (a header like kernels/*.h ending in SYNCSCOPE_KERNEL_FILE(Name)), "
                  "compiled at run time and cached");
  run->add_option("--grid", flags.launch.grid, command_line::LaunchWords::kGridHelp);
  run->add_option("--kernel-name", flags.launch.kernel_name, command_line::LaunchWords::kKernelNameHelp);
  run->add_option("--arg", flags.launch.arguments, command_line::LaunchWords::kArgHelp);
  run->add_option("--shared-bytes", flags.launch.shared_bytes, command_line::LaunchWords::kSharedBytesHelp);
  add_config_options(*run, config);
  run->add_flag("--steps", flags.steps, "print shared memory and accesses after every step");
  run->add_flag("--verbose", flags.verbose,
                "list every race one missing barrier causes under its group (JSON always holds them)");
  run->add_flag("--gpu", flags.gpu, "also run on the GPU and compare");
  run->add_option("--gpu-runs", flags.gpu_runs_text,
                  "run R times on the GPU (alone: 100) and count the distinct outputs, next to every schedule's")
      ->expected(0, 1);
  run->add_flag("--json", flags.json, "one JSON document instead of text");
  run->add_flag("--full-arrays", flags.full_arrays,
                "with --json: arrays longer than 4096 elements whole (else their length, first and last 16 "
                "elements, FNV-1a hash and differing indices)");
  PerfArgs perf_args;
  auto* perf = app.add_subcommand("perf",
                                  "time both kernel ladders on the GPU against a copy and CUB (or --show saved "
                                  "results)");
  add_perf_options(*perf, perf_args);

  try {
    std::vector<std::string> reversed(args.rbegin(), args.rend());
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    out << app.help();
    return kExitRan;
  } catch (const CLI::CallForAllHelp&) {
    out << app.help("", CLI::AppFormatMode::All);
    return kExitRan;
  } catch (const CLI::ParseError& e) {
    err << "syncscope: " << e.what() << "\n";
    return kExitBadArguments;
  }

  try {
    if (list->parsed()) {
      if (list_api) {
        for (const std::string& row : warp_api_rows()) out << row << "\n";
        return kExitRan;
      }
      if (list_as_json) out << list_json(builtin_registry()).dump(1) << "\n";
      else print_list(out, builtin_registry());
      return kExitRan;
    }
    if (run->parsed()) return run_command(config, flags, out, err, stage);
    if (perf->parsed()) return perf_command(perf_args, out, err, stage == CliStage::CheckOnly);
    // No command: the default demo, step by step.
    ConfigArgs demo;
    demo.options.algorithm = "kogge-stone";
    RunFlags demo_flags;
    demo_flags.steps = true;
    return run_command(demo, demo_flags, out, err, stage);
  } catch (const std::exception& e) {
    err << "syncscope: internal error: " << e.what() << "\n";
    return kExitInternal;
  }
}

}  // namespace syncscope::cli
