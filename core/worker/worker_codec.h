// What crosses the pipe to and from the kernel worker, in the wire form of core/worker/wire.h:
// the problem, the algorithm's description, the simulator's options and a whole SimOutcome.
// Source lines travel as the worker's line table (file, line, function): the reader interns them
// in this process's table and renumbers every line id of the outcome, so a trace from the worker
// is indistinguishable from one recorded here.
#pragma once

#include "core/registry.h"
#include "core/worker/wire.h"

namespace syncscope::worker {

void write_problem(WireWriter& w, const Problem& p);
Problem read_problem(WireReader& r);

void write_check(WireWriter& w, const CheckResult& c);
CheckResult read_check(WireReader& r);

void write_algo_info(WireWriter& w, const AlgoInfo& info);
AlgoInfo read_algo_info(WireReader& r);

// Everything but the cancel flag, which the worker keeps for itself (a signal sets it).
void write_sim_options(WireWriter& w, const sim::SimOptions& o);
sim::SimOptions read_sim_options(WireReader& r);

// The outcome and, after it, the writer's line table. Snapshots the writer sent once are read back
// each time they stand (an array unchanged across launches); together they may make at most
// `max_snapshot_cells` cells (by default 2^30, 5 GiB with their poison: more than the worker's
// address space holds on most machines), else the message is refused.
inline constexpr uint64_t kMaxSnapshotCells = uint64_t{1} << 30;
void write_outcome(WireWriter& w, const SimOutcome& out);
SimOutcome read_outcome(WireReader& r, uint64_t max_snapshot_cells = kMaxSnapshotCells);

void write_doubles(WireWriter& w, const std::vector<double>& v);
std::vector<double> read_doubles(WireReader& r);

}  // namespace syncscope::worker
