#include "app/view/block_view_model.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include "app/state/timeline.h"
#include "sim/describe.h"

namespace syncscope::app {
namespace {

std::string event_text(const sim::Event& e, const sim::Trace& t, DType dtype) {
  std::string s = sim::describe_event(e, t, dtype);
  if (e.kind == sim::EventKind::Barrier) s += " " + short_location(e.line);
  else if (e.line != sim::kNoLine) s += "  (" + short_location(e.line) + ")";
  return s;
}

void fill_cells(std::vector<CellView>& cells, DType dtype, const std::vector<uint32_t>& bits,
                const std::vector<uint8_t>& poison) {
  cells.resize(bits.size());
  for (size_t i = 0; i < bits.size(); ++i) {
    cells[i].poison = poison[i] != 0;
    cells[i].text = format_value(dtype, bits[i], cells[i].poison);
  }
}

void shade(SharedArrayView& a, DType dtype, const std::vector<uint32_t>& before, const std::vector<uint32_t>& after) {
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  auto scan = [&](const std::vector<CellView>& cells, const std::vector<uint32_t>& bits) {
    for (size_t i = 0; i < cells.size(); ++i)
      if (!cells[i].poison) {
        const double v = sim::bits_to_double(dtype, bits[i]);
        if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
      }
  };
  scan(a.before, before);
  scan(a.after, after);
  auto apply = [&](std::vector<CellView>& cells, const std::vector<uint32_t>& bits) {
    for (size_t i = 0; i < cells.size(); ++i) {
      const double v = sim::bits_to_double(dtype, bits[i]);
      cells[i].shade = hi > lo && std::isfinite(v) ? static_cast<float>((v - lo) / (hi - lo)) : 0.5f;
    }
  };
  apply(a.before, before);
  apply(a.after, after);
}

std::string phase_of(const sim::StepTrace& s) {
  bool shared_reads = false, shared_writes = false, global_reads = false, global_writes = false, shuffles = false;
  for (const sim::Event& e : s.events) {
    shared_reads |= e.kind == sim::EventKind::SharedRead;
    shared_writes |= e.kind == sim::EventKind::SharedWrite;
    global_reads |= e.kind == sim::EventKind::GlobalRead;
    global_writes |= e.kind == sim::EventKind::GlobalWrite;
    shuffles |= e.kind == sim::EventKind::Shuffle;
  }
  std::vector<std::string> parts;
  if (global_reads && shared_writes && !shared_reads) parts.push_back("load");
  else if (shared_reads && !shared_writes) parts.push_back("read phase");
  else if (shared_writes) parts.push_back("write phase");
  else if (global_reads) parts.push_back("load");
  if (shuffles) parts.push_back("warp shuffles");
  if (global_writes) parts.push_back("store");
  if (parts.empty()) return "no memory accesses";
  std::string out = parts[0];
  for (size_t i = 1; i < parts.size(); ++i) out += " + " + parts[i];
  return out;
}

}  // namespace

BlockViewModel build_block_view(const RunResult& run, int launch, int step, int block) {
  BlockViewModel m;
  const sim::Trace& t = run.sim.trace;
  if (launch < 0 || launch >= static_cast<int>(t.launches.size())) {
    m.why_not = "no launch";
    return m;
  }
  const sim::LaunchTrace& lt = t.launches[launch];
  const sim::BlockTrace* b = lt.find_block(block);
  if (!b || b->steps.empty()) {
    m.why_not = "block " + std::to_string(block) + " is not recorded in this run";
    return m;
  }
  m.available = true;
  m.block = block;
  m.block_idx = b->block_idx;
  m.threads = lt.block.count();
  m.warps = (m.threads + kWarpSize - 1) / kWarpSize;
  m.thread_views.resize(m.threads);
  for (int th = 0; th < m.threads; ++th) m.thread_views[th].thread = th;
  if (step >= static_cast<int>(b->steps.size())) {
    m.title = "block " + std::to_string(block) + " finished at step " + std::to_string(b->steps.size() - 1);
    for (auto& tv : m.thread_views) tv.exited = true;
    return m;
  }
  const sim::StepTrace& st = b->steps[step];
  m.phase = phase_of(st);
  m.title = "block " + std::to_string(block) + (lt.grid.y > 1 ? " (" + std::to_string(b->block_idx.x) + "," +
                                                                    std::to_string(b->block_idx.y) + ")" : "") +
            " · step " + std::to_string(step) + "/" + std::to_string(lt.steps - 1) + " (" + m.phase + ") · " +
            (st.barrier == sim::kNoLine ? std::string("ends when the threads exit")
                                        : "ends at barrier " + short_location(st.barrier));

  // Arrays as they were before the step and are after it.
  std::map<int, int> row_of;  // array id -> row
  for (const sim::ArraySnapshot& after : st.shared) {
    SharedArrayView a;
    a.array = after.array;
    a.name = t.arrays[after.array].name;
    const DType dtype = t.arrays[after.array].dtype;
    fill_cells(a.after, dtype, after.bits, after.poison);
    const sim::ArraySnapshot* before = nullptr;
    if (step > 0)
      for (const auto& s : b->steps[step - 1].shared)
        if (s.array == after.array) before = &s;
    std::vector<uint32_t> before_bits(after.bits.size(), 0);
    if (before) {
      fill_cells(a.before, dtype, before->bits, before->poison);
      before_bits = before->bits;
    } else {
      fill_cells(a.before, dtype, before_bits, std::vector<uint8_t>(after.bits.size(), 1));  // fresh: uninitialized
    }
    for (size_t i = 0; i < a.after.size(); ++i)
      a.after[i].changed = a.after[i].text != a.before[i].text || a.after[i].poison != a.before[i].poison;
    shade(a, dtype, before_bits, after.bits);
    row_of[after.array] = static_cast<int>(m.arrays.size());
    m.arrays.push_back(std::move(a));
  }

  // Who did what.
  std::vector<bool> exited_before(m.threads, false);
  for (int s = 0; s < step; ++s)
    for (const sim::Event& e : b->steps[s].events)
      if (e.kind == sim::EventKind::Exit) exited_before[e.thread] = true;
  for (const sim::Event& e : st.events) {
    ThreadView& tv = m.thread_views.at(e.thread);
    tv.events.push_back(event_text(e, t, run.config.problem.dtype));
    if (e.kind != sim::EventKind::Barrier && e.kind != sim::EventKind::Exit) tv.active = true;
    if (!e.is_memory() || (e.flags & sim::kOutOfBounds)) continue;
    auto row = row_of.find(e.array);
    if (row == row_of.end()) continue;  // global memory: listed in the thread's events
    const bool racy = e.flags & sim::kRacy;
    SharedArrayView& a = m.arrays[row->second];
    if (e.is_read()) {
      m.reads.push_back({e.thread, row->second, e.index, racy});
      a.before.at(e.index).read = true;
      a.before[e.index].racy |= racy;
    } else {
      m.writes.push_back({e.thread, row->second, e.index, racy});
      a.after.at(e.index).written = true;
      a.after[e.index].racy |= racy;
    }
  }
  // The detector flags the access that completes a hazard; the accesses it raced with touched the
  // same cell in the same step, so every access to a racy cell is drawn as part of the race.
  std::set<std::pair<int, int>> racy_cells;
  for (const auto* list : {&m.reads, &m.writes})
    for (const ArrowView& a : *list)
      if (a.racy) racy_cells.insert({a.array_row, a.index});
  for (auto* list : {&m.reads, &m.writes})
    for (ArrowView& a : *list)
      if (racy_cells.count({a.array_row, a.index})) {
        a.racy = true;
        m.arrays[a.array_row].before[a.index].racy = true;
        m.arrays[a.array_row].after[a.index].racy = true;
      }
  for (int th = 0; th < m.threads; ++th) m.thread_views[th].exited = exited_before[th];
  return m;
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
