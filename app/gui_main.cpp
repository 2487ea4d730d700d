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
#include "app/gui_main.h"

#include <CLI/CLI.hpp>
#include <imgui.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <iomanip>
#include <map>
#include <optional>
#include <vector>

#include "app/command_line/config_args.h"
#include "app/command_line/kernel_option.h"
#include "app/gl/overview_strip.h"
#include "app/export/perfetto_trace.h"
#include "app/gl/window.h"
#include "app/handouts.h"
#include "app/play_through.h"
#include "core/kernel_file.h"
#include "app/state/session.h"
#include "app/state/text_file.h"
#include "app/ui/panels.h"

namespace syncscope::app {
namespace {

struct GuiOptions {
  command_line::ConfigArgs config;
  std::optional<std::string> scenario;
  std::optional<int> launch, step, replay, focus;
  bool presenter = false;
  std::string screenshot;
  std::string state_file;
  int bench_frames = 0;
  bool play_through = false;
  int width = 1600, height = 1000;
  bool compare_schedules = false;
  int gpu_runs = 0;
  HandoutRequest handouts;
  std::string trace;
  std::string kernel_file;  // --kernel FILE: compiled, shown, and compiled again when saved
};

double process_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * (v.size() - 1) + 0.5))];
}

// Colours, and paddings in proportion to the font (presenter mode's follows the window's height).
void apply_style(ui::UiContext& ui, const gl::Window& window) {
  ui.theme = ui.state.presenter ? ui::Theme::presenter() : ui::Theme::normal();
  ui.theme.apply_to_imgui();
  if (ui.state.presenter) ImGui::GetStyle().ScaleAllSizes(std::max(1.0f, window.font_size() / 18.0f));
  ++ui.arrangement.generation;  // each mode, and each presenter size, has its own arrangement
}

