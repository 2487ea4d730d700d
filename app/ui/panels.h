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

#include "app/state/app_state.h"
#include "app/state/session.h"
#include "app/ui/theme.h"

namespace syncscope::gl {
class OverviewStrips;
}

namespace syncscope::ui {

struct UiContext {
  UiContext(app::AppState& s, app::Session& session_) : state(s), session(session_), theme(Theme::normal()) {}
  app::AppState& state;
  app::Session& session;
  Theme theme;
  gl::OverviewStrips* overview = nullptr;
  std::string code_file;  // the code panel's chosen file ("" follows the barrier)
  int layout_generation = 0;  // bumped by View > Reset layout
  // Requests to the main loop.
  std::string export_png;  // save the next frame here
  bool quit = false;
  bool toggle_presenter = false;
  std::optional<int> focus_start;  // gui --focus T: the step view's focus window starts at thread T
  std::string message;  // shown in the menu bar (file operations)
  // Where each panel is on screen this frame (x, y, w, h), for the state file the GUI tests read,
  // and how long it took to draw (ms).
  std::map<std::string, std::array<float, 4>> panel_rects;
  std::map<std::string, double> panel_ms;

  // A panel's own state (caches, fields being edited), one of each type, made on first use and
  // living as long as the window: panels keep nothing in statics.
  template <class PanelState>
  PanelState& state_of() {
    std::shared_ptr<void>& slot = panel_states_[std::type_index(typeid(PanelState))];
    if (!slot) slot = std::make_shared<PanelState>();
    return *static_cast<PanelState*>(slot.get());
  }

 private:
  std::unordered_map<std::type_index, std::shared_ptr<void>> panel_states_;
};

// Where a panel's window starts, on a 1600 × 1000 canvas below the menu bar (scaled to the window);
// h < 0 reaches the bottom.
struct PanelPlace {
  float x, y, w, h;
  bool collapsed = false;
};

// Every panel, in drawing order: adding one is its file, a line here and one in CMakeLists.txt.
struct PanelSpec {
  const char* name;
  void (*draw)(UiContext&);
  PanelPlace normal;     // class setup on the left, the block view in the middle, code and results right
  PanelPlace presenter;  // on a projector: the timeline across, block view and code large, setup collapsed
};
const std::vector<PanelSpec>& panel_table();

// Draws the menu bar and every panel of the table.
void draw_panels(UiContext& ui);

// Opens a panel's window where the layout puts it (normal or presenter, scaled to the window;
// applied on first use and again after View > Reset layout or a switch of presenter mode) and
// records where it is. False when it is collapsed: the window is already ended, draw nothing.
bool begin_panel(UiContext& ui, const char* name);

// After begin_panel: the run on screen, or nullptr when there is nothing to draw yet (no run, or
// with `needs_launches` none recorded); then `waiting` (if any) is shown and the window ended.
const RunResult* run_to_draw(UiContext& ui, bool needs_launches = false, const char* waiting = nullptr);

void draw_menu_bar(UiContext& ui);
void draw_controls_panel(UiContext& ui);
void draw_timeline_panel(UiContext& ui);
void draw_block_view_panel(UiContext& ui);
void draw_global_arrays_panel(UiContext& ui);
void draw_code_panel(UiContext& ui);
void draw_results_panel(UiContext& ui);
void draw_metrics_panel(UiContext& ui);
void draw_hazards_panel(UiContext& ui);
void draw_race_lab_panel(UiContext& ui);

// The keys of the timeline: Space play/pause, Left/Right step, Home/End; . and , one operation
// forward/back inside the step (replay); F11 presenter mode; Ctrl+Q quit. `keys`: GLFW key codes pressed since the last frame, in order.
void handle_keys(UiContext& ui, const std::vector<int>& keys);

}  // namespace syncscope::ui
