// What `syncscope run` tells a student, checked against what the kernels do: a lost update is
// fixed with an atomic (not with a barrier, which still loses updates); the races one missing
// barrier causes are one group with one fix; every step of every shipped algorithm carries its
// caption in the JSON; bank conflicts and divergent warp instructions are in the text and JSON;
// threads of 2D blocks and arrays of two spaces are named so they can be told apart.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>
#include <sstream>

#include "app/cli/cli.h"
#include "app/cli/report.h"
#include "core/cuda/driver_presence.h"
#include "core/cuda/gpu_runner.h"
#include "kernels/algorithms.h"
#include "sim/describe.h"
#include "tests/test_util.h"

namespace syncscope::test {
namespace {

int kCountLine;

// Every thread adds 1 to bin t % 4 of a shared histogram: 16 threads a bin at TPB 64, in two warps.
// With a plain `+=` the threads of a bin read the same old count (a lost update); with atomic_add
// every count arrives.
template <bool Atomic>
struct Histogram {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array, Array y, int) const {
    using T = value_of<Array>;
    auto hist = shared_array<T>(c, 4, "hist");
    const int t = c.thread_idx().x;
    if (t < 4) hist[t] = T(0);
    c.sync();
    const int bin = t % 4;
    kCountLine = __LINE__ + 1;
    if constexpr (Atomic) c.atomic_add(hist[bin], T(1)); else hist[bin] += T(1);
    c.sync();
    if (t < 4) y[t] = hist[t];
  }
};

std::string here(int line) { return "tests/test_reports.cpp:" + std::to_string(line); }

bool is_race(const sim::HazardGroup& g) {
  return g.first.kind == sim::HazardKind::ReadAfterWrite || g.first.kind == sim::HazardKind::WriteAfterRead ||
         g.first.kind == sim::HazardKind::WriteAfterWrite;
}

TEST(Remedies, ALostUpdateIsFixedWithAnAtomicNotABarrier) {
  const KernelRun plain = run_kernel(Histogram<false>{}, Dim3{1}, Dim3{64}, shared_bytes_for(4), iota(64), 4);
  EXPECT_LT(plain.out[0], 16.0f) << "16 threads add into bin 0; a lost update loses some";
  const auto groups = plain.trace.hazards.groups();
  ASSERT_FALSE(groups.empty());
  const auto fixes = sim::diagnose(groups);
  ASSERT_EQ(fixes.size(), 1u) << "one statement, one remedy";
  EXPECT_TRUE(fixes[0].lost_update);
  EXPECT_NE(fixes[0].text.find("use an atomic at " + here(kCountLine) + " (c.atomic_add for a sum, c.atomic_max or c.atomic_min for a running maximum or minimum of integers; of floats, an atomicCAS loop)"), std::string::npos)
      << fixes[0].text;
  EXPECT_EQ(fixes[0].text.find("then a barrier"), std::string::npos) << fixes[0].text;
  // The fix answers every race report of that statement.
  size_t races = 0;
  for (const auto& g : groups) races += is_race(g) ? 1 : 0;
  EXPECT_EQ(fixes[0].reports.size(), races);

  // The remedy works: with the atomic, every count arrives and nothing races.
  const KernelRun atomic = run_kernel(Histogram<true>{}, Dim3{1}, Dim3{64}, shared_bytes_for(4), iota(64), 4);
  EXPECT_EQ(atomic.out, (std::vector<float>{16, 16, 16, 16}));
  EXPECT_TRUE(atomic.trace.hazards.empty());
}

// One warp's lanes adding into one bin lose updates in lockstep too: an error, not the warning a
// race within one warp gets (a per-warp sub-histogram's `s[x]++` printed FAIL under a warning).
TEST(Remedies, ALostUpdateWithinOneWarpIsAnError) {
  const KernelRun plain = run_kernel(Histogram<false>{}, Dim3{1}, Dim3{32}, shared_bytes_for(4), iota(32), 4);
  EXPECT_LT(plain.out[0], 8.0f) << "8 lanes add into bin 0; a lost update loses some";
  bool waw = false;
  for (const auto& g : plain.trace.hazards.groups())
    if (g.first.kind == sim::HazardKind::WriteAfterWrite) {
      waw = true;
      EXPECT_TRUE(g.first.same_warp);
      EXPECT_EQ(g.first.severity, sim::Severity::Error);
    }
  EXPECT_TRUE(waw) << "the lanes' writes of one bin were not reported";
  const auto fixes = sim::diagnose(plain.trace.hazards.groups());
  ASSERT_EQ(fixes.size(), 1u);
  EXPECT_TRUE(fixes[0].lost_update) << fixes[0].text;
}

TEST(Remedies, AnInPlaceScanIsNotALostUpdate) {
  // s[t] += s[t - offset]: each thread writes only its own cell, so the fix splits the statement.
  const RunResult r = run_algorithm({.algorithm = "kogge-stone", .n = 64, .tpb = 64, .bug = "in-place"});
  const auto fixes = sim::diagnose(r.sim.trace.hazards.groups());
  ASSERT_FALSE(fixes.empty());
  for (const auto& d : fixes) EXPECT_FALSE(d.lost_update) << d.text;
  EXPECT_TRUE(std::any_of(fixes.begin(), fixes.end(), [](const sim::Diagnosis& d) { return d.splits_statement; }));
}

int kDownSweepAddLine;

// A Blelloch down-sweep with the barrier of each level left out: `s[bi] += t` is a read-modify-write
// of one cell by one statement, but the threads that meet there take turns level by level.
struct DownSweepNoBarrier {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array x, Array y, int) const {
    using T = value_of<Array>;
    const int n = 2 * c.block_dim().x;
    auto s = shared_array<T>(c, n, "s");
    const int t = c.thread_idx().x;
    s[2 * t] = T(x[2 * t]);
    s[2 * t + 1] = T(x[2 * t + 1]);
    c.sync();
    for (int d = 1, offset = n / 2; d < n; d *= 2, offset /= 2)
      if (t < d) {
        const int ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
        const T old = s[ai];
        s[ai] = s[bi];
        kDownSweepAddLine = __LINE__ + 1;
        s[bi] += old;
      }
    c.sync();
    y[2 * t] = s[2 * t];
    y[2 * t + 1] = s[2 * t + 1];
  }
};

