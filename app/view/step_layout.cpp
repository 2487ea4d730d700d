// The step view's geometry, computed without a window (see step_layout.h).
#include "app/view/step_layout.h"

#include <algorithm>
#include <map>
#include <cmath>

namespace syncscope::app {

float row_label_width(const TextMetrics& text) { return text.width("warp_totals ") + 8; }

// Columns at least this wide show what each thread read and wrote under its node.
constexpr float kValuesMinCell = 18;

BlockRows block_rows(const BlockViewModel& m, const TextMetrics& text, float cell_w, Point origin, bool with_labels,
                     bool single, int shift, float squeeze) {
  BlockRows g;
  g.shift = shift;
  const float fs = text.font_px;
  g.cell_w = cell_w;
  g.cell_h = fs + 8;
  g.label_w = with_labels ? row_label_width(text) : 0;
  // Squeezed, a band still holds a line of text and its arrowheads; lane rows shorter than a line
  // of text are labelled once per run of the same operation (row_labels).
  g.band = fs * std::max(1.5f, 2.6f * squeeze);
  g.marker = fs * 0.9f;
  g.lane_row = fs * std::max(0.75f, 1.6f * squeeze);
  g.x0 = origin.x;
  g.y0 = origin.y;
  // Room for the shared arrays and warp rounds any step of the launch draws, so the cells stay put
  // from step to step. Global sections (mostly the first and last steps) take room only where they
  // are: reserving it in every step would cost a projector's cells a third of their size.
  g.shared_rows = std::max(static_cast<int>(m.arrays.size()), m.frame.shared_rows);
  g.global_in = static_cast<int>(m.global_reads.size());
  g.global_out = static_cast<int>(m.global_writes.size());
  g.lane_rows = std::min(kMaxLaneRows, m.frame.warp_rounds);
  for (const ShuffleRound& round : m.shuffles) g.lane_rows = std::max(g.lane_rows, std::min(kMaxLaneRows, round.rank + 1));
  g.warp_y = origin.y + (single ? 0 : fs + 6);
  g.thread_y = g.warp_y + fs + 2;
  g.global_in_y = g.thread_y + fs + 4;
  g.before_y = g.global_in_row_y(g.global_in) + (g.global_in ? fs * 0.6f : 0);
  g.marker_y = g.before_row_y(g.shared_rows) + g.band;
  // What threads last read goes right under their nodes; without lane rows it shares the write
  // band with what they wrote (the band is tall enough for both lines and the arrowheads), so a
  // step with writes is no taller than one without.
  g.values_y = g.marker_y + g.marker + 2;
  // Columns too narrow for what the threads read (kValuesMinCell) leave that strip out above lane rows.
  const bool values_strip = cell_w >= kValuesMinCell;
  g.lanes_y = g.lane_rows > 0 && values_strip ? g.values_y + fs + 4 : g.marker_y + g.marker + 4;
  g.after_y = g.lane_row_y(g.lane_rows) + g.band;
  g.writes_y = g.lane_rows > 0 ? g.after_y - g.band + fs * 0.3f : g.values_y + fs + 2;
  g.global_out_y = g.after_row_y(g.shared_rows) + (g.global_out ? fs * 0.6f : 0);
  g.bottom = g.global_out_row_y(g.global_out) + 4;
  return g;
}

int column_count(const BlockViewModel& m) {
  int columns = std::max(m.threads, m.frame.columns);
  for (const auto& a : m.arrays) columns = std::max(columns, static_cast<int>(a.after.size()));
  for (const auto* rows : {&m.global_reads, &m.global_writes})
    for (const auto& r : *rows) columns = std::max(columns, static_cast<int>(r.cells.size()));
  return columns;
}

float block_width(const BlockViewModel& m, const TextMetrics& text, float cell_w, bool with_labels) {
  return (with_labels ? row_label_width(text) : 0) + static_cast<float>(column_count(m)) * cell_w + 24;
}

namespace {

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
std::string without_spaces(std::string s) {
  s.erase(std::remove(s.begin(), s.end(), ' '), s.end());
  return s;
}
// What a thread writes, in form 0..4 of the narrowing ladder: "6 = 5 + 1", "6=5+1", then the terms
// alone, "5 + 1" or "5+1" (the cell under the arrow shows the 6), else the value "6". A write that
// is not a sum has only the value.
constexpr int kValueOnly = 4;
std::string written_form(const std::string& s, int form) {
  const size_t eq = s.find(" = ");
  if (eq == std::string::npos || s.rfind("writes ", 0) == 0 || form >= kValueOnly) return written_value(s);
  const std::string terms = s.substr(eq + 3);
  if (terms.find(" + ") == std::string::npos && form > 0) return written_value(s);  // a copy: "6 = 6" or "6"
  switch (form) {
    case 0: return s;
    case 1: return without_spaces(s);
    case 2: return terms;
    default: return without_spaces(terms);
  }
}
// The widest form in which every thread's write fits its column: one form for the whole row, so
// the class never reads "3+0" beside "22".
int written_form_fitting(const std::vector<ThreadView>& threads, int first, int last, float room, const TextMetrics& text) {
  int form = 0;
  for (int t = first; t < last; ++t)
    if (!threads[t].writes.empty())
      while (form < kValueOnly && text.width(written_form(threads[t].writes, form)) > room) ++form;
  return form;
}

Ink race_ink(bool within_warp) { return within_warp ? Ink::Warning : Ink::Race; }

// Builds one block's layout; each part of the picture is one method, in drawing order.
class BlockLayoutBuilder {
 public:
  BlockLayoutBuilder(const BlockViewModel& m, const TextMetrics& text, const BlockPlacement& at)
      : m_(m), text_(text), at_(at), fs_(text.font_px), replaying_(at.replay >= 0), current_(replaying_ ? at.replay - 1 : -1),
        values_shown_(!replaying_ && at.cell_w >= kValuesMinCell) {
    out_.model = &m;
    out_.font_px = fs_;
    out_.followed = at.followed;
    out_.rows = g_ = block_rows(m, text, at.cell_w, at.origin, at.with_labels, at.single, at.focus ? at.focus->first : 0,
                                at.squeeze);
    columns_ = column_count(m);
    const FocusWindow* focus = at.focus;
    out_.first = focus ? focus->first : std::clamp(static_cast<int>((at.visible_left - g_.col_x(0)) / at.cell_w) - 1, 0, columns_);
    out_.last = focus ? std::min(columns_, focus->first + focus->count)
                      : std::clamp(static_cast<int>((at.visible_right - g_.col_x(0)) / at.cell_w) + 1, 0, columns_);
  }

