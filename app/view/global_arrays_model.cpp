#include "app/view/global_arrays_model.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "sim/describe.h"

namespace syncscope::app {

namespace {

float shade_of(DType dtype, uint32_t bits, bool poison) {
  return poison ? std::numeric_limits<float>::quiet_NaN() : static_cast<float>(sim::bits_to_double(dtype, bits));
}

void widen(double& lo, double& hi, float v) {
  if (std::isfinite(v)) lo = std::min(lo, static_cast<double>(v)), hi = std::max(hi, static_cast<double>(v));
}

bool contains(const std::vector<int>& sorted, int i) { return std::binary_search(sorted.begin(), sorted.end(), i); }

void sort_unique(std::vector<int>& v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

}  // namespace

std::vector<std::shared_ptr<const ArrayMemory>> memory_before_launch(const RunResult& run, int launch, bool* at_end) {
  const sim::Trace& t = run.sim.trace;
  // Memory before this launch: the previous launch's snapshot, or the initial one.
  const std::vector<sim::ArraySnapshot>* base = nullptr;
  if (launch > 0 && launch <= static_cast<int>(t.launches.size()) && !t.launches[launch - 1].globals_after.empty())
    base = &t.launches[launch - 1].globals_after;
  else if (launch == 0 && !t.globals_before.empty())
    base = &t.globals_before;
  *at_end = base == nullptr;
  if (*at_end) base = &run.sim.globals_final;
  std::vector<std::shared_ptr<const ArrayMemory>> memory;
  // A CUDA program's result is what its main() returned (the Results panel's verdict), kept in a
  // cell of syncscope's own: no device memory of the program's, so no row here.
  const bool program = run.config.algorithm && run.config.algorithm->info.program;
  for (int id = 0; id < static_cast<int>(t.arrays.size()); ++id) {
    const sim::ArrayInfo& info = t.arrays[id];
    if (info.space != sim::MemSpace::Global || (program && id == run.sim.output_array)) continue;
    auto m = std::make_shared<ArrayMemory>();
    m->array = id;
    const sim::ArraySnapshot* snap = nullptr;
    for (const auto& s : *base)
      if (s.array == id) snap = &s;
    if (snap) {
      m->bits = snap->bits;
      m->poison = snap->poison;
    } else {  // allocated after the snapshot: uninitialized before this launch
      m->bits.assign(info.size, 0);
      m->poison.assign(info.size, 1);
    }
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    m->shades.resize(m->bits.size());
    for (size_t i = 0; i < m->bits.size(); ++i) {
      m->shades[i] = shade_of(info.dtype, m->bits[i], m->poison[i]);
      widen(lo, hi, m->shades[i]);
    }
    const sim::ElementLayout layout = sim::ElementLayout::of(info);
    if (!layout.plain()) {  // each field's cells take its value's shade (both of an 8-byte one)
      lo = std::numeric_limits<double>::infinity(), hi = -lo;
      for (size_t i = 0; i < m->bits.size(); ++i) {
        const bool wide = layout.starts_wide(static_cast<int>(i)) && i + 1 < m->bits.size();
        const bool poison = m->poison[i] || (wide && m->poison[i + 1]);
        m->shades[i] = poison ? std::numeric_limits<float>::quiet_NaN()
                              : static_cast<float>(sim::cell_number(layout, info.dtype, static_cast<int>(i), m->bits[i],
                                                                    wide ? m->bits[i + 1] : 0));
        widen(lo, hi, m->shades[i]);
        if (wide) m->shades[i + 1] = m->shades[i], ++i;
      }
    }
    m->min = std::isfinite(lo) ? lo : 0;
    m->max = std::isfinite(hi) ? hi : 0;
    memory.push_back(std::move(m));
  }
  return memory;
}

uint32_t GlobalArrayView::bits(int i) const {
  auto w = std::lower_bound(written.begin(), written.end(), i, [](const Written& a, int k) { return a.index < k; });
  return w != written.end() && w->index == i ? w->bits : before->bits[i];
}

bool GlobalArrayView::poisoned(int i) const {
  auto w = std::lower_bound(written.begin(), written.end(), i, [](const Written& a, int k) { return a.index < k; });
  return w != written.end() && w->index == i ? w->poison : before->poison[i] != 0;
}

bool GlobalArrayView::written_now(int i) const { return contains(written_in_step, i); }
bool GlobalArrayView::read_now(int i) const { return contains(read_in_step, i); }

std::string GlobalArrayView::element_text(int e) const {
  if (layout.plain()) return format_value(dtype, bits(e), poisoned(e));
  return sim::format_element(layout, [&](int k) {
    const int cell = e * layout.cells + k;
    return std::pair<uint32_t, bool>{bits(cell), poisoned(cell)};
  });
}
bool GlobalArrayView::element_poisoned(int e) const {
  const int per = cells_per_element();
  for (int i = e * per; i < (e + 1) * per; ++i)
    if (poisoned(i)) return true;
  return false;
}
bool GlobalArrayView::element_written_now(int e) const {
  const int per = cells_per_element();
  return written_now(e * per) || written_now(e * per + per - 1);
}
bool GlobalArrayView::element_read_now(int e) const {
  const int per = cells_per_element();
  return read_now(e * per) || read_now(e * per + per - 1);
}

GlobalArraysModel build_global_arrays(const RunResult& run, int launch, int step,
                                      const std::vector<std::shared_ptr<const ArrayMemory>>& before, bool at_end) {
  GlobalArraysModel m;
  const sim::Trace& t = run.sim.trace;
  if (at_end) m.note = "large run: global memory is shown as it is at the end";
  std::vector<std::map<int, GlobalArrayView::Written>> writes(before.size());
  for (size_t k = 0; k < before.size(); ++k) {
    const sim::ArrayInfo& info = t.arrays[before[k]->array];
    GlobalArrayView a;
    a.array = before[k]->array;
    a.name = info.name + sim::element_type_note(info);
    a.dtype = info.dtype;
    a.layout = sim::ElementLayout::of(info);
    // A program's arrays are what its main() made of them: the first is not "the input".
    const bool program = run.config.algorithm && run.config.algorithm->info.program;
    a.role = program ? "" : a.array == 0 ? "input" : a.array == run.sim.output_array ? "output" : "";
    a.before = before[k];
    m.arrays.push_back(std::move(a));
  }
  // The recorded blocks' accesses in this launch up to the current step.
  if (!at_end && launch < static_cast<int>(t.launches.size())) {
    for (const auto& b : t.launches[launch].blocks)
      for (int s = 0; s <= step && s < static_cast<int>(b.steps.size()); ++s)
        for (const sim::Event& e : b.steps[s].events) {
          if (e.kind != sim::EventKind::GlobalWrite && e.kind != sim::EventKind::GlobalRead) continue;
          if (e.flags & sim::kOutOfBounds) continue;
          for (size_t k = 0; k < m.arrays.size(); ++k) {
            GlobalArrayView& a = m.arrays[k];
            if (a.array != e.array || e.index >= a.size()) continue;
            if (e.kind == sim::EventKind::GlobalWrite) {
              const bool poison = (e.flags & sim::kValuePoison) != 0;
              writes[k][e.index] = {e.index, e.value_bits, poison, shade_of(a.dtype, e.value_bits, poison)};
              if (s == step) a.written_in_step.push_back(e.index);
            } else if (s == step) {
              a.read_in_step.push_back(e.index);
            }
          }
        }
  }
  for (size_t k = 0; k < m.arrays.size(); ++k) {
    GlobalArrayView& a = m.arrays[k];
    for (const auto& [index, w] : writes[k]) a.written.push_back(w);
    if (!a.layout.plain())  // a written cell's shade is its field's value (an 8-byte one's from both cells)
      for (auto& w : a.written) {
        const sim::ElementLayout::Place at = a.layout.place(w.index);
        const int low = at.high ? w.index - 1 : w.index;
        const bool wide = at.field && sim::is_wide_kind(at.field->kind) && low + 1 < a.size();
        const bool poison = a.poisoned(low) || (wide && a.poisoned(low + 1));
        w.shade = poison ? std::numeric_limits<float>::quiet_NaN()
                         : static_cast<float>(sim::cell_number(a.layout, a.dtype, low, a.bits(low), wide ? a.bits(low + 1) : 0));
      }
    sort_unique(a.written_in_step);
    sort_unique(a.read_in_step);
    // The range covers every value on show: the memory before the launch and what was written since.
    a.min = a.before->min;
    a.max = a.before->max;
    for (const auto& w : a.written) widen(a.min, a.max, w.shade);
  }
  return m;
}

GlobalArraysModel build_global_arrays(const RunResult& run, int launch, int step) {
  bool at_end = false;
  const auto before = memory_before_launch(run, launch, &at_end);
  return build_global_arrays(run, launch, step, before, at_end);
}

int block_of_element(const RunResult& run, int launch, int index) {
  const auto& lt = run.sim.trace.launches.at(launch);
  if (run.config.algorithm->info.two_dimensional) return std::clamp(index / std::max(1, run.config.problem.n), 0, lt.grid.count() - 1);
  return std::clamp(index / std::max(1, lt.block.count()), 0, lt.grid.count() - 1);
}

}  // namespace syncscope::app
