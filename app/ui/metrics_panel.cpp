// Metrics: per-thread reads and writes of global and shared memory (max and total, as GPU-Puzzles
// scores them), barriers, additions, the whole run per input element, the shown block's warp
// instructions (divergent, bank-conflicted; lockstep), and how many threads were active each step.
#include <imgui.h>

#include <cstdio>

#include "app/ui/panels.h"
#include "app/view/metrics_model.h"

namespace syncscope::ui {

namespace {

// The model walks every event of the shown block (warp instructions, active threads): built once
// per run, launch and block, not every frame; only the current step changes between frames.
struct MetricsCache {
  uint64_t run = 0;
  int launch = -1, block = -1;
  app::MetricsModel model;
};

}  // namespace

void draw_metrics_panel(const MetricsPanel& panel) {
  if (!begin_panel(panel, "Metrics")) return;
  const RunResult* run = run_to_draw(panel, panel.state, panel.session);
  if (!run) return;
  const sim::BlockTrace* b = panel.state.focused_trace();
  MetricsCache& cache = panel.own<MetricsCache>();
  const int block = b ? b->block : 0;
  if (cache.run != run->id || cache.launch != panel.state.launch() || cache.block != block) {
    cache = {run->id, panel.state.launch(), block, app::build_metrics(*run, panel.state.launch(), panel.state.step(), block)};
  }
  cache.model.current_step = panel.state.step();
  const app::MetricsModel& m = cache.model;
  text_fitted(panel, m.scope, true);
  // The numbers' columns as wide as their widest number (a count is never shown cut); the labels
  // take the rest, cut with "…" when narrow.
  if (ImGui::BeginTable("counts", 3, ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp)) {
    ImGui::TableSetupColumn("per thread", ImGuiTableColumnFlags_WidthStretch, 1.0f);
    ImGui::TableSetupColumn("max", ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableSetupColumn("total", ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableHeadersRow();
    for (const auto& r : m.rows) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(fit_label(r.label, ImGui::GetContentRegionAvail().x, &panel.geometry).c_str());
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", r.label.c_str());
      ImGui::TableNextColumn();
      ImGui::Text("%llu", static_cast<unsigned long long>(r.max));
      ImGui::TableNextColumn();
      ImGui::Text("%llu", static_cast<unsigned long long>(r.total));
    }
    ImGui::EndTable();
  }
  auto facts = [&](const char* id, const std::vector<app::MetricFact>& rows) {
    if (rows.empty() || !ImGui::BeginTable(id, 2, ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp)) return;
    for (const app::MetricFact& f : rows) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(f.label.c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(f.value.c_str());
    }
    ImGui::EndTable();
  };
  text_fitted(panel, m.per_element_heading, true);
  facts("per_element", m.per_element);
  if (!m.warp_scope.empty()) text_fitted(panel, m.warp_scope, true);
  facts("warp", m.warp);
  if (!m.active_threads.empty()) {
    char active[128];
    std::snprintf(active, sizeof active, "active threads per step (step %d: %.0f of %d)", m.current_step,
                  m.current_step < static_cast<int>(m.active_threads.size()) ? m.active_threads[m.current_step] : 0.0f,
                  m.threads_per_block);
    text_fitted(panel, active, true);
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float w = ImGui::GetContentRegionAvail().x, h = ImGui::GetFontSize() * 4;
    ImGui::PlotHistogram("##active", m.active_threads.data(), static_cast<int>(m.active_threads.size()), 0, nullptr, 0,
                         static_cast<float>(m.threads_per_block), ImVec2(w, h));
    const float bar = w / static_cast<float>(m.active_threads.size());
    ImGui::GetWindowDrawList()->AddRect(ImVec2(p.x + bar * m.current_step, p.y),
                                        ImVec2(p.x + bar * (m.current_step + 1), p.y + h), panel.theme.written, 0, 0, 2);
  }
  ImGui::End();
}

}  // namespace syncscope::ui
