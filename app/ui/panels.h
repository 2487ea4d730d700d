// The panels of the app, one file each. They draw from AppState and the view-models (app/view/),
// and change things only through AppState and Session.
#pragma once

#include <array>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <typeindex>
#include <unordered_map>
#include <vector>

#include "app/handout_request.h"
#include "app/state/app_state.h"
#include "app/state/session.h"
#include "app/ui/theme.h"
#include "app/view/step_layout.h"

namespace syncscope::gl {
class OverviewStrips;
}

namespace syncscope::ui {

// What the GUI tests check about a frame, from the geometry the panels used (not from pixels):
// where the step view's rows and caption are, and every label drawn with the box it had to fit.
struct FrameGeometry {
  std::map<std::string, std::array<float, 4>> rows;  // x, y, w, h on screen
  std::array<float, 4> step_view_area{};             // the step view's visible drawing area
  float cell_w = 0;                                  // the step view's cell width (px)
  float step_view_bottom = 0;                        // where the step view's content ends (y)
  int race_lab_bars = -1;                            // bars in the race lab's chart (-1: not drawn)
  bool cells_as_colours = false;                     // some step-view cell showed its value as a colour
  int blocks_drawn = 0;                              // blocks the step view drew side by side
  std::string waiting_for;                           // what the step view said it waits for, if it did
  int labels = 0;
  std::vector<std::string> overflowing;  // labels drawn wider than their box: "text (w > box)"
  void label(const std::string& text, float text_w, float box_w);
  void clear() { *this = FrameGeometry{}; }
};

// Text as the current window's font measures it (ImGui::CalcTextSize's numbers), for layouts made
// without a window (app/view/step_layout.h).
app::TextMetrics text_metrics();

// A label in a box `room` wide: as it is when it fits, else cut to fit with "…" at the end (the
// full text is on hover where the panel offers it; app::fit_text's rule). Records it in `audit`.
std::string fit_label(const std::string& text, float room, FrameGeometry* audit = nullptr);

// What panels ask of the main loop, which acts on it between frames.
struct LoopRequests {
  std::string export_png;  // save the next frame here
  // File > Export GIF / sheet / step view: the hand-out to draw, as `gui --gif/--sheet/--step-png`
  // would (the main loop draws it over the next frames, then puts the view back).
  std::optional<app::HandoutRequest> export_handout;
  bool quit = false;
  bool toggle_presenter = false;
};

// Where the panels are and how they are arranged (normal or presenter mode): kept by begin_panel,
// the View menu and the F-keys, read by the main loop and the state file the GUI tests read.
struct PanelArrangement {
  int generation = 0;  // bumped by View > Reset layout
  // Where each panel is on screen this frame (x, y, w, h), and how long it took to draw (ms).
  std::map<std::string, std::array<float, 4>> rects;
  std::map<std::string, double> draw_ms;
  // Presenter mode's on-demand panels that are open, and panels to put back in their place and
  // bring to the front this frame (asked for by their key).
  std::map<std::string, bool> open;
  std::map<std::string, bool> raise;
  // Panels to put back where they were (x, y, w, h) this frame: after a hand-out drew the step view
  // over the whole window.
  std::map<std::string, std::array<float, 4>> restore;
};

// How the main loop sets the step view up.
struct StepViewSetup {
  // Drawing a hand-out (GIF, sheet, step-view PNG): the step view alone, filling the window, without
  // its title, toolbar and slider.
  bool handout = false;
  std::optional<int> focus_start;  // gui --focus T: the step view's focus window starts at thread T
};

// Each panel's own state (caches, fields being edited), one of each type, made on first use and
// living as long as the window: panels keep nothing in statics. The types are private to each
// panel's file, so a panel reaches only its own.
class PanelStates {
 public:
  template <class PanelState>
  PanelState& get() {
    std::shared_ptr<void>& slot = states_[std::type_index(typeid(PanelState))];
    if (!slot) slot = std::make_shared<PanelState>();
    return *static_cast<PanelState*>(slot.get());
  }

