// The desktop app's entry:
//   syncscope                                  the default demo (kogge-stone, n=8, TPB=8, step 0)
//   syncscope --scenario FILE                  a scenario
//   syncscope gui [ALGO] [run options] [--launch L] [--step K] [--presenter]
//                 [--screenshot out.png]       render one frame off screen, save it, exit
//                 [--replay K]                 the step view K operations into the step
//                 [--focus T]                  a large block's focus window at thread T
//                 [--state-file F]             keep F up to date with the position (GUI tests)
//                 [--bench-frames N]           play N frames, print frame times, exit
//                 [--play-through]             play the lesson end to end and back, checking every frame
//                 [--compare-schedules] [--gpu-runs R]   the race lab's answers ready on opening
// The words are read by app/command_line/gui_options.h; each way of running the window is a driver
// of the one frame loop (app/gui_drivers.h).
#include "app/gui_main.h"

#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <variant>

#include "app/command_line/gui_options.h"
#include "app/command_line/kernel_option.h"
#include "app/export/perfetto_trace.h"
#include "app/gl/overview_strip.h"
#include "app/gl/window.h"
#include "app/gui_drivers.h"
#include "app/handouts.h"
#include "app/state/text_file.h"
#include "app/state/ui_wake.h"
#include "core/kernel_file.h"

