#include "sim/warp_instructions.h"

#include <algorithm>
#include <array>

#include "sim/element_layout.h"

namespace syncscope::sim {

namespace {
// Each shared array of `launch`, with its first word, in the order they are carved.
template <class Visit>
int carve_shared_words(const Trace& trace, int launch, Visit visit) {
  int words = 0;
  for (size_t a = 0; a < trace.arrays.size(); ++a) {
    const ArrayInfo& info = trace.arrays[a];
    if (info.space != MemSpace::Shared || info.launch != launch) continue;
    visit(a, words);
    const int cell_bytes = ElementLayout::of(info).cell_bytes;
    words += shared_bytes_for((info.size * cell_bytes + 3) / 4) / 4;
  }
  return words;
}
}  // namespace

std::vector<int> shared_word_offsets(const Trace& trace, int launch) {
  std::vector<int> offsets(trace.arrays.size(), -1);
  carve_shared_words(trace, launch, [&](size_t a, int words) { offsets[a] = words; });
  return offsets;
}

int shared_bytes_declared(const Trace& trace, int launch) {
  return 4 * carve_shared_words(trace, launch, [](size_t, int) {});
}

namespace {

// How far apart each array's cells lie on a GPU (4 bytes; 1 for a uchar4's), by Trace::arrays index.
std::vector<int> cell_bytes_of_arrays(const Trace& trace) {
  std::vector<int> bytes(trace.arrays.size(), 4);
  for (size_t a = 0; a < trace.arrays.size(); ++a)
    if (!trace.arrays[a].layout.empty()) bytes[a] = ElementLayout::of(trace.arrays[a]).cell_bytes;
  return bytes;
}

bool is_instruction(const Event& e) {
  return e.is_memory() || e.kind == EventKind::Shuffle || e.kind == EventKind::WarpVote ||
         e.kind == EventKind::WarpSync;
}

// The passes one shared-memory instruction takes: a GPU serves a warp's 4-byte accesses in one
// group of 32 lanes, its 8-byte ones (a double) by half warps and its 16-byte ones (a float4) by
// quarter warps; each group takes as many passes as the most distinct words one bank gets from it
// (the H100's counters agree: 32 consecutive doubles take 2 passes, no conflict; s[2 * t] as
// doubles 4, two of them conflicts).
struct Passes {
  int worst = 0;  // the most passes one group took (1: no conflict)
  int extra = 0;  // passes beyond one per group
};
Passes shared_passes(const std::vector<Event>& events, const std::vector<int>& indices, const std::vector<int>& offsets,
                     const std::vector<int>& cell_bytes) {
  int width = 1;  // in 4-byte words: a uchar4's four cells are one word
  for (int k : indices) {
    const Event& e = events[k];
    const int bytes = e.array < cell_bytes.size() ? cell_bytes[e.array] : 4;
    width = std::max(width, static_cast<int>(e.access_cells) * bytes / 4);
  }
  if (width != 2 && width != 4) width = 1;
  const int groups = width, lanes_per_group = kWarpSize / width;
  std::vector<std::array<std::vector<int>, kWarpSize>> words_in_bank(groups);
  std::vector<int> passes(groups, 0);
  for (int k : indices) {
    const Event& e = events[k];
    if (e.flags & kOutOfBounds || e.array >= offsets.size() || offsets[e.array] < 0) continue;
    const int group = (e.thread % kWarpSize) / lanes_per_group;
    const int word = offsets[e.array] + e.index * cell_bytes[e.array] / 4;
    std::vector<int>& bank = words_in_bank[group][word % kWarpSize];
    if (std::find(bank.begin(), bank.end(), word) == bank.end()) bank.push_back(word);
    passes[group] = std::max(passes[group], static_cast<int>(bank.size()));
  }
  Passes p;
  for (int g : passes) {
    p.worst = std::max(p.worst, g);
    p.extra += g > 1 ? g - 1 : 0;
  }
  return p;
}

}  // namespace

std::vector<WarpInstruction> warp_instructions(const StepTrace& step, const Trace& trace, int launch,
                                               std::vector<bool>& exited) {
  std::vector<WarpInstruction> out;
  const LaunchTrace& lt = trace.launches[launch];
  const int threads = lt.block.count();
  if (static_cast<int>(exited.size()) < threads) exited.resize(threads, false);
  const std::vector<int> offsets = shared_word_offsets(trace, launch);
  const std::vector<int> cell_bytes = cell_bytes_of_arrays(trace);
  const std::vector<Event>& events = step.events;
  // An instruction is the run of events from one start mark to the next; an event of another warp,
  // or a second event of a lane already in it, also begins a new one. A later cell of a lane's access
  // of several cells (a double's high word) belongs to the instruction of its first cell, wherever
  // the lanes' other events put it.
  std::vector<int> wide_instruction(threads, -1);  // per thread: the instruction of its wide access in progress
  int current = -1;
  uint32_t lanes_in_current = 0;
  for (int k = 0; k < static_cast<int>(events.size()); ++k) {
    const Event& e = events[k];
    if (e.is_memory() && e.access_part > 0 && e.thread < threads && wide_instruction[e.thread] >= 0) {
      out[wide_instruction[e.thread]].events.push_back(k);
      continue;
    }
    const uint32_t lane = 1u << (e.thread % kWarpSize);
    // A warp operation's lanes report as they resume, the lane that completed it first; an 8-byte
    // atomic's lanes one at a time: their events of one line are still the one instruction.
    const auto continues = [&] {
      if (current < 0 || e.thread / kWarpSize != out[current].warp || (lanes_in_current & lane)) return false;
      const Event& first = events[out[current].events.front()];
      const bool warp_op = e.kind == EventKind::Shuffle || e.kind == EventKind::WarpVote || e.kind == EventKind::WarpSync;
      const bool atomic = e.is_memory() && (e.flags & kAtomic) && (first.flags & kAtomic) && first.array == e.array;
      return (warp_op || atomic) && first.kind == e.kind && first.line == e.line;
    };
    if ((e.flags & kWarpInstructionStart && !continues()) ||
        (is_instruction(e) && current >= 0 && (e.thread / kWarpSize != out[current].warp || lanes_in_current & lane))) {
      current = -1;
    }
    if (!is_instruction(e)) continue;
    if (current < 0) {
      out.push_back(WarpInstruction{{}, e.thread / kWarpSize});
      current = static_cast<int>(out.size()) - 1;
      lanes_in_current = 0;
    }
    out[current].events.push_back(k);
    lanes_in_current |= lane;
    if (e.thread < threads) wide_instruction[e.thread] = e.is_memory() && e.access_cells > 1 ? current : -1;
  }
  // Exits come after the instructions of the step: a lane that ran an instruction was running then.
  for (WarpInstruction& w : out) {
    const int first_lane = w.warp * kWarpSize;
    int running = 0;
    for (int t = first_lane; t < std::min(threads, first_lane + kWarpSize); ++t) running += exited[t] ? 0 : 1;
    uint32_t lanes = 0;
    for (int k : w.events) lanes |= 1u << (events[k].thread % kWarpSize);
    w.lanes = __builtin_popcount(lanes);
    w.divergent = w.lanes < running;
    const Event& e = events[w.events.front()];
    w.shared = e.kind == EventKind::SharedRead || e.kind == EventKind::SharedWrite;
    if (w.shared) {
      const Passes p = shared_passes(events, w.events, offsets, cell_bytes);
      w.conflict_degree = p.worst;
      w.extra_passes = p.extra;
    }
  }
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
  extra_passes += w.extra_passes;
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