  BlockLayout build() && {
    if (!(at_.with_labels && at_.single)) name();
    if (!m_.available) return std::move(out_);
    warps();
    if (at_.with_labels) {
      row_labels();
      named_rows();
    }
    threads();
    cells();
    if (at_.focus) focus_arrows();
    if (at_.cell_w >= 4) {
      arrows();
      lane_rounds();
    }
    cells_laid_ = true;
    thread_values();
    return std::move(out_);
  }

 private:
  bool shown(int order) const { return !replaying_ || order < at_.replay; }
  float centre_x(int column) const { return g_.col_x(column) + at_.cell_w / 2; }
  float thickness() const {  // 3 px at 720p, thicker on 4K
    return at_.cell_w >= 40 ? std::max(3.0f, fs_ * 0.08f) : at_.cell_w >= 14 ? 1.8f : 1.0f;
  }
  float width_for(int order, float normal) const { return order == current_ ? thickness() * 2 : normal; }

  void label(std::string text, Point at, float room, Ink ink, std::string row = {}, bool backed = false) {
    const float w = text_.width(text);
    const int z = cells_laid_ ? static_cast<int>(out_.arrows.size()) : -1;
    out_.labels.push_back({std::move(text), at, w, room, ink, std::move(row), z, backed});
  }
  // Text centred at x, laid out only when it fits in `room` (the hover says it otherwise).
  void centred(float x, float y, float room, Ink ink, const std::string& text, std::string row = {}, bool backed = false) {
    const float w = text_.width(text);
    if (w <= room) label(text, {x - w / 2, y}, room, ink, std::move(row), backed);
  }

  // Beside others, each block says which it is; the one the caption, Code and Metrics follow is
  // underlined, and a click on another's name makes it that one.
  void name() {
    std::string name = "block ";
    name += std::to_string(m_.block);
    if (at_.followed) name += " (caption, code)";
    const float room = g_.col_x(columns_) - g_.col_x(0);
    name = fit_text(name, room, text_);
    const Point at{g_.col_x(0), g_.y0};
    if (!name.empty()) label(name, at, room, at_.followed ? Ink::Written : Ink::Label);
    out_.name = Rect{at.x, at.y, text_.width(name), fs_};
    out_.named_rows["block " + std::to_string(m_.block) + " name"] = *out_.name;
  }

