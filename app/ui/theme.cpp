#include "app/ui/theme.h"

#include <algorithm>

namespace syncscope::ui {

Theme Theme::normal() {
  Theme t;
  t.cell = IM_COL32(44, 48, 58, 255);
  t.cell_border = IM_COL32(90, 96, 110, 255);
  t.cell_text = IM_COL32(230, 232, 236, 255);
  t.changed = IM_COL32(40, 96, 70, 255);
  t.written = IM_COL32(235, 120, 235, 255);
  t.read = IM_COL32(90, 170, 255, 255);
  t.poison = IM_COL32(80, 40, 80, 255);
  t.poison_text = IM_COL32(230, 150, 230, 255);
  t.race = IM_COL32(255, 70, 60, 255);
  t.bank_conflict = IM_COL32(240, 240, 240, 255);
  t.arrow_read = IM_COL32(90, 170, 255, 200);
  t.arrow_write = IM_COL32(235, 120, 235, 230);
  t.thread_active = IM_COL32(120, 220, 140, 255);
  t.thread_idle = IM_COL32(90, 96, 110, 255);
  t.thread_exited = IM_COL32(55, 58, 66, 255);
  t.warp_outline = IM_COL32(130, 140, 160, 255);
  t.label = IM_COL32(200, 205, 215, 255);
  t.dim_text = IM_COL32(120, 126, 138, 255);
  t.barrier_line = IM_COL32(140, 100, 20, 200);
  t.executed_line = IM_COL32(40, 70, 110, 200);
  t.good = IM_COL32(110, 210, 120, 255);
  t.bad = IM_COL32(255, 90, 80, 255);
  t.warning = IM_COL32(255, 170, 30, 255);
  return t;
}

Theme Theme::presenter() {
  Theme t;
  t.high_contrast = true;
  t.cell = IM_COL32(0, 0, 0, 255);
  t.cell_border = IM_COL32(255, 255, 255, 255);
  t.cell_text = IM_COL32(255, 255, 255, 255);
  t.changed = IM_COL32(0, 110, 0, 255);
  t.written = IM_COL32(255, 100, 255, 255);
  t.read = IM_COL32(0, 200, 255, 255);
  t.poison = IM_COL32(120, 0, 120, 255);
  t.poison_text = IM_COL32(255, 170, 255, 255);
  t.race = IM_COL32(255, 0, 0, 255);
  t.bank_conflict = IM_COL32(255, 255, 255, 255);
  t.arrow_read = IM_COL32(0, 200, 255, 255);
  t.arrow_write = IM_COL32(255, 100, 255, 255);
  t.thread_active = IM_COL32(0, 255, 0, 255);
  t.thread_idle = IM_COL32(150, 150, 150, 255);
  t.thread_exited = IM_COL32(70, 70, 70, 255);
  t.warp_outline = IM_COL32(255, 255, 255, 255);
  t.label = IM_COL32(255, 255, 255, 255);
  t.dim_text = IM_COL32(190, 190, 190, 255);
  t.barrier_line = IM_COL32(160, 110, 0, 255);
  t.executed_line = IM_COL32(0, 60, 140, 255);
  t.good = IM_COL32(0, 255, 0, 255);
  t.bad = IM_COL32(255, 40, 40, 255);
  t.warning = IM_COL32(255, 170, 0, 255);
  return t;
}

void hatch(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 colour, float spacing, float thickness) {
  dl->PushClipRect(a, b, true);
  for (float x = a.x - (b.y - a.y); x < b.x; x += spacing) dl->AddLine(ImVec2(x, b.y), ImVec2(x + (b.y - a.y), a.y), colour, thickness);
  dl->PopClipRect();
}

ImU32 Theme::shade(float v) const {
  v = std::clamp(v, 0.0f, 1.0f);
  // Dark blue -> teal -> yellow, as the overview shader.
  const float c0[3] = {0.267f, 0.005f, 0.329f}, c1[3] = {0.128f, 0.567f, 0.551f}, c2[3] = {0.993f, 0.906f, 0.144f};
  float c[3];
  for (int k = 0; k < 3; ++k) c[k] = v < 0.5f ? c0[k] + (c1[k] - c0[k]) * v * 2 : c1[k] + (c2[k] - c1[k]) * (v * 2 - 1);
  return IM_COL32(static_cast<int>(c[0] * 255), static_cast<int>(c[1] * 255), static_cast<int>(c[2] * 255), 255);
}

void Theme::apply_to_imgui() const {
  ImGuiStyle style;
  if (high_contrast) {
    ImGui::StyleColorsDark(&style);
    style.Colors[ImGuiCol_WindowBg] = ImVec4(0, 0, 0, 1);
    style.Colors[ImGuiCol_ChildBg] = ImVec4(0, 0, 0, 1);
    style.Colors[ImGuiCol_Text] = ImVec4(1, 1, 1, 1);
    style.Colors[ImGuiCol_Border] = ImVec4(1, 1, 1, 1);
    style.Colors[ImGuiCol_TitleBgActive] = ImVec4(0.15f, 0.15f, 0.5f, 1);
    style.Colors[ImGuiCol_FrameBg] = ImVec4(0.15f, 0.15f, 0.15f, 1);
    style.Colors[ImGuiCol_Button] = ImVec4(0.2f, 0.2f, 0.6f, 1);
    style.WindowBorderSize = 2;
    style.FrameBorderSize = 1;
  } else {
    ImGui::StyleColorsDark(&style);
    style.WindowRounding = 3;
    style.FrameRounding = 2;
  }
  // Menus, Help and tooltips open over the picture: nothing of it may show through their text.
  style.Colors[ImGuiCol_PopupBg].w = 1;
  ImGui::GetStyle() = style;
}

}  // namespace syncscope::ui