TEST(Remedies, ARoundOfADownSweepThatAMissingBarrierMergedIsNotALostUpdate) {
  const KernelRun r = run_kernel(DownSweepNoBarrier{}, Dim3{1}, Dim3{64}, shared_bytes_for(128), iota(128), 128);
  const auto groups = r.trace.hazards.groups();
  ASSERT_FALSE(groups.empty());
  bool add_races_itself = false;
  for (const auto& g : groups)
    add_races_itself |= g.first.kind == sim::HazardKind::WriteAfterWrite &&
                        sim::LineTable::get(g.first.line_first).line == static_cast<uint32_t>(kDownSweepAddLine) &&
                        g.first.line_first == g.first.line_second;
  ASSERT_TRUE(add_races_itself) << "the down-sweep's add no longer races with itself: the test shows nothing";
  // The same add racing with itself and nothing else is a lost update (ALostUpdateIsFixedWithAnAtomic...).
  for (const auto& d : sim::diagnose(groups)) {
    EXPECT_FALSE(d.lost_update) << d.text;
    EXPECT_EQ(d.text.find("atomic"), std::string::npos) << d.text;
  }
}

int kTreeAddLine, kOverlapLine;

// Harris's tree reduction with the barrier of its loop left out: one statement's runs race across
// rounds, which a barrier at the end of each round orders (splitting the statement would not).
struct TreeReduceNoBarrier {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array x, Array y, int) const {
    using T = value_of<Array>;
    auto s = shared_array<T>(c, c.block_dim().x, "s");
    const int t = c.thread_idx().x;
    s[t] = T(x[t]);
    c.sync();
    for (int d = c.block_dim().x / 2; d > 0; d /= 2) {
      kTreeAddLine = __LINE__ + 1;
      if (t < d) s[t] = s[t] + s[t + d];
    }
    c.sync();
    if (t == 0) y[0] = s[0];
  }
};

