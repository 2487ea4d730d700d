// Atomics, shuffle masks and widths, votes, active_mask, fence and nanosleep: what each computes (against
// values worked out by hand or a sequential reference), how the detector treats them, and that
// misuse of a mask is reported with the lane it names. The starter kernel files of assets/kernels
// run under every schedule against their CPU references.
#include <gtest/gtest.h>

#include <random>

#include "sim/describe.h"
#include "sim/warp_unit.h"
#include "tests/test_util.h"
#include "tests/user_kernels/list.h"

namespace syncscope::test {
namespace {

const char* const kSchedules[] = {"lockstep", "forward", "reverse", "random:5"};

sim::SimOptions with_schedule(const char* schedule) {
  sim::SimOptions o;
  o.schedule = *sim::Schedule::parse(schedule, nullptr);
  return o;
}

// ---- shuffles: PTX's source-lane rule, worked out by hand ----

TEST(WarpApi, ShuffleSourcesFollowTheSegmentWidth) {
  using sim::WarpOp;
  // width 8: lane 13 is lane 5 of the segment 8..15
  EXPECT_EQ(sim::shuffle_source(WarpOp::ShflIdx, 13, 2, 8).lane, 10);
  EXPECT_EQ(sim::shuffle_source(WarpOp::ShflIdx, 13, 10, 8).lane, 10);  // 10 mod 8 = 2
  EXPECT_EQ(sim::shuffle_source(WarpOp::ShflUp, 13, 5, 8).lane, 8);
  EXPECT_TRUE(sim::shuffle_source(WarpOp::ShflUp, 13, 6, 8).own);      // 7 is in the segment below
  EXPECT_EQ(sim::shuffle_source(WarpOp::ShflDown, 13, 2, 8).lane, 15);
  EXPECT_TRUE(sim::shuffle_source(WarpOp::ShflDown, 13, 3, 8).own);    // 16 is in the next segment
  EXPECT_EQ(sim::shuffle_source(WarpOp::ShflXor, 13, 4, 8).lane, 9);
  // A later segment may read an earlier one; an earlier one reading a later keeps its own value.
  EXPECT_EQ(sim::shuffle_source(WarpOp::ShflXor, 13, 8, 8).lane, 5);
  EXPECT_TRUE(sim::shuffle_source(WarpOp::ShflXor, 5, 8, 8).own);
  // full width: only out-of-warp sources keep their own value
  EXPECT_TRUE(sim::shuffle_source(WarpOp::ShflDown, 30, 2, 32).own);
  EXPECT_EQ(sim::shuffle_source(WarpOp::ShflUp, 30, 2, 32).lane, 28);
}

// Every lane t holds 100 + t and shuffles with width 4: a segmented broadcast of each group's lane 1.
struct SegmentedBroadcast {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array x, Array y, int) const {
    using T = value_of<Array>;
    const int t = c.thread_idx().x;
    y[t] = c.shfl_sync(0xffffffffu, T(x[t]), 1, 4);
  }
};

TEST(WarpApi, AWidthSplitsTheWarpIntoSegments) {
  std::vector<float> in(32);
  for (int t = 0; t < 32; ++t) in[t] = 100.0f + t;
  for (const char* s : kSchedules) {
    const KernelRun r = run_kernel(SegmentedBroadcast{}, Dim3{1}, Dim3{32}, 0, in, 32, with_schedule(s));
    ASSERT_FALSE(r.trace.error) << s << ": " << r.trace.error->message;
    for (int t = 0; t < 32; ++t) EXPECT_EQ(r.out[t], 100.0f + (t / 4) * 4 + 1) << s << " lane " << t;
  }
}

// __reduce_add_sync and __match_any_sync (contract/warp_ops.h), each half of the warp with its own
// mask: lane t holds t % 5; each lane writes the sum of its half, then the lanes holding its value.
struct ReduceAndMatchInHalves {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array x, Array y, int) const {
    using T = value_of<Array>;
    const int t = c.thread_idx().x;
    const unsigned half = t < 16 ? 0x0000ffffu : 0xffff0000u;
    const T v = T(x[t]);
    const T sum = c.reduce_add_sync(half, v);
    const unsigned same = c.match_any_sync(half, int(v) % 5);
    y[t] = sum;
    y[32 + t] = T(static_cast<int>(same));
  }
};

