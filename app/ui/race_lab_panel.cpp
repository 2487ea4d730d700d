// Race lab: compare every schedule (lockstep, forward, reverse and 16 random seeds), grouped by
// distinct output with the wrong elements in red; click a schedule to watch that run. And run the
// same variant R times on the GPU: at classroom sizes it usually hides the bug.
#include <imgui.h>

#include "app/ui/panels.h"
#include "app/view/race_lab_model.h"

namespace syncscope::ui {
namespace {

void outcome(UiContext& ui, const app::OutcomeView& o, int id, bool clickable_schedules) {
  ImGui::PushID(id);
  ImGui::TextColored(ImColor(o.correct ? ui.theme.good : ui.theme.bad), "%s", o.headline.c_str());
  if (!o.correct) {
    ImGui::Indent();
    for (size_t i = 0; i < o.values.size(); ++i) {
      if (i) ImGui::SameLine(0, 4);
      if (o.values[i].second) ImGui::TextColored(ImColor(ui.theme.bad), "%s", o.values[i].first.c_str());
      else ImGui::TextDisabled("%s", o.values[i].first.c_str());
    }
    if (o.more_values > 0) {
      ImGui::SameLine(0, 4);
      ImGui::TextDisabled("... +%d", o.more_values);
    }
    ImGui::Unindent();
  }
  if (clickable_schedules && !o.schedules.empty()) {
    ImGui::Indent();
    // Buttons flow like words: on the same line while the next one fits.
    const float right_edge = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    const ImGuiStyle& style = ImGui::GetStyle();
    for (size_t k = 0; k < o.schedules.size(); ++k) {
      const float width = ImGui::CalcTextSize(o.schedules[k].c_str()).x + 2 * style.FramePadding.x;
      if (k && ImGui::GetItemRectMax().x + style.ItemSpacing.x + width <= right_edge) ImGui::SameLine();
      if (ImGui::SmallButton(o.schedules[k].c_str())) ui.session.use_schedule(o.schedules[k]);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("watch the run under %s", o.schedules[k].c_str());
    }
    ImGui::Unindent();
  }
  ImGui::PopID();
}

}  // namespace

void draw_race_lab_panel(UiContext& ui) {
  if (!begin_panel(ui, "Race lab")) return;
  const RunResult* run = run_to_draw(ui);
  if (!run) return;
  const app::RaceLabModel m = app::build_race_lab(*run, ui.session.schedule_outcomes(), ui.session.lab_busy(),
                                                  ui.session.gpu_outcomes(), false);
  ImGui::TextWrapped("%s", m.variant.c_str());
  if (ImGui::Button("Compare schedules")) ui.session.compare_schedules();
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("lockstep, forward, reverse and random:1..16, grouped by output");
  ImGui::SameLine();
  struct GpuRunsField {
    int runs = 100;
  };
  int& runs = ui.state_of<GpuRunsField>().runs;
  ImGui::SetNextItemWidth(ImGui::CalcTextSize("00000").x + 40);
  ImGui::InputInt("##runs", &runs, 0);
  const bool runs_valid = runs >= 1 && runs <= 100000;
  ImGui::SameLine();
  ImGui::BeginDisabled(!runs_valid);
  if (ImGui::Button("GPU runs")) ui.session.run_gpu_outcomes(runs);
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
    if (runs_valid) ImGui::SetTooltip("run this variant %d times on the GPU and count the distinct outputs", runs);
    else ImGui::SetTooltip("GPU runs %d: must be 1..100000", runs);
  }
  if (!runs_valid) ImGui::TextColored(ImColor(ui.theme.bad), "GPU runs %d: must be 1..100000", runs);
  if (ui.session.lab_busy()) ImGui::TextColored(ImColor(ui.theme.warning), "working...");

  ImGui::BeginChild("outcomes");
  if (!m.gpu_status.empty()) {
    if (m.gpu_failed) ImGui::PushStyleColor(ImGuiCol_Text, ImColor(ui.theme.bad).Value);
    ImGui::TextWrapped("%s", m.gpu_status.c_str());
    if (m.gpu_failed) ImGui::PopStyleColor();
    for (size_t k = 0; k < m.gpu.size(); ++k) outcome(ui, m.gpu[k], 1000 + static_cast<int>(k), false);
    ImGui::Separator();
  }
  if (!m.schedules_status.empty()) {
    ImGui::TextUnformatted(m.schedules_status.c_str());
    for (size_t k = 0; k < m.schedules.size(); ++k) outcome(ui, m.schedules[k], static_cast<int>(k), true);
  }
  ImGui::EndChild();
  ImGui::End();
}

}  // namespace syncscope::ui
