// Performance: the ladders timed on a GPU (`syncscope perf`): a bar per rung in GB/s with the copy
// and CUB as lines, the simulator's account of each rung beside its bar (work and traffic per
// element, steps, bank conflicts, divergent warp instructions), and every rung's GB/s over the
// sizes (log x). Without a GPU it shows the results shipped in assets/perf/ and says whose they are.
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "app/ui/panels.h"
#include "app/view/performance_model.h"
#include "core/cuda/gpu_runner.h"
#include "core/kernel_file.h"

namespace syncscope::ui {
namespace {

// The choices on the panel and the model cut for them; the results it is cut from are the session's.
struct PerformanceState {
  int ladder = 1;  // 0 reduce, 1 scan
  int dtype = 0;   // 0 int32, 1 float32
  long long n = 0;
  struct ModelKey {
    int ladder = -1, dtype = -1;
    long long n = -1;
    std::string gpu_here;
    bool operator==(const ModelKey&) const = default;
  };
  ModelKey model_key;
  std::optional<app::PerformanceModel> model;
};

// Where saved results are looked for: this machine's own runs first, then the shipped ones.
app::PerfResultsJob perf_results_job() {
  const std::string own = perf_results_dir();
  return {{own, "assets/perf", (std::filesystem::path(SYNCSCOPE_SOURCE_DIR) / "assets/perf").string()}, own};
}

ImU32 rung_colour(int k, int count) {
  const float hue = static_cast<float>(k) / static_cast<float>(std::max(count, 1)) * 0.8f;
  float r, g, b;
  ImGui::ColorConvertHSVtoRGB(hue, 0.65f, 0.95f, r, g, b);
  return ImGui::GetColorU32(ImVec4(r, g, b, 1));
}

// Returns whether the simulator's facts fit beside the bars (else they are only in the tooltips).
bool draw_bars(const PerformancePanel& panel, const app::PerformanceModel& m, const app::LadderMetrics& metrics) {
  const Theme& th = panel.theme;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float name_w = ImGui::CalcTextSize("reduce-5-unroll-last-warp ").x;
  std::vector<std::string> fact_text;
  float facts_w = 0;
  for (const auto& [name, r] : metrics) {
    char facts[160];
    std::snprintf(facts, sizeof facts, "  adds %.1f  glob %.1f  shm %.1f  steps %d  %s  div %llu", r.adds_per_element,
                  r.global_per_element, r.shared_per_element, r.steps,
                  r.worst_bank_conflict > 1 ? (std::to_string(r.worst_bank_conflict) + "-way").c_str() : "no conflict",
                  static_cast<unsigned long long>(r.divergent));
    fact_text.push_back(facts);
    facts_w = std::max(facts_w, ImGui::CalcTextSize(facts).x);
  }
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float avail = ImGui::GetContentRegionAvail().x;
  // A value drawn past a short bar must not run into the facts: on a narrow window (a projector's
  // 1280 in presenter mode) the facts give way to the bars and stay in the tooltips.
  const float value_w = ImGui::CalcTextSize("0000 GB/s  000% of CUB ").x;
  const float bar_beside_facts = avail - name_w - facts_w - ImGui::CalcTextSize("copy 3000 ").x;
  const bool facts_fit = bar_beside_facts >= value_w;  // the longest bar holds its value
  if (!facts_fit) facts_w = 0;
  const float bar_w = std::max(60.0f, facts_fit ? bar_beside_facts : avail - name_w - value_w);
  const float scale = m.max_gbps > 0 ? bar_w / static_cast<float>(m.max_gbps * 1.05) : 0;
  const float top = origin.y;
  // Bars and the copy/CUB lines below, values above on their own background: a line passing a bar's
  // value is interrupted there instead of striking through the digits.
  dl->ChannelsSplit(2);
  for (size_t k = 0; k < m.bars.size(); ++k) {
    const app::PerfBar& b = m.bars[k];
    const float y = top + line * static_cast<float>(k);
    dl->AddText(ImVec2(origin.x, y), ImGui::GetColorU32(ImGuiCol_Text), b.name.c_str());
    const float x0 = origin.x + name_w, w = static_cast<float>(b.gbps) * scale;
    const ImU32 colour = rung_colour(static_cast<int>(k), static_cast<int>(m.bars.size()));
    dl->ChannelsSetCurrent(0);
    dl->AddRectFilled(ImVec2(x0, y + 2), ImVec2(x0 + w, y + line - 3), colour);
    char value[64];
    if (!b.error.empty()) std::snprintf(value, sizeof value, "not run");
    else std::snprintf(value, sizeof value, "%.0f GB/s  %.0f%% of CUB%s", b.gbps, 100 * b.of_cub, b.correct ? "" : "  WRONG");
    const ImVec2 ts = ImGui::CalcTextSize(value);
    const bool inside = ts.x + 8 < w;
    const ImVec2 at(inside ? x0 + w - ts.x - 4 : x0 + w + 4, y);
    dl->ChannelsSetCurrent(1);
    dl->AddRectFilled(ImVec2(at.x - 2, y + 2), ImVec2(at.x + ts.x + 2, y + line - 3),
                      inside ? colour : ImGui::GetColorU32(ImGuiCol_WindowBg));
    dl->AddText(at, inside ? IM_COL32(0, 0, 0, 255) : ImGui::GetColorU32(ImGuiCol_Text), value);
    dl->ChannelsSetCurrent(0);
    if (facts_fit && k < fact_text.size())
      dl->AddText(ImVec2(origin.x + avail - facts_w, y), ImGui::GetColorU32(ImGuiCol_TextDisabled), fact_text[k].c_str());
    ImGui::SetCursorScreenPos(ImVec2(origin.x, y));
    ImGui::InvisibleButton(b.name.c_str(), ImVec2(avail, line));
    if (ImGui::IsItemHovered() && k < metrics.size()) {
      const app::RungMetrics& r = metrics[k].second;
      ImGui::SetTooltip("%s\n%.0f GB/s = %.0f%% of the copy, %.0f%% of CUB\nsimulator, its classroom size (int32, lockstep): "
                        "%.2f additions, %.2f global and %.2f shared accesses per element;\n%d launches, %d steps; "
                        "worst bank conflict %d-way; %llu of %llu warp instructions divergent (block 0)",
                        b.title.c_str(), b.gbps, 100 * b.of_copy, 100 * b.of_cub, r.adds_per_element, r.global_per_element,
                        r.shared_per_element, r.launches, r.steps, std::max(1, r.worst_bank_conflict),
                        static_cast<unsigned long long>(r.divergent), static_cast<unsigned long long>(r.instructions));
    }
  }
  const float bottom = top + line * static_cast<float>(m.bars.size());
  // The copy's label to the right of its line, CUB's to the left of its own, so they never overlap.
  auto vline = [&](double gbps, ImU32 colour, const char* label, bool right) {
    if (gbps <= 0) return;
    const float x = origin.x + name_w + static_cast<float>(gbps) * scale;
    dl->AddLine(ImVec2(x, top - 2), ImVec2(x, bottom + line), colour, 2.5f);
    char text[64];
    std::snprintf(text, sizeof text, "%s %.0f", label, gbps);
    dl->AddText(ImVec2(right ? x + 4 : x - ImGui::CalcTextSize(text).x - 4, bottom), colour, text);
  };
  vline(m.copy_gbps, th.read, "copy", m.copy_gbps >= m.cub_gbps);
  vline(m.cub_gbps, th.written, "CUB", m.cub_gbps > m.copy_gbps);
  dl->ChannelsMerge();
  ImGui::SetCursorScreenPos(ImVec2(origin.x, bottom + line + 4));
  return facts_fit;
}

void draw_sweep(const app::PerformanceModel& m, const Theme& th) {
  if (m.sizes.size() < 2) return;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  // The y axis's unit on a line of its own above the chart.
  const ImVec2 unit_at = ImGui::GetCursorScreenPos();
  dl->AddText(unit_at, ImGui::GetColorU32(ImGuiCol_TextDisabled), "GB/s");
  const float line_h = ImGui::GetTextLineHeight();
  const ImVec2 p(unit_at.x, unit_at.y + line_h);
  // At least as tall as its legend, a line per series beside it: where the panel is shorter (the
  // reduction ladder's eleven lines in presenter mode) the panel scrolls to the chart rather than
  // squash it.
  const int lines = static_cast<int>(m.sweep.size());
  const float h = std::max(line_h * static_cast<float>(lines + 1),
                           ImGui::GetContentRegionAvail().y - line_h - ImGui::GetTextLineHeightWithSpacing() * 2);
  const int per_column = lines, columns = 1;
  float widest = 0;
  for (const app::PerfSeries& series : m.sweep) widest = std::max(widest, ImGui::CalcTextSize(series.name.c_str()).x);
  const float column_w = widest + 22;
  const float legend_w = column_w * static_cast<float>(columns);
  const float w = std::max(120.0f, ImGui::GetContentRegionAvail().x - legend_w);
  const int lo = __builtin_ctzll(static_cast<unsigned long long>(m.sizes.front()));
  const int hi = __builtin_ctzll(static_cast<unsigned long long>(m.sizes.back()));
  const float pad = ImGui::CalcTextSize("3000").x + 6;
  auto at = [&](int log2n, double gbps) {
    return ImVec2(p.x + pad + (w - pad) * static_cast<float>(log2n - lo) / static_cast<float>(std::max(1, hi - lo)),
                  p.y + h - h * static_cast<float>(gbps / (m.max_gbps * 1.05)));
  };
  dl->AddRect(ImVec2(p.x + pad, p.y), ImVec2(p.x + w, p.y + h), th.cell_border);
  for (int k = lo; k <= hi; k += 2) {
    char label[16];
    std::snprintf(label, sizeof label, "2^%d", k);
    const ImVec2 q = at(k, 0);
    dl->AddText(ImVec2(q.x - ImGui::CalcTextSize(label).x / 2, p.y + h + 2), ImGui::GetColorU32(ImGuiCol_TextDisabled), label);
  }
  for (double g : {1000.0, 2000.0, 3000.0})
    if (g < m.max_gbps * 1.05) {
      const ImVec2 q = at(lo, g);
      dl->AddLine(ImVec2(p.x + pad, q.y), ImVec2(p.x + w, q.y), th.cell_border);
      char label[16];
      std::snprintf(label, sizeof label, "%.0f", g);
      dl->AddText(ImVec2(p.x, q.y - ImGui::GetTextLineHeight() / 2), ImGui::GetColorU32(ImGuiCol_TextDisabled), label);
    }
  const int rungs = static_cast<int>(m.sweep.size()) - 2;
  for (size_t s = 0; s < m.sweep.size(); ++s) {
    const app::PerfSeries& series = m.sweep[s];
    const bool baseline = static_cast<int>(s) >= rungs;
    const ImU32 colour = !baseline ? rung_colour(static_cast<int>(s), rungs) : series.name == "copy" ? th.read : th.written;
    for (size_t k = 1; k < series.points.size(); ++k)
      dl->AddLine(at(series.points[k - 1].first, series.points[k - 1].second),
                  at(series.points[k].first, series.points[k].second), colour, baseline ? 3.5f : 2.0f);
    const int row = static_cast<int>(s) % per_column, column = static_cast<int>(s) / per_column;
    const float lx = p.x + w + 6 + column_w * static_cast<float>(column), ly = p.y + line_h * static_cast<float>(row);
    dl->AddRectFilled(ImVec2(lx, ly + line_h * 0.3f), ImVec2(lx + line_h * 0.6f, ly + line_h * 0.9f), colour);
    dl->AddText(ImVec2(lx + line_h * 0.6f + 4, ly), ImGui::GetColorU32(ImGuiCol_Text), series.name.c_str());
  }
  ImGui::Dummy(ImVec2(w + legend_w, line_h + h + ImGui::GetTextLineHeightWithSpacing()));
}

}  // namespace

void draw_performance_panel(const PerformancePanel& panel) {
  ImGui::SetNextWindowBgAlpha(1.0f);  // drawn over the step view: nothing of it may show through
  if (!begin_panel(panel, "Performance")) return;
  PerformanceState& st = panel.own<PerformanceState>();
  const app::PerfResults* results = panel.session.perf_results();
  if (!results) {  // the session's worker finds and simulates them (once)
    panel.session.load_perf_results(perf_results_job());
    ImGui::TextDisabled("simulating... (finding saved results and simulating every rung)");
    ImGui::End();
    return;
  }
  if (!results->perf) {
    ImGui::TextWrapped("No saved performance results: run `syncscope perf --save FILE` on a GPU machine and put the "
                       "file in assets/perf/ (or run it here, with a GPU: results go to %s).",
                       perf_results_dir().c_str());
    for (const std::string& p : results->problems) ImGui::TextColored(ImColor(panel.theme.bad), "%s", p.c_str());
    ImGui::End();
    return;
  }
  ImGui::RadioButton("reduction ladder", &st.ladder, 0);
  ImGui::SameLine();
  ImGui::RadioButton("scan ladder", &st.ladder, 1);
  ImGui::SameLine(0, 24);
  ImGui::RadioButton("int32", &st.dtype, 0);
  ImGui::SameLine();
  ImGui::RadioButton("float32", &st.dtype, 1);
  const GpuStatus& gpu = gpu_status();
  const std::string gpu_here = gpu.usable ? gpu.device : "";
  const PerformanceState::ModelKey key{st.ladder, st.dtype, st.n, gpu_here};
  if (!st.model || st.model_key != key) {  // cut from the whole report: only when a choice changes
    st.model = app::build_performance(*results->perf, st.ladder ? "scan" : "reduce", st.dtype ? DType::Float32 : DType::Int32,
                                      st.n, gpu_here);
    st.model_key = key;
  }
  const app::PerformanceModel& m = *st.model;
  text_fitted(panel, m.source, true);
  if (!m.sizes.empty()) {
    int k = static_cast<int>(std::find(m.sizes.begin(), m.sizes.end(), m.n) - m.sizes.begin());
    char label[32];
    std::snprintf(label, sizeof label, "n = 2^%d", __builtin_ctzll(static_cast<unsigned long long>(m.n)));
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14);
    if (ImGui::SliderInt("size", &k, 0, static_cast<int>(m.sizes.size()) - 1, label)) st.n = m.sizes[k];
    ImGui::SameLine();
    ImGui::TextDisabled("GB/s: %s", st.ladder ? "2·n·4 bytes (read + write)" : "n·4 bytes (read)");
  }
  const bool facts_beside = draw_bars(panel, m, results->metrics(st.ladder ? "scan" : "reduce"));
  text_fitted(panel, facts_beside ? "beside each bar, the simulator at the rung's classroom size: additions, global and "
                                 "shared accesses per element, steps, worst bank conflict, divergent warp instructions "
                                 "(hover a bar)"
                               : "hover a bar: the simulator's count for the rung (additions, accesses, steps, "
                                 "bank conflicts)",
              true);
  draw_sweep(m, panel.theme);
  ImGui::End();
}

}  // namespace syncscope::ui
