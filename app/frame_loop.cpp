#include "app/frame_loop.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <ctime>

#include "app/state/text_file.h"

namespace syncscope::app {
namespace {

double process_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// --state-file, for the GUI tests: the position, each panel's rectangle and the geometry the panels
// drew with. Rewritten when anything changed, and every 30 frames (alive).
void write_state_file(const GuiRun& run, std::string& last_written) {
  const ui::UiContext& ui = run.ui;
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
                     {"window", {run.window.width(), run.window.height()}},
                     {"zoom", ui.state.zoom}};
  const std::string key = now.dump();
  if (key != last_written || run.frame % 30 == 0) {
    now["frame"] = run.frame;
    write_file_atomically(run.state_file, now.dump() + "\n");
  }
  last_written = key;
}

// The step view alone, filling the window; how long it took to build (ms).
double draw_step_view_alone(ui::UiContext& ui) {
  ImGui::SetNextWindowPos(ImVec2(0, 0), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImGui::GetIO().DisplaySize, ImGuiCond_Always);
  const auto start = std::chrono::steady_clock::now();
  ui::draw_panel(ui, "Block view");
  return ms_since(start);
}

// The whole app: the keys pressed since the last frame, then every panel; the step view's build time.
double draw_app(ui::UiContext& ui, gl::Window& window) {
  ui::handle_keys(ui, window.take_pressed_keys());
  ui::draw_panels(ui);
  return ui.arrangement.draw_ms["Block view"];
}

void draw(GuiRun& run, FrameDriver& driver, FrameTimes& times) {
  ui::UiContext& ui = run.ui;
  ui.arrangement.rects.clear();
  ui.geometry.clear();
  times.block_view_ms = driver.step_view_alone() ? draw_step_view_alone(ui) : draw_app(ui, run.window);
  if (ui.arrangement.generation > 0) ui.arrangement.generation = 0;  // a reset applies for one frame
}

// What the panels asked of the loop, and what it keeps up to date between frames.
void between_frames(GuiRun& run, std::string& last_state) {
  ui::UiContext& ui = run.ui;
  if (ui.requests.toggle_presenter) {
    ui.requests.toggle_presenter = false;
    set_presenter(ui, run.window, !run.state.presenter);
  }
  if (!run.state_file.empty()) write_state_file(run, last_state);
  if (run.frame % 30 == 1) {  // describe() runs the algorithm's host code (the block count): not every frame
    std::string title = "syncscope";
    if (run.state.run()) title += " - " + run.state.run()->config.describe();
    if (!run.session.title().empty()) title += " - " + run.session.title();
    run.window.set_title(title);
  }
}

}  // namespace

void FrameDriver::advance(GuiRun& run) { run.state.tick(ImGui::GetIO().DeltaTime); }

bool FrameDriver::captured(GuiRun& run, const std::string& failed) {
  run.ui.message = failed.empty() ? "exported PNG" : failed;
  return true;
}

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

int run_frame_loop(GuiRun& run, FrameDriver& driver, std::ostream& out, std::ostream& err) {
  int shown_tpb = 0;
  float styled_font_px = run.window.font_size();
  std::string last_state;
  int awake_frames = 3;
  ui::UiContext& ui = run.ui;
  while (!run.window.should_close() && !ui.requests.quit) {
    run.session.poll();
    if (run.state.run() && run.state.run()->config.problem.tpb != shown_tpb) {
      // A new block size opens fitted to the panel: small blocks large, large ones a colour per cell.
      shown_tpb = run.state.run()->config.problem.tpb;
      run.state.fill_block_view = true;
    }
    if (!driver.before_frame(run)) break;
    const auto start = std::chrono::steady_clock::now();
    const double cpu_start = process_cpu_ms();
    run.window.begin_frame();
    if (run.window.font_size() != styled_font_px) {  // presenter mode on a resized window
      styled_font_px = run.window.font_size();
      apply_style(ui, run.window);
    }
    driver.advance(run);
    FrameTimes times;
    draw(run, driver, times);
    driver.after_draw(run);
    if (!ui.requests.export_png.empty()) {
      run.window.capture_next_frame(ui.requests.export_png);
      ui.requests.export_png.clear();
    }
    run.window.end_frame();
    ++run.frame;
    times.wall_ms = ms_since(start);
    times.cpu_ms = process_cpu_ms() - cpu_start;
    if (!driver.after_frame(run, times)) break;
    if (auto captured = run.window.take_capture_result(); captured && !driver.captured(run, *captured)) break;
    between_frames(run, last_state);
    // Idle: sleep until input, then draw a few frames at full rate (ImGui settles a hover or a
    // click over two or three frames).
    // Work off the UI thread wakes it when done (app/state/ui_wake.h); a progress bar moves at 10
    // frames a second; otherwise a frame a second, the session looking at a watched kernel file's
    // time every tenth (a save starts its compile, and the "compiling" line is drawn at once).
    if (run.window.take_input_seen()) awake_frames = 3;
    if (awake_frames > 0) {
      --awake_frames;
    } else if (driver.may_sleep(run)) {
      for (int tenth = 0; tenth < 10; ++tenth) {
        if (run.window.wait_events(0.1) || run.window.take_input_seen()) {
          awake_frames = 3;
          break;
        }
        if (run.session.simulating() || run.session.lab_busy() || run.session.gpu_running()) break;
        const bool compiling = run.session.kernel_watch().compiling();
        run.session.poll();
        if (run.session.kernel_watch().compiling() != compiling) break;
      }
    }
  }
  return driver.finish(run, out, err);
}

}  // namespace syncscope::app