  void warps() {
    for (int w = 0; w < m_.warps; ++w) {
      const int c0 = w * kWarpSize, c1 = std::min(m_.threads, c0 + kWarpSize);
      if (c1 < out_.first || c0 > out_.last) continue;
      const float xa = g_.col_x(c0), xb = g_.col_x(c1);
      out_.warps.push_back({xa, g_.warp_y - 2, xb - xa, g_.bottom - (g_.warp_y - 2)});
      const std::string text = "warp " + std::to_string(w);
      if (text_.width(text) < xb - xa - 4) label(text, {xa + 4, g_.warp_y}, xb - xa - 4, Ink::Label);
    }
  }

  // Memory before the step (or now, while replaying), what was read, the threads, what was
  // written, memory after. Names longer than the label column are cut by fit_text's rule.
  void row_labels() {
    const float room = g_.label_w - 6;
    auto row_label = [&](float y, Ink ink, const std::string& text, std::string row = {}) {
      std::string shown = fit_text(text, room, text_);
      if (!shown.empty()) label(std::move(shown), {g_.x0, y}, room, ink, std::move(row));
    };
    for (int r = 0; r < g_.global_in; ++r)
      row_label(g_.global_in_row_y(r) + 4, Ink::Label, m_.global_reads[r].name, m_.global_reads[r].name + " read");
    row_label(g_.thread_y, Ink::Dim, replaying_ ? "now:" : "before:", "threads");
    for (int r = 0; r < static_cast<int>(m_.arrays.size()); ++r) {
      row_label(g_.before_row_y(r) + 4, Ink::Label, m_.arrays[r].name, m_.arrays[r].name + " before");
      row_label(g_.after_row_y(r) + 4, Ink::Label, m_.arrays[r].name, m_.arrays[r].name + " after");
    }
    row_label(g_.before_row_y(g_.shared_rows) + (g_.band - fs_) / 2, Ink::ArrowRead, "read");
    row_label(g_.marker_y + (g_.marker - fs_) / 2 - 2, Ink::Dim, "threads");
    // Every warp's round k has the same operation. Rows shorter than a line of text: the first
    // round of each run of one operation is labelled ("shfl_up" over six rows, then "shfl_idx").
    const bool every_round = g_.lane_row >= fs_ + 1;
    const ShuffleRound* previous = nullptr;
    for (const ShuffleRound& round : m_.shuffles) {
      if (round.warp != m_.shuffles.front().warp || round.rank >= g_.lane_rows) continue;
      if (every_round || !previous || previous->op != round.op)
        row_label(g_.lane_row_y(round.rank) + std::max(0.0f, (g_.lane_row - fs_) / 2), Ink::ArrowRead, round.op,
                  "lanes " + std::to_string(round.rank));
      previous = &round;
    }
    if (values_shown_ && std::any_of(m_.thread_views.begin(), m_.thread_views.end(), [](const ThreadView& tv) { return !tv.holds.empty(); }))
      row_label(g_.values_y, Ink::Dim, "last read", "last read");
    // "write" beside the written values, else "after:" over the row after the step (where the
    // written values would be: the two never share a line).
    if (!m_.writes.empty() || !m_.global_write_arrows.empty()) row_label(g_.writes_y, Ink::ArrowWrite, "write", "written values");
    else row_label(g_.after_y - fs_ - 1, Ink::Dim, replaying_ ? "now:" : "after:");
    for (int r = 0; r < g_.global_out; ++r)
      row_label(g_.global_out_row_y(r) + 4, Ink::Label, m_.global_writes[r].name, m_.global_writes[r].name + " written");
  }

  // Where each row is: the GUI tests check these against the window.
  void named_rows() {
    const float right = g_.col_x(at_.focus ? std::min(columns_, at_.focus->first + at_.focus->count) : columns_);
    auto row = [&](const std::string& name, float top, float height) { out_.named_rows[name] = {g_.x0, top, right - g_.x0, height}; };
    row("threads", g_.thread_y, fs_);
    for (int r = 0; r < static_cast<int>(m_.arrays.size()); ++r) {
      row(m_.arrays[r].name + " before", g_.before_row_y(r), g_.cell_h);
      row(m_.arrays[r].name + " after", g_.after_row_y(r), g_.cell_h);
    }
    row("thread nodes", g_.marker_y, g_.marker);
    row("last read", g_.values_y, fs_);
    row("written values", g_.writes_y, fs_);
    for (int r = 0; r < g_.lane_rows; ++r) row("lanes " + std::to_string(r), g_.lane_row_y(r), g_.lane_row);
    for (int r = 0; r < g_.global_in; ++r) row(m_.global_reads[r].name + " read", g_.global_in_row_y(r), g_.cell_h);
    for (int r = 0; r < g_.global_out; ++r) row(m_.global_writes[r].name + " written", g_.global_out_row_y(r), g_.cell_h);
  }

