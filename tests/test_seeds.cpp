// The five seed documents' configurations and the outputs and step tables they print. Expected
// values are transcribed from ../shared/seeds/, not computed by the code under test.
#include <gtest/gtest.h>

#include <map>

#include "tests/test_util.h"

namespace syncscope::test {
namespace {

// thread -> "shared[i] = v" for every read of `array` in one step of one block
std::map<int, std::string> reads_in_step(const RunResult& r, int launch, int block, int step, const std::string& array) {
  const sim::Trace& t = r.sim.trace;
  std::map<int, std::string> out;
  for (const sim::Event& e : t.launches.at(launch).find_block(block)->steps.at(step).events) {
    if (!e.is_read() || t.arrays[e.array].name != array) continue;
    if (out.count(e.thread)) continue;  // the first read of the step is the read phase's
    out[e.thread] = array + "[" + std::to_string(e.index) + "] = " +
                    format_value(t.arrays[e.array].dtype, e.value_bits, e.flags & sim::kValuePoison);
  }
  return out;
}

// Seed 003 ("prefix sum, simple version"): SIZE 8, TPB 8, one block.
TEST(Seed003KoggeStone, OutputAndStepTables) {
  const RunResult r = run_algorithm({.algorithm = "kogge-stone"});
  EXPECT_EQ(output_text(r), (Strings{"0", "1", "3", "6", "10", "15", "21", "28"}));
  EXPECT_TRUE(r.comparison.match);

  // Initial load, then read phase / write phase per offset, then the final write: 8 steps.
  ASSERT_EQ(r.sim.trace.launches.size(), 1u);
  EXPECT_EQ(r.sim.trace.launches[0].steps, 8);
  EXPECT_EQ(shared_text(r, 0, 0, 0, "shared"), (Strings{"0", "1", "2", "3", "4", "5", "6", "7"}));
  // "Offset = 1 ... Result: [0 1 3 5 7 9 11 13]"
  EXPECT_EQ(shared_text(r, 0, 0, 2, "shared"), (Strings{"0", "1", "3", "5", "7", "9", "11", "13"}));
  // "Offset = 2 ... Result: [0 1 3 6 10 14 18 22]"
  EXPECT_EQ(shared_text(r, 0, 0, 4, "shared"), (Strings{"0", "1", "3", "6", "10", "14", "18", "22"}));
  // "Offset = 4 ... Result: [0 1 3 6 10 15 21 28]"
  EXPECT_EQ(shared_text(r, 0, 0, 6, "shared"), (Strings{"0", "1", "3", "6", "10", "15", "21", "28"}));

  // The read phases: "T1 reads shared[0] = 0 ... T7 reads shared[6] = 6", etc.
  EXPECT_EQ(reads_in_step(r, 0, 0, 1, "shared"),
            (std::map<int, std::string>{{1, "shared[0] = 0"}, {2, "shared[1] = 1"}, {3, "shared[2] = 2"},
                                        {4, "shared[3] = 3"}, {5, "shared[4] = 4"}, {6, "shared[5] = 5"},
                                        {7, "shared[6] = 6"}}));
  EXPECT_EQ(reads_in_step(r, 0, 0, 3, "shared"),
            (std::map<int, std::string>{{2, "shared[0] = 0"}, {3, "shared[1] = 1"}, {4, "shared[2] = 3"},
                                        {5, "shared[3] = 5"}, {6, "shared[4] = 7"}, {7, "shared[5] = 9"}}));
  EXPECT_EQ(reads_in_step(r, 0, 0, 5, "shared"),
            (std::map<int, std::string>{{4, "shared[0] = 0"}, {5, "shared[1] = 1"}, {6, "shared[2] = 3"},
                                        {7, "shared[3] = 6"}}));
  // Read phases only read; the active threads are exactly those with t >= offset.
  for (const sim::Event& e : r.sim.trace.launches[0].blocks[0].steps[1].events) EXPECT_FALSE(e.is_write());
  EXPECT_TRUE(r.sim.trace.hazards.empty());
}

// Seed 002: the same scan written in CUDA; each block scans its own section.
TEST(Seed002KoggeStone, SectionsAreScannedPerBlock) {
  const RunResult r = run_algorithm({.algorithm = "kogge-stone", .n = 12, .tpb = 4});
  EXPECT_EQ(output_text(r), (Strings{"0", "1", "3", "6", "4", "9", "15", "22", "8", "17", "27", "38"}));
  EXPECT_TRUE(r.comparison.match);
}

// Seed 000 ("prefix sum, complete version"): SIZE_2 = 15, TPB 8, two blocks, two launches.
TEST(Seed000TwoPhaseScan, OutputAndExtendedBufferAfterPhaseOne) {
  const RunResult r = run_algorithm({.algorithm = "two-phase-scan"});
  EXPECT_EQ(output_text(r),
            (Strings{"0", "1", "3", "6", "10", "15", "21", "28", "36", "45", "55", "66", "78", "91", "105"}));
  EXPECT_TRUE(r.comparison.match);
  const sim::Trace& t = r.sim.trace;
  ASSERT_EQ(t.launches.size(), 2u);
  EXPECT_EQ(t.launches[0].grid.x, 2);

  // "After phase 1 the buffer is [0,1,3,6,10,15,21,28, 8,17,27,38,50,63,77, 28, ???]"
  const sim::ArraySnapshot* buffer = nullptr;
  for (const auto& s : t.launches[0].globals_after)
    if (t.arrays[s.array].name == "output") buffer = &s;
  ASSERT_NE(buffer, nullptr);
  Strings after_phase1;
  for (size_t i = 0; i < buffer->bits.size(); ++i)
    after_phase1.push_back(format_value(DType::Float32, buffer->bits[i], buffer->poison[i]));
  EXPECT_EQ(after_phase1, (Strings{"0", "1", "3", "6", "10", "15", "21", "28", "8", "17", "27", "38", "50", "63", "77",
                                   "28", "?"}));

  // "Block 1: shared = [8, 9, 10, 11, 12, 13, 14, uninitialized]"
  EXPECT_EQ(shared_text(r, 0, 1, 0, "shared"), (Strings{"8", "9", "10", "11", "12", "13", "14", "?"}));
  // "shared = [8, 17, 27, 38, 50, 63, 77, uninitialized]" after the scan
  EXPECT_EQ(shared_text(r, 0, 1, 7, "shared"), (Strings{"8", "17", "27", "38", "50", "63", "77", "?"}));

  // The uninitialized cell is reported, once, as a warning in block 1.
  const auto groups = t.hazards.groups();
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0].first.kind, sim::HazardKind::UninitializedRead);
  EXPECT_EQ(groups[0].first.severity, sim::Severity::Warning);
  EXPECT_EQ(groups[0].first.block, 1);
  EXPECT_EQ(groups[0].first.index, 7);
}

