// The step view's questions about a step already built (app/view/block_view_model.h): memory part
// way through a replay, a cell as drawn, the focus window's arrows, one operation in words, who
// last wrote a cell, and the frame a launch's steps share. A file of its own to keep
// block_view_model.cpp, which builds the step, within bounds.
#include <algorithm>
#include <string>
#include <vector>

#include "app/state/timeline.h"
#include "app/view/block_view_model.h"
#include "sim/describe.h"

namespace syncscope::app {

CellView drawn_cell(const std::vector<CellView>& row, size_t i) {
  CellView c = row[i];
  if (c.span == 2 && i + 1 < row.size()) {
    const CellView& high = row[i + 1];
    c.read |= high.read;
    c.written |= high.written;
    c.changed |= high.changed;
    c.race_within_warp = c.racy ? (c.race_within_warp && (!high.racy || high.race_within_warp)) : high.race_within_warp;
    c.racy |= high.racy;
    c.bank_conflict = std::max(c.bank_conflict, high.bank_conflict);
  }
  return c;
}

std::vector<std::vector<CellView>> cells_after(const BlockViewModel& m, int done) {
  std::vector<std::vector<CellView>> rows;
  for (const SharedArrayView& a : m.arrays) {
    rows.push_back(a.before);
    for (CellView& c : rows.back()) c.read = c.written = c.changed = c.racy = false;
  }
  done = std::clamp(done, 0, static_cast<int>(m.operations.size()));
  for (int k = 0; k < done; ++k) {
    const OperationView& op = m.operations[k];
    if (op.global || op.array_row < 0) continue;
    CellView& c = rows[op.array_row].at(op.index);
    const bool last = k == done - 1;
    if (op.kind == sim::EventKind::SharedWrite) {
      c.changed = c.changed || c.text != op.value || c.poison != op.poison;
      c.text = op.value;
      c.poison = op.poison;
      c.shade = m.arrays[op.array_row].after[op.index].shade;
      if (last) c.written = true;
    } else if (op.kind == sim::EventKind::SharedRead && last) {
      c.read = true;
    }
    if (last) c.racy = op.racy;
  }
  return rows;
}

LaunchFrame launch_frame(const RunResult& run, int launch, int block) {
  LaunchFrame f;
  const sim::LaunchTrace& lt = run.sim.trace.launches.at(launch);
  for (int step = 0; step < lt.steps; ++step) {
    const BlockViewModel m = build_block_view(run, launch, step, block);
    f.shared_rows = std::max(f.shared_rows, static_cast<int>(m.arrays.size()));
    for (const ShuffleRound& r : m.shuffles) f.warp_rounds = std::max(f.warp_rounds, r.rank + 1);
    f.columns = std::max(f.columns, m.threads);
    for (const auto& a : m.arrays) f.columns = std::max(f.columns, static_cast<int>(a.after.size()));
    for (const auto* rows : {&m.global_reads, &m.global_writes})
      for (const auto& r : *rows) f.columns = std::max(f.columns, static_cast<int>(r.cells.size()));
    f.captions.push_back(m.caption);
    f.printed_lines = std::max(f.printed_lines, static_cast<int>(m.printed.size()) + (m.printed_dropped ? 1 : 0));
  }
  return f;
}

FocusWindow focus_window(const BlockViewModel& m, int first, int count) {
  FocusWindow w;
  w.first = std::clamp(first, 0, std::max(0, m.threads - 1));
  w.count = std::max(1, count);
  auto offset_text = [](int d) { return d == 0 ? std::string("t") : d > 0 ? "t+" + std::to_string(d) : "t" + std::to_string(d); };
  for (const auto* list : {&m.reads, &m.writes}) {
    const bool read = list == &m.reads;
    for (const ArrowView& a : *list) {
      const bool thread_in = w.contains(a.thread), cell_in = w.contains(a.index);
      if (!thread_in && !cell_in) continue;
      FocusArrow f;
      f.thread = a.thread;
      f.column = a.index;
      f.array_row = a.array_row;
      f.read = read;
      f.racy = a.racy;
      f.race_within_warp = a.race_within_warp;
      f.sees_write_of_this_step = a.sees_write_of_this_step;
      f.order = a.order;
      f.value = a.value;
      if (!(thread_in && cell_in)) {
        f.stub = true;
        f.thread_outside = !thread_in;
        const int per = m.arrays.at(a.array_row).cells_per_element;  // the offset in the program's indices
        if (thread_in) f.label = (read ? "from " : "to ") + offset_text(a.index / per - a.thread);
        else f.label = (read ? "read by T" : "written by T") + std::to_string(a.thread);
      }
      w.arrows.push_back(std::move(f));
    }
  }
  return w;
}

std::string operation_text(const RunResult& run, int launch, int step, const BlockViewModel& m, int k) {
  const OperationView& op = m.operations.at(k);
  const sim::BlockTrace* b = run.sim.trace.launches.at(launch).find_block(m.block);
  const std::vector<sim::Event>& events = b->steps.at(step).events;
  const std::vector<int> halves = sim::element_halves(events, run.sim.trace);  // an 8-byte access: the element
  const sim::Event* other = halves.at(op.event) >= 0 ? &events[halves[op.event]] : nullptr;
  std::string text = "T" + std::to_string(op.thread) + " " +
                     sim::describe_event(events.at(op.event), run.sim.trace, run.config.problem.dtype, other);
  if (op.writer >= 0) text += " (written this step by T" + std::to_string(op.writer) + ")";
  return text;
}

std::string CellOrigin::text() const {
  if (!written) return "never written: uninitialized (?)";
  return "written by T" + std::to_string(thread) + " in step " + std::to_string(this->step) + " at " + short_location(line);
}

CellOrigin cell_origin(const RunResult& run, int launch, int block, int array, int index, int step) {
  CellOrigin o;
  const sim::BlockTrace* b = run.sim.trace.launches.at(launch).find_block(block);
  if (!b) return o;
  for (int s = std::min(step, static_cast<int>(b->steps.size()) - 1); s >= 0; --s) {
    const auto& events = b->steps[s].events;
    for (auto it = events.rbegin(); it != events.rend(); ++it)
      if (it->is_write() && it->array == array && it->index == index && !(it->flags & sim::kOutOfBounds)) {
        o = {true, it->thread, s, it->line};
        return o;
      }
  }
  return o;
}

}  // namespace syncscope::app
