// Block view: threads as columns grouped in warps of 32; every shared array as it was before the
// step (top) and after it (bottom); read arrows from cells to threads, write arrows from threads to
// cells. Numbers when they fit, colour when they don't; zoom and horizontal scroll for 1024 threads.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <tuple>

#include "app/ui/panels.h"
#include "app/view/block_view_model.h"
#include "app/view/model_cache.h"

namespace syncscope::ui {
namespace {

// Built once per (run, step, block): playing redraws the same step many frames. The panel holds
// what it draws for the whole frame (shared ownership), so eviction never frees a model in use.
struct BlockViewCache {
  struct Key {
    uint64_t run;
    int launch, step, block;
    bool operator<(const Key& o) const {
      return std::tie(run, launch, step, block) < std::tie(o.run, o.launch, o.step, o.block);
    }
  };
  app::ModelCache<Key, app::BlockViewModel> models{64};
  app::ModelCache<Key, app::LaunchFrame> frames{64};  // step -1: one per launch and block
};

using HeldModel = std::shared_ptr<const app::BlockViewModel>;

// Each step's model carries its launch's frame, so every step of a launch is laid out alike.
HeldModel cached_model(UiContext& ui, const RunResult& run, int launch, int step, int block) {
  BlockViewCache& cache = ui.state_of<BlockViewCache>();
  return cache.models.get({run.id, launch, step, block}, [&] {
    const auto frame = cache.frames.get({run.id, launch, -1, block}, [&] { return app::launch_frame(run, launch, block); });
    app::BlockViewModel m = app::build_block_view(run, launch, step, block);
    m.frame = *frame;
    return m;
  });
}

// The models a frame draws: owned for the frame, viewed as plain pointers by the layout code.
std::vector<const app::BlockViewModel*> views_of(const std::vector<HeldModel>& held) {
  std::vector<const app::BlockViewModel*> views;
  for (const HeldModel& m : held) views.push_back(m.get());
  return views;
}

struct Geometry {
  float cell_w, cell_h, label_w, band, marker, lane_row;
  float x0, y0;  // top-left of the block
  int shift = 0;  // the first column drawn (a focus window starts at its first thread)
  int rows;      // shared arrays
  int global_in, global_out, lane_rows;  // global sections read / written, warp-operation rounds
  float warp_y, thread_y, global_in_y, before_y, marker_y, lanes_y, after_y, global_out_y, bottom;
  float col_x(int column) const { return x0 + label_w + static_cast<float>(column - shift) * cell_w; }
  float global_in_row_y(int r) const { return global_in_y + static_cast<float>(r) * (cell_h + 2); }
  float before_row_y(int r) const { return before_y + static_cast<float>(r) * (cell_h + 2); }
  float lane_row_y(int r) const { return lanes_y + static_cast<float>(r) * lane_row; }
  float after_row_y(int r) const { return after_y + static_cast<float>(r) * (cell_h + 2); }
  float global_out_row_y(int r) const { return global_out_y + static_cast<float>(r) * (cell_h + 2); }
};

float label_width() { return ImGui::CalcTextSize("warp_totals ").x + 8; }

// Rounds of warp operations drawn as lane rows: at most this many (the rest are in the list).
constexpr int kMaxLaneRows = 8;

// with_labels: the first block of a row carries the row labels; blocks beside it do not.
Geometry layout(const app::BlockViewModel& m, float cell_w, float x0, float y0, bool with_labels, bool single,
                int shift = 0) {
  Geometry g;
  g.shift = shift;
  const float fs = ImGui::GetFontSize();
  g.cell_w = cell_w;
  g.cell_h = fs + 8;
  g.label_w = with_labels ? label_width() : 0;
  g.band = fs * 2.6f;
  g.marker = fs * 0.9f;
  g.lane_row = fs * 1.6f;
  g.x0 = x0;
  g.y0 = y0;
  // Room for the shared arrays and warp rounds any step of the launch draws, so the cells stay put
  // from step to step. Global sections (mostly the first and last steps) take room only where they
  // are: reserving it in every step would cost a projector's cells a third of their size.
  g.rows = std::max(static_cast<int>(m.arrays.size()), m.frame.shared_rows);
  g.global_in = static_cast<int>(m.global_reads.size());
  g.global_out = static_cast<int>(m.global_writes.size());
  g.lane_rows = std::min(kMaxLaneRows, m.frame.warp_rounds);
  for (const app::ShuffleRound& round : m.shuffles) g.lane_rows = std::max(g.lane_rows, std::min(kMaxLaneRows, round.rank + 1));
  g.warp_y = y0 + (single ? 0 : fs + 6);
  g.thread_y = g.warp_y + fs + 2;
  g.global_in_y = g.thread_y + fs + 4;
  g.before_y = g.global_in_row_y(g.global_in) + (g.global_in ? fs * 0.6f : 0);
  g.marker_y = g.before_row_y(g.rows) + g.band;
  g.lanes_y = g.marker_y + g.marker + 4;
  g.after_y = g.lane_row_y(g.lane_rows) + g.band;
  g.global_out_y = g.after_row_y(g.rows) + (g.global_out ? fs * 0.6f : 0);
  g.bottom = g.global_out_row_y(g.global_out) + 4;
  return g;
}

int column_count(const app::BlockViewModel& m) {
  int columns = std::max(m.threads, m.frame.columns);
  for (const auto& a : m.arrays) columns = std::max(columns, static_cast<int>(a.after.size()));
  for (const auto* rows : {&m.global_reads, &m.global_writes})
    for (const auto& r : *rows) columns = std::max(columns, static_cast<int>(r.cells.size()));
  return columns;
}

float block_width(const app::BlockViewModel& m, float cell_w, bool with_labels) {
  const int columns = column_count(m);
  return (with_labels ? label_width() : 0) + static_cast<float>(columns) * cell_w + 24;
}

// Wide enough for the widest value on show, so numbers stay readable at zoom 1.
float natural_cell_width(const std::vector<const app::BlockViewModel*>& models) {
  float widest = ImGui::CalcTextSize("000").x;
  for (const auto* m : models)
    for (const auto& a : m->arrays)
      for (size_t i = 0; i < a.after.size(); ++i)
        widest = std::max({widest, ImGui::CalcTextSize(a.after[i].text.c_str()).x, ImGui::CalcTextSize(a.before[i].text.c_str()).x});
  return widest + 10;
}

// Whole-pixel widths: Dear ImGui draws those from its baked line texture, two triangles a segment
// instead of six; software rendering pays per triangle, and a TPB 32 step has hundreds of arrows.
float line_px(float thickness) { return std::max(1.0f, std::round(thickness)); }

void arrow(ImDrawList* dl, ImVec2 from, ImVec2 to, ImU32 colour, float thickness) {
  dl->AddLine(from, to, colour, line_px(thickness));
  const float dx = to.x - from.x, dy = to.y - from.y, len = std::sqrt(dx * dx + dy * dy);
  if (len < 1) return;
  const float ux = dx / len, uy = dy / len, s = std::min(7.0f, len / 3);
  dl->AddTriangleFilled(to, ImVec2(to.x - ux * s - uy * s * 0.5f, to.y - uy * s + ux * s * 0.5f),
                        ImVec2(to.x - ux * s + uy * s * 0.5f, to.y - uy * s - ux * s * 0.5f), colour);
}

void draw_cell(ImDrawList* dl, const Theme& th, const app::CellView& c, float x, float y, float w, float h, bool after,
               FrameGeometry& audit) {
  // A value too wide for its cell is shown as its colour (the colour scale under the legend), never blank.
  const ImVec2 ts = w >= 14 ? ImGui::CalcTextSize(c.text.c_str()) : ImVec2(0, 0);
  const bool numbers = w >= 14 && ts.x + 4 <= w;
  if (!numbers && !c.poison) audit.cells_as_colours = true;
  ImU32 fill = c.poison ? th.cell : numbers ? (after && c.changed ? th.changed : th.cell) : th.shade(c.shade);
  if (w < 6) {
    // Too narrow for outlines: the colour is the value; a tick beside the row says read/written.
    dl->AddRectFilled(ImVec2(x, y), ImVec2(x + std::max(w, 1.0f), y + h), fill);
    if (c.poison) hatch(dl, ImVec2(x, y), ImVec2(x + std::max(w, 1.0f), y + h), th.poison_text);
    const ImU32 tick = c.racy ? (c.race_within_warp ? th.warning : th.race) : after && c.written ? th.written : !after && c.read ? th.read : 0;
    if (tick) {
      const float ty = after ? y - 4 : y + h + 1;
      dl->AddRectFilled(ImVec2(x, ty), ImVec2(x + std::max(w, 1.0f), ty + 3), tick);
    }
    return;
  }
  // Square corners: a rounded cell is a polygon of ~40 triangles, a square one two.
  const ImVec2 a(x + 1, y), b(x + w - 1, y + h);
  dl->AddRectFilled(a, b, fill);
  if (c.poison) hatch(dl, a, b, th.poison);
  if (c.bank_conflict > 1) dl->AddRectFilled(a, ImVec2(b.x, a.y + std::max(3.0f, h * 0.18f)), th.bank_conflict);
  if (c.racy) dl->AddRect(a, b, c.race_within_warp ? th.warning : th.race, 0, 0, 3);
  else if (after && c.written) dl->AddRect(a, b, th.written, 0, 0, 2);
  else if (!after && c.read) dl->AddRect(a, b, th.read, 0, 0, 2);
  else if (numbers) dl->AddRect(a, b, th.cell_border);
  if (!numbers) return;
  audit.label(c.text, ts.x, w - 4);
  dl->AddText(ImVec2(x + (w - ts.x) / 2, y + (h - ts.y) / 2), c.poison ? th.poison_text : th.cell_text, c.text.c_str());
}

void cell_tooltip(const UiContext& ui, const RunResult& run, const app::BlockViewModel& m, int row, int index,
                  bool after) {
  const app::SharedArrayView& a = m.arrays[row];
  ImGui::BeginTooltip();
  ImGui::Text("%s[%d]  before: %s  after: %s", a.name.c_str(), index, a.before[index].text.c_str(),
              a.after[index].text.c_str());
  const int step = ui.state.step();
  const app::CellOrigin o = app::cell_origin(run, ui.state.launch(), m.block, a.array, index, after ? step : step - 1);
  ImGui::TextUnformatted(o.text().c_str());
  std::string readers, writers;
  for (const auto& r : m.reads)
    if (r.array_row == row && r.index == index) readers += " T" + std::to_string(r.thread);
  for (const auto& w : m.writes)
    if (w.array_row == row && w.index == index) writers += " T" + std::to_string(w.thread);
  if (!readers.empty()) ImGui::Text("read in this step by%s", readers.c_str());
  if (!writers.empty()) ImGui::Text("written in this step by%s", writers.c_str());
  if (a.before[index].racy || a.after[index].racy) ImGui::TextColored(ImColor(ui.theme.race), "part of a data race");
  if (const int n = std::max(a.before[index].bank_conflict, a.after[index].bank_conflict); n > 1)
    ImGui::TextColored(ImColor(ui.theme.bank_conflict), "bank %d: its warp instruction had a %d-way bank conflict",
                       (a.word_offset + index) % kWarpSize, n);
  ImGui::EndTooltip();
}

// Text centred at x, drawn only when it fits in `room`; "" otherwise (the hover says it).
void centred_text(ImDrawList* dl, float x, float y, float room, ImU32 colour, const std::string& text,
                  FrameGeometry& audit) {
  const ImVec2 ts = ImGui::CalcTextSize(text.c_str());
  if (ts.x > room) return;
  audit.label(text, ts.x, room);
  dl->AddText(ImVec2(x - ts.x / 2, y), colour, text.c_str());
}

// What a thread node carries when the column is narrow: the value. "partner = 3" -> "3" (what it
// holds is on the right); "6 = 5 + 1" -> "6" and "writes 6" -> "6" (what it writes is on the left).
std::string held_value(const std::string& s) {
  const size_t eq = s.find(" = ");
  return eq == std::string::npos ? s : s.substr(eq + 3);
}
std::string written_value(const std::string& s) {
  if (s.rfind("writes ", 0) == 0) return s.substr(7);
  return s.substr(0, s.find(" = "));
}

// replay: the step's first `replay` operations have run (-1: the whole step, before and after).
// focus: draw only that window of threads (shifted to the left edge), its arrows and stubs.
void draw_block(UiContext& ui, const RunResult& run, const app::BlockViewModel& m, float x0, float y0, float cell_w,
                float visible_left, float visible_right, bool with_labels, bool single, int replay,
                const app::FocusWindow* focus = nullptr) {
  const Theme& th = ui.theme;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const Geometry g = layout(m, cell_w, x0, y0, with_labels, single, focus ? focus->first : 0);
  const float fs = ImGui::GetFontSize();
  if (!(with_labels && single)) {
    // Beside others, each block says which it is; the one the caption, Code and Metrics follow is
    // underlined, and a click on another's name makes it that one.
    std::string name = "block ";
    name += std::to_string(m.block);
    const bool followed = ui.state.focused_trace() && ui.state.focused_trace()->block == m.block;
    if (followed) name += " (caption, code)";
    name = fit_label(name, g.col_x(column_count(m)) - g.col_x(0), &ui.geometry);
    const ImVec2 at(g.col_x(0), y0), size = ImGui::CalcTextSize(name.c_str());
    dl->AddText(at, followed ? th.written : th.label, name.c_str());
    ui.geometry.rows["block " + std::to_string(m.block) + " name"] = {at.x, at.y, size.x, size.y};
    if (followed) dl->AddLine(ImVec2(at.x, at.y + size.y), ImVec2(at.x + size.x, at.y + size.y), th.written, 2);
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const bool over = ImGui::IsWindowHovered() && mouse.x >= at.x && mouse.x < at.x + size.x && mouse.y >= at.y &&
                      mouse.y < at.y + size.y;
    if (over && !followed) ImGui::SetTooltip("click: the caption, Code and Metrics follow block %d", m.block);
    if (over && ImGui::IsMouseClicked(ImGuiMouseButton_Left)) ui.session.focus_block(m.block);
  }
  if (!m.available) return;
  const bool replaying = replay >= 0;
  const int current = replaying ? replay - 1 : -1;  // the operation that just ran
  auto shown = [&](int order) { return !replaying || order < replay; };

  const int columns = column_count(m);
  const int first = focus ? focus->first : std::clamp(static_cast<int>((visible_left - g.col_x(0)) / cell_w) - 1, 0, columns);
  const int last = focus ? std::min(columns, focus->first + focus->count)  // loops below stop before `last`
                         : std::clamp(static_cast<int>((visible_right - g.col_x(0)) / cell_w) + 1, 0, columns);

  // Warps: outline and number.
  for (int w = 0; w < m.warps; ++w) {
    const int c0 = w * kWarpSize, c1 = std::min(m.threads, c0 + kWarpSize);
    if (c1 < first || c0 > last) continue;
    const float xa = g.col_x(c0), xb = g.col_x(c1);
    dl->AddRect(ImVec2(xa, g.warp_y - 2), ImVec2(xb, g.bottom), th.warp_outline, 4, 0, 2);
    const std::string label = "warp " + std::to_string(w);
    const float label_w = ImGui::CalcTextSize(label.c_str()).x;
    if (label_w < xb - xa - 4) {
      ui.geometry.label(label, label_w, xb - xa - 4);
      dl->AddText(ImVec2(xa + 4, g.warp_y), th.label, label.c_str());
    }
  }
  // Row labels: memory before the step (or now, while replaying), what was read, the threads, what
  // was written, memory after.
  if (with_labels) {
    // Names longer than the label column are cut by fit_label's rule; the hover says the rest.
    const float room = g.label_w - 6;
    auto row_label = [&](float y, ImU32 colour, const std::string& text) {
      dl->AddText(ImVec2(x0, y), colour, fit_label(text, room, &ui.geometry).c_str());
    };
    for (size_t r = 0; r < m.global_reads.size(); ++r) row_label(g.global_in_row_y(static_cast<int>(r)) + 4, th.label, m.global_reads[r].name);
    row_label(g.thread_y, th.dim_text, replaying ? "now:" : "before:");
    for (int r = 0; r < static_cast<int>(m.arrays.size()); ++r) {
      row_label(g.before_row_y(r) + 4, th.label, m.arrays[r].name);
      row_label(g.after_row_y(r) + 4, th.label, m.arrays[r].name);
    }
    row_label(g.before_row_y(g.rows) + (g.band - fs) / 2, th.arrow_read, "read");
    row_label(g.marker_y + (g.marker - fs) / 2 - 2, th.dim_text, "threads");
    for (const app::ShuffleRound& round : m.shuffles)  // every warp's round k has the same operation
      if (round.warp == m.shuffles.front().warp && round.rank < g.lane_rows)
        row_label(g.lane_row_y(round.rank) + (g.lane_row - fs) / 2, th.arrow_read, round.op);
    row_label(g.after_y - g.band + 2, th.arrow_write, "write");
    row_label(g.after_y - fs - 1, th.dim_text, replaying ? "now:" : "after:");
    for (size_t r = 0; r < m.global_writes.size(); ++r) row_label(g.global_out_row_y(static_cast<int>(r)) + 4, th.label, m.global_writes[r].name);
  }
  if (with_labels) {  // where each row is, for the GUI tests
    const float right = g.col_x(focus ? std::min(column_count(m), focus->first + focus->count) : column_count(m));
    auto row = [&](const std::string& name, float top, float height) {
      ui.geometry.rows[name] = {x0, top, right - x0, height};
    };
    row("threads", g.thread_y, fs);
    for (int r = 0; r < static_cast<int>(m.arrays.size()); ++r) {
      row(m.arrays[r].name + " before", g.before_row_y(r), g.cell_h);
      row(m.arrays[r].name + " after", g.after_row_y(r), g.cell_h);
    }
    row("thread nodes", g.marker_y, g.marker);
    for (int r = 0; r < g.lane_rows; ++r) row("lanes " + std::to_string(r), g.lane_row_y(r), g.lane_row);
    for (size_t r = 0; r < m.global_reads.size(); ++r) row(m.global_reads[r].name + " read", g.global_in_row_y(static_cast<int>(r)), g.cell_h);
    for (size_t r = 0; r < m.global_writes.size(); ++r) row(m.global_writes[r].name + " written", g.global_out_row_y(static_cast<int>(r)), g.cell_h);
  }

  std::string widest = "T";  // appended, not "T" + ...: GCC 12 warns falsely (-Wrestrict) on that
  widest += std::to_string(m.threads - 1);
  const float label_every = std::ceil((ImGui::CalcTextSize(widest.c_str()).x + 4) / cell_w);
  const int marker_stride = cell_w >= 2 ? 1 : static_cast<int>(std::ceil(2.0f / cell_w));
  for (int t = first; t < std::min(last, m.threads); ++t) {
    const app::ThreadView& tv = m.thread_views[t];
    if (t % marker_stride && !(label_every <= 1 || t % static_cast<int>(label_every) == 0)) continue;
    const float cx = g.col_x(t) + cell_w / 2;
    if (label_every <= 1 || t % static_cast<int>(label_every) == 0) {
      std::string id = "T";
      id += std::to_string(t);
      centred_text(dl, cx, g.thread_y, std::max(1.0f, label_every) * cell_w, tv.active ? th.label : th.dim_text, id,
                   ui.geometry);
    }
    const bool is_current = current >= 0 && m.operations[current].thread == t;
    const ImU32 colour = is_current ? th.written : tv.exited ? th.thread_exited : tv.active ? th.thread_active : th.thread_idle;
    const float r = std::max(1.0f, std::min(cell_w * 0.35f, g.marker / 2));
    const ImVec2 c(cx, g.marker_y + g.marker / 2);
    if (r >= 3) dl->AddCircleFilled(c, r, colour, 12);
    else dl->AddRectFilled(ImVec2(c.x - r, c.y - r), ImVec2(c.x + r, c.y + r), colour);  // a dot: no circle needed
    // What the thread holds (top of the write band) and writes (under it), when the whole step is shown.
    if (!replaying && cell_w >= 18) {
      const float room = cell_w - 2;
      if (!tv.holds.empty()) {
        const std::string text = ImGui::CalcTextSize(tv.holds.c_str()).x <= room ? tv.holds : held_value(tv.holds);
        centred_text(dl, cx, g.marker_y + g.marker + 2, room, th.label, text, ui.geometry);
      }
      if (!tv.writes.empty()) {
        const std::string text = ImGui::CalcTextSize(tv.writes.c_str()).x <= room ? tv.writes : written_value(tv.writes);
        centred_text(dl, cx, g.after_y - g.band + fs * 1.35f, room, th.arrow_write, text, ui.geometry);
      }
    }
  }
  // Narrower than a pixel, many cells share a pixel column: draw one (the first) per column.
  const int stride = cell_w >= 1 ? 1 : static_cast<int>(std::ceil(1.0f / cell_w));
  const float w = cell_w * static_cast<float>(stride);
  // While replaying both rows are memory as it is now: reads leave the top one, writes land in the
  // bottom one, which marks every cell written so far.
  std::vector<std::vector<app::CellView>> now, landed;
  if (replaying) {
    now = app::cells_after(m, replay);
    landed = now;
    for (int k = 0; k < replay; ++k) {
      const app::OperationView& op = m.operations[k];
      if (op.kind == sim::EventKind::SharedWrite && !op.global && op.array_row >= 0) {
        app::CellView& c = landed[op.array_row].at(op.index);
        c.written = true;
        c.racy |= op.racy;
      }
    }
    for (auto& row : landed)
      for (auto& c : row) c.read = false;
  }
  for (int r = 0; r < static_cast<int>(m.arrays.size()); ++r) {
    const auto& a = m.arrays[r];
    const auto& top = replaying ? now[r] : a.before;
    const auto& bottom = replaying ? landed[r] : a.after;
    for (int i = first - first % stride; i < std::min(last, static_cast<int>(a.after.size())); i += stride) {
      draw_cell(dl, th, top[i], g.col_x(i), g.before_row_y(r), w, g.cell_h, false, ui.geometry);
      draw_cell(dl, th, bottom[i], g.col_x(i), g.after_row_y(r), w, g.cell_h, true, ui.geometry);
    }
  }
  for (int r = 0; r < static_cast<int>(m.global_reads.size()); ++r)
    for (int i = 0; i < static_cast<int>(m.global_reads[r].cells.size()); ++i)
      if (i >= first && i < last) draw_cell(dl, th, m.global_reads[r].cells[i], g.col_x(i), g.global_in_row_y(r), w, g.cell_h, false, ui.geometry);
  for (int r = 0; r < static_cast<int>(m.global_writes.size()); ++r)
    for (int i = 0; i < static_cast<int>(m.global_writes[r].cells.size()); ++i)
      if (i >= first && i < last) draw_cell(dl, th, m.global_writes[r].cells[i], g.col_x(i), g.global_out_row_y(r), w, g.cell_h, true, ui.geometry);

  // Arrows: reads (cell -> thread), writes (thread -> cell), labelled with the value when there
  // is room. A read that took a value written earlier in this step is drawn in the race colour
  // and its label says the value it really got. Below a few pixels per thread arrows would only
  // hatch the band; the ticks beside the rows say the same.
  const float thickness = cell_w >= 40 ? std::max(3.0f, fs * 0.08f) : cell_w >= 14 ? 1.8f : 1.0f;  // 3 px at 720p, thicker on 4K
  // In a focus window both ends must be inside it (shared arrows leaving it become stubs below);
  // otherwise one end on screen is enough.
  auto in_view = [&](int thread, int column) {
    if (focus) return focus->contains(thread) && focus->contains(column);
    return !((thread < first || thread > last) && (column < first || column > last));
  };
  if (focus) {
    // Inside the window, arrows as usual; an arrow with one end outside stops at the window's edge
    // and says where that end is.
    const float left = g.col_x(focus->first) - 2, right = g.col_x(focus->first + focus->count) + 2;
    for (const app::FocusArrow& a : focus->arrows) {
      if (!shown(a.order)) continue;
      const ImU32 colour = a.racy || a.sees_write_of_this_step ? (a.race_within_warp ? th.warning : th.race)
                           : a.read                            ? th.arrow_read
                                                               : th.arrow_write;
      const float cell_y = a.read ? g.before_row_y(a.array_row) + g.cell_h : g.after_row_y(a.array_row);
      const float thread_y = a.read ? g.marker_y : g.marker_y + g.marker;
      ImVec2 cell(g.col_x(a.column) + cell_w / 2, cell_y), thread(g.col_x(a.thread) + cell_w / 2, thread_y);
      if (a.stub) {
        ImVec2& outside = a.thread_outside ? thread : cell;
        const bool to_left = (a.thread_outside ? a.thread : a.column) < focus->first;
        outside.x = to_left ? left : right;
        outside.y = (cell.y + thread.y) / 2;
        const std::string label = fit_label(a.label, (right - left) / 2 - 4, &ui.geometry);
        const ImVec2 ts = ImGui::CalcTextSize(label.c_str());
        dl->AddText(ImVec2(to_left ? left + 2 : right - ts.x - 2, outside.y - fs - 2), colour, label.c_str());
      }
      const float width = a.order == current ? thickness * 2 : thickness;
      if (a.read) arrow(dl, cell, thread, colour, width);
      else arrow(dl, thread, cell, colour, width);
    }
  }
  if (cell_w >= 4) {
    const float label_room = cell_w - 2;
    for (const auto& rd : m.reads) {
      if (focus || !shown(rd.order) || !in_view(rd.thread, rd.index)) continue;
      const bool hot = rd.order == current;
      const ImU32 colour = rd.racy || rd.sees_write_of_this_step ? (rd.race_within_warp ? th.warning : th.race) : th.arrow_read;
      const ImVec2 from(g.col_x(rd.index) + cell_w / 2, g.before_row_y(rd.array_row) + g.cell_h);
      const ImVec2 to(g.col_x(rd.thread) + cell_w / 2, g.marker_y);
      arrow(dl, from, to, colour, hot ? thickness * 2 : thickness);
      if (cell_w >= 22 && rd.index != rd.thread) {  // a thread's own cell is right above it
        const std::string label = rd.sees_write_of_this_step ? rd.value + "!" : rd.value;
        centred_text(dl, to.x + (from.x - to.x) * 0.35f, to.y - fs * 1.15f, label_room * 1.6f, colour, label, ui.geometry);
      }
    }
    for (const auto& rd : m.global_read_arrows) {
      if (!shown(rd.order)) continue;
      const int column = rd.index - m.global_reads[rd.array_row].first;
      if (!in_view(rd.thread, column)) continue;
      arrow(dl, ImVec2(g.col_x(column) + cell_w / 2, g.global_in_row_y(rd.array_row) + g.cell_h),
            ImVec2(g.col_x(rd.thread) + cell_w / 2, g.marker_y), rd.racy ? th.race : th.arrow_read,
            rd.order == current ? thickness * 2 : thickness * 0.7f);
    }
    for (const auto& wr : m.writes) {
      if (focus || !shown(wr.order) || !in_view(wr.thread, wr.index)) continue;
      arrow(dl, ImVec2(g.col_x(wr.thread) + cell_w / 2, g.marker_y + g.marker),
            ImVec2(g.col_x(wr.index) + cell_w / 2, g.after_row_y(wr.array_row)),
            wr.racy ? (wr.race_within_warp ? th.warning : th.race) : th.arrow_write,
            wr.order == current ? thickness * 2 : thickness);
    }
    for (const auto& wr : m.global_write_arrows) {
      if (!shown(wr.order)) continue;
      const int column = wr.index - m.global_writes[wr.array_row].first;
      if (!in_view(wr.thread, column)) continue;
      arrow(dl, ImVec2(g.col_x(wr.thread) + cell_w / 2, g.marker_y + g.marker),
            ImVec2(g.col_x(column) + cell_w / 2, g.global_out_row_y(wr.array_row)), wr.racy ? th.race : th.arrow_write,
            wr.order == current ? thickness * 2 : thickness * 0.7f);
    }
    // Warp operations, round by round: lane-to-lane arrows labelled with the value received; a
    // lane that kept its own value gets a ring. Every warp's round k is on row k.
    const float lane_left = focus ? g.col_x(first) : g.col_x(0);
    const float lane_right = focus ? g.col_x(last) : g.col_x(m.threads);
    for (const app::ShuffleRound& round : m.shuffles) {
      const int r = round.rank;
      if (r >= g.lane_rows || !shown(round.first_order)) continue;  // replaying: rounds not begun yet stay empty
      const float y = g.lane_row_y(r) + g.lane_row * 0.75f;
      const float warp_left = std::max(lane_left, g.col_x(round.warp * kWarpSize));
      const float warp_right = std::min(lane_right, g.col_x(std::min(m.threads, (round.warp + 1) * kWarpSize)));
      if (warp_right <= warp_left) continue;  // this warp is outside the focus window
      if (replaying && current >= round.first_order && current <= round.last_order)  // the round in progress
        dl->AddRectFilled(ImVec2(warp_left, g.lane_row_y(r)), ImVec2(warp_right, g.lane_row_y(r) + g.lane_row), IM_COL32(255, 255, 255, 18));
      dl->AddLine(ImVec2(warp_left, y), ImVec2(warp_right, y), th.warp_outline, 1);
      for (const auto& a : round.arrows) {
        const int from_t = round.warp * kWarpSize + a.from_lane, to_t = round.warp * kWarpSize + a.to_lane;
        const bool stub = focus && focus->contains(to_t) && !focus->contains(from_t);
        if (!stub && !in_view(from_t, to_t)) continue;
        const float xt = g.col_x(to_t) + cell_w / 2;
        if (a.own) {
          dl->AddCircle(ImVec2(xt, y), std::min(cell_w * 0.3f, fs * 0.35f), th.dim_text, 10, 2);
          continue;
        }
        // A source outside the focus window: a short arrow from its side (the hover says which lane).
        const float xf = stub ? xt + (from_t < first ? -0.45f : 0.45f) * cell_w : g.col_x(from_t) + cell_w / 2;
        const float lift = std::min(g.lane_row * 0.55f, 4 + std::abs(xt - xf) * 0.25f);
        dl->AddBezierCubic(ImVec2(xf, y), ImVec2(xf, y - lift), ImVec2(xt, y - lift), ImVec2(xt, y - 3), th.arrow_read,
                           line_px(thickness), std::clamp(static_cast<int>(std::abs(xt - xf) / 12), 4, 12));
        dl->AddTriangleFilled(ImVec2(xt, y), ImVec2(xt - 3, y - 5), ImVec2(xt + 3, y - 5), th.arrow_read);
        if (cell_w >= 22) centred_text(dl, xt, y + 1, cell_w - 2, th.label, a.value, ui.geometry);
      }
    }
  }

  // Hover: a cell says who wrote it; a thread lists what it did.
  if (!ImGui::IsWindowHovered()) return;
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const int column = static_cast<int>(std::floor((mouse.x - g.col_x(0)) / cell_w));
  if (column < 0 || column >= columns) return;
  for (int r = 0; r < static_cast<int>(m.arrays.size()); ++r) {
    const bool in_before = mouse.y >= g.before_row_y(r) && mouse.y < g.before_row_y(r) + g.cell_h;
    const bool in_after = mouse.y >= g.after_row_y(r) && mouse.y < g.after_row_y(r) + g.cell_h;
    if ((in_before || in_after) && column < static_cast<int>(m.arrays[r].after.size()))
      cell_tooltip(ui, run, m, r, column, in_after);
  }
  if (column < m.threads && mouse.y >= g.thread_y && mouse.y < g.after_y - 2 &&
      !(mouse.y >= g.global_in_y && mouse.y < g.before_row_y(g.rows))) {
    const app::ThreadView& tv = m.thread_views[column];
    ImGui::BeginTooltip();
    ImGui::Text("thread %d (warp %d, lane %d)%s", column, column / kWarpSize, column % kWarpSize,
                tv.exited ? " - exited" : tv.active ? "" : " - idle in this step");
    if (!tv.holds.empty()) ImGui::Text("holds %s", tv.holds.c_str());
    if (!tv.writes.empty()) ImGui::Text("%s%s", tv.writes.rfind("writes", 0) == 0 ? "" : "writes ", tv.writes.c_str());
    for (const auto& e : tv.events) ImGui::BulletText("%s", e.c_str());
    ImGui::EndTooltip();
  }
}

}  // namespace

// The sub-step slider: walk through the step's operations in the order the schedule ran them.
// Where the replay is lives in AppState (it stays on from step to step, and play animates it).
// The checkbox that turns it on, in the toolbar.
void replay_checkbox(UiContext& ui, const app::BlockViewModel& m) {
  app::AppState& s = ui.state;
  const int total = static_cast<int>(m.operations.size());
  if (total == 0 && s.replay() < 0) return;
  bool replaying = s.replay() >= 0;
  if (ImGui::Checkbox("replay", &replaying)) s.set_replay(replaying ? 0 : -1);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("walk through this step's %d operations in the order the schedule ran them (keys . and ,; "
                      "Play animates them)", total);
}

int replay_controls(UiContext& ui, const RunResult& run, const app::BlockViewModel& m, int launch, int step) {
  app::AppState& s = ui.state;
  const int total = static_cast<int>(m.operations.size());
  if (s.replay() < 0) return -1;
  if (!ui.handout) {  // a hand-out keeps the operation's sentence, not the slider
    if (ImGui::ArrowButton("##back", ImGuiDir_Left)) s.move_replay(-1);
    ImGui::SameLine();
    int at = s.replay();
    ImGui::SetNextItemWidth(std::min(320.0f, ImGui::GetContentRegionAvail().x * 0.4f));
    if (ImGui::SliderInt("##op", &at, 0, total, "%d ops")) s.set_replay(at);
    ImGui::SameLine();
    if (ImGui::ArrowButton("##fwd", ImGuiDir_Right)) s.move_replay(1);
  }
  const int done = s.replay();
  if (done > 0)
    ImGui::TextColored(ImColor(!m.operations[done - 1].racy                ? ui.theme.label
                               : m.operations[done - 1].race_within_warp ? ui.theme.warning
                                                                         : ui.theme.race),
                       "%d/%d  %s", done, total,
                       app::operation_text(run, launch, step, m, done - 1).c_str());
  else
    ImGui::TextDisabled("0/%d  the step begins (. next operation, , back)", total);
  return done;
}

// What the legend needs to explain: the marks on show.
struct LegendNeeds {
  bool poison = false, race = false, warning = false, idle = false, bank_conflict = false;
};

LegendNeeds legend_needs(const std::vector<const app::BlockViewModel*>& models) {
  LegendNeeds n;
  auto cell = [&](const app::CellView& c) {
    n.poison |= c.poison;
    n.race |= c.racy && !c.race_within_warp;
    n.warning |= c.racy && c.race_within_warp;
    n.bank_conflict |= c.bank_conflict > 1;
  };
  for (const auto* m : models) {
    for (const auto& a : m->arrays) {
      for (const auto& c : a.before) cell(c);
      for (const auto& c : a.after) cell(c);
    }
    for (const auto* rows : {&m->global_reads, &m->global_writes})
      for (const auto& r : *rows)
        for (const auto& c : r.cells) cell(c);
    for (const auto& t : m->thread_views) n.idle |= !t.active;
  }
  return n;
}

struct LegendItem {
  ImU32 colour;
  const char* text;
  bool hatched = false;
};

std::vector<LegendItem> legend_items(const Theme& th, const LegendNeeds& needs) {
  std::vector<LegendItem> items = {{th.arrow_read, "read"}, {th.arrow_write, "written"}, {th.changed, "changed"}};
  if (needs.poison) items.push_back({th.poison, "? uninitialized", true});
  if (needs.race) items.push_back({th.race, "race across warps (error)"});
  if (needs.warning) items.push_back({th.warning, "race inside one warp: depends on scheduling (warning)"});
  if (needs.idle) items.push_back({th.thread_idle, "idle thread"});
  if (needs.bank_conflict) items.push_back({th.bank_conflict, "bank conflict"});
  return items;
}

// Where each item goes when the legend wraps at `width`: its line (from 0) and x from the left.
// Each item takes the first line with room for it, so a short one after a long one does not
// need a line of its own.
std::vector<std::pair<int, float>> legend_places(const std::vector<LegendItem>& items, float width) {
  const float box = ImGui::GetFontSize() * 0.8f, inner = ImGui::GetStyle().ItemInnerSpacing.x;
  std::vector<std::pair<int, float>> places;
  std::vector<float> used;  // per line, the x where its next item would start
  for (const LegendItem& item : items) {
    const float w = box + inner + ImGui::CalcTextSize(item.text).x;
    size_t line = 0;
    while (line < used.size() && used[line] + w > width) ++line;
    if (line == used.size()) used.push_back(0);
    places.emplace_back(static_cast<int>(line), used[line]);
    used[line] += w + box;
  }
  return places;
}

int line_count(const std::vector<std::pair<int, float>>& places) {
  int lines = 0;
  for (const auto& place : places) lines = std::max(lines, place.first + 1);
  return lines;
}

int legend_lines(const Theme& th, const LegendNeeds& needs, float width) {
  return line_count(legend_places(legend_items(th, needs), width));
}

// The legend of the marks on show, wrapped to the panel's width.
void draw_legend(const UiContext& ui, const LegendNeeds& needs) {
  const Theme& th = ui.theme;
  const float box = ImGui::GetFontSize() * 0.8f, inner = ImGui::GetStyle().ItemInnerSpacing.x;
  const float line_h = ImGui::GetTextLineHeightWithSpacing();
  const std::vector<LegendItem> items = legend_items(th, needs);
  const auto places = legend_places(items, ImGui::GetContentRegionAvail().x);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  for (size_t k = 0; k < items.size(); ++k) {
    const ImVec2 p(origin.x + places[k].second, origin.y + static_cast<float>(places[k].first) * line_h);
    const float y = p.y + (ImGui::GetTextLineHeight() - box) / 2;
    dl->AddRectFilled(ImVec2(p.x, y), ImVec2(p.x + box, y + box), items[k].hatched ? th.cell : items[k].colour);
    if (items[k].hatched) hatch(dl, ImVec2(p.x, y), ImVec2(p.x + box, y + box), items[k].colour);
    dl->AddText(ImVec2(p.x + box + inner, p.y), ImGui::GetColorU32(ImGuiCol_Text), items[k].text);
  }
  ImGui::Dummy(ImVec2(ImGui::GetContentRegionAvail().x, static_cast<float>(line_count(places)) * line_h));
}

// The colour scale of a block too narrow for numbers: a cell's colour is its value.
void draw_colour_scale(const UiContext& ui, const app::SharedArrayView& a) {
  ImGui::TextUnformatted(a.lo.c_str());
  ImGui::SameLine();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float bar_w = ImGui::GetFontSize() * 13, bar_h = ImGui::GetFontSize();
  for (int k = 0; k < 50; ++k)
    ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x + k * bar_w / 50, p.y), ImVec2(p.x + (k + 1) * bar_w / 50, p.y + bar_h),
                                              ui.theme.shade(static_cast<float>(k) / 49));
  ImGui::Dummy(ImVec2(bar_w, bar_h));
  ImGui::SameLine();
  ImGui::Text("%s   (%s: colour = value)", a.hi.c_str(), a.name.c_str());
}

