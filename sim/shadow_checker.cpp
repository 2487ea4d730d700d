#include "sim/shadow_checker.h"

#include <algorithm>
#include <atomic>

namespace syncscope::sim {

void ShadowChecker::start_block(int launch_index, uint32_t launch_first_interval, int block_linear,
                                int threads_per_block, const uint8_t* block_order) {
  block_order_ = block_order;
  launch_index_ = launch_index;
  first_interval_ = launch_first_interval;
  block_linear_ = block_linear;
  threads_per_block_ = threads_per_block;
  block_base_ = static_cast<int64_t>(block_linear) * threads_per_block;
  warp_epoch_.assign((threads_per_block + kWarpSize - 1) / kWarpSize, 0);
  warp_syncs_.resize(warp_epoch_.size());
  for (auto& syncs : warp_syncs_) syncs.clear();
  atomic_interval_.assign(threads_per_block, UINT32_MAX);  // no atomic yet
  atomic_cell_.assign(threads_per_block, 0);
  hazards_.clear();
  raced_ = false;
  guesses_.clear();
  held_ = 0;
}

void ShadowChecker::hold_guess(int64_t reader, bool cross_block, const ArrayStore& a, int index, const AccessStamp& other,
                               int thread, LineId line, bool atomic, HazardKind kind) {
  const int64_t local = a.space == MemSpace::Shared ? reader : reader - block_base_;
  // A first guess: the reader took no atomic on this cell just before (a CAS loop's start, or a
  // claim's test in a loop over several cells); after its own atomic there it reads a result.
  const bool first_guess = local >= 0 && local < static_cast<int64_t>(atomic_interval_.size()) &&
                           (atomic_interval_[local] != interval_ || atomic_cell_[local] != hot_key(a, index));
  guesses_[hot_key(a, index)].push_back({reader, cross_block, first_guess, &a, index, other, thread, line, atomic, kind});
  ++held_;
}

void ShadowChecker::checked_by_cas(const ArrayStore& a, int index, uint32_t who) {
  const auto cell = guesses_.find(hot_key(a, index));
  if (cell == guesses_.end()) return;
  std::vector<Guess>& held = cell->second;
  const size_t before = held.size();
  std::erase_if(held, [who](const Guess& g) { return g.reader == static_cast<int64_t>(who); });
  held_ -= before - held.size();
  if (held.empty()) guesses_.erase(cell);
}

namespace {
// One bit a line (LineId is 16 bits): set once, by whichever block's thread first CAS-es there, before
// the cell's stamp that another block's race finds is stored.
std::atomic<uint64_t> cas_lines[(size_t{1} << (8 * sizeof(LineId))) / 64];
}  // namespace

void ShadowChecker::note_cas_line(LineId line) {
  const uint64_t bit = uint64_t{1} << (line % 64);
  if (!(cas_lines[line / 64].load(std::memory_order_relaxed) & bit)) cas_lines[line / 64].fetch_or(bit);
}

bool ShadowChecker::is_cas_line(LineId line) { return cas_lines[line / 64].load() & (uint64_t{1} << (line % 64)); }

void ShadowChecker::report_unchecked_guesses() {
  if (guesses_.empty()) return;
  for (const auto& [cell, held] : guesses_)
    for (const Guess& g : held) {
      const bool against_cas = is_cas_line(g.atomic ? g.line : g.other.line);
      // Across blocks, whether the reader had taken an atomic before is known only when the reader's
      // block is this one, which the blocks' order decides: a plain read against another block's
      // compare-and-swap is the warning either way round.
      const bool warning = (g.first_guess || g.cross_block) && against_cas;
      if (g.cross_block) cross_block_race(g.kind, *g.array, g.index, g.other, g.thread, g.line, g.atomic, warning);
      else race(g.kind, *g.array, g.index, g.other, g.thread, g.line, g.atomic, warning);
    }
  guesses_.clear();
  held_ = 0;
}

void ShadowChecker::start_interval(uint32_t interval, int step) {
  report_unchecked_guesses();  // of the interval that ends
  interval_ = interval;
  hot_.start_interval(interval);
  step_ = step;
  std::fill(warp_epoch_.begin(), warp_epoch_.end(), 0);
  for (auto& syncs : warp_syncs_) syncs.clear();
}

HazardEvent ShadowChecker::here(HazardKind kind, Severity severity, const ArrayStore* a, int index, int thread,
                                LineId line) const {
  HazardEvent e{kind, severity};
  e.array = a ? a->id : -1;
  e.index = index;
  e.launch = launch_index_;
  e.block = block_linear_;
  e.step = step_;
  e.thread_second = thread;
  e.line_second = line;
  return e;
}

bool ShadowChecker::race(HazardKind kind, const ArrayStore& a, int index, const AccessStamp& other, int thread,
                         LineId line, bool atomic, bool unchecked_guess) {
  raced_ = true;
  const uint32_t who = thread_of(other);
  const int other_thread =
      a.space == MemSpace::Shared ? static_cast<int>(who) : static_cast<int>(static_cast<int64_t>(who) - block_base_);
  const bool same_warp = other_thread / kWarpSize == thread / kWarpSize;
  // Like compute-sanitizer: within one warp a warning (it often works, by SIMT luck), across warps an
  // error. But two lanes' runs of one plain write to one cell (`bins[x]++` by a warp) lose a value
  // in lockstep too: an error wherever its lanes are.
  const bool one_write_twice = kind == HazardKind::WriteAfterWrite && other.line == line && !atomic && !is_atomic(other);
  const bool warning = (same_warp && !one_write_twice) || unchecked_guess || cell_unchanged_;
  HazardEvent e = here(kind, warning ? Severity::Warning : Severity::Error, &a, index, thread, line);
  e.unchanged_cell = cell_unchanged_;
  e.same_warp = same_warp;
  e.read_of_atomics = unchecked_guess;
  e.thread_first = other_thread;
  e.line_first = other.line;
  e.first_atomic = is_atomic(other);
  e.second_atomic = atomic;
  e.same_value = kind == HazardKind::WriteAfterWrite && writing_same_value_;
  hazards_.add(e);
  return same_warp && !one_write_twice;
}

void ShadowChecker::cross_block_race(HazardKind kind, const ArrayStore& a, int index, const AccessStamp& other,
                                     int thread, LineId line, bool atomic, bool unchecked_guess) {
  const int64_t who = thread_of(other);
  HazardEvent e = here(kind, unchecked_guess || cell_unchanged_ ? Severity::Warning : Severity::Error, &a, index, thread, line);
  e.cross_block = true;
  e.unchanged_cell = cell_unchanged_;
  e.read_of_atomics = unchecked_guess;
  e.block_first = static_cast<int>(who / threads_per_block_);
  e.thread_first = static_cast<int>(who % threads_per_block_);
  e.line_first = other.line;
  e.first_atomic = is_atomic(other);
  e.second_atomic = atomic;
  e.after_atomic = block_order_ && (*block_order_ & kBlockTookGlobalAtomic);
  e.same_value = kind == HazardKind::WriteAfterWrite && writing_same_value_;
  hazards_.add(e);
}

void ShadowChecker::out_of_bounds(const ArrayStore& a, int index, int thread, LineId line, bool write) {
  HazardEvent e = here(HazardKind::OutOfBounds, Severity::Error, &a, index, thread, line);
  e.second_is_write = write;
  hazards_.add(e);
}

void ShadowChecker::uninitialized_read(const ArrayStore& a, int index, int thread, LineId line) {
  hazards_.add(here(HazardKind::UninitializedRead, Severity::Warning, &a, index, thread, line));
}

void ShadowChecker::warp_hazard(HazardKind kind, int thread, int other_thread, LineId other_line, LineId line) {
  HazardEvent e = here(kind, Severity::Error, nullptr, 0, thread, line);
  e.thread_first = other_thread;
  e.line_first = other_line;
  e.same_warp = true;
  hazards_.add(e);
}

void ShadowChecker::mask_hazard(MaskProblem problem, uint32_t mask, int thread, int other_thread, LineId other_line,
                                LineId line) {
  HazardEvent e = here(HazardKind::InactiveMaskLane, Severity::Error, nullptr, 0, thread, line);
  e.thread_first = other_thread;
  e.line_first = other_line;
  e.same_warp = true;
  e.mask = mask;
  e.mask_problem = problem;
  hazards_.add(e);
}

void ShadowChecker::exited_before_barrier(int thread, int exited, LineId returned_at, LineId line) {
  HazardEvent e = here(HazardKind::ExitedBeforeBarrier, Severity::Warning, nullptr, 0, thread, line);
  e.thread_first = exited;
  e.line_first = returned_at;
  hazards_.add(e);
}

void ShadowChecker::barrier_divergence(int thread, LineId line, int other, LineId other_line) {
  HazardEvent e = here(HazardKind::BarrierDivergence, Severity::Error, nullptr, 0, thread, line);
  e.thread_first = other;
  e.line_first = other_line;
  hazards_.add(e);
}

}  // namespace syncscope::sim
