// Global arrays: input, output and auxiliary arrays as rows of cells; arrays too long to show as
// cells get an overview strip coloured by a GLSL shader (shaders/overview.frag), with the focused
// block's section below it. Click the strip to follow the block under the cursor.
#include <imgui.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "app/gl/overview_strip.h"
#include "app/ui/panels.h"
#include "app/view/global_arrays_model.h"

namespace syncscope::ui {
namespace {

constexpr int kCellsWhenAtMost = 128;

struct GlobalArraysCache {
  uint64_t run = 0;
  int launch = -1, step = -1;
  // The memory before the launch, shared by its steps; rebuilt only when the launch changes.
  std::vector<std::shared_ptr<const app::ArrayMemory>> before;
  bool at_end = false;
  uint64_t before_version = 0;
  app::GlobalArraysModel model;
  std::vector<std::vector<std::pair<int, float>>> patches;  // per array: the overview's cells written so far
  uint64_t version = 0;  // bumped on every rebuild: the overview strips apply the patches then
};

const GlobalArraysCache& cached_model(const GlobalArraysPanel& panel, const RunResult& run, int launch, int step) {
  GlobalArraysCache& c = panel.own<GlobalArraysCache>();
  if (run.id != c.run || launch != c.launch) {
    c.before = app::memory_before_launch(run, launch, &c.at_end);
    ++c.before_version;
  }
  if (run.id != c.run || launch != c.launch || step != c.step) {
    c.model = app::build_global_arrays(run, launch, step, c.before, c.at_end);
    c.patches.clear();
    for (const app::GlobalArrayView& a : c.model.arrays) {
      auto& p = c.patches.emplace_back();
      for (const auto& w : a.written) p.emplace_back(w.index, w.shade);
    }
    c.run = run.id;
    c.launch = launch;
    c.step = step;
    ++c.version;
  }
  return c;
}

// Elements [first, first + count), as the program indexes them (a double is one box).
// label_every: an index above every k-th element (0: none, and no room kept for them).
void cells_row(const GlobalArraysPanel& panel, const app::GlobalArrayView& a, int first, int count, int label_every) {
  const Theme& th = panel.theme;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  // As wide as the last element's text; a struct's texts differ in length, so as its widest.
  float text_w = ImGui::CalcTextSize(a.element_text(first + count - 1).c_str()).x;
  if (!a.layout.plain())
    for (int k = 0; k < count; ++k) text_w = std::max(text_w, ImGui::CalcTextSize(a.element_text(first + k).c_str()).x);
  const float w = std::max(ImGui::CalcTextSize("-0000").x + 8, text_w + 8);
  const float h = ImGui::GetFontSize() + 8;
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float top = label_every ? ImGui::GetFontSize() : 0;
  for (int k = 0; k < count; ++k) {
    const int i = first + k;
    const ImVec2 c0(p.x + k * w + 1, p.y + top), c1(p.x + (k + 1) * w - 1, p.y + top + h);
    if (label_every && i % label_every == 0)
      dl->AddText(ImVec2(c0.x, p.y), th.dim_text, std::to_string(i).c_str());
    const bool poison = a.element_poisoned(i), written = a.element_written_now(i), read = a.element_read_now(i);
    dl->AddRectFilled(c0, c1, poison ? th.poison : th.cell);
    if (written) dl->AddRect(c0, c1, th.written, 0, 0, 2);
    else if (read) dl->AddRect(c0, c1, th.read, 0, 0, 2);
    else dl->AddRect(c0, c1, th.cell_border);
    const std::string text = a.element_text(i);
    const ImVec2 ts = ImGui::CalcTextSize(text.c_str());
    if (ts.x + 4 <= w) dl->AddText(ImVec2(c0.x + (w - 2 - ts.x) / 2, c0.y + 4), poison ? th.poison_text : th.cell_text, text.c_str());
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    if (ImGui::IsWindowHovered() && mouse.x >= c0.x && mouse.x < c1.x && mouse.y >= c0.y && mouse.y < c1.y)
      ImGui::SetTooltip("%s[%d] = %s%s%s", a.name.c_str(), i, text.c_str(), written ? "  (written in this step)" : "",
                        read ? "  (read in this step)" : "");
  }
  ImGui::Dummy(ImVec2(count * w, top + h + 2));
}

// A 2D input (axis-sum's rows) as the matrix it is: a row per line, the row the shown block owns
// outlined.
void matrix_rows(const GlobalArraysPanel& panel, const app::GlobalArrayView& a, int rows, int columns, int owned_row) {
  const float h = ImGui::GetFontSize() + 10;
  ImGui::BeginChild("matrix", ImVec2(0, std::min(rows, 10) * h + ImGui::GetFontSize() + 12 + ImGui::GetStyle().ScrollbarSize),
                    false, ImGuiWindowFlags_HorizontalScrollbar);
  const float label_w = ImGui::CalcTextSize("row 0000").x;
  for (int r = 0; r < rows; ++r) {
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImGui::TextColored(ImColor(r == owned_row ? panel.theme.written : panel.theme.dim_text), "row %d", r);
    ImGui::SameLine(label_w + 8);
    const ImVec2 cells = ImGui::GetCursorScreenPos();
    cells_row(panel, a, r * columns, columns, r == 0 ? (columns > 16 ? 8 : 1) : 0);
    if (r == owned_row) {
      const ImVec2 end = ImGui::GetItemRectMax();
      ImGui::GetWindowDrawList()->AddRect(ImVec2(p.x - 2, cells.y + (r == 0 ? ImGui::GetFontSize() : 0) - 3),
                                          ImVec2(end.x + 3, end.y + 1), panel.theme.written, 3, 0, 2.5f);
    }
  }
  ImGui::EndChild();
}

}  // namespace

void draw_global_arrays_panel(const GlobalArraysPanel& panel) {
  if (!begin_panel(panel, "Global arrays")) return;
  const RunResult* run = run_to_draw(panel, panel.state, panel.session, true);
  if (!run) return;
  const int launch = panel.state.launch();
  const GlobalArraysCache& cache = cached_model(panel, *run, launch, panel.state.step());
  const app::GlobalArraysModel& m = cache.model;
  if (!m.note.empty()) ImGui::TextDisabled("%s", m.note.c_str());
  const sim::LaunchTrace& lt = run->sim.trace.launches[launch];
  const int section = run->config.algorithm->info.two_dimensional ? run->config.problem.n : lt.block.count();
  for (size_t k = 0; k < m.arrays.size(); ++k) {
    const app::GlobalArrayView& a = m.arrays[k];
    ImGui::PushID(a.array);
    const bool say_role = !a.role.empty() && a.role != a.name;
    ImGui::Text("%s%s%s%s  %d element%s", a.name.c_str(), say_role ? " (" : "", say_role ? a.role.c_str() : "",
                say_role ? ")" : "", a.elements(), a.elements() == 1 ? "" : "s");
    const Problem& pb = run->config.problem;
    const bool matrix = run->config.algorithm->info.two_dimensional && a.role == "input" && pb.rows > 1 &&
                        a.elements() == pb.rows * pb.n && pb.n <= kCellsWhenAtMost && pb.rows <= 256;
    if (matrix) {
      matrix_rows(panel, a, pb.rows, pb.n, panel.state.focus_block() / std::max(1, lt.grid.x));
    } else if (a.elements() <= kCellsWhenAtMost) {
      ImGui::BeginChild("cells", ImVec2(0, ImGui::GetFontSize() * 2 + 16 + ImGui::GetStyle().ScrollbarSize), false,
                        ImGuiWindowFlags_HorizontalScrollbar);
      cells_row(panel, a, 0, a.elements(), a.elements() > 16 ? 8 : 1);
      ImGui::EndChild();
    } else {
      // Overview strip, then the focused block's section as cells.
      const float width = ImGui::GetContentRegionAvail().x, height = ImGui::GetFontSize() * 1.4f;
      const ImVec2 p = ImGui::GetCursorScreenPos();
      const int focus = panel.state.focus_block();
      const int first = std::min(a.elements() - 1, focus * section), last = std::min(a.elements() - 1, first + section - 1);
      const int per = a.cells_per_element();  // the strip's texture has a texel per cell
      if (panel.overview) {
        panel.overview->draw(ImGui::GetWindowDrawList(), p.x, p.y, p.x + width, p.y + height, a.array, cache.before_version,
                          a.before->shades, cache.version, cache.patches[k], static_cast<float>(a.min), static_cast<float>(a.max),
                          first * per, last * per + per - 1);
      }
      ImGui::InvisibleButton("strip", ImVec2(width, height));
      const int under = std::clamp(static_cast<int>((ImGui::GetIO().MousePos.x - p.x) / width * a.elements()), 0, a.elements() - 1);
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s[%d] = %s\nclick: follow block %d", a.name.c_str(), under, a.element_text(under).c_str(),
                          app::block_of_element(*run, launch, under));
      if (ImGui::IsItemClicked()) panel.session.focus_block(app::block_of_element(*run, launch, under));
      ImGui::TextDisabled("block %d: elements %d..%d   (range %s .. %s)", focus, first, last,
                          a.number_text(a.min).c_str(), a.number_text(a.max).c_str());
      ImGui::BeginChild("section", ImVec2(0, ImGui::GetFontSize() * 2 + 16 + ImGui::GetStyle().ScrollbarSize), false,
                        ImGuiWindowFlags_HorizontalScrollbar);
      cells_row(panel, a, first, std::min(last - first + 1, 1024), 8);
      ImGui::EndChild();
    }
    ImGui::PopID();
  }
  ImGui::End();
}

}  // namespace syncscope::ui
