// Race lab: compare every schedule (lockstep, forward, reverse and 16 random seeds) and R runs on
// the GPU as a bar chart of distinct outputs (at classroom sizes the GPU usually hides the bug);
// click a bar to watch a schedule that gave it; every output as text below.
#include <imgui.h>

#include <algorithm>
#include <string>

#include "app/ui/panels.h"
#include "core/config_fields.h"
#include "app/view/race_lab_model.h"

namespace syncscope::ui {
namespace {

void outcome(const RaceLabPanel& panel, const app::OutcomeView& o, int id, bool clickable_schedules) {
  ImGui::PushID(id);
  ImGui::TextColored(ImColor(o.correct ? panel.theme.good : panel.theme.bad), "%s", o.headline.c_str());
  if (!o.correct) {
    ImGui::Indent();
    for (size_t i = 0; i < o.values.size(); ++i) {
      if (i) ImGui::SameLine(0, 4);
      if (o.values[i].second) ImGui::TextColored(ImColor(panel.theme.bad), "%s", o.values[i].first.c_str());
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
      if (ImGui::SmallButton(o.schedules[k].c_str())) panel.session.use_schedule(o.schedules[k]);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("watch the run under %s", o.schedules[k].c_str());
    }
    ImGui::Unindent();
  }
  ImGui::PopID();
}

// Which bar is picked (its output drawn as a row); -1: the one the step view's run gave.
struct ChartSelection {
  int bar = -1;
  uint64_t run = 0;
};

// The first of `forms` (longest first) that fits `room`, else "" (the hover says it all): numbers
// are never cut.
std::string first_fitting(const std::vector<std::string>& forms, float room, const RaceLabPanel& panel) {
  for (const std::string& form : forms)
    if (ImGui::CalcTextSize(form.c_str()).x <= room) return fit_label(form, room, &panel.geometry);
  return "";
}

// The bars: per distinct output two columns side by side, the share of the schedules that gave it
// (solid) and of the GPU runs (lighter, striped), green when correct, red when wrong. A click picks
// a bar: its output row below, and the step view shows the first schedule that gave it.
void draw_chart(const RaceLabPanel& panel, const RunResult& run, const app::RaceLabModel& m, float height) {
  const Theme& th = panel.theme;
  ChartSelection& sel = panel.own<ChartSelection>();
  if (sel.run != run.id) sel.bar = -1;  // a new run: its own bar is outlined (a click picked it)
  sel.run = run.id;
  const float fs = ImGui::GetFontSize();
  const float width = ImGui::GetContentRegionAvail().x;
  const int n = static_cast<int>(m.bars.size());
  const float group = std::min(fs * 6, width / static_cast<float>(std::max(1, n)));
  const float column = group * 0.36f;
  const float label_h = ImGui::GetTextLineHeightWithSpacing();
  const float chart_h = std::max(fs * 3, height - 4 * label_h);
  bool short_verdicts = false;  // narrow groups: "ok" and the count of wrong elements, which the key explains
  // The tallest share fills the chart.
  float tallest = 0.01f;
  for (const app::OutputBar& b : m.bars) {
    if (m.schedule_runs) tallest = std::max(tallest, static_cast<float>(b.schedule_runs) / static_cast<float>(m.schedule_runs));
    if (m.gpu_runs) tallest = std::max(tallest, static_cast<float>(b.gpu_runs) / static_cast<float>(m.gpu_runs));
  }
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 o = ImGui::GetCursorScreenPos();
  const float base = o.y + label_h + chart_h;  // the bars stand on this line
  dl->AddLine(ImVec2(o.x, base), ImVec2(o.x + group * static_cast<float>(n), base), th.dim_text, 1.5f);
  int shown = sel.bar;
  for (int k = 0; k < n && shown < 0; ++k)
    if (m.bars[k].viewed) shown = k;
  for (int k = 0; k < n; ++k) {
    const app::OutputBar& b = m.bars[k];
    const float x = o.x + group * static_cast<float>(k) + group * 0.12f;
    const ImU32 colour = b.unchecked ? th.label : b.correct ? th.good : th.race;
    auto column_at = [&](float cx, int runs, int total, bool striped) {
      if (total <= 0) return;
      const float h = chart_h * static_cast<float>(runs) / static_cast<float>(total) / tallest;
      const ImVec2 a(cx, base - h), z(cx + column, base);
      if (striped) {
        dl->AddRectFilled(a, z, (colour & 0x00FFFFFF) | 0x70000000);
        hatch(dl, a, z, colour, 7, 2);
      } else {
        dl->AddRectFilled(a, z, colour);
      }
      // "6/19", else "6": a number is never shown cut (the key says what it is a share of).
      const std::string text =
          first_fitting({std::to_string(runs) + "/" + std::to_string(total), std::to_string(runs)}, column + group * 0.1f, panel);
      const float tw = ImGui::CalcTextSize(text.c_str()).x;
      dl->AddText(ImVec2(cx + (column - tw) / 2, base - h - label_h), th.label, text.c_str());
    };
    column_at(x, b.schedule_runs, m.schedule_runs, false);
    column_at(x + column + group * 0.04f, b.gpu_runs, m.gpu_runs, true);
    const float left = o.x + group * static_cast<float>(k);
    const std::string name = fit_label(b.name, group - 4, &panel.geometry);
    dl->AddText(ImVec2(left + (group - ImGui::CalcTextSize(name.c_str()).x) / 2, base + 4), colour, name.c_str());
    const std::string wrong = std::to_string(b.wrong.size());
    const std::string verdict = b.unchecked ? std::string(b.differs.empty() ? "" : "differs")
                                : b.correct ? first_fitting({"correct", "ok"}, group - 4, panel)
                                            : first_fitting({wrong + " wrong", wrong}, group - 4, panel);
    short_verdicts |= !b.unchecked && verdict != (b.correct ? "correct" : wrong + " wrong");
    dl->AddText(ImVec2(left + (group - ImGui::CalcTextSize(verdict.c_str()).x) / 2, base + 4 + label_h), colour, verdict.c_str());
    if (k == shown)
      dl->AddRect(ImVec2(o.x + group * static_cast<float>(k) + 1, o.y), ImVec2(o.x + group * static_cast<float>(k + 1) - 1, base + 2 * label_h + 6),
                  th.label, 4, 0, 2.5f);
    ImGui::SetCursorScreenPos(ImVec2(o.x + group * static_cast<float>(k), o.y));
    ImGui::PushID(k);
    if (ImGui::InvisibleButton("bar", ImVec2(group, chart_h + 3 * label_h + 6))) {
      sel.bar = k;
      if (!b.schedules.empty() && !b.viewed) panel.session.use_schedule(b.schedules.front());
    }
    if (ImGui::IsItemHovered()) {
      ImGui::BeginTooltip();
      if (b.unchecked) ImGui::Text("output %s%s", b.name.c_str(), b.differs.empty() ? "" : (": unlike A, " + b.differs).c_str());
      else ImGui::Text("output %s: %s", b.name.c_str(), b.correct ? "correct" : "wrong");
      if (m.schedule_runs) ImGui::Text("%d of %d schedules", b.schedule_runs, m.schedule_runs);
      if (m.gpu_runs) ImGui::Text("%d of %d GPU runs", b.gpu_runs, m.gpu_runs);
      if (!b.wrong.empty()) {
        std::string list;
        for (size_t i = 0; i < b.wrong.size() && i < 40; ++i) list += (i ? ", " : "") + std::to_string(b.wrong[i]);
        if (b.wrong.size() > 40) list += ", ...";
        ImGui::Text("wrong elements: %s", list.c_str());
      }
      if (!b.schedules.empty()) {
        std::string list;
        for (const auto& s : b.schedules) list += (list.empty() ? "" : " ") + s;
        ImGui::TextWrapped("schedules: %s", list.c_str());
        ImGui::TextUnformatted("click: watch it in the step view");
      }
      ImGui::EndTooltip();
    }
    ImGui::PopID();
  }
  panel.geometry.race_lab_bars = n;
  ImGui::SetCursorScreenPos(ImVec2(o.x, base + 2 * label_h + 10));
  // The key, and the picked output as a row of cells, wrong ones filled red.
  std::string recorded = m.gpu_recorded_on.empty() ? "" : " recorded on " + m.gpu_recorded_on;
  if (short_verdicts) recorded += "; under each output: ok, or how many of its elements are wrong";
  if (m.schedule_runs && m.gpu_runs)
  {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("solid: share of the %d schedules   striped: share of the %d GPU runs%s", m.schedule_runs,
                       m.gpu_runs, recorded.c_str());
    ImGui::PopStyleColor();
  }
  else
    ImGui::TextDisabled("share of the %d %s that gave each output%s", m.schedule_runs ? m.schedule_runs : m.gpu_runs,
                        m.schedule_runs ? "schedules" : "GPU runs", recorded.c_str());
  if (shown < 0 || shown >= n) return;
  const app::OutputBar& b = m.bars[shown];
  if (b.unchecked) {  // main() is syncscope's: its 0 says nothing; the arrays do
    ImGui::TextWrapped("output %s%s", b.name.c_str(), b.differs.empty() ? " (the first)" : (": unlike A, " + b.differs).c_str());
    return;
  }
  ImGui::Text("output %s:", b.name.c_str());
  const float cell_w = std::max(ImGui::CalcTextSize("0000").x, fs * 2.2f);
  for (size_t i = 0; i < b.values.size(); ++i) {
    ImGui::SameLine(0, 2);
    if (ImGui::GetCursorScreenPos().x + cell_w > ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x) ImGui::NewLine();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImGui::Dummy(ImVec2(cell_w, label_h));
    dl->AddRectFilled(p, ImVec2(p.x + cell_w, p.y + label_h - 2), b.values[i].second ? th.race : th.cell, 3);
    dl->AddRect(p, ImVec2(p.x + cell_w, p.y + label_h - 2), th.cell_border, 3);
    const std::string text = fit_label(b.values[i].first, cell_w - 4, &panel.geometry);
    dl->AddText(ImVec2(p.x + (cell_w - ImGui::CalcTextSize(text.c_str()).x) / 2, p.y), th.cell_text, text.c_str());
  }
  if (b.more_values > 0) {
    ImGui::SameLine();
    ImGui::TextDisabled("+%d more", b.more_values);
  }
}

}  // namespace

void draw_race_lab_panel(const RaceLabPanel& panel) {
  if (!begin_panel(panel, "Race lab")) return;
  const RunResult* run = run_to_draw(panel, panel.state, panel.session);
  if (!run) return;
  const app::RaceLabModel m = app::build_race_lab(*run, panel.session.schedule_outcomes(), panel.session.lab_busy(),
                                                  panel.session.gpu_outcomes(), false);
  ImGui::TextWrapped("%s", m.variant.c_str());
  if (ImGui::Button("Compare schedules")) panel.session.compare_schedules();
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("lockstep, forward, reverse and random:1..16, grouped by output");
  ImGui::SameLine();
  struct GpuRunsField {
    int runs = 100;
  };
  int& runs = panel.own<GpuRunsField>().runs;
  ImGui::SetNextItemWidth(ImGui::CalcTextSize("00000").x + 40);
  ImGui::InputInt("##runs", &runs, 0);
  // The command line's range (--gpu-runs), from the same table.
  const std::string out_of_range = syncscope::out_of_range(count_options::kGpuRuns, runs);
  const bool runs_valid = out_of_range.empty();
  ImGui::SameLine();
  ImGui::BeginDisabled(!runs_valid || !m.can_run_gpu);
  if (ImGui::Button("GPU runs")) panel.session.run_gpu_outcomes(runs);
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
    if (!m.can_run_gpu) ImGui::SetTooltip("a .cu program's GPU runs: syncscope run FILE.cu --gpu-runs %d, in a terminal", runs);
    else if (runs_valid) ImGui::SetTooltip("run this variant %d times on the GPU and count the distinct outputs", runs);
    else ImGui::SetTooltip("GPU runs %d: %s", runs, out_of_range.c_str());
  }
  if (!runs_valid) ImGui::TextColored(ImColor(panel.theme.bad), "GPU runs %d: %s", runs, out_of_range.c_str());
  if (panel.session.lab_busy()) {
    ImGui::TextColored(ImColor(panel.theme.warning), "working...");
    if (const std::optional<ProgressSnapshot> progress = panel.session.lab_progress()) {
      ImGui::SameLine();
      progress_bar(panel, *progress, std::max(ImGui::GetContentRegionAvail().x, 1.0f));
    }
  }

