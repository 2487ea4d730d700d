// Block view: the step view's panel. It keeps the models of the steps on show, lays the picture out
// with app/view/step_layout.h (rows, cells, arrows, labels and their rectangles, computed without a
// window) and paints that layout as it is; the GUI tests get the same rectangles, copied once a
// frame by record_geometry.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <tuple>

#include "app/ui/panels.h"
#include "app/ui/step_painter.h"
#include "app/view/block_view_model.h"
#include "app/view/model_cache.h"
#include "app/view/step_layout.h"
#include "sim/element_layout.h"
#include "sim/limits.h"

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
HeldModel cached_model(const BlockViewPanel& panel, const RunResult& run, int launch, int step, int block) {
  BlockViewCache& cache = panel.own<BlockViewCache>();
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

// Hover: a cell says who wrote it; a thread lists what it did. A click on another block's name
// makes the caption, Code and Metrics follow it.
void cell_tooltip(const BlockViewPanel& panel, const RunResult& run, const app::BlockViewModel& m, int row, int index,
                  bool after) {
  const app::SharedArrayView& a = m.arrays[row];
  // The element as the program indexes it (a struct's field too); an 8-byte number is its two cells
  // (span 2), its two banks.
  const sim::ElementLayout layout = sim::ElementLayout::of(run.sim.trace.arrays[a.array]);
  const sim::ElementLayout::Place at = layout.place(index);
  const std::string field = at.field && !at.field->name.empty() ? "." + at.field->name : "";
  const int bank = a.bank_of(index);
  const std::string banks = a.after[index].span == 2 ? "banks " + std::to_string(bank) + ", " + std::to_string((bank + 1) % kWarpSize)
                                                     : "bank " + std::to_string(bank);
  const std::string& name = run.sim.trace.arrays[a.array].name;
  ImGui::BeginTooltip();
  if (a.columns > 0)  // a tile: [row][column], and the bank the class is counting
    ImGui::Text("%s[%d][%d]%s  before: %s  after: %s  (%s)", name.c_str(), index / a.columns,
                index % a.columns / layout.cells, field.c_str(), a.before[index].text.c_str(), a.after[index].text.c_str(),
                banks.c_str());
  else
    ImGui::Text("%s  before: %s  after: %s  (%s)", layout.element_name(name, index).c_str(), a.before[index].text.c_str(),
                a.after[index].text.c_str(), banks.c_str());
  const int step = panel.state.step();
  const app::CellOrigin o = app::cell_origin(run, panel.state.launch(), m.block, a.array, index, after ? step : step - 1);
  // A "before" cell's story ends where the step begins; what the step did to it follows.
  ImGui::TextUnformatted(((after ? "" : "before this step: ") + o.text()).c_str());
  std::string readers, writers;
  for (const auto& r : m.reads)  // an element's two halves are one access: its low half's arrow names it
    if (r.array_row == row && r.index == index) readers += " T" + std::to_string(r.thread);
  for (const auto& w : m.writes)
    if (w.array_row == row && w.index == index) writers += " T" + std::to_string(w.thread);
  if (!readers.empty()) ImGui::Text("read in this step by%s", readers.c_str());
  if (!writers.empty()) ImGui::Text("written in this step by%s", writers.c_str());
  const app::CellView before = app::drawn_cell(a.before, index), after_cell = app::drawn_cell(a.after, index);
  if (before.racy || after_cell.racy) ImGui::TextColored(ImColor(panel.theme.race), "part of a data race");
  if (const int n = std::max(before.bank_conflict, after_cell.bank_conflict); n > 1)
    ImGui::TextColored(ImColor(panel.theme.bank_conflict), "%s: its warp instruction had a %d-way bank conflict",
                       banks.c_str(), n);
  ImGui::EndTooltip();
}

void interact(const BlockViewPanel& panel, const RunResult& run, const app::BlockLayout& b) {
  if (!ImGui::IsWindowHovered()) return;
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const app::Point p{mouse.x, mouse.y};
  if (b.name && b.name->contains(p)) {
    if (!b.followed) ImGui::SetTooltip("click: the caption, Code and Metrics follow block %d", b.model->block);
    if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) panel.session.focus_block(b.model->block);
  }
  for (const app::Hit& hit : app::hit_test(b, p)) {
    if (hit.kind == app::Hit::Kind::Cell) cell_tooltip(panel, run, *b.model, hit.row, hit.index, hit.after);
    if (hit.kind != app::Hit::Kind::Thread) continue;
    const app::ThreadView& tv = b.model->thread_views[hit.thread];
    ImGui::BeginTooltip();
    ImGui::Text("thread %d (warp %d, lane %d)%s", hit.thread, hit.thread / kWarpSize, hit.thread % kWarpSize,
                tv.exited ? " - exited" : tv.active ? "" : " - idle in this step");
    if (!tv.holds.empty()) ImGui::Text("holds %s", tv.holds.c_str());
    if (!tv.writes.empty()) ImGui::Text("%s%s", tv.writes.rfind("writes", 0) == 0 ? "" : "writes ", tv.writes.c_str());
    for (const auto& e : tv.events) ImGui::BulletText("%s", e.c_str());
    for (const auto& text : tv.printed) ImGui::BulletText("printf: %s", text.c_str());
    ImGui::EndTooltip();
  }
}