TEST(WarpApi, ReduceAddAndMatchAnyOverTheirMasks) {
  for (const char* s : kSchedules) {
    const KernelRun r = run_kernel<int>(ReduceAndMatchInHalves{}, Dim3{1}, Dim3{32}, 0, iota(32), 64, with_schedule(s));
    ASSERT_FALSE(r.trace.error) << s << ": " << r.trace.error->message;
    for (int t = 0; t < 32; ++t) {
      const int first = t < 16 ? 0 : 16;
      int sum = 0;
      unsigned same = 0;
      for (int l = first; l < first + 16; ++l) {
        sum += l;
        if (l % 5 == t % 5) same |= 1u << l;
      }
      EXPECT_EQ(r.out[t], sum) << s << " lane " << t;
      EXPECT_EQ(static_cast<unsigned>(static_cast<int>(r.out[32 + t])), same) << s << " lane " << t;
    }
  }
}

// __reduce_and/or/xor_sync over a mask of the odd lanes (lane t holds 3t + 1): each lane of the mask
// gets the bitwise fold of the mask's values; the even lanes pass their own value through.
struct BitwiseReductionsOverOddLanes {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array x, Array y, int) const {
    using T = value_of<Array>;
    const int t = c.thread_idx().x;
    const T v = T(x[t]) * T(3) + T(1);
    if (t % 2 == 1) {
      const unsigned odd = 0xaaaaaaaau;
      y[t] = c.reduce_and_sync(odd, v);
      y[32 + t] = c.reduce_or_sync(odd, v);
      y[64 + t] = c.reduce_xor_sync(odd, v);
    } else {
      y[t] = y[32 + t] = y[64 + t] = v;
    }
  }
};

TEST(WarpApi, BitwiseReductionsFoldEveryLaneOfTheirMask) {
  int all_and = -1, any_or = 0, odd_xor = 0;
  for (int l = 1; l < 32; l += 2) all_and &= 3 * l + 1, any_or |= 3 * l + 1, odd_xor ^= 3 * l + 1;
  for (const char* s : kSchedules) {
    const KernelRun r =
        run_kernel<int>(BitwiseReductionsOverOddLanes{}, Dim3{1}, Dim3{32}, 0, iota(32), 96, with_schedule(s));
    ASSERT_FALSE(r.trace.error) << s << ": " << r.trace.error->message;
    for (int t = 0; t < 32; ++t) {
      const bool odd = t % 2 == 1;
      EXPECT_EQ(r.out[t], odd ? all_and : 3 * t + 1) << s << " lane " << t;
      EXPECT_EQ(r.out[32 + t], odd ? any_or : 3 * t + 1) << s << " lane " << t;
      EXPECT_EQ(r.out[64 + t], odd ? odd_xor : 3 * t + 1) << s << " lane " << t;
    }
  }
}

// __reduce_min/max_sync compare an int signed and an unsigned unsigned (CUDA's two overloads):
// lane t holds 7 - t * 3 (negative from lane 3), so the ints' least is the last lane's -86, while
// the same bits as unsigned make that lane's the greatest and lane 2's 1 the least.
struct MinMaxSignedAndUnsigned {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array x, Array y, int) const {
    using T = value_of<Array>;
    const int t = c.thread_idx().x;
    const int v = 7 - int(T(x[t])) * 3;
    const unsigned u = static_cast<unsigned>(v);
    y[t] = T(c.reduce_min(v));
    y[32 + t] = T(c.reduce_max(v));
    y[64 + t] = T(static_cast<int>(c.reduce_min_sync(0xffffffffu, u)));
    y[96 + t] = T(static_cast<int>(c.reduce_max_sync(0xffffffffu, u)));
  }
};

