#include "app/view/block_view_model.h"

#include "sim/warp_instructions.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <regex>
#include <sstream>
#include <tuple>

#include "app/state/timeline.h"
#include "core/sources.h"
#include "sim/describe.h"

namespace syncscope::app {
namespace {

std::string event_text(const sim::Event& e, const sim::Trace& t, DType dtype, const sim::Event* high) {
  std::string s = sim::describe_event(e, t, dtype, high);
  if (e.kind == sim::EventKind::Barrier) s += " " + short_location(e.line);
  else if (e.line != sim::kNoLine) s += "  (" + short_location(e.line) + ")";
  return s;
}

void fill_cells(std::vector<CellView>& cells, const sim::ArrayInfo& info, const std::vector<uint32_t>& bits,
                const std::vector<uint8_t>& poison) {
  cells.resize(bits.size());
  for (size_t i = 0; i < bits.size(); ++i) {
    cells[i].poison = poison[i] != 0;
    cells[i].text = format_value(info.dtype, bits[i], cells[i].poison);
  }
  const sim::ElementLayout layout = sim::ElementLayout::of(info);
  if (layout.plain()) return;
  for (size_t i = 0; i < bits.size(); ++i) {  // each field as its kind; an 8-byte one: one box, its value
    const bool wide = layout.starts_wide(static_cast<int>(i)) && i + 1 < bits.size();
    if (wide) cells[i].poison = cells[i + 1].poison = cells[i].poison || cells[i + 1].poison;
    cells[i].text = sim::format_cell(layout, info.dtype, static_cast<int>(i), bits[i], wide ? bits[i + 1] : 0, cells[i].poison);
    if (wide) {
      cells[i].span = 2;
      cells[i + 1].span = 0;
      cells[i + 1].text.clear();
      ++i;
    }
  }
}

// A cell's number for the colour scale: an 8-byte field's value on both its cells.
double cell_number(const sim::ElementLayout& layout, DType dtype, const std::vector<uint32_t>& bits, size_t i) {
  const int cell = static_cast<int>(i);
  if (layout.place(cell).high && i > 0) return sim::cell_number(layout, dtype, cell - 1, bits[i - 1], bits[i]);
  return sim::cell_number(layout, dtype, cell, bits[i], i + 1 < bits.size() ? bits[i + 1] : 0);
}

// The colour scale's ends as the array's numbers are written (sim/element_layout.h).
std::string scale_end(const sim::ArrayInfo& info, double v) { return sim::ElementLayout::of(info).format_number(info.dtype, v); }

// A global row's cells on the colour scale of its own values (the cells drawn as colours when
// too narrow for numbers); `values` are the cells' numbers, NaN where none was read or written.
void shade(GlobalRowView& r, const sim::ArrayInfo& info, const std::vector<double>& values) {
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (size_t i = 0; i < values.size(); ++i)
    if (!r.cells[i].poison && std::isfinite(values[i])) lo = std::min(lo, values[i]), hi = std::max(hi, values[i]);
  if (lo > hi) return;
  r.lo = scale_end(info, lo);
  r.hi = scale_end(info, hi);
  for (size_t i = 0; i < values.size(); ++i)
    r.cells[i].shade = hi > lo && std::isfinite(values[i]) ? static_cast<float>((values[i] - lo) / (hi - lo)) : 0.5f;
}

void shade(SharedArrayView& a, const sim::ArrayInfo& info, const std::vector<uint32_t>& before,
           const std::vector<uint32_t>& after) {
  const DType dtype = info.dtype;
  const sim::ElementLayout layout = sim::ElementLayout::of(info);
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  auto scan = [&](const std::vector<CellView>& cells, const std::vector<uint32_t>& bits) {
    for (size_t i = 0; i < cells.size(); ++i)
      if (!cells[i].poison) {
        const double v = cell_number(layout, dtype, bits, i);
        if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
      }
  };
  scan(a.before, before);
  scan(a.after, after);
  if (lo <= hi) {
    a.lo = scale_end(info, lo);
    a.hi = scale_end(info, hi);
  }
  auto apply = [&](std::vector<CellView>& cells, const std::vector<uint32_t>& bits) {
    for (size_t i = 0; i < cells.size(); ++i) {
      const double v = cell_number(layout, dtype, bits, i);
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


// The variable a source line assigns ("partner" in `if (t >= offset) partner = s[t - offset];`),
// or "" (compound assignments, stores into arrays, lines outside the embedded kernels).
std::string assigned_name(sim::LineId id) {
  if (id == sim::kNoLine) return "";
  const sim::SourceLine& where = sim::LineTable::get(id);
  if (const auto f = find_source(where.file)) {
    std::istringstream in(f->text);
    std::string text;
    for (uint32_t n = 1; std::getline(in, text); ++n) {
      if (n != where.line) continue;
      text = text.substr(0, text.find("//"));
      static const std::regex assignment(R"(([A-Za-z_]\w*)\s*=[^=])");
      std::smatch m;
      if (std::regex_search(text, m, assignment)) return m[1].str();
      return "";
    }
  }
  return "";
}

// A value a thread read or received, as the step view names it.
struct HeldValue {
  double number = 0;
  std::string text;
  bool poison = false;
  sim::LineId line = sim::kNoLine;
  std::string source;  // "shared[5]", "lane 3": what it is when the line names no variable
};

// `kind`: the written field's (sim/element_layout.h), 0 for a cell of the array's dtype.
bool adds_up(DType dtype, char kind, const HeldValue& a, const HeldValue& b, double sum) {
  if (a.poison || b.poison) return false;
  if (kind == 'd') return a.number + b.number == sum;
  if (kind == 'l' || kind == 'q') {  // modulo 2^64, as the GPU adds; converted only inside 64 bits' range
    auto bits = [](double v) {
      return v >= 0x1p64 || v < -0x1p63 ? uint64_t{0} : v < 0 ? static_cast<uint64_t>(static_cast<int64_t>(v)) : static_cast<uint64_t>(v);
    };
    return bits(a.number) + bits(b.number) == bits(sum);
  }
  if (kind == 'f') dtype = DType::Float32;
  if (kind == 'i' || kind == 'u') dtype = DType::Int32;
  if (dtype == DType::Float32) return static_cast<float>(a.number) + static_cast<float>(b.number) == static_cast<float>(sum);
  return static_cast<int32_t>(static_cast<uint32_t>(static_cast<int64_t>(a.number) + static_cast<int64_t>(b.number))) ==
         static_cast<int32_t>(sum);
}

// "6 = 5 + 1" when the thread's last two values add up to what it writes (the cell's own old
// value first, as in s[t] += partner); "6 = 5" for a copy; else "writes 6".
std::string write_text(DType dtype, char kind, const std::vector<HeldValue>& history, double written,
                       const std::string& text, bool poison, const std::string& old_text) {
  if (!poison && history.size() >= 2) {
    const HeldValue& newer = history[history.size() - 1];
    const HeldValue& older = history[history.size() - 2];
    if (adds_up(dtype, kind, newer, older, written)) {
      const bool older_first = older.text == old_text && newer.text != old_text;
      return text + " = " + (older_first ? older.text + " + " + newer.text : newer.text + " + " + older.text);
    }
  }
  if (!poison && !history.empty() && !history.back().poison && history.back().text == text) return text + " = " + text;
  return "writes " + text;
}

// "shared[t-1]" when every access of the group is at the same distance from its thread, else
// "shared[...]".
std::string access_pattern(const std::string& name, const std::vector<std::pair<int, int>>& thread_index) {
  bool same = !thread_index.empty();
  const int d = same ? thread_index.front().second - thread_index.front().first : 0;
  for (const auto& [t, i] : thread_index) same &= i - t == d;
  if (!same) {
    bool one_cell = true;
    for (const auto& [t, i] : thread_index) one_cell &= i == thread_index.front().second;
    if (one_cell && !thread_index.empty()) return name + "[" + std::to_string(thread_index.front().second) + "]";
    return name + "[...]";
  }
  return name + (d == 0 ? "[t]" : d > 0 ? "[t+" + std::to_string(d) + "]" : "[t" + std::to_string(d) + "]");
}

std::string plural(size_t n, const char* one, const char* many) { return std::to_string(n) + " " + (n == 1 ? one : many); }

}  // namespace

// Lockstep only (other schedules do not group accesses into warp instructions): every shared cell
// touched by a warp instruction whose lanes met in a bank gets that instruction's n-way.
void mark_bank_conflicts(const sim::Trace& t, int launch, const sim::StepTrace& st, const std::map<int, int>& row_of,
                         BlockViewModel& m) {
  std::vector<bool> exited;  // divergence is not drawn here
  int conflicted = 0, worst = 0;
  for (const sim::WarpInstruction& w : sim::warp_instructions(st, t, launch, exited)) {
    if (!w.shared || w.conflict_degree < 2) continue;
    ++conflicted;
    worst = std::max(worst, w.conflict_degree);
    for (int k : w.events) {
      const sim::Event& e = st.events[k];
      auto row = row_of.find(e.array);
      if (row == row_of.end() || e.flags & sim::kOutOfBounds) continue;
      SharedArrayView& a = m.arrays[row->second];
      std::vector<CellView>& cells = e.is_read() ? a.before : a.after;
      if (e.index < static_cast<int>(cells.size()))
        cells[e.index].bank_conflict = std::max(cells[e.index].bank_conflict, w.conflict_degree);
    }
  }
  if (conflicted > 0)
    m.bank_conflicts = "bank conflicts: " + std::to_string(conflicted) + " warp instruction" +
                       (conflicted > 1 ? "s" : "") + ", worst " + std::to_string(worst) +
                       "-way";
}

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
            // The schedule on screen (the race lab's bars switch it): a run's outcome depends on it.
            "schedule " + run.config.schedule.name() + " · " +
            (st.barrier == sim::kNoLine ? std::string("ends when the threads exit")
                                        : "ends at barrier " + short_location(st.barrier));

  // Arrays as they were before the step and are after it.
  const std::vector<int> word_offsets = sim::shared_word_offsets(t, launch);  // banks of the shared arrays
  std::map<int, int> row_of;  // array id -> row
  for (const sim::ArraySnapshot& after : st.shared) {
    SharedArrayView a;
    a.array = after.array;
    const sim::ArrayInfo& info = t.arrays[after.array];
    a.name = info.name + sim::element_type_note(info);
    fill_cells(a.after, info, after.bits, after.poison);
    const sim::ArraySnapshot* before = nullptr;
    if (step > 0)
      for (const auto& s : b->steps[step - 1].shared)
        if (s.array == after.array) before = &s;
    std::vector<uint32_t> before_bits(after.bits.size(), 0);
    if (before) {
      fill_cells(a.before, info, before->bits, before->poison);
      before_bits = before->bits;
    } else {
      fill_cells(a.before, info, before_bits, std::vector<uint8_t>(after.bits.size(), 1));  // fresh: uninitialized
    }
    for (size_t i = 0; i < a.after.size(); ++i)
      a.after[i].changed = a.after[i].text != a.before[i].text || a.after[i].poison != a.before[i].poison;
    shade(a, info, before_bits, after.bits);
    row_of[after.array] = static_cast<int>(m.arrays.size());
    a.word_offset = std::max(0, word_offsets[after.array]);
    a.columns = t.arrays[after.array].columns;
    a.plane_rows = t.arrays[after.array].plane_rows;
    a.cells_per_element = sim::ElementLayout::of(info).cells;
    a.cell_bytes = sim::ElementLayout::of(info).cell_bytes;
    m.arrays.push_back(std::move(a));
  }

  // What each thread held when the step began: the last value it read or received before.
  const DType kernel_dtype = run.config.problem.dtype;
  std::vector<sim::ElementLayout> layouts;  // how each array's elements lie in its cells
  for (const sim::ArrayInfo& a : t.arrays) layouts.push_back(sim::ElementLayout::of(a));
  // `high`: an 8-byte access's second cell (element_halves), which makes the value one number.
  auto value_of = [&](const sim::Event& e, const sim::Event* high) {
    const bool poison = (e.flags & sim::kValuePoison) || (high && (high->flags & sim::kValuePoison));
    if (!e.is_memory())
      return HeldValue{sim::bits_to_double(kernel_dtype, e.value_bits), format_value(kernel_dtype, e.value_bits, poison), poison,
                       e.line, "from lane " + std::to_string(e.index)};
    const sim::ArrayInfo& info = t.arrays[e.array];
    const sim::ElementLayout& layout = layouts[e.array];
    const std::string source = layout.element_name(info.name, e.index);
    const sim::ElementLayout::Place at = layout.place(e.index);
    if (at.field && sim::is_wide_kind(at.field->kind) && !high)  // one word of a number, alone
      return HeldValue{static_cast<double>(e.value_bits), poison ? "?" : std::to_string(e.value_bits), poison, e.line, source};
    const uint32_t next = high ? high->value_bits : 0;
    return HeldValue{sim::cell_number(layout, info.dtype, e.index, e.value_bits, next),
                     sim::format_cell(layout, info.dtype, e.index, e.value_bits, next, poison), poison, e.line, source};
  };
  // The last two values each thread read or received (with their high halves); formatted only where they are shown.
  using Held = std::pair<const sim::Event*, const sim::Event*>;
  std::vector<std::array<Held, 2>> history(m.threads, {Held{}, Held{}});
  auto remember = [&](const std::vector<sim::Event>& events, const std::vector<int>& halves, size_t k) {
    const sim::Event& e = events[k];
    if (!(e.is_read() || e.kind == sim::EventKind::Shuffle) || (e.flags & sim::kOutOfBounds)) return;
    if (sim::is_paired_high_half(halves, k)) return;  // its low half holds the element
    auto& h = history[e.thread];
    h[0] = h[1];
    h[1] = {&e, halves[k] >= 0 ? &events[halves[k]] : nullptr};
  };
  auto recent = [&](int thread) {
    std::vector<HeldValue> out;
    for (const Held& e : history[thread])
      if (e.first) out.push_back(value_of(*e.first, e.second));
    return out;
  };
  std::vector<bool> exited_before(m.threads, false);
  for (int s = 0; s < step; ++s) {
    const std::vector<sim::Event>& events = b->steps[s].events;
    const std::vector<int> halves = sim::element_halves(events, t);
    for (size_t k = 0; k < events.size(); ++k) {
      if (events[k].kind == sim::EventKind::Exit) exited_before[events[k].thread] = true;
      remember(events, halves, k);
    }
  }
  const std::vector<int> halves = sim::element_halves(st.events, t);
  auto high_of = [&](size_t k) -> const sim::Event* {
    return halves[k] > static_cast<int>(k) ? &st.events[halves[k]] : nullptr;
  };

  // The touched sections of global arrays: reads above the picture, writes below.
  std::map<int, std::pair<int, int>> read_span, write_span;  // array -> [lo, hi]
  for (const sim::Event& e : st.events) {
    if (!e.is_memory() || (e.flags & sim::kOutOfBounds) || row_of.count(e.array)) continue;
    auto [it, fresh] = (e.is_read() ? read_span : write_span).try_emplace(e.array, e.index, e.index);
    it->second.first = std::min(it->second.first, e.index);
    it->second.second = std::max(it->second.second, e.index);
  }
  constexpr int kMaxGlobalCells = 1024;
  std::map<int, int> read_row_of, write_row_of;
  auto make_rows = [&](const std::map<int, std::pair<int, int>>& spans, std::vector<GlobalRowView>& rows,
                       std::map<int, int>& row_index) {
    for (const auto& [array, span] : spans) {
      GlobalRowView r;
      r.array = array;
      const sim::ArrayInfo& info = t.arrays[array];
      const sim::ElementLayout& layout = layouts[array];
      r.name = info.name + sim::element_type_note(info);
      r.first = span.first - span.first % layout.cells;  // whole elements
      const int last = std::min((span.second / layout.cells + 1) * layout.cells - 1, std::max(info.size - 1, span.second));
      r.cells.resize(std::min(last - r.first + 1, kMaxGlobalCells));
      for (size_t k = 0; k + 1 < r.cells.size(); ++k)
        if (layout.starts_wide(r.first + static_cast<int>(k))) r.cells[k].span = 2, r.cells[k + 1].span = 0;
      row_index[array] = static_cast<int>(rows.size());
      rows.push_back(std::move(r));
    }
  };
  make_rows(read_span, m.global_reads, read_row_of);
  make_rows(write_span, m.global_writes, write_row_of);
  auto no_values = [](const std::vector<GlobalRowView>& rows) {
    std::vector<std::vector<double>> values;
    for (const GlobalRowView& r : rows) values.emplace_back(r.cells.size(), std::numeric_limits<double>::quiet_NaN());
    return values;
  };
  std::vector<std::vector<double>> read_values = no_values(m.global_reads), write_values = no_values(m.global_writes);

  // Who did what, in the order the schedule ran it.
  std::map<std::pair<int, int>, int> written_this_step;  // (array, cell) -> the last thread that wrote it
  std::map<std::pair<int, int>, ShuffleRound> rounds;  // (warp, round)
  std::vector<int> rounds_done(m.threads, 0);
  std::vector<int> operation_of_event(st.events.size(), -1);
  for (size_t event_k = 0; event_k < st.events.size(); ++event_k) {
    const sim::Event& e = st.events[event_k];
    const bool high_half = sim::is_paired_high_half(halves, event_k);
    const int order = static_cast<int>(m.operations.size());
    ThreadView& tv = m.thread_views.at(e.thread);
    if (!high_half) tv.events.push_back(event_text(e, t, kernel_dtype, high_of(event_k)));
    if (e.kind != sim::EventKind::Barrier && e.kind != sim::EventKind::Exit) tv.active = true;
    OperationView op;
    op.thread = e.thread;
    op.kind = e.kind;
    op.line = e.line;
    op.racy = e.flags & sim::kRacy;
    op.race_within_warp = (e.flags & sim::kRaceInOneWarp) != 0;
    op.event = static_cast<int>(event_k);
    if (e.flags & sim::kAtomic) op.atomic = e.atomic;
    if (e.is_memory() || e.kind == sim::EventKind::Shuffle) {
      const HeldValue v = value_of(e, high_of(event_k));
      op.value = v.text;
      op.poison = v.poison;
      op.index = e.index;
    }
    const bool active_mask = e.kind == sim::EventKind::WarpVote && e.array == static_cast<uint16_t>(sim::WarpOp::ActiveMask);
    if ((e.kind == sim::EventKind::Shuffle || e.kind == sim::EventKind::WarpSync || e.kind == sim::EventKind::WarpVote) &&
        !active_mask) {  // active_mask is no rendezvous: each lane reads it alone
      const int warp = e.thread / kWarpSize;
      const int round = rounds_done[e.thread]++;
      ShuffleRound& r = rounds[{warp, round}];
      if (r.first_order < 0) {
        r.warp = warp;
        const sim::WarpOp warp_op = static_cast<sim::WarpOp>(e.array);
        r.op = sim::warp_op_name(warp_op);
        // One answer for the round (a vote, a sum); a match answers each lane differently.
        if (e.kind == sim::EventKind::WarpVote && warp_op_info(warp_op).kind != WarpKind::Match)
          r.op += " = " + sim::vote_text(warp_op, e.value_bits, kernel_dtype, e.flags & sim::kValuePoison);
        r.line = e.line;
        r.first_order = order;
      }
      r.last_order = order;
      if (e.kind == sim::EventKind::Shuffle)
        r.arrows.push_back({e.index, e.thread % kWarpSize, op.value, (e.flags & sim::kOwnValue) != 0});
    }
    remember(st.events, halves, event_k);
    if (e.is_memory() && !(e.flags & sim::kOutOfBounds)) {
      const bool racy = op.racy;
      const auto cell = std::make_pair(static_cast<int>(e.array), e.index);
      auto shared_row = row_of.find(e.array);
      if (shared_row != row_of.end()) {
        op.array_row = shared_row->second;
        SharedArrayView& a = m.arrays[shared_row->second];
        if (e.is_read()) {
          ArrowView arrow{e.thread, shared_row->second, e.index, racy, order, op.value};
          if (auto w = written_this_step.find(cell); w != written_this_step.end() && w->second != e.thread) {
            arrow.sees_write_of_this_step = true;
            arrow.writer = w->second;
            op.writer = w->second;
          }
          if (!high_half) m.reads.push_back(arrow);  // an 8-byte element's access: one arrow, to its box
          a.before.at(e.index).read = true;
          a.before[e.index].racy |= racy;
        } else {
          if (!high_half) m.writes.push_back({e.thread, shared_row->second, e.index, racy, order, op.value});
          a.after.at(e.index).written = true;
          a.after[e.index].racy |= racy;
        }
      } else {
        op.global = true;
        const bool read = e.is_read();
        const int row = read ? read_row_of.at(e.array) : write_row_of.at(e.array);
        op.array_row = row;
        GlobalRowView& g = read ? m.global_reads[row] : m.global_writes[row];
        const int k = e.index - g.first;
        if (k < static_cast<int>(g.cells.size())) {
          CellView& c = g.cells[k];
          if (!high_half) {  // an 8-byte number's value is on both its cells' colour
            const sim::Event* high = high_of(event_k);
            std::vector<double>& values = (read ? read_values : write_values)[row];
            values[k] = value_of(e, high).number;
            if (high && k + 1 < static_cast<int>(g.cells.size())) values[k + 1] = values[k];
          }
          if (!high_half) {  // the box over both cells shows the low one's
            c.text = op.value;
            c.poison = op.poison;
          }
          c.read |= read;
          c.written |= !read;
          c.racy |= racy;
          if (!high_half)
            (read ? m.global_read_arrows : m.global_write_arrows).push_back({e.thread, row, e.index, racy, order, op.value});
        }
      }
      if (e.is_write()) {
        if (!high_half) {
          const sim::ArrayInfo& info = t.arrays[e.array];
          const sim::ElementLayout& layout = layouts[e.array];
          const sim::Event* high = high_of(event_k);
          const sim::ElementLayout::Place at = layout.place(e.index);
          const bool one_word = at.field && sim::is_wide_kind(at.field->kind) && !high;  // of a number, alone
          const bool old_poison = (e.flags | (high ? high->flags : 0)) & sim::kOldPoison;
          op.old = one_word ? (old_poison ? "?" : std::to_string(e.old_bits))
                            : sim::format_cell(layout, info.dtype, e.index, e.old_bits, high ? high->old_bits : 0, old_poison);
          const char kind = one_word ? 'u' : at.field ? at.field->kind : 0;
          tv.writes = write_text(info.dtype, kind, recent(e.thread), value_of(e, high).number, op.value, op.poison, op.old);
        }
        written_this_step[cell] = e.thread;
      }
    }
    if (high_half) {  // one operation with its low half, which shows the number: its race is that one's
      OperationView& low = m.operations.at(operation_of_event.at(halves[event_k]));
      if (op.racy) low.race_within_warp = low.racy ? low.race_within_warp && op.race_within_warp : op.race_within_warp;
      low.racy |= op.racy;
      continue;
    }
    operation_of_event[event_k] = static_cast<int>(m.operations.size());
    m.operations.push_back(std::move(op));
  }
  for (size_t r = 0; r < m.global_reads.size(); ++r)
    shade(m.global_reads[r], t.arrays[m.global_reads[r].array], read_values[r]);
  for (size_t r = 0; r < m.global_writes.size(); ++r)
    shade(m.global_writes[r], t.arrays[m.global_writes[r].array], write_values[r]);
  for (auto& [key, r] : rounds) m.shuffles.push_back(std::move(r));
  std::stable_sort(m.shuffles.begin(), m.shuffles.end(),
                   [](const ShuffleRound& a, const ShuffleRound& b) { return a.first_order < b.first_order; });
  std::map<int, int> rounds_of_warp;
  for (ShuffleRound& r : m.shuffles) r.rank = rounds_of_warp[r.warp]++;
  std::map<sim::LineId, std::string> names;  // a few lines, many threads
  for (int th = 0; th < m.threads; ++th) {
    if (!history[th][1].first) continue;
    const HeldValue v = value_of(*history[th][1].first, history[th][1].second);
    auto [it, fresh] = names.try_emplace(v.line);
    if (fresh) it->second = assigned_name(v.line);
    const std::string& name = it->second;
    m.thread_views[th].holds = (name.empty() ? v.source : name) + " = " + v.text;
  }

  // The caption: what the step did, in one sentence.
  {
    // (write, array, line) -> (thread, cell): one part per statement that touched memory
    std::map<std::tuple<bool, int, sim::LineId>, std::vector<std::pair<int, int>>> accesses;
    std::map<sim::LineId, sim::AtomicOp> atomic_at;  // lines whose writes are atomics
    for (const OperationView& op : m.operations)
      if ((op.kind == sim::EventKind::SharedRead || op.kind == sim::EventKind::SharedWrite ||
           op.kind == sim::EventKind::GlobalRead || op.kind == sim::EventKind::GlobalWrite) && op.array_row >= 0) {
        const bool write = op.kind == sim::EventKind::SharedWrite || op.kind == sim::EventKind::GlobalWrite;
        const int array = op.global ? (write ? m.global_writes : m.global_reads)[op.array_row].array
                                    : m.arrays[op.array_row].array;
        accesses[{write, array, op.line}].push_back({op.thread, layouts[array].place(op.index).element});
        if (op.atomic != sim::AtomicOp::None) atomic_at[op.line] = op.atomic;
      }
    std::vector<std::string> parts;
    for (bool write : {false, true})
      for (const auto& [key, list] : accesses) {
        if (std::get<0>(key) != write) continue;
        std::vector<int> threads;
        for (const auto& [th, i] : list) threads.push_back(th);
        std::sort(threads.begin(), threads.end());
        threads.erase(std::unique(threads.begin(), threads.end()), threads.end());
        const std::string& name = t.arrays[std::get<1>(key)].name;
        const auto atomic = atomic_at.find(std::get<2>(key));
        // "1 thread reads", "7 threads read"; an atomic's name as it is ("1 thread atomic_add").
        const bool one = threads.size() == 1;
        const std::string verb = !write ? (one ? "reads " : "read ")
                                 : atomic != atomic_at.end() ? sim::atomic_op_name(atomic->second) + " "
                                                             : (one ? "writes " : "write ");
        const std::string part = plural(threads.size(), "thread ", "threads ") + verb +
                                 (threads.size() == 1 && list.size() == 1 ? name + "[" + std::to_string(list.front().second) + "]"
                                                                          : access_pattern(name, list));
        if (std::find(parts.begin(), parts.end(), part) == parts.end()) parts.push_back(part);
      }
    // Warp operations: how many rounds of each, and in how many warps ("every warp: 6 shfl_up, 2 shfl_idx").
    std::map<int, std::vector<std::pair<std::string, int>>> per_warp;  // warp -> (op, rounds) in order
    for (const ShuffleRound& r : m.shuffles) {
      auto& ops = per_warp[r.warp];
      if (ops.empty() || ops.back().first != r.op) ops.push_back({r.op, 0});
      ++ops.back().second;
    }
    std::map<std::vector<std::pair<std::string, int>>, std::vector<int>> warps_doing;
    for (const auto& [w, ops] : per_warp) warps_doing[ops].push_back(w);
    for (const auto& [ops, warps] : warps_doing) {
      std::string part = warps.size() == static_cast<size_t>(m.warps) && m.warps > 1 ? "every warp:"
                         : warps.size() == 1 ? "warp " + std::to_string(warps.front()) + ":"
                                             : plural(warps.size(), "warp:", "warps:");
      for (size_t k = 0; k < ops.size(); ++k)
        part += (k ? ", " : " ") + (ops[k].second > 1 ? std::to_string(ops[k].second) + " " : "") + ops[k].first;
      parts.push_back(part);
    }
    if (!st.printed.empty()) {
      std::vector<int> printers;
      for (const sim::PrintedLine& p : st.printed) printers.push_back(p.thread);
      std::sort(printers.begin(), printers.end());
      printers.erase(std::unique(printers.begin(), printers.end()), printers.end());
      parts.push_back(plural(printers.size(), "thread printed", "threads printed"));
    }
    for (size_t k = 0; k < parts.size(); ++k) m.activity += (k ? "; " : "") + parts[k];
    if (m.activity.empty()) {
      m.activity = "block " + std::to_string(block) + " touched no memory in this step";
      for (const sim::BlockTrace& other : lt.blocks) {
        if (other.block == block || step >= static_cast<int>(other.steps.size())) continue;
        for (const sim::Event& e : other.steps[step].events)
          if (e.is_memory() || e.kind == sim::EventKind::Shuffle) {
            m.busy_blocks.push_back(other.block);
            break;
          }
      }
      if (!m.busy_blocks.empty()) {
        m.activity += "; blocks that did:";
        for (size_t k = 0; k < m.busy_blocks.size() && k < 8; ++k) m.activity += " " + std::to_string(m.busy_blocks[k]);
        if (m.busy_blocks.size() > 8) m.activity += " ...";
      }
    }
    m.caption = st.caption.empty() ? m.activity : st.caption;
  }
  // The detector flags the access that completes a hazard; the accesses it raced with touched the
  // same cell in the same step, so every access to a racy cell is drawn as part of the race.
  // A race the detector found between lanes of one warp is a warning, as the Hazards panel says
  // (it depends on independent thread scheduling); across warps it is an error. A cell is drawn as
  // a warning when every race completed on it in this step was inside one warp.
  std::map<std::pair<int, int>, bool> racy_cells;  // (row, cell) -> all its races inside one warp
  for (const OperationView& op : m.operations)
    if (op.racy && !op.global && op.array_row >= 0) {
      auto [it, fresh] = racy_cells.try_emplace({op.array_row, op.index}, true);
      it->second = it->second && op.race_within_warp;
    }
  for (auto* list : {&m.reads, &m.writes})
    for (ArrowView& a : *list)
      if (auto c = racy_cells.find({a.array_row, a.index}); c != racy_cells.end()) {
        a.racy = true;
        a.race_within_warp = c->second;
        for (CellView* cell : {&m.arrays[a.array_row].before[a.index], &m.arrays[a.array_row].after[a.index]}) {
          cell->racy = true;
          cell->race_within_warp = c->second;
        }
      }
  mark_bank_conflicts(t, launch, st, row_of, m);
  for (int th = 0; th < m.threads; ++th) m.thread_views[th].exited = exited_before[th];
  for (const sim::PrintedLine& p : st.printed) {
    m.printed.push_back({block, p.thread, sim::thread_name(lt.block, p.thread), "line " + std::to_string(sim::LineTable::get(p.line).line), p.text});
    if (p.thread < m.threads) {
      m.thread_views[p.thread].printed.push_back(p.text);
      m.thread_views[p.thread].active = true;
    }
  }
  m.printed_dropped = st.printed_dropped;
  return m;
}

}  // namespace syncscope::app
