// The run budget (sim/run_budget.h) and the watchdog (sim/watchdog.h): a kernel that never ends, in
// any of the ways a student's loop can, stops within its block's time budget with a message naming
// the thread and where it was; Cancel stops a run at once; the app's session shows either without
// ever blocking a frame. The kernels are tests/kernel_files/runaway_kernel.h, compiled in here (and
// loaded at run time by tests/kernel_files/kernel_files_tests.sh, where the exact line is checked).
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <regex>
#include <sstream>
#include <thread>

#include "app/state/session.h"
#include "sim/context_switch.h"
#include "sim/fault_guard.h"
#include "tests/test_util.h"
#include "tests/user_kernels/list.h"

namespace syncscope {
namespace {

using Clock = std::chrono::steady_clock;

// Under ThreadSanitizer (scripts/sanitize.sh tsan) every fiber switch costs a clock merge, so a
// run is ~100 times slower; budgets and the times they are held to grow by kSlow. And TSan holds an
// asynchronous signal back until its thread enters the TSan runtime, which a loop of plain
// arithmetic never does: the watchdog cannot take such a thread back there.
// AddressSanitizer makes a run a few times slower.
#if defined(SYNCSCOPE_TSAN_FIBERS)
constexpr double kSlow = 20;
constexpr bool kSpinsCanBePreempted = false;
constexpr bool kThousandFibersStartInTime = false;
#elif defined(SYNCSCOPE_ASAN_FIBERS)
constexpr double kSlow = 4;
constexpr bool kSpinsCanBePreempted = true;
constexpr bool kThousandFibersStartInTime = true;
#else
constexpr double kSlow = 1;
constexpr bool kSpinsCanBePreempted = true;
constexpr bool kThousandFibersStartInTime = true;
#endif
// A loop that cannot be left where signals wait (see above), one that calls the API otherwise.
const char* endless_loop() { return kSpinsCanBePreempted ? "spin" : "accesses"; }
#define SKIP_WHERE_SPINS_CANNOT_BE_PREEMPTED(bug)                                                         \
  if (!kSpinsCanBePreempted && (std::string(bug) == "spin" || std::string(bug) == "one-thread"))            \
  GTEST_SKIP() << "ThreadSanitizer defers the watchdog's signal until the thread enters its runtime, which " \
                  "this loop never does"

#define SKIP_WHERE_RUNAWAY_CANNOT_BE_TIMED(bug, tpb)                                                   \
  SKIP_WHERE_SPINS_CANNOT_BE_PREEMPTED(bug);                                                          \
  if (!kThousandFibersStartInTime && (tpb) > 64)                                                      \
  GTEST_SKIP() << "under ThreadSanitizer 1024 fibers take longer than the budget to reach the first barrier"

std::string seconds(double s) {
  std::ostringstream out;
  out << s;
  return out.str();
}

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

RunConfig runaway_config(const std::string& bug, int tpb, const std::string& schedule, const std::string& time_limit) {
  RunOptions o;
  o.algorithm = "runaway";
  o.n = tpb;
  o.tpb = tpb;
  o.bug = bug;
  o.schedule = schedule;
  o.time_limit = time_limit;
  auto resolved = resolve(user::runaway_registry(), o);
  if (auto* e = std::get_if<ConfigError>(&resolved)) throw std::runtime_error(e->text());
  return std::get<RunConfig>(resolved);
}

// Kernel files run with the fault guard on: that is what lets the watchdog take back a thread that
// never calls the kernel API (the kernel-file loader turns it on).
class RunawayKinds : public ::testing::TestWithParam<std::tuple<std::string, int>> {
 protected:
  void SetUp() override { sim::enable_fault_guard(); }
};

TEST_P(RunawayKinds, StopsWithinTheBudgetNamingTheThread) {
  const auto& [bug, tpb] = GetParam();
  SKIP_WHERE_RUNAWAY_CANNOT_BE_TIMED(bug, tpb);
  const double budget = 0.25 * kSlow;
  for (const char* schedule : {"lockstep", "forward"}) {
    SCOPED_TRACE(bug + " tpb " + std::to_string(tpb) + " " + schedule);
    const auto start = Clock::now();
    const RunResult r = simulate(runaway_config(bug, tpb, schedule, seconds(budget)));
    const double took = seconds_since(start);
    ASSERT_TRUE(r.sim.trace.error);
    EXPECT_EQ(r.sim.trace.error->kind, sim::SimErrorKind::TimeBudget) << r.sim.trace.error->message;
    // The budget, plus the watchdog's grace and scan period for a thread that never calls the API.
    EXPECT_GE(took, budget);
    EXPECT_LT(took, budget + 1.0 * kSlow);
    const std::string& m = r.sim.trace.error->message;
    std::smatch found;
    ASSERT_TRUE(std::regex_search(m, found, std::regex(R"(^T(\d+) of block 0 is still running after [0-9.]+ s without )"
                                                       R"(reaching its next barrier \(it passed 1 barrier\); last line )"
                                                       R"(executed: .+ \(the time budget is [0-9.]+ s a block; )"
                                                       R"(--time-limit raises it\)$)")))
        << m;
    if (bug == "one-thread") EXPECT_EQ(std::stoi(found[1]), tpb - 1) << m;
    else EXPECT_LT(std::stoi(found[1]), tpb) << m;
  }
}

INSTANTIATE_TEST_SUITE_P(Budget, RunawayKinds,
                         ::testing::Combine(::testing::Values("spin", "accesses", "shuffles", "one-thread"),
                                            ::testing::Values(8, 64, 1024)),
                         [](const auto& info) {
                           std::string name = std::get<0>(info.param) + "_tpb" + std::to_string(std::get<1>(info.param));
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

TEST(Budget, TheDefaultStopsAThreadOf1024InTwoSeconds) {
  SKIP_WHERE_SPINS_CANNOT_BE_PREEMPTED("one-thread");
  sim::enable_fault_guard();
  RunConfig c = runaway_config("one-thread", 1024, "lockstep", "2");
  c.time_limit_s = sim::kDefaultSecondsPerBlock;
  const auto start = Clock::now();
  const RunResult r = simulate(c);
  const double took = seconds_since(start);
  ASSERT_TRUE(r.sim.trace.error);
  EXPECT_EQ(r.sim.trace.error->kind, sim::SimErrorKind::TimeBudget);
  // The watchdog's grace, scaled like every other bound here: CI's ASan run missed 0.6 s unscaled.
  EXPECT_LT(took, sim::kDefaultSecondsPerBlock + 0.6 * kSlow);
  EXPECT_EQ(r.sim.trace.error->message.rfind("T1023 of block 0 is still running after 2", 0), 0u) << r.sim.trace.error->message;
}

TEST(Budget, AnEndlessBarrierLoopStopsWithinTheBudget) {
  const auto start = Clock::now();
  const RunResult r = simulate(runaway_config("barriers", 1024, "lockstep", seconds(kSlow)));
  EXPECT_LT(seconds_since(start), (1 + 0.5) * kSlow);
  ASSERT_TRUE(r.sim.trace.error);
  EXPECT_EQ(r.sim.trace.error->kind, sim::SimErrorKind::TimeBudget);
  EXPECT_NE(r.sim.trace.error->message.find("is still running after"), std::string::npos) << r.sim.trace.error->message;
  EXPECT_NE(r.sim.trace.error->message.find("endless?"), std::string::npos) << r.sim.trace.error->message;
}

TEST(Budget, AFinishingKernelIsNotStoppedByASmallBudget) {
  const RunResult r = simulate(runaway_config("none", 1024, "lockstep", seconds(0.5 * kSlow)));
  EXPECT_FALSE(r.sim.trace.error) << r.sim.trace.error->message;
  EXPECT_TRUE(r.comparison.match);
}

TEST(Budget, CancelStopsARunAtOnce) {
  sim::enable_fault_guard();
  for (const char* bug : {"spin", "accesses"}) {
    SCOPED_TRACE(bug);
    if (!kSpinsCanBePreempted && std::string(bug) == "spin") continue;  // see kSpinsCanBePreempted
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    auto run = std::async(std::launch::async, [&] { return simulate(runaway_config(bug, 64, "lockstep", "60"), cancel); });
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    const auto start = Clock::now();
    cancel->store(true);
    const RunResult r = run.get();
    EXPECT_LT(seconds_since(start), 0.6 * kSlow);
    ASSERT_TRUE(r.sim.trace.error);
    EXPECT_EQ(r.sim.trace.error->kind, sim::SimErrorKind::Cancelled) << r.sim.trace.error->message;
  }
}

TEST(Budget, TimeLimitIsCheckedAndKeptInScenarios) {
  for (const char* bad : {"0", "-1", "nan", "inf", "1e9", "two", ""}) {
    RunOptions o;
    o.algorithm = "kogge-stone";
    o.time_limit = bad;
    auto resolved = resolve(builtin_registry(), o);
    ASSERT_TRUE(std::holds_alternative<ConfigError>(resolved)) << bad;
    EXPECT_EQ(std::get<ConfigError>(resolved).text(),
              std::string("--time-limit") + (*bad ? " " : "") + bad + ": seconds a block may run must be a number in 0.05..86400")
        << bad;
  }
  const RunConfig c = runaway_config("spin", 8, "forward", "7.5");
  EXPECT_EQ(c.time_limit_s, 7.5);
  EXPECT_EQ(options_of(c).time_limit, "7.5");
  EXPECT_EQ(options_of(runaway_config("spin", 8, "forward", "2")).time_limit, std::nullopt);  // the default: not written
}

// ---- through the app's session ----

// Each runaway kind and block size through the app's session, as the GUI runs it.
TEST_P(RunawayKinds, TheSessionShowsItAsAFailedRunWithoutBlockingAFrame) {
  const auto& [bug, tpb] = GetParam();
  SKIP_WHERE_RUNAWAY_CANNOT_BE_TIMED(bug, tpb);
  const double budget = 0.25 * kSlow;
  app::AppState state;
  app::Session session(state, user::runaway_registry());
  session.run_gpu_automatically = false;
  const auto start = Clock::now();
  session.edit(app::ControlsForm::from(runaway_config(bug, tpb, "lockstep", seconds(budget))));
  EXPECT_TRUE(session.simulating());
  // A frame's worth of polling never waits for the simulation.
  while (session.simulating()) {
    const auto frame = Clock::now();
    session.poll();
    EXPECT_LT(seconds_since(frame), 0.01 * kSlow);
    std::this_thread::sleep_for(std::chrono::milliseconds(16));
  }
  session.settle();
  EXPECT_LT(seconds_since(start), budget + 1.0 * kSlow);
  ASSERT_NE(state.run(), nullptr);
  ASSERT_TRUE(state.run()->sim.trace.error);
  const std::string& m = state.run()->sim.trace.error->message;
  EXPECT_TRUE(std::regex_search(m, std::regex(R"(^T\d+ of block 0 is still running after [0-9.]+ s without reaching its )"
                                              R"(next barrier \(it passed 1 barrier\); last line executed: .+ \(the time budget is )")))
      << m;
}

TEST(Budget, TheSessionsCancelKeepsTheLastRun) {
  sim::enable_fault_guard();
  app::AppState state;
  app::Session session(state, user::runaway_registry());
  session.run_gpu_automatically = false;
  session.edit(app::ControlsForm::from(runaway_config("none", 64, "lockstep", "60")));
  session.settle();
  const RunResult* good = state.run();
  ASSERT_NE(good, nullptr);
  ASSERT_FALSE(good->sim.trace.error);
  session.edit(app::ControlsForm::from(runaway_config(endless_loop(), 64, "lockstep", "60")));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  session.poll();
  ASSERT_TRUE(session.simulating());
  EXPECT_GT(session.simulating_for(), 0.2);
  const auto start = Clock::now();
  session.cancel_simulation();
  session.settle();
  EXPECT_LT(seconds_since(start), 0.6 * kSlow);
  EXPECT_FALSE(session.simulating());
  EXPECT_EQ(state.run(), good);  // still on screen
  EXPECT_EQ(session.simulation_note(), "simulation cancelled; the last run stays on screen");
}

}  // namespace
}  // namespace syncscope