namespace syncscope::app {
namespace {

using command_line::GuiOptions;
using command_line::kExitBadArguments;
using command_line::kExitInternal;
using command_line::kExitRan;

// A run the window is not watched through: files written, then exit (bad input: exit 2).
bool offscreen(const GuiOptions& o) {
  return !o.screenshot.empty() || o.bench_frames > 0 || o.play_through || o.handouts.wanted() ||
         !o.trace.empty();
}

// What the window opens on, made before it opens: a kernel file compiled (its errors are bad
// input), a scenario read, or the run options resolved.
struct Opening {
  Registry registry = builtin_registry();
  std::optional<KernelFile> kernel;
  ProgramLaunch launch;  // a .cu without main(): --grid, --block, ... (each recompile launches it so)
  std::optional<RunConfig> initial;  // unset: the scenario
  std::string notice;  // a file of the user's that could not be used, shown in the menu bar
  bool watch_refused_file = false;  // the kernel file was refused: watched, it loads once it is mended
};

// Says why a file of the user's is not used and what is done instead (in the menu bar, and on `err`).
void fall_back(Opening& opening, const std::string& why, const std::string& instead, std::ostream& err) {
  opening.notice = why + "; " + instead;
  err << "syncscope: " << opening.notice << "\n";
}

// The opening, or the exit code when there is none.
std::variant<Opening, int> prepare_opening(GuiOptions& o, std::ostream& err) {
  Opening opening;
  // `syncscope gui FILE.cu`: a plain CUDA program opens as --kernel would open it.
  if (o.kernel_file.empty() && is_cuda_program_path(o.config.options.algorithm)) {
    o.kernel_file = o.config.options.algorithm;
    o.config.options.algorithm.clear();
  }
  if (std::string why = command_line::program_launch(o.launch_words, o.kernel_file, opening.launch); !why.empty()) {
    err << "syncscope: " << why << "\n";
    return kExitBadArguments;
  }
  if (!o.kernel_file.empty()) {
    opening.kernel = command_line::load_kernel_option(o.kernel_file, opening.registry, o.config.options, err, opening.launch);
    // A script must fail; a student's window opens on the demo with the file's errors in the Code
    // panel and watches the file, so that saving it mended brings its run up.
    if (!opening.kernel && offscreen(o)) return kExitBadArguments;
    if (!opening.kernel) {
      fall_back(opening, o.kernel_file + " was refused (its errors are in the Code panel)",
                "the default demo runs until the file is saved mended", err);
      opening.watch_refused_file = true;
      o.config.options.algorithm.clear();
    }
  }
  if (o.scenario) {
    if (auto loaded = load_scenario(*o.scenario); std::holds_alternative<std::string>(loaded)) {
      // A script (screenshots, hand-outs) must fail; a teacher's window opens on the default demo.
      if (offscreen(o)) {
        err << "syncscope: " << std::get<std::string>(loaded) << "\n";
        return kExitBadArguments;
      }
      fall_back(opening, std::get<std::string>(loaded), "started with the default demo", err);
      o.scenario.reset();
    }
  }
  if (o.scenario) return opening;
  if (o.config.options.algorithm.empty()) o.config.options.algorithm = "kogge-stone";
  auto resolved = resolve(opening.registry, o.config.options);
  if (auto* e = std::get_if<ConfigError>(&resolved)) {
    err << "syncscope: " << e->text() << "\n";
    return kExitBadArguments;
  }
  opening.initial = std::get<RunConfig>(resolved);
  return opening;
}

// Where the window's layout is kept between sessions ("" when nowhere, or when the file there
// cannot be used: then `unusable` says why). Such a file is not handed to Dear ImGui (a FIFO would
// block it, binary data would be parsed) and not saved over either: the user's file stays as it is.
std::string layout_file(std::string* unusable) {
  const std::string dir = gl::config_dir();
  if (dir.empty()) return "";  // nowhere to keep the layout: not persisted
  const std::string layout = dir + "/layout.ini";
  std::error_code ec;
  if (!std::filesystem::exists(std::filesystem::symlink_status(layout, ec))) return layout;  // written when the app closes
  if (auto read = read_layout_file(layout); read.index() == 1) {
    *unusable = std::get<1>(read);
    return "";
  }
  return layout;
}

// The window and the app in it, for as long as the run lasts.
struct OpenApp {
  explicit OpenApp(std::unique_ptr<gl::Window> w) : window(std::move(w)) {}
  std::unique_ptr<gl::Window> window;
  AppState state;
  Session session{state};
  ui::UiContext ui{state, session};
  gl::OverviewStrips overview;  // after the window: needs its GL context
};

std::unique_ptr<OpenApp> open_window(const GuiOptions& o, Opening& opening, std::ostream& err) {
  gl::WindowOptions wo;
  wo.width = o.width;
  wo.height = o.height;
  wo.visible = !offscreen(o);
  wo.vsync = !offscreen(o);
  if (!offscreen(o)) {
    std::string unusable;
    wo.layout_file = layout_file(&unusable);
    if (!unusable.empty()) fall_back(opening, unusable, "the default layout is used and the file is left as it is", err);
  }
  std::string why;
  auto window = gl::Window::open(wo, &why);
  if (!window) {
    err << "syncscope: " << why << "\n(`syncscope run ALGO --steps` shows a run as text)\n";
    return nullptr;
  }
  set_ui_wake(&gl::Window::wake);  // background work ends the window's idle wait
  auto app = std::make_unique<OpenApp>(std::move(window));
  app->ui.step_view.focus_start = o.focus;
  if (!app->overview.ok()) err << "syncscope: " << app->overview.error() << " (overview strips disabled)\n";
  app->ui.overview = app->overview.ok() ? &app->overview : nullptr;
  set_presenter(app->ui, *app->window, o.presenter);
  app->ui.message = opening.notice;
  return app;
}

// The run in the session: the scenario (a bad one: the default demo, or exit 2 off screen), the
// kernel file, or the resolved options. False when the run must stop with bad input.
bool start_session(const GuiOptions& o, Opening& opening, OpenApp& app, std::ostream& err) {
  Session& session = app.session;
  const std::optional<std::string> refused = o.scenario ? session.open_scenario(*o.scenario) : std::nullopt;
  if (refused && offscreen(o)) {
    err << "syncscope: " << *refused << "\n";
    return false;
  }
  if (refused) {
    fall_back(opening, *refused, "started with the default demo", err);
    app.ui.message = opening.notice;
    RunOptions demo;
    demo.algorithm = "kogge-stone";
    session.edit(ControlsForm::from(std::get<RunConfig>(resolve(opening.registry, demo))));
  } else if (!o.scenario) {
    session.edit(ControlsForm::from(*opening.initial));  // a kernel file's algorithm: simulated once the session has it
    if (opening.kernel) session.open_kernel(o.kernel_file, std::move(*opening.kernel), opening.launch);
    if (opening.watch_refused_file) session.open_kernel(o.kernel_file, std::nullopt, opening.launch);
  }
  return true;
}

// The first run (and the GPU's answer) before the first frame, then the position asked for. A
// window waits at most 1.5 s: a long or runaway simulation then shows its progress and Cancel
// while frames keep coming. The play-through starts drawing while the run is still being simulated,
// as a window would.
void settle_and_place(const GuiOptions& o, OpenApp& app) {
  Session& session = app.session;
  AppState& state = app.state;
  if (offscreen(o) && !o.play_through) session.settle();
  else if (!offscreen(o)) session.settle_within(std::chrono::milliseconds(1500));
  if (o.compare_schedules) session.compare_schedules();
  if (o.gpu_runs > 0) session.run_gpu_outcomes(o.gpu_runs);
  if (o.compare_schedules || o.gpu_runs > 0) {
    session.settle();
    app.ui.arrangement.open["Race lab"] = true;  // presenter mode shows it on demand: it was asked for
  }
  if (o.launch) state.go_to(state.timeline().index_of(*o.launch, o.step.value_or(0)));
  else if (o.step) state.go_to(*o.step);
  // Where the step has fewer operations, the step view stops at its last (and the slider says so).
  if (o.replay) state.set_replay(*o.replay);
}

// --trace FILE: the run as Perfetto / Chrome trace-event JSON; false (said on `err`) when it could
// not be written.
bool write_trace(const AppState& state, const std::string& path, std::ostream& out, std::ostream& err) {
  const auto failed = state.run() ? write_file_atomically(path, perfetto_trace(*state.run()).dump() + "\n")
                                  : std::optional<std::string>(path + ": no run to write");
  if (failed) {
    err << "syncscope: " << *failed << "\n";  // names the file
    return false;
  }
  out << path << ": the run as Perfetto trace-event JSON (ui.perfetto.dev)\n";
  return true;
}

int run_frames(const GuiOptions& o, OpenApp& app, FrameDriver& driver, std::ostream& out, std::ostream& err) {
  GuiRun run{*app.window, app.state, app.session, app.ui, o.state_file};
  return run_frame_loop(run, driver, out, err);
}

// The hand-outs, checked against the run's timeline before the first frame.
int run_handouts(const GuiOptions& o, OpenApp& app, std::ostream& out, std::ostream& err) {
  if (std::string bad = Handouts(o.handouts).check(app.state); !bad.empty()) {
    err << "syncscope: " << bad << "\n";
    return kExitBadArguments;
  }
  app.ui.step_view.handout = true;
  return run_frames(o, app, *handout_driver(o.handouts), out, err);
}

// --screenshot and --trace: the files, then exit.
int run_screenshot_or_trace(const GuiOptions& o, OpenApp& app, std::ostream& out, std::ostream& err) {
  if (!o.trace.empty() && !write_trace(app.state, o.trace, out, err)) return kExitInternal;
  if (o.screenshot.empty()) return kExitRan;
  return run_frames(o, app, *screenshot_driver(o.screenshot), out, err);
}

int run_gui(GuiOptions& o, std::ostream& out, std::ostream& err) {
  auto prepared = prepare_opening(o, err);
  if (auto* exit_code = std::get_if<int>(&prepared)) return *exit_code;
  Opening& opening = std::get<Opening>(prepared);
  const std::unique_ptr<OpenApp> app = open_window(o, opening, err);
  if (!app) return kExitInternal;
  if (!start_session(o, opening, *app, err)) return kExitBadArguments;
  settle_and_place(o, *app);
  if (auto notice = offscreen(o) ? app->session.take_scenario_notice() : std::nullopt) {  // a script fails; a window shows it
    err << "syncscope: " << *notice << "\n";
    return kExitBadArguments;
  }
  if (o.play_through) return run_frames(o, *app, *play_through_driver(o.width, o.height), out, err);
  if (o.bench_frames > 0) return run_frames(o, *app, *bench_driver(o.bench_frames), out, err);
  if (o.handouts.wanted()) {
    if (!o.trace.empty() && !write_trace(app->state, o.trace, out, err)) return kExitInternal;
    return run_handouts(o, *app, out, err);
  }
  if (!o.trace.empty() || !o.screenshot.empty()) return run_screenshot_or_trace(o, *app, out, err);
  return run_frames(o, *app, *interactive_driver(), out, err);
}

}  // namespace

int run_gui_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  auto parsed = command_line::parse_gui_command(args, out, err);
  if (auto* exit_code = std::get_if<int>(&parsed)) return *exit_code;
  try {
    return run_gui(std::get<GuiOptions>(parsed), out, err);
  } catch (const std::exception& e) {
    err << "syncscope: internal error: " << e.what() << "\n";
    return kExitInternal;
  }
}

}  // namespace syncscope::app
