// Code: the kernel source the simulator and the GPU ran, the barrier that ends the current step
// highlighted, the lines executed in the step marked (red where they race); a compile error or
// the line a run stopped at said and marked.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "app/state/session.h"
#include "app/ui/panels.h"
#include "app/view/code_model.h"

namespace syncscope::ui {
namespace {

// The file the user picked among the kernel's files ("" follows the barrier).
struct CodeFileChoice {
  std::string file;
};

// The barrier ending the step, lines executed in it, and a gutter mark on lines that raced (red
// across warps, amber inside one warp, as everywhere).
void line_background(const CodePanel& panel, ImDrawList* dl, const app::CodeLineView& l, ImVec2 p, ImVec2 q) {
  if (l.barrier) dl->AddRectFilled(p, q, panel.theme.barrier_line);
  else if (l.executed) dl->AddRectFilled(p, q, panel.theme.executed_line);
  if (l.racy) dl->AddRectFilled(p, ImVec2(p.x + 5, q.y), l.race_in_one_warp ? panel.theme.warning : panel.theme.race);
}

void draw_excerpt(const CodePanel& panel, const app::CodeModel& m) {
  ImGui::BeginChild("excerpt", ImVec2(0, 0), false, ImGuiWindowFlags_NoScrollbar);
  const ImVec2 room = ImGui::GetContentRegionAvail();
  const int total = static_cast<int>(m.lines.size());
  // The lines around the barrier that fit at text scale k: [first, first + count).
  auto around = [&](float k) {
    const float line_h = ImGui::GetFontSize() * k + ImGui::GetStyle().ItemSpacing.y;
    const int count = std::clamp(static_cast<int>(room.y / line_h), 1, std::max(1, total));
    return std::pair{std::clamp(m.focus_line - 1 - count / 2, 0, std::max(0, total - count)), count};
  };
  constexpr float kSmallest = 0.7f;
  // The indentation shared by every line that may be shown: the ranges at larger scales lie inside
  // the one at the smallest.
  const auto [widest_first, widest_count] = around(kSmallest);
  size_t indent = std::string::npos;
  for (int i = widest_first; i < widest_first + widest_count; ++i) {
    const size_t lead = m.lines[i].text.find_first_not_of(' ');
    if (lead != std::string::npos) indent = std::min(indent, lead);
  }
  if (indent == std::string::npos) indent = 0;
  auto shown = [&](int i) {
    const std::string& t = m.lines[i].text;
    return t.size() > indent ? t.substr(indent) : std::string();  // shorter: a blank line
  };
  const float number_w = ImGui::CalcTextSize("000 ").x;
  const auto [first, count] = around(1);
  float widest = 1;
  for (int i = first; i < first + count; ++i) widest = std::max(widest, number_w + ImGui::CalcTextSize(shown(i).c_str()).x);
  const float scale = std::clamp(room.x / widest, kSmallest, 1.0f);
  ImGui::SetWindowFontScale(scale);
  const float line_h = ImGui::GetTextLineHeightWithSpacing();
  const float text_room = std::max(1.0f, room.x - ImGui::CalcTextSize("000").x - ImGui::GetStyle().ItemSpacing.x);
  auto unindented = [&](int i) {
    const std::string& t = m.lines[i].text;
    return t.substr(std::min(t.size(), t.find_first_not_of(' ')));
  };
  // The barrier line is what the highlight is about: it wraps rather than lose its end (the
  // `c.sync()` after a bug switch); the lines around it give up the room it takes.
  auto rows_of = [&](int i) { return m.lines[i].barrier ? static_cast<int>(app::wrap_at_spaces(unindented(i), text_room, text_metrics()).size()) : 1; };
  auto [from, fitting] = around(scale);  // smaller text: more lines
  int extra = 0;
  for (int i = from; i < std::min(total, from + fitting); ++i) extra += rows_of(i) - 1;
  if (extra > 0) {
    fitting = std::max(1, fitting - extra);
    from = std::clamp(m.focus_line - 1 - fitting / 2, 0, std::max(0, total - fitting));
  }
  ImDrawList* dl = ImGui::GetWindowDrawList();
  for (int i = from; i < std::min(total, from + fitting); ++i) {
    const app::CodeLineView& l = m.lines[i];
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const int rows = rows_of(i);
    // Wrapped lines follow each other without the spacing between items.
    const float height = line_h + ImGui::GetTextLineHeight() * static_cast<float>(rows - 1);
    line_background(panel, dl, l, p, ImVec2(p.x + room.x, p.y + height));
    ImGui::TextDisabled("%3d", l.number);
    ImGui::SameLine();
    if (rows > 1) {
      // Wrapped from the text's column, its indentation given up for room.
      ImGui::BeginGroup();
      for (const std::string& part : app::wrap_at_spaces(unindented(i), text_room, text_metrics())) {
        ImGui::TextUnformatted(fit_label(part, text_room, &panel.geometry).c_str());
        ImGui::SetCursorPosY(ImGui::GetCursorPosY() - ImGui::GetStyle().ItemSpacing.y);
      }
      ImGui::SetCursorPosY(ImGui::GetCursorPosY() + ImGui::GetStyle().ItemSpacing.y);
      ImGui::EndGroup();
    } else {
      ImGui::TextUnformatted(fit_label(shown(i), text_room, &panel.geometry).c_str());
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", l.text.c_str());
  }
  ImGui::SetWindowFontScale(1);
  ImGui::EndChild();
}

}  // namespace

void draw_code_panel(const CodePanel& panel) {
  if (!begin_panel(panel, "Code")) return;
  const RunResult* run = run_to_draw(panel, panel.state, panel.session);
  if (!run) return;
  const sim::BlockTrace* b = panel.state.focused_trace();
  std::string& chosen = panel.own<CodeFileChoice>().file;
  const app::CodeModel m = app::build_code_view(*run, panel.state.launch(), panel.state.step(), b ? b->block : 0, chosen);
  struct Followed {  // the step the panel last followed
    int position = -1;
    uint64_t run = 0;
  };
  Followed& last = panel.own<Followed>();
  const bool moved = last.position != panel.state.position() || last.run != run->id;

  if (ImGui::BeginTabBar("files")) {
    for (int f = 0; f < static_cast<int>(m.files.size()); ++f) {
      const ImGuiTabItemFlags flags = moved && f == m.file ? ImGuiTabItemFlags_SetSelected : 0;
      if (ImGui::BeginTabItem(m.files[f].c_str(), nullptr, flags)) {
        if (f != m.file && !moved) chosen = m.files[f];  // the user picked another file
        ImGui::EndTabItem();
      }
    }
    ImGui::EndTabBar();
  }
  if (moved) chosen.clear();  // follow the barrier again after a step
  // A kernel file being compiled again, or whose last save did not compile: the run on screen is
  // the last good one; the compiler's first error is marked at its line.
  const app::KernelWatch& watch = panel.session.kernel_watch();
  const KernelFileError* compile_error = watch.error() ? &*watch.error() : nullptr;
  if (watch.compiling()) ImGui::TextColored(ImColor(panel.theme.warning), "%s", watch.status().c_str());
  if (compile_error) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImColor(panel.theme.bad).Value);
    ImGui::TextWrapped("%s (the run shown is the last that compiled)", compile_error->message.c_str());
    ImGui::PopStyleColor();
    if (ImGui::IsItemHovered() && !compile_error->compiler_output.empty())
      ImGui::SetTooltip("%s", compile_error->compiler_output.substr(0, 4000).c_str());
  }
  // A run that stopped at a line of the kernel (its worker died, a thread crashed): said and marked.
  const std::optional<app::RunStop>& stop = panel.session.run_stop();
  if (stop && !compile_error) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImColor(panel.theme.bad).Value);
    ImGui::TextWrapped("%s%s", stop->message.c_str(), stop->before_first_launch ? " (the run shown is the last one that ran)" : "");
    ImGui::PopStyleColor();
  }
  const std::string shown_file = m.file < static_cast<int>(m.files.size()) ? m.files[m.file] : "";
  const int error_line = compile_error && compile_error->file == shown_file ? compile_error->line
                         : stop && !compile_error && stop->file == shown_file ? stop->line
                                                                               : 0;
  const std::string error_message = compile_error ? compile_error->message : stop ? stop->message : "";
  if (!m.missing.empty()) {
    ImGui::TextDisabled("%s", m.missing.c_str());
    ImGui::End();
    return;
  }
  // Presenter mode: an excerpt around the barrier that fits the panel, indentation shared by its
  // lines removed and the text scaled down (to 70 %) so lines fit; what still does not is cut,
  // but for the barrier line, which wraps.
  if (panel.presenter) {
    draw_excerpt(panel, m);
  } else {
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
        line_background(panel, dl, l, p, q);
        if (l.number == error_line) dl->AddRectFilled(p, q, panel.theme.race);
        ImGui::TextDisabled("%3d", l.number);
        ImGui::SameLine();
        ImGui::TextUnformatted(l.text.c_str());
      }
    }
    if (moved) ImGui::SetScrollY(std::max(0.0f, (m.focus_line - 6) * line_h));
    struct ShownError {  // scroll to a new compile error or stop once
      std::string message;
    };
    ShownError& shown_error = panel.own<ShownError>();
    if (error_line && shown_error.message != error_message) ImGui::SetScrollY(std::max(0.0f, (error_line - 6) * line_h));
    shown_error.message = error_message;
    ImGui::EndChild();
  }
  last.position = panel.state.position();
  last.run = run->id;
  ImGui::End();
}

}  // namespace syncscope::ui
