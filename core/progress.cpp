#include "core/progress.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace syncscope {

Progress::Progress(int runs_total, Clock::time_point start) : start_(start), runs_total_(std::max(1, runs_total)) {}

std::shared_ptr<sim::RunProgress> Progress::begin_run(std::string name) {
  std::lock_guard lock(mutex_);
  run_name_ = std::move(name);
  current_ = std::make_shared<sim::RunProgress>();
  return current_;
}

void Progress::end_run() {
  std::lock_guard lock(mutex_);
  if (current_) blocks_per_run_ = std::max(blocks_per_run_, current_->blocks_done());
  current_.reset();
  runs_done_ = std::min(runs_done_ + 1, runs_total_);
}

void Progress::add_runs(int more) {
  std::lock_guard lock(mutex_);
  runs_total_ += std::max(0, more);
}

ProgressSnapshot Progress::read(Clock::time_point now) const {
  std::lock_guard lock(mutex_);
  ProgressSnapshot s;
  s.elapsed_s = std::max(0.0, std::chrono::duration<double>(now - start_).count());
  s.run = runs_done_;
  s.runs_total = runs_total_;
  if (runs_total_ > 1) s.run_name = run_name_;
  double within_run = 0;
  bool counted = false;
  if (current_) {
    s.launch = static_cast<int>(current_->launches_started.load(std::memory_order_relaxed));
    s.launch_blocks = current_->launch_blocks.load(std::memory_order_relaxed);
    s.launch_blocks_done = std::min(s.launch_blocks, current_->launch_blocks_done.load(std::memory_order_relaxed));
    // The run's size: what an earlier run of the same configuration had, else the launches seen so
    // far (a later launch makes it grow: the estimate is the launches' so far).
    const uint64_t known = std::max(blocks_per_run_, current_->blocks_known());
    if (known > 0) {
      within_run = std::min(1.0, static_cast<double>(current_->blocks_done()) / static_cast<double>(known));
      counted = true;
    }
  }
  if (counted || runs_done_ > 0) {
    s.fraction = std::min(1.0, (runs_done_ + within_run) / runs_total_);
    s.seconds_left = seconds_left(s.elapsed_s, *s.fraction);
  }
  return s;
}

std::optional<double> seconds_left(double elapsed, double fraction) {
  if (!(fraction >= 0.01) || !(elapsed >= 0)) return std::nullopt;
  if (fraction >= 1) return 0.0;
  return elapsed * (1 - fraction) / fraction;
}

std::string duration_words(double seconds) {
  const auto whole = static_cast<long long>(std::llround(std::max(0.0, seconds)));
  char text[48];
  if (whole < 60) std::snprintf(text, sizeof text, "%lld s", whole);
  else if (whole < 3600) std::snprintf(text, sizeof text, "%lld min %02lld s", whole / 60, whole % 60);
  else std::snprintf(text, sizeof text, "%lld h %02lld min", whole / 3600, whole % 3600 / 60);
  return text;
}

}  // namespace syncscope
