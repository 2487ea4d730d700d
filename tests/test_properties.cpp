// Property tests: random sizes, block sizes, element types and inputs, every algorithm, every
// schedule, against the independent CPU reference.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <fstream>
#include <random>

#include "sim/splitmix64.h"
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

// Float addition is not associative, so the scan's tree order gives other roundings than the
// sequential sum; what bounds them is the classic analysis (Higham, "Accuracy and Stability of
// Numerical Algorithms", 4.2): an element computed by k float additions is within k·u·Σ|x_j| of
// the exact prefix sum (u = 2^-24). Each element of this scan passes through at most
// 2·log2(TPB) additions a level and one more for the level's offset, three levels here; the bound is
// checked element by element against the CPU reference (in double), not with the product's own
// tolerance.
TEST(Properties, FloatScanStaysWithinTheRoundingBoundOfItsAdditions) {
  const int n = 1 << 18, tpb = 256;
  // Values with all 24 bits of a float's fraction (random:SEED gives quarters, whose sums are exact
  // in float up to 2^22 and would round nothing).
  const std::string path = ::testing::TempDir() + "float_scan_input.txt";
  {
    std::ofstream file(path);
    file.precision(17);
    uint64_t state = 11;
    for (int i = 0; i < n; ++i) file << std::ldexp(static_cast<double>(sim::splitmix64(state) >> 40), -24) << "\n";
  }
  const RunResult r = run_algorithm({.algorithm = "hierarchical-scan", .n = n, .tpb = tpb, .dtype = "float32",
                                     .input = "@" + path});
  ASSERT_FALSE(r.sim.trace.error);
  const std::vector<uint32_t>& bits = r.sim.output_bits;
  ASSERT_EQ(bits.size(), static_cast<size_t>(n));
  ASSERT_EQ(r.expected.size(), static_cast<size_t>(n));
  const double u = std::ldexp(1.0, -24);
  const int levels = static_cast<int>(std::ceil(std::log2(n) / std::log2(tpb)));  // 2^18 -> 1024 -> 4 -> 1
  const double additions = levels * (2.0 * std::log2(tpb) + 1);  // the in-block tree, then the level's offset
  double magnitude = 0;  // Σ|x_j| up to and including element i: bounds inclusive and exclusive sums
  int worst = -1;
  double worst_ratio = 0;
  for (int i = 0; i < n; ++i) {
    magnitude += std::abs(r.input[i]);
    const double error = std::abs(static_cast<double>(std::bit_cast<float>(bits[i])) - r.expected[i]);
    const double ratio = error / (additions * u * magnitude);
    if (ratio > worst_ratio) worst_ratio = ratio, worst = i;
  }
  EXPECT_LE(worst_ratio, 1.0) << "element " << worst << " is beyond k*u*sum|x| by a factor " << worst_ratio;
  // Rounding happened (the check is not vacuous): the float scan is not the exact sums.
  EXPECT_GT(worst_ratio, 0.0);
}

}  // namespace
}  // namespace syncscope::test
