// Timeline: one mark per step, grouped by launch and labelled with the line of the barrier that
// ends it; first / back / play-pause / forward / last, and the playing speed.
#include <imgui.h>

#include <algorithm>

#include "app/ui/panels.h"
#include "app/view/timeline_model.h"

namespace syncscope::ui {

void draw_timeline_panel(UiContext& ui) {
  if (!begin_panel(ui, "Timeline")) return;
  app::AppState& s = ui.state;
  const app::TimelineModel m = app::build_timeline(s);
  if (ImGui::Button("|<")) s.first();
  ImGui::SameLine();
  if (ImGui::Button("<")) s.step_back();
  ImGui::SameLine();
  if (ImGui::Button(m.playing ? "Pause" : "Play ")) s.toggle_play();
  ImGui::SameLine();
  if (ImGui::Button(">")) s.step_forward();
  ImGui::SameLine();
  if (ImGui::Button(">|")) s.last();
  ImGui::SameLine();
  ImGui::SetNextItemWidth(150);
  ImGui::SliderFloat("steps/s", &s.playback().steps_per_second, 0.25f, 30.0f, "%.2g", ImGuiSliderFlags_Logarithmic);
  ImGui::SameLine();
  ImGui::TextUnformatted(m.where.c_str());

  // The marks, launch by launch.
  const float h = ImGui::GetFontSize() * 2.6f;
  ImGui::BeginChild("marks", ImVec2(0, h + ImGui::GetStyle().ScrollbarSize + 4), false,
                    ImGuiWindowFlags_HorizontalScrollbar);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float number_w = std::max(ImGui::CalcTextSize("000").x + 6, ImGui::GetFontSize() * 1.8f);
  // Marks say what the step does ("load", "offset 1 read") when every name fits the panel;
  // otherwise the barrier's line number, with the names on hover.
  auto name_of = [](const app::TimelineMark& mark) { return mark.name.empty() ? std::string("end") : mark.name; };
  float named_total = 0;
  bool all_named = !m.marks.empty();
  for (const auto& mark : m.marks) {
    all_named &= !mark.name.empty() || mark.barrier == sim::kNoLine;
    named_total += std::max(number_w, ImGui::CalcTextSize(name_of(mark).c_str()).x + 10) + 2;
  }
  const bool names = all_named && named_total <= ImGui::GetContentRegionAvail().x;
  for (size_t l = 0; l < m.launches.size(); ++l) {
    const auto& launch = m.launches[l];
    ImGui::BeginGroup();
    ImGui::TextDisabled("%s", launch.label.c_str());
    for (int k = 0; k < launch.steps; ++k) {
      const int index = launch.first + k;
      const auto& mark = m.marks[index];
      const float mark_w = names ? std::max(number_w, ImGui::CalcTextSize(name_of(mark).c_str()).x + 10) : number_w;
      if (k) ImGui::SameLine(0, 2);
      ImGui::PushID(index);
      const ImVec2 p = ImGui::GetCursorScreenPos();
      if (ImGui::InvisibleButton("mark", ImVec2(mark_w, ImGui::GetFontSize() + 6))) s.go_to(index);
      const bool current = index == m.current;
      dl->AddRectFilled(p, ImVec2(p.x + mark_w, p.y + ImGui::GetFontSize() + 6),
                        current ? ui.theme.written : ImGui::IsItemHovered() ? ui.theme.cell_border : ui.theme.cell, 3);
      const std::string line = names                          ? name_of(mark)
                               : mark.barrier == sim::kNoLine ? "end"
                                                              : mark.label.substr(mark.label.rfind(':') + 1);
      const ImVec2 ts = ImGui::CalcTextSize(line.c_str());
      dl->AddText(ImVec2(p.x + (mark_w - ts.x) / 2, p.y + 3), current ? IM_COL32(0, 0, 0, 255) : ui.theme.cell_text,
                  line.c_str());
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s\nstep %d: %s%sends %s", launch.label.c_str(), mark.step, mark.caption.c_str(),
                          mark.caption.empty() ? "" : "\n",
                          mark.barrier == sim::kNoLine ? "when the threads exit" : ("at barrier " + mark.label).c_str());
      ImGui::PopID();
    }
    ImGui::EndGroup();
    if (l + 1 < m.launches.size()) ImGui::SameLine(0, 16);
  }
  // Keep the current mark in view while playing (named marks all fit).
  if (m.playing && !m.marks.empty() && !names) {
    const float x = static_cast<float>(m.current) * (number_w + 2);
    if (x < ImGui::GetScrollX() || x > ImGui::GetScrollX() + ImGui::GetWindowWidth() - number_w)
      ImGui::SetScrollX(x - ImGui::GetWindowWidth() / 2);
  }
  ImGui::EndChild();
  ImGui::End();
}

}  // namespace syncscope::ui