// Seed 001 ("axis sum"): 4 × 6 matrix, TPB 8, grid 1 × 4, one block per row via blockIdx.y.
TEST(Seed001AxisSum, RowSums) {
  const RunResult r = run_algorithm({.algorithm = "axis-sum"});
  EXPECT_EQ(output_text(r), (Strings{"15", "51", "87", "123"}));
  EXPECT_TRUE(r.comparison.match);
  const sim::LaunchTrace& l = r.sim.trace.launches.at(0);
  EXPECT_EQ(l.grid.x, 1);
  EXPECT_EQ(l.grid.y, 4);
  ASSERT_EQ(l.blocks.size(), 4u);
  for (int b = 0; b < 4; ++b) EXPECT_EQ(l.blocks[b].block_idx.y, b);
  // Row 0 in the cache after loading: [0 1 2 3 4 5], the cells past the row hold zeros.
  EXPECT_EQ(shared_text(r, 0, 0, 0, "cache"), (Strings{"0", "1", "2", "3", "4", "5", "0", "0"}));
  EXPECT_EQ(shared_text(r, 0, 3, 0, "cache"), (Strings{"18", "19", "20", "21", "22", "23", "0", "0"}));
  EXPECT_TRUE(r.sim.trace.hazards.empty());
}

// Seed 004 ("block exclusive sum"): 64 threads = 2 warps; warp totals through shared memory.
TEST(Seed004BlockExclusiveSum, WarpTotalsAndOffsets) {
  const RunResult r = run_algorithm({.algorithm = "block-exclusive-sum"});
  EXPECT_TRUE(r.comparison.match);
  const Strings out = output_text(r);
  EXPECT_EQ(out[0], "0");
  EXPECT_EQ(out[1], "0");
  EXPECT_EQ(out[2], "1");
  EXPECT_EQ(out[32], "496");   // 0 + 1 + ... + 31
  EXPECT_EQ(out[63], "1953");  // 0 + 1 + ... + 62
  // After phase 2: the totals of warp 0 (0..31) and warp 1 (32..63).
  const Strings totals = shared_text(r, 0, 0, 0, "warp_totals");
  EXPECT_EQ(totals[0], "496");
  EXPECT_EQ(totals[1], "1520");
  // After phase 3: each warp's offset.
  const Strings offsets = shared_text(r, 0, 0, 1, "warp_totals");
  EXPECT_EQ(offsets[0], "0");
  EXPECT_EQ(offsets[1], "496");
  // The warp scan really uses shuffles.
  int shuffles = 0;
  for (const sim::Event& e : r.sim.trace.launches[0].blocks[0].steps[0].events)
    shuffles += e.kind == sim::EventKind::Shuffle;
  EXPECT_EQ(shuffles, 64 * 8);  // 5 up-shuffles + 1 exclusive shift + 2 broadcasts per lane
  EXPECT_TRUE(r.sim.trace.hazards.empty());
}

// Seed 002's closing paragraph: scan blocks, scan the block sums, add.
TEST(Seed002HierarchicalScan, ThreeLaunchesForAThousandElements) {
  const RunResult r = run_algorithm({.algorithm = "hierarchical-scan"});
  EXPECT_TRUE(r.comparison.match);
  ASSERT_EQ(r.sim.trace.launches.size(), 3u);  // scan level 0 (16 blocks), scan level 1 (1 block), add
  EXPECT_EQ(r.sim.trace.launches[0].grid.x, 16);
  EXPECT_EQ(r.sim.trace.launches[1].grid.x, 1);
  EXPECT_EQ(output_text(r).back(), "499500");
}

}  // namespace
}  // namespace syncscope::test