// How large the picture is drawn: the width of a cell and the scale of its text and rows.
struct DiagramScale {
  float cell_w, text;
};
// Text never smaller than 11 px (a normal window's smallest readable), never larger than 4x.
constexpr float kSmallestTextPx = 11.0f, kLargestText = 4.0f;
float smallest_text() { return std::min(1.0f, kSmallestTextPx / ImGui::GetFontSize()); }

// The picture's size (every model side by side) drawn with text at scale k and cells `natural` * k
// wide. Sizes are affine in k, so two measurements give the k that fills a given width or height.
ImVec2 diagram_size(const std::vector<const app::BlockViewModel*>& models, float natural, float k) {
  ImGui::SetWindowFontScale(k);
  ImVec2 size(0, 0);
  for (size_t i = 0; i < models.size(); ++i) {
    size.x += block_width(*models[i], natural * k, i == 0);
    size.y = std::max(size.y, layout(*models[i], natural * k, 0, 0, i == 0, models.size() == 1).bottom);
  }
  ImGui::SetWindowFontScale(1);
  return size;
}

float scale_to_fit(float room, float at1, float at2) {
  const float per_k = at2 - at1, fixed = at1 - per_k;
  return per_k > 0 ? (room - fixed) / per_k : kLargestText;
}

// Fit: the largest picture that shows every row and column without scrolling (up to 4x, for a
// small block on a projector); a block too wide for readable cells keeps readable rows and gets
// narrow cells (colour = value). Otherwise the zoom sets the cells, and the text follows it up to
// the height the panel has.
DiagramScale choose_scale(const std::vector<const app::BlockViewModel*>& models, float natural, ImVec2 room, bool fit,
                          float zoom) {
  const ImVec2 at1 = diagram_size(models, natural, 1), at2 = diagram_size(models, natural, 2);
  const float by_width = scale_to_fit(room.x, at1.x, at2.x), by_height = scale_to_fit(room.y, at1.y, at2.y);
  if (!fit) return {natural * zoom, std::clamp(std::min(zoom, by_height), smallest_text(), kLargestText)};
  const float k = std::min(by_width, by_height);
  if (k >= smallest_text()) {
    const float text = std::min(k, kLargestText);
    return {natural * text, text};
  }
  const float text = std::clamp(by_height, smallest_text(), 1.0f);
  int columns = 0;
  for (const auto* m : models) columns += column_count(*m);
  ImGui::SetWindowFontScale(text);
  const float label = label_width();
  ImGui::SetWindowFontScale(1);
  return {std::max(0.01f, (room.x - label - 24.0f * static_cast<float>(models.size())) / static_cast<float>(std::max(1, columns))),
          text};
}