// The tile view: each 2D array painted; a hovered cell says its bank and who read and wrote it.
void paint_tiles(const BlockViewPanel& panel, const RunResult& run, const app::BlockViewModel& m,
                 const std::vector<app::TileLayout>& tiles) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 start = ImGui::GetCursorScreenPos();
  float right = start.x, bottom = start.y;
  for (const app::TileLayout& t : tiles) {
    paint_tile(dl, panel.theme, t);
    right = std::max(right, t.box.right());
    bottom = std::max(bottom, t.box.bottom());
  }
  if (ImGui::IsWindowHovered()) {
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    for (const app::TileLayout& t : tiles)
      for (const app::LaidCell& c : t.cells)
        if (c.box.contains({mouse.x, mouse.y})) cell_tooltip(panel, run, m, c.row, c.index, c.kind == app::RowKind::After);
  }
  ImGui::Dummy(ImVec2(right - start.x, bottom - start.y + 8));
}

std::array<float, 4> xywh(const app::Rect& r) { return {r.x, r.y, r.w, r.h}; }
app::Rect last_item_rect() {
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  return {a.x, a.y, b.x - a.x, b.y - a.y};
}

// A thread that called printf in this step: a speech bubble right of its dot (the list
// under the picture says what it printed; hovering the thread too).
void paint_printed_marks(ImDrawList* dl, const Theme& th, const app::BlockLayout& b) {
  for (const app::LaidThread& t : b.threads) {
    if (t.thread >= static_cast<int>(b.model->thread_views.size()) || b.model->thread_views[t.thread].printed.empty()) continue;
    const float w = std::max(7.0f, t.radius * 1.4f), h = w * 0.7f;
    const ImVec2 a(t.centre.x + t.radius + 2, t.centre.y - t.radius - h * 0.5f), z(a.x + w, a.y + h);
    dl->AddRectFilled(a, z, th.label, 2);
    dl->AddTriangleFilled(ImVec2(a.x + 1, z.y - 1), ImVec2(a.x + w * 0.45f, z.y - 1), ImVec2(a.x - 1, z.y + h * 0.5f), th.label);
  }
}

// The step's device printf under the picture, one row per call: as many rows as the launch's
// busiest step (at most kPrintedRows, then the list scrolls), so the picture stays put while stepping.
constexpr int kPrintedRows = 6;
int printed_rows(const std::vector<const app::BlockViewModel*>& models) {
  int rows = 0;
  for (const auto* m : models)
    rows += std::max(m->frame.printed_lines, static_cast<int>(m->printed.size()) + (m->printed_dropped ? 1 : 0));
  return std::min(rows, kPrintedRows);
}
float printed_height(int rows) {
  return rows == 0 ? 0 : ImGui::GetTextLineHeightWithSpacing() * static_cast<float>(rows) + ImGui::GetStyle().WindowPadding.y * 2 +
                             ImGui::GetStyle().ItemSpacing.y;
}