  // Thread numbers where they fit, a node per thread (a dot when narrow), and what each thread
  // holds and writes when the whole step is shown.
  void threads() {
    const float cell_w = at_.cell_w;
    std::string widest = "T";  // appended, not "T" + ...: GCC 12 warns falsely (-Wrestrict) on that
    widest += std::to_string(m_.threads - 1);
    const float label_every = std::ceil((text_.width(widest) + 4) / cell_w);
    const int marker_stride = cell_w >= 2 ? 1 : static_cast<int>(std::ceil(2.0f / cell_w));
    for (int t = out_.first; t < std::min(out_.last, m_.threads); ++t) {
      const ThreadView& tv = m_.thread_views[t];
      const bool numbered = label_every <= 1 || t % static_cast<int>(label_every) == 0;
      if (t % marker_stride && !numbered) continue;
      const float cx = centre_x(t);
      if (numbered) {
        std::string id = "T";
        id += std::to_string(t);
        // Wider than its column, a number crosses warp outlines: on the panel's background it stays readable.
        centred(cx, g_.thread_y, std::max(1.0f, label_every) * cell_w, tv.active ? Ink::Label : Ink::Dim, id, {},
                label_every > 1);
      }
      const bool current = current_ >= 0 && m_.operations[current_].thread == t;
      const Ink ink = current ? Ink::Written : tv.exited ? Ink::ThreadExited : tv.active ? Ink::ThreadActive : Ink::ThreadIdle;
      const float r = std::max(1.0f, std::min(cell_w * 0.35f, g_.marker / 2));
      out_.threads.push_back({t, {cx, g_.marker_y + g_.marker / 2}, r, ink, current});
    }
  }

  // What each thread last read and what it wrote, when the whole step is shown: over the arrows,
  // on the panel's background, so a value on the arrow that carries it stays readable.
  void thread_values() {
    if (!values_shown_) return;
    const float room = at_.cell_w - 2;
    const int form = written_form_fitting(m_.thread_views, out_.first, std::min(out_.last, m_.threads), room, text_);
    for (int t = out_.first; t < std::min(out_.last, m_.threads); ++t) {
      const ThreadView& tv = m_.thread_views[t];
      const float cx = centre_x(t);
      if (!tv.holds.empty())
        centred(cx, g_.values_y, room, Ink::Label, text_.width(tv.holds) <= room ? tv.holds : held_value(tv.holds), "last read", true);
      if (!tv.writes.empty())
        centred(cx, g_.writes_y, room, Ink::ArrowWrite, written_form(tv.writes, form), "written values", true);
    }
  }

  void cell(RowKind kind, int row, int index, const CellView& c, float x, float y, float w) {
    if (c.span == 2 && at_.cell_w >= 1) w *= 2;  // an 8-byte element: one box over its two cells
    LaidCell laid{kind, row, index, {x, y, w, g_.cell_h}, c};
    // A value too wide for its cell is shown as its colour (the colour scale under the legend), never blank.
    laid.text_w = w >= 14 ? text_.width(c.text) : 0;
    laid.numbers = w >= 14 && laid.text_w + 4 <= w;
    out_.cells_as_colours |= !laid.numbers && !c.poison;
    out_.cells.push_back(std::move(laid));
  }

  void cells() {
    // Narrower than a pixel, many cells share a pixel column: lay out one (the first) per column.
    const float cell_w = at_.cell_w;
    const int stride = cell_w >= 1 ? 1 : static_cast<int>(std::ceil(1.0f / cell_w));
    const float w = cell_w * static_cast<float>(stride);
    const int first = out_.first, last = out_.last;
    // While replaying both rows are memory as it is now: reads leave the top one, writes land in
    // the bottom one, which marks every cell written so far.
    std::vector<std::vector<CellView>> now, landed;
    if (replaying_) {
      now = cells_after(m_, at_.replay);
      landed = now;
      for (int k = 0; k < at_.replay; ++k) {
        const OperationView& op = m_.operations[k];
        if (op.kind == sim::EventKind::SharedWrite && !op.global && op.array_row >= 0) {
          CellView& c = landed[op.array_row].at(op.index);
          c.written = true;
          c.racy |= op.racy;
        }
      }
      for (auto& row : landed)
        for (auto& c : row) c.read = false;
    }
    for (int r = 0; r < static_cast<int>(m_.arrays.size()); ++r) {
      const auto& a = m_.arrays[r];
      const auto& top = replaying_ ? now[r] : a.before;
      const auto& bottom = replaying_ ? landed[r] : a.after;
      for (int i = first - first % stride; i < std::min(last, static_cast<int>(a.after.size())); i += stride) {
        if (stride == 1 && top[i].span == 0) continue;  // drawn by its number's first cell (left of a window: not drawn)
        cell(RowKind::Before, r, i, drawn_cell(top, i), g_.col_x(i), g_.before_row_y(r), w);
        cell(RowKind::After, r, i, drawn_cell(bottom, i), g_.col_x(i), g_.after_row_y(r), w);
      }
    }
    auto global_row = [&](RowKind kind, int r, const GlobalRowView& row, float y) {
      for (int i = std::max(0, first); i < std::min(last, static_cast<int>(row.cells.size())); ++i) {
        if (row.cells[i].span == 0) continue;
        cell(kind, r, i, drawn_cell(row.cells, i), g_.col_x(i), y, w);
      }
    };
    for (int r = 0; r < g_.global_in; ++r) global_row(RowKind::GlobalRead, r, m_.global_reads[r], g_.global_in_row_y(r));
    for (int r = 0; r < g_.global_out; ++r) global_row(RowKind::GlobalWritten, r, m_.global_writes[r], g_.global_out_row_y(r));
    cells_laid_ = true;
  }

