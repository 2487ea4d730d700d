// Block view: one block at one step. Threads are columns (grouped in warps of 32); each shared
// array is drawn twice, as it was before the step and as it is after it, with arrows from each
// cell a thread read to the thread (read phase) and from the thread to each cell it wrote (write
// phase), like seed 003's "read phase / write phase" tables.
#pragma once

#include <string>
#include <vector>

#include "kernels/run.h"
#include "sim/trace.h"

namespace syncscope::app {

struct CellView {
  std::string text;  // "28", "?" for poison
  bool poison = false;
  bool changed = false;  // after: differs from before
  bool read = false;     // before: some thread read it in this step
  bool written = false;  // after: some thread wrote it in this step
  bool racy = false;     // one side of a data race in this step
  float shade = 0;       // 0..1 between the array's smallest and largest value (colour mode)
};

struct SharedArrayView {
  int array = -1;
  std::string name;
  std::vector<CellView> before, after;
};

struct ThreadView {
  int thread = 0;
  bool active = false;  // touched memory or the warp in this step
  bool exited = false;  // finished the kernel in an earlier step
  std::vector<std::string> events;  // "reads shared[0] = 0", ...
};

struct ArrowView {
  int thread = 0;
  int array_row = 0;  // index into BlockViewModel::arrays
  int index = 0;      // cell
  bool racy = false;
};

struct BlockViewModel {
  bool available = false;
  std::string why_not;  // when not available
  int block = 0;
  Dim3 block_idx;
  int threads = 0;
  int warps = 0;
  std::string title;  // "block 1 · step 2/8 (write phase) · ends at barrier kogge_stone.h:24"
  std::string phase;  // "read phase", "write phase", "load", "store", ...
  std::vector<SharedArrayView> arrays;
  std::vector<ThreadView> thread_views;
  std::vector<ArrowView> reads;   // cell (before) -> thread
  std::vector<ArrowView> writes;  // thread -> cell (after)
};

BlockViewModel build_block_view(const RunResult& run, int launch, int step, int block);

// Who last wrote a shared cell, up to and including `step` of this launch.
struct CellOrigin {
  bool written = false;
  int thread = -1;
  int step = -1;
  sim::LineId line = sim::kNoLine;
  std::string text() const;  // "written by T3 in step 2 at kogge_stone.h:24", or "never written (?)"
};
CellOrigin cell_origin(const RunResult& run, int launch, int block, int array, int index, int step);

}  // namespace syncscope::app