TEST(WarpApi, MinAndMaxCompareAnIntSignedAndAnUnsignedUnsigned) {
  int least = 7, greatest = 7;
  unsigned uleast = 7, ugreatest = 7;
  for (int l = 0; l < 32; ++l) {
    const int v = 7 - l * 3;
    least = std::min(least, v), greatest = std::max(greatest, v);
    uleast = std::min(uleast, static_cast<unsigned>(v)), ugreatest = std::max(ugreatest, static_cast<unsigned>(v));
  }
  ASSERT_EQ(least, -86);
  ASSERT_EQ(uleast, 1u);
  for (const char* s : kSchedules) {
    const KernelRun r = run_kernel<int>(MinMaxSignedAndUnsigned{}, Dim3{1}, Dim3{32}, 0, iota(32), 128, with_schedule(s));
    ASSERT_FALSE(r.trace.error) << s << ": " << r.trace.error->message;
    for (int t = 0; t < 32; ++t) {
      EXPECT_EQ(r.out[t], least) << s << " lane " << t;
      EXPECT_EQ(r.out[32 + t], greatest) << s << " lane " << t;
      EXPECT_EQ(static_cast<unsigned>(static_cast<int>(r.out[64 + t])), uleast) << s << " lane " << t;
      EXPECT_EQ(static_cast<unsigned>(static_cast<int>(r.out[96 + t])), ugreatest) << s << " lane " << t;
    }
  }
}

// A sum over a value from uninitialized memory is unknown for every lane.
struct ReduceOfPoison {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array, Array y, int) const {
    using T = value_of<Array>;
    auto s = shared_array<T, 32>(c, "never_written");
    const int t = c.thread_idx().x;
    const T v = t == 7 ? T(s[t]) : T(1);
    y[t] = c.reduce_add(v);
  }
};

TEST(WarpApi, AReductionOverAnUnknownValueIsUnknown) {
  const KernelRun r = run_kernel<int>(ReduceOfPoison{}, Dim3{1}, Dim3{32}, shared_bytes_for(32), iota(32), 32,
                                      with_schedule("lockstep"));
  ASSERT_FALSE(r.trace.error);
  for (int t = 0; t < 32; ++t) EXPECT_TRUE(r.poison[t]) << t;
}

// The two halves of a warp shuffle at different lines at once, each with its own mask.
struct HalvesShuffleApart {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array x, Array y, int) const {
    using T = value_of<Array>;
    const int t = c.thread_idx().x;
    T v = T(x[t]);
    if (t < 16) v = c.shfl_down_sync(0x0000ffffu, v, 1);
    else v = c.shfl_up_sync(0xffff0000u, v, 1);
    y[t] = v;
  }
};

TEST(WarpApi, DisjointMasksShuffleIndependently) {
  for (const char* s : kSchedules) {
    const KernelRun r = run_kernel(HalvesShuffleApart{}, Dim3{1}, Dim3{32}, 0, iota(32), 32, with_schedule(s));
    ASSERT_FALSE(r.trace.error) << s << ": " << r.trace.error->message;
    EXPECT_TRUE(r.trace.hazards.empty()) << s;
    for (int t = 0; t < 15; ++t) EXPECT_EQ(r.out[t], t + 1) << s;
    // Lanes 15 and 16 read a lane outside their own mask: undefined (shown as ?).
    EXPECT_TRUE(r.poison[15]) << s;
    EXPECT_TRUE(r.poison[16]) << s;
    for (int t = 17; t < 32; ++t) EXPECT_EQ(r.out[t], t - 1) << s;
  }
}

// The classic wrong mask: half the warp shuffles with the full mask.
struct FullMaskInHalfAWarp {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array x, Array y, int) const {
    using T = value_of<Array>;
    const int t = c.thread_idx().x;
    T v = T(x[t]);
    if (t < 16) v = c.shfl_down_sync(0xffffffffu, v, 1);
    y[t] = v;
  }
};

TEST(WarpApi, AMaskNamingALaneThatNeverArrivesIsReported) {
  for (const char* s : kSchedules) {
    const KernelRun r = run_kernel(FullMaskInHalfAWarp{}, Dim3{1}, Dim3{32}, 0, iota(32), 32, with_schedule(s));
    ASSERT_TRUE(r.trace.error) << s;
    ASSERT_FALSE(r.trace.hazards.empty()) << s;
    const sim::HazardGroup g = r.trace.hazards.groups()[0];
    EXPECT_EQ(g.first.kind, sim::HazardKind::InactiveMaskLane) << s;
    EXPECT_EQ(g.first.mask, 0xffffffffu) << s;
    EXPECT_GE(g.first.thread_first, 16) << s;  // a lane of the other half
    const std::string text = sim::describe_hazard(g, r.trace);
    EXPECT_NE(text.find("mask 0xffffffff"), std::string::npos) << text;
    EXPECT_NE(text.find("names T"), std::string::npos) << text;
  }
}

