// Hazards: the race detector's reports, grouped by kind and pair of lines like compute-sanitizer's;
// clicking one jumps the timeline (and with it the block view and the code) to where it happened.
#include <imgui.h>

#include "app/ui/panels.h"
#include "app/view/hazards_model.h"

namespace syncscope::ui {

void draw_hazards_panel(const HazardsPanel& panel) {
  if (!begin_panel(panel, "Hazards")) return;
  const RunResult* run = run_to_draw(panel, panel.state, panel.session);
  if (!run) return;
  const app::HazardsModel m = app::build_hazards(*run);
  ImGui::TextColored(ImColor(m.rows.empty() ? panel.theme.good : panel.theme.warning), "%s", m.summary.c_str());
  if (!m.failure.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImColor(panel.theme.bad).Value);
    ImGui::TextWrapped("run stopped: %s", m.failure.c_str());
    ImGui::PopStyleColor();
  }
  for (size_t i = 0; i < m.rows.size(); ++i) {
    const app::HazardRowView& r = m.rows[i];
    ImGui::PushID(static_cast<int>(i));
    // A selectable the height of the wrapped text, with the text drawn over it.
    const float wrap = ImGui::GetContentRegionAvail().x;
    const ImVec2 size = ImGui::CalcTextSize(r.text.c_str(), nullptr, false, wrap);
    const ImVec2 p = ImGui::GetCursorScreenPos();
    if (ImGui::Selectable("##hazard", false, 0, ImVec2(0, size.y))) panel.session.jump(r.launch, r.step, r.block);
    ImGui::GetWindowDrawList()->AddText(ImGui::GetFont(), ImGui::GetFontSize(), p, r.error ? panel.theme.bad : panel.theme.warning,
                                        r.text.c_str(), nullptr, wrap);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("click: go to launch %d, step %d, block %d", r.launch + 1, r.step, r.block);
    ImGui::PopID();
  }
  ImGui::End();
}

}  // namespace syncscope::ui