  ImGui::BeginChild("outcomes");
  if (!m.schedules_status.empty()) ImGui::TextWrapped("schedules: %s", m.schedules_status.c_str());
  if (!m.gpu_status.empty()) {
    if (m.gpu_failed) ImGui::PushStyleColor(ImGuiCol_Text, ImColor(panel.theme.bad).Value);
    ImGui::TextWrapped("%s", m.gpu_status.c_str());
    if (m.gpu_failed) ImGui::PopStyleColor();
  }
  if (!m.bars.empty()) {
    const float fs = ImGui::GetFontSize();
    // The normal layout leaves the lab a strip at the bottom right: too short for a chart, which
    // then opens in a window of its own over the picture (once per comparison; this button brings
    // it back).
    struct ChartWindow {
      bool open = false;
      const void* schedules = nullptr;  // the outcomes it last opened for
      const void* gpu = nullptr;
    };
    ChartWindow& window = panel.own<ChartWindow>();
    const float room = ImGui::GetContentRegionAvail().y - 4 * fs;
    if (room >= 8 * fs) {
      draw_chart(panel, *run, m, std::min(room, 22 * fs));
    } else {
      const void* schedules = panel.session.schedule_outcomes();
      const void* gpu = panel.session.gpu_outcomes();
      if (schedules != window.schedules || gpu != window.gpu) window.open = true;  // new outcomes arrived
      window.schedules = schedules;
      window.gpu = gpu;
      if (ImGui::Button("show the chart")) window.open = true;
      if (window.open) {
        const ImGuiViewport* view = ImGui::GetMainViewport();
        ImGui::SetNextWindowPos(ImVec2(view->WorkPos.x + view->WorkSize.x * 0.2f, view->WorkPos.y + view->WorkSize.y * 0.3f),
                                ImGuiCond_Appearing);
        ImGui::SetNextWindowSize(ImVec2(view->WorkSize.x * 0.5f, view->WorkSize.y * 0.6f), ImGuiCond_Appearing);
        ImGui::SetNextWindowBgAlpha(1.0f);
        if (ImGui::Begin("Race lab: outputs", &window.open, ImGuiWindowFlags_NoCollapse))
          draw_chart(panel, *run, m, std::clamp(ImGui::GetContentRegionAvail().y - 4 * fs, 8 * fs, 22 * fs));
        ImGui::End();
      }
    }
  }
  if (!m.bars.empty() && !ImGui::CollapsingHeader("every output as text")) {
    ImGui::EndChild();
    ImGui::End();
    return;
  }
  if (!m.gpu_status.empty()) {
    if (m.gpu_failed) ImGui::PushStyleColor(ImGuiCol_Text, ImColor(panel.theme.bad).Value);
    ImGui::TextWrapped("%s", m.gpu_status.c_str());
    if (m.gpu_failed) ImGui::PopStyleColor();
    for (size_t k = 0; k < m.gpu.size(); ++k) outcome(panel, m.gpu[k], 1000 + static_cast<int>(k), false);
    ImGui::Separator();
  }
  if (!m.schedules_status.empty()) {
    ImGui::TextUnformatted(m.schedules_status.c_str());
    for (size_t k = 0; k < m.schedules.size(); ++k) outcome(panel, m.schedules[k], static_cast<int>(k), true);
  }
  ImGui::EndChild();
  ImGui::End();
}

}  // namespace syncscope::ui
