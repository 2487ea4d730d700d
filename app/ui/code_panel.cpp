// Code: the kernel source the simulator and the GPU ran, the barrier that ends the current step
// highlighted, the lines executed in the step marked (red where they race).
#include <imgui.h>

#include "app/ui/panels.h"
#include "app/view/code_model.h"

namespace syncscope::ui {

void draw_code_panel(UiContext& ui) {
  if (!begin_panel(ui, "Code")) return;
  const RunResult* run = run_to_draw(ui);
  if (!run) return;
  const sim::BlockTrace* b = ui.state.focused_trace();
  const app::CodeModel m =
      app::build_code_view(*run, ui.state.launch(), ui.state.step(), b ? b->block : 0, ui.code_file);
  struct Followed {  // the step the panel last followed
    int position = -1;
    uint64_t run = 0;
  };
  Followed& last = ui.state_of<Followed>();
  const bool moved = last.position != ui.state.position() || last.run != run->id;

  if (ImGui::BeginTabBar("files")) {
    for (int f = 0; f < static_cast<int>(m.files.size()); ++f) {
      const ImGuiTabItemFlags flags = moved && f == m.file ? ImGuiTabItemFlags_SetSelected : 0;
      if (ImGui::BeginTabItem(m.files[f].c_str(), nullptr, flags)) {
        if (f != m.file && !moved) ui.code_file = m.files[f];  // the user picked another file
        ImGui::EndTabItem();
      }
    }
    ImGui::EndTabBar();
  }
  if (moved) ui.code_file.clear();  // follow the barrier again after a step
  if (!m.missing.empty()) {
    ImGui::TextDisabled("%s", m.missing.c_str());
    ImGui::End();
    return;
  }
  ImGui::BeginChild("source", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
  const float line_h = ImGui::GetTextLineHeightWithSpacing();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(m.lines.size()), line_h);
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const app::CodeLineView& l = m.lines[i];
      const ImVec2 p = ImGui::GetCursorScreenPos();
      const ImVec2 q(p.x + ImGui::GetWindowWidth() + ImGui::GetScrollX(), p.y + line_h);
      if (l.barrier) dl->AddRectFilled(p, q, ui.theme.barrier_line);
      else if (l.executed) dl->AddRectFilled(p, q, ui.theme.executed_line);
      if (l.racy) dl->AddRectFilled(p, ImVec2(p.x + 4, q.y), ui.theme.race);
      ImGui::TextDisabled("%3d", l.number);
      ImGui::SameLine();
      ImGui::TextUnformatted(l.text.c_str());
    }
  }
  if (moved) ImGui::SetScrollY(std::max(0.0f, (m.focus_line - 6) * line_h));
  ImGui::EndChild();
  last.position = ui.state.position();
  last.run = run->id;
  ImGui::End();
}

}  // namespace syncscope::ui