void set_presenter(ui::UiContext& ui, gl::Window& window, bool on) {
  ui.state.presenter = on;
  window.set_presenter(on);
  apply_style(ui, window);
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

// --bench-frames: first the whole app, then the block view alone filling the window.
struct BenchPhase {
  std::string name;
  std::vector<double> wall, cpu, build, triangles;
};

void print_bench_report(std::ostream& out, int bench_frames, const std::vector<BenchPhase>& phases,
                        const std::map<std::string, std::vector<double>>& panel_ms, const AppState& state,
                        const gl::Window& window) {
  out << bench_frames << " frames per row, TPB " << (state.run() ? state.run()->config.problem.tpb : 0)
      << (state.replay() >= 0 ? ", replaying one operation per frame, " : ", playing one step per frame, ") << window.width() << "x" << window.height()
      << " offscreen; CPU = this process, GL driver threads included\n";
  out << std::fixed << std::setprecision(2);
  out << "frame of               wall ms: median    p95   CPU ms: median    p95   block view build ms: median    p95   triangles\n";
  for (const BenchPhase& p : phases)
    out << std::left << std::setw(22) << p.name << std::right << std::setw(17) << percentile(p.wall, 0.5) << std::setw(7)
        << percentile(p.wall, 0.95) << std::setw(16) << percentile(p.cpu, 0.5) << std::setw(7) << percentile(p.cpu, 0.95)
        << std::setw(29) << percentile(p.build, 0.5) << std::setw(7) << percentile(p.build, 0.95) << std::setw(12)
        << std::setprecision(0) << percentile(p.triangles, 0.5) << std::setprecision(2) << "\n";
  std::vector<std::pair<double, std::string>> slowest;
  for (const auto& [name, ms] : panel_ms) slowest.emplace_back(percentile(ms, 0.5), name);
  std::sort(slowest.rbegin(), slowest.rend());
  out << "slowest panels to build (median ms):";
  for (size_t k = 0; k < std::min<size_t>(3, slowest.size()); ++k) out << (k ? ", " : " ") << slowest[k].second << " " << slowest[k].first;
  out << "\n";
}

// --state-file, for the GUI tests: the position, each panel's rectangle and the geometry the panels
// drew with. Rewritten when anything changed, and every 30 frames (alive).
void write_state_file(const std::string& path, const ui::UiContext& ui, const gl::Window& window, int frame,
                      std::string& last_written) {
  nlohmann::json now = ui.state.describe();
  now["message"] = ui.message;
  now["kernel"] = ui.session.kernel_watch().status();
  if (const auto& stop = ui.session.run_stop()) now["stopped"] = stop->message;
  for (const auto& [name, r] : ui.arrangement.rects) now["panels"][name] = r;
  const ui::FrameGeometry& g = ui.geometry;
  now["geometry"] = {{"rows", g.rows},
                     {"step_view_area", g.step_view_area},
                     {"cell_w", g.cell_w},
                     {"race_lab_bars", g.race_lab_bars},
                     {"labels", g.labels},
                     {"overflowing", g.overflowing},
                     {"window", {window.width(), window.height()}},
                     {"zoom", ui.state.zoom}};
  const std::string key = now.dump();
  if (key != last_written || frame % 30 == 0) {
    now["frame"] = frame;
    write_file_atomically(path, now.dump() + "\n");
  }
  last_written = key;
}

void draw_frame(ui::UiContext& ui, const std::vector<int>& keys, double* block_view_ms) {
  ui::handle_keys(ui, keys);
  ui::draw_panels(ui);
  if (block_view_ms) *block_view_ms = ui.arrangement.draw_ms["Block view"];
}

int run_gui(GuiOptions& o, std::ostream& out, std::ostream& err) {
  // Bad input is refused before any window opens.
  if (auto bad = command_line::finish_config(o.config)) {
    err << "syncscope: " << *bad << "\n";
    return command_line::kExitBadArguments;
  }
  std::optional<RunConfig> initial;
  // A kernel file is compiled (or found in the cache) before any window opens: its errors are
  // bad input. The session takes it from here and watches it.
  Registry registry = builtin_registry();
  std::optional<KernelFile> kernel;
  if (!o.kernel_file.empty()) {
    kernel = command_line::load_kernel_option(o.kernel_file, registry, o.config.options, err);
    if (!kernel) return command_line::kExitBadArguments;
  }
  Handouts handouts(o.handouts);
  const bool offscreen = !o.screenshot.empty() || o.bench_frames > 0 || o.play_through || handouts.wanted() || !o.trace.empty();
  // Shown in the menu bar once the window is up: a file of the user's that could not be used.
  std::string startup_notice;
  auto fall_back = [&](const std::string& why, const std::string& instead) {
    startup_notice = why + "; " + instead;
    err << "syncscope: " << startup_notice << "\n";
  };
  if (o.scenario) {
    if (auto loaded = load_scenario(*o.scenario); std::holds_alternative<std::string>(loaded)) {
      // A script (screenshots, handouts) must fail; a teacher's window opens on the default demo.
      if (offscreen) {
        err << "syncscope: " << std::get<std::string>(loaded) << "\n";
        return command_line::kExitBadArguments;
      }
      fall_back(std::get<std::string>(loaded), "started with the default demo");
      o.scenario.reset();
    }
  }
  if (!o.scenario) {
    if (o.config.options.algorithm.empty()) o.config.options.algorithm = "kogge-stone";
    auto resolved = resolve(registry, o.config.options);
    if (auto* e = std::get_if<ConfigError>(&resolved)) {
      err << "syncscope: " << e->text() << "\n";
      return command_line::kExitBadArguments;
    }
    initial = std::get<RunConfig>(resolved);
  }

  gl::WindowOptions wo;
  wo.width = o.width;
  wo.height = o.height;
  wo.visible = !offscreen;
  wo.vsync = !offscreen;
  if (!offscreen) {
    std::string unusable;
    wo.layout_file = layout_file(&unusable);
    if (!unusable.empty()) fall_back(unusable, "the default layout is used and the file is left as it is");
  }
  std::string why;
  auto window = gl::Window::open(wo, &why);
  if (!window) {
    err << "syncscope: " << why << "\n(`syncscope run ALGO --steps` shows a run as text)\n";
    return command_line::kExitInternal;
  }

  AppState state;
  Session session(state);
  ui::UiContext ui(state, session);
  ui.step_view.focus_start = o.focus;
  gl::OverviewStrips overview;
  if (!overview.ok()) err << "syncscope: " << overview.error() << " (overview strips disabled)\n";
  ui.overview = overview.ok() ? &overview : nullptr;
  set_presenter(ui, *window, o.presenter);

  ui.message = startup_notice;
  std::optional<std::string> scenario_refused = o.scenario ? session.open_scenario(*o.scenario) : std::nullopt;
  if (scenario_refused && offscreen) {
    err << "syncscope: " << *scenario_refused << "\n";
    return command_line::kExitBadArguments;
  }
  if (scenario_refused) {
    fall_back(*scenario_refused, "started with the default demo");
    ui.message = startup_notice;
    RunOptions demo;
    demo.algorithm = "kogge-stone";
    auto defaults = resolve(registry, demo);
    session.edit(ControlsForm::from(std::get<RunConfig>(defaults)));
  } else if (!o.scenario) {
    session.edit(ControlsForm::from(*initial));  // a kernel file's algorithm: simulated once the session has it
    if (kernel) session.open_kernel(o.kernel_file, std::move(*kernel));
  }
  // The first run (and the GPU's answer) before the first frame. A window waits at most 1.5 s: a
  // long or runaway simulation then shows its progress and Cancel while frames keep coming.
  // The play-through starts drawing while the run is still being simulated, as a window would.
  if (offscreen && !o.play_through) session.settle();
  else if (!offscreen) session.settle_within(std::chrono::milliseconds(1500));
  if (auto notice = offscreen ? session.take_scenario_notice() : std::nullopt) {  // a script fails; a window shows it
    err << "syncscope: " << *notice << "\n";
    return command_line::kExitBadArguments;
  }
  if (o.compare_schedules) session.compare_schedules();
  if (o.gpu_runs > 0) session.run_gpu_outcomes(o.gpu_runs);
  if (o.compare_schedules || o.gpu_runs > 0) {
    session.settle();
    ui.arrangement.open["Race lab"] = true;  // presenter mode shows it on demand: it was asked for
  }
  if (o.launch || o.step) {
    if (o.launch) state.go_to(state.timeline().index_of(*o.launch, o.step.value_or(0)));
    else state.go_to(*o.step);
  }
  // Where the step has fewer operations, the step view stops at its last (and the slider says so).
  if (o.replay) state.set_replay(*o.replay);
  if (!o.trace.empty()) {
    if (!write_trace(state, o.trace, out, err)) return command_line::kExitInternal;
    if (!handouts.wanted() && o.screenshot.empty()) return command_line::kExitRan;
  }
  if (handouts.wanted()) {
    if (std::string bad = handouts.check(state); !bad.empty()) {
      err << "syncscope: " << bad << "\n";
      return command_line::kExitBadArguments;
    }
    ui.step_view.handout = true;
  }
  std::optional<Handouts> menu_handout;
  struct {
    int position = 0, replay = -1;
    bool playing = false;
    std::optional<std::array<float, 4>> block_view;  // where the panel was (the hand-out fills the window)
  } before_handout;
  auto end_menu_handout = [&](const std::string& message) {
    ui.message = message;
    menu_handout.reset();
    ui.step_view.handout = false;
    state.go_to(before_handout.position);
    state.set_replay(before_handout.replay);
    if (before_handout.playing) state.toggle_play();
    if (before_handout.block_view) ui.arrangement.restore["Block view"] = *before_handout.block_view;
  };
  int shown_tpb = 0;
  float styled_font_px = window->font_size();

  std::string last_state;
  std::vector<double> frame_ms, frame_cpu_ms, block_ms, triangles;
  std::vector<BenchPhase> phases;
  std::map<std::string, std::vector<double>> panel_ms;  // the whole app's frames: each panel's build time
  bool block_view_only = false;
  int frame = 0;
  int exit_code = command_line::kExitRan;
  std::optional<PlayThrough> play_through;
  if (o.play_through) play_through.emplace(o.width, o.height);
  while (!window->should_close() && !ui.requests.quit) {
    session.poll();
    if (state.run() && state.run()->config.problem.tpb != shown_tpb) {
      // A new block size opens fitted to the panel: small blocks large, large ones a colour per cell.
      shown_tpb = state.run()->config.problem.tpb;
      state.fill_block_view = true;
    }
    // File > Export GIF / sheet / step view: drawn as the command line would, then the view is put
    // back where it was.
    if (ui.requests.export_handout && !menu_handout && !handouts.wanted()) {
      menu_handout.emplace(*ui.requests.export_handout);
      if (std::string bad = menu_handout->check(state); !bad.empty()) {
        ui.message = bad;
        menu_handout.reset();
      } else {
        before_handout = {state.position(), state.replay(), state.playback().playing, std::nullopt};
        if (auto it = ui.arrangement.rects.find("Block view"); it != ui.arrangement.rects.end()) before_handout.block_view = it->second;
        if (state.playback().playing) state.toggle_play();
        ui.step_view.handout = true;
      }
      ui.requests.export_handout.reset();
    }
    Handouts* handout = handouts.wanted() ? &handouts : menu_handout ? &*menu_handout : nullptr;
    // Hand-outs: the step view alone, each frame where the next picture is (after the first few
    // frames, when windows have their sizes).
    bool handout_frame = handout && frame >= 3;
    if (handout_frame) {
      if (!handout->prepare(state)) {
        std::string summary;
        const std::string failed = handout->finish(&summary);
        if (handout == &handouts) {
          if (!failed.empty()) {
            err << "syncscope: " << failed << "\n";
            exit_code = command_line::kExitInternal;
          }
          out << summary;
          break;
        }
        end_menu_handout(failed.empty() ? summary.substr(0, summary.find('\n')) : failed);
        handout = nullptr;  // this frame draws the whole window again
        handout_frame = false;
      } else {
        window->keep_next_frame_pixels();
      }
    }
    if (play_through) {
      const auto next = play_through->before_frame(state, session);
      if (!next) break;
      if (next->window_size) window->resize(next->window_size->first, next->window_size->second);
      if (next->presenter && *next->presenter != state.presenter) set_presenter(ui, *window, *next->presenter);
    }
    const auto t0 = std::chrono::steady_clock::now();
    const double cpu0 = process_cpu_ms();
    window->begin_frame();
    if (window->font_size() != styled_font_px) {  // presenter mode on a resized window
      styled_font_px = window->font_size();
      apply_style(ui, *window);
    }
    if (o.bench_frames) {
      // Playing at one step per frame, wrapping around; while replaying, one operation per frame.
      if (state.replay() >= 0 && state.replay() < state.replay_total()) state.move_replay(1);
      else if (state.at_end()) state.first();
      else state.step_forward();
    } else if (!handout) {  // hand-outs place every frame themselves
      state.tick(ImGui::GetIO().DeltaTime);
    }
    double block_view = 0;
    ui.arrangement.rects.clear();
    ui.geometry.clear();
    if (block_view_only || handout) {
      ImGui::SetNextWindowPos(ImVec2(0, 0), ImGuiCond_Always);
      ImGui::SetNextWindowSize(ImGui::GetIO().DisplaySize, ImGuiCond_Always);
      const auto b0 = std::chrono::steady_clock::now();
      ui::draw_block_view_panel(ui);
      block_view = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - b0).count();
    } else {
      draw_frame(ui, window->take_pressed_keys(), &block_view);
    }
    if (ui.arrangement.generation > 0) ui.arrangement.generation = 0;  // a reset applies for one frame
    if (!o.screenshot.empty() && frame == 3) window->capture_next_frame(o.screenshot);
    if (!ui.requests.export_png.empty()) {
      window->capture_next_frame(ui.requests.export_png);
      ui.requests.export_png.clear();
    }
    window->end_frame();
    ++frame;
    if (play_through)
      play_through->after_frame(state, {ui.geometry.rows.count("threads") > 0, ui.geometry.blocks_drawn, ui.geometry.waiting_for});
    if (o.bench_frames && frame > 10) {  // after warming up
      frame_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
      frame_cpu_ms.push_back(process_cpu_ms() - cpu0);
      block_ms.push_back(block_view);
      triangles.push_back(window->last_frame_triangles());
      if (!block_view_only)
        for (const auto& [name, ms] : ui.arrangement.draw_ms) panel_ms[name].push_back(ms);
      if (static_cast<int>(frame_ms.size()) >= o.bench_frames) {
        phases.push_back({block_view_only ? "block view alone" : "whole app", frame_ms, frame_cpu_ms, block_ms, triangles});
        frame_ms.clear();
        triangles.clear();
        frame_cpu_ms.clear();
        block_ms.clear();
        if (block_view_only) break;
        block_view_only = true;
        frame = 0;
      }
    }
    if (auto pixels = window->take_pixels(); pixels && handout_frame) {
      if (std::string e = handout->take(state, *pixels, window->width(), window->height(), ui.geometry.step_view_bottom); !e.empty()) {
        if (handout == &handouts) {
          err << "syncscope: " << e << "\n";
          exit_code = command_line::kExitInternal;
          break;
        }
        end_menu_handout(e);  // the view comes back on the next frame
      }
    }
    if (auto captured = window->take_capture_result()) {
      if (!o.screenshot.empty()) {
        if (!captured->empty()) {
          err << "syncscope: " << *captured << "\n";
          exit_code = command_line::kExitInternal;
        }
        break;
      }
      ui.message = captured->empty() ? "exported PNG" : *captured;
    }
    if (ui.requests.toggle_presenter) {
      ui.requests.toggle_presenter = false;
      set_presenter(ui, *window, !state.presenter);
    }
    if (!o.state_file.empty()) write_state_file(o.state_file, ui, *window, frame, last_state);
    if (frame % 30 == 1) {  // describe() runs the algorithm's host code (the block count): not every frame
      std::string title = "syncscope";
      if (state.run()) title += " - " + state.run()->config.describe();
      if (!session.title().empty()) title += " - " + session.title();
      window->set_title(title);
    }
  }
  if (play_through) {
    (play_through->failed() ? err : out) << play_through->report();
    if (play_through->failed()) exit_code = command_line::kExitInternal;
  }
  if (o.bench_frames) print_bench_report(out, o.bench_frames, phases, panel_ms, state, *window);
  return exit_code;
}

}  // namespace

