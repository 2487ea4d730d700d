#include "app/cli/progress_line.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>

namespace syncscope::cli {

std::string progress_line_text(const ProgressSnapshot& s) {
  std::string text = "syncscope: simulating";
  if (!s.fraction) return text + ", " + duration_words(s.elapsed_s) + " so far";
  text += " " + std::to_string(static_cast<int>(std::floor(*s.fraction * 100))) + "%";
  if (s.runs_total > 1) {
    text += ", run " + std::to_string(std::min(s.run + 1, s.runs_total)) + " of " + std::to_string(s.runs_total);
    if (!s.run_name.empty()) text += " (" + s.run_name + ")";
  }
  if (s.launch > 0 && s.launch_blocks > 0)
    text += ", launch " + std::to_string(s.launch) + ": block " + std::to_string(s.launch_blocks_done) + " of " +
            std::to_string(s.launch_blocks);
  text += s.seconds_left ? ", " + duration_words(*s.seconds_left) + " left" : ", estimating the time left";
  return text;
}

void ProgressLine::update(const ProgressSnapshot& s) {
  if (!terminal_ || s.elapsed_s < kQuietSeconds) return;
  out_ << '\r' << progress_line_text(s) << "\x1b[K" << std::flush;
  drawn_ = true;
}

void ProgressLine::clear() {
  if (!drawn_) return;
  out_ << "\r\x1b[K" << std::flush;
  drawn_ = false;
}

ProgressLineThread::ProgressLineThread(const Progress& progress, std::ostream& out, bool terminal)
    : progress_(progress), line_(out, terminal) {
  if (!terminal) return;
  thread_ = std::thread([this] {
    std::unique_lock lock(mutex_);
    while (!wake_.wait_for(lock, std::chrono::milliseconds(200), [this] { return stopping_; }))
      line_.update(progress_.read());
  });
}

ProgressLineThread::~ProgressLineThread() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
  line_.clear();
}

bool is_terminal_stderr(const std::ostream& err) { return &err == &std::cerr && ::isatty(STDERR_FILENO) == 1; }

}  // namespace syncscope::cli
