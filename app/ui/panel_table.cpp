// The panels of the app and where each one starts, normal and on a projector.
#include <chrono>

#include "app/ui/panels.h"

namespace syncscope::ui {

const std::vector<PanelSpec>& panel_table() {
  // Presenter mode (the canvas's height is the window's, whose font is a thirtieth of it): the
  // timeline a strip across the top, the step view and the code below it; every other panel is
  // one key away, drawn over them (the race lab across the whole width, the others on the right).
  constexpr PanelPlace kOverRight{840, 140, 760, -1, true};
  constexpr PanelPlace kOverAll{0, 140, 1600, -1, true};
  static const std::vector<PanelSpec> table = {
      {"Controls", draw_controls_panel, {0, 0, 300, 430}, kOverRight, 2},
      {"Metrics", draw_metrics_panel, {0, 430, 300, 268}, kOverRight, 3},
      {"Hazards", draw_hazards_panel, {0, 698, 300, -1}, kOverRight, 4},
      {"Timeline", draw_timeline_panel, {300, 0, 820, 130}, {0, 0, 1600, 140, false, true}},
      {"Block view", draw_block_view_panel, {300, 130, 820, 590}, {0, 140, 1040, -1}},
      {"Global arrays", draw_global_arrays_panel, {300, 720, 820, -1}, kOverAll, 7},
      {"Code", draw_code_panel, {1120, 0, 480, 500}, {1040, 140, 560, -1}, 8},
      {"Results", draw_results_panel, {1120, 500, 480, 230}, kOverRight, 6},
      {"Race lab", draw_race_lab_panel, {1120, 730, 480, -1}, kOverAll, 5},
      // The performance lab: on demand (F10 or View), over the step view.
      {"Performance", draw_performance_panel, {300, 130, 1300, 840, true}, kOverAll, 10},
  };
  return table;
}

void draw_panels(UiContext& ui) {
  draw_menu_bar(ui);
  for (const PanelSpec& spec : panel_table()) {
    const auto start = std::chrono::steady_clock::now();
    spec.draw(ui);
    ui.arrangement.draw_ms[spec.name] = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  }
}

}  // namespace syncscope::ui
