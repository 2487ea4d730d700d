// How far long work got, for the CLI's progress line and the app's bar: one simulation, or the
// race lab's runs one after another (--schedule all: the run, then every lab schedule). Whoever
// does the work calls begin_run/end_run around each simulation and hands the simulator the
// counters begin_run returns (sim/run_progress.h: blocks done of the launch's); whoever shows it
// calls read() from another thread, as often as it likes.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "sim/run_progress.h"

namespace syncscope {

struct ProgressSnapshot {
  double elapsed_s = 0;
  int run = 0;         // the run in progress, 0-based (runs_total when all are done)
  int runs_total = 1;
  std::string run_name;  // its schedule when there are several ("forward"), else ""
  int launch = 0;        // launches started in this run: the one running is launch - 1
  uint64_t launch_blocks = 0, launch_blocks_done = 0;
  // Of all the work, 0..1; nullopt until a block is done or where no counts come (a worker that
  // sends none): elapsed time is then all there is to show.
  std::optional<double> fraction;
  std::optional<double> seconds_left;
};

class Progress {
 public:
  using Clock = std::chrono::steady_clock;
  explicit Progress(int runs_total = 1, Clock::time_point start = Clock::now());

  // The simulator's counters for the next run (SimOptions::progress).
  std::shared_ptr<sim::RunProgress> begin_run(std::string name = "");
  void end_run();
  // More runs than announced (the race lab asked for after the run).
  void add_runs(int more);

  ProgressSnapshot read(Clock::time_point now = Clock::now()) const;

 private:
  mutable std::mutex mutex_;
  Clock::time_point start_;
  int runs_total_;
  int runs_done_ = 0;
  std::string run_name_;
  std::shared_ptr<sim::RunProgress> current_;
  uint64_t blocks_per_run_ = 0;  // of the last finished run: the runs of one configuration have as many
};

// The fraction done and the time left when `elapsed` bought `fraction` of the work, at that pace:
// nullopt while too little is done to tell (under 1 %).
std::optional<double> seconds_left(double elapsed, double fraction);

// "8 s", "1 min 05 s", "2 h 03 min": a time left as a class reads it.
std::string duration_words(double seconds);

}  // namespace syncscope
