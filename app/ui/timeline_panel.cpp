// Timeline: one mark per step, grouped by launch and named for what the step does; first / back / play-pause / forward / last, and the playing speed.
#include <imgui.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "app/ui/panels.h"
#include "app/view/timeline_model.h"

namespace syncscope::ui {

void draw_timeline_panel(const TimelinePanel& panel) {
  if (!begin_panel(panel, "Timeline")) return;
  app::AppState& s = panel.state;
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
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
  ImGui::SliderFloat("steps/s", &s.playback().steps_per_second, 0.25f, 30.0f, "%.2g", ImGuiSliderFlags_Logarithmic);
  ImGui::SameLine();
  text_fitted(panel, m.where);

  // The marks, launch by launch, each named for what its step does ("load", "offset 1 read"; the
  // barrier's line where the kernel has no caption). When the names do not all fit, every mark gets
  // an equal share of the width and names are shortened to it (full on hover); below the widest
  // shortened name's width the marks scroll.
  const float gap = 2, launch_gap = ImGui::GetFontSize();
  const float number_w = std::max(ImGui::CalcTextSize("000").x + 6, ImGui::GetFontSize() * 1.8f);
  auto name_of = [](const app::TimelineMark& mark) {
    if (!mark.name.empty()) return mark.name;
    if (mark.barrier == sim::kNoLine) return std::string("end");
    return "line " + mark.label.substr(mark.label.rfind(':') + 1);
  };
  const float room = ImGui::GetContentRegionAvail().x - 4;
  // Shortening rule, before cutting: a word most names share says nothing on a mark ("offset 1
  // read" -> "1 read" when nearly every step is an offset's).
  std::map<std::string, int> names_with;  // word -> how many marks' names have it
  for (const auto& mark : m.marks) {
    std::istringstream words(name_of(mark));
    std::set<std::string> seen;
    for (std::string w; words >> w;)
      if (seen.insert(w).second) ++names_with[w];
  }
  // Only a name of a few words is shortened: dropping words from a sentence ("warp 0 scans the
  // warp totals into each warp's offset") leaves a fragment ("totals into"); a sentence is cut.
  auto shortened = [&](const std::string& name) {
    std::istringstream words(name);
    std::string out;
    int count = 0;
    for (std::string w; words >> w; ++count)
      if (2 * names_with[w] <= static_cast<int>(m.marks.size())) out += (out.empty() ? "" : " ") + w;
    return out.empty() || count > 3 ? name : out;
  };
  const float fixed = gap * static_cast<float>(m.marks.size()) + launch_gap * static_cast<float>(m.launches.size() - 1);
  float named_total = fixed;
  for (const auto& mark : m.marks) named_total += std::max(number_w, ImGui::CalcTextSize(name_of(mark).c_str()).x + 10);
  // A mark is never narrower than the widest shortened name: "512 read" stays whole (at TPB 1024
  // the marks scroll rather than read "5…").
  // (A sentence's mark stops at 10 em and is cut with "…".)
  float widest_short = number_w;
  for (const auto& mark : m.marks)
    widest_short = std::max(widest_short, std::min(ImGui::GetFontSize() * 10, ImGui::CalcTextSize(shortened(name_of(mark)).c_str()).x + 10));
  const float share = m.marks.empty() ? number_w : std::max(widest_short, (room - fixed) / static_cast<float>(m.marks.size()));
  const bool all_fit = named_total <= room;
  const bool scrolls = !all_fit && fixed + share * static_cast<float>(m.marks.size()) > room;
  const float mark_h = ImGui::GetFontSize() + 6;
  const float marks_h = mark_h + (scrolls ? ImGui::GetStyle().ScrollbarSize : 0) + 4;
  // One launch: its name is in the status line. Several: a name over each launch's marks where
  // the panel has the room, else only the gap between launches (the status line and a mark's
  // hover name the launch): marks cut in half by the panel's edge would say nothing.
  const bool launch_labels =
      m.launches.size() > 1 && marks_h + ImGui::GetTextLineHeightWithSpacing() <= ImGui::GetContentRegionAvail().y;
  const float h = marks_h + (launch_labels ? ImGui::GetTextLineHeightWithSpacing() : 0);
  ImGui::BeginChild("marks", ImVec2(0, h), false, scrolls ? ImGuiWindowFlags_HorizontalScrollbar : ImGuiWindowFlags_NoScrollbar);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  float current_x = 0;
  for (size_t l = 0; l < m.launches.size(); ++l) {
    const auto& launch = m.launches[l];
    ImGui::BeginGroup();
    if (launch_labels) {
      float launch_w = 0;
      for (int k = 0; k < launch.steps; ++k)
        launch_w += (all_fit ? std::max(number_w, ImGui::CalcTextSize(name_of(m.marks[launch.first + k]).c_str()).x + 10) : share) + gap;
      ImGui::TextDisabled("%s", fit_label(launch.label, launch_w, &panel.geometry).c_str());
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", launch.label.c_str());
    }
    for (int k = 0; k < launch.steps; ++k) {
      const int index = launch.first + k;
      const auto& mark = m.marks[index];
      const std::string full = name_of(mark);
      const float mark_w = all_fit ? std::max(number_w, ImGui::CalcTextSize(full.c_str()).x + 10) : share;
      if (k) ImGui::SameLine(0, gap);
      ImGui::PushID(index);
      const ImVec2 p = ImGui::GetCursorScreenPos();
      if (ImGui::InvisibleButton("mark", ImVec2(mark_w, mark_h))) s.go_to(index);
      const bool current = index == m.current;
      if (current) current_x = p.x - ImGui::GetWindowPos().x + ImGui::GetScrollX();
      dl->AddRectFilled(p, ImVec2(p.x + mark_w, p.y + mark_h),
                        current ? panel.theme.written : ImGui::IsItemHovered() ? panel.theme.cell_border : panel.theme.cell, 3);
      dl->AddRect(p, ImVec2(p.x + mark_w, p.y + mark_h), panel.theme.cell_border, 3);
      // A mark half under the strip's edge (the marks scroll) is labelled in its visible part, cut
      // with "…" there, never by the edge.
      const float seen_l = std::max(p.x, ImGui::GetWindowPos().x);
      const float seen_r = std::min(p.x + mark_w, ImGui::GetWindowPos().x + ImGui::GetWindowWidth());
      const float seen_w = std::max(0.0f, seen_r - seen_l);
      std::string text = fit_label(all_fit ? full : shortened(full), seen_w - 6, &panel.geometry);
      if (text.empty()) text = fit_label(std::to_string(mark.step), seen_w - 4, &panel.geometry);
      const ImVec2 ts = ImGui::CalcTextSize(text.c_str());
      dl->AddText(ImVec2(seen_l + (seen_w - ts.x) / 2, p.y + 3), current ? IM_COL32(0, 0, 0, 255) : panel.theme.cell_text,
                  text.c_str());
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s\nstep %d: %s%sends %s", launch.label.c_str(), mark.step, mark.caption.c_str(),
                          mark.caption.empty() ? "" : "\n",
                          mark.barrier == sim::kNoLine ? "when the threads exit" : ("at barrier " + mark.label).c_str());
      ImGui::PopID();
    }
    ImGui::EndGroup();
    if (l + 1 < m.launches.size()) {
      ImGui::SameLine(0, launch_gap);
      const ImVec2 at = ImGui::GetCursorScreenPos();  // the launches' boundary, a line across the gap
      dl->AddLine(ImVec2(at.x - launch_gap / 2, at.y), ImVec2(at.x - launch_gap / 2, at.y + h - 4), panel.theme.warp_outline, 2);
    }
  }
  // Keep the current mark in view while playing and whenever the step changes (a key, a jump).
  struct FollowedMark {
    int index = -1;
  };
  FollowedMark& followed = panel.own<FollowedMark>();
  const bool moved = followed.index != m.current;
  followed.index = m.current;
  if (scrolls && (m.playing || moved) &&
      (current_x < ImGui::GetScrollX() || current_x > ImGui::GetScrollX() + ImGui::GetWindowWidth() - share))
    ImGui::SetScrollX(current_x - ImGui::GetWindowWidth() / 2);
  ImGui::EndChild();
  ImGui::End();
}

}  // namespace syncscope::ui