struct MaskWithoutTheCaller {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array x, Array y, int) const {
    using T = value_of<Array>;
    const int t = c.thread_idx().x;
    y[t] = c.shfl_sync(0x0000000fu, T(x[t]), 0);
  }
};

struct MaskPastTheBlock {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array x, Array y, int) const {
    using T = value_of<Array>;
    const int t = c.thread_idx().x;
    y[t] = c.shfl_sync(0xffffffffu, T(x[t]), 0);  // the block has 8 threads
  }
};

TEST(WarpApi, AMaskWithoutTheCallerOrPastTheBlockIsReported) {
  const KernelRun self = run_kernel(MaskWithoutTheCaller{}, Dim3{1}, Dim3{8}, 0, iota(8), 8);
  ASSERT_TRUE(self.trace.error);
  EXPECT_NE(self.trace.error->message.find("does not name its own lane"), std::string::npos) << self.trace.error->message;
  EXPECT_EQ(self.trace.hazards.groups().at(0).first.mask_problem, sim::MaskProblem::CallerNotInMask);

  const KernelRun past = run_kernel(MaskPastTheBlock{}, Dim3{1}, Dim3{8}, 0, iota(8), 8);
  ASSERT_TRUE(past.trace.error);
  EXPECT_NE(past.trace.error->message.find("has only 8 lanes"), std::string::npos) << past.trace.error->message;
  EXPECT_EQ(past.trace.hazards.groups().at(0).first.mask_problem, sim::MaskProblem::LaneNotInBlock);
}

struct BadWidth {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array x, Array y, int) const {
    using T = value_of<Array>;
    const int t = c.thread_idx().x;
    y[t] = c.shfl_up_sync(0xffu, T(x[t]), 1, 6);
  }
};

TEST(WarpApi, AWidthThatIsNotAPowerOfTwoStopsTheRun) {
  const KernelRun r = run_kernel(BadWidth{}, Dim3{1}, Dim3{8}, 0, iota(8), 8);
  ASSERT_TRUE(r.trace.error);
  EXPECT_NE(r.trace.error->message.find("width 6 must be a power of two from 1 to 32"), std::string::npos)
      << r.trace.error->message;
}

// ---- votes and active_mask ----

// Lane t votes t % 3 == 0; each lane writes the ballot, any and all of it, and of "always".
struct Votes {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array, Array y, int) const {
    using T = value_of<Array>;
    const int t = c.thread_idx().x;
    const bool p = t % 3 == 0;
    const unsigned b = c.ballot(p);
    y[4 * t] = T(static_cast<int>(b & 0xffffu));
    y[4 * t + 1] = T(c.any(p) + 2 * c.all(p));
    y[4 * t + 2] = T(c.all(true) + 2 * c.any(false));
    y[4 * t + 3] = T(static_cast<int>(c.ballot_sync(0xffu, t < 8 && t % 2 == 1) & 0xffffu));
  }
};

TEST(WarpApi, VotesGiveEveryLaneTheWarpsAnswer) {
  for (const char* s : kSchedules) {
    const KernelRun r = run_kernel(Votes{}, Dim3{1}, Dim3{8}, 0, iota(8), 32, with_schedule(s));
    ASSERT_FALSE(r.trace.error) << s << ": " << r.trace.error->message;
    for (int t = 0; t < 8; ++t) {
      EXPECT_EQ(r.out[4 * t], static_cast<float>(0x49)) << s;      // lanes 0, 3, 6
      EXPECT_EQ(r.out[4 * t + 1], 1.0f) << s;                      // any, not all
      EXPECT_EQ(r.out[4 * t + 2], 1.0f) << s;                      // all(true), not any(false)
      EXPECT_EQ(r.out[4 * t + 3], static_cast<float>(0xaa)) << s;  // lanes 1, 3, 5, 7
    }
  }
}