std::optional<app::Rect> draw_printed(const BlockViewPanel& panel, const std::vector<const app::BlockViewModel*>& models, int rows) {
  if (rows == 0) return std::nullopt;
  ImGui::BeginChild("printed", ImVec2(0, printed_height(rows) - ImGui::GetStyle().ItemSpacing.y), true);
  struct Row {
    const app::PrintedView* line;
    const app::BlockViewModel* dropped;  // else: the count of calls the trace left out
  };
  std::vector<Row> list;
  for (const auto* m : models) {
    for (const app::PrintedView& p : m->printed) list.push_back({&p, nullptr});
    if (m->printed_dropped) list.push_back({nullptr, m});
  }
  if (list.empty()) ImGui::TextDisabled("no thread printed in this step");
  ImGuiListClipper clipper;  // a 1024-thread block prints 1024 rows: only those on show are drawn
  clipper.Begin(static_cast<int>(list.size()));
  while (clipper.Step())
    for (int k = clipper.DisplayStart; k < clipper.DisplayEnd; ++k) {
      if (const app::PrintedView* p = list[k].line) {
        const std::string who = (models.size() > 1 ? "block " + std::to_string(p->block) + " " : "") + p->who + " (" + p->where + "):";
        ImGui::TextColored(ImColor(panel.theme.dim_text), "%s", who.c_str());
        ImGui::SameLine();
        ImGui::TextUnformatted(p->text.c_str());
      } else {
        ImGui::TextColored(ImColor(panel.theme.warning), "block %d: %u more printf calls in this step not kept (the trace keeps %d a step)",
                           list[k].dropped->block, list[k].dropped->printed_dropped, sim::kMaxPrintedLinesPerStep);
      }
    }
  ImGui::EndChild();
  return last_item_rect();
}

// What the step view tells the GUI tests about a frame, gathered while drawing and recorded in one go.
struct StepViewReport {
  std::string waiting_for;
  std::optional<app::Rect> caption, legend, printed;
  app::Rect area;
  const app::StepLayout* picture = nullptr;
  const std::vector<app::TileLayout>* tiles = nullptr;
  int blocks_drawn = 0;
  float bottom = 0;
};


void record_geometry(FrameGeometry& g, const StepViewReport& report) {
  if (!report.waiting_for.empty()) g.waiting_for = report.waiting_for;
  if (report.caption) g.rows["caption"] = xywh(*report.caption);
  if (report.legend) g.rows["legend"] = xywh(*report.legend);
  if (report.printed) g.rows["printed"] = xywh(*report.printed);
  g.step_view_area = xywh(report.area);
  g.step_view_bottom = report.bottom;
  g.blocks_drawn = report.blocks_drawn;
  if (report.tiles)
    for (const app::TileLayout& t : *report.tiles) {
      g.rows["tile " + std::to_string(t.array_row)] = xywh(t.box);
      for (const auto& [name, rect] : t.named_rows) g.rows[name] = xywh(rect);
      for (const app::LaidLabel& l : t.labels) g.label(l.text, l.width, l.room);
      for (const app::LaidCell& c : t.cells)
        if (c.numbers) g.label(c.cell.text, c.text_w, c.box.w - 4);
      g.cells_as_colours |= t.cells_as_colours;
    }
  if (!report.picture) return;
  g.cell_w = report.picture->cell_w;
  for (const app::BlockLayout& b : report.picture->blocks) {
    for (const auto& [name, rect] : b.named_rows) g.rows[name] = xywh(rect);
    for (const app::LaidLabel& l : b.labels) g.label(l.text, l.width, l.room);
    for (const app::LaidCell& c : b.cells)
      if (c.numbers) g.label(c.cell.text, c.text_w, c.box.w - 4);
    g.cells_as_colours |= b.cells_as_colours;
  }
}

void paint_focus_strip(const BlockViewPanel& panel, const app::BlockViewModel& m, const app::FocusLayout& f, int& first, int count) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  // Every thread a sliver (active bright, idle dim), the window outlined; a click moves it.
  for (int t = 0; t < m.threads; ++t) {
    const float x = f.strip.x + static_cast<float>(t) * f.per_thread;
    dl->AddRectFilled(ImVec2(x, f.strip.y), ImVec2(f.strip.x + static_cast<float>(t + 1) * f.per_thread, f.strip.bottom()),
                      m.thread_views[t].active ? panel.theme.thread_active : panel.theme.thread_idle);
  }
  dl->AddRect(ImVec2(f.window.x, f.window.y), ImVec2(f.window.right(), f.window.bottom()), panel.theme.written, 0, 0, 2.5f);
  ImGui::InvisibleButton("strip", ImVec2(f.strip.w, f.strip.h));
  if (ImGui::IsItemActive())
    first = std::clamp(static_cast<int>((ImGui::GetIO().MousePos.x - f.strip.x) / f.per_thread) - count / 2, 0,
                       std::max(0, m.threads - count));
}

