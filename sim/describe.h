// The one wording of events, hazards and their fixes, used by the CLI's text and JSON, the app's
// views and the reports: "reads shared[2] = 3", "error: race (WAR) between read at kernels/x.h:29
// and write at kernels/x.h:31 [...]", "a barrier between kernels/x.h:29 and kernels/x.h:31 would
// order these accesses".
#pragma once

#include <string>
#include <vector>

#include "sim/events.h"
#include "sim/hazards.h"
#include "sim/element_layout.h"
#include "sim/remedies.h"
#include "sim/trace.h"

namespace syncscope::sim {

// Exact text of one element: "28", "0.25", "?" for poison.
std::string format_value(DType dtype, uint32_t bits, bool poison = false);
std::string format_number(DType dtype, double value);
// "2 s", "0.25 s", "1.5 s": a duration as a person reads it.
std::string format_seconds(double seconds);

std::string warp_op_name(WarpOp op);  // "shfl_up", ..., "sync_warp", "ballot", "active_mask"
std::string atomic_op_name(AtomicOp op);  // "atomic_add", ...
// A vote's result as the step view shows it: any/all 0 or 1, ballot and active_mask as 0x0000ffff.
// A vote's, reduction's or match's result as reports print it: 0/1, a mask in hex, or a value of
// the kernel's type ('?' when it derives from uninitialized memory).
std::string vote_text(WarpOp op, uint32_t result, DType dtype, bool poison = false);
// An array's name as the kernel gave it ("hist"), with its space in front ("shared hist", "global
// hist") where the run has a shared and a global array of that name, so the two never read the same.
std::string array_name(const Trace& t, int id);

// A thread of a block of `block`'s shape by its linear index: its threadIdx (x, y, z), and its name
// as reports write it: "T5" in a 1D block, "(0,1)" in a 2D one, "(0,1,2)" in a 3D one.
Dim3 thread_index_in(Dim3 block, int thread);
std::string thread_name(Dim3 block, int thread);

// "reads shared[0] = 0", "writes output[3] = 6", "shfl_up gets 3 from lane 2", "waits at the barrier",
// "exits"; " (race)" when the access is one side of a data race. Shuffled values print as `dtype`.
// An access is named as the program indexes the array (ArrayInfo::layout, sim/element_layout.h):
// "reads bins[2].count = 3"; an 8-byte number, with the event of its other cell (element_halves), is
// one access of it, "reads cache[1] = 164000492"; one of its cells accessed alone is said to be its
// low or high word.
std::string describe_event(const Event& e, const Trace& t, DType dtype, const Event* other_half = nullptr);

// " (double)", " (BinStats)": an array's element type where its cells are not its elements; else "".
std::string element_type_note(const ArrayInfo& a);
// For each of a step's events, the position of the other half of the 8-byte access it is part of
// (the same thread's next event, of the same kind, on the next cell; or the one before it), or -1.
std::vector<int> element_halves(const std::vector<Event>& events, const Trace& t);
// Whether events[k] is the high half of an access element_halves paired: a list of accesses names the
// element at its low half and leaves this one out.
inline bool is_paired_high_half(const std::vector<int>& halves, size_t k) { return halves[k] >= 0 && halves[k] < static_cast<int>(k); }

// One line per hazard group, like compute-sanitizer's racecheck analysis mode.
std::string describe_hazard(const HazardGroup& g, const Trace& t);

// What would fix the races: diagnose() and group_by_barrier(), sim/remedies.h.
// One line for the reports of a group of several pairs one barrier orders, in place of theirs:
// "error: 9 pairs of lines race (RAW, WAR, WAW) on shared s, all for want of one barrier [hazards:
// 412, blocks: 0]". `groups`: what group_by_barrier() was given.
std::string describe_barrier_group(const BarrierGroup& b, const std::vector<HazardGroup>& groups, const Trace& t);

// A *_sync call whose mask cannot work: "shfl_down_sync at x.h:12 (T3) has mask 0x0000fff0, which
// does not name its own lane 3; ...". `other`: the thread the mask names wrongly; `lanes`: how many
// lanes the caller's warp has.
// `returned`: where the named lane returned, as returned_text() words it ("" when not known).
std::string describe_mask_violation(WarpOp op, const std::string& line, int thread, uint32_t mask, MaskProblem problem,
                                    int other, int lanes, const std::string& returned = "");
// " (it returned at x.cu:4)" for a lane whose kernel said where it returned, else "".
std::string returned_text(LineId returned_at);
// A shuffle's width that is not a power of two from 1 to 32.
std::string describe_bad_width(WarpOp op, const std::string& line, int width);

// "1 element differs", "3 of 8 elements differ": a count of differing elements, the verb agreeing
// (`of` 0: without the total).
std::string elements_differ(long count, size_t of = 0);

// "T0-T3, T5": threads as ranges.
std::string describe_threads(const std::vector<int>& threads);

// Why the run's budget (sim/run_budget.h) stopped a block: the one wording of runaway messages.
struct BudgetFacts {
  int block = 0;
  int barriers_passed = 0;     // by the block so far
  double seconds = 0;          // how long the block had run
  double budget_seconds = 0;   // a block's time budget
  uint64_t max_operations = 0; // a block's work budget
  int64_t blocks = 1;          // in the launch
};
// "T5 of block 0 is still running after 2 s without reaching a barrier; last line executed: x.h:42 (...)"
std::string describe_runaway(const BudgetFacts& f, int thread, const std::string& last_line);
// "block 0 made more than N kernel operations ... T5 was at x.h:42"
std::string describe_too_many_operations(const BudgetFacts& f, int thread, const std::string& last_line);
// "block 0 passed 100000 barriers in one launch (the step budget); is the loop around x.h:40 endless? ..."
std::string describe_endless_barrier_loop(const BudgetFacts& f, bool out_of_steps, const std::string& loop_line);
std::string describe_cancelled(int block, int step);

}  // namespace syncscope::sim