  // In a focus window both ends must be inside it (shared arrows leaving it are stubs); otherwise
  // one end on screen is enough.
  bool in_view(int thread, int column) const {
    if (at_.focus) return at_.focus->contains(thread) && at_.focus->contains(column);
    const int first = out_.first, last = out_.last;
    return !((thread < first || thread > last) && (column < first || column > last));
  }

  void straight(Point from, Point to, Ink ink, float thickness, int thread, RowKind kind, int row, int index) {
    LaidArrow a;
    a.from = from;
    a.to = to;
    a.ink = ink;
    a.thickness = thickness;
    a.thread = thread;
    a.kind = kind;
    a.row = row;
    a.index = index;
    out_.arrows.push_back(a);
  }

  // Inside the window, arrows as usual; an arrow with one end outside stops at the window's edge
  // and says where that end is.
  void focus_arrows() {
    const FocusWindow& focus = *at_.focus;
    const float left = g_.col_x(focus.first) - 2, right = g_.col_x(focus.first + focus.count) + 2;
    // Stubs at one edge and height share a label: each text once, different ones one above another.
    std::map<std::pair<bool, float>, std::vector<std::string>> edge_labels;
    constexpr size_t kEdgeLabels = 3;
    struct Deferred {
      std::string text;
      Point at;
      float room;
      Ink ink;
    };
    std::vector<Deferred> among_arrows;
    for (const FocusArrow& a : focus.arrows) {
      if (!shown(a.order)) continue;
      const Ink ink = a.racy || a.sees_write_of_this_step ? race_ink(a.race_within_warp) : a.read ? Ink::ArrowRead : Ink::ArrowWrite;
      const float cell_y = a.read ? g_.before_row_y(a.array_row) + g_.cell_h : g_.after_row_y(a.array_row);
      const float thread_y = a.read ? g_.marker_y : g_.marker_y + g_.marker;
      Point cell{centre_x(a.column), cell_y}, thread{centre_x(a.thread), thread_y};
      if (a.stub) {
        Point& outside = a.thread_outside ? thread : cell;
        const bool to_left = (a.thread_outside ? a.thread : a.column) < focus.first;
        outside.x = to_left ? left : right;
        outside.y = (cell.y + thread.y) / 2;
        const float room = (right - left) / 2 - 4;
        std::string text = fit_text(a.label, room, text_);
        const float w = text_.width(text);
        std::vector<std::string>& placed = edge_labels[{to_left, outside.y}];
        if (!text.empty() && std::find(placed.begin(), placed.end(), text) == placed.end() &&
            placed.size() < kEdgeLabels) {  // a few: more would run over the rows below (the hover lists all)
          // The first above the stubs' ends, the others below it (above would cover the cells).
          const float y = placed.empty() ? outside.y - fs_ - 2 : outside.y + 2 + (fs_ + 1) * static_cast<float>(placed.size() - 1);
          const Point at{to_left ? left + 2 : right - w - 2, y};
          if (placed.empty()) label(text, at, room, ink);
          else among_arrows.push_back({text, at, room, ink});  // laid over every arrow, on the panel's background
          placed.push_back(std::move(text));
        }
      }
      const float width = width_for(a.order, thickness());
      const RowKind kind = a.read ? RowKind::Before : RowKind::After;
      const int thread_id = a.stub && a.thread_outside ? -1 : a.thread;
      const int index = a.stub && !a.thread_outside ? -1 : a.column;
      if (a.read) straight(cell, thread, ink, width, thread_id, kind, a.array_row, index);
      else straight(thread, cell, ink, width, thread_id, kind, a.array_row, index);
    }
    for (Deferred& d : among_arrows) label(std::move(d.text), d.at, d.room, d.ink, {}, true);
  }

