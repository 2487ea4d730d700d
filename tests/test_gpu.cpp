// GPU fidelity: the same kernel source on the real GPU must give bit for bit what the simulator
// gives, and match the CPU reference (exactly for int32; ‖out−ref‖/‖ref‖ < 1e-5 for float32).
// Without a usable GPU every test is skipped with the driver's reason.
#include <gtest/gtest.h>

#include <iostream>
#include <random>

#include "app/state/gpu_child.h"
#include "app/state/session.h"
#include "app/state/workers.h"
#include "app/view/results_model.h"
#include "core/cuda_program.h"
#include "core/cuda/gpu_runner.h"
#include "tests/test_util.h"
#include "tests/user_kernels/list.h"

namespace syncscope::user {
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
  // Float sums in an order the GPU's timing picks (look-back) match the reference, not every bit.
  const bool order_by_timing =
      r.config.algorithm->info.float_order_depends_on_timing && r.config.problem.dtype == DType::Float32;
  EXPECT_TRUE(bits.identical || order_by_timing) << bits.differing << " elements differ from the simulator, first at "
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
    const RunResult r = run_algorithm(random_options(*algo, rng, k % 20 == 0 ? 3e5 : 2e4, 200, 2000));
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
  const Registry& registry = user::user_registry();
  std::mt19937 rng(3);
  for (int k = 0; k < 50; ++k) {
    RunOptions o{.algorithm = "block-max"};
    o.n = std::uniform_int_distribution<int>(1, 50000)(rng);
    o.tpb = std::uniform_int_distribution<int>(1, 1024)(rng);
    o.dtype = k % 2 ? "float32" : "int32";
    o.input = "random:" + std::to_string(k);
    const RunResult r = run_algorithm(o, registry);
    expect_gpu_equals_simulator(r, user::run_user_algorithm_on_gpu("block-max", r.config.problem, r.input));
  }
}

// The app's Run on GPU for a student's .cu program: the same file compiled by nvcc, its main() run
// in a child, its copies to the host byte for byte the simulator's. The corpus is at
// $SYNCSCOPE_CUDA_CORPUS with its translations in the kernel cache (scripts/device-cuda-check.sh
// makes both on the GPU machine; it has no Clang to translate).
TEST(Gpu, TheAppRunsAStudentsProgramOnTheGpuAndComparesItsCopies) {
  SKIP_WITHOUT_GPU();
  const char* corpus = std::getenv("SYNCSCOPE_CUDA_CORPUS");
  if (!corpus || !*corpus) GTEST_SKIP() << "SYNCSCOPE_CUDA_CORPUS is not set (scripts/device-cuda-check.sh sets it)";
  auto loaded = load_cuda_program(std::string(corpus) + "/kogge_stone_scan.cu");
  if (auto* e = std::get_if<KernelFileError>(&loaded)) FAIL() << e->message;
  Registry registry;
  ASSERT_EQ(registry.add(std::get<KernelFile>(loaded).entry), "");
  const auto run = std::make_shared<const RunResult>(
      run_algorithm({.algorithm = std::get<KernelFile>(loaded).entry.info.name}, registry));
  const app::GpuAnswer answer = app::run_gpu_job(run, syncscope_executable());
  ASSERT_TRUE(answer.program.has_value());
  ASSERT_TRUE(answer.program->ran) << answer.program->error;
  EXPECT_EQ(answer.program->main_returned, 0);
  EXPECT_TRUE(answer.copies.identical) << answer.copies.difference;
  const app::ResultsModel m = app::build_results(*run, &answer, false, &answer.status);
  EXPECT_EQ(m.gpu_verdict, "GPU = simulator: every copy to the host, byte for byte");
  std::cout << "[ program ] " << m.gpu_status << "; " << m.gpu_verdict << "\n";
}

// The starter kernel files (atomics, shuffles with masks, votes) and the active_mask probe: the GPU
// gives what the simulator gives, bit for bit.
TEST(Gpu, StarterKernelsAtomicsAndVotes) {
  SKIP_WITHOUT_GPU();
  std::mt19937 rng(5);
  for (const char* algo : {"atomic-reduce", "brent-kung-scan", "warp-vote"}) {
    int compared = 0;
    for (int k = 0; k < 50; ++k) {
      RunOptions o{.algorithm = algo};
      o.n = std::uniform_int_distribution<int>(1, 50000)(rng);
      o.tpb = std::string(algo) == "brent-kung-scan" ? 1 << std::uniform_int_distribution<int>(0, 10)(rng)
                                                     : std::uniform_int_distribution<int>(1, 1024)(rng);
      o.dtype = k % 2 ? "float32" : "int32";
      o.input = "random:" + std::to_string(k);
      const RunResult r = run_algorithm(o, user::starter_registry());
      expect_gpu_equals_simulator(r, user::run_user_algorithm_on_gpu(algo, r.config.problem, r.input));
      if (HasFailure()) break;
      ++compared;
    }
    std::cout << "[ compared ] " << algo << ": " << compared << " configurations\n";
  }
  for (int tpb : {1, 7, 32, 40, 64, 100, 1024}) {
    const RunResult r = run_algorithm({.algorithm = "active-mask-probe", .n = 3000, .tpb = tpb}, user::probe_registry());
    expect_gpu_equals_simulator(r, user::run_user_algorithm_on_gpu("active-mask-probe", r.config.problem, r.input));
  }
}

