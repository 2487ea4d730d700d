// What would fix the races a run reported, in the one wording the CLI's text and JSON and the app's
// Hazards panel share: "a barrier between kernels/x.h:29 and kernels/x.h:31 would order these
// accesses", "use an atomic (c.atomic_add) at kernels/x.h:40", and the races one missing
// barrier causes gathered under that one barrier.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/hazards.h"
#include "sim/trace.h"

namespace syncscope::sim {

// The fix of one pair of source lines (or of one lost update, or of one warp operation that cannot
// complete). Races inside a warp ask for __syncwarp(); races between blocks for a second launch; a
// lost update for an atomic; a warp operation for a mask of the lanes that reach it.
struct Diagnosis {
  LineId first = kNoLine;   // the access that came first (in the run's order)
  LineId second = kNoLine;  // a lost update: first == second, the statement the atomic replaces
  bool same_warp = false;
  bool cross_block = false;
  // Several threads read-modify-write one cell in one step (`hist[bin] += 1`): each thread's read and
  // write belong together, so no barrier can order them; an atomic at `second` can.
  bool lost_update = false;
  // One statement reads a cell another thread's run of it writes (`s[t] += s[t - 1]`): the barrier
  // goes inside the statement, so no barrier placed for other pairs orders it.
  bool splits_statement = false;
  // A warp operation that cannot complete (a lane it names exited, waits elsewhere or is not there;
  // a mask without the caller; lanes at different warp operations): its mask or its place is the fix
  // (same_warp); or threads that returned before a barrier: where they return is (not same_warp).
  bool warp_call = false;
  // A plain write against other threads' atomics on its cell (`if (idx >= CAP) n = CAP;` after an
  // atomicAdd on n): an atomic write is the fix where no barrier can go; it is not grouped with
  // barrier fixes. Same-line runs of that write are answered here too.
  bool atomic_write = false;
  // A race on cells no write of the launch changed (HazardEvent::unchanged_cell): nothing to place.
  bool unchanged_cell = false;
  std::string text;
  std::vector<size_t> reports;  // the hazard groups (indices into diagnose()'s argument) it answers
};
// Where the shown blocks' threads went back to an earlier line (or the same one) of one function
// inside one step: a loop whose rounds no barrier separates (or a helper called twice). A race
// whose first access is later in the source than its second wraps round such a loop only where one
// spans both lines; elsewhere a thread or a warp merely ran ahead of the other (a serial schedule,
// warps one after another), and the barrier goes between the lines in source order.
struct LoopSpan {
  std::string file, function;
  uint32_t first = 0, last = 0;  // the lines the loop's round spans
};
// nullopt when the trace has no shown step's events to tell by.
std::optional<std::vector<LoopSpan>> loops_seen(const Trace& t);

std::vector<Diagnosis> diagnose(const std::vector<HazardGroup>& groups,
                                const std::optional<std::vector<LoopSpan>>& loops = std::nullopt);

// The pairs of lines one barrier orders: one missing barrier in a loop makes every pair of its
// accesses race (a bitonic sort: 9 pairs), and one barrier answers them all. A pair that only that
// group has keeps its own fix. `fix.first` is the line the barrier goes after and `fix.second` the
// one it goes before; `fix.text` says so ("one barrier after x.h:50, before x.h:45 comes round
// again (...), would order these 9 pairs of lines").
struct BarrierGroup {
  Diagnosis fix;                 // for one pair: that pair's own diagnosis
  std::vector<Diagnosis> pairs;  // in diagnose()'s order
  std::vector<size_t> reports;   // the hazard groups of all its pairs, ascending
};
std::vector<BarrierGroup> group_by_barrier(const std::vector<HazardGroup>& groups,
                                           const std::optional<std::vector<LoopSpan>>& loops = std::nullopt);
// The trace's races, with its loops.
std::vector<BarrierGroup> group_by_barrier(const Trace& t);

}  // namespace syncscope::sim