// The atlas's font that draws text of `px` best: the smallest at least that large, else the largest.
ImFont* font_for(float px) {
  ImFont* best = ImGui::GetFont();
  for (ImFont* f : ImGui::GetIO().Fonts->Fonts) {
    const bool large_enough = f->FontSize >= px - 0.5f, best_large_enough = best->FontSize >= px - 0.5f;
    if ((large_enough && (!best_large_enough || f->FontSize < best->FontSize)) || (!best_large_enough && f->FontSize > best->FontSize))
      best = f;
  }
  return best;
}

// The title, the caption (large; as tall as the launch's tallest, so the picture stays put), what
// the threads did, and the bank conflicts, for the block the caption follows.
app::Rect draw_caption(const BlockViewPanel& panel, const app::BlockViewModel& shown) {
  // Presenter mode's font is already large and its panel short: the subtitle (the timeline says
  // the step and barrier) and the activity move to the caption's tooltip.
  const bool presenter = panel.presenter;
  if (!presenter) text_fitted(panel, shown.title, true);
  // A hand-out's caption is a slide's headline: the large font (a thirtieth of the picture's
  // height), not the panel's 13 px under labels three times its size.
  ImFont* caption_font = panel.step_view.handout ? font_for(ImGui::GetFontSize() * 2.2f) : ImGui::GetFont();
  ImGui::PushFont(caption_font);
  if (!presenter && !panel.step_view.handout) ImGui::SetWindowFontScale(1.3f);
  const float wrap = ImGui::GetContentRegionAvail().x;
  float tallest = 0;
  for (const std::string& caption : shown.frame.captions)
    tallest = std::max(tallest, ImGui::CalcTextSize(caption.c_str(), nullptr, false, wrap).y);
  ImGui::TextWrapped("%s", shown.caption.c_str());
  ImGui::SetWindowFontScale(1.0f);
  ImGui::PopFont();
  const app::Rect caption = last_item_rect();
  if (presenter && ImGui::IsItemHovered()) ImGui::SetTooltip("%s\n%s", shown.title.c_str(), shown.activity.c_str());
  if (tallest > caption.h + 0.5f) ImGui::Dummy(ImVec2(1, tallest - caption.h - ImGui::GetStyle().ItemSpacing.y));
  if (!presenter) {
    if (shown.caption != shown.activity) text_fitted(panel, shown.activity, true);
    else ImGui::NewLine();  // the line is there in every step
  }
  if (!shown.bank_conflicts.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, panel.theme.bank_conflict);
    text_fitted(panel, shown.bank_conflicts, true);
    ImGui::PopStyleColor();
  }
  return caption;
}

// Large blocks: a focus window of threads at readable size, under a strip of the whole block.
struct FocusState {
  bool on = false;
  int first = 0;
  int count = 32;
};

void focus_controls(FocusState& fs, int threads, float avail) {
  ImGui::Checkbox("focus", &fs.on);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("show %d threads at a readable size; arrows leaving them say where they go", fs.count);
  if (!fs.on) return;
  ImGui::SameLine();
  ImGui::SetNextItemWidth(std::min(ImGui::GetFontSize() * 24, avail * 0.45f));
  ImGui::SliderInt("first thread", &fs.first, 0, threads - fs.count);
  fs.first = std::clamp(fs.first, 0, std::max(0, threads - fs.count));
}

// The sub-step slider: walk through the step's operations in the order the schedule ran them.
// Where the replay is lives in AppState (it stays on from step to step, and play animates it).
// The checkbox that turns it on, in the toolbar.
void replay_checkbox(const BlockViewPanel& panel, const app::BlockViewModel& m) {
  app::AppState& s = panel.state;
  const int total = static_cast<int>(m.operations.size());
  if (total == 0 && s.replay() < 0) return;
  bool replaying = s.replay() >= 0;
  if (ImGui::Checkbox("replay", &replaying)) s.set_replay(replaying ? 0 : -1);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("walk through this step's %d operations in the order the schedule ran them (keys . and ,; "
                      "Play animates them)", total);
}

