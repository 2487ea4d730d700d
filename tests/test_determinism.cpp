// Same scenario and seed must give the same trace, whatever the machine does: the number of
// OS threads, re-running, and which blocks are recorded in full.
#include <gtest/gtest.h>

#include "kernels/kogge_stone.h"
#include "kernels/two_phase_scan.h"
#include "tests/test_util.h"

namespace syncscope::test {
namespace {

SimOutcome simulate_with(const RunConfig& c, int threads, std::vector<int> detail = {}) {
  sim::SimOptions o;
  o.schedule = c.schedule;
  o.threads = threads;
  o.detail_blocks = std::move(detail);
  return c.algorithm->simulate(c.problem, make_input(c), o);
}

RunConfig config(RunOptions o) { return std::get<RunConfig>(resolve(builtin_registry(), o)); }

TEST(Determinism, SameConfigTwiceGivesTheSameTraceHash) {
  for (const char* algo : {"kogge-stone", "two-phase-scan", "block-exclusive-sum", "axis-sum", "hierarchical-scan"}) {
    for (const char* schedule : {"lockstep", "forward", "reverse"}) {
      const RunConfig c = config({.algorithm = algo, .schedule = schedule});
      const SimOutcome a = simulate_with(c, 0);
      const SimOutcome b = simulate_with(c, 0);
      EXPECT_EQ(a.trace.hash(), b.trace.hash()) << algo << " " << schedule;
      EXPECT_EQ(a.output_bits, b.output_bits);
    }
  }
}

TEST(Determinism, SchedulesLeaveDifferentTraces) {
  // The same correct kernel under two schedules: same result, different event order.
  const SimOutcome lockstep = simulate_with(config({.algorithm = "kogge-stone", .schedule = "lockstep"}), 0);
  const SimOutcome reverse = simulate_with(config({.algorithm = "kogge-stone", .schedule = "reverse"}), 0);
  EXPECT_EQ(lockstep.output_bits, reverse.output_bits);
  EXPECT_NE(lockstep.trace.hash(), reverse.trace.hash());
}

TEST(Determinism, ThreadCountDoesNotChangeAnything) {
  const RunConfig c = config({.algorithm = "kogge-stone", .n = 200'000, .tpb = 128, .dtype = "int32", .input = "random:3"});
  const SimOutcome one = simulate_with(c, 1);
  const SimOutcome four = simulate_with(c, 4);
  EXPECT_EQ(one.output_bits, four.output_bits);
  EXPECT_EQ(one.trace.hash(), four.trace.hash());
  ASSERT_EQ(one.trace.launches.size(), four.trace.launches.size());
  EXPECT_EQ(one.trace.launches[0].counters.total, four.trace.launches[0].counters.total);
  EXPECT_EQ(one.trace.launches[0].counters.max_per_thread, four.trace.launches[0].counters.max_per_thread);
}

TEST(Determinism, RecordingABlockDoesNotChangeTheResult) {
  // Detail for another block comes from running again with that block recorded; the run it
  // shows must be the very same run.
  const RunConfig c = config({.algorithm = "two-phase-scan", .n = 2000, .tpb = 64, .input = "random:9"});
  const SimOutcome block0 = simulate_with(c, 0, {0});
  const SimOutcome block7 = simulate_with(c, 0, {7});
  EXPECT_EQ(block0.output_bits, block7.output_bits);
  ASSERT_NE(block7.trace.launches[0].find_block(7), nullptr);
  EXPECT_EQ(block7.trace.launches[0].find_block(0), nullptr);
  EXPECT_EQ(block0.trace.launches[0].counters.total, block7.trace.launches[0].counters.total);
}

}  // namespace
}  // namespace syncscope::test
