#include "app/command_line/gui_options.h"

#include <CLI/CLI.hpp>

#include <map>

namespace syncscope::command_line {
namespace {

// The app's whole-number options, taken as text so that each gets parse_count's message.
struct CountWords {
  struct Target {
    const CountOption* option;
    std::optional<int>* value;
  };
  std::vector<Target> targets;
  std::map<std::string, std::optional<std::string>> words;  // by option
  std::optional<int> bench_frames, width, height, gpu_runs, from, to;
};

void add_count_options(CLI::App& cmd, CountWords& counts) {
  for (const CountWords::Target& t : counts.targets) cmd.add_option(t.option->option, counts.words[t.option->option], t.option->help);
}

// The words given, in the options' order; the first bad one's message.
std::optional<std::string> finish_counts(CountWords& counts) {
  for (const CountWords::Target& t : counts.targets) {
    const std::optional<std::string>& word = counts.words[t.option->option];
    if (!word) continue;
    if (auto bad = parse_count(*t.option, *word, *t.value)) return bad;
  }
  return std::nullopt;
}

void add_gui_options(CLI::App& cmd, GuiOptions& o, CountWords& counts) {
  add_count_options(cmd, counts);
  cmd.add_flag("--presenter", o.presenter, "presenter mode: large font, high contrast");
  cmd.add_option("--screenshot", o.screenshot, "render one frame off screen to this PNG and exit");
  cmd.add_option("--kernel", o.kernel_file,
                 "open your own kernel file (compiled at run time, cached) and compile it again whenever it is saved");
  cmd.add_option("--grid", o.launch_words.grid, LaunchWords::kGridHelp);
  cmd.add_option("--kernel-name", o.launch_words.kernel_name, LaunchWords::kKernelNameHelp);
  cmd.add_option("--arg", o.launch_words.arguments, LaunchWords::kArgHelp);
  cmd.add_option("--shared-bytes", o.launch_words.shared_bytes, LaunchWords::kSharedBytesHelp);
  cmd.add_option("--state-file", o.state_file, "keep this file up to date with the position (JSON)");
  cmd.add_flag("--play-through", o.play_through,
               "play the lesson from its first step to its last and back (normal and presenter, replay off and on), "
               "checking every frame; exit 1 at the first that goes wrong");
  cmd.add_flag("--compare-schedules", o.compare_schedules, "open with the race lab's schedule comparison done");
  cmd.add_option("--gif", o.handouts.gif, "write an animated GIF of the step view (every step, replayed) and exit");
  cmd.add_option("--sheet", o.handouts.sheet, "write a PNG with every step of the shown block stacked and exit");
  cmd.add_option("--step-png", o.handouts.step_png, "write a PNG of the step view alone (this step) and exit");
  cmd.add_option("--fps", o.handouts.fps, "GIF: frames per second (0.5..50, default 4)");
  cmd.add_option("--trace", o.trace, "write the run as Perfetto / Chrome trace-event JSON and exit");
}

}  // namespace

std::variant<GuiOptions, int> parse_gui_command(const std::vector<std::string>& args, std::ostream& out,
                                                std::ostream& err) {
  CLI::App app{"syncscope: the desktop app"};
  app.name("syncscope");
  GuiOptions o;
  CountWords counts;
  namespace c = count_options;
  counts.targets = {{&c::kLaunch, &o.launch},         {&c::kStep, &o.step},      {&c::kReplay, &o.replay},
                    {&c::kFocus, &o.focus},           {&c::kBenchFrames, &counts.bench_frames},
                    {&c::kGpuRuns, &counts.gpu_runs}, {&c::kFrom, &counts.from}, {&c::kTo, &counts.to},
                    {&c::kWidth, &counts.width},      {&c::kHeight, &counts.height}};
  std::string scenario;
  app.add_option("--scenario", scenario, "open a scenario file (JSON)");
  auto* gui = app.add_subcommand("gui", "open the app on an algorithm");
  add_gui_options(app, o, counts);
  add_gui_options(*gui, o, counts);
  gui->add_option("ALGO", o.config.options.algorithm, "algorithm (see `syncscope list`)");
  gui->add_option("--scenario", scenario, "open a scenario file (JSON)");
  add_config_options(*gui, o.config);
  try {
    std::vector<std::string> reversed(args.rbegin(), args.rend());
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    out << (gui->parsed() ? gui->help() : app.help());
    return kExitRan;
  } catch (const CLI::ParseError& e) {
    err << "syncscope: " << e.what() << "\n";
    return kExitBadArguments;
  }
  if (auto bad = finish_counts(counts)) {
    err << "syncscope: " << *bad << "\n";
    return kExitBadArguments;
  }
  if (auto bad = take_launch_block(o.config, o.launch_words)) {
    err << "syncscope: " << *bad << "\n";
    return kExitBadArguments;
  }
  if (auto bad = finish_config(o.config)) {
    err << "syncscope: " << *bad << "\n";
    return kExitBadArguments;
  }
  if (!scenario.empty()) o.scenario = scenario;
  o.bench_frames = counts.bench_frames.value_or(o.bench_frames);
  o.gpu_runs = counts.gpu_runs.value_or(o.gpu_runs);
  o.handouts.from = counts.from.value_or(o.handouts.from);
  o.handouts.to = counts.to.value_or(o.handouts.to);
  o.width = counts.width.value_or(o.width);
  o.height = counts.height.value_or(o.height);
  return o;
}

}  // namespace syncscope::command_line