// Zoom, fit, which block, replay.
void draw_toolbar(UiContext& ui, const sim::LaunchTrace& lt, const std::vector<const app::BlockViewModel*>& models) {
  app::AppState& s = ui.state;
  const float fs_ui = ImGui::GetFontSize();
  ImGui::SetNextItemWidth(fs_ui * 7);
  if (ImGui::SliderFloat("zoom", &s.zoom, 0.005f, 4.0f, "%.2fx", ImGuiSliderFlags_Logarithmic)) s.fill_block_view = false;
  ImGui::SameLine();
  ImGui::Checkbox("fit", &s.fill_block_view);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("size the picture to the panel: every row and thread without scrolling (zooming turns it off)");
  ImGui::SameLine(0, fs_ui);
  int block = s.focus_block();
  ImGui::SetNextItemWidth(fs_ui * 6);
  if (ImGui::InputInt("block", &block) && block >= 0 && block < lt.grid.count()) ui.session.focus_block(block);
  ImGui::SameLine();
  ImGui::TextDisabled("of %d%s", lt.grid.count(), lt.grid.y > 1 ? " (one per row)" : "");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Blocks not recorded yet are simulated again with full detail.");
  if (models.size() == 1) {
    ImGui::SameLine(0, fs_ui);
    replay_checkbox(ui, *models.front());
  }
}