 private:
  std::unordered_map<std::type_index, std::shared_ptr<void>> states_;
};

// Everything the window has: the main loop's (app/frame_loop.h). Panels get only their part of it,
// unpacked by the panel table (below).
struct UiContext {
  UiContext(app::AppState& s, app::Session& session_) : state(s), session(session_), theme(Theme::normal()) {}
  app::AppState& state;
  app::Session& session;
  Theme theme;
  gl::OverviewStrips* overview = nullptr;  // the global arrays' textures
  std::string message;  // shown in the menu bar (file operations)
  LoopRequests requests;
  PanelArrangement arrangement;
  StepViewSetup step_view;
  FrameGeometry geometry;  // what the GUI tests check about this frame
  PanelStates panel_states;
};

// What every panel's window needs from the frame: where it goes, its colours, the label audit and
// its own state.
struct PanelFrame {
  PanelArrangement& arrangement;
  const Theme& theme;
  FrameGeometry& geometry;
  PanelStates& states;
  bool presenter;  // presenter mode's layout
  bool handout;    // a hand-out places the step view itself, without titles (StepViewSetup)
  template <class PanelState>
  PanelState& own() const {
    return states.get<PanelState>();
  }
};
PanelFrame panel_frame(UiContext& ui);

// Each panel's inputs: the frame, and what the panel reads or changes besides.
// Most panels draw the run on show and act through the session (jump to a hazard, run on the GPU).
struct SessionPanel : PanelFrame {
  const app::AppState& state;
  app::Session& session;
};
using ControlsPanel = SessionPanel;
using CodePanel = SessionPanel;
using ResultsPanel = SessionPanel;
using MetricsPanel = SessionPanel;
using HazardsPanel = SessionPanel;
using RaceLabPanel = SessionPanel;
// The timeline moves the position.
struct TimelinePanel : PanelFrame {
  app::AppState& state;
};
// The step view moves the position too (replay, the block), and the main loop sets it up.
struct BlockViewPanel : PanelFrame {
  app::AppState& state;
  app::Session& session;
  StepViewSetup& step_view;  // the focus window asked for is taken once
};
struct GlobalArraysPanel : PanelFrame {
  app::AppState& state;
  app::Session& session;
  gl::OverviewStrips* overview;  // nullptr: no OpenGL strips
};
struct PerformancePanel : PanelFrame {
  app::Session& session;
};
struct MenuBar : PanelFrame {
  app::AppState& state;
  app::Session& session;
  LoopRequests& requests;
  std::string& message;  // UiContext::message: shown in the menu bar, set by its dialogs
};

// A line of text in the rest of the row, cut by fit_label's rule, whole on hover; dim: disabled colour.
void text_fitted(const PanelFrame& frame, const std::string& text, bool dim = false);
// A bar of long work's progress, `width` wide: the fraction done and the time left on it ("37% ·
// 12 s left"), or the time so far where no fraction is known.
void progress_bar(const PanelFrame& frame, const ProgressSnapshot& progress, float width);

// Where a panel's window starts, on a 1600 × 1000 canvas below the menu bar (scaled to the window);
// h < 0 reaches the bottom.
struct PanelPlace {
  float x, y, w, h;
  bool on_demand = false;  // hidden until its key (or View menu) shows it, then drawn over the others
  bool no_title = false;
};

// Every panel, in drawing order: adding one is its file, a line here and one in CMakeLists.txt.
struct PanelSpec {
  const char* name;
  // Unpacks the panel's inputs from the window's context and draws it.
  void (*draw)(UiContext& ui, const PanelFrame& frame);
  PanelPlace normal;     // class setup on the left, the block view in the middle, code and results right
  PanelPlace presenter;  // on a projector: the timeline across, the step view and the code large,
                         // the rest one key away
  int function_key = 0;  // F<n> shows the panel (brings it to the front, opens it in presenter mode)
};
const std::vector<PanelSpec>& panel_table();

// Draws the menu bar and every panel of the table.
void draw_panels(UiContext& ui);
// Draws one panel of the table (the step view alone, for hand-outs and the bench).
void draw_panel(UiContext& ui, const char* name);

// Opens a panel's window where the layout puts it (normal or presenter, scaled to the window;
// applied on first use and again after View > Reset layout or a switch of presenter mode) and
// records where it is. False when it is collapsed or (presenter mode) not asked for: the window is
// already ended, draw nothing.
bool begin_panel(const PanelFrame& frame, const char* name);

// After begin_panel: the run on screen, or nullptr when there is nothing to draw yet (no run, or
// with `needs_launches` none recorded); then `waiting` (if any) is shown and the window ended.
const RunResult* run_to_draw(const PanelFrame& frame, const app::AppState& state, const app::Session& session,
                             bool needs_launches = false, const char* waiting = nullptr);

void draw_menu_bar(const MenuBar& panel);
void draw_controls_panel(const ControlsPanel& panel);
void draw_timeline_panel(const TimelinePanel& panel);
void draw_block_view_panel(const BlockViewPanel& panel);
void draw_global_arrays_panel(const GlobalArraysPanel& panel);
void draw_code_panel(const CodePanel& panel);
void draw_results_panel(const ResultsPanel& panel);
void draw_metrics_panel(const MetricsPanel& panel);
void draw_hazards_panel(const HazardsPanel& panel);
void draw_race_lab_panel(const RaceLabPanel& panel);
void draw_performance_panel(const PerformancePanel& panel);

// The keys of the timeline: Space play/pause, Left/Right step, Home/End; . and , one operation
// forward/back inside the step (replay); F2..F9 a panel; F11 presenter mode; Ctrl+Q quit. `keys`: GLFW key codes pressed since the last frame, in order.
void handle_keys(UiContext& ui, const std::vector<int>& keys);

// Shows a panel (F-key, View menu): brings it to the front; in presenter mode opens or closes it.
void toggle_panel(PanelArrangement& arrangement, bool presenter, const PanelSpec& spec);

}  // namespace syncscope::ui