int run_gui_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  CLI::App app{"syncscope: the desktop app"};
  app.name("syncscope");
  GuiOptions o;
  std::string scenario;
  app.add_option("--scenario", scenario, "open a scenario file (JSON)");
  auto* gui = app.add_subcommand("gui", "open the app on an algorithm");
  for (CLI::App* cmd : {static_cast<CLI::App*>(&app), gui}) {
    cmd->add_option("--launch", o.launch, "start at this launch (0-based)");
    cmd->add_option("--step", o.step, "start at this step (of the whole timeline, or of --launch)");
    cmd->add_option("--replay", o.replay, "start the step view this many operations into the step (0: its start)");
    cmd->add_option("--focus", o.focus, "large blocks: open the step view's focus window at this thread");
    cmd->add_flag("--presenter", o.presenter, "presenter mode: large font, high contrast");
    cmd->add_option("--screenshot", o.screenshot, "render one frame off screen to this PNG and exit");
    cmd->add_option("--kernel", o.kernel_file,
                    "open your own kernel file (compiled at run time, cached) and compile it again whenever it is saved");
    cmd->add_option("--state-file", o.state_file, "keep this file up to date with the position (JSON)");
    cmd->add_option("--bench-frames", o.bench_frames, "play this many frames, print frame times, exit");
    cmd->add_flag("--play-through", o.play_through,
                  "play the lesson from its first step to its last and back (normal and presenter, replay off and on), "
                  "checking every frame; exit 1 at the first that goes wrong");
    cmd->add_flag("--compare-schedules", o.compare_schedules, "open with the race lab's schedule comparison done");
    cmd->add_option("--gpu-runs", o.gpu_runs, "open with this many GPU runs of the variant counted")
        ->check(CLI::Range(1, 100000));
    cmd->add_option("--gif", o.handouts.gif, "write an animated GIF of the step view (every step, replayed) and exit");
    cmd->add_option("--sheet", o.handouts.sheet, "write a PNG with every step of the shown block stacked and exit");
    cmd->add_option("--step-png", o.handouts.step_png, "write a PNG of the step view alone (this step) and exit");
    cmd->add_option("--from", o.handouts.from, "GIF and sheet: the first step (timeline position, default 0)");
    cmd->add_option("--to", o.handouts.to, "GIF and sheet: the last step (default the last)");
    cmd->add_option("--fps", o.handouts.fps, "GIF: frames per second (0.5..50, default 4)");
    cmd->add_option("--trace", o.trace, "write the run as Perfetto / Chrome trace-event JSON and exit");
    cmd->add_option("--width", o.width, "window width")->check(CLI::Range(320, 8192));
    cmd->add_option("--height", o.height, "window height")->check(CLI::Range(240, 8192));
  }
  gui->add_option("ALGO", o.config.options.algorithm, "algorithm (see `syncscope list`)");
  gui->add_option("--scenario", scenario, "open a scenario file (JSON)");
  command_line::add_config_options(*gui, o.config);
  try {
    std::vector<std::string> reversed(args.rbegin(), args.rend());
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    out << (gui->parsed() ? gui->help() : app.help());
    return command_line::kExitRan;
  } catch (const CLI::ParseError& e) {
    err << "syncscope: " << e.what() << "\n";
    return command_line::kExitBadArguments;
  }
  if (!scenario.empty()) o.scenario = scenario;
  if (o.step && *o.step < 0) {
    err << "syncscope: --step " << *o.step << ": steps count from 0\n";
    return command_line::kExitBadArguments;
  }
  if (o.focus && *o.focus < 0) {
    err << "syncscope: --focus " << *o.focus << ": threads count from 0\n";
    return command_line::kExitBadArguments;
  }
  if (o.replay && *o.replay < 0) {
    err << "syncscope: --replay " << *o.replay << ": operations count from 0\n";
    return command_line::kExitBadArguments;
  }
  try {
    return run_gui(o, out, err);
  } catch (const std::exception& e) {
    err << "syncscope: internal error: " << e.what() << "\n";
    return command_line::kExitInternal;
  }
}

}  // namespace syncscope::app