TEST(Remedies, AReductionLoopsStatementRacingAcrossRoundsIsToldOfABarrierAfterIt) {
  const KernelRun r = run_kernel(TreeReduceNoBarrier{}, Dim3{1}, Dim3{64}, shared_bytes_for(64), iota(64), 1);
  bool said = false;
  for (const auto& d : sim::diagnose(r.trace.hazards.groups()))
    if (sim::LineTable::get(d.first).line == static_cast<uint32_t>(kTreeAddLine) && d.first == d.second)
      said |= d.text.find("as a loop comes back to " + here(kTreeAddLine) + ", a") != std::string::npos &&
              d.text.find("after it would order them") != std::string::npos;  // within one warp: a __syncwarp()
  std::string texts;
  for (const auto& d : sim::diagnose(r.trace.hazards.groups())) texts += "\n" + d.text;
  EXPECT_TRUE(said) << "no fix for the add's own pairs that names a barrier after it:" << texts;
}

// Each block writes one cell past its share (`x <= w`): the next block's first cell.
struct OverlappingBlocks {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array, Array y, int) const {
    const int t = c.thread_idx().x;
    kOverlapLine = __LINE__ + 1;
    y[c.block_idx().x * (c.block_dim().x - 1) + t] = value_of<Array>(t);
  }
};

TEST(Remedies, TwoBlocksWritingOneCellAtOneLineAreToldToCheckTheBound) {
  const KernelRun r = run_kernel(OverlappingBlocks{}, Dim3{4}, Dim3{32}, 0, iota(128), 128);
  const auto fixes = sim::diagnose(r.trace.hazards.groups());
  ASSERT_FALSE(fixes.empty());
  EXPECT_TRUE(fixes[0].cross_block);
  EXPECT_NE(fixes[0].text.find("threads of two blocks write one cell at " + here(kOverlapLine) +
                               ": where each thread should own its cell, check the index and its bound"),
            std::string::npos)
      << fixes[0].text;
  EXPECT_EQ(fixes[0].text.find("two launches"), std::string::npos) << fixes[0].text;
}

int kReadLine, kPartnerReadLine, kWriteLine, kPartnerWriteLine;

// A bitonic sort of one block's elements in shared memory; `Barrier` false leaves out the barrier
// that ends each compare-exchange round, so every round runs into the next.
template <bool Barrier>
struct BitonicSort {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array x, Array y, int) const {
    using T = value_of<Array>;
    auto s = shared_array<T>(c, c.block_dim().x, "s");
    const int t = c.thread_idx().x;
    s[t] = T(x[t]);
    c.sync();
    for (int k = 2; k <= c.block_dim().x; k *= 2)
      for (int j = k / 2; j > 0; j /= 2) {
        const int partner = t ^ j;
        if (partner > t) {
          kReadLine = __LINE__ + 1;
          const T a = s[t];
          kPartnerReadLine = __LINE__ + 1;
          const T b = s[partner];
          if ((a > b) == ((t & k) == 0)) {
            kWriteLine = __LINE__ + 1;
            s[t] = b;
            kPartnerWriteLine = __LINE__ + 1;
            s[partner] = a;
          }
        }
        if (Barrier) c.sync();
      }
    c.sync();
    y[t] = s[t];
  }
};

std::vector<float> descending(int n) {
  std::vector<float> v(n);
  for (int i = 0; i < n; ++i) v[i] = static_cast<float>(n - 1 - i);
  return v;
}

