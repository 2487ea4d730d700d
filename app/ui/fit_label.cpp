// Labels that never run past their box: shortened by one rule everywhere, and counted for the
// GUI tests.
#include <imgui.h>

#include "app/ui/panels.h"

namespace syncscope::ui {

void FrameGeometry::label(const std::string& text, float text_w, float box_w) {
  ++labels;
  if (text_w > box_w + 0.5f)
    overflowing.push_back(text + " (" + std::to_string(static_cast<int>(text_w)) + " > " +
                          std::to_string(static_cast<int>(box_w)) + ")");
}

std::string fit_label(const std::string& text, float room, FrameGeometry* audit) {
  const app::TextMetrics metrics = text_metrics();
  std::string shown = app::fit_text(text, room, metrics);
  if (audit && !shown.empty()) audit->label(shown, metrics.width(shown), room);
  return shown;
}

void text_fitted(UiContext& ui, const std::string& text, bool dim) {
  const std::string shown = fit_label(text, ImGui::GetContentRegionAvail().x, &ui.geometry);
  if (dim) ImGui::TextDisabled("%s", shown.c_str());
  else ImGui::TextUnformatted(shown.c_str());
  if (shown != text && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text.c_str());
}

}  // namespace syncscope::ui
