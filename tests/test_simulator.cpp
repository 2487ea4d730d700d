// The execution model: barriers, schedules, warp operations, poison, limits, and what the
// simulator does with kernels that are wrong (a clear error, never a hang or a crash).
#include <gtest/gtest.h>

#include <chrono>

#include "sim/remedies.h"
#include "tests/test_util.h"  // sim/global_shadow.h too, through the simulator

namespace syncscope::test {
namespace {

using sim::HazardKind;
using sim::SimErrorKind;

sim::SimOptions with_schedule(const char* s) {
  sim::SimOptions o;
  o.schedule = *sim::Schedule::parse(s, nullptr);
  return o;
}

bool has_hazard(const sim::Trace& t, HazardKind kind, sim::Severity severity) {
  for (const auto& g : t.hazards.groups())
    if (g.first.kind == kind && g.first.severity == severity) return true;
  return false;
}

struct DivergentBarrier {
  template <class Ctx, class Array>
  void operator()(Ctx& c, Array, Array y, int) const {
    if (c.thread_idx().x < 4) {
      c.sync();
    } else {
      c.sync();  // a different barrier: a real GPU may hang or mix them up
    }
    y[c.thread_idx().x] = value_of<Array>(1);
  }
};

TEST(Barriers, DivergenceIsAnErrorNamingBothLines) {
  const auto r = run_kernel(DivergentBarrier{}, {1}, {8}, 0, iota(8), 8);
  ASSERT_TRUE(r.trace.error);
  EXPECT_EQ(r.trace.error->kind, SimErrorKind::BarrierDivergence);
  EXPECT_EQ(r.trace.error->lines.size(), 2u);
  EXPECT_NE(r.trace.error->message.find("T0-T3"), std::string::npos) << r.trace.error->message;
  EXPECT_NE(r.trace.error->message.find("T4-T7"), std::string::npos) << r.trace.error->message;
  EXPECT_TRUE(has_hazard(r.trace, HazardKind::BarrierDivergence, sim::Severity::Error));
  // The fix names both barriers and one after the branch.
  const auto fixes = sim::diagnose(r.trace.hazards.groups());
  ASSERT_FALSE(fixes.empty());
  EXPECT_NE(fixes[0].text.find("they are two barriers"), std::string::npos) << fixes[0].text;
  EXPECT_NE(fixes[0].text.find("put one barrier after the branch"), std::string::npos) << fixes[0].text;
}

// Threads 4.. return early, named (a .cu's `return` is, by its translation), before three barriers;
// the rest vote with __syncthreads_and/_count at the last.
struct ReturnBeforeBarrier {
  template <class Ctx, class Array>
  void operator()(Ctx& c, Array x, Array y, int) const {
    const int t = c.thread_idx().x;
    if (t >= 4) return c.returning();
    c.sync();
    y[t] = x[t];
    c.sync();
    const int all = c.sync_and(1), count = c.sync_count(t % 2 == 0);
    y[4 + t] = value_of<Array>(10 * all + count);
  }
};

// As on a GPU (an H200 ran a .cu of this shape: no error, right values, synccheck silent): threads
// that returned are not waited for and the barrier orders the others; one warning for the return,
// and the threads that returned cast no vote (__syncthreads_and of the 4 others is 1).
TEST(Barriers, ThreadsThatReturnedAreNotWaitedForAWarning) {
  for (const char* schedule : {"lockstep", "forward", "reverse"}) {
    const auto r = run_kernel(ReturnBeforeBarrier{}, {3}, {8}, 0, iota(24), 24, with_schedule(schedule));
    ASSERT_FALSE(r.trace.error) << schedule << ": " << r.trace.error->message;
    for (int t = 0; t < 4; ++t) EXPECT_EQ(r.out[t], t) << schedule;
    for (int t = 0; t < 4; ++t) EXPECT_EQ(r.out[4 + t], 12) << schedule;  // all 1, 2 even threads
    const auto groups = r.trace.hazards.groups();
    ASSERT_EQ(groups.size(), 1u) << schedule;
    EXPECT_EQ(groups[0].first.kind, HazardKind::ExitedBeforeBarrier) << schedule;
    EXPECT_EQ(groups[0].first.severity, sim::Severity::Warning) << schedule;
    EXPECT_GE(groups[0].first.thread_first, 4) << schedule;
    EXPECT_LT(groups[0].first.thread_second, 4) << schedule;
    EXPECT_EQ(groups[0].block_count, 3u) << schedule;
    EXPECT_EQ(groups[0].count, 3u) << schedule;  // once a block, not at each of its barriers
  }
}

// Threads that ran to the kernel's end past a barrier the others wait at in a branch (no return
// named): they exited, as a return's threads do (a warning; it was barrier divergence).
struct BarrierInABranch {
  template <class Ctx, class Array>
  void operator()(Ctx& c, Array x, Array y, int) const {
    const int t = c.thread_idx().x;
    if (t < 4) {
      c.sync();
      y[t] = x[t];
    }
  }
};

TEST(Barriers, ThreadsThatRanToTheEndPastABarrierInABranchAreAWarningAsAReturnIs) {
  for (const char* schedule : {"lockstep", "forward", "reverse"}) {
    const auto r = run_kernel(BarrierInABranch{}, {3}, {8}, 0, iota(24), 24, with_schedule(schedule));
    // A GPU goes on without threads that exited, by a return or at the kernel's end alike.
    EXPECT_FALSE(r.trace.error) << schedule << ": " << r.trace.error->message;
    EXPECT_TRUE(has_hazard(r.trace, HazardKind::ExitedBeforeBarrier, sim::Severity::Warning)) << schedule;
    // Its fix: the threads that ran to the end never reached it; take it out of the branch.
    const auto fixes = sim::diagnose(r.trace.hazards.groups());
    ASSERT_EQ(fixes.size(), 1u) << schedule;
    EXPECT_TRUE(fixes[0].warp_call && !fixes[0].same_warp);
    EXPECT_NE(fixes[0].text.find("finished the kernel without reaching the barrier"), std::string::npos) << fixes[0].text;
    EXPECT_NE(fixes[0].text.find("move it out of that branch"), std::string::npos) << fixes[0].text;
  }
}

struct EndlessBarriers {
  template <class Ctx, class Array>
  void operator()(Ctx& c, Array, Array, int) const {
    for (;;) c.sync();
  }
};

TEST(Budget, EndlessBarrierLoopStops) {
  const auto r = run_kernel(EndlessBarriers{}, {1}, {2}, 0, iota(2), 2);
  ASSERT_TRUE(r.trace.error);
  EXPECT_EQ(r.trace.error->kind, SimErrorKind::StepBudget);
}

struct EndlessAccesses {
  template <class Ctx, class Array>
  void operator()(Ctx& c, Array, Array, int) const {
    using T = value_of<Array>;
    auto s = shared_array<T>(c, 1, "s");
    s[0] = T(0);
    for (;;) s[0] = s[0] + T(1);
  }
  static constexpr int kLoopLine = __LINE__ - 2;
};

TEST(Budget, EndlessAccessLoopStops) {
  sim::SimOptions options = with_schedule("forward");
  options.budget.seconds = 0.2;
  const auto r = run_kernel(EndlessAccesses{}, {1}, {1}, shared_bytes_for(1), iota(1), 1, options);
  ASSERT_TRUE(r.trace.error);
  EXPECT_EQ(r.trace.error->kind, SimErrorKind::TimeBudget);
  EXPECT_NE(r.trace.error->message.find("T0 of block 0 is still running after"), std::string::npos) << r.trace.error->message;
  EXPECT_NE(r.trace.error->message.find("test_simulator.cpp:" + std::to_string(EndlessAccesses::kLoopLine)), std::string::npos) << r.trace.error->message;
}

struct SharedOverLaunch {
  template <class Ctx, class Array>
  void operator()(Ctx& c, Array, Array, int) const {
    auto s = shared_array<value_of<Array>>(c, 100, "big");
    s[0] = value_of<Array>(0);
  }
};

TEST(Limits, SharedArrayLargerThanTheLaunchProvides) {
  const auto r = run_kernel(SharedOverLaunch{}, {1}, {4}, 16, iota(4), 4);
  ASSERT_TRUE(r.trace.error);
  EXPECT_EQ(r.trace.error->kind, SimErrorKind::SharedMemory);
  EXPECT_NE(r.trace.error->message.find("400 bytes"), std::string::npos) << r.trace.error->message;
}

TEST(Limits, LaunchBeyondTheMachine) {
  const auto big_block = run_kernel(SharedOverLaunch{}, {1}, {2048}, 0, iota(4), 4);
  ASSERT_TRUE(big_block.trace.error);
  EXPECT_NE(big_block.trace.error->message.find("1..1024"), std::string::npos);
  const auto big_shared = run_kernel(SharedOverLaunch{}, {1}, {32}, 64 * 1024, iota(4), 4);
  ASSERT_TRUE(big_shared.trace.error);
  EXPECT_NE(big_shared.trace.error->message.find("49152"), std::string::npos);
}

struct ReadPastTheEnd {
  template <class Ctx, class Array>
  void operator()(Ctx& c, Array x, Array y, int) const {
    using T = value_of<Array>;
    auto s = shared_array<T>(c, 4, "s");
    const int t = c.thread_idx().x;
    s[t] = x[t];
    c.sync();
    y[t] = s[t + 2];  // threads 2 and 3 read s[4], s[5]
  }
};

TEST(Memory, OutOfBoundsIsReportedAndReadsPoison) {
  const auto r = run_kernel(ReadPastTheEnd{}, {1}, {4}, shared_bytes_for(4), iota(4), 4);
  EXPECT_FALSE(r.trace.error);
  EXPECT_EQ(r.out[0], 2);
  EXPECT_EQ(r.out[1], 3);
  EXPECT_TRUE(r.poison[2] && r.poison[3]);
  ASSERT_TRUE(has_hazard(r.trace, HazardKind::OutOfBounds, sim::Severity::Error));
  for (const auto& g : r.trace.hazards.groups()) {
    if (g.first.kind == HazardKind::OutOfBounds) {
      EXPECT_EQ(g.count, 2u);
    }
  }
}

struct UninitializedShared {
  template <class Ctx, class Array>
  void operator()(Ctx& c, Array, Array y, int) const {
    using T = value_of<Array>;
    auto s = shared_array<T>(c, 2, "s");
    const int t = c.thread_idx().x;
    if (t == 0) s[0] = T(5);
    c.sync();
    y[t] = s[0] + s[1];  // s[1] was never written
  }
};

TEST(Memory, PoisonPropagatesThroughArithmetic) {
  const auto r = run_kernel(UninitializedShared{}, {1}, {2}, shared_bytes_for(2), iota(2), 2);
  EXPECT_TRUE(r.poison[0] && r.poison[1]);
  EXPECT_TRUE(has_hazard(r.trace, HazardKind::UninitializedRead, sim::Severity::Warning));
}

// Kogge-Stone with one barrier per step and the update in place: `s[t] += s[t - offset]`.
struct InPlaceScan {
  template <class Ctx, class Array>
  void operator()(Ctx& c, Array x, Array y, int) const {
    using T = value_of<Array>;
    auto s = shared_array<T>(c, c.block_dim().x, "s");
    const int t = c.thread_idx().x;
    const int i = c.block_idx().x * c.block_dim().x + t;
    s[t] = x[i];
    c.sync();
    for (int offset = 1; offset < c.block_dim().x; offset *= 2) {
      if (t >= offset) s[t] += s[t - offset];
      c.sync();
    }
    y[i] = s[t];
  }
};

TEST(Schedules, DecideWhatARacyKernelComputes) {
  const std::vector<float> expected = {0, 1, 3, 6, 10, 15, 21, 28};
  // Lockstep: every lane reads before any lane writes, the SIMT order that hides the race on a GPU.
  EXPECT_EQ(run_kernel(InPlaceScan{}, {1}, {8}, shared_bytes_for(8), iota(8), 8, with_schedule("lockstep")).out, expected);
  // Reverse: a thread writes only after every lower thread has read.
  EXPECT_EQ(run_kernel(InPlaceScan{}, {1}, {8}, shared_bytes_for(8), iota(8), 8, with_schedule("reverse")).out, expected);
  // Forward: thread t reads s[t - offset] already updated in this very step.
  const auto forward = run_kernel(InPlaceScan{}, {1}, {8}, shared_bytes_for(8), iota(8), 8, with_schedule("forward"));
  EXPECT_NE(forward.out, expected);
  // Whatever the order, the race is found: within one warp, a warning.
  EXPECT_TRUE(has_hazard(forward.trace, HazardKind::ReadAfterWrite, sim::Severity::Warning) ||
              has_hazard(forward.trace, HazardKind::WriteAfterRead, sim::Severity::Warning));
}

TEST(Schedules, RacyBlocksOutsideTheViewRunTheScheduleToo) {
  // 64 blocks: block 0 is recorded (scheduled), the others run fast, see the race, and re-run
  // under the schedule; all must agree with a run that records every block.
  const auto input = iota(64 * 64);
  for (const char* s : {"lockstep", "reverse"}) {
    sim::SimOptions some = with_schedule(s), all = with_schedule(s);
    for (int b = 0; b < 64; ++b) all.detail_blocks.push_back(b);
    const auto fast = run_kernel(InPlaceScan{}, {64}, {64}, shared_bytes_for(64), input, 64 * 64, some);
    const auto recorded = run_kernel(InPlaceScan{}, {64}, {64}, shared_bytes_for(64), input, 64 * 64, all);
    EXPECT_EQ(fast.out, recorded.out) << s;
    EXPECT_EQ(fast.trace.launches[0].blocks_rerun, 63u) << s;
  }
}

TEST(Schedules, CrossWarpRaceIsAnError) {
  // 64 threads: warps 0 and 1 read each other's cells in the same step as they write them.
  const auto r = run_kernel(InPlaceScan{}, {1}, {64}, shared_bytes_for(64), iota(64), 64, with_schedule("forward"));
  EXPECT_TRUE(has_hazard(r.trace, HazardKind::ReadAfterWrite, sim::Severity::Error) ||
              has_hazard(r.trace, HazardKind::WriteAfterRead, sim::Severity::Error));
}

struct Shuffles {
  template <class Ctx, class Array>
  void operator()(Ctx& c, Array x, Array y, int) const {
    using T = value_of<Array>;
    const int t = c.thread_idx().x;
    T v = x[t];
    T up = c.shfl_up(v, 1);
    T down = c.shfl_down(v, 2);
    T idx = c.shfl_idx(v, 5);
    T bfly = c.shfl_xor(v, 1);
    y[4 * t + 0] = up;
    y[4 * t + 1] = down;
    y[4 * t + 2] = idx;
    y[4 * t + 3] = bfly;
  }
};

TEST(WarpOperations, ShuffleSemantics) {
  for (const char* schedule : {"lockstep", "forward", "reverse"}) {
    const auto r = run_kernel(Shuffles{}, {1}, {32}, 0, iota(32), 128, with_schedule(schedule));
    ASSERT_FALSE(r.trace.error);
    for (int lane = 0; lane < 32; ++lane) {
      EXPECT_EQ(r.out[4 * lane + 0], lane >= 1 ? lane - 1 : lane) << schedule;  // lane 0 keeps its own
      EXPECT_EQ(r.out[4 * lane + 1], lane + 2 < 32 ? lane + 2 : lane) << schedule;
      EXPECT_EQ(r.out[4 * lane + 2], 5) << schedule;
      EXPECT_EQ(r.out[4 * lane + 3], lane ^ 1) << schedule;
    }
  }
}

TEST(WarpOperations, PartialWarpReadingAMissingLaneIsPoison) {
  // 36 threads: warp 1 has lanes 0-3 only; shfl_down by 2 from lanes 2 and 3 names lanes 4 and 5.
  const auto r = run_kernel(Shuffles{}, {1}, {36}, 0, iota(36), 144);
  ASSERT_FALSE(r.trace.error);
  EXPECT_EQ(r.out[4 * 33 + 1], 35);
  EXPECT_TRUE(r.poison[4 * 34 + 1]);
  EXPECT_TRUE(r.poison[4 * 35 + 1]);
}

struct DivergentShuffle {
  template <class Ctx, class Array>
  void operator()(Ctx& c, Array x, Array y, int) const {
    using T = value_of<Array>;
    const int t = c.thread_idx().x;
    T v = x[t];
    if (t % 2) v = c.shfl_up(v, 1);
    else v = c.shfl_down(v, 1);
    y[t] = v;
  }
};

TEST(WarpOperations, LanesAtDifferentShufflesAreAnError) {
  const auto r = run_kernel(DivergentShuffle{}, {1}, {32}, 0, iota(32), 32);
  ASSERT_TRUE(r.trace.error);
  EXPECT_EQ(r.trace.error->kind, SimErrorKind::WarpDivergence);
  EXPECT_EQ(r.trace.error->lines.size(), 2u);
}

template <bool kSyncWarp>
struct NeighbourInWarp {
  template <class Ctx, class Array>
  void operator()(Ctx& c, Array x, Array y, int) const {
    using T = value_of<Array>;
    auto s = shared_array<T>(c, 32, "s");
    const int t = c.thread_idx().x;
    s[t] = x[t];
    if (kSyncWarp) c.sync_warp();
    y[t] = s[(t + 1) % 32];
  }
};

TEST(WarpOperations, SyncWarpOrdersAccessesWithinTheWarp) {
  const auto synced = run_kernel(NeighbourInWarp<true>{}, {1}, {32}, shared_bytes_for(32), iota(32), 32);
  EXPECT_TRUE(synced.trace.hazards.empty());
  for (int t = 0; t < 32; ++t) EXPECT_EQ(synced.out[t], (t + 1) % 32);
  const auto unsynced = run_kernel(NeighbourInWarp<false>{}, {1}, {32}, shared_bytes_for(32), iota(32), 32);
  EXPECT_TRUE(has_hazard(unsynced.trace, HazardKind::ReadAfterWrite, sim::Severity::Warning) ||
              has_hazard(unsynced.trace, HazardKind::WriteAfterRead, sim::Severity::Warning));
}

struct TwoDimensionalIds {
  template <class Ctx, class Array>
  void operator()(Ctx& c, Array, Array y, int) const {
    using T = value_of<Array>;
    const Dim3 t = c.thread_idx(), b = c.block_idx(), bd = c.block_dim(), g = c.grid_dim();
    const int linear_block = b.y * g.x + b.x;
    const int linear_thread = t.y * bd.x + t.x;
    y[linear_block * bd.count() + linear_thread] = T(static_cast<float>(1000 * b.y + 100 * b.x + 10 * t.y + t.x));
  }
};

TEST(Indexing, TwoDimensionalGridsAndBlocks) {
  const auto r = run_kernel(TwoDimensionalIds{}, {2, 3}, {4, 2}, 0, iota(1), 48);
  EXPECT_EQ(r.out[0], 0);
  EXPECT_EQ(r.out[5], 11);            // block (0,0), thread (1,1)
  EXPECT_EQ(r.out[1 * 8 + 7], 113);   // block (1,0), thread (3,1)
  EXPECT_EQ(r.out[5 * 8 + 4], 2110);  // block (1,2), thread (0,1)
}

// Block b adds one to what block b-1 wrote in the same launch: a cross-block dependence that only
// block order (the simulator's sequential semantics) resolves.
struct ChainAcrossBlocks {
  template <class Ctx, class Array>
  void operator()(Ctx& c, Array, Array y, int) const {
    using T = value_of<Array>;
    const int b = c.block_idx().x;
    if (c.thread_idx().x == 0) {
      T previous = b > 0 ? T(y[b - 1]) : T(0);
      y[b] = previous + T(1);
    }
  }
};

TEST(Parallel, BlocksThatShareMemoryRunInBlockOrder) {
  sim::SimOptions parallel;
  parallel.threads = 2;
  const auto r = run_kernel(ChainAcrossBlocks{}, {64}, {4}, 0, iota(1), 64, parallel);
  for (int b = 0; b < 64; ++b) EXPECT_EQ(r.out[b], b + 1);
  EXPECT_EQ(r.rolled_back, 1);
  EXPECT_EQ(r.parallel_launches, 0);
  EXPECT_TRUE(has_hazard(r.trace, HazardKind::ReadAfterWrite, sim::Severity::Error));
}

TEST(Parallel, IndependentBlocksRunSideBySide) {
  sim::SimOptions parallel;
  parallel.threads = 2;
  const auto r = run_kernel(InPlaceScan{}, {64}, {16}, shared_bytes_for(16), iota(1024), 1024, parallel);
  EXPECT_EQ(r.parallel_launches, 1);
  EXPECT_EQ(r.rolled_back, 0);
}

// Block 0 writes y[100] only while y[1] is unwritten; block 63 writes y[1]. In reverse order block 63
// runs first and nothing writes y[100]. The parallel attempt (blocks in index order) runs block 0
// first, writes y[100] into a chunk nothing had written (so no copy of it was taken), sees the
// conflict and rolls back: y[100] must be unwritten again.
struct WriteWhileUnset {
  template <class Ctx, class Array>
  void operator()(Ctx& c, Array, Array y, int) const {
    using T = value_of<Array>;
    if (c.thread_idx().x != 0) return;
    const int b = c.block_idx().x;
    if (b == 63) y[1] = T(7);
    if (b == 0 && !(T(y[1]) == T(7))) y[100] = T(5);
  }
};

TEST(Parallel, RollbackPutsBackCellsNothingHadWritten) {
  sim::SimOptions reverse = with_schedule("reverse");
  reverse.threads = 2;
  const auto r = run_kernel(WriteWhileUnset{}, {64}, {4}, 0, iota(1), 128, reverse);
  EXPECT_EQ(r.rolled_back, 1);
  EXPECT_EQ(r.out[1], 7);
  EXPECT_EQ(r.poison[100], sim::kNeverWritten);
  EXPECT_EQ(r.poison[2], sim::kNeverWritten);
}

TEST(Limits, ALaunchOfMoreThan2To25ThreadsIsRefused) {
  const auto r = run_kernel(TwoDimensionalIds{}, {32769}, {1024}, 0, iota(1), 1);
  ASSERT_TRUE(r.trace.error.has_value());
  EXPECT_NE(r.trace.error->message.find("a grid of 32769×1×1 blocks of 1024 threads is over the simulator's limit of "
                                        "33554432 threads (2^25) a launch"),
            std::string::npos)
      << r.trace.error->message;
}

// Global memory's shadow keeps 42 bits a stamp (sim/global_shadow.h): the largest thread id, the
// atomic flag and the largest line come back as they went in, each stamp in its own place.
TEST(GlobalShadow, StampsPackAndUnpackWhole) {
  sim::CellShadow s;
  s.write = {9, (1u << 25) - 1, 65535, 3};
  s.read = {9, 12345 | sim::kAtomicWho, 1, 0};
  s.other_read = {9, 0, 777, 1};
  const sim::PackedShadow p = sim::packed_shadow::pack(s);
  uint64_t bits[3];
  sim::packed_shadow::stamps_of(p, bits);
  const sim::AccessStamp w = sim::packed_shadow::unpack_stamp(bits[0], 4, 0);
  const sim::AccessStamp r = sim::packed_shadow::unpack_stamp(bits[1], 4, 0);
  const sim::AccessStamp o = sim::packed_shadow::unpack_stamp(bits[2], 4, 2);
  EXPECT_EQ(w.who, (1u << 25) - 1);
  EXPECT_EQ(w.line, 65535);
  EXPECT_EQ(r.who, 12345 | sim::kAtomicWho);
  EXPECT_EQ(r.line, 1);
  EXPECT_EQ(o.who, 0u);
  EXPECT_EQ(o.line, 777);
  EXPECT_EQ(o.warp_epoch, 2);
  EXPECT_EQ(w.interval, 4u);
  // No stamp (interval 0) packs to nothing and unpacks to "never".
  const sim::PackedShadow empty = sim::packed_shadow::pack(sim::CellShadow{});
  EXPECT_EQ(empty.low | empty.high, 0u);
  EXPECT_EQ(sim::packed_shadow::unpack_stamp(0, 4, 0).interval, 0u);
}

}  // namespace
}  // namespace syncscope::test