  // Reads (cell -> thread), writes (thread -> cell), labelled with the value when there is room. A
  // read that took a value written earlier in this step is drawn in the race colour and its label
  // says the value it really got. Below a few pixels per thread arrows would only hatch the band;
  // the ticks beside the rows say the same.
  void arrows() {
    const float cell_w = at_.cell_w, t = thickness();
    for (const auto& rd : m_.reads) {
      if (at_.focus || !shown(rd.order) || !in_view(rd.thread, rd.index)) continue;
      const Ink ink = rd.racy || rd.sees_write_of_this_step ? race_ink(rd.race_within_warp) : Ink::ArrowRead;
      const Point from{centre_x(rd.index), g_.before_row_y(rd.array_row) + g_.cell_h};
      const Point to{centre_x(rd.thread), g_.marker_y};
      straight(from, to, ink, width_for(rd.order, t), rd.thread, RowKind::Before, rd.array_row, rd.index);
      if (cell_w >= 22 && rd.index != rd.thread)  // a thread's own cell is right above it
        centred(to.x + (from.x - to.x) * 0.35f, to.y - fs_ * 1.15f, (cell_w - 2) * 1.6f, ink,
                rd.sees_write_of_this_step ? rd.value + "!" : rd.value);
    }
    for (const auto& rd : m_.global_read_arrows) {
      if (!shown(rd.order)) continue;
      const int column = rd.index - m_.global_reads[rd.array_row].first;
      if (!in_view(rd.thread, column)) continue;
      straight({centre_x(column), g_.global_in_row_y(rd.array_row) + g_.cell_h}, {centre_x(rd.thread), g_.marker_y},
               rd.racy ? Ink::Race : Ink::ArrowRead, width_for(rd.order, t * 0.7f), rd.thread, RowKind::GlobalRead,
               rd.array_row, column);
    }
    for (const auto& wr : m_.writes) {
      if (at_.focus || !shown(wr.order) || !in_view(wr.thread, wr.index)) continue;
      straight({centre_x(wr.thread), g_.marker_y + g_.marker}, {centre_x(wr.index), g_.after_row_y(wr.array_row)},
               wr.racy ? race_ink(wr.race_within_warp) : Ink::ArrowWrite, width_for(wr.order, t), wr.thread,
               RowKind::After, wr.array_row, wr.index);
    }
    for (const auto& wr : m_.global_write_arrows) {
      if (!shown(wr.order)) continue;
      const int column = wr.index - m_.global_writes[wr.array_row].first;
      if (!in_view(wr.thread, column)) continue;
      straight({centre_x(wr.thread), g_.marker_y + g_.marker}, {centre_x(column), g_.global_out_row_y(wr.array_row)},
               wr.racy ? Ink::Race : Ink::ArrowWrite, width_for(wr.order, t * 0.7f), wr.thread, RowKind::GlobalWritten,
               wr.array_row, column);
    }
  }