TEST(Remedies, OneMissingBarrierIsOneGroupWithOneFix) {
  const KernelRun sorted = run_kernel(BitonicSort<true>{}, Dim3{1}, Dim3{64}, shared_bytes_for(64), descending(64), 64);
  EXPECT_EQ(sorted.out, iota(64));
  EXPECT_TRUE(sorted.trace.hazards.empty());

  const KernelRun broken = run_kernel(BitonicSort<false>{}, Dim3{1}, Dim3{64}, shared_bytes_for(64), descending(64), 64);
  const auto groups = broken.trace.hazards.groups();
  std::set<std::pair<sim::LineId, sim::LineId>> pairs;  // the pairs of lines that raced
  std::vector<size_t> races;
  for (size_t k = 0; k < groups.size(); ++k)
    if (is_race(groups[k])) {
      pairs.insert({groups[k].first.line_first, groups[k].first.line_second});
      races.push_back(k);
    }
  ASSERT_GE(pairs.size(), 4u) << "reads and writes of several lines race across the merged rounds";

  const auto barriers = sim::group_by_barrier(groups);
  ASSERT_EQ(barriers.size(), 1u) << barriers.front().fix.text;
  const sim::BarrierGroup& g = barriers.front();
  EXPECT_EQ(g.pairs.size(), pairs.size());
  EXPECT_EQ(g.reports, races);
  // The barrier the kernel left out: after the last write of a round, before the first read of the next.
  EXPECT_EQ(sim::LineTable::get(g.fix.first).line, static_cast<uint32_t>(kPartnerWriteLine));
  EXPECT_EQ(sim::LineTable::get(g.fix.second).line, static_cast<uint32_t>(kReadLine));
  EXPECT_NE(g.fix.text.find("one barrier after " + here(kPartnerWriteLine) + ", before " + here(kReadLine) +
                            " comes round again"),
            std::string::npos)
      << g.fix.text;
  EXPECT_NE(g.fix.text.find("all " + std::to_string(pairs.size()) + " pairs"), std::string::npos) << g.fix.text;
}

int kScanReadLine, kScanWriteLine;

// A double-buffered Hillis-Steele scan: each round reads one half of s and writes the other; with
// `Barrier` false nothing ends a round, so the next round's reads meet this one's writes (RAW) and
// its writes meet the reads of the round before (WAR, across rounds though the read's line is first).
template <bool Barrier>
struct DoubleBufferedScan {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array x, Array y, int) const {
    using T = value_of<Array>;
    const int n = c.block_dim().x, t = c.thread_idx().x;
    auto s = shared_array<T>(c, 2 * n, "s");
    s[t] = T(x[t]);
    c.sync();
    int in = 0;
    for (int offset = 1; offset < n; offset *= 2) {
      kScanReadLine = __LINE__ + 1;
      const T v = t >= offset ? s[in * n + t - offset] + s[in * n + t] : s[in * n + t];
      kScanWriteLine = __LINE__ + 1;
      s[(1 - in) * n + t] = v;
      in = 1 - in;
      if (Barrier) c.sync();
    }
    c.sync();
    y[t] = s[in * n + t];
  }
};

TEST(Remedies, ADoubleBufferedScanNeedsOneBarrierAtTheEndOfTheRound) {
  const KernelRun good = run_kernel(DoubleBufferedScan<true>{}, Dim3{1}, Dim3{64}, shared_bytes_for(128), iota(64), 64);
  EXPECT_EQ(good.out[63], 63.0f * 64 / 2);
  EXPECT_TRUE(good.trace.hazards.empty());
  const KernelRun bad = run_kernel(DoubleBufferedScan<false>{}, Dim3{1}, Dim3{64}, shared_bytes_for(128), iota(64), 64);
  const auto barriers = sim::group_by_barrier(bad.trace.hazards.groups());
  ASSERT_EQ(barriers.size(), 1u);
  EXPECT_EQ(barriers[0].pairs.size(), 2u);  // write -> next round's read, read -> next round's write
  EXPECT_EQ(sim::LineTable::get(barriers[0].fix.first).line, static_cast<uint32_t>(kScanWriteLine));
  EXPECT_EQ(sim::LineTable::get(barriers[0].fix.second).line, static_cast<uint32_t>(kScanReadLine));
  EXPECT_NE(barriers[0].fix.text.find("would order both pairs"), std::string::npos) << barriers[0].fix.text;
}

