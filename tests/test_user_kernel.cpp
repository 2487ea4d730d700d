// A kernel added by a user (tests/user_kernels/block_max.h, one header and one list line) runs
// through the same registry, run pipeline and CPU-reference comparison as the built-in ones.
#include <gtest/gtest.h>

#include <random>

#include "tests/test_util.h"
#include "tests/user_kernels/list.h"

namespace syncscope::test {
namespace {

using user::user_registry;

TEST(UserKernel, IsRegisteredWithItsDescription) {
  const AlgorithmEntry* e = user_registry().find("block-max");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->info.group, "reductions");
  EXPECT_EQ(e->info.defaults.tpb, 8);
}

TEST(UserKernel, DefaultRunMatchesItsReference) {
  const RunResult r = run_algorithm({.algorithm = "block-max"}, user_registry());
  EXPECT_EQ(output_text(r), (Strings{"7", "15"}));
  EXPECT_TRUE(r.comparison.match);
  EXPECT_TRUE(r.sim.trace.hazards.empty());
  // Its steps are recorded like any kernel's: load, then a read and a write step per stride.
  EXPECT_EQ(r.sim.trace.launches.at(0).steps, 1 + 2 * 3 + 1);
}

TEST(UserKernel, RandomConfigurationsMatch) {
  std::mt19937 rng(7);
  for (int k = 0; k < 30; ++k) {
    RunOptions o{.algorithm = "block-max"};
    o.n = std::uniform_int_distribution<int>(1, 4000)(rng);
    o.tpb = std::uniform_int_distribution<int>(1, 300)(rng);
    o.input = "random:" + std::to_string(k);
    o.dtype = k % 2 ? "int32" : "float32";
    for (const char* s : {"lockstep", "reverse"}) {
      o.schedule = s;
      const RunResult r = run_algorithm(o, user_registry());
      EXPECT_TRUE(r.comparison.match) << r.config.describe();
      EXPECT_TRUE(r.sim.trace.hazards.empty()) << r.config.describe();
    }
  }
}

}  // namespace
}  // namespace syncscope::test
