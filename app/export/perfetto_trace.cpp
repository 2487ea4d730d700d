#include "app/export/perfetto_trace.h"

#include <algorithm>
#include <set>

#include "sim/describe.h"

namespace syncscope::app {
namespace {

constexpr int kWarp = 32;

// One track per (block, warp): Perfetto sorts tracks by tid.
int track(int block, int thread) { return block * 64 + thread / kWarp + 1; }

std::string where(sim::LineId line) {
  const sim::SourceLine& l = sim::LineTable::get(line);
  return l.file + ":" + std::to_string(l.line);
}

}  // namespace

nlohmann::json perfetto_trace(const RunResult& run) {
  nlohmann::json events = nlohmann::json::array();
  const sim::Trace& t = run.sim.trace;
  const DType dtype = run.config.problem.dtype;
  int64_t clock = 0;  // µs: one per operation, steps back to back across launches
  for (size_t l = 0; l < t.launches.size(); ++l) {
    const sim::LaunchTrace& lt = t.launches[l];
    const int pid = static_cast<int>(l) + 1;
    events.push_back({{"ph", "M"}, {"name", "process_name"}, {"pid", pid},
                      {"args", {{"name", "launch " + std::to_string(l + 1) + ": " + lt.label}}}});
    for (const sim::BlockTrace& b : lt.blocks) {
      const int warps = (lt.block.count() + kWarp - 1) / kWarp;
      for (int w = 0; w < warps; ++w)
        events.push_back({{"ph", "M"}, {"name", "thread_name"}, {"pid", pid}, {"tid", track(b.block, w * kWarp)},
                          {"args", {{"name", "block " + std::to_string(b.block) + " warp " + std::to_string(w)}}}});
    }
    // Steps are synchronous across the recorded blocks: each step starts when the longest block's
    // previous step ended.
    for (int s = 0; s < lt.steps; ++s) {
      int64_t longest = 1;
      for (const sim::BlockTrace& b : lt.blocks) {
        if (s >= static_cast<int>(b.steps.size())) continue;
        const sim::StepTrace& st = b.steps[s];
        longest = std::max<int64_t>(longest, static_cast<int64_t>(st.events.size()) + 1);
        std::set<int> warps_active;
        for (const sim::Event& e : st.events) warps_active.insert(e.thread / kWarp);
        const std::string name = !st.caption.empty()                    ? st.caption
                                 : st.barrier == sim::kNoLine ? "step " + std::to_string(s) + " (to exit)"
                                                                       : "step " + std::to_string(s) + " to the barrier at " + where(st.barrier);
        for (int warp : warps_active)
          events.push_back({{"ph", "X"}, {"name", name}, {"cat", "step"}, {"pid", pid}, {"tid", track(b.block, warp * kWarp)},
                            {"ts", clock}, {"dur", static_cast<int64_t>(st.events.size()) + 1},
                            {"args", {{"step", s}, {"block", b.block}}}});
        const std::vector<int> halves = sim::element_halves(st.events, t);  // an 8-byte access: one event of its number
        for (size_t k = 0; k < st.events.size(); ++k) {
          const sim::Event& e = st.events[k];
          if (e.kind == sim::EventKind::Exit || sim::is_paired_high_half(halves, k)) continue;
          const sim::Event* other = halves[k] >= 0 ? &st.events[halves[k]] : nullptr;
          nlohmann::json args = {{"thread", e.thread}, {"step", s}, {"order", k}};
          if (e.line != sim::kNoLine) args["line"] = where(e.line);
          const uint8_t flags = e.flags | (other ? other->flags : 0);
          if (flags & sim::kRacy) args["race"] = (flags & sim::kRaceInOneWarp) ? "inside one warp" : "across warps";
          events.push_back({{"ph", "i"}, {"s", "t"}, {"name", sim::describe_event(e, t, dtype, other)},
                            {"cat", e.is_memory() ? (e.is_read() ? "read" : "write") : "sync"}, {"pid", pid},
                            {"tid", track(b.block, e.thread)}, {"ts", clock + static_cast<int64_t>(k)}, {"args", args}});
        }
      }
      clock += longest;
    }
  }
  return {{"traceEvents", events},
          {"displayTimeUnit", "ns"},
          {"otherData", {{"tool", "syncscope"}, {"run", run.config.describe()}, {"time", "1 us = one operation in schedule order"}}}};
}

}  // namespace syncscope::app