// In lockstep, active_mask() inside a branch gives the lanes that took it (the probe has a SIMT
// twin, so lanes are grouped by program position).
TEST(WarpApi, ActiveMaskInLockstepIsTheBranchsLanes) {
  for (int tpb : {64, 40, 7}) {
    const RunResult r =
        run_algorithm({.algorithm = "active-mask-probe", .n = 100, .tpb = tpb, .schedule = "lockstep"}, user::probe_registry());
    ASSERT_FALSE(r.sim.trace.error);
    EXPECT_TRUE(r.comparison.match) << "tpb " << tpb;
  }
  // Outside lockstep lanes run one at a time: each is alone (lane 0 on the even side: 1; lane 3 on the
  // odd side: its own bit, flipped in bit 0 by the probe), never a lane of the other side.
  for (const char* schedule : {"forward", "reverse", "random:3"}) {
    const RunResult f =
        run_algorithm({.algorithm = "active-mask-probe", .n = 32, .tpb = 32, .schedule = schedule}, user::probe_registry());
    EXPECT_EQ(output_text(f).at(0), "1") << schedule;
    EXPECT_EQ(output_text(f).at(3), std::to_string((1 << 3) ^ 1)) << schedule;
  }
}

// ---- atomics ----

// Every thread adds x[t] into s[0] and the block's total into out[0]; also min, max, exch, cas.
struct AtomicsEverywhere {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array x, Array y, int) const {
    using T = value_of<Array>;
    auto s = shared_array<T, 4>(c, "s");
    const int t = c.thread_idx().x;
    if (t == 0) {
      s[0] = T(0);
      s[1] = T(1000);
      s[2] = T(-1000);
      s[3] = T(0);
    }
    c.sync();
    const T v = T(x[t]);
    c.atomic_add(s[0], v);
    c.atomic_min(s[1], v);
    c.atomic_max(s[2], v);
    c.atomic_cas(s[3], T(0), v + T(1));  // only the first thread finds 0
    c.fence();
    c.sync();
    if (t == 0) {
      y[0] = s[0];
      y[1] = s[1];
      y[2] = s[2];
      y[3] = c.atomic_exch(s[3], T(7));  // returns what the cas left
      y[4] = s[3];
    }
  }
};

TEST(WarpApi, AtomicsComputeWhatTheirOrderAllows) {
  std::vector<float> in(40);
  for (int t = 0; t < 40; ++t) in[t] = static_cast<float>((t * 7) % 40) - 10;
  float sum = 0, lo = 1000, hi = -1000;
  for (float v : in) sum += v, lo = std::min(lo, v), hi = std::max(hi, v);
  for (const char* s : kSchedules) {
    const KernelRun r = run_kernel(AtomicsEverywhere{}, Dim3{1}, Dim3{40}, shared_bytes_for(4), in, 5, with_schedule(s));
    ASSERT_FALSE(r.trace.error) << s;
    EXPECT_TRUE(r.trace.hazards.empty()) << s << ": " << sim::describe_hazard(r.trace.hazards.groups()[0], r.trace);
    EXPECT_EQ(r.out[0], sum) << s;
    EXPECT_EQ(r.out[1], lo) << s;
    EXPECT_EQ(r.out[2], hi) << s;
    // The cas stored the first thread's value + 1, whichever thread the schedule ran first.
    bool some_thread = false;
    for (float v : in) some_thread |= r.out[3] == v + 1;
    EXPECT_TRUE(some_thread) << s << ": " << r.out[3];
    EXPECT_EQ(r.out[4], 7) << s;
  }
}

TEST(WarpApi, AtomicsAndTheFenceAreInTheTrace) {
  sim::SimOptions o = with_schedule("lockstep");
  const KernelRun r = run_kernel(AtomicsEverywhere{}, Dim3{1}, Dim3{8}, shared_bytes_for(4), iota(8), 5, o);
  int atomics = 0, fences = 0;
  std::string text;
  for (const auto& step : r.trace.launches.at(0).blocks.at(0).steps)
    for (const sim::Event& e : step.events) {
      if (e.flags & sim::kAtomic) {
        ++atomics;
        if (e.atomic == sim::AtomicOp::Add && text.empty()) text = sim::describe_event(e, r.trace, DType::Float32);
      }
      fences += e.kind == sim::EventKind::Fence;
    }
  EXPECT_EQ(atomics, 8 * 4 + 1);
  EXPECT_EQ(fences, 8);
  EXPECT_EQ(text.rfind("atomic_add s[0]: 0 -> ", 0), 0u) << text;
}