int replay_controls(const BlockViewPanel& panel, const RunResult& run, const app::BlockViewModel& m, int launch, int step) {
  app::AppState& s = panel.state;
  const int total = static_cast<int>(m.operations.size());
  if (s.replay() < 0) return -1;
  if (!panel.step_view.handout) {  // a hand-out keeps the operation's sentence, not the slider
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
    ImGui::TextColored(ImColor(!m.operations[done - 1].racy                ? panel.theme.label
                               : m.operations[done - 1].race_within_warp ? panel.theme.warning
                                                                         : panel.theme.race),
                       "%d/%d  %s", done, total,
                       app::operation_text(run, launch, step, m, done - 1).c_str());
  else
    ImGui::TextDisabled("0/%d  the step begins (. next operation, , back)", total);
  return done;
}

ImU32 legend_colour(const Theme& th, app::LegendMark mark) {
  switch (mark) {
    case app::LegendMark::Read: return th.arrow_read;
    case app::LegendMark::Written: return th.arrow_write;
    case app::LegendMark::Changed: return th.changed;
    case app::LegendMark::Poison: return th.poison;
    case app::LegendMark::Race: return th.race;
    case app::LegendMark::Warning: return th.warning;
    case app::LegendMark::Idle: return th.thread_idle;
    case app::LegendMark::BankConflict: return th.bank_conflict;
  }
  return th.label;
}

// The legend of the marks on show, wrapped to the panel's width.
void draw_legend(const BlockViewPanel& panel, const app::LegendNeeds& needs) {
  const Theme& th = panel.theme;
  const app::TextMetrics text = text_metrics();
  const float box = text.font_px * 0.8f, inner = ImGui::GetStyle().ItemInnerSpacing.x;
  const float line_h = ImGui::GetTextLineHeightWithSpacing();
  const std::vector<app::LegendItem> items = app::legend_items(needs);
  const auto places = app::legend_places(items, ImGui::GetContentRegionAvail().x, text, inner);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  for (size_t k = 0; k < items.size(); ++k) {
    const ImVec2 p(origin.x + places[k].x, origin.y + static_cast<float>(places[k].line) * line_h);
    const float y = p.y + (ImGui::GetTextLineHeight() - box) / 2;
    const bool hatched = items[k].mark == app::LegendMark::Poison;
    const ImU32 colour = legend_colour(th, items[k].mark);
    dl->AddRectFilled(ImVec2(p.x, y), ImVec2(p.x + box, y + box), hatched ? th.cell : colour);
    if (hatched) hatch(dl, ImVec2(p.x, y), ImVec2(p.x + box, y + box), colour);
    dl->AddText(ImVec2(p.x + box + inner, p.y), ImGui::GetColorU32(ImGuiCol_Text), items[k].text);
  }
  ImGui::Dummy(ImVec2(ImGui::GetContentRegionAvail().x, static_cast<float>(app::legend_line_count(places)) * line_h));
}

// An array whose cells are drawn as colours (too narrow for numbers), and its values' range.
struct ColourScale {
  std::string name, lo, hi;
  bool operator==(const ColourScale& o) const { return name == o.name && lo == o.lo && hi == o.hi; }
};

// Every array of the picture with a cell drawn as its colour: each gets its own scale, so no cell
// is read on another array's scale.
std::vector<ColourScale> colour_scales(const app::BlockViewModel& m, const std::vector<app::LaidCell>& cells) {
  std::vector<ColourScale> scales;
  for (const app::LaidCell& c : cells) {
    if (c.numbers) continue;
    ColourScale s;
    if (c.kind == app::RowKind::GlobalRead || c.kind == app::RowKind::GlobalWritten) {
      const app::GlobalRowView& g = (c.kind == app::RowKind::GlobalRead ? m.global_reads : m.global_writes)[c.row];
      s = {g.name, g.lo, g.hi};
    } else {
      s = {m.arrays[c.row].name, m.arrays[c.row].lo, m.arrays[c.row].hi};
    }
    if (!s.lo.empty() && std::find(scales.begin(), scales.end(), s) == scales.end()) scales.push_back(std::move(s));
  }
  return scales;
}

// The scales on one line, each bar as wide as the line leaves it (at most 13 em).
void draw_colour_scales(const BlockViewPanel& panel, const std::vector<ColourScale>& scales) {
  if (scales.empty()) return;
  const float fs = ImGui::GetFontSize(), gap = ImGui::GetStyle().ItemSpacing.x;
  std::vector<std::string> tails;
  float words = 0;
  for (const ColourScale& s : scales) {
    tails.push_back(s.hi + "  (" + s.name + ": colour = value)");
    words += ImGui::CalcTextSize(s.lo.c_str()).x + ImGui::CalcTextSize(tails.back().c_str()).x + 2 * gap + fs;
  }
  const float bar_w = std::clamp((ImGui::GetContentRegionAvail().x - words) / static_cast<float>(scales.size()), fs * 3, fs * 13);
  for (size_t k = 0; k < scales.size(); ++k) {
    if (k > 0) ImGui::SameLine(0, fs);
    ImGui::TextUnformatted(scales[k].lo.c_str());
    ImGui::SameLine();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    for (int i = 0; i < 50; ++i)
      ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x + i * bar_w / 50, p.y), ImVec2(p.x + (i + 1) * bar_w / 50, p.y + fs),
                                                panel.theme.shade(static_cast<float>(i) / 49));
    ImGui::Dummy(ImVec2(bar_w, fs));
    ImGui::SameLine();
    ImGui::TextUnformatted(tails[k].c_str());
  }
}

