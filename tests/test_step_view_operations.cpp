// The step view's operations, one at a time in the order the schedule ran them, with the values
// the threads actually saw (app/view/block_view_model.h): a race's read of a value overwritten in
// the same step, shuffles' lanes, replays' memory as it is now.
#include <gtest/gtest.h>

#include "app/view/block_view_model.h"
#include "tests/view_test_util.h"

namespace syncscope::app {
namespace {

using test::run;
using test::texts;

TEST(StepView, AForwardRaceReadsTheValueAlreadyOverwrittenInThisStep) {
  auto r = run({.algorithm = "kogge-stone", .schedule = "forward", .bug = "no-second-barrier"});
  const BlockViewModel m = build_block_view(*r, 0, 1, 0);  // offset 1: read and write with no barrier between
  const ArrowView* t3 = nullptr;
  for (const ArrowView& a : m.reads)
    if (a.thread == 3 && !t3) t3 = &a;  // partner = s[t - 1], before its own s[t] inside +=
  ASSERT_NE(t3, nullptr);
  EXPECT_EQ(t3->index, 2);
  EXPECT_EQ(t3->value, "3");  // 2 + 1: T2 already added its partner
  EXPECT_EQ(m.arrays[0].before[2].text, "2");  // the "before" row does not show what T3 read
  EXPECT_TRUE(t3->sees_write_of_this_step);
  EXPECT_EQ(t3->writer, 2);
  EXPECT_NE(operation_text(*r, 0, 1, m, t3->order).find("T3 reads shared[2] = 3"), std::string::npos);
  EXPECT_NE(operation_text(*r, 0, 1, m, t3->order).find("written this step by T2"), std::string::npos);
  // Replaying the operations up to T3's read shows the cell as T3 found it.
  EXPECT_EQ(cells_after(m, t3->order)[0][2].text, "3");
  EXPECT_EQ(cells_after(m, 0)[0][2].text, "2");
  EXPECT_EQ(texts(cells_after(m, static_cast<int>(m.operations.size()))[0]), texts(m.arrays[0].after));
}

TEST(StepView, ARaceInsideOneWarpIsAWarningAsInTheHazardsPanel) {
  auto small = run({.algorithm = "kogge-stone", .schedule = "forward", .bug = "no-second-barrier"});  // TPB 8
  const BlockViewModel m = build_block_view(*small, 0, 1, 0);
  bool any = false;
  for (const ArrowView& a : m.reads)
    if (a.racy) {
      any = true;
      EXPECT_TRUE(a.race_within_warp) << "T" << a.thread;
    }
  EXPECT_TRUE(any);
  auto wide = run({.algorithm = "kogge-stone", .n = 64, .tpb = 64, .schedule = "forward", .bug = "no-second-barrier"});
  const BlockViewModel w = build_block_view(*wide, 0, 1, 0);
  for (const ArrowView& a : w.reads)
    if (a.thread == 32 && a.index == 31) {
      EXPECT_FALSE(a.race_within_warp);  // T32 reads what T31 wrote
    }
  EXPECT_TRUE(w.arrays[0].after[31].racy && !w.arrays[0].after[31].race_within_warp);
}

TEST(StepView, AFocusWindowOnALargeBlockExplainsEveryArrowThatLeavesIt) {
  auto r = run({.algorithm = "kogge-stone", .n = 1024, .tpb = 1024, .dtype = "int32"});
  const BlockViewModel m = build_block_view(*r, 0, 19, 0);  // offset 512, read phase
  ASSERT_EQ(m.caption, "offset 512, read phase: every thread t >= 512 reads its partner s[t - 512]");
  const FocusWindow w = focus_window(m, 512, 32);
  int stubs = 0, inside = 0;
  for (const FocusArrow& a : w.arrows) {
    if (a.stub) {
      ++stubs;
      EXPECT_FALSE(a.label.empty());
      EXPECT_NE(w.contains(a.thread), w.contains(a.column));  // exactly one end outside
    } else {
      ++inside;
      EXPECT_TRUE(w.contains(a.thread) && w.contains(a.column));
    }
  }
  EXPECT_EQ(stubs, 32);  // T512..T543 read s[0..31]: every arrow starts outside
  EXPECT_EQ(w.arrows.front().label, "from t-512");
  // Every arrow with an end in the window is there.
  int touching = 0;
  for (const ArrowView& a : m.reads) touching += w.contains(a.thread) || w.contains(a.index);
  for (const ArrowView& a : m.writes) touching += w.contains(a.thread) || w.contains(a.index);
  EXPECT_EQ(static_cast<int>(w.arrows.size()), touching);
  // A window at the start: the cells read by threads outside it.
  const FocusWindow low = focus_window(m, 0, 32);
  ASSERT_FALSE(low.arrows.empty());
  EXPECT_EQ(low.arrows.front().label, "read by T512");
  EXPECT_EQ(inside, 0);
}

TEST(StepView, ThreadsSayWhatTheyHoldAndHowTheWriteIsMade) {
  auto r = run({.algorithm = "kogge-stone"});  // lockstep, iota 0..7
  const BlockViewModel read = build_block_view(*r, 0, 5, 0);   // offset 4, read phase
  EXPECT_EQ(read.thread_views[5].holds, "partner = 1");       // s[1] after offset 2
  const BlockViewModel write = build_block_view(*r, 0, 6, 0);  // offset 4, write phase
  EXPECT_EQ(write.thread_views[5].writes, "15 = 14 + 1");      // s[5] += partner
  EXPECT_EQ(write.thread_views[5].holds, "shared[5] = 14");  // the read of s[t] inside +=
  EXPECT_NE(write.activity.find("threads write shared[t]"), std::string::npos) << write.activity;
  EXPECT_NE(read.activity.find("threads read shared[t-4]"), std::string::npos) << read.activity;
  // The kernel's own words for the step (c.caption in kernels/kogge_stone.h).
  EXPECT_EQ(read.caption, "offset 4, read phase: every thread t >= 4 reads its partner s[t - 4]");
  EXPECT_EQ(write.caption, "offset 4, write phase: every thread t >= 4 adds its partner, s[t] += partner");
}

TEST(StepView, TheWarpScanIsFollowableRoundByRound) {
  auto r = run({.algorithm = "block-exclusive-sum", .n = 32, .tpb = 32, .dtype = "int32", .input = "iota"});
  const BlockViewModel m = build_block_view(*r, 0, 0, 0);
  ASSERT_GE(m.shuffles.size(), 5u);
  auto sum = [](int lo, int hi) { return lo > hi ? 0 : (lo + hi) * (hi - lo + 1) / 2; };  // iota: sum of lo..hi
  for (int k = 0; k < 5; ++k) {
    const ShuffleRound& round = m.shuffles[k];
    const int delta = 1 << k;
    EXPECT_EQ(round.op, "shfl_up");
    int moved = 0;
    for (const auto& a : round.arrows) {
      if (a.own) {
        EXPECT_LT(a.to_lane, delta);
        continue;
      }
      ++moved;
      EXPECT_EQ(a.from_lane, a.to_lane - delta);
      // What lane `from` held after the previous round: the sum of its last `delta` inputs.
      EXPECT_EQ(a.value, std::to_string(sum(std::max(0, a.from_lane - delta + 1), a.from_lane)))
          << "round " << k << " lane " << a.to_lane;
    }
    EXPECT_EQ(moved, 32 - delta) << "round " << k;
  }
  EXPECT_EQ(m.shuffles[6].op, "shfl_idx");
  // Round by round in the order they ran: replaying up to a round's last lane shows it complete.
  for (size_t k = 1; k < m.shuffles.size(); ++k) EXPECT_LT(m.shuffles[k - 1].last_order, m.shuffles[k].first_order);
}

TEST(StepView, TheLaunchFrameHoldsWhatEveryStepNeeds) {
  // The warp scan: step 0 runs 8 rounds per warp, step 1 warp 0's scan of the totals, step 2 none;
  // the frame reserves 8 lane rows and each step's caption, so the picture stays put.
  auto r = run({.algorithm = "block-exclusive-sum", .n = 64, .tpb = 64, .dtype = "int32"});
  const int steps = r->sim.trace.launches[0].steps;
  const LaunchFrame f = launch_frame(*r, 0, 0);
  EXPECT_EQ(f.warp_rounds, 8);
  EXPECT_EQ(f.columns, 64);
  EXPECT_EQ(f.shared_rows, 1);
  ASSERT_EQ(static_cast<int>(f.captions.size()), steps);
  for (int step = 0; step < steps; ++step) {
    const BlockViewModel m = build_block_view(*r, 0, step, 0);
    EXPECT_EQ(f.captions[step], m.caption);
    for (const ShuffleRound& round : m.shuffles) EXPECT_LT(round.rank, f.warp_rounds);
  }
  EXPECT_TRUE(build_block_view(*r, 0, steps - 1, 0).shuffles.empty());
}

TEST(StepView, EveryWarpsRoundKSharesALaneRow) {
  // 4 warps: however the schedule interleaves them, each warp's rounds are ranked 0, 1, 2, ... in
  // the order that warp ran them, so round k of every warp is drawn on one row.
  for (const char* schedule : {"lockstep", "forward", "reverse"}) {
    auto r = run({.algorithm = "block-exclusive-sum", .n = 128, .tpb = 128, .dtype = "int32", .schedule = schedule});
    const BlockViewModel m = build_block_view(*r, 0, 0, 0);
    std::map<int, std::vector<const ShuffleRound*>> by_warp;
    for (const ShuffleRound& round : m.shuffles) by_warp[round.warp].push_back(&round);
    ASSERT_EQ(by_warp.size(), 4u) << schedule;
    for (const auto& [warp, rounds] : by_warp) {
      ASSERT_EQ(rounds.size(), by_warp.begin()->second.size()) << schedule << " warp " << warp;
      for (size_t k = 0; k < rounds.size(); ++k) {
        EXPECT_EQ(rounds[k]->rank, static_cast<int>(k)) << schedule << " warp " << warp;
        EXPECT_EQ(rounds[k]->op, by_warp.begin()->second[k]->op) << schedule << " warp " << warp << " round " << k;
      }
    }
  }
}

TEST(StepView, GlobalAccessesAreInThePicture) {
  auto seed = run({.algorithm = "two-phase-scan"});  // seed 000: n=15, 2 blocks, two launches
  for (int launch = 0; launch < 2; ++launch) {
    const int last = seed->sim.trace.launches[launch].steps - 1;
    for (int block = 0; block < 2; ++block) {
      const BlockViewModel m = build_block_view(*seed, launch, last, block);
      EXPECT_FALSE(m.operations.empty()) << "launch " << launch << " block " << block;
    }
  }
  auto h = run({.algorithm = "hierarchical-scan", .n = 64, .tpb = 8, .blocks = {1}});
  const auto& launches = h->sim.trace.launches;
  const int add = static_cast<int>(launches.size()) - 1;  // the add launch
  const BlockViewModel m = build_block_view(*h, add, launches[add].steps - 1, 1);
  EXPECT_FALSE(m.global_reads.empty());
  EXPECT_FALSE(m.global_writes.empty());
  EXPECT_FALSE(m.global_write_arrows.empty());
}

}  // namespace
}  // namespace syncscope::app