void draw_block_view_panel(UiContext& ui) {
  if (!begin_panel(ui, "Block view")) return;
  const RunResult* run = run_to_draw(ui, true, "simulating...");
  if (!run) return;
  app::AppState& s = ui.state;
  const int launch = s.launch(), step = s.step();
  const sim::LaunchTrace& lt = run->sim.trace.launches[launch];

  const float avail = ImGui::GetContentRegionAvail().x;
  const float fs_ui = ImGui::GetFontSize();
  // Which blocks: all recorded ones side by side when they fit, else the focused one.
  std::vector<int> blocks = s.recorded_blocks();
  std::vector<HeldModel> held;
  for (int b : blocks) held.push_back(cached_model(ui, *run, launch, step, b));
  std::vector<const app::BlockViewModel*> models = views_of(held);
  if (models.size() == 1) s.set_replay_total(static_cast<int>(models.front()->operations.size()));
  if (!ui.handout) draw_toolbar(ui, lt, models);
  const float natural = natural_cell_width(models);  // measures every cell's text: once a frame
  if (lt.find_block(s.focus_block()) == nullptr && ui.session.simulating()) {
    ui.geometry.waiting_for = "recording block " + std::to_string(s.focus_block()) + "...";
    ImGui::TextColored(ImColor(ui.theme.warning), "%s", ui.geometry.waiting_for.c_str());
  } else if (models.empty()) {
    ui.geometry.waiting_for = "no block of launch " + std::to_string(launch) + " was recorded: pick one under block";
    ImGui::TextColored(ImColor(ui.theme.warning), "%s", ui.geometry.waiting_for.c_str());
  }
  if (!models.empty()) {
    // Several blocks side by side: the caption is the followed block's (as are Code and Metrics).
    const app::BlockViewModel* followed = models.front();
    for (const auto* m : models)
      if (s.focused_trace() && m->block == s.focused_trace()->block) followed = m;
    const app::BlockViewModel& shown = *followed;
    // Presenter mode's font is already large and its panel short: the subtitle (the timeline says
    // the step and barrier) and the activity move to the caption's tooltip.
    const bool presenter = s.presenter;
    if (!presenter) text_fitted(ui, shown.title, true);
    // The caption, large: what the step does, in one sentence; what the threads did below it
    // when the caption is the kernel's own.
    if (!presenter) ImGui::SetWindowFontScale(1.3f);
    // As tall as the launch's tallest caption, so the picture below stays put from step to step.
    const float wrap = ImGui::GetContentRegionAvail().x;
    float tallest = 0;
    for (const std::string& caption : shown.frame.captions)
      tallest = std::max(tallest, ImGui::CalcTextSize(caption.c_str(), nullptr, false, wrap).y);
    ImGui::TextWrapped("%s", shown.caption.c_str());
    ImGui::SetWindowFontScale(1.0f);
    const ImVec2 c0 = ImGui::GetItemRectMin(), c1 = ImGui::GetItemRectMax();
    ui.geometry.rows["caption"] = {c0.x, c0.y, c1.x - c0.x, c1.y - c0.y};
    if (presenter && ImGui::IsItemHovered()) ImGui::SetTooltip("%s\n%s", shown.title.c_str(), shown.activity.c_str());
    if (tallest > c1.y - c0.y + 0.5f) ImGui::Dummy(ImVec2(1, tallest - (c1.y - c0.y) - ImGui::GetStyle().ItemSpacing.y));
    if (!presenter) {
      if (shown.caption != shown.activity) text_fitted(ui, shown.activity, true);
      else ImGui::NewLine();  // the line is there in every step
    }
    if (!shown.bank_conflicts.empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, ui.theme.bank_conflict);
      text_fitted(ui, shown.bank_conflicts, true);
      ImGui::PopStyleColor();
    }
  }
  const int replay = models.size() == 1 ? replay_controls(ui, *run, *models.front(), launch, step) : -1;

  // Large blocks: a focus window of threads at readable size, under a strip of the whole block.
  struct FocusState {
    bool on = false;
    int first = 0;
    int count = 32;
  };
  FocusState& fs = ui.state_of<FocusState>();
  if (ui.focus_start) {
    fs.on = true;
    fs.first = *ui.focus_start;
    ui.focus_start.reset();
  }
  const bool can_focus = models.size() == 1 && models.front()->threads > 64;
  if (can_focus)  // as many threads as fit at a size where the numbers read
    fs.count = std::clamp(static_cast<int>((avail - label_width() - 30) / natural), 4, 64);
  if (can_focus) {
    const int threads = models.front()->threads;
    ImGui::Checkbox("focus", &fs.on);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("show %d threads at a readable size; arrows leaving them say where they go", fs.count);
    if (fs.on) {
      ImGui::SameLine();
      ImGui::SetNextItemWidth(std::min(fs_ui * 24, avail * 0.45f));
      ImGui::SliderInt("first thread", &fs.first, 0, threads - fs.count);
      fs.first = std::clamp(fs.first, 0, std::max(0, threads - fs.count));
    }
  }

  ImGui::BeginChild("blocks", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
  {
    const ImVec2 p = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
    ui.geometry.step_view_area = {p.x, p.y, size.x, size.y};
  }
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float visible_left = ImGui::GetWindowPos().x, visible_right = visible_left + ImGui::GetWindowWidth();
  // Room for the picture: the child less the legend (two lines) and a scrollbar's height.
  const ImGuiStyle& style = ImGui::GetStyle();
  LegendNeeds needs = legend_needs(models);
  // The colour scale takes a line when the cells may be too narrow for numbers.
  const bool may_need_scale = diagram_size(models, natural, 1).x > ImGui::GetContentRegionAvail().x;
  const int legend_rows = legend_lines(ui.theme, needs, ImGui::GetContentRegionAvail().x) + (may_need_scale ? 1 : 0);
  const float legend_h = ImGui::GetTextLineHeightWithSpacing() * static_cast<float>(legend_rows) + style.ScrollbarSize + style.ItemSpacing.y;
  ImVec2 room(ImGui::GetContentRegionAvail().x - 8, ImGui::GetContentRegionAvail().y - legend_h);
  if (can_focus && fs.on) room.y -= fs_ui * 0.8f + 8;  // the strip
  DiagramScale scale = choose_scale(models, natural, room, s.fill_block_view, s.zoom);
  if (models.size() > 1 && (s.fill_block_view ? scale.text * natural > scale.cell_w + 0.5f
                                              : diagram_size(models, natural, 1).x > room.x)) {
    // Too many to show side by side at a readable size: the focused block alone.
    const int focused = s.focused_trace() ? s.focused_trace()->block : blocks.front();
    held = {cached_model(ui, *run, launch, step, focused)};
    models = views_of(held);
    scale = choose_scale(models, natural, room, s.fill_block_view, s.zoom);
    needs = legend_needs(models);
  }
  if (s.fill_block_view) s.zoom = scale.cell_w / natural;
  const float cell_w = scale.cell_w;
  ui.geometry.cell_w = cell_w;
  ImGui::SetWindowFontScale(scale.text);
  float x = origin.x, height = 0;
  if (can_focus && fs.on) {
    const app::BlockViewModel& m = *models.front();
    // The strip: every thread a sliver (active bright, idle dim), the window outlined; a click moves it.
    const float strip_w = room.x, strip_h = fs_ui * 0.8f;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float per = strip_w / static_cast<float>(m.threads);
    for (int t = 0; t < m.threads; ++t) {
      const app::ThreadView& tv = m.thread_views[t];
      const ImU32 c = tv.active ? ui.theme.thread_active : ui.theme.thread_idle;
      dl->AddRectFilled(ImVec2(origin.x + t * per, origin.y), ImVec2(origin.x + (t + 1) * per, origin.y + strip_h), c);
    }
    dl->AddRect(ImVec2(origin.x + fs.first * per - 1, origin.y - 2),
                ImVec2(origin.x + (fs.first + fs.count) * per + 1, origin.y + strip_h + 2), ui.theme.written, 0, 0, 2.5f);
    ImGui::InvisibleButton("strip", ImVec2(strip_w, strip_h));
    if (ImGui::IsItemActive())
      fs.first = std::clamp(static_cast<int>((ImGui::GetIO().MousePos.x - origin.x) / per) - fs.count / 2, 0,
                            std::max(0, m.threads - fs.count));
    const float top = origin.y + strip_h + 8;
    const app::FocusWindow window = app::focus_window(m, fs.first, fs.count);
    const float readable = std::max(natural * scale.text, (room.x - label_width() - 30) / static_cast<float>(fs.count));
    fs.first = std::clamp(fs.first, 0, std::max(0, m.threads - fs.count));
    ui.geometry.cell_w = readable;
    draw_block(ui, *run, m, origin.x, top, readable, visible_left, visible_right, true, true, replay, &window);
    ImGui::SetCursorScreenPos(ImVec2(origin.x, top));
    ImGui::Dummy(ImVec2(room.x, layout(m, readable, origin.x, top, true, true).bottom - top + 8));
    models.clear();  // drawn
  }
  for (size_t k = 0; k < models.size(); ++k) {
    const app::BlockViewModel& m = *models[k];
    const bool labels = k == 0;
    const bool single = models.size() == 1;
    draw_block(ui, *run, m, x, origin.y, cell_w, visible_left, visible_right, labels, single, replay);
    height = std::max(height, layout(m, cell_w, x, origin.y, labels, single).bottom - origin.y);
    x += block_width(m, cell_w, labels);
  }
  if (!models.empty()) ImGui::Dummy(ImVec2(x - origin.x, height + 8));
  ui.geometry.blocks_drawn = static_cast<int>(models.size()) + (can_focus && fs.on ? 1 : 0);
  ImGui::SetWindowFontScale(1);
  draw_legend(ui, needs);
  {
    const ImVec2 l0 = ImGui::GetItemRectMin(), l1 = ImGui::GetItemRectMax();
    ui.geometry.rows["legend"] = {l0.x, l0.y, l1.x - l0.x, l1.y - l0.y};
  }
  // Too narrow for numbers, a cell's colour is its value: the scale, from the smallest to the largest
  // value of the array on show.
  if (!models.empty() && ui.geometry.cells_as_colours && !models.front()->arrays.empty()) draw_colour_scale(ui, models.front()->arrays.front());
  ui.geometry.step_view_bottom = ImGui::GetCursorScreenPos().y;
  ImGui::EndChild();
  ImGui::End();
}

}  // namespace syncscope::ui