// The seed's as-written axis sum reads up to blockDim.x / 2 cells past its shared array; on an
// H100 that faults from TPB 32 on ("an illegal memory access was encountered") and the process's
// CUDA context is gone for good. In-process, later runs must say so; the app's child process must
// keep the app's own GPU working.
TEST(Gpu, AFaultingKernelCostsOnlyItsOwnProcess) {
  SKIP_WITHOUT_GPU();
  const RunResult bad = run_algorithm({.algorithm = "axis-sum", .n = 1022, .rows = 4, .tpb = 1024, .bug = "as-written"});
  const RunResult good = run_algorithm({.algorithm = "kogge-stone", .n = 5000, .tpb = 256});

  const auto in_child = app::run_on_gpu_in_child(syncscope_executable(), bad.config, bad.input, 3);
  ASSERT_EQ(in_child.size(), 1u);
  EXPECT_EQ(in_child[0].error, "kernel execution: an illegal memory access was encountered");
  const auto next_child = app::run_on_gpu_in_child(syncscope_executable(), good.config, good.input, 1);
  ASSERT_EQ(next_child.size(), 1u);
  expect_gpu_equals_simulator(good, next_child[0]);
  expect_gpu_equals_simulator(good, run_on_gpu("kogge-stone", good.config.problem, good.input));
}

// The class scenario: the teacher picks the seed's as-written bug at TPB 64 (the GPU comparison
// runs by itself and faults), asks for 20 GPU runs, then goes back to the correct kernel; the app's
// GPU still works.
TEST(Gpu, TheAppKeepsItsGpuAfterTheClassRunsAFaultingBug) {
  SKIP_WITHOUT_GPU();
  app::AppState state;
  app::Session session(state, builtin_registry(), syncscope_executable());
  app::ControlsForm form = app::ControlsForm{}.with_algorithm(*builtin_registry().find("axis-sum"));
  form.tpb = 64;
  form.n = 62;
  form.bug = "as-written";
  session.edit(form);
  session.settle();
  ASSERT_NE(session.gpu(), nullptr);
  EXPECT_FALSE(session.gpu()->gpu.ok);
  EXPECT_EQ(session.gpu()->gpu.error, "kernel execution: an illegal memory access was encountered");
  session.run_gpu_outcomes(20);
  session.settle();
  ASSERT_NE(session.gpu_outcomes(), nullptr);
  EXPECT_EQ(gpu_verdict(*session.gpu_outcomes(), state.run()->config),
            "GPU run failed after 0 good runs: kernel execution: an illegal memory access was encountered");

  form.bug = "none";
  session.edit(form);
  session.settle();
  ASSERT_NE(session.gpu(), nullptr);
  expect_gpu_equals_simulator(*state.run(), session.gpu()->gpu);
  session.run_gpu_outcomes(20);
  session.settle();
  ASSERT_NE(session.gpu_outcomes(), nullptr);
  EXPECT_EQ(gpu_verdict(*session.gpu_outcomes(), state.run()->config), "GPU: correct 20/20");
}

// In a process of its own (a re-executed test binary; a forked copy could not use CUDA): the
// fault, then a run that must explain why it cannot run.
TEST(GpuDeathTest, AfterAFaultInProcessRunsSayWhy) {
  SKIP_WITHOUT_GPU();
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        const RunResult bad =
            run_algorithm({.algorithm = "axis-sum", .n = 1022, .rows = 4, .tpb = 1024, .bug = "as-written"});
        const RunResult good = run_algorithm({.algorithm = "kogge-stone", .n = 5000, .tpb = 256});
        const GpuRun faulty = run_on_gpu("axis-sum", bad.config.problem, bad.input);
        const GpuRun after = run_on_gpu("kogge-stone", good.config.problem, good.input);
        std::cerr << "faulty: " << faulty.error << "\nafter: " << after.error << "\n";
        std::exit(faulty.ok || after.ok ? 1 : 0);
      },
      ::testing::ExitedWithCode(0),
      "faulty: kernel execution: an illegal memory access was encountered\n"
      "after: the GPU is unusable in this process since an earlier kernel faulted \\(kernel execution: an illegal "
      "memory access was encountered\\); a new process can use it");
}

TEST(Gpu, StatusExplainsItself) {
  const GpuStatus& s = gpu_status();
  if (s.usable) EXPECT_FALSE(s.device.empty());
  else EXPECT_FALSE(s.reason.empty());
}

}  // namespace
}  // namespace syncscope::test