TEST(Remedies, APairThatNeedsItsOwnBarrierKeepsItsOwnFix) {
  // Kogge-Stone without the barrier between its read and write phases: one pair, its own fix.
  const RunResult r = run_algorithm({.algorithm = "kogge-stone", .n = 64, .tpb = 64, .bug = "no-second-barrier"});
  const auto groups = r.sim.trace.hazards.groups();
  const auto barriers = sim::group_by_barrier(groups);
  const auto fixes = sim::diagnose(groups);
  ASSERT_EQ(barriers.size(), fixes.size());
  for (size_t k = 0; k < fixes.size(); ++k) EXPECT_EQ(barriers[k].fix.text, fixes[k].text);
}

int kShuffleLine;

// T5 returns early; the others shuffle the whole warp, so the shuffle waits for a lane that left.
struct ShuffleAfterReturn {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array x, Array y, int) const {
    using T = value_of<Array>;
    const int t = c.thread_idx().x;
    if (t == 5) return;
    kShuffleLine = __LINE__ + 1;
    const T v = c.shfl_down(T(x[t]), 1);
    y[t] = v;
  }
};

int kReturnLine;

// As ShuffleAfterReturn, but the kernel says where it returns, as a translated .cu kernel does.
struct ShuffleAfterATellingReturn {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array x, Array y, int) const {
    using T = value_of<Array>;
    const int t = c.thread_idx().x;
    kReturnLine = __LINE__ + 1;
    if (t == 5) return c.returning();
    kShuffleLine = __LINE__ + 1;
    const T v = c.shfl_down(T(x[t]), 1);
    y[t] = v;
  }
};

TEST(Remedies, AWarpOperationALaneLeftNamesTheReturnItTook) {
  const auto trace = run_kernel(ShuffleAfterATellingReturn{}, Dim3{1}, Dim3{8}, 0, iota(8), 8).trace;
  const auto groups = trace.hazards.groups();
  const auto fixes = sim::diagnose(groups);
  ASSERT_EQ(fixes.size(), 1u);
  EXPECT_NE(fixes[0].text.find("T5 returned at " + here(kReturnLine) + " before reaching " + here(kShuffleLine)),
            std::string::npos)
      << fixes[0].text;
  ASSERT_FALSE(groups.empty());
  EXPECT_NE(sim::describe_hazard(groups[0], trace).find("already exited (it returned at " + here(kReturnLine) + ")"),
            std::string::npos)
      << sim::describe_hazard(groups[0], trace);
}

TEST(Remedies, AWarpOperationALaneLeftGetsAFixLine) {
  const auto trace = run_kernel(ShuffleAfterReturn{}, Dim3{1}, Dim3{8}, 0, iota(8), 8).trace;
  const auto fixes = sim::diagnose(trace.hazards.groups());
  ASSERT_EQ(fixes.size(), 1u);
  EXPECT_TRUE(fixes[0].warp_call);
  // No return line was kept: it may have returned, or skipped the shuffle's branch.
  EXPECT_NE(fixes[0].text.find("T5 finished without reaching " + here(kShuffleLine)), std::string::npos) << fixes[0].text;
  EXPECT_NE(fixes[0].text.find("it skipped the branch " + here(kShuffleLine) + " is in, or returned"), std::string::npos)
      << fixes[0].text;
  EXPECT_NE(fixes[0].text.find("so call " + here(kShuffleLine) + " where every lane of its mask gets"), std::string::npos)
      << fixes[0].text;
}

struct Result {
  int code;
  std::string out, err;
};

