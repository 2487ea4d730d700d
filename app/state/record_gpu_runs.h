// `syncscope gpu-runs --all [--runs R] [--out DIR]`: on a machine with a GPU, runs every shipped
// bug variant at the race lab's sizes R times (default 200), each configuration in its own GPU
// child process (app/state/gpu_child.h: a faulting variant costs only its own answer), and writes
// DIR/<device>-<date>.json (default DIR: assets/gpu-runs) atomically. The race lab shows those
// outcomes, striped and labelled with the device and date, where there is no GPU.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace syncscope::app {

inline constexpr int kDefaultRecordedRuns = 200;

// Exit codes: 0 written; 2 bad arguments; 3 no usable GPU; 1 the file could not be written.
int record_gpu_runs_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace syncscope::app
