// The device side of a translated .cu (core/cuda_in/cu_device.h) beyond the kernel contract:
// __syncthreads_count/_and/_or (one barrier, every thread gets the block's count, AND, OR) and
// device printf (kept per thread, step and line in the trace, within caps; on stdout once per
// block, however often the simulator ran it). The kernels are written as the translator writes
// them (translate/rewrite_rules.cpp): the context first, pointers as cu::ptr.
#include <gtest/gtest.h>

#include <algorithm>
#include <iomanip>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/cuda_in/cu_device.h"
#include "sim/simulator.h"

namespace syncscope::test {
namespace {

template <class Ctx>
using int_ptr = cu::ptr<int, cu::same<Ctx>>;

// The global arrays a launch's kernel sees, by allocation order.
struct Arrays {
  sim::Simulator* simulator = nullptr;
  std::vector<int> ids;
  template <class Ctx>
  int_ptr<Ctx> at(Ctx& c, int k) const {
    return int_ptr<Ctx>(&c.runner(), &simulator->global(ids[k]), 0);
  }
};

template <class Kernel, class Ctx>
void thread_entry(void* closure, sim::BlockRunner& runner, int thread) {
  Ctx c(runner, thread);
  Kernel::run(c, *static_cast<const Arrays*>(closure));
}

int alloc_ints(sim::Simulator& s, const char* name, const std::vector<int>& values) {
  const int id = s.alloc_global(name, DType::Int32, static_cast<int>(values.size()), false);
  for (size_t i = 0; i < values.size(); ++i) s.global(id).bits[i] = sim::to_bits(static_cast<int32_t>(values[i]));
  return id;
}
std::vector<int> ints_of(sim::Simulator& s, int id) {
  std::vector<int> out;
  for (uint32_t b : s.global(id).bits) out.push_back(sim::from_bits<int32_t>(b));
  return out;
}

// Launches Kernel with its plain context and (under lockstep) its SimtCtx instantiation, offering
// a block's shared memory as a translated launch does (core/cuda_in/cu_host.h).
template <class Kernel>
void launch(sim::Simulator& s, Arrays& a, Dim3 grid, Dim3 block) {
  a.simulator = &s;
  s.launch("k", grid, block, sim::kMaxSharedBytesPerBlock, &thread_entry<Kernel, sim::SimCtx>, &thread_entry<Kernel, sim::SimtCtx>, &a);
}

std::vector<sim::Schedule> every_schedule() {
  return {{sim::ScheduleKind::Lockstep, 0}, {sim::ScheduleKind::Forward, 0}, {sim::ScheduleKind::Reverse, 0},
          {sim::ScheduleKind::Random, 3}};
}

// ---- __syncthreads_count / _and / _or ----

constexpr int kVoteThreads = 96;  // three warps
constexpr int kVoteBlocks = 6;    // more than are recorded: the others run fast

struct Votes {
  template <class SyncscopeCtx>
  static void run(SyncscopeCtx& _c, const Arrays& a) {
    int_ptr<SyncscopeCtx> data = a.at(_c, 0), out = a.at(_c, 1);
    const unsigned g = cu::block_idx(_c).x * cu::block_dim(_c).x + cu::thread_idx(_c).x;
    const int v = data[g];
    const int count = _c.sync_count(v > 50);
    const int all = _c.sync_and(v >= 3);
    const int any = _c.sync_or(v == 99);
    out[3 * g] = count;
    out[3 * g + 1] = all;
    out[3 * g + 2] = any;
  }
};

TEST(CudaDevice, CountingBarriersGiveEveryThreadTheBlocksCountAndAndOr) {
  std::mt19937 random(7);
  std::vector<int> data(kVoteThreads * kVoteBlocks);
  for (int& v : data) v = static_cast<int>(random() % 99);  // 0..98: no 99 unless planted
  for (int t = 0; t < kVoteThreads; ++t) data[t] = std::max(data[t], 3);  // block 0: every value >= 3
  data[2 * kVoteThreads + 77] = 99;  // block 2 has a 99; block 5 has one in its last thread
  data[6 * kVoteThreads - 1] = 99;
  for (const sim::Schedule& schedule : every_schedule()) {
    sim::SimOptions options;
    options.schedule = schedule;
    sim::Simulator s(options);
    Arrays a;
    a.ids = {alloc_ints(s, "data", data), alloc_ints(s, "out", std::vector<int>(3 * data.size(), -1))};
    launch<Votes>(s, a, {kVoteBlocks, 1, 1}, {kVoteThreads, 1, 1});
    ASSERT_FALSE(s.failed()) << schedule.name() << ": " << s.trace().error->message;
    const std::vector<int> out = ints_of(s, a.ids[1]);
    for (int b = 0; b < kVoteBlocks; ++b) {
      int count = 0, all = 1, any = 0;
      for (int t = 0; t < kVoteThreads; ++t) {
        const int v = data[b * kVoteThreads + t];
        count += v > 50;
        all &= v >= 3;
        any |= v == 99;
      }
      for (int t = 0; t < kVoteThreads; ++t) {
        const int g = b * kVoteThreads + t;
        ASSERT_EQ(out[3 * g], count) << schedule.name() << " block " << b << " thread " << t;
        ASSERT_EQ(out[3 * g + 1], all) << schedule.name() << " block " << b << " thread " << t;
        ASSERT_EQ(out[3 * g + 2], any) << schedule.name() << " block " << b << " thread " << t;
      }
    }
    // Each counting barrier is one barrier: three steps end at one, the fourth when the threads exit.
    const sim::BlockTrace& recorded = s.trace().launches[0].blocks.at(0);
    ASSERT_EQ(recorded.steps.size(), 4u) << schedule.name();
    std::set<sim::LineId> barriers;
    for (int k = 0; k < 3; ++k) barriers.insert(recorded.steps[k].barrier);
    EXPECT_EQ(barriers.size(), 3u) << schedule.name();
    EXPECT_FALSE(barriers.count(sim::kNoLine)) << schedule.name();
    EXPECT_EQ(recorded.steps[3].barrier, sim::kNoLine) << schedule.name();
  }
}

// Threads that reach different counting barriers diverge, as at __syncthreads.
struct DivergentCount {
  template <class SyncscopeCtx>
  static void run(SyncscopeCtx& _c, const Arrays& a) {
    int_ptr<SyncscopeCtx> out = a.at(_c, 0);
    const unsigned t = cu::thread_idx(_c).x;
    if (t < 16) out[t] = _c.sync_count(1);
    else out[t] = _c.sync_or(1);
  }
};

TEST(CudaDevice, CountingBarriersAtDifferentLinesAreBarrierDivergence) {
  sim::Simulator s({});
  Arrays a;
  a.ids = {alloc_ints(s, "out", std::vector<int>(32, 0))};
  launch<DivergentCount>(s, a, {1, 1, 1}, {32, 1, 1});
  ASSERT_TRUE(s.failed());
  EXPECT_EQ(s.trace().error->kind, sim::SimErrorKind::BarrierDivergence);
}

// ---- device printf ----

constexpr int kStoreLine = __LINE__ + 9;  // the lines of Printing's two printf calls
constexpr int kAfterLine = __LINE__ + 10;

struct Printing {
  template <class SyncscopeCtx>
  static void run(SyncscopeCtx& _c, const Arrays& a) {
    int_ptr<SyncscopeCtx> data = a.at(_c, 0);
    const unsigned t = cu::thread_idx(_c).x, b = cu::block_idx(_c).x;
    const int v = data[b * cu::block_dim(_c).x + t];
    cu::device_printf(_c, sim::SourceLocation::current(), "B%u T%u holds %d\n", b, t, v);
    _c.sync();
    cu::device_printf(_c, sim::SourceLocation::current(), "B%u T%u after %.1f\n", b, t, v * 0.5f);
  }
};

TEST(CudaDevice, PrintfIsKeptWithItsThreadStepAndLine) {
  for (const sim::Schedule& schedule : every_schedule()) {
    sim::SimOptions options;
    options.schedule = schedule;
    sim::Simulator s(options);
    Arrays a;
    std::vector<int> data(2 * 40);
    for (int i = 0; i < 80; ++i) data[i] = 3 * i;
    a.ids = {alloc_ints(s, "data", data)};
    testing::internal::CaptureStdout();
    launch<Printing>(s, a, {2, 1, 1}, {40, 1, 1});
    const std::string stdout_text = testing::internal::GetCapturedStdout();
    ASSERT_FALSE(s.failed()) << schedule.name();
    const sim::LaunchTrace& lt = s.trace().launches[0];
    ASSERT_EQ(lt.blocks.size(), 2u);
    for (const sim::BlockTrace& b : lt.blocks) {
      ASSERT_EQ(b.steps.size(), 2u);
      for (int step = 0; step < 2; ++step) {
        const sim::StepTrace& st = b.steps[step];
        ASSERT_EQ(st.printed.size(), 40u) << schedule.name() << " block " << b.block << " step " << step;
        EXPECT_EQ(st.printed_dropped, 0u);
        std::set<int> threads;
        for (const sim::PrintedLine& p : st.printed) {
          threads.insert(p.thread);
          const int v = 3 * (b.block * 40 + p.thread);
          std::ostringstream want;
          want << "B" << b.block << " T" << p.thread;
          if (step == 0) want << " holds " << v;
          else want << " after " << std::fixed << std::setprecision(1) << v * 0.5;
          EXPECT_EQ(p.text, want.str()) << schedule.name();  // the final newline is not kept
          EXPECT_EQ(sim::LineTable::get(p.line).line, static_cast<unsigned>(step == 0 ? kStoreLine : kAfterLine));
        }
        EXPECT_EQ(threads.size(), 40u) << "every thread once";
      }
    }
    // stdout: every call once, a block's lines together.
    std::istringstream lines(stdout_text);
    std::vector<std::string> printed;
    for (std::string line; std::getline(lines, line);) printed.push_back(line);
    ASSERT_EQ(printed.size(), 160u) << schedule.name();
    std::set<std::string> distinct(printed.begin(), printed.end());
    EXPECT_EQ(distinct.size(), 160u);
    EXPECT_NE(printed.front().substr(0, 2), printed.back().substr(0, 2)) << "the blocks' output is not interleaved";
  }
}

// ---- 2D shared arrays ----

// `__shared__ int tile[4][33]` as the translator writes it: one array of 132 cells that knows its
// rows are 33 cells long, so the step view can draw it as the tile the kernel declares.
struct Tiled {
  template <class SyncscopeCtx>
  static void run(SyncscopeCtx& _c, const Arrays& a) {
    auto tile = cu::shared_array2d<int, 4, 33, SyncscopeCtx>(_c, "tile");
    int_ptr<SyncscopeCtx> out = a.at(_c, 0);
    const unsigned x = cu::thread_idx(_c).x, y = cu::thread_idx(_c).y;
    tile[y][x] = static_cast<int>(10 * y + x);
    _c.sync();
    out[y * 32 + x] = tile[3 - y][x];
  }
};

TEST(CudaDevice, ATwoDimensionalSharedArrayKeepsItsRowLength) {
  for (const sim::Schedule& schedule : every_schedule()) {
    sim::SimOptions options;
    options.schedule = schedule;
    sim::Simulator s(options);
    Arrays a;
    a.ids = {alloc_ints(s, "out", std::vector<int>(128, 0))};
    launch<Tiled>(s, a, {1, 1, 1}, {32, 4, 1});
    ASSERT_FALSE(s.failed()) << schedule.name();
    const auto shared = std::find_if(s.trace().arrays.begin(), s.trace().arrays.end(),
                                     [](const sim::ArrayInfo& info) { return info.space == sim::MemSpace::Shared; });
    ASSERT_NE(shared, s.trace().arrays.end());
    EXPECT_EQ(shared->name, "tile");
    EXPECT_EQ(shared->size, 4 * 33);
    EXPECT_EQ(shared->columns, 33) << schedule.name();
    EXPECT_EQ(s.trace().arrays[a.ids[0]].columns, 0) << "a global array has no rows";
    // tile[r][c] is cell r * 33 + c: the padding column 32 is never written.
    const std::vector<uint32_t>& cells = s.trace().launches[0].blocks[0].steps[0].shared[0].bits;
    for (int r = 0; r < 4; ++r)
      for (int c = 0; c < 32; ++c) EXPECT_EQ(sim::from_bits<int32_t>(cells[r * 33 + c]), 10 * r + c);
    const std::vector<int> out = ints_of(s, a.ids[0]);
    for (int y = 0; y < 4; ++y)
      for (int x = 0; x < 32; ++x) EXPECT_EQ(out[y * 32 + x], 10 * (3 - y) + x) << schedule.name();
  }
}

// A block that prints a lot: the trace keeps a step's worth and a block's worth, and counts the rest.
struct Chatty {
  template <class SyncscopeCtx>
  static void run(SyncscopeCtx& _c, const Arrays&) {
    const unsigned t = cu::thread_idx(_c).x;
    for (int k = 0; k < 3; ++k) cu::device_printf(_c, sim::SourceLocation::current(), "T%u says %d\n", t, k);
    for (int step = 1; step <= 8; ++step) {
      _c.sync();
      cu::device_printf(_c, sim::SourceLocation::current(), "T%u in step %d\n", t, step);
    }
  }
};

TEST(CudaDevice, ThePrintfCapsKeepAStepsAndABlocksWorthAndCountTheRest) {
  sim::Simulator s({});
  Arrays a;
  testing::internal::CaptureStdout();
  launch<Chatty>(s, a, {1, 1, 1}, {sim::kMaxThreadsPerBlock, 1, 1});
  const std::string stdout_text = testing::internal::GetCapturedStdout();
  ASSERT_FALSE(s.failed());
  const std::vector<sim::StepTrace>& steps = s.trace().launches[0].blocks.at(0).steps;
  ASSERT_EQ(steps.size(), 9u);
  EXPECT_EQ(steps[0].printed.size(), static_cast<size_t>(sim::kMaxPrintedLinesPerStep));
  EXPECT_EQ(steps[0].printed_dropped, 2u * sim::kMaxThreadsPerBlock);
  size_t kept = 0;
  for (const auto& st : steps) kept += st.printed.size();
  EXPECT_EQ(kept, static_cast<size_t>(sim::kMaxPrintedLinesPerBlock));
  EXPECT_TRUE(steps[8].printed.empty());
  EXPECT_EQ(steps[8].printed_dropped, static_cast<uint32_t>(sim::kMaxThreadsPerBlock));
  // stdout is not the trace: all 11 calls of every thread are there (well under a GPU's buffer).
  EXPECT_EQ(std::count(stdout_text.begin(), stdout_text.end(), '\n'), 11 * sim::kMaxThreadsPerBlock);
}

// A block's fast run races, so it runs again under the schedule: its printf reaches stdout once.
struct RacyPrinting {
  template <class SyncscopeCtx>
  static void run(SyncscopeCtx& _c, const Arrays& a) {
    int_ptr<SyncscopeCtx> data = a.at(_c, 0);
    const unsigned t = cu::thread_idx(_c).x, b = cu::block_idx(_c).x;
    auto s = cu::shared_array<int, 32, SyncscopeCtx>(_c, "s");
    s[t] = data[b * 32 + t];
    _c.sync();
    s[t] = s[(t + 31) % 32] + 1;  // no barrier between a neighbour's read and this write: a race
    cu::device_printf(_c, sim::SourceLocation::current(), "B%u T%u\n", b, t);
  }
};

TEST(CudaDevice, ABlockRunTwiceIsPrintedOnce) {
  sim::SimOptions options;
  options.schedule = {sim::ScheduleKind::Random, 5};
  sim::Simulator s(options);
  Arrays a;
  a.ids = {alloc_ints(s, "data", std::vector<int>(16 * 32, 1))};
  testing::internal::CaptureStdout();
  launch<RacyPrinting>(s, a, {16, 1, 1}, {32, 1, 1});
  const std::string stdout_text = testing::internal::GetCapturedStdout();
  ASSERT_FALSE(s.failed()) << s.trace().error->message;
  ASSERT_GT(s.trace().launches[0].blocks_rerun, 0u) << "no block ran twice: the test shows nothing";
  std::istringstream lines(stdout_text);
  std::map<std::string, int> seen;
  for (std::string line; std::getline(lines, line);) ++seen[line];
  EXPECT_EQ(seen.size(), 16u * 32u);
  for (const auto& [line, times] : seen) EXPECT_EQ(times, 1) << line;
}

// stdout holds what a GPU's printf buffer holds; the rest is counted and said on stderr.
struct Flood {
  template <class SyncscopeCtx>
  static void run(SyncscopeCtx& _c, const Arrays&) {
    const unsigned t = cu::thread_idx(_c).x, b = cu::block_idx(_c).x;
    for (int k = 0; k < 4; ++k)
      cu::device_printf(_c, sim::SourceLocation::current(), "block %4u thread %4u line %d of a flood\n", b, t, k);
  }
};

TEST(CudaDevice, StdoutStopsAtAGpusPrintfBufferAndSaysSo) {
  sim::Simulator s({});
  Arrays a;
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  launch<Flood>(s, a, {48, 1, 1}, {256, 1, 1});  // 49152 lines of 40 bytes: 1.9 MB
  const std::string stdout_text = testing::internal::GetCapturedStdout();
  const std::string stderr_text = testing::internal::GetCapturedStderr();
  ASSERT_FALSE(s.failed());
  EXPECT_LE(stdout_text.size(), sim::kMaxPrintedBytesPerLaunch);
  EXPECT_GT(stdout_text.size(), sim::kMaxPrintedBytesPerLaunch - 1000);
  const size_t lines = static_cast<size_t>(std::count(stdout_text.begin(), stdout_text.end(), '\n'));
  EXPECT_NE(stderr_text.find("launch 'k' printed more than 1024 KiB with device printf; " + std::to_string(48 * 256 * 4 - lines) +
                             " further printf calls were left out"),
            std::string::npos)
      << stderr_text;
}

// ---- SIMT lockstep by the positions a translated kernel reports (translate/simt_positions.h) ----

// Even lanes change their cell in a branch the odd lanes skip, then every lane reads its partner's
// cell, with no __syncwarp: where the warp reconverges at the join, the odd lanes read the finished
// values. Without positions, lockstep aligns lanes by their count of operations: an odd lane's read
// of its partner is its second operation, when the partner only starts the branch.
template <bool kPositions>
struct PairSums {
  template <class SyncscopeCtx>
  static void run(SyncscopeCtx& _c, const Arrays& a) {
    int_ptr<SyncscopeCtx> cells = a.at(_c, 0), out = a.at(_c, 1);
    if constexpr (kPositions) cu::simt_position(_c, 1);
    const int t = static_cast<int>(cu::thread_idx(_c).x);
    cells[t] = t;
    if (t % 2 == 0) {
      if constexpr (kPositions) cu::simt_position(_c, 2);
      cells[t] = cells[t] * 2;
      cells[t] = cells[t] + 1;
    }
    if constexpr (kPositions) cu::simt_position(_c, 3);
    out[t] = cells[t ^ 1];
  }
};

TEST(CudaDevice, UnderLockstepLanesMeetAgainAtTheJoinTheTranslatorNumbers) {
  auto odd_lanes_read = [](auto kernel) {
    sim::Simulator s({});  // lockstep
    Arrays a;
    a.ids = {alloc_ints(s, "cells", std::vector<int>(64, 0)), alloc_ints(s, "out", std::vector<int>(64, -1))};
    launch<decltype(kernel)>(s, a, {1, 1, 1}, {64, 1, 1});
    EXPECT_FALSE(s.failed());
    const std::vector<int> out = ints_of(s, a.ids[1]);
    std::vector<int> read;
    for (int t = 1; t < 64; t += 2) read.push_back(out[t]);
    return read;
  };
  const std::vector<int> joined = odd_lanes_read(PairSums<true>{});
  for (int k = 0; k < 32; ++k) ASSERT_EQ(joined[k], 2 * (2 * k) + 1) << "lane " << 2 * k + 1;
  const std::vector<int> by_count = odd_lanes_read(PairSums<false>{});
  EXPECT_EQ(by_count[1], 2) << "without positions the odd lane reads its partner's cell before the branch changed it";
}

// A __device__ function's positions are a level below its call: numbered after the caller's join
// (defined further down the file), its lanes still run before the lanes waiting at that join.
struct CallerAndCallee {
  template <class SyncscopeCtx>
  static int bump(SyncscopeCtx& _c, int_ptr<SyncscopeCtx> cells, int t) {
    [[maybe_unused]] auto call = cu::simt_call(_c, 7);
    if (t % 4 == 0) {
      cu::simt_position(_c, 8);
      cells[t] = cells[t] + 10;
    }
    cu::simt_position(_c, 9);
    return cells[t];
  }
  template <class SyncscopeCtx>
  static void run(SyncscopeCtx& _c, const Arrays& a) {
    int_ptr<SyncscopeCtx> cells = a.at(_c, 0), out = a.at(_c, 1);
    cu::simt_position(_c, 1);
    const int t = static_cast<int>(cu::thread_idx(_c).x);
    cells[t] = t;
    int v = 0;
    if (t % 2 == 0) {
      cu::simt_position(_c, 2);
      v = bump(_c, cells, t);
    }
    cu::simt_position(_c, 3);
    out[t] = cells[t ^ 1] + v;
  }
};

TEST(CudaDevice, UnderLockstepACallsPositionsSortInsideItsCallSite) {
  sim::Simulator s({});
  Arrays a;
  a.ids = {alloc_ints(s, "cells", std::vector<int>(64, 0)), alloc_ints(s, "out", std::vector<int>(64, -1))};
  launch<CallerAndCallee>(s, a, {1, 1, 1}, {64, 1, 1});
  ASSERT_FALSE(s.failed());
  const std::vector<int> out = ints_of(s, a.ids[1]);
  for (int t = 0; t < 64; ++t) {
    const auto cell = [](int u) { return u % 4 == 0 ? u + 10 : u; };
    ASSERT_EQ(out[t], cell(t ^ 1) + (t % 2 == 0 ? cell(t) : 0)) << "lane " << t;
  }
}


// ---- `float& a` in device code (translate/rewrite_declarations.cpp) ----

// `template <typename T> __device__ void swap(T& a, T& b)` as the translator writes it: each `T&` a
// type of its own, T the element's, every use of a reference at its own line (cu::here).
int swap_write_line = 0, swap_call_line = 0;
template <class SyncscopeRef0, class SyncscopeRef1, class T = cu::value_of_t<SyncscopeRef0>, class SyncscopeCtx>
void swap_values(SyncscopeCtx& _c, SyncscopeRef0&& a, SyncscopeRef1&& b) {
  (void)_c;
  T t = cu::here(a);
  cu::here(a) = cu::here(b);
  cu::here(b) = t; swap_write_line = __LINE__;
}
// `__device__ void bump(int& x)`: a reference to an int, in device memory or the thread's own.
template <class SyncscopeCtx>
void bump(SyncscopeCtx&, cu::place_of<int> auto&& x) {
  cu::here(x) += 1;
}

template <bool kBarrier>
struct Swaps {
  template <class SyncscopeCtx>
  static void run(SyncscopeCtx& _c, const Arrays& a) {
    auto s = cu::shared_array<int, 32, SyncscopeCtx>(_c, "s");
    int_ptr<SyncscopeCtx> out = a.at(_c, 0);
    const int t = static_cast<int>(cu::thread_idx(_c).x);
    s[t] = t;
    _c.sync();
    if (t < 16) swap_values(_c, s[t], s[31 - t]); swap_call_line = __LINE__;
    int mine = 5, other = 7;
    swap_values(_c, mine, other);  // the thread's own ints: swapped in place
    bump(_c, mine);
    if (kBarrier) _c.sync();
    out[t] = s[t] * 10 + mine - 7 - 1;
    bump(_c, out[t]);
  }
};

TEST(CudaDevice, AReferenceParameterSwapsElementsOfSharedMemoryAndTheThreadsOwnVariables) {
  for (const sim::Schedule& schedule : every_schedule()) {
    sim::SimOptions options;
    options.schedule = schedule;
    sim::Simulator s(options);
    Arrays a;
    a.ids = {alloc_ints(s, "out", std::vector<int>(32, 0))};
    launch<Swaps<true>>(s, a, {1, 1, 1}, {32, 1, 1});
    ASSERT_FALSE(s.failed()) << schedule.name();
    EXPECT_EQ(s.trace().hazards.total(), 0u) << schedule.name();
    const std::vector<int> out = ints_of(s, a.ids[0]);
    for (int t = 0; t < 32; ++t) EXPECT_EQ(out[t], (31 - t) * 10 + 1) << "T" << t << " " << schedule.name();
  }
}

TEST(CudaDevice, AReferencesAccessesRaceAtTheLinesThatUseItNotWhereItWasBound) {
  sim::Simulator s{sim::SimOptions{}};
  Arrays a;
  a.ids = {alloc_ints(s, "out", std::vector<int>(32, 0))};
  launch<Swaps<false>>(s, a, {1, 1, 1}, {32, 1, 1});
  ASSERT_FALSE(s.failed());
  // s[31 - t] written by swap_values's `b = t` races with `out[t] = s[t] ...` with no barrier between;
  // the line that bound the references (`swap_values(_c, s[t], s[31 - t])`) accesses nothing.
  std::set<uint32_t> lines;
  for (const auto& g : s.trace().hazards.groups()) {
    lines.insert(sim::LineTable::get(g.first.line_first).line);
    lines.insert(sim::LineTable::get(g.first.line_second).line);
  }
  ASSERT_FALSE(lines.empty());
  EXPECT_TRUE(lines.count(static_cast<uint32_t>(swap_write_line))) << "no race at swap_values's `b = t`";
  EXPECT_FALSE(lines.count(static_cast<uint32_t>(swap_call_line))) << "a race at the call that bound the references";
}

// ---- shared memory as a GPU counts it ----

// `__shared__ uchar4 tile[N]`: 4 bytes an element (a cell per byte here), so 12288 of them fill the
// 48 KiB a launch offers and one more does not.
template <int kElements>
struct PixelTile {
  template <class SyncscopeCtx>
  static void run(SyncscopeCtx& _c, const Arrays&) {
    auto tile = cu::shared_array<uchar4, kElements, SyncscopeCtx>(_c, "tile");
    tile[static_cast<int>(cu::thread_idx(_c).x)] = make_uchar4(1, 2, 3, 4);
  }
};

TEST(CudaDevice, AUchar4TileTakesFourBytesAnElementOfTheLaunchsSharedMemory) {
  {
    sim::Simulator s{sim::SimOptions{}};
    Arrays a;
    launch<PixelTile<12288>>(s, a, {1, 1, 1}, {32, 1, 1});
    EXPECT_FALSE(s.failed()) << s.trace().error->message;
  }
  sim::Simulator s{sim::SimOptions{}};
  Arrays a;
  launch<PixelTile<12289>>(s, a, {1, 1, 1}, {32, 1, 1});
  ASSERT_TRUE(s.failed());
  EXPECT_NE(s.trace().error->message.find("needs 49168 bytes, but the launch provides 49152"), std::string::npos)
      << s.trace().error->message;
}

}  // namespace
}  // namespace syncscope::test