Result cli(std::vector<std::string> args) {
  std::ostringstream out, err;
  const int code = cli::run_cli(args, out, err);
  return {code, out.str(), err.str()};
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

TEST(Reports, TheJsonCarriesTheCaptionOfEveryStepOfEveryShippedAlgorithm) {
  // Every shipped kernel captions its steps (README, "The app"), so every block of every step has one.
  for (const AlgorithmEntry& e : builtin_registry().all()) {
    SCOPED_TRACE(e.info.name);
    const Result r = cli({"run", e.info.name, "--steps", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    size_t blocks = 0;
    for (const auto& launch : doc["steps"])
      for (const auto& step : launch["steps"])
        for (const auto& block : step["blocks"]) {
          ++blocks;
          EXPECT_TRUE(block["caption"].is_string() && !block["caption"].get<std::string>().empty())
              << "launch " << launch["launch"] << " step " << step["step"] << " block " << block["block"];
        }
    EXPECT_GT(blocks, 0u);
  }
}

TEST(Reports, BankConflictsOfAConflictingKernelAndNoneOfAPaddedOne) {
  // reduce-2 at TPB 64: thread t of stride s touches words 2st and 2st + s, so two lanes of warp 0
  // share a bank at every stride below 32 (test_perf_lab.cpp works the count out): 2-way.
  const Result strided = cli({"run", "reduce-2-strided-index", "--n", "64", "--tpb", "64", "--dtype", "int32",
                              "--schedule", "lockstep", "--steps", "--json"});
  ASSERT_EQ(strided.code, 0) << strided.err;
  const auto doc = nlohmann::json::parse(strided.out);
  ASSERT_TRUE(doc["warps"].is_object());
  EXPECT_GT(doc["warps"]["bank_conflicts"].get<int>(), 0);
  EXPECT_EQ(doc["warps"]["worst_conflict_degree"], 2);
  EXPECT_GT(doc["warps"]["divergent"].get<int>(), 0) << "fewer lanes work at each stride";
  // Step 1 (stride 1): warp 0's 32 lanes touch words 0, 2, ..., 62: two words in each even bank.
  EXPECT_EQ(doc["steps"][0]["steps"][1]["blocks"][0]["warps"]["worst_conflict_degree"], 2);

  // Brent-Kung with a padding word after every 32: the same tree without a conflict.
  const Result padded = cli({"run", "scan-2-brent-kung", "--n", "128", "--tpb", "64", "--dtype", "int32",
                             "--schedule", "lockstep", "--json"});
  ASSERT_EQ(padded.code, 0) << padded.err;
  const auto padded_doc = nlohmann::json::parse(padded.out);
  EXPECT_GT(padded_doc["warps"]["shared_instructions"].get<int>(), 0);
  EXPECT_EQ(padded_doc["warps"]["bank_conflicts"], 0);

  const Result text = cli({"run", "reduce-2-strided-index", "--n", "64", "--tpb", "64", "--steps"});
  EXPECT_TRUE(contains(text.out, "with a bank conflict (worst 2-way")) << text.out;
  EXPECT_TRUE(contains(text.out, "\nwarps (shown blocks): ")) << text.out;
  const Result forward = cli({"run", "reduce-2-strided-index", "--schedule", "forward"});
  EXPECT_TRUE(contains(forward.out, "warps: counted under --schedule lockstep only")) << forward.out;
}

TEST(Reports, AnEmptyStepSaysNoThreadDidAnything) {
  // Seed 000's second launch: `if (blockIdx.x > 0 && ...) output[i] += preceding[0]`, so block 0 has
  // nothing to add in its last step.
  const Result r = cli({"run", "two-phase-scan", "--steps"});
  EXPECT_TRUE(contains(r.out, "    block 0  every thread adds that sum to its element\n"
                              "      no thread did anything in this step\n"))
      << r.out;
  EXPECT_FALSE(contains(r.out, "    block 1  every thread adds that sum to its element\n"
                               "      no thread did anything"));
}

TEST(Reports, ThreadsOfA2dBlockAreNamedByTheirIndex) {
  EXPECT_EQ(sim::thread_name(Dim3{8}, 5), "T5");
  EXPECT_EQ(sim::thread_name(Dim3{4, 2}, 5), "(1,1)");  // threadIdx.x = 5 % 4, threadIdx.y = 5 / 4
  EXPECT_EQ(sim::thread_name(Dim3{32, 32}, 32), "(0,1)");
  EXPECT_EQ(sim::thread_name(Dim3{2, 2, 2}, 6), "(0,1,1)");
}

// An 8×4 block copies its 32 elements into a shared array named like its global output, and each
// thread writes out the element one row down (wrapping): threads are (x,y), the arrays "data" twice.
struct TileKernel {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array x, Array y) const {
    using T = value_of<Array>;
    auto tile = shared_array<T>(c, 32, "data");
    const int i = c.thread_idx().y * 8 + c.thread_idx().x;
    c.caption("load: thread (x,y) copies x[8y + x] into the tile");
    tile[i] = T(x[i]);
    c.sync();
    c.caption("store: thread (x,y) writes the element one row down");
    y[i] = tile[(i + 8) % 32];
  }
};

struct Tile {
  static AlgoInfo info() {
    return {"tile-2d", "tests", "an 8x4 block", "", "tests/test_reports.cpp", Problem{32, 1, 32, DType::Int32}, false,
            {"tests/test_reports.cpp"}};
  }
  static CheckResult check(const Problem&) { return {}; }
  template <class Runtime>
  static void run(Runtime& rt, const Problem&) {
    auto data = rt.alloc("data", 32);
    rt.launch("tile", TileKernel{}, Dim3{1}, Dim3{8, 4}, shared_bytes_for(32), rt.input(), data);
    rt.set_output(data, 32);
  }
  static std::vector<double> reference(const Problem&, const std::vector<double>& input) {
    std::vector<double> out(32);
    for (int i = 0; i < 32; ++i) out[i] = input[(i + 8) % 32];
    return out;
  }
};

TEST(Reports, A2dBlocksThreadsAndAnArrayNamedInBothSpacesReadApart) {
  const Registry registry = Registry::of(kernels::AlgorithmList<Tile>{});
  const RunResult r = run_algorithm({.algorithm = "tile-2d"}, registry);
  ASSERT_TRUE(r.comparison.match);
  std::ostringstream text;
  cli::print_run(text, r, true, std::nullopt);
  // Thread 17 of an 8-wide block is threadIdx (1,2); it loads element 17 into the shared "data".
  EXPECT_TRUE(contains(text.str(), "      (1,2) reads input[17] = 17, writes shared data[17] = 17\n")) << text.str();
  EXPECT_TRUE(contains(text.str(), "(1,2) reads shared data[25] = 25, writes global data[17] = 25\n")) << text.str();
  const auto doc = cli::run_json(r, true, std::nullopt);
  const auto& thread = doc["steps"][0]["steps"][0]["blocks"][0]["threads"][17];
  EXPECT_EQ(thread["thread"], 17);
  EXPECT_EQ(thread["x"], 1);
  EXPECT_EQ(thread["y"], 2);
  EXPECT_EQ(thread["z"], 0);
  EXPECT_EQ(thread["events"][1]["array"], "data");
  EXPECT_EQ(thread["events"][1]["space"], "shared");
}

TEST(Reports, ArraysOfOneNameInBothSpacesAreNamedWithTheirSpace) {
  sim::Trace t;
  t.arrays = {{"hist", sim::MemSpace::Global}, {"hist", sim::MemSpace::Shared}, {"x", sim::MemSpace::Global}};
  EXPECT_EQ(sim::array_name(t, 0), "global hist");
  EXPECT_EQ(sim::array_name(t, 1), "shared hist");
  EXPECT_EQ(sim::array_name(t, 2), "x");  // no other x: the name alone
}

TEST(Reports, NoDriverIsSaidInTheUsersTerms) {
  const std::string runtime = "CUDA driver version is insufficient for CUDA runtime version";
  EXPECT_EQ(gpu_start_failure(runtime, false), "no NVIDIA driver on this machine");
  EXPECT_EQ(gpu_start_failure(runtime, true), runtime);  // a driver that is there and too old
  if (!nvidia_driver_present()) {
    EXPECT_FALSE(gpu_status().usable);
    EXPECT_FALSE(contains(gpu_status().reason, "insufficient")) << gpu_status().reason;
  }
}

}  // namespace
}  // namespace syncscope::test