  // Warp operations, round by round: lane-to-lane arrows labelled with the value received; a lane
  // that kept its own value gets a ring. Every warp's round k is on row k.
  void lane_rounds() {
    const float cell_w = at_.cell_w;
    const FocusWindow* focus = at_.focus;
    const float lane_left = focus ? g_.col_x(out_.first) : g_.col_x(0);
    const float lane_right = focus ? g_.col_x(out_.last) : g_.col_x(m_.threads);
    for (const ShuffleRound& round : m_.shuffles) {
      const int r = round.rank;
      if (r >= g_.lane_rows || !shown(round.first_order)) continue;  // replaying: rounds not begun yet stay empty
      const float y = g_.lane_row_y(r) + g_.lane_row * 0.75f;
      const float warp_left = std::max(lane_left, g_.col_x(round.warp * kWarpSize));
      const float warp_right = std::min(lane_right, g_.col_x(std::min(m_.threads, (round.warp + 1) * kWarpSize)));
      if (warp_right <= warp_left) continue;  // this warp is outside the focus window
      LaidLaneRow row{{warp_left, y}, {warp_right, y}, std::nullopt, static_cast<int>(out_.arrows.size())};
      if (replaying_ && current_ >= round.first_order && current_ <= round.last_order)
        row.in_progress = Rect{warp_left, g_.lane_row_y(r), warp_right - warp_left, g_.lane_row};
      out_.lanes.push_back(row);
      for (const auto& a : round.arrows) {
        const int from_t = round.warp * kWarpSize + a.from_lane, to_t = round.warp * kWarpSize + a.to_lane;
        const bool stub = focus && focus->contains(to_t) && !focus->contains(from_t);
        if (!stub && !in_view(from_t, to_t)) continue;
        const float xt = centre_x(to_t);
        LaidArrow arrow;
        arrow.thread = to_t;
        arrow.to = {xt, y};
        if (a.own) {
          arrow.shape = ArrowShape::Ring;
          arrow.from = arrow.to;
          arrow.ink = Ink::Dim;
          arrow.radius = std::min(cell_w * 0.3f, fs_ * 0.35f);
          arrow.thickness = 2;
          out_.arrows.push_back(arrow);
          continue;
        }
        // A source outside the focus window: a short arrow from its side (the hover says which lane).
        const float xf = stub ? xt + (from_t < out_.first ? -0.45f : 0.45f) * cell_w : centre_x(from_t);
        arrow.shape = ArrowShape::LaneCurve;
        arrow.from = {xf, y};
        arrow.ink = Ink::ArrowRead;
        arrow.thickness = thickness();
        arrow.lift = std::min(g_.lane_row * 0.55f, 4 + std::abs(xt - xf) * 0.25f);
        arrow.segments = std::clamp(static_cast<int>(std::abs(xt - xf) / 12), 4, 12);
        out_.arrows.push_back(arrow);
        // The value received, where it fits its column (a 2-digit lane value at TPB 32 in presenter
        // mode); not on rows squeezed closer than a line of text and its arcs.
        if (g_.lane_row >= fs_ * 1.4f) centred(xt, y + 1, cell_w - 2, Ink::Label, a.value);
      }
    }
  }

