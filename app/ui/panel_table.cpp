// The panels of the app and where each one starts, normal and on a projector.
#include <chrono>

#include "app/ui/panels.h"

namespace syncscope::ui {

const std::vector<PanelSpec>& panel_table() {
  static const std::vector<PanelSpec> table = {
      {"Controls", draw_controls_panel, {0, 0, 300, 430}, {1060, 0, 540, 600, true}},
      {"Metrics", draw_metrics_panel, {0, 430, 300, 268}, {1060, 50, 540, 420, true}},
      {"Hazards", draw_hazards_panel, {0, 698, 300, -1}, {1060, 100, 540, 420, true}},
      {"Timeline", draw_timeline_panel, {300, 0, 820, 130}, {0, 0, 1060, 205}},
      {"Block view", draw_block_view_panel, {300, 130, 820, 520}, {0, 205, 1060, -1}},
      {"Global arrays", draw_global_arrays_panel, {300, 650, 820, -1}, {1060, 200, 540, 420, true}},
      {"Code", draw_code_panel, {1120, 0, 480, 500}, {1060, 250, 540, 480}},
      {"Results", draw_results_panel, {1120, 500, 480, 230}, {1060, 730, 540, -1}},
      {"Race lab", draw_race_lab_panel, {1120, 730, 480, -1}, {1060, 150, 540, 600, true}},
  };
  return table;
}

void draw_panels(UiContext& ui) {
  draw_menu_bar(ui);
  for (const PanelSpec& spec : panel_table()) {
    const auto start = std::chrono::steady_clock::now();
    spec.draw(ui);
    ui.panel_ms[spec.name] = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  }
}

}  // namespace syncscope::ui
