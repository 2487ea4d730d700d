// GPU fidelity: the same kernel source on the real GPU must give bit for bit what the simulator
// gives, and match the CPU reference (exactly for int32; ‖out−ref‖/‖ref‖ < 1e-5 for float32).
// Without a usable GPU every test is skipped with the driver's reason.
#include <gtest/gtest.h>

#include <iostream>
#include <random>

#include "kernels/cuda/gpu_runner.h"
#include "tests/test_util.h"
#include "tests/user_kernels/list.h"

namespace syncscope::user {
GpuRun run_block_max_on_gpu(const Problem& p, const std::vector<double>& input);
}

namespace syncscope::test {
namespace {

constexpr int kConfigsPerAlgorithm = 200;

#define SKIP_WITHOUT_GPU()                                                         \
  if (!gpu_status().usable) GTEST_SKIP() << "no usable GPU: " << gpu_status().reason

void expect_gpu_equals_simulator(const RunResult& r, const GpuRun& gpu) {
  SCOPED_TRACE(r.config.describe());
  ASSERT_TRUE(gpu.ok) << gpu.error;
  const BitComparison bits = compare_bits(r.sim.output_bits, gpu.output_bits, r.sim.output_poison);
  EXPECT_TRUE(bits.identical) << bits.differing << " elements differ from the simulator, first at "
                              << (bits.differing_indices.empty() ? -1 : bits.differing_indices[0]);
  const Comparison ref = compare_with_reference(r.config.problem.dtype, gpu.output_bits,
                                                std::vector<uint8_t>(gpu.output_bits.size(), 0), r.expected);
  EXPECT_TRUE(ref.match) << "relative error " << ref.relative_error;
  EXPECT_TRUE(r.comparison.match);
}

class GpuFidelity : public ::testing::TestWithParam<std::string> {};

TEST_P(GpuFidelity, BitIdenticalToTheSimulatorOnRandomConfigurations) {
  SKIP_WITHOUT_GPU();
  const AlgorithmEntry* algo = builtin_registry().find(GetParam());
  ASSERT_NE(algo, nullptr);
  std::mt19937 rng(std::hash<std::string>{}(GetParam()) & 0xffffffff);
  int compared = 0;
  long long elements = 0;
  for (int k = 0; k < kConfigsPerAlgorithm; ++k) {
    const RunResult r = run_algorithm(random_options(algo->info, rng, k % 20 == 0 ? 3e5 : 2e4, 200, 2000));
    ++compared;
    elements += r.config.problem.input_count();
    expect_gpu_equals_simulator(r, run_on_gpu(GetParam(), r.config.problem, r.input));
    if (HasFailure()) break;
  }
  std::cout << "[ compared ] " << GetParam() << ": " << compared << " configurations, " << elements << " elements\n";
}

INSTANTIATE_TEST_SUITE_P(Gpu, GpuFidelity, ::testing::ValuesIn(builtin_algorithm_names()), algorithm_test_name);

TEST(Gpu, SeedConfigurationsGiveTheSeedsOutputs) {
  SKIP_WITHOUT_GPU();
  for (const char* algo : {"kogge-stone", "two-phase-scan", "hierarchical-scan", "block-exclusive-sum", "axis-sum"}) {
    const RunResult r = run_algorithm({.algorithm = algo});
    expect_gpu_equals_simulator(r, run_on_gpu(algo, r.config.problem, r.input));
  }
}

TEST(Gpu, UserKernel) {
  SKIP_WITHOUT_GPU();
  static const Registry registry = Registry::of(user::UserAlgorithms{});
  std::mt19937 rng(3);
  for (int k = 0; k < 50; ++k) {
    RunOptions o{.algorithm = "block-max"};
    o.n = std::uniform_int_distribution<int>(1, 50000)(rng);
    o.tpb = std::uniform_int_distribution<int>(1, 1024)(rng);
    o.dtype = k % 2 ? "float32" : "int32";
    o.input = "random:" + std::to_string(k);
    const RunResult r = run_algorithm(o, registry);
    expect_gpu_equals_simulator(r, user::run_block_max_on_gpu(r.config.problem, r.input));
  }
}

TEST(Gpu, StatusExplainsItself) {
  const GpuStatus& s = gpu_status();
  if (s.usable) EXPECT_FALSE(s.device.empty());
  else EXPECT_FALSE(s.reason.empty());
}

}  // namespace
}  // namespace syncscope::test