// Zoom, fit, which block, replay.
void draw_toolbar(const BlockViewPanel& panel, const sim::LaunchTrace& lt, const std::vector<const app::BlockViewModel*>& models) {
  app::AppState& s = panel.state;
  const float fs_ui = ImGui::GetFontSize();
  ImGui::SetNextItemWidth(fs_ui * 7);
  if (ImGui::SliderFloat("zoom", &s.zoom, 0.005f, 4.0f, "%.2fx", ImGuiSliderFlags_Logarithmic)) s.fill_block_view = false;
  ImGui::SameLine();
  ImGui::Checkbox("fit", &s.fill_block_view);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("size the picture to the panel: every row and thread without scrolling (zooming turns it off)");
  if (std::any_of(models.begin(), models.end(), [](const auto* m) { return !app::tile_arrays(*m).empty(); })) {
    ImGui::SameLine();
    ImGui::Checkbox("tile", &s.tile_view);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("draw each 2D shared array as its rows × columns, with the bank of each column\n"
                        "(untick: the threads, their arrows and every shared array as one row)");
  }
  ImGui::SameLine(0, fs_ui);
  int block = s.focus_block();
  ImGui::SetNextItemWidth(fs_ui * 6);
  if (ImGui::InputInt("block", &block) && block >= 0 && block < lt.grid.count()) panel.session.focus_block(block);
  ImGui::SameLine();
  // The toolbar is one line: the grid's shape goes first when the panel is narrow (presenter mode),
  // then the replay checkbox moves to a line of its own; nothing runs off the panel's edge.
  const float replay_w = models.size() == 1 ? fs_ui + ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x +
                                                  ImGui::CalcTextSize("replay").x
                                            : 0;
  const std::string of = "of " + std::to_string(lt.grid.count());
  std::string explained = of;  // a 2D or 3D grid's shape: "of 4 (2 × 2)"
  if (lt.grid.y > 1 || lt.grid.z > 1) {
    explained += " (" + std::to_string(lt.grid.x) + " × " + std::to_string(lt.grid.y);
    explained += (lt.grid.z > 1 ? " × " + std::to_string(lt.grid.z) : std::string()) + ")";
  }
  const float room = ImGui::GetContentRegionAvail().x;
  const bool replay_fits = ImGui::CalcTextSize(of.c_str()).x + replay_w <= room;
  const bool explain = ImGui::CalcTextSize(explained.c_str()).x + (replay_fits ? replay_w : 0) <= room;
  ImGui::TextDisabled("%s", fit_label(explain ? explained : of, room, &panel.geometry).c_str());
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("%s%sBlocks not recorded yet are simulated again with full detail.", explain ? "" : explained.c_str(),
                      explain ? "" : " blocks. ");
  if (models.size() == 1) {
    if (replay_fits) ImGui::SameLine(0, fs_ui);
    replay_checkbox(panel, *models.front());
  }
}

}  // namespace

