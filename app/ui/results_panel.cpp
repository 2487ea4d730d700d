// Results: CPU reference, simulator and GPU side by side with per-element differences; the GPU
// runs on a worker thread and its status says which device ran, or why none could.
#include <imgui.h>

#include "app/ui/panels.h"
#include "app/view/results_model.h"

namespace syncscope::ui {

void draw_results_panel(const ResultsPanel& panel) {
  if (!begin_panel(panel, "Results")) return;
  const RunResult* run = run_to_draw(panel, panel.state, panel.session);
  if (!run) return;
  const auto& status = panel.session.gpu_status();
  const app::GpuAnswer* gpu = panel.session.gpu();
  const app::ResultsModel m = app::build_results(*run, gpu, panel.session.gpu_running(), status ? &*status : nullptr, 0, 0);
  // Wrapped: a verdict is a sentence ("main() returned 1: the program's own check failed"), never cut.
  ImGui::PushStyleColor(ImGuiCol_Text, ImU32(ImColor(m.sim_ok ? panel.theme.good : panel.theme.bad)));
  ImGui::TextWrapped("%s", m.sim_verdict.c_str());
  ImGui::PopStyleColor();
  ImGui::TextWrapped("%s", m.gpu_status.c_str());
  const auto wrapped = [](ImU32 colour, const std::string& text) {
    ImGui::PushStyleColor(ImGuiCol_Text, colour);
    ImGui::TextWrapped("%s", text.c_str());
    ImGui::PopStyleColor();
  };
  if (!m.gpu_verdict.empty()) wrapped(ImColor(m.gpu_ok ? panel.theme.good : panel.theme.bad), m.gpu_verdict);
  if (m.can_run_gpu && ImGui::Button("Run on GPU")) panel.session.run_gpu();
  // The error too: where the run stopped and why is the one line a student must read whole.
  if (run->sim.trace.error) wrapped(ImColor(panel.theme.bad), "error: " + run->sim.trace.error->message);

  const int columns = m.has_gpu_column ? 4 : 3;
  if (m.row_count > 0 && ImGui::BeginTable("values", columns, ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_BordersInnerV)) {
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("i");
    ImGui::TableSetupColumn("CPU reference");
    ImGui::TableSetupColumn("simulator");
    if (m.has_gpu_column) ImGui::TableSetupColumn("GPU");
    ImGui::TableHeadersRow();
    ImGuiListClipper clipper;
    clipper.Begin(m.row_count);
    while (clipper.Step())
      for (const app::ResultRowView& r : app::result_rows(*run, gpu, clipper.DisplayStart, clipper.DisplayEnd)) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextDisabled("%d", r.index);
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(r.cpu.c_str());
        ImGui::TableNextColumn();
        if (r.sim_differs) ImGui::TextColored(ImColor(panel.theme.bad), "%s", r.sim.c_str());
        else ImGui::TextUnformatted(r.sim.c_str());
        if (m.has_gpu_column) {
          ImGui::TableNextColumn();
          if (r.gpu_differs_from_sim || r.gpu_differs) ImGui::TextColored(ImColor(panel.theme.bad), "%s", r.gpu.c_str());
          else ImGui::TextUnformatted(r.gpu.c_str());
        }
      }
    ImGui::EndTable();
  }
  ImGui::End();
}

}  // namespace syncscope::ui
