// What the race detector found, grouped the way compute-sanitizer's racecheck analysis mode groups
// its reports: one entry per kind and pair of source lines, with a count.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "sim/memory.h"
#include "sim/source_lines.h"

namespace syncscope::sim {

enum class HazardKind : uint8_t {
  ReadAfterWrite,
  WriteAfterRead,
  WriteAfterWrite,
  OutOfBounds,
  UninitializedRead,
  BarrierDivergence,
  WarpDivergence,  // lanes of one warp at different warp operations (or one in divergent code)
  ExitedLane,      // a warp operation needs a lane that already exited
  InactiveMaskLane,  // a *_sync mask names a lane that is not there to take part (exited, elsewhere, not in the block)
  ExitedBeforeBarrier,  // threads returned before a barrier the others wait at (a GPU goes on without them)
};
enum class Severity : uint8_t { Warning, Error };
// Why a *_sync mask is wrong (HazardKind::InactiveMaskLane).
enum class MaskProblem : uint8_t { LaneExited, LaneElsewhere, LaneNotInBlock, CallerNotInMask };

std::string_view to_string(HazardKind k);  // "RAW", "WAR", "WAW", "out-of-bounds", ...
std::string_view to_string(Severity s);

// One occurrence, as the runner sees it.
struct HazardEvent {
  HazardKind kind;
  Severity severity;
  int array = -1;
  int index = 0;
  int launch = 0;
  int block = 0;
  int step = 0;
  int thread_first = -1;  // the earlier access (block-local; -1 when there is none)
  int thread_second = 0;  // the access that completed the hazard
  int block_first = -1;   // cross-block hazards: the other block
  LineId line_first = kNoLine;
  LineId line_second = kNoLine;
  bool cross_block = false;
  bool same_warp = false;
  bool second_is_write = false;  // out-of-bounds: the access was a write
  bool first_atomic = false;      // races: that side was an atomic read-modify-write
  bool second_atomic = false;
  // A cross-block race between a block that fenced and then took a global atomic and blocks that took
  // global atomics: their atomics may order the accesses (a ticket, a lock), which is not followed.
  bool through_atomics = false;
  // A plain read against other threads' atomics that its thread did not then compare-and-swap (an
  // atomicMax loop whose thread found nothing to do): it saw the value before or after their update,
  // which such a loop allows; a warning, not an error.
  bool read_of_atomics = false;
  // Cross-block races: the block of the second access had taken a global atomic before it (what
  // could have acquired the other block's release). Within the worker only (not sent).
  bool after_atomic = false;
  // ... and the other block took a global atomic too, with no __threadfence() before it: a lock or a
  // ticket that hands over without publishing the write (what the fix says).
  bool unfenced_handover = false;
  // A WAW whose second write stored the bits the cell held (every thread sets one flag to 1).
  bool same_value = false;
  // A race on a global cell that no write of the launch changed (each stored the bits it held, as a
  // Floyd-Warshall step rewrites row and column k): whatever the order, every read gets the same
  // value. A warning that says so.
  bool unchanged_cell = false;
  uint32_t mask = 0;              // InactiveMaskLane: the mask given, and what is wrong with it
  MaskProblem mask_problem = MaskProblem::LaneExited;
};

// All occurrences of one kind between one pair of lines.
struct HazardGroup {
  HazardEvent first;   // where to jump to
  uint64_t count = 0;
  std::vector<int> blocks;  // the smallest distinct blocks, ascending, at most kMaxBlocksListed
  uint64_t block_count = 0;
  std::vector<int> indices;  // the smallest distinct cells, ascending, at most kMaxIndicesListed
  bool all_same_value = false;  // a WAW's every occurrence stored the value the cell held
  int launches = 1;  // launches it happened in (merge_launches), the first's is first.launch
  int last_launch = -1;  // with launches > 1
  static constexpr size_t kMaxBlocksListed = 16;
  static constexpr size_t kMaxIndicesListed = 8;
};

// One group per race however many launches repeat it (a kernel launched from a host loop: its
// shared array is a new one each launch), in `groups`' order; `identity(array)` says which arrays are
// one (by name and space).
std::vector<HazardGroup> merge_launches(const std::vector<HazardGroup>& groups,
                                        const std::function<std::string(int array)>& identity);

class HazardLog {
 public:
  // Out of line: the map's code is compiled once here, not into every kernel library that holds a
  // log (a trace, a shadow checker).
  HazardLog();
  ~HazardLog();
  HazardLog(const HazardLog&);
  HazardLog(HazardLog&&) noexcept;
  HazardLog& operator=(const HazardLog&);
  HazardLog& operator=(HazardLog&&) noexcept;

  void add(const HazardEvent& e);
  void merge(const HazardLog& other, bool cross_block_only = false);
  // Another launch's log: its blocks are the same blocks again, not more of them (a group's block
  // count is the most any one launch had).
  void merge_launch(const HazardLog& launch);
  // The groups of `other` (one block's earlier run) this log (the same block's re-run) did not find:
  // one block's two runs count its hazards once.
  void add_missing(const HazardLog& other);
  // A whole group as another process's log had it (the kernel worker's answer, core/worker/).
  void add_group(const HazardGroup& g);
  // The cross-block races (errors) `ordered(group)` says the blocks' fences and atomics may order:
  // warnings with through_atomics set.
  void soften_cross_block(const std::function<bool(const HazardGroup&)>& ordered);
  // The cross-block races (errors) `unfenced(group)` says hand over through atomics without a fence:
  // unfenced_handover set.
  void note_unfenced_handovers(const std::function<bool(const HazardGroup&)>& unfenced);
  std::vector<HazardGroup> groups() const;  // ordered: errors first, then by first occurrence
  bool empty() const { return groups().empty(); }
  uint64_t total() const;
  void clear();

 private:
  bool benign(const HazardGroup& g) const;
  void merge(const HazardLog& other, bool cross_block_only, bool other_launch);
  using Key = std::tuple<int, int, int, int, LineId, LineId>;  // kind, severity, array, cross, lines
  static Key key_of(const HazardEvent& e);
  std::map<Key, HazardGroup> groups_;
};

}  // namespace syncscope::sim
