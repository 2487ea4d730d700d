// The race detector names true pairs (two different threads, the lines of those two accesses) and
// says which barrier would fix them; warp-operation misuse is a hazard too. Every shipped bug
// variant is taken from the registry, so a new kernel's variants are covered without a list edit.
#include <gtest/gtest.h>

#include <sstream>

#include "core/outcomes.h"
#include "core/sources.h"
#include "sim/describe.h"
#include "tests/test_util.h"

namespace syncscope::test {
namespace {

int kReaderALine, kReaderBLine, kWriterLine;

// Thread 0 reads s[4], then thread `Other` reads it, then thread 0 writes it, all in one barrier
// interval: the write races with Other's read, never with thread 0's own.
template <int Other>
struct ReadersThenWriter {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array x, Array y, int) const {
    using T = value_of<Array>;
    auto s = shared_array<T>(c, c.block_dim().x, "s");
    const int t = c.thread_idx().x;
    s[t] = T(x[t]);
    c.sync();
    T v = T(0);
    kReaderALine = __LINE__ + 1;
    if (t == 0) v = s[4];
    kReaderBLine = __LINE__ + 1;
    if (t == Other) v = s[4];
    kWriterLine = __LINE__ + 1;
    if (t == 0) s[4] = v + T(1);
    c.sync();
    y[t] = s[t];
  }
};

template <int Other>
std::vector<sim::HazardGroup> readers_then_writer(int tpb) {
  return run_kernel(ReadersThenWriter<Other>{}, Dim3{1}, Dim3{tpb}, shared_bytes_for(tpb), iota(tpb), tpb)
      .trace.hazards.groups();
}

void expect_war_names_the_other_reader(const std::vector<sim::HazardGroup>& groups, int other, sim::Severity severity) {
  ASSERT_EQ(groups.size(), 1u);
  const sim::HazardEvent& e = groups[0].first;
  EXPECT_EQ(e.kind, sim::HazardKind::WriteAfterRead);
  EXPECT_EQ(e.severity, severity);
  EXPECT_EQ(e.thread_first, other);
  EXPECT_EQ(e.thread_second, 0);
  EXPECT_EQ(sim::LineTable::get(e.line_first).line, static_cast<uint32_t>(kReaderBLine));
  EXPECT_EQ(sim::LineTable::get(e.line_second).line, static_cast<uint32_t>(kWriterLine));
}

// A global array's race repeated launch after launch (a kernel in a host loop) is one group of the
// run that names its launches, whatever order the launches' logs merge in.
TEST(Detector, ARaceRepeatedInThreeLaunchesNamesThem) {
  for (const std::vector<int>& order : {std::vector<int>{0, 1, 2}, std::vector<int>{2, 0, 1}}) {
    sim::HazardLog run;
    for (int launch : order) {
      sim::HazardLog one;
      sim::HazardEvent e{sim::HazardKind::ReadAfterWrite, sim::Severity::Error};
      e.array = 0;
      e.launch = launch;
      e.thread_first = 1;
      e.line_first = 1;
      e.line_second = 2;
      one.add(e);
      run.merge_launch(one);
    }
    const auto groups = run.groups();
    ASSERT_EQ(groups.size(), 1u);
    EXPECT_EQ(groups[0].launches, 3);
    EXPECT_EQ(groups[0].first.launch, 0);
    EXPECT_EQ(groups[0].last_launch, 2);
    EXPECT_EQ(groups[0].count, 3u);
  }
}

TEST(Detector, AWriteAfterTwoReadersNamesTheReaderThatIsAnotherThread) {
  expect_war_names_the_other_reader(readers_then_writer<3>(8), 3, sim::Severity::Warning);    // one warp
  expect_war_names_the_other_reader(readers_then_writer<40>(64), 40, sim::Severity::Error);   // two warps
  const auto fixes = sim::diagnose(readers_then_writer<40>(64));
  ASSERT_EQ(fixes.size(), 1u);
  EXPECT_NE(fixes[0].text.find("between tests/test_detector.cpp:" + std::to_string(kReaderBLine) +
                               " and tests/test_detector.cpp:" + std::to_string(kWriterLine)),
            std::string::npos)
      << fixes[0].text;
}

RunOptions variant_options(const AlgorithmEntry& e, const std::string& bug) {
  RunOptions o{.algorithm = e.info.name, .tpb = 64, .bug = bug};
  o.n = e.info.two_dimensional ? 64 : 4 * 64;
  return o;
}

// "no-second-barrier" -> "NoSecondBarrier": the enumerator the kernel source tests.
std::string enumerator(const std::string& bug) {
  std::string out;
  bool upper = true;
  for (char ch : bug) {
    if (ch == '-') upper = true;
    else out += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(ch))) : ch, upper = false;
  }
  return out;
}

// The line of the barrier a variant leaves out: `if (bug != X::NoSecondBarrier) c.sync();`.
std::optional<std::pair<std::string, uint32_t>> left_out_barrier(const AlgoInfo& info, const std::string& bug) {
  for (const auto& f : kernel_sources()) {
    if (std::find(info.sources.begin(), info.sources.end(), f.path) == info.sources.end()) continue;
    std::istringstream in(f.text);
    std::string text;
    for (uint32_t n = 1; std::getline(in, text); ++n)
      if (text.find("::" + enumerator(bug) + ") c.sync") != std::string::npos) return std::pair{f.path, n};
  }
  return std::nullopt;
}

