// The one wording of events, hazards and their fixes, used by the CLI's text and JSON, the app's
// views and the reports: "reads shared[2] = 3", "error: race (WAR) between read at kernels/x.h:29
// and write at kernels/x.h:31 [...]", "a barrier between kernels/x.h:29 and kernels/x.h:31 would
// order these accesses".
#pragma once

#include <string>
#include <vector>

#include "sim/events.h"
#include "sim/hazards.h"
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
std::string array_name(const Trace& t, int id);

// "reads shared[0] = 0", "writes output[3] = 6", "shfl_up gets 3 from lane 2", "waits at the barrier",
// "exits"; " (race)" when the access is one side of a data race. Shuffled values print as `dtype`.
std::string describe_event(const Event& e, const Trace& t, DType dtype);

// One line per hazard group, like compute-sanitizer's racecheck analysis mode.
std::string describe_hazard(const HazardGroup& g, const Trace& t);

// What would fix the races of one barrier interval, one line per pair of source lines:
// "a barrier between kernels/x.h:29 and kernels/x.h:31 would order these accesses". Races inside a
// warp ask for __syncwarp(); races between blocks for a second launch.
struct Diagnosis {
  LineId first = kNoLine;   // the access that came first (in the run's order)
  LineId second = kNoLine;
  bool same_warp = false;
  bool cross_block = false;
  std::string text;
};
std::vector<Diagnosis> diagnose(const std::vector<HazardGroup>& groups);

}  // namespace syncscope::sim
