// The panels of the app and where each one starts, normal and on a projector; each row unpacks its
// panel's inputs from the window's context, so a panel sees only what it reads and writes.
#include <chrono>
#include <cstring>

#include "app/ui/panels.h"

namespace syncscope::ui {

PanelFrame panel_frame(UiContext& ui) {
  return {ui.arrangement, ui.theme, ui.geometry, ui.panel_states, ui.state.presenter, ui.step_view.handout};
}

const std::vector<PanelSpec>& panel_table() {
  // Presenter mode (the canvas's height is the window's, whose font is a thirtieth of it): the
  // timeline a strip across the top, the step view and the code below it; every other panel is
  // one key away, drawn over them (the race lab across the whole width, the others on the right).
  constexpr PanelPlace kOverRight{840, 140, 760, -1, true};
  constexpr PanelPlace kOverAll{0, 140, 1600, -1, true};
  static const std::vector<PanelSpec> table = {
      {"Controls", [](UiContext& ui, const PanelFrame& f) { draw_controls_panel({f, ui.state, ui.session}); },
       {0, 0, 300, 430}, kOverRight, 2},
      {"Metrics", [](UiContext& ui, const PanelFrame& f) { draw_metrics_panel({f, ui.state, ui.session}); },
       {0, 430, 300, 268}, kOverRight, 3},
      {"Hazards", [](UiContext& ui, const PanelFrame& f) { draw_hazards_panel({f, ui.state, ui.session}); },
       {0, 698, 300, -1}, kOverRight, 4},
      {"Timeline", [](UiContext& ui, const PanelFrame& f) { draw_timeline_panel({f, ui.state}); },
       {300, 0, 820, 130}, {0, 0, 1600, 140, false, true}},
      {"Block view",
       [](UiContext& ui, const PanelFrame& f) { draw_block_view_panel({f, ui.state, ui.session, ui.step_view}); },
       {300, 130, 820, 590}, {0, 140, 1040, -1}},
      {"Global arrays",
       [](UiContext& ui, const PanelFrame& f) { draw_global_arrays_panel({f, ui.state, ui.session, ui.overview}); },
       {300, 720, 820, -1}, kOverAll, 7},
      {"Code", [](UiContext& ui, const PanelFrame& f) { draw_code_panel({f, ui.state, ui.session}); },
       {1120, 0, 480, 500}, {1040, 140, 560, -1}, 8},
      {"Results", [](UiContext& ui, const PanelFrame& f) { draw_results_panel({f, ui.state, ui.session}); },
       {1120, 500, 480, 230}, kOverRight, 6},
      {"Race lab", [](UiContext& ui, const PanelFrame& f) { draw_race_lab_panel({f, ui.state, ui.session}); },
       {1120, 730, 480, -1}, kOverAll, 5},
      // The performance lab: on demand (F10 or View), over the step view.
      {"Performance", [](UiContext& ui, const PanelFrame& f) { draw_performance_panel({f, ui.session}); },
       {300, 130, 1300, 840, true}, kOverAll, 10},
  };
  return table;
}

void draw_panels(UiContext& ui) {
  const PanelFrame frame = panel_frame(ui);
  draw_menu_bar({frame, ui.state, ui.session, ui.requests, ui.message});
  for (const PanelSpec& spec : panel_table()) {
    const auto start = std::chrono::steady_clock::now();
    spec.draw(ui, frame);
    ui.arrangement.draw_ms[spec.name] = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  }
}

void draw_panel(UiContext& ui, const char* name) {
  for (const PanelSpec& spec : panel_table())
    if (std::strcmp(spec.name, name) == 0) spec.draw(ui, panel_frame(ui));
}

}  // namespace syncscope::ui