// Even threads store the pair (t, t) and odd threads load it, with no barrier between: a pair
// moves as one, so a load never sees one thread's first half with another's second.
struct PairsMoveWhole {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array, Array y, int) const {
    using T = value_of<Array>;
    auto s = shared_array<T, 2>(c, "s");
    const int t = c.thread_idx().x;
    if (t == 0) c.atomic_store_pair(s, 0, {T(-1), T(-1)});
    c.sync();
    if (t % 2 == 0) {
      c.atomic_store_pair(s, 0, {T(t), T(t)});
      y[t] = T(t);
    } else {
      const Pair<T> p = c.atomic_load_pair(s, 0);
      y[t] = p.first == p.second ? p.first : T(-100);
    }
  }
};

TEST(WarpApi, APairIsStoredAndLoadedWhole) {
  for (const char* s : kSchedules) {
    const KernelRun r = run_kernel(PairsMoveWhole{}, Dim3{1}, Dim3{64}, shared_bytes_for(2), iota(64), 64, with_schedule(s));
    ASSERT_FALSE(r.trace.error) << s << ": " << r.trace.error->message;
    EXPECT_TRUE(r.trace.hazards.empty()) << s << ": " << sim::describe_hazard(r.trace.hazards.groups()[0], r.trace);
    for (int t = 1; t < 64; t += 2) {
      // what some even thread (or thread 0 before the barrier) stored, both halves alike
      EXPECT_TRUE(r.out[t] == -1 || (r.out[t] >= 0 && static_cast<int>(r.out[t]) % 2 == 0)) << s << " T" << t << ": " << r.out[t];
    }
    // In the trace each pair is two atomics of one thread, one after the other.
    std::vector<sim::Event> atomics;
    for (const auto& step : r.trace.launches.at(0).blocks.at(0).steps)
      for (const sim::Event& e : step.events)
        if (e.flags & sim::kAtomic) atomics.push_back(e);
    ASSERT_EQ(atomics.size(), 2u * 65) << s;
    for (size_t k = 0; k < atomics.size(); k += 2) {
      EXPECT_EQ(atomics[k].thread, atomics[k + 1].thread) << s;
      EXPECT_EQ(atomics[k].index + 1, atomics[k + 1].index) << s;
    }
  }
}

// Odd lanes sleep before a shuffle that every lane meets; with Sleep false nobody does.
template <bool Sleep>
struct SleepBeforeAShuffle {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array x, Array y, int) const {
    using T = value_of<Array>;
    const int t = c.thread_idx().x;
    const T mine = x[t];
    if (Sleep && t % 2 == 1) c.nanosleep(1000);
    y[t] = c.shfl_down(mine, 1);
  }
};

TEST(WarpApi, ASleepChangesNeitherValuesNorTheTrace) {
  for (const char* s : kSchedules) {
    const KernelRun slept = run_kernel(SleepBeforeAShuffle<true>{}, Dim3{1}, Dim3{32}, 0, iota(32), 32, with_schedule(s));
    const KernelRun awake = run_kernel(SleepBeforeAShuffle<false>{}, Dim3{1}, Dim3{32}, 0, iota(32), 32, with_schedule(s));
    ASSERT_FALSE(slept.trace.error) << s << ": " << slept.trace.error->message;
    for (int t = 0; t < 32; ++t) EXPECT_EQ(slept.out[t], t < 31 ? t + 1 : 31) << s << " T" << t;
    const auto& a = slept.trace.launches.at(0).blocks.at(0).steps;
    const auto& b = awake.trace.launches.at(0).blocks.at(0).steps;
    ASSERT_EQ(a.size(), b.size()) << s;
    for (size_t k = 0; k < a.size(); ++k) {
      ASSERT_EQ(a[k].events.size(), b[k].events.size()) << s;
      for (size_t e = 0; e < a[k].events.size(); ++e) {
        EXPECT_EQ(a[k].events[e].thread, b[k].events[e].thread) << s;
        EXPECT_EQ(a[k].events[e].kind, b[k].events[e].kind) << s;
      }
    }
  }
}

