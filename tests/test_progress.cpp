// Long work's progress (core/progress.h, app/cli/progress_line.h): the simulator counts blocks as
// they are done, the fraction and the time left follow from them and a clock the test sets, the
// line says them on a terminal after a second and nowhere else, and a worker's counts cross its pipe.
#include <gtest/gtest.h>

#include <cstring>
#include <sstream>

#include "app/cli/progress_line.h"
#include "core/progress.h"
#include "core/worker/frames.h"
#include "tests/test_util.h"

namespace syncscope::test {
namespace {

using Clock = Progress::Clock;
using std::chrono::milliseconds;

RunConfig config(RunOptions o) { return std::get<RunConfig>(resolve(builtin_registry(), o)); }

TEST(Progress, TheFractionAndTimeLeftFollowTheBlocksDone) {
  const Clock::time_point start{};
  Progress progress(1, start);
  EXPECT_FALSE(progress.read(start + milliseconds(500)).fraction);  // nothing started yet
  auto counters = progress.begin_run();
  counters->start_launch(100);
  for (int b = 0; b < 25; ++b) counters->block_done();
  const ProgressSnapshot s = progress.read(start + milliseconds(10'000));
  EXPECT_DOUBLE_EQ(s.elapsed_s, 10);
  ASSERT_TRUE(s.fraction);
  EXPECT_DOUBLE_EQ(*s.fraction, 0.25);
  ASSERT_TRUE(s.seconds_left);
  EXPECT_DOUBLE_EQ(*s.seconds_left, 30);  // 10 s bought a quarter: three more quarters at that pace
  EXPECT_EQ(s.launch, 1);
  EXPECT_EQ(s.launch_blocks_done, 25u);
  EXPECT_EQ(cli::progress_line_text(s), "syncscope: simulating 25%, launch 1: block 25 of 100, 30 s left");
  progress.end_run();
  const ProgressSnapshot done = progress.read(start + milliseconds(40'000));
  EXPECT_DOUBLE_EQ(*done.fraction, 1);
  EXPECT_DOUBLE_EQ(*done.seconds_left, 0);
}

// A later launch of the same run: the launches so far are the run's size until it ends (one of 100
// blocks done, half of the next 100: 150 of 200).
TEST(Progress, LaterLaunchesAddToTheRunsSize) {
  const Clock::time_point start{};
  Progress progress(1, start);
  auto counters = progress.begin_run();
  counters->start_launch(100);
  for (int b = 0; b < 100; ++b) counters->block_done();
  counters->finish_launch();
  counters->start_launch(100);
  for (int b = 0; b < 50; ++b) counters->block_done();
  const ProgressSnapshot s = progress.read(start + milliseconds(3'000));
  EXPECT_DOUBLE_EQ(*s.fraction, 0.75);
  EXPECT_DOUBLE_EQ(*s.seconds_left, 1);
  EXPECT_EQ(s.launch, 2);
}

// --schedule all: the run, then 19 schedules; a finished run tells the next ones' size.
TEST(Progress, RunsOfTheRaceLabCountOneEach) {
  const Clock::time_point start{};
  Progress progress(20, start);
  auto first = progress.begin_run();
  first->start_launch(64);
  for (int b = 0; b < 64; ++b) first->block_done();
  first->finish_launch();
  progress.end_run();
  auto second = progress.begin_run("forward");
  second->start_launch(64);
  for (int b = 0; b < 32; ++b) second->block_done();
  const ProgressSnapshot s = progress.read(start + milliseconds(15'000));
  EXPECT_EQ(s.run, 1);
  EXPECT_EQ(s.runs_total, 20);
  EXPECT_DOUBLE_EQ(*s.fraction, 1.5 / 20);
  EXPECT_NEAR(*s.seconds_left, 15 * (1 - 0.075) / 0.075, 1e-9);  // 185 s
  EXPECT_EQ(cli::progress_line_text(s),
            "syncscope: simulating 7%, run 2 of 20 (forward), launch 1: block 32 of 64, 3 min 05 s left");
}

// Too little done to tell the pace, and no counts at all (a worker that sent none yet): the line
// says what it knows.
TEST(Progress, WithoutCountsTheLineSaysTheTimeSoFar) {
  const Clock::time_point start{};
  Progress progress(1, start);
  auto counters = progress.begin_run();
  EXPECT_EQ(cli::progress_line_text(progress.read(start + milliseconds(4'200))), "syncscope: simulating, 4 s so far");
  counters->start_launch(1000);
  counters->block_done();
  const ProgressSnapshot s = progress.read(start + milliseconds(2'000));
  EXPECT_FALSE(s.seconds_left);  // 0.1 %: too little to tell
  EXPECT_EQ(cli::progress_line_text(s), "syncscope: simulating 0%, launch 1: block 1 of 1000, estimating the time left");
}

TEST(Progress, DurationsReadAsAClassReadsThem) {
  EXPECT_EQ(duration_words(0.4), "0 s");
  EXPECT_EQ(duration_words(59.4), "59 s");
  EXPECT_EQ(duration_words(59.6), "1 min 00 s");
  EXPECT_EQ(duration_words(125), "2 min 05 s");
  EXPECT_EQ(duration_words(3725), "1 h 02 min");
  EXPECT_FALSE(seconds_left(5, 0.005));
  EXPECT_DOUBLE_EQ(*seconds_left(5, 0.5), 5);
}

ProgressSnapshot at(double elapsed) {
  ProgressSnapshot s;
  s.elapsed_s = elapsed;
  s.fraction = 0.5;
  s.seconds_left = elapsed;
  s.launch = 1;
  s.launch_blocks = 8;
  s.launch_blocks_done = 4;
  return s;
}

TEST(ProgressLine, OnATerminalAfterASecondOnlyAndClearedAtTheEnd) {
  std::ostringstream terminal;
  cli::ProgressLine line(terminal, true);
  line.update(at(0.9));
  EXPECT_EQ(terminal.str(), "");  // a short run shows nothing
  line.update(at(2));
  const std::string drawn = "\rsyncscope: simulating 50%, launch 1: block 4 of 8, 2 s left\x1b[K";
  EXPECT_EQ(terminal.str(), drawn);
  line.update(at(3));
  line.clear();
  EXPECT_EQ(terminal.str(), drawn + "\rsyncscope: simulating 50%, launch 1: block 4 of 8, 3 s left\x1b[K" + "\r\x1b[K");

  std::ostringstream pipe;
  cli::ProgressLine quiet(pipe, false);
  quiet.update(at(5));
  quiet.clear();
  EXPECT_EQ(pipe.str(), "");
  {
    Progress progress;
    auto counters = progress.begin_run();
    counters->start_launch(4);
    const cli::ProgressLineThread not_a_terminal(progress, pipe, false);
  }
  EXPECT_EQ(pipe.str(), "");
  EXPECT_FALSE(cli::is_terminal_stderr(pipe));
}

// The simulator's hook: every block of every launch counted once, in parallel or in order.
TEST(Progress, TheSimulatorCountsEveryBlock) {
  for (const char* algo : {"kogge-stone", "hierarchical-scan"}) {
    const RunConfig c = config({.algorithm = algo, .n = 1 << 14, .tpb = 128});
    sim::SimOptions options = sim_options(c);
    options.progress = std::make_shared<sim::RunProgress>();
    const SimOutcome out = c.algorithm->simulate(c.problem, make_input(c), options);
    ASSERT_FALSE(out.trace.error) << algo;
    uint64_t blocks = 0;
    for (const sim::LaunchTrace& l : out.trace.launches) blocks += static_cast<uint64_t>(l.grid.count());
    EXPECT_EQ(options.progress->blocks_in_finished_launches.load(), blocks) << algo;
    EXPECT_EQ(options.progress->launches_started.load(), out.trace.launches.size()) << algo;
  }
  EXPECT_EQ(config({.algorithm = "kogge-stone", .n = 1 << 14, .tpb = 128}).blocks(), 128);
  // Through core::simulate, to the end: all done.
  Progress progress;
  const RunResult r = simulate(config({.algorithm = "kogge-stone", .n = 1 << 14, .tpb = 128}), nullptr, &progress);
  EXPECT_TRUE(r.comparison.match);
  EXPECT_DOUBLE_EQ(*progress.read().fraction, 1);
}

// A kernel file's worker sends its counters in P frames: one write each, read back whole.
TEST(Progress, AWorkersFrameCarriesTheCounters) {
  sim::RunProgress sent;
  sent.start_launch(300);
  for (int b = 0; b < 300; ++b) sent.block_done();
  sent.finish_launch();
  sent.start_launch(70000);
  for (int b = 0; b < 12; ++b) sent.block_done();
  char frame[worker::kProgressFrameBytes];
  worker::progress_frame(frame, sent);
  uint32_t length = 0;
  std::memcpy(&length, frame, 4);
  ASSERT_EQ(length, sizeof frame - 4);
  ASSERT_EQ(frame[4], 'P');
  sim::RunProgress got;
  worker::read_progress(std::string(frame + 5, sizeof frame - 5), got);
  EXPECT_EQ(got.launches_started.load(), 2u);
  EXPECT_EQ(got.blocks_in_finished_launches.load(), 300u);
  EXPECT_EQ(got.launch_blocks.load(), 70000u);
  EXPECT_EQ(got.launch_blocks_done.load(), 12u);
  EXPECT_THROW(worker::read_progress(std::string(frame + 5, sizeof frame - 6), got), worker::WireError);
}

}  // namespace
}  // namespace syncscope::test