void draw_block_view_panel(const BlockViewPanel& panel) {
  if (!begin_panel(panel, "Block view")) return;
  const RunResult* run = run_to_draw(panel, panel.state, panel.session, true, "simulating...");
  if (!run) return;
  app::AppState& s = panel.state;
  const int launch = s.launch(), step = s.step();
  const sim::LaunchTrace& lt = run->sim.trace.launches[launch];
  const app::TextMetrics text = text_metrics();  // at scale 1
  StepViewReport report;

  const float avail = ImGui::GetContentRegionAvail().x;
  // Which blocks: all recorded ones side by side when they fit, else the focused one.
  std::vector<int> blocks = s.recorded_blocks();
  std::vector<HeldModel> held;
  for (int b : blocks) held.push_back(cached_model(panel, *run, launch, step, b));
  std::vector<const app::BlockViewModel*> models = views_of(held);
  if (models.size() == 1) s.set_replay_total(static_cast<int>(models.front()->operations.size()));
  if (!panel.step_view.handout) draw_toolbar(panel, lt, models);
  const float natural = app::natural_cell_width(models, text);  // measures every cell's text: once a frame
  if (lt.find_block(s.focus_block()) == nullptr && panel.session.simulating())
    report.waiting_for = "recording block " + std::to_string(s.focus_block()) + "...";
  else if (models.empty())
    report.waiting_for = "no block of launch " + std::to_string(launch) + " was recorded: pick one under block";
  if (!report.waiting_for.empty()) ImGui::TextColored(ImColor(panel.theme.warning), "%s", report.waiting_for.c_str());
  const int followed_block = s.focused_trace() ? s.focused_trace()->block : -1;
  if (!models.empty()) {
    // Several blocks side by side: the caption is the followed block's (as are Code and Metrics).
    const app::BlockViewModel* followed = models.front();
    for (const auto* m : models)
      if (m->block == followed_block) followed = m;
    report.caption = draw_caption(panel, *followed);
  }
  const int replay = models.size() == 1 ? replay_controls(panel, *run, *models.front(), launch, step) : -1;

  FocusState& fs = panel.own<FocusState>();
  if (panel.step_view.focus_start) {
    fs.on = true;
    fs.first = *panel.step_view.focus_start;
    panel.step_view.focus_start.reset();
  }
  const bool can_focus = models.size() == 1 && models.front()->threads > 64;
  if (can_focus) {
    fs.count = app::focus_thread_count(avail, natural, text);  // as many threads as fit at a size where numbers read
    focus_controls(fs, models.front()->threads, avail);
  }
  const bool focusing = can_focus && fs.on;

  ImGui::BeginChild("blocks", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
  report.area = {ImGui::GetWindowPos().x, ImGui::GetWindowPos().y, ImGui::GetWindowSize().x, ImGui::GetWindowSize().y};
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float visible_left = ImGui::GetWindowPos().x, visible_right = visible_left + ImGui::GetWindowWidth();
  // Room for the picture: the child less the legend (its lines) and a scrollbar's height.
  const ImGuiStyle& style = ImGui::GetStyle();
  const float inner = style.ItemInnerSpacing.x;
  // A 2D shared array as its tile (rows × columns): the followed block's, in the whole room.
  const app::BlockViewModel* tiled = nullptr;
  if (s.tile_view && !focusing)
    for (const auto* m : models)
      if (!app::tile_arrays(*m).empty() && (!tiled || m->block == followed_block)) tiled = m;
  app::LegendNeeds needs = app::legend_needs(models);
  const float width = ImGui::GetContentRegionAvail().x;
  // The colour scale takes a line when the cells may be too narrow for numbers.
  const bool may_need_scale = tiled || app::diagram_size(models, natural, text, 1).w > width;
  const int legend_rows = app::legend_line_count(app::legend_places(app::legend_items(needs), width, text, inner)) + (may_need_scale ? 1 : 0);
  // The list takes at most a third of the panel: the picture stays the point.
  const int printed = std::min(printed_rows(models),
                               std::max(2, static_cast<int>(ImGui::GetContentRegionAvail().y / 3 / ImGui::GetTextLineHeightWithSpacing())));
  const float legend_h = ImGui::GetTextLineHeightWithSpacing() * static_cast<float>(legend_rows) + style.ScrollbarSize + style.ItemSpacing.y +
                         printed_height(printed);
  app::Size room{width - 8, ImGui::GetContentRegionAvail().y - legend_h};
  if (focusing) room.h -= text.font_px * 0.8f + 8;  // the strip
  app::StepLayout picture;
  std::vector<app::TileLayout> tiles;
  if (tiled) {
    models = {tiled};
    needs = app::legend_needs(models);
    tiles = app::layout_tiles(*tiled, text, {origin.x, origin.y, room.w, room.h});
    paint_tiles(panel, *run, *tiled, tiles);
    report.tiles = &tiles;
    report.blocks_drawn = 1;
  } else {
    if (!app::side_by_side_fits(models, natural, room, s.fill_block_view, s.zoom, text)) {
      // Too many to show side by side at a readable size: the focused block alone.
      held = {cached_model(panel, *run, launch, step, followed_block >= 0 ? followed_block : blocks.front())};
      models = views_of(held);
      needs = app::legend_needs(models);
    }
    const app::DiagramScale scale = app::choose_scale(models, natural, room, s.fill_block_view, s.zoom, text);
    if (s.fill_block_view) s.zoom = scale.cell_w / natural;
    // Text scaled past its font's size is a blurred bitmap: the atlas's closest font at least as
    // large draws it, scaled down to the size wanted (the large font serves zoomed views and
    // hand-outs; the layout measures with the font that paints).
    const float wanted_px = ImGui::GetFontSize() * scale.text;
    ImFont* crisp = font_for(wanted_px);
    ImGui::PushFont(crisp);
    ImGui::SetWindowFontScale(wanted_px / ImGui::GetFontSize());
    const app::TextMetrics scaled = text.scaled(scale.text);
    const app::Point at{origin.x, origin.y};
    if (focusing) {
      const app::BlockViewModel& m = *models.front();
      const app::FocusWindow window = app::focus_window(m, fs.first, fs.count);
      const app::FocusLayout f = app::layout_focus(m, window, text, scaled, natural, scale.text, at, room.w, replay,
                                                       scale.squeeze);
      paint_focus_strip(panel, m, f, fs.first, fs.count);
      fs.first = std::clamp(fs.first, 0, std::max(0, m.threads - fs.count));
      picture = f.step;
      report.blocks_drawn = 1;
    } else {
      picture = app::layout_side_by_side(models, scaled, scale.cell_w, at, visible_left, visible_right, replay, followed_block,
                                         scale.squeeze);
      report.blocks_drawn = static_cast<int>(models.size());
    }
    ImDrawList* dl = ImGui::GetWindowDrawList();
    for (const app::BlockLayout& b : picture.blocks) {
      paint_block(dl, panel.theme, b);
      paint_printed_marks(dl, panel.theme, b);
      interact(panel, *run, b);
    }
    if (!picture.blocks.empty()) {
      if (focusing) ImGui::SetCursorScreenPos(ImVec2(origin.x, picture.blocks.front().rows.y0));  // under the strip
      ImGui::Dummy(ImVec2(picture.size.w, picture.size.h + 8));
    }
    report.picture = &picture;
    ImGui::SetWindowFontScale(1);
    ImGui::PopFont();
  }
  report.printed = draw_printed(panel, models, printed);
  draw_legend(panel, needs);
  report.legend = last_item_rect();
  // Too narrow for numbers, a cell's colour is its value: a scale for each array drawn so, from its
  // smallest to its largest value.
  std::vector<ColourScale> scales;
  for (const app::BlockLayout& b : picture.blocks)
    for (ColourScale& s : colour_scales(*b.model, b.cells))
      if (std::find(scales.begin(), scales.end(), s) == scales.end()) scales.push_back(std::move(s));
  for (const app::TileLayout& t : tiles)
    for (ColourScale& s : colour_scales(*models.front(), t.cells))
      if (std::find(scales.begin(), scales.end(), s) == scales.end()) scales.push_back(std::move(s));
  draw_colour_scales(panel, scales);
  report.bottom = ImGui::GetCursorScreenPos().y;
  record_geometry(panel.geometry, report);
  ImGui::EndChild();
  ImGui::End();
}

}  // namespace syncscope::ui
