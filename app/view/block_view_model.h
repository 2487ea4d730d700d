// Step view: one block at one step. Threads are columns (grouped in warps of 32); each shared
// array is drawn twice, as it was before the step and as it is after it, with arrows from each
// cell a thread read to the thread (read phase) and from the thread to each cell it wrote (write
// phase), like seed 003's "read phase / write phase" tables. Every access is also an operation in
// the order the schedule ran it, with the value it actually saw: replaying them one by one shows
// a racy read taking a value that was written earlier in the same step.
#pragma once

#include <string>
#include <vector>

#include "core/run.h"
#include "sim/trace.h"

namespace syncscope::app {

struct CellView {
  std::string text;  // "28", "?" for poison
  bool poison = false;
  bool changed = false;  // after: differs from before
  bool read = false;     // before: some thread read it in this step
  bool written = false;  // after: some thread wrote it in this step
  bool racy = false;     // one side of a data race in this step
  bool race_within_warp = false;  // every access of that race is from one warp: a warning, not an error
  int bank_conflict = 0;  // shared, lockstep: the n of the n-way bank conflict of the warp instruction that touched it (0, 1: none)
  float shade = 0;       // 0..1 between the array's smallest and largest value (colour mode)
  // An 8-byte element (a double, a long long) is two cells drawn as one box: 2 on its first cell,
  // which shows the element's value, 0 on its second, drawn by the first.
  int span = 1;
};

// Cell i of a row as it is drawn: the first cell of an 8-byte element (span 2) marked as either
// of its two cells is (read, written, racy, bank conflict).
CellView drawn_cell(const std::vector<CellView>& row, size_t i);

struct SharedArrayView {
  int array = -1;
  std::string name;
  std::string lo, hi;  // the smallest and largest value before and after (the colour scale's ends)
  std::vector<CellView> before, after;
  int word_offset = 0;  // where it starts in the block's shared memory, in 4-byte words (its banks)
  int columns = 0;      // a 2D array (`tile[R][C]`): cells per row, drawn as a tile; 0 for 1D
  int plane_rows = 0;   // a 3D array (`box[D][R][C]`, drawn as D × R rows): R; 0 for 1D and 2D
  int cells_per_element = 1;  // 2 for 8-byte elements: the program's index is the cell's / 2
  int cell_bytes = 4;         // how far apart its cells lie on a GPU: 1 for a uchar4's bytes
  int bank_of(int cell) const { return (word_offset + cell * cell_bytes / 4) % 32; }
};

struct ThreadView {
  int thread = 0;
  bool active = false;  // touched memory or the warp in this step
  bool exited = false;  // finished the kernel in an earlier step
  std::vector<std::string> events;  // "reads shared[0] = 0", ...
  // The value the thread holds at the end of the step: the last one it read or received (in
  // this step or an earlier one), named after the variable the source line assigns: "partner = 3".
  std::string holds;
  // Its last write in this step, with the values it combined when they add up: "6 = 5 + 1";
  // otherwise "writes 6".
  std::string writes;
  std::vector<std::string> printed;  // what its device printf calls printed in this step
};

// One device printf call of the step, as the trace kept it: listed under the picture, marked
// beside its thread.
struct PrintedView {
  int block = 0;
  int thread = 0;
  std::string who;    // "T3", or "(3,1)" in a 2D block
  std::string where;  // "line 19" (a program's device code is all in its one .cu file)
  std::string text;   // without its final newline
};

struct ArrowView {
  int thread = 0;
  int array_row = 0;  // index into BlockViewModel::arrays (or global_reads / global_writes)
  int index = 0;      // cell
  bool racy = false;
  int order = 0;        // the access's place among the step's operations
  std::string value;    // the value read (reads) or written (writes)
  // Reads: another thread wrote this cell earlier in the same step, so the value read is not the
  // one drawn in the "before" row.
  bool sees_write_of_this_step = false;
  int writer = -1;  // that thread
  bool race_within_warp = false;  // drawn in the warning colour, as the Hazards panel counts it
};

// One thing a thread did in this step, in the order the schedule ran it.
struct OperationView {
  int thread = 0;
  sim::EventKind kind = sim::EventKind::Exit;
  int array_row = -1;   // shared: BlockViewModel::arrays row; global: global_reads/global_writes row
  bool global = false;
  int index = 0;        // cell; shuffles: the source lane
  std::string value;    // read: the value read; write: the new value; shuffle: the value received
  std::string old;      // write: the value replaced
  bool poison = false;
  bool racy = false;
  sim::LineId line = sim::kNoLine;
  int event = 0;      // index into the step's events (operation_text formats it when shown); an 8-byte
                      // number's two cells are one operation, at its low cell's event
  int writer = -1;    // reads: the thread that wrote the cell earlier in this step
  bool race_within_warp = false;  // racy, and every race it completed was between lanes of one warp
  sim::AtomicOp atomic = sim::AtomicOp::None;  // a write that is an atomic read-modify-write
};

// One round of a warp operation: every lane's k-th shuffle of the step.
struct ShuffleRound {
  int warp = 0;
  std::string op;  // "shfl_up", "syncwarp"
  sim::LineId line = sim::kNoLine;
  int first_order = -1, last_order = -1;  // its first and last lane's place among the step's operations
  int rank = 0;  // its place among its warp's rounds: every warp's round k shares a lane row
  struct LaneArrow {
    int from_lane = 0, to_lane = 0;
    std::string value;  // what the lane received
    bool own = false;   // the source was out of range: it kept its own value
  };
  std::vector<LaneArrow> arrows;
};

// The section of a global array the block touched in this step (reads above the picture, writes
// below it), cells indexed from `first`.
struct GlobalRowView {
  int array = -1;
  std::string name;
  int first = 0;
  std::vector<CellView> cells;  // value read / written (the last access of each cell)
  std::string lo, hi;           // its smallest and largest value (the colour scale's ends)
};

// What the steps of one launch need for one block, together: a picture that reserves it in every
// step keeps each cell where it was while stepping or playing through the launch.
struct LaunchFrame {
  int shared_rows = 0;                      // the most shared arrays one step drew
  int warp_rounds = 0;                      // the most warp-operation rounds one warp ran in a step
  int columns = 0;                          // the widest row
  std::vector<std::string> captions;        // every step's, in order
  int printed_lines = 0;                    // the most device printf lines (and a dropped-count line) one step kept
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
  std::vector<OperationView> operations;  // in execution order
  std::vector<ShuffleRound> shuffles;     // per warp, round by round
  std::vector<GlobalRowView> global_reads, global_writes;
  std::vector<ArrowView> global_read_arrows, global_write_arrows;
  // One sentence for the class: the kernel's own c.caption(...) for the step when it has one
  // ("offset 2, read phase: ..."), else `activity`.
  std::string caption;
  // Lockstep: "bank conflicts: 3 warp instructions, worst 4-way" (their cells get a bar), or "".
  std::string bank_conflicts;
  std::string activity;  // derived from the operations: "7 threads read shared[t-1]; 7 threads write shared[t]"
  std::vector<PrintedView> printed;  // device printf of the step, in the order the threads printed
  uint32_t printed_dropped = 0;      // calls past the trace's caps (sim/limits.h), not kept
  // When this block did nothing in the step: the blocks of the launch that did (recorded ones).
  std::vector<int> busy_blocks;
  // The launch's frame, when the step view set it (empty: this step's own rows are enough).
  LaunchFrame frame;
};

BlockViewModel build_block_view(const RunResult& run, int launch, int step, int block);
LaunchFrame launch_frame(const RunResult& run, int launch, int block);

// The shared arrays after the first `done` operations of the step (0: the "before" rows; all:
// the "after" rows); cells touched by operation done-1 are marked read/written.
std::vector<std::vector<CellView>> cells_after(const BlockViewModel& m, int done);

// A readable run of threads out of a large block (the focus window): the step's shared-memory
// arrows with both ends inside it, and stubs at its edge for those with one end outside, labelled
// with where that end is, so no arrow leaves the picture unexplained.
struct FocusArrow {
  int thread = 0;     // the thread's column
  int column = 0;     // the cell's column
  int array_row = 0;
  bool read = true;
  bool racy = false;
  bool race_within_warp = false;
  bool sees_write_of_this_step = false;
  int order = 0;                // replaying: drawn once the access has run
  bool stub = false;            // one end is outside the window
  bool thread_outside = false;  // that end is the thread (else the cell)
  std::string label;            // stubs: "from t-512", "to t+1", "read by T700", "written by T700"
  std::string value;
};
struct FocusWindow {
  int first = 0, count = 0;  // threads (and cells) [first, first + count)
  std::vector<FocusArrow> arrows;
  bool contains(int column) const { return column >= first && column < first + count; }
};
FocusWindow focus_window(const BlockViewModel& m, int first, int count);

// "T3 reads shared[2] = 3 (race) (written this step by T2)": operation k of the step, in words.
std::string operation_text(const RunResult& run, int launch, int step, const BlockViewModel& m, int k);

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
