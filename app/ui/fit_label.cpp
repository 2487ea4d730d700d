// Labels that never run past their box: shortened by one rule everywhere, and counted for the
// GUI tests; the progress bar's label among them.
#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "app/ui/panels.h"

namespace syncscope::ui {

void FrameGeometry::label(const std::string& text, float text_w, float box_w) {
  ++labels;
  if (text_w > box_w + 0.5f)
    overflowing.push_back(text + " (" + std::to_string(static_cast<int>(text_w)) + " > " +
                          std::to_string(static_cast<int>(box_w)) + ")");
}

app::TextMetrics text_metrics() {
  return {ImGui::GetFontSize(), [](std::string_view text, float font_px) {
            if (text.empty()) return 0.0f;
            const ImVec2 size = ImGui::GetFont()->CalcTextSizeA(font_px, FLT_MAX, 0.0f, text.data(), text.data() + text.size());
            return std::floor(size.x + 0.99999f);  // as ImGui::CalcTextSize rounds
          }};
}

std::string fit_label(const std::string& text, float room, FrameGeometry* audit) {
  const app::TextMetrics metrics = text_metrics();
  std::string shown = app::fit_text(text, room, metrics);
  if (audit && !shown.empty()) audit->label(shown, metrics.width(shown), room);
  return shown;
}

void text_fitted(const PanelFrame& frame, const std::string& text, bool dim) {
  const std::string shown = fit_label(text, ImGui::GetContentRegionAvail().x, &frame.geometry);
  if (dim) ImGui::TextDisabled("%s", shown.c_str());
  else ImGui::TextUnformatted(shown.c_str());
  if (shown != text && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text.c_str());
}

void progress_bar(const PanelFrame& frame, const ProgressSnapshot& progress, float width) {
  std::string text = duration_words(progress.elapsed_s) + " so far";
  if (progress.fraction) {
    text = std::to_string(static_cast<int>(std::floor(*progress.fraction * 100))) + "% · " +
           (progress.seconds_left ? duration_words(*progress.seconds_left) + " left" : std::string("estimating the time left"));
    if (progress.runs_total > 1)
      text += " · run " + std::to_string(std::min(progress.run + 1, progress.runs_total)) + " of " + std::to_string(progress.runs_total);
  }
  const std::string shown = fit_label(text, width - 2 * ImGui::GetStyle().FramePadding.x, &frame.geometry);
  ImGui::ProgressBar(static_cast<float>(progress.fraction.value_or(0)), ImVec2(width, 0), shown.c_str());
  if (shown != text && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text.c_str());
}

}  // namespace syncscope::ui