// An atomic and a plain access of one cell in one interval race; two atomics never do.
struct AtomicThenPlainRead {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array x, Array y, int) const {
    using T = value_of<Array>;
    auto s = shared_array<T, 1>(c, "s");
    const int t = c.thread_idx().x;
    if (t == 0) s[0] = T(0);
    c.sync();
    c.atomic_add(s[0], T(x[t]));
    if (t == 0) y[0] = s[0];  // no barrier after the other warps' atomics
  }
};

TEST(WarpApi, AnAtomicAndAPlainAccessOfOneCellRace) {
  for (const char* s : kSchedules) {
    const KernelRun r = run_kernel(AtomicThenPlainRead{}, Dim3{1}, Dim3{64}, shared_bytes_for(1), iota(64), 1,
                                   with_schedule(s));
    ASSERT_FALSE(r.trace.hazards.empty()) << s;
    const sim::HazardGroup g = r.trace.hazards.groups()[0];
    // Two reader slots per cell: in reverse order only the atomics of T0's own warp are still
    // there when it reads, so the race it names is the within-warp one (a warning).
    if (std::string(s) != "reverse") {
      EXPECT_EQ(g.first.severity, sim::Severity::Error) << s;
    }
    EXPECT_TRUE(g.first.first_atomic || g.first.second_atomic) << s;
    const std::string text = sim::describe_hazard(g, r.trace);
    EXPECT_NE(text.find("atomic at"), std::string::npos) << text;
  }
}

// The Programming Guide's compare-and-swap loop: a plain read is the first guess, the CAS checks it
// and the loop retries with what the CAS found. Not a race; the same plain read followed by an
// atomicAdd instead (nothing checks the value read) still is one.
struct CasLoopMax {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array x, Array y, int) const {
    using T = value_of<Array>;
    auto s = shared_array<T, 1>(c, "largest");
    const int t = c.thread_idx().x;
    if (t == 0) s[0] = T(-1);
    c.sync();
    const T mine = T(x[t]);
    T old = s[0];  // the plain first guess
    for (;;) {
      const T assumed = old;
      old = c.atomic_cas(s[0], assumed, mine > assumed ? mine : assumed);
      if (old == assumed) break;
    }
    c.sync();
    if (t == 0) y[0] = s[0];
  }
};
struct PlainReadThenAtomicAdd {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array x, Array y, int) const {
    using T = value_of<Array>;
    auto s = shared_array<T, 1>(c, "total");
    const int t = c.thread_idx().x;
    if (t == 0) s[0] = T(0);
    c.sync();
    const T seen = s[0];  // read while other threads add
    c.atomic_add(s[0], T(x[t]));
    y[1 + t] = seen;
  }
};

TEST(WarpApi, ACasLoopsFirstPlainReadIsAGuessNotARace) {
  for (const char* s : kSchedules) {
    const KernelRun r =
        run_kernel(CasLoopMax{}, Dim3{1}, Dim3{96}, shared_bytes_for(1), iota(96), 1, with_schedule(s));
    ASSERT_FALSE(r.trace.error) << s << ": " << r.trace.error->message;
    EXPECT_EQ(r.out[0], 95.0f) << s;
    EXPECT_TRUE(r.trace.hazards.empty()) << s << ": " << sim::describe_hazard(r.trace.hazards.groups()[0], r.trace);
    const KernelRun added =
        run_kernel(PlainReadThenAtomicAdd{}, Dim3{1}, Dim3{96}, shared_bytes_for(1), iota(96), 97, with_schedule(s));
    ASSERT_FALSE(added.trace.hazards.empty()) << s << ": an atomicAdd checks nothing";
    const sim::HazardGroup g = added.trace.hazards.groups()[0];
    EXPECT_TRUE(g.first.first_atomic || g.first.second_atomic) << s;
  }
}

// Blocks add into one global cell with atomics: no cross-block race. A plain read of it does race.
struct BlocksAddIntoOneCell {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array x, Array y, int n) const {
    using T = value_of<Array>;
    const int i = c.block_idx().x * c.block_dim().x + c.thread_idx().x;
    if (i < n) c.atomic_add(y[0], T(x[i]));
  }
};
struct BlocksAddThenRead {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array x, Array y, int n) const {
    using T = value_of<Array>;
    const int i = c.block_idx().x * c.block_dim().x + c.thread_idx().x;
    if (i < n) c.atomic_add(y[0], T(x[i]));
    if (c.thread_idx().x == 0) y[1 + c.block_idx().x] = y[0];  // another block's atomics may come later
  }
};