  const BlockViewModel& m_;
  const TextMetrics& text_;
  const BlockPlacement& at_;
  const float fs_;
  const bool replaying_;
  const int current_;  // replaying: the operation that just ran
  const bool values_shown_;  // what threads read and wrote, under their nodes: the whole step, wide enough columns
  int columns_ = 0;
  bool cells_laid_ = false;  // later labels go over the cells, among the arrows
  BlockRows g_;
  BlockLayout out_;
};

}  // namespace

BlockLayout layout_block(const BlockViewModel& m, const TextMetrics& text, const BlockPlacement& at) {
  return BlockLayoutBuilder(m, text, at).build();
}

std::vector<Hit> hit_test(const BlockLayout& layout, Point p) {
  std::vector<Hit> hits;
  const BlockViewModel* m = layout.model;
  if (!m || !m->available) return hits;
  const BlockRows& g = layout.rows;
  const int column = static_cast<int>(std::floor((p.x - g.col_x(0)) / g.cell_w));
  if (column < 0 || column >= column_count(*m)) return hits;
  for (int r = 0; r < static_cast<int>(m->arrays.size()); ++r) {
    const bool in_before = p.y >= g.before_row_y(r) && p.y < g.before_row_y(r) + g.cell_h;
    const bool in_after = p.y >= g.after_row_y(r) && p.y < g.after_row_y(r) + g.cell_h;
    if ((in_before || in_after) && column < static_cast<int>(m->arrays[r].after.size()))
      hits.push_back({Hit::Kind::Cell, r, column, in_after});
  }
  if (column < m->threads && p.y >= g.thread_y && p.y < g.after_y - 2 &&
      !(p.y >= g.global_in_y && p.y < g.before_row_y(g.shared_rows)))
    hits.push_back({Hit::Kind::Thread, -1, -1, false, column});
  return hits;
}

// ---- sizing ----

float natural_cell_width(const std::vector<const BlockViewModel*>& models, const TextMetrics& text) {
  float widest = text.width("000");
  for (const auto* m : models)
    for (const auto& a : m->arrays)
      for (size_t i = 0; i < a.after.size(); ++i)
        widest = std::max({widest, text.width(a.after[i].text), text.width(a.before[i].text)});
  return widest + 10;
}

// Text never smaller than 11 px (a normal window's smallest readable), never larger than 4x.
constexpr float kSmallestTextPx = 11.0f, kLargestText = 4.0f;

namespace {

float smallest_text(const TextMetrics& text) { return std::min(1.0f, kSmallestTextPx / text.font_px); }

// Sizes are affine in the scale k, so two measurements give the k that fills a given width or height.
float scale_to_fit(float room, float at1, float at2) {
  const float per_k = at2 - at1, fixed = at1 - per_k;
  return per_k > 0 ? (room - fixed) / per_k : kLargestText;
}

}  // namespace

Size diagram_size(const std::vector<const BlockViewModel*>& models, float natural, const TextMetrics& text, float k,
                  float squeeze) {
  const TextMetrics at_k = text.scaled(k);
  Size size;
  for (size_t i = 0; i < models.size(); ++i) {
    size.w += block_width(*models[i], at_k, natural * k, i == 0);
    size.h = std::max(size.h, block_rows(*models[i], at_k, natural * k, {}, i == 0, models.size() == 1, 0, squeeze).bottom);
  }
  return size;
}

DiagramScale choose_scale(const std::vector<const BlockViewModel*>& models, float natural, Size room, bool fit,
                          float zoom, const TextMetrics& text) {
  const Size at1 = diagram_size(models, natural, text, 1), at2 = diagram_size(models, natural, text, 2);
  const float by_width = scale_to_fit(room.w, at1.w, at2.w), by_height = scale_to_fit(room.h, at1.h, at2.h);
  const float smallest = smallest_text(text);
  if (!fit) return {natural * zoom, std::clamp(std::min(zoom, by_height), smallest, kLargestText)};
  const float k = std::min(by_width, by_height);
  if (k >= smallest) {
    const float scale = std::min(k, kLargestText);
    return {natural * scale, scale};
  }
  const float scale = std::clamp(by_height, smallest, 1.0f);
  int columns = 0;
  for (const auto* m : models) columns += column_count(*m);
  const float label = row_label_width(text.scaled(scale));
  float squeeze = 1;  // too tall at the smallest text: rows closer together until it fits (or 0.4)
  if (by_height < smallest)
    while (squeeze > 0.4f && diagram_size(models, natural, text, scale, squeeze).h > room.h) squeeze -= 0.05f;
  return {std::max(0.01f, (room.w - label - 24.0f * static_cast<float>(models.size())) / static_cast<float>(std::max(1, columns))),
          scale, squeeze};
}

bool side_by_side_fits(const std::vector<const BlockViewModel*>& models, float natural, Size room, bool fit,
                       float zoom, const TextMetrics& text) {
  if (models.size() <= 1) return true;
  if (!fit) return diagram_size(models, natural, text, 1).w <= room.w;
  const DiagramScale scale = choose_scale(models, natural, room, fit, zoom, text);
  return scale.text * natural <= scale.cell_w + 0.5f;
}

StepLayout layout_side_by_side(const std::vector<const BlockViewModel*>& models, const TextMetrics& text,
                               float cell_w, Point origin, float visible_left, float visible_right, int replay,
                               int followed_block, float squeeze) {
  StepLayout step;
  step.cell_w = cell_w;
  float x = origin.x;
  for (size_t k = 0; k < models.size(); ++k) {
    const BlockViewModel& m = *models[k];
    BlockPlacement at;
    at.cell_w = cell_w;
    at.origin = {x, origin.y};
    at.visible_left = visible_left;
    at.visible_right = visible_right;
    at.with_labels = k == 0;
    at.single = models.size() == 1;
    at.replay = replay;
    at.followed = m.block == followed_block;
    at.squeeze = squeeze;
    step.blocks.push_back(layout_block(m, text, at));
    step.size.h = std::max(step.size.h, step.blocks.back().rows.bottom - origin.y);
    x += block_width(m, text, cell_w, at.with_labels);
  }
  step.size.w = x - origin.x;
  return step;
}

int focus_thread_count(float width, float natural, const TextMetrics& text) {
  return std::clamp(static_cast<int>((width - row_label_width(text) - 30) / natural), 4, 64);
}

FocusLayout layout_focus(const BlockViewModel& m, const FocusWindow& window, const TextMetrics& ui_text,
                         const TextMetrics& text, float natural, float text_scale, Point origin, float room_w, int replay,
                         float squeeze) {
  FocusLayout f;
  f.strip = {origin.x, origin.y, room_w, ui_text.font_px * 0.8f};
  f.per_thread = room_w / static_cast<float>(std::max(1, m.threads));
  f.window = {origin.x + static_cast<float>(window.first) * f.per_thread - 1, origin.y - 2,
              static_cast<float>(window.count) * f.per_thread + 2, f.strip.h + 4};
  const float top = f.strip.bottom() + 8;
  const float readable = std::max(natural * text_scale, (room_w - row_label_width(text) - 30) / static_cast<float>(window.count));
  BlockPlacement at;
  at.cell_w = readable;
  at.origin = {origin.x, top};
  at.replay = replay;
  at.focus = &window;
  at.squeeze = squeeze;
  f.step.cell_w = readable;
  f.step.blocks.push_back(layout_block(m, text, at));
  f.step.size = {room_w, f.step.blocks.back().rows.bottom - top};
  return f;
}

}  // namespace syncscope::app
