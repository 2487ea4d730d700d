// SIMT lockstep: the lanes of a warp move together by program position and wait where a branch
// joins; warps take turns. The held-out kernels (tests/user_kernels/divergent.h) are the cases
// where that differs from moving lanes one access at a time.
#include <gtest/gtest.h>

#include "core/outcomes.h"
#include "tests/test_util.h"
#include "tests/user_kernels/list.h"

namespace syncscope::test {
namespace {

RunResult run_held_out(RunOptions o) { return run_algorithm(std::move(o), user::held_out_registry()); }

TEST(Simt, EveryLaunchOfEveryListedAlgorithmHasATwin) {
  for (const Registry* registry : {&builtin_registry(), &user::held_out_registry(), &user::user_registry()})
    for (const AlgorithmEntry& e : registry->all()) {
      const RunResult r = run_algorithm({.algorithm = e.info.name}, *registry);
      for (const auto& launch : r.sim.trace.launches) EXPECT_TRUE(launch.simt_twin) << e.info.name << ": " << launch.label;
    }
}

// The correct kernels come out right however the threads interleave.
TEST(Simt, HeldOutKernelsAreCorrectUnderEverySchedule) {
  for (const AlgorithmEntry& e : user::held_out_registry().all())
    for (int tpb : {8, 32, 64, 256}) {
      const RunResult r = run_held_out({.algorithm = e.info.name, .n = 3 * tpb, .tpb = tpb, .input = "random:4"});
      SCOPED_TRACE(r.config.describe());
      EXPECT_TRUE(r.comparison.match);
      EXPECT_TRUE(r.sim.trace.hazards.empty());
      const Outcomes o = simulate_all_schedules(r.config);
      EXPECT_EQ(o.correct_runs(), o.runs);
    }
}

// Within one warp the missing barrier is hidden: a warp keeps its lanes together, and lanes that
// skip a level wait at the end of the `if` for the ones that run it. Thread-by-thread schedules
// still show the race, and the detector reports it whatever the schedule.
TEST(Simt, OneWarpHidesAMissingBarrierWhereLanesDiverge) {
  for (const AlgorithmEntry& e : user::held_out_registry().all())
    for (int tpb : {8, 16, 32}) {
      RunOptions o{.algorithm = e.info.name, .n = tpb, .tpb = tpb, .bug = e.info.bugs.at(0).name};
      const RunResult r = run_held_out(o);
      SCOPED_TRACE(r.config.describe());
      EXPECT_TRUE(r.comparison.match) << "lockstep: " << testing::PrintToString(output_text(r));
      EXPECT_FALSE(r.sim.trace.hazards.empty());
      const Outcomes all = simulate_all_schedules(r.config);
      EXPECT_LT(all.correct_runs(), all.runs) << "no schedule showed the race";
    }
}

// Kogge-Stone without the barrier between read and write, TPB 8: under lockstep every lane reads
// its partner before any lane writes (one warp instruction after another); under forward, thread
// 1 has written before thread 2 reads.
TEST(Simt, LanesOfAWarpReadBeforeAnyOfThemWrites) {
  auto first_write_before_last_read = [](const std::string& schedule) {
    const RunResult r = run_algorithm(
        {.algorithm = "kogge-stone", .n = 8, .tpb = 8, .schedule = schedule, .bug = "no-second-barrier"});
    const auto& events = r.sim.trace.launches.at(0).blocks.at(0).steps.at(1).events;
    size_t first_write = events.size(), last_read = 0;
    for (size_t k = 0; k < events.size(); ++k) {
      if (events[k].kind == sim::EventKind::SharedWrite) first_write = std::min(first_write, k);
      if (events[k].kind == sim::EventKind::SharedRead) last_read = k;
    }
    return first_write < last_read;
  };
  // In-place updates read s[t] right before writing it; what matters is the partner reads, which
  // under lockstep all come first. Lockstep: reads of partners (7), then per lane read-own+write.
  EXPECT_TRUE(first_write_before_last_read("forward"));
  const RunResult r =
      run_algorithm({.algorithm = "kogge-stone", .n = 8, .tpb = 8, .schedule = "lockstep", .bug = "no-second-barrier"});
  const auto& events = r.sim.trace.launches.at(0).blocks.at(0).steps.at(1).events;
  std::vector<int> partner_reads_before_first_write;
  for (const auto& e : events) {
    if (e.kind == sim::EventKind::SharedWrite) break;
    if (e.kind == sim::EventKind::SharedRead) partner_reads_before_first_write.push_back(e.thread);
  }
  // Threads 1..7 read their partner, then all of them read their own cell: 14 reads, no write yet.
  EXPECT_EQ(partner_reads_before_first_write.size(), 14u);
  EXPECT_TRUE(r.comparison.match);
}

// Warps interleave one instruction each: a sequential-addressing reduction without its loop
// barrier is right at TPB 1024 on an H100 (200 of 200 runs), because the warps that feed the next
// stride wrote in the same round; running warp 0's whole loop first (the old lockstep) got it wrong.
TEST(Simt, WarpsTakeTurnsSoAReductionWithoutItsLoopBarrierComesOutRight) {
  const RunResult r =
      run_held_out({.algorithm = "sequential-reduce", .n = 1024, .tpb = 1024, .bug = "no-loop-barrier"});
  EXPECT_TRUE(r.comparison.match);
  const RunResult f = run_held_out(
      {.algorithm = "sequential-reduce", .n = 1024, .tpb = 1024, .schedule = "forward", .bug = "no-loop-barrier"});
  EXPECT_FALSE(f.comparison.match);
}

TEST(Simt, SameConfigurationSameTrace) {
  for (const char* algo : {"blelloch-scan", "interleaved-reduce"}) {
    RunOptions o{.algorithm = algo, .n = 256, .tpb = 64, .bug = "no-down-sweep-barrier"};
    if (std::string(algo) != "blelloch-scan") o.bug = "no-loop-barrier";
    EXPECT_EQ(run_held_out(o).sim.trace.hash(), run_held_out(o).sim.trace.hash()) << algo;
  }
}

}  // namespace
}  // namespace syncscope::test
