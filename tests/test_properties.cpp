// Property tests: random sizes, block sizes, element types and inputs, every algorithm, every
// schedule, against the independent CPU reference.
#include <gtest/gtest.h>

#include <random>

#include "tests/test_util.h"

namespace syncscope::test {
namespace {

class EveryAlgorithm : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryAlgorithm, MatchesReferenceUnderEverySchedule) {
  const AlgorithmEntry* algo = builtin_registry().find(GetParam());
  ASSERT_NE(algo, nullptr);
  std::mt19937 rng(std::hash<std::string>{}(GetParam()) & 0xffffffff);
  for (int k = 0; k < 10; ++k) {
    RunOptions o = random_options(*algo, rng, 6000);
    for (const char* schedule : {"lockstep", "forward", "reverse"}) {
      o.schedule = schedule;
      const RunResult r = run_algorithm(o);
      SCOPED_TRACE(r.config.describe());
      EXPECT_TRUE(r.comparison.match) << "relative error " << r.comparison.relative_error << ", "
                                      << r.comparison.differing << " elements differ";
      EXPECT_FALSE(r.sim.trace.error) << r.sim.trace.error->message;
      // A correct kernel has no races and no out-of-bounds accesses, whatever the schedule.
      for (const auto& g : r.sim.trace.hazards.groups()) {
        const bool seed_uninitialized = GetParam() == "two-phase-scan" && g.first.kind == sim::HazardKind::UninitializedRead;
        EXPECT_TRUE(seed_uninitialized) << "unexpected hazard " << sim::to_string(g.first.kind) << " at "
                                        << sim::LineTable::describe(g.first.line_second);
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Properties, EveryAlgorithm, ::testing::ValuesIn(builtin_algorithm_names()), algorithm_test_name);

// Large runs go through the parallel path and the level recursion.
TEST(Properties, HierarchicalScanOfAQuarterMillion) {
  const RunResult r = run_algorithm({.algorithm = "hierarchical-scan", .n = 250'000, .tpb = 32, .dtype = "int32",
                                     .input = "random:5"});
  EXPECT_TRUE(r.comparison.match);
  // 250000 -> 7813 -> 245 -> 8 -> 1 block sums: four scan launches, then three add launches.
  EXPECT_EQ(r.sim.trace.launches.size(), 7u);
}

TEST(Properties, FloatScanStaysWithinTolerance) {
  const RunResult r = run_algorithm({.algorithm = "hierarchical-scan", .n = 1 << 18, .tpb = 256, .dtype = "float32",
                                     .input = "random:11"});
  EXPECT_TRUE(r.comparison.match) << r.comparison.relative_error;
  EXPECT_LT(r.comparison.relative_error, 1e-5);
}

}  // namespace
}  // namespace syncscope::test
