#include "app/view/global_arrays_model.h"

#include <cmath>
#include <limits>

namespace syncscope::app {


GlobalArraysModel build_global_arrays(const RunResult& run, int launch, int step) {
  GlobalArraysModel m;
  const sim::Trace& t = run.sim.trace;
  // Memory before this launch: the previous launch's snapshot, or the initial one.
  const std::vector<sim::ArraySnapshot>* base = nullptr;
  if (launch > 0 && launch <= static_cast<int>(t.launches.size()) && !t.launches[launch - 1].globals_after.empty())
    base = &t.launches[launch - 1].globals_after;
  else if (launch == 0 && !t.globals_before.empty())
    base = &t.globals_before;
  const bool snapshots = base != nullptr;
  if (!snapshots) {
    base = &run.sim.globals_final;
    m.note = "large run: global memory is shown as it is at the end";
  }
  for (int id = 0; id < static_cast<int>(t.arrays.size()); ++id) {
    const sim::ArrayInfo& info = t.arrays[id];
    if (info.space != sim::MemSpace::Global) continue;
    GlobalArrayView a;
    a.array = id;
    a.name = info.name;
    a.dtype = info.dtype;
    a.role = id == 0 ? "input" : id == run.sim.output_array ? "output" : "";
    const sim::ArraySnapshot* snap = nullptr;
    for (const auto& s : *base)
      if (s.array == id) snap = &s;
    if (snap) {
      a.bits = snap->bits;
      a.poison = snap->poison;
    } else {  // allocated after the snapshot: uninitialized before this launch
      a.bits.assign(info.size, 0);
      a.poison.assign(info.size, 1);
    }
    a.written_now.assign(a.bits.size(), 0);
    a.read_now.assign(a.bits.size(), 0);
    m.arrays.push_back(std::move(a));
  }
  // The recorded blocks' accesses in this launch up to the current step.
  if (snapshots && launch < static_cast<int>(t.launches.size())) {
    for (const auto& b : t.launches[launch].blocks)
      for (int s = 0; s <= step && s < static_cast<int>(b.steps.size()); ++s)
        for (const sim::Event& e : b.steps[s].events) {
          if (e.kind != sim::EventKind::GlobalWrite && e.kind != sim::EventKind::GlobalRead) continue;
          if (e.flags & sim::kOutOfBounds) continue;
          for (auto& a : m.arrays) {
            if (a.array != e.array || e.index >= a.size()) continue;
            if (e.kind == sim::EventKind::GlobalWrite) {
              a.bits[e.index] = e.value_bits;
              a.poison[e.index] = (e.flags & sim::kValuePoison) ? 1 : 0;
              if (s == step) a.written_now[e.index] = 1;
            } else if (s == step) {
              a.read_now[e.index] = 1;
            }
          }
        }
  }
  // The overview's values and their range, once per step (the panel draws them every frame).
  for (auto& a : m.arrays) {
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    a.shades.resize(a.bits.size());
    for (int i = 0; i < a.size(); ++i) {
      if (a.poison[i]) {
        a.shades[i] = std::numeric_limits<float>::quiet_NaN();
        continue;
      }
      const double v = sim::bits_to_double(a.dtype, a.bits[i]);
      a.shades[i] = static_cast<float>(v);
      if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
    }
    a.min = std::isfinite(lo) ? lo : 0;
    a.max = std::isfinite(hi) ? hi : 0;
  }
  return m;
}

int block_of_element(const RunResult& run, int launch, int index) {
  const auto& lt = run.sim.trace.launches.at(launch);
  if (run.config.algorithm->info.two_dimensional) return std::clamp(index / std::max(1, run.config.problem.n), 0, lt.grid.count() - 1);
  return std::clamp(index / std::max(1, lt.block.count()), 0, lt.grid.count() - 1);
}

}  // namespace syncscope::app
