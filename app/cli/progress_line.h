// `syncscope run`'s progress line: long work (2^24 elements, --schedule all) says how far it got and
// how long it has left, on one line of stderr redrawn in place, once it has run for a second; the
// line is cleared when the work ends. Only on a terminal: a pipe, a file or a test's stream gets
// nothing, so scripts and tests read what they always read.
#pragma once

#include <condition_variable>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>

#include "core/progress.h"

namespace syncscope::cli {

// "syncscope: simulating 37%, run 3 of 20 (forward), launch 1: block 6144 of 16384, 1 min 12 s left"
std::string progress_line_text(const ProgressSnapshot& s);

// The line itself, drawn when asked (the thread below asks; tests ask with a made-up snapshot).
class ProgressLine {
 public:
  static constexpr double kQuietSeconds = 1.0;  // work shorter than this shows nothing
  ProgressLine(std::ostream& out, bool terminal) : out_(out), terminal_(terminal) {}
  // Draws the line for `s` (a carriage return, the text, the rest of the old line erased).
  void update(const ProgressSnapshot& s);
  // Erases the line, if one was drawn.
  void clear();

 private:
  std::ostream& out_;
  const bool terminal_;
  bool drawn_ = false;
};

// Reads `progress` every 200 ms on a thread of its own and draws it; the destructor stops it and
// clears the line. Not a terminal: no thread at all.
class ProgressLineThread {
 public:
  ProgressLineThread(const Progress& progress, std::ostream& out, bool terminal);
  ~ProgressLineThread();
  ProgressLineThread(const ProgressLineThread&) = delete;
  ProgressLineThread& operator=(const ProgressLineThread&) = delete;

 private:
  const Progress& progress_;
  ProgressLine line_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;  // last: starts after everything it uses exists
};

// Whether `err` is this process's stderr and that is a terminal.
bool is_terminal_stderr(const std::ostream& err);

}  // namespace syncscope::cli
