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
  std::string shown = text;
  if (ImGui::CalcTextSize(text.c_str()).x > room) {
    // Cut at a character boundary (UTF-8 continuation bytes stay with their lead byte).
    const std::string ellipsis = "…";
    size_t keep = text.size();
    while (keep > 0) {
      --keep;
      while (keep > 0 && (static_cast<unsigned char>(text[keep]) & 0xC0) == 0x80) --keep;
      shown = text.substr(0, keep) + ellipsis;
      if (ImGui::CalcTextSize(shown.c_str()).x <= room) break;
    }
    if (keep == 0) shown.clear();
  }
  if (audit && !shown.empty()) audit->label(shown, ImGui::CalcTextSize(shown.c_str()).x, room);
  return shown;
}

void text_fitted(UiContext& ui, const std::string& text, bool dim) {
  const std::string shown = fit_label(text, ImGui::GetContentRegionAvail().x, &ui.geometry);
  if (dim) ImGui::TextDisabled("%s", shown.c_str());
  else ImGui::TextUnformatted(shown.c_str());
  if (shown != text && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text.c_str());
}

}  // namespace syncscope::ui