bool fix_places_barrier_at(const sim::Diagnosis& d, const std::string& file, uint32_t barrier) {
  const sim::SourceLine& a = sim::LineTable::get(d.first);
  const sim::SourceLine& b = sim::LineTable::get(d.second);
  if (a.file != file || b.file != file) return false;
  if (a.function == b.function && a.line >= b.line) return barrier > a.line || barrier < b.line;  // the loop wraps
  return a.line < barrier && barrier < b.line;
}

TEST(Detector, EveryShippedVariantGoesWrongSomewhereAndItsFixNamesTheRightLines) {
  for (const AlgorithmEntry& e : builtin_registry().all())
    for (const BugInfo& bug : e.info.bugs) {
      const RunResult r = run_algorithm(variant_options(e, bug.name));
      SCOPED_TRACE(r.config.describe());
      const Outcomes all = simulate_all_schedules(r.config);
      EXPECT_LT(all.correct_runs(), all.runs) << "every schedule gave the right output";
      const auto groups = r.sim.trace.hazards.groups();
      ASSERT_FALSE(groups.empty());
      const auto fixes = sim::diagnose(groups);
      ASSERT_FALSE(fixes.empty());
      std::string all_fixes;
      for (const auto& d : fixes) all_fixes += d.text + "\n";
      if (const auto barrier = left_out_barrier(e.info, bug.name)) {
        bool placed = false;
        for (const auto& d : fixes) placed = placed || fix_places_barrier_at(d, barrier->first, barrier->second);
        EXPECT_TRUE(placed) << "no fix puts a barrier where " << barrier->first << ":" << barrier->second
                            << " had one:\n" << all_fixes;
      } else {
        // Not a left-out barrier: the fix names the lines of a reported race.
        for (const auto& d : fixes) {
          bool reported = false;
          for (const auto& g : groups) reported = reported || (g.first.line_first == d.first && g.first.line_second == d.second);
          EXPECT_TRUE(reported) << d.text;
        }
      }
    }
}

TEST(Detector, NoReportEverPairsAThreadWithItself) {
  for (const AlgorithmEntry& e : builtin_registry().all())
    for (const BugInfo& bug : e.info.bugs) {
      const RunResult r = run_algorithm(variant_options(e, bug.name));
      int pairs = 0;  // race pairs inside a block, over every schedule
      for (const std::string& schedule : lab_schedules()) {
        RunConfig c = r.config;
        c.schedule = *sim::Schedule::parse(schedule, nullptr);
        for (const auto& g : simulate(c).sim.trace.hazards.groups()) {
          const sim::HazardEvent& h = g.first;
          if (h.kind > sim::HazardKind::WriteAfterWrite || h.cross_block) continue;
          ++pairs;
          EXPECT_NE(h.thread_first, h.thread_second) << c.describe() << ": " << sim::describe_hazard(g, r.sim.trace);
        }
      }
      // A left-out barrier is a race between two threads of a block by construction: the check
      // above must have had pairs to look at.
      if (left_out_barrier(e.info, bug.name)) EXPECT_GT(pairs, 0) << e.info.name << " --bug " << bug.name;
    }
}

// A shuffle that needs a lane which already left, and lanes at two different shuffles: hazards with
// their lines and lanes, besides ending the run.
struct ShuffleAfterExit {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array x, Array y, int) const {
    using T = value_of<Array>;
    const int t = c.thread_idx().x;
    if (t == 5) return;
    T v = c.shfl_down(T(x[t]), 1);
    y[t] = v;
  }
};
struct ShufflesInDivergentCode {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array x, Array y, int) const {
    using T = value_of<Array>;
    const int t = c.thread_idx().x;
    T v = T(x[t]);
    if (t < 4) v = c.shfl_down(v, 1);
    else v = c.shfl_up(v, 1);
    y[t] = v;
  }
};

TEST(Detector, WarpOperationMisuseIsAHazard) {
  for (const char* schedule : {"lockstep", "forward", "reverse"}) {
    sim::SimOptions o;
    o.schedule = *sim::Schedule::parse(schedule, nullptr);
    const auto exited = run_kernel(ShuffleAfterExit{}, Dim3{1}, Dim3{8}, 0, iota(8), 8, o).trace;
    ASSERT_TRUE(exited.error.has_value()) << schedule;
    ASSERT_FALSE(exited.hazards.empty()) << schedule;
    const sim::HazardEvent e = exited.hazards.groups()[0].first;
    EXPECT_EQ(e.kind, sim::HazardKind::ExitedLane) << schedule;
    EXPECT_EQ(e.thread_first, 5);
    EXPECT_EQ(e.severity, sim::Severity::Error);

    const auto diverged = run_kernel(ShufflesInDivergentCode{}, Dim3{1}, Dim3{8}, 0, iota(8), 8, o).trace;
    ASSERT_TRUE(diverged.error.has_value()) << schedule;
    ASSERT_FALSE(diverged.hazards.empty()) << schedule;
    const sim::HazardEvent d = diverged.hazards.groups()[0].first;
    EXPECT_EQ(d.kind, sim::HazardKind::WarpDivergence) << schedule;
    EXPECT_NE(d.line_first, d.line_second);
    EXPECT_NE(sim::describe_hazard(diverged.hazards.groups()[0], diverged).find("warp divergence"), std::string::npos);
  }
}

}  // namespace
}  // namespace syncscope::test
