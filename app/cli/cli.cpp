#include "app/cli/cli.h"

#include <CLI/CLI.hpp>

#include <charconv>
#include <exception>
#include <optional>

#include "app/cli/report.h"
#include "kernels/registry.h"
#include "kernels/run.h"

namespace syncscope::cli {
namespace {

struct RunFlags {
  bool steps = false;
  bool gpu = false;
  bool json = false;
  // Whole numbers arrive as text so that a bad one gets our message (option, value, limit).
  std::optional<std::string> n, rows, tpb;
  std::vector<std::string> blocks;
};

void add_run_options(CLI::App& cmd, RunOptions& o, RunFlags& f) {
  cmd.add_option("ALGO", o.algorithm, "algorithm (see `syncscope list`)")->required();
  cmd.add_option("--n", f.n, "elements (axis-sum: elements per row), 1..16777216");
  cmd.add_option("--rows", f.rows, "rows (2D algorithms), 1..65535");
  cmd.add_option("--tpb", f.tpb, "threads per block, 1..1024");
  cmd.add_option("--dtype", o.dtype, "float32 | int32");
  cmd.add_option("--input", o.input, "iota | ones | random:SEED | v1,v2,...");
  cmd.add_option("--schedule", o.schedule, "lockstep | forward | reverse | random:SEED");
  cmd.add_option("--block", f.blocks, "block to show in full (repeatable; default: all when <= 4, else 0)");
  cmd.add_flag("--steps", f.steps, "print shared memory and accesses after every step");
  cmd.add_flag("--gpu", f.gpu, "also run on the GPU and compare");
  cmd.add_flag("--json", f.json, "one JSON document instead of text");
}

// "--n abc" -> message; the range is checked where the limits live (kernels/run.cpp).
std::optional<std::string> parse_whole(const std::string& option, const std::string& text, std::optional<int>& out,
                                       const char* range) {
  int v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size())
    return option + " " + text + ": expected a whole number in " + range;
  out = v;
  return std::nullopt;
}

int run_command(RunOptions options, const RunFlags& flags, std::ostream& out, std::ostream& err) {
  std::optional<std::string> bad;
  if (flags.n && !bad) bad = parse_whole("--n", *flags.n, options.n, "1..16777216");
  if (flags.rows && !bad) bad = parse_whole("--rows", *flags.rows, options.rows, "1..65535");
  if (flags.tpb && !bad) bad = parse_whole("--tpb", *flags.tpb, options.tpb, "1..1024");
  for (const std::string& b : flags.blocks) {
    std::optional<int> block;
    if (!bad) bad = parse_whole("--block", b, block, "0..blocks-1");
    if (block) options.blocks.push_back(*block);
  }
  if (bad) {
    err << "syncscope: " << *bad << "\n";
    return kExitBadArguments;
  }
  auto resolved = resolve(builtin_registry(), options);
  if (auto* e = std::get_if<ConfigError>(&resolved)) {
    err << "syncscope: " << e->text() << "\n";
    return kExitBadArguments;
  }
  const RunResult result = simulate(std::get<RunConfig>(resolved));
  std::optional<GpuReport> gpu;
  if (flags.gpu) gpu = run_gpu_side(result);
  if (flags.json) out << run_json(result, flags.steps, gpu).dump(1) << "\n";
  else print_run(out, result, flags.steps, gpu);
  return kExitRan;
}

}  // namespace

int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  CLI::App app{"syncscope: step through GPU block scans and reductions barrier by barrier"};
  app.name("syncscope");
  app.require_subcommand(0, 1);

  bool list_as_json = false;
  auto* list = app.add_subcommand("list", "algorithms with their parameters and defaults");
  list->add_flag("--json", list_as_json, "JSON instead of text");

  RunOptions options;
  RunFlags flags;
  auto* run = app.add_subcommand("run", "simulate an algorithm and compare with the CPU reference");
  add_run_options(*run, options, flags);

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
      if (list_as_json) out << list_json(builtin_registry()).dump(1) << "\n";
      else print_list(out, builtin_registry());
      return kExitRan;
    }
    if (run->parsed()) return run_command(options, flags, out, err);
    // No command: the default demo.
    RunOptions demo;
    demo.algorithm = "kogge-stone";
    RunFlags demo_flags;
    demo_flags.steps = true;
    return run_command(demo, demo_flags, out, err);
  } catch (const std::exception& e) {
    err << "syncscope: internal error: " << e.what() << "\n";
    return kExitInternal;
  }
}

}  // namespace syncscope::cli
