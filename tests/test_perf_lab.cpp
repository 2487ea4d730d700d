// The performance lab: the ladders' rungs are correct kernels (against the CPU reference, under
// every schedule and with no hazard), the simulator's warp metrics (bank conflicts, divergence)
// match hand counts, and `syncscope perf` reads and writes its JSON and refuses bad options.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/cli/cli.h"
#include "app/cli/perf_command.h"
#include "core/cuda/gpu_runner.h"
#include "kernels/ladders.h"
#include "kernels/scan_ladder.h"
#include "core/perf_json.h"
#include "sim/describe.h"
#include "sim/warp_instructions.h"
#include "tests/test_util.h"

namespace syncscope::test {
namespace {

std::string describe_hazards(const RunResult& r) {
  std::string s;
  for (const auto& g : r.sim.trace.hazards.groups()) s += sim::describe_hazard(g, r.sim.trace) + "\n";
  return s;
}

RunResult lockstep(const std::string& algorithm, int n, int tpb) {
  return run_algorithm({.algorithm = algorithm, .n = n, .tpb = tpb, .dtype = "int32", .input = "random:5",
                        .schedule = "lockstep"});
}

// The worst conflict degree of each step of the first launch's block 0.
std::vector<int> worst_degree_per_step(const RunResult& r) {
  EXPECT_FALSE(r.sim.trace.error) << r.sim.trace.error->message;
  const sim::WarpMetrics m = sim::warp_metrics(r.sim.trace.launches.at(0).blocks.at(0), r.sim.trace, 0);
  EXPECT_TRUE(m.available);
  return m.worst_degree_per_step;
}

// Harris #2: at stride s thread t touches words 2st and 2st + s. Warp 0's lanes are 2s words apart,
// so with L = min(32, TPB/2s) working lanes a bank gets L·2s/32 of them while 2s <= 32, and all L
// once 2s >= 32 (every word a multiple of 32). Step 0 is the load (no conflict); step k is stride
// 2^(k-1); the last step is thread 0's store.
TEST(BankConflicts, HarrisInterleavedStridedIndexAtTpb64IsTwoWayAtEveryStride) {
  const std::vector<int> worst = worst_degree_per_step(lockstep("reduce-2-strided-index", 64, 64));
  ASSERT_GE(worst.size(), 7u);
  EXPECT_EQ(worst[0], 1);  // the load: s[t], one word per bank
  // strides 1, 2, 4, 8, 16, 32: 32, 16, 8, 4, 2, 1 lanes, always two of them in a bank but the last
  EXPECT_EQ(std::vector<int>(worst.begin() + 1, worst.begin() + 7), (std::vector<int>{2, 2, 2, 2, 2, 1}));
}

TEST(BankConflicts, HarrisInterleavedStridedIndexGrowsWithTheStrideAtTpb1024) {
  const std::vector<int> worst = worst_degree_per_step(lockstep("reduce-2-strided-index", 1024, 1024));
  ASSERT_GE(worst.size(), 11u);
  // strides 1..16: 2s-way (32 lanes, 2s words apart); 32..512: as many lanes as work, all in bank 0
  EXPECT_EQ(std::vector<int>(worst.begin() + 1, worst.begin() + 11),
            (std::vector<int>{2, 4, 8, 16, 32, 16, 8, 4, 2, 1}));
}

TEST(BankConflicts, AtTpb128StrideTwoIsFourWay) {
  const std::vector<int> worst = worst_degree_per_step(lockstep("reduce-2-strided-index", 128, 128));
  ASSERT_GE(worst.size(), 3u);
  EXPECT_EQ(worst[1], 2);  // stride 1: words 0, 2, ..., 62
  EXPECT_EQ(worst[2], 4);  // stride 2: words 0, 4, ..., 124: banks 0, 4, ..., 28, four words each
}

// "None" must mean accesses without conflict, not no accesses seen: every step of the tree has
// its warp instructions (degree 1), and the same measurement finds rung 2's conflicts at that TPB.
TEST(BankConflicts, SequentialAddressingHasNone) {
  for (int tpb : {64, 256, 1024}) {
    const std::vector<int> worst = worst_degree_per_step(lockstep("reduce-3-sequential", tpb, tpb));
    const size_t tree_steps = std::bit_width(static_cast<unsigned>(tpb)) - 1;  // log2(TPB) halvings
    ASSERT_GE(worst.size(), tree_steps + 1) << "TPB " << tpb;
    for (size_t s = 0; s <= tree_steps; ++s) EXPECT_EQ(worst[s], 1) << "TPB " << tpb << " step " << s;
    const std::vector<int> strided = worst_degree_per_step(lockstep("reduce-2-strided-index", tpb, tpb));
    EXPECT_GT(*std::max_element(strided.begin(), strided.end()), 1) << "TPB " << tpb;
  }
}

TEST(BankConflicts, PaddedBrentKungHasNone) {
  for (int tpb : {32, 64, 256, 512, 1024}) {
    const RunResult r = lockstep("scan-2-brent-kung", 2 * tpb, tpb);
    EXPECT_TRUE(r.comparison.match);
    const std::vector<int> worst = worst_degree_per_step(r);
    ASSERT_GT(worst.size(), 4u);
    for (size_t s = 0; s < worst.size(); ++s) EXPECT_LE(worst[s], 1) << "TPB " << tpb << " step " << s;
  }
}

TEST(BankConflicts, ReadersOfOneWordShareIt) {
  // reduce-9's last block: every lane of warp 0 reads warp_sums[lane], and thread 0 alone reads
  // last_block[0] — one word, so never a conflict; a broadcast is not counted as one either.
  const std::vector<int> worst = worst_degree_per_step(lockstep("reduce-9-single-pass", 4096, 256));
  ASSERT_FALSE(worst.empty());
  for (int d : worst) EXPECT_LE(d, 1);
  // The broadcasts were seen as accesses (degree 1), not missed (no step without shared accesses
  // would give 0 and still pass the bound above).
  EXPECT_EQ(*std::max_element(worst.begin(), worst.end()), 1);
}

TEST(Divergence, InterleavedDivergesAndSequentialOnlyBelowAWarp) {
  auto divergent = [](const std::string& algorithm) {
    const RunResult r = lockstep(algorithm, 256, 256);
    return sim::warp_metrics(r.sim.trace.launches.at(0).blocks.at(0), r.sim.trace, 0);
  };
  const sim::WarpMetrics interleaved = divergent("reduce-1-interleaved");
  const sim::WarpMetrics strided = divergent("reduce-2-strided-index");
  const sim::WarpMetrics sequential = divergent("reduce-3-sequential");
  // Rung 1: at stride 1 every warp runs the add with half its lanes (8 warps x 3 accesses),
  // and so on down; rung 2 packs the working lanes, so only the last strides diverge.
  EXPECT_GT(interleaved.divergent, strided.divergent);
  EXPECT_GE(interleaved.divergent, 8u * 3 * 5);  // strides 1..16: all 8 warps, 3 accesses each
  EXPECT_EQ(strided.divergent, sequential.divergent);  // both diverge only with < 32 working lanes
  EXPECT_GT(sequential.divergent, 0u);
}

TEST(WarpMetrics, OtherSchedulesHaveNoWarpInstructions) {
  const RunResult r = run_algorithm({.algorithm = "reduce-2-strided-index", .n = 64, .tpb = 64, .schedule = "forward"});
  EXPECT_FALSE(sim::warp_metrics(r.sim.trace.launches.at(0).blocks.at(0), r.sim.trace, 0).available);
}

// Every rung, both element types, several sizes and block sizes: the CPU reference's answer and no
// hazard, under lockstep and a random schedule.
TEST(Ladders, EveryRungIsCorrectAndRaceFree) {
  for (const Rung& rung : kLadderRungs) {
    for (const char* dtype : {"int32", "float32"})
      for (const auto& [n, tpb] : std::vector<std::pair<int, int>>{{1, 64}, {100, 64}, {5003, 64}, {20000, 256}, {70000, 1024}})
        for (const char* schedule : {"lockstep", "random:3"}) {
          const RunResult r = run_algorithm({.algorithm = std::string(rung.algorithm), .n = n, .tpb = tpb,
                                             .dtype = dtype, .input = "random:11", .schedule = schedule});
          SCOPED_TRACE(r.config.describe());
          EXPECT_FALSE(r.sim.trace.error);
          EXPECT_TRUE(r.comparison.match);
          EXPECT_TRUE(r.sim.trace.hazards.empty()) << describe_hazards(r);
        }
  }
}

// From 2^22 elements the look-back takes tiles of 32 elements a thread (lookback_shape): the
// other kernel of the rung, which the sizes above never reach.
TEST(Ladders, TheLookbacksLargeTilesAreCorrectAndRaceFree) {
  ASSERT_EQ(kernels::lookback_shape((1 << 22) + 3).chunks, 8);
  ASSERT_EQ(kernels::lookback_shape((1 << 22) - 1).chunks, 4);
  const RunResult r = run_algorithm({.algorithm = "scan-4-decoupled-lookback", .n = (1 << 22) + 3, .tpb = 512,
                                     .dtype = "int32", .input = "random:11", .schedule = "lockstep"});
  EXPECT_FALSE(r.sim.trace.error);
  EXPECT_TRUE(r.comparison.match);
  EXPECT_TRUE(r.sim.trace.hazards.empty()) << describe_hazards(r);
  EXPECT_EQ(r.sim.trace.launches.at(0).grid.count(), 257);  // ceil((2^22 + 3) / (512 · 32))
}

TEST(Ladders, EveryRungIsABuiltInAlgorithmWithItsPerfBlockSizeAccepted) {
  for (const Rung& rung : kLadderRungs) {
    const AlgorithmEntry* e = builtin_registry().find(rung.algorithm);
    ASSERT_NE(e, nullptr) << rung.algorithm;
    Problem p = e->info.defaults;
    p.n = 1 << 20;
    p.tpb = rung.perf_tpb;
    const CheckResult refused = e->check(p);
    EXPECT_FALSE(refused) << rung.algorithm << ": " << (refused ? refused->why : "");
  }
}

// A rung's tiles or grid-stride loop launch fewer blocks than n/TPB: the count shown and the range
// `--block` accepts are the first launch's real grid, the one the trace has.
TEST(Ladders, TheBlockCountIsTheFirstLaunchsGrid) {
  for (const Rung& rung : kLadderRungs)
    for (const auto& [n, tpb] : std::vector<std::pair<int, int>>{{4096, 64}, {70000, 256}}) {
      RunOptions o;
      o.algorithm = std::string(rung.algorithm);
      o.n = n;
      o.tpb = tpb;
      const auto resolved = resolve(builtin_registry(), o);
      ASSERT_TRUE(std::holds_alternative<RunConfig>(resolved)) << std::get<ConfigError>(resolved).text();
      const RunConfig& config = std::get<RunConfig>(resolved);
      const RunResult r = run_algorithm({.algorithm = o.algorithm, .n = n, .tpb = tpb});
      EXPECT_EQ(config.blocks(), r.sim.trace.launches.at(0).grid.count()) << rung.algorithm << " n=" << n;
    }
  RunOptions o;
  o.algorithm = "scan-4-decoupled-lookback";
  o.n = 4096;
  o.tpb = 32;
  o.blocks = {8};  // tiles of 16·32 elements (below 2^22): blocks 0..7
  const auto resolved = resolve(builtin_registry(), o);
  ASSERT_TRUE(std::holds_alternative<ConfigError>(resolved));
  EXPECT_EQ(std::get<ConfigError>(resolved).text(), "--block 8: the first launch has 8 blocks (0..7)");
}

int cli(std::vector<std::string> args, std::string& out, std::string& err) {
  std::ostringstream o, e;
  const int code = cli::run_cli(args, o, e);
  out = o.str();
  err = e.str();
  return code;
}

TEST(PerfCli, BadOptionsNameTheOptionTheValueAndTheLimit) {
  std::string out, err;
  EXPECT_EQ(cli({"perf", "--sizes", "9..30"}, out, err), 2);
  EXPECT_NE(err.find("--sizes 9..30"), std::string::npos) << err;
  EXPECT_NE(err.find("10..28"), std::string::npos) << err;
  EXPECT_EQ(cli({"perf", "--runs", "5"}, out, err), 2);
  EXPECT_NE(err.find("--runs 5"), std::string::npos) << err;
  EXPECT_EQ(cli({"perf", "--dtype", "double"}, out, err), 2);
  EXPECT_NE(err.find("--dtype double"), std::string::npos) << err;
  EXPECT_EQ(cli({"perf", "--only", "reduce-99"}, out, err), 2);
  EXPECT_NE(err.find("reduce-99"), std::string::npos) << err;
  EXPECT_EQ(cli({"perf", "--show", "/nonexistent/perf.json"}, out, err), 2);
  EXPECT_NE(err.find("/nonexistent/perf.json"), std::string::npos) << err;
}

TEST(PerfCli, CheckingTheOptionsTimesNothingAndReadsNothing) {
  // The fuzzing target's stage: `perf` alone once exited 3 there (no GPU) and would have timed a GPU.
  std::ostringstream out, err;
  EXPECT_EQ(cli::run_cli({"perf"}, out, err, cli::CliStage::CheckOnly), 0) << err.str();
  EXPECT_EQ(cli::run_cli({"perf", "--show", "/dev/zero"}, out, err, cli::CliStage::CheckOnly), 0) << err.str();
  EXPECT_EQ(cli::run_cli({"perf", "--runs", "5"}, out, err, cli::CliStage::CheckOnly), 2);
}

TEST(PerfCli, WithoutAGpuItSaysWhyAndWhereTheSavedResultsAre) {
  if (gpu_status().usable) GTEST_SKIP() << "this machine has a GPU: perf would time it";
  std::string out, err;
  EXPECT_EQ(cli({"perf", "--sizes", "16"}, out, err), cli::kExitNoGpu);
  EXPECT_NE(err.find("no usable GPU"), std::string::npos) << err;
  EXPECT_NE(err.find("assets/perf/"), std::string::npos) << err;
}

TEST(PerfJson, RoundTripsAndShowPrintsEveryRung) {
  PerfReport r;
  r.device = "Test GPU";
  r.date = "2026-11-23";
  r.runs = 25;
  r.warmup = 3;
  for (long long n : {1ll << 16, 1ll << 20}) {
    r.baselines.push_back({"baseline", "copy", n, DType::Int32, 0, 0.1, 2000, true, ""});
    r.baselines.push_back({"baseline", "cub-scan", n, DType::Int32, 0, 0.1, 1600, true, ""});
    r.baselines.push_back({"baseline", "cub-reduce", n, DType::Int32, 0, 0.1, 1900, true, ""});
    for (const Rung& rung : kLadderRungs)
      r.rungs.push_back({std::string(rung.ladder), std::string(rung.algorithm), n, DType::Int32, rung.perf_tpb, 0.2,
                         800, true, ""});
  }
  const nlohmann::json j = perf_json(r);
  EXPECT_EQ(j["copy_gbps"], 2000);
  EXPECT_EQ(j["cub"]["scan_gbps"], 1600);
  EXPECT_EQ(j["rungs"].size(), 2 * kLadderRungs.size());
  std::string why;
  const std::optional<PerfReport> back = perf_from_json(j, &why);
  ASSERT_TRUE(back) << why;
  EXPECT_EQ(back->rungs.size(), r.rungs.size());
  EXPECT_EQ(back->baselines.size(), r.baselines.size());
  EXPECT_EQ(back->runs, 25);
  EXPECT_EQ(back->warmup, 3);  // --show once said "after 0 warm-up" for every saved file
  std::ostringstream text;
  cli::print_perf(text, *back);
  for (const Rung& rung : kLadderRungs) EXPECT_NE(text.str().find(std::string(rung.algorithm)), std::string::npos);
  EXPECT_NE(text.str().find("40 % of copy"), std::string::npos) << text.str();  // 800 of 2000
  EXPECT_NE(text.str().find("50 % of CUB"), std::string::npos) << text.str();   // a scan rung: 800 of 1600
}

TEST(PerfJson, ABrokenFileIsNamedWithWhatIsWrong) {
  std::string why;
  EXPECT_FALSE(perf_from_json(nlohmann::json::parse(R"({"device": "x", "date": "y"})"), &why));
  EXPECT_NE(why.find("'rungs' is missing"), std::string::npos) << why;
  EXPECT_FALSE(perf_from_json(nlohmann::json::parse(R"({"device": "x", "date": "y", "rungs": [{"name": "a"}]})"), &why));
  EXPECT_NE(why.find("rungs[0]"), std::string::npos) << why;
}

TEST(PerfJson, TheShippedResultsLoad) {
  const std::string dir = std::string(SYNCSCOPE_SOURCE_DIR) + "/assets/perf";
  int loaded = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".json") continue;
    std::ifstream in(entry.path());
    std::string why;
    const std::optional<PerfReport> r = perf_from_json(nlohmann::json::parse(in), &why);
    ASSERT_TRUE(r) << entry.path() << ": " << why;
    EXPECT_FALSE(r->rungs.empty());
    for (const PerfPoint& p : r->rungs) EXPECT_TRUE(p.correct) << p.name << " n=" << p.n;
    ++loaded;
  }
  EXPECT_GE(loaded, 1);
}

}  // namespace
}  // namespace syncscope::test
