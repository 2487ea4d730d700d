#include "sim/warp_instructions.h"

#include <algorithm>
#include <array>

namespace syncscope::sim {

std::vector<int> shared_word_offsets(const Trace& trace, int launch) {
  std::vector<int> offsets(trace.arrays.size(), -1);
  int words = 0;
  for (size_t a = 0; a < trace.arrays.size(); ++a) {
    const ArrayInfo& info = trace.arrays[a];
    if (info.space != MemSpace::Shared || info.launch != launch) continue;
    offsets[a] = words;
    words += shared_bytes_for(info.size) / 4;
  }
  return offsets;
}

namespace {

bool is_instruction(const Event& e) {
  return e.is_memory() || e.kind == EventKind::Shuffle || e.kind == EventKind::WarpVote ||
         e.kind == EventKind::WarpSync;
}

// The most distinct words any one bank gets from these shared accesses.
int conflict_degree(const std::vector<Event>& events, const std::vector<int>& indices, const std::vector<int>& offsets) {
  std::array<std::vector<int>, kWarpSize> words_in_bank;
  int degree = 0;
  for (int k : indices) {
    const Event& e = events[k];
    if (e.flags & kOutOfBounds || e.array >= offsets.size() || offsets[e.array] < 0) continue;
    const int word = offsets[e.array] + e.index;
    std::vector<int>& bank = words_in_bank[word % kWarpSize];
    if (std::find(bank.begin(), bank.end(), word) == bank.end()) bank.push_back(word);
    degree = std::max(degree, static_cast<int>(bank.size()));
  }
  return degree;
}

}  // namespace

std::vector<WarpInstruction> warp_instructions(const StepTrace& step, const Trace& trace, int launch,
                                               std::vector<bool>& exited) {
  std::vector<WarpInstruction> out;
  const LaunchTrace& lt = trace.launches[launch];
  const int threads = lt.block.count();
  if (static_cast<int>(exited.size()) < threads) exited.resize(threads, false);
  const std::vector<int> offsets = shared_word_offsets(trace, launch);
  const std::vector<Event>& events = step.events;
  auto close = [&](WarpInstruction& w) {
    if (w.events.empty()) return;
    const int first_lane = w.warp * kWarpSize;
    int running = 0;
    for (int t = first_lane; t < std::min(threads, first_lane + kWarpSize); ++t) running += exited[t] ? 0 : 1;
    uint32_t lanes = 0;
    for (int k : w.events) lanes |= 1u << (events[k].thread % kWarpSize);
    w.lanes = __builtin_popcount(lanes);
    w.divergent = w.lanes < running;
    const Event& e = events[w.events.front()];
    w.shared = e.kind == EventKind::SharedRead || e.kind == EventKind::SharedWrite;
    if (w.shared) w.conflict_degree = conflict_degree(events, w.events, offsets);
    out.push_back(w);
  };
  // An instruction is the run of events from one start mark to the next; an event of another warp,
  // or a second event of a lane already in it, also begins a new one.
  WarpInstruction current;
  uint32_t lanes_in_current = 0;
  for (int k = 0; k < static_cast<int>(events.size()); ++k) {
    const Event& e = events[k];
    const uint32_t lane = 1u << (e.thread % kWarpSize);
    if (e.flags & kWarpInstructionStart || (is_instruction(e) && !current.events.empty() &&
                                            (e.thread / kWarpSize != current.warp || lanes_in_current & lane))) {
      close(current);
      current = WarpInstruction{{}, e.thread / kWarpSize};
      lanes_in_current = 0;
    }
    if (!is_instruction(e)) continue;
    current.events.push_back(k);
    lanes_in_current |= lane;
  }
  close(current);
  for (const Event& e : events)
    if (e.kind == EventKind::Exit && e.thread < exited.size()) exited[e.thread] = true;
  return out;
}

void WarpCounts::add(const WarpInstruction& w) {
  ++instructions;
  divergent += w.divergent ? 1 : 0;
  if (!w.shared) return;
  ++shared_instructions;
  conflicted += w.conflict_degree > 1 ? 1 : 0;
  extra_passes += w.conflict_degree > 1 ? w.conflict_degree - 1 : 0;
  worst_degree = std::max(worst_degree, w.conflict_degree);
}

void WarpCounts::merge(const WarpCounts& other) {
  instructions += other.instructions;
  divergent += other.divergent;
  shared_instructions += other.shared_instructions;
  conflicted += other.conflicted;
  extra_passes += other.extra_passes;
  worst_degree = std::max(worst_degree, other.worst_degree);
}

std::string describe_warp_counts(const WarpCounts& w) {
  std::string text = std::to_string(w.instructions) + " warp instruction" + (w.instructions == 1 ? "" : "s") + ", " +
                     std::to_string(w.divergent) + " divergent; ";
  if (w.shared_instructions == 0) return text + "no shared-memory access";
  text += std::to_string(w.shared_instructions) + " shared-memory, ";
  if (w.conflicted == 0) return text + "no bank conflict";
  return text + std::to_string(w.conflicted) + " with a bank conflict (worst " + std::to_string(w.worst_degree) +
         "-way, " + std::to_string(w.extra_passes) + " extra pass" + (w.extra_passes == 1 ? "" : "es") + ")";
}

WarpMetrics warp_metrics(const BlockTrace& block, const Trace& trace, int launch) {
  WarpMetrics m;
  if (launch < 0 || launch >= static_cast<int>(trace.launches.size())) return m;
  for (const StepTrace& s : block.steps)
    for (const Event& e : s.events)
      if (e.flags & kWarpInstructionStart) m.available = true;
  if (!m.available) return m;
  std::vector<bool> exited;
  for (const StepTrace& s : block.steps) {
    WarpCounts step;
    for (const WarpInstruction& w : warp_instructions(s, trace, launch, exited)) step.add(w);
    m.merge(step);
    m.worst_degree_per_step.push_back(step.worst_degree);
    m.per_step.push_back(step);
  }
  return m;
}

WarpMetrics run_warp_metrics(const Trace& trace) {
  WarpMetrics all;
  for (size_t l = 0; l < trace.launches.size(); ++l)
    for (const BlockTrace& b : trace.launches[l].blocks) {
      const WarpMetrics m = warp_metrics(b, trace, static_cast<int>(l));
      if (!m.available) continue;
      all.available = true;
      all.merge(m);
    }
  return all;
}

}  // namespace syncscope::sim