TEST(WarpApi, AtomicsAcrossBlocksDoNotRaceButAPlainReadOfTheirCellDoes) {
  for (const char* s : kSchedules) {
    sim::Simulator simulator(with_schedule(s));
    sim::SimRuntime<float> rt(simulator, iota(256));
    auto total = rt.alloc_zeroed("total", 9);
    rt.launch("add", BlocksAddIntoOneCell{}, Dim3{8}, Dim3{32}, 0, rt.input(), total, 256);
    EXPECT_EQ(sim::from_bits<float>(simulator.global(total.id).bits[0]), 255.0f * 256 / 2) << s;
    EXPECT_TRUE(simulator.trace().hazards.empty()) << s;
    rt.launch("add then read", BlocksAddThenRead{}, Dim3{8}, Dim3{32}, 0, rt.input(), total, 256);
    const auto groups = simulator.trace().hazards.groups();
    ASSERT_FALSE(groups.empty()) << s;
    EXPECT_TRUE(groups[0].first.cross_block) << s;
  }
}

// ---- the starter kernel files, under every schedule, against their CPU references ----

TEST(StarterKernels, EveryScheduleMatchesTheReference) {
  std::mt19937 rng(11);
  for (const char* algo : {"atomic-reduce", "warp-vote", "brent-kung-scan", "warp-histogram"}) {
    for (int k = 0; k < 12; ++k) {
      RunOptions o{.algorithm = algo};
      o.n = std::uniform_int_distribution<int>(1, 3000)(rng);
      o.tpb = 1 << std::uniform_int_distribution<int>(0, 10)(rng);
      if (std::string(algo) != "brent-kung-scan" && k % 2) o.tpb = std::uniform_int_distribution<int>(1, 1024)(rng);
      o.input = "random:" + std::to_string(k);
      o.dtype = k % 3 ? "int32" : "float32";
      for (const char* s : kSchedules) {
        o.schedule = s;
        const RunResult r = run_algorithm(o, user::starter_registry());
        ASSERT_FALSE(r.sim.trace.error) << r.config.describe() << ": " << r.sim.trace.error->message;
        EXPECT_TRUE(r.comparison.match) << r.config.describe();
        EXPECT_TRUE(r.sim.trace.hazards.empty()) << r.config.describe();
      }
    }
  }
}

TEST(StarterKernels, TheirBugsAreReported) {
  for (const char* s : kSchedules) {
    RunOptions o{.algorithm = "atomic-reduce", .n = 256, .tpb = 128, .schedule = s, .bug = "plain-add"};
    const RunResult plain = run_algorithm(o, user::starter_registry());
    ASSERT_FALSE(plain.sim.trace.hazards.empty()) << s;
    EXPECT_EQ(plain.sim.trace.hazards.groups()[0].first.severity, sim::Severity::Error) << s;

    // Two warps' leaders of one bin add with a plain +=: a lost update between warps.
    RunOptions h{.algorithm = "warp-histogram", .n = 64, .tpb = 64, .input = "ones", .schedule = s, .bug = "plain-add"};
    const RunResult histogram = run_algorithm(h, user::starter_registry());
    ASSERT_FALSE(histogram.sim.trace.hazards.empty()) << s;
    EXPECT_EQ(histogram.sim.trace.hazards.groups()[0].first.severity, sim::Severity::Error) << s;

    RunOptions v{.algorithm = "warp-vote", .n = 64, .tpb = 64, .input = "iota", .schedule = s,
                 .bug = "full-mask-in-branch"};
    const RunResult vote = run_algorithm(v, user::starter_registry());
    ASSERT_TRUE(vote.sim.trace.error) << s;
    ASSERT_FALSE(vote.sim.trace.hazards.empty()) << s;
    EXPECT_EQ(vote.sim.trace.hazards.groups()[0].first.kind, sim::HazardKind::InactiveMaskLane) << s;
  }
}

}  // namespace
}  // namespace syncscope::test
