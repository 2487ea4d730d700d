#include "sim/block_runner.h"

#include <boost/context/protected_fixedsize_stack.hpp>

#include "sim/context_switch.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <sstream>

#include "sim/describe.h"
#include "sim/sim_ctx.h"
#include "sim/splitmix64.h"
#include "sim/simulator.h"

namespace syncscope::sim {
namespace {

// Kernels are shallow; this leaves room for a debug build and local arrays. Pages are touched
// lazily, and a guard page turns an overflow into a clean fault instead of silent corruption.
constexpr size_t kFiberStackBytes = 256 * 1024;


}  // namespace

namespace {
std::mutex runner_cache_mutex;
std::vector<std::unique_ptr<BlockRunner>>& runner_cache() {
  static std::vector<std::unique_ptr<BlockRunner>> cache;
  return cache;
}
}  // namespace

std::unique_ptr<BlockRunner> BlockRunner::take_cached() {
  std::lock_guard lock(runner_cache_mutex);
  auto& cache = runner_cache();
  if (cache.empty()) return std::make_unique<BlockRunner>();
  auto r = std::move(cache.back());
  cache.pop_back();
  // The next simulation may run this runner on another OS thread; a fiber parked mid-loop could
  // hold the previous thread's TLS base in a register. Start every fiber afresh (stacks are kept).
  for (auto& th : r->threads_) th.context = nullptr;
  return r;
}

void BlockRunner::return_to_cache(std::unique_ptr<BlockRunner> runner) {
  std::lock_guard lock(runner_cache_mutex);
  auto& cache = runner_cache();
  if (cache.size() < 64) cache.push_back(std::move(runner));
}

BlockRunner::BlockRunner() {
  // Never reallocated: suspended fibers refer to their SimThread.
  threads_.reserve(kMaxThreadsPerBlock);
}

BlockRunner::~BlockRunner() {
  // Kernels are device code without resources of their own, so a parked fiber's stack is simply
  // released, not unwound.
  boost::context::protected_fixedsize_stack stacks(kFiberStackBytes);
  for (auto& th : threads_)
    if (th.stack.sp) stacks.deallocate(th.stack);
}

std::vector<ThreadCounters> BlockRunner::thread_counters() const {
  std::vector<ThreadCounters> out;
  out.reserve(threads_per_block_);
  for (int t = 0; t < threads_per_block_; ++t) out.push_back(threads_[t].counters);
  return out;
}

BlockRunner::Outcome BlockRunner::run(Simulator& sim, LaunchState& launch, int block_linear, Mode mode,
                                      const Schedule& schedule, std::vector<EventObserver*> observers) {
  sim_ = &sim;
  launch_ = &launch;
  block_linear_ = block_linear;
  const Dim3 g = launch.grid;
  block_idx_ = {block_linear % g.x, (block_linear / g.x) % g.y, block_linear / (g.x * g.y)};
  threads_per_block_ = launch.block.count();
  block_base_ = static_cast<int64_t>(block_linear) * threads_per_block_;
  mode_ = mode;
  schedule_ = schedule;
  observers_ = std::move(observers);
  switch_each_access_ = mode == Mode::Scheduled && schedule.kind == ScheduleKind::Random;
  simt_ = mode == Mode::Scheduled && schedule.kind == ScheduleKind::Lockstep;
  recording_ = !observers_.empty();
  fast_accesses_ = !recording_ && !switch_each_access_ && !simt_;
  forward_order_ = mode == Mode::Fast || schedule.kind == ScheduleKind::Forward;
  // A fast run is the forward schedule itself; only other schedules may need to undo it.
  keep_undo_log_ = mode == Mode::Fast && schedule.kind != ScheduleKind::Forward;

  if (static_cast<int>(threads_.size()) < threads_per_block_) threads_.resize(threads_per_block_);
  for (int t = 0; t < threads_per_block_; ++t) {
    SimThread& th = threads_[t];
    th.state = ThreadState::Runnable;
    th.wait_line = kNoLine;
    th.shared_allocs = 0;
    th.accesses = 0;
    th.counters = {};
  }
  warps_.assign((threads_per_block_ + kWarpSize - 1) / kWarpSize, WarpRendezvous{});
  warp_epoch_.assign(warps_.size(), 0);
  running_ = threads_per_block_;
  at_barrier_ = 0;
  barrier_lines_differ_ = false;
  shared_count_ = 0;
  shared_bytes_used_ = 0;
  step_ = 0;
  raced_ = false;
  failed_ = false;
  error_.reset();
  hazards_.clear();
  undo_.clear();
  low_cursor_ = 0;
  high_cursor_ = threads_per_block_ - 1;
  reset_simt_positions();
  rng_ = schedule.seed ^ (static_cast<uint64_t>(launch.index) << 40) ^ static_cast<uint64_t>(block_linear);
  new_interval();

  for (;;) {
    const int t = pick();
    if (t < 0) {
      if (!all_blocked_resolve()) break;
      continue;
    }
    transfer(t);  // back here when no thread is runnable, or one failed
    if (failed_) break;
  }
  if (failed_) {
    end_step(kNoLine);
    abandon_fibers();
  }
  observers_.clear();
  recording_ = false;
  return {raced_, failed_};
}

void BlockRunner::undo_global_writes() {
  for (auto it = undo_.rbegin(); it != undo_.rend(); ++it) {
    it->array->bits[it->index] = it->bits;
    it->array->poison[it->index] = it->poison;
  }
  undo_.clear();
}

void BlockRunner::start_thread(int t) {
  SimThread& th = threads_[t];
  if (!th.stack.sp) th.stack = boost::context::protected_fixedsize_stack(kFiberStackBytes).allocate();
  th.runner = this;
  th.index = t;
  // Guard-paged stacks all start at the same offset within a page, so without this every fiber's
  // hot frames would fall into the same few cache sets; staggering them by whole cache lines
  // halves the cost of a switch among 1024 fibers.
  boost::context::stack_context coloured = th.stack;
  const size_t offset = (static_cast<size_t>(t) * 17 * 64) % (64 * 1024);
  coloured.sp = static_cast<char*>(coloured.sp) - offset;
  coloured.size -= offset;
  th.context = make_context(coloured, &BlockRunner::thread_main, &th);
}

void BlockRunner::thread_main(void* simthread) {
  auto* th = static_cast<SimThread*>(simthread);
  th->runner->thread_loop(th->index);
}

void BlockRunner::thread_loop(int t) {
  // The fiber outlives blocks: after the kernel returns it waits here for the next block.
  for (;;) {
    // No context switch may happen inside a catch handler: the C++ runtime keeps the exceptions
    // being handled per OS thread, not per fiber.
    bool finished = false;
    try {
      if (simt_ && launch_->simt_kernel) {
        SimtCtx ctx(*this, t);
        tls_simt_kernel = this;
        launch_->simt_kernel(launch_->closure, ctx);
        tls_simt_kernel = nullptr;
      } else {
        SimCtx ctx(*this, t);
        launch_->kernel(launch_->closure, ctx);
      }
      finished = true;
    } catch (const KernelAbort&) {
      tls_simt_kernel = nullptr;
    } catch (const std::exception& e) {
      tls_simt_kernel = nullptr;
      fail(SimErrorKind::Kernel, std::string("the kernel threw: ") + e.what(), {});
    }
    if (finished) {
      thread_exited(t);
      transfer(next_or_scheduler());
    } else {
      threads_[t].state = ThreadState::Failed;
      transfer(kScheduler);
    }
  }
}


void BlockRunner::abandon_fibers() {
  // Threads stopped mid-kernel start afresh next time (their stacks are reused).
  for (int t = 0; t < threads_per_block_; ++t) {
    const ThreadState s = threads_[t].state;
    if (s != ThreadState::Exited && s != ThreadState::Failed) threads_[t].context = nullptr;
  }
}

void BlockRunner::thread_exited(int t) {
  threads_[t].state = ThreadState::Exited;
  --running_;
  warps_[t / kWarpSize].exited |= 1u << (t % kWarpSize);
  if (recording_)
    emit({EventKind::Exit, 0, static_cast<uint16_t>(t), kNoLine, 0, 0, 0, 0});
}

void BlockRunner::make_runnable(int t) {
  threads_[t].state = ThreadState::Runnable;
  low_cursor_ = std::min(low_cursor_, t);
  high_cursor_ = std::max(high_cursor_, t);
}

int BlockRunner::pick_by_schedule() {
  const int n = threads_per_block_;
  auto runnable = [&](int t) { return threads_[t].state == ThreadState::Runnable; };
  switch (schedule_.kind) {
    case ScheduleKind::Reverse:
      while (high_cursor_ >= 0 && !runnable(high_cursor_)) --high_cursor_;
      return high_cursor_;
    case ScheduleKind::Lockstep:
      return pick_simt();
    case ScheduleKind::Random: {
      const int start = static_cast<int>(splitmix64(rng_) % static_cast<uint64_t>(n));
      for (int k = 0; k < n; ++k) {
        const int t = (start + k) % n;
        if (runnable(t)) return t;
      }
      return -1;
    }
    case ScheduleKind::Forward:
      break;
  }
  return -1;
}

// SIMT lockstep. Warps take turns, one warp instruction each. A warp's instruction is the
// operation (or basic block) at the smallest position among its runnable lanes (the MinPC rule of
// SIMT simulators): every lane waiting there runs it, in lane order, up to its next position; a
// lane waiting further on (it skipped a branch, or left a loop early) waits until the others
// arrive, which is where a GPU's warp reconverges.
int BlockRunner::pick_simt() {
  const int warps = static_cast<int>(warps_.size());
  for (;;) {
    if (simt_group_open_) {
      const int first = simt_warp_ * kWarpSize;
      const int lanes = std::min(kWarpSize, threads_per_block_ - first);
      for (; simt_lane_ < lanes; ++simt_lane_) {
        const SimThread& th = threads_[first + simt_lane_];
        if (th.state == ThreadState::Runnable && th.simt_pc == simt_group_pc_ && th.simt_op == simt_group_op_)
          return first + simt_lane_++;
      }
      simt_group_open_ = false;
      simt_warp_ = (simt_warp_ + 1) % warps;
    }
    for (int k = 0; k < warps && !simt_group_open_; ++k) {
      const int w = (simt_warp_ + k) % warps;
      const int first = w * kWarpSize;
      const int lanes = std::min(kWarpSize, threads_per_block_ - first);
      for (int lane = 0; lane < lanes; ++lane) {
        const SimThread& th = threads_[first + lane];
        if (th.state != ThreadState::Runnable) continue;
        if (!simt_group_open_ || th.simt_pc < simt_group_pc_ ||
            (th.simt_pc == simt_group_pc_ && th.simt_op < simt_group_op_)) {
          simt_group_open_ = true;
          simt_group_pc_ = th.simt_pc;
          simt_group_op_ = th.simt_op;
        }
      }
      if (simt_group_open_) {
        simt_warp_ = w;
        simt_lane_ = 0;
      }
    }
    if (!simt_group_open_) return -1;
  }
}

void BlockRunner::reset_simt_positions() {
  for (int t = 0; t < threads_per_block_; ++t) {
    threads_[t].simt_pc = 0;
    threads_[t].simt_op = 0;
  }
  simt_warp_ = 0;
  simt_group_open_ = false;
  simt_lane_ = 0;
}

void BlockRunner::simt_basic_block(uintptr_t pc) {
  tls_simt_kernel = nullptr;
  cur_->simt_pc = pc;
  cur_->simt_op = 0;
  yield();
  tls_simt_kernel = this;
}

CellValue BlockRunner::simt_load(ArrayStore& a, int index, const std::source_location& site) {
  tls_simt_kernel = nullptr;
  const CellValue v = load_bits(a, index, LineTable::intern(site));
  tls_simt_kernel = this;
  return v;
}

void BlockRunner::simt_store(ArrayStore& a, int index, CellValue v, const std::source_location& site) {
  tls_simt_kernel = nullptr;
  store_bits(a, index, v, LineTable::intern(site));
  tls_simt_kernel = this;
}

void BlockRunner::simt_barrier(const std::source_location& site) {
  tls_simt_kernel = nullptr;
  barrier(LineTable::intern(site));
  tls_simt_kernel = this;
}

CellValue BlockRunner::simt_warp_op(WarpOp op, CellValue v, int arg, const std::source_location& site) {
  tls_simt_kernel = nullptr;
  const CellValue r = warp_rendezvous(op, v.bits, v.poison, arg, LineTable::intern(site));
  tls_simt_kernel = this;
  return r;
}

ArrayStore& BlockRunner::simt_shared_array(DType dtype, int count, const char* name) {
  tls_simt_kernel = nullptr;
  ArrayStore& a = shared_array(dtype, count, name);
  tls_simt_kernel = this;
  return a;
}

CellValue BlockRunner::load_bits(ArrayStore& a, int index, LineId line) {
  if (simt_) simt_park_before_operation();
  SimThread& th = *cur_;
  const bool shared = a.space == MemSpace::Shared;
  count_access(th);
  if (shared) ++th.counters.shared_reads; else ++th.counters.global_reads;
  uint32_t bits = 0;
  uint8_t flags = 0;
  if (static_cast<unsigned>(index) >= static_cast<unsigned>(a.size())) [[unlikely]] {
    flags = kOutOfBounds | kValuePoison;
    out_of_bounds(a, index, line, false);
  } else {
    if (!shared && attempt_) claim(a, index, false);
    bits = attempt_ ? std::atomic_ref<uint32_t>(a.bits[index]).load(std::memory_order_relaxed) : a.bits[index];
    if (a.poison[index]) [[unlikely]] {
      flags |= kValuePoison;
      if (a.poison[index] == kNeverWritten) uninitialized_read(a, index, line);
    }
    check_read(a, index, line, flags);
  }
  if (recording_)
    emit({shared ? EventKind::SharedRead : EventKind::GlobalRead, flags, static_cast<uint16_t>(current_), line,
          static_cast<uint16_t>(a.id), index, 0, bits});
  if (switch_each_access_) yield();
  return {bits, (flags & kValuePoison) != 0};
}

void BlockRunner::store_bits(ArrayStore& a, int index, CellValue v, LineId line) {
  if (simt_) simt_park_before_operation();
  SimThread& th = *cur_;
  const bool shared = a.space == MemSpace::Shared;
  count_access(th);
  if (shared) ++th.counters.shared_writes; else ++th.counters.global_writes;
  uint8_t flags = v.poison ? kValuePoison : 0;
  uint32_t old = 0;
  const uint32_t bits = v.bits;
  if (static_cast<unsigned>(index) >= static_cast<unsigned>(a.size())) [[unlikely]] {
    flags |= kOutOfBounds;
    out_of_bounds(a, index, line, true);
  } else {
    if (!shared && attempt_) {
      back_up_chunk(a, index);
      claim(a, index, true);
    }
    old = a.bits[index];
    if (a.poison[index]) flags |= kOldPoison;
    check_write(a, index, line, flags);
    if (keep_undo_log_ && !shared) undo_.push_back({&a, index, old, a.poison[index]});
    if (attempt_) {
      std::atomic_ref<uint32_t>(a.bits[index]).store(bits, std::memory_order_relaxed);
      std::atomic_ref<uint8_t>(a.poison[index]).store(v.poison ? kDerivedFromPoison : 0, std::memory_order_relaxed);
    } else {
      a.bits[index] = bits;
      a.poison[index] = v.poison ? kDerivedFromPoison : 0;
    }
  }
  if (recording_)
    emit({shared ? EventKind::SharedWrite : EventKind::GlobalWrite, flags, static_cast<uint16_t>(current_), line,
          static_cast<uint16_t>(a.id), index, old, bits});
  if (switch_each_access_) yield();
}

std::string BlockRunner::describe_threads(const std::vector<int>& threads) const {
  std::ostringstream out;
  for (size_t i = 0; i < threads.size();) {
    size_t j = i;
    while (j + 1 < threads.size() && threads[j + 1] == threads[j] + 1) ++j;
    if (i) out << ", ";
    out << 'T' << threads[i];
    if (j > i) out << "-T" << threads[j];
    i = j + 1;
  }
  return out.str();
}

bool BlockRunner::all_blocked_resolve() {
  if (running_ == 0) {
    end_step(kNoLine);
    return false;
  }
  if (at_barrier_ == threads_per_block_ && !barrier_lines_differ_) {
    release_barrier();  // the usual case: everyone waits at the same barrier
    return !failed_;
  }
  // Something is wrong; find out what, thread by thread.
  std::map<LineId, std::vector<int>> at_barrier, at_warp_op;
  std::vector<int> exited;
  for (int t = 0; t < threads_per_block_; ++t) {
    switch (threads_[t].state) {
      case ThreadState::AtBarrier: at_barrier[threads_[t].wait_line].push_back(t); break;
      case ThreadState::AtWarpOp: at_warp_op[threads_[t].wait_line].push_back(t); break;
      case ThreadState::Exited: exited.push_back(t); break;
      default: break;
    }
  }
  std::vector<LineId> lines;
  std::ostringstream why;
  auto list_waiters = [&](const std::map<LineId, std::vector<int>>& groups, const char* what) {
    for (const auto& [line, ts] : groups) {
      why << "; " << describe_threads(ts) << " wait at the " << what << " at " << LineTable::describe(line);
      lines.push_back(line);
    }
  };
  if (!at_warp_op.empty()) {
    // Lanes wait at a warp operation the rest of their warp never reaches: name a waiting lane
    // and where a missing one is (at a barrier, or exited).
    for (const auto& [line, ts] : at_warp_op) {
      const int w = ts.front() / kWarpSize;
      for (int lane = w * kWarpSize; lane < std::min(threads_per_block_, (w + 1) * kWarpSize); ++lane) {
        const ThreadState st = threads_[lane].state;
        if (st == ThreadState::AtWarpOp) continue;
        current_ = ts.front();
        if (st == ThreadState::Exited) warp_hazard(HazardKind::ExitedLane, lane, kNoLine, line);
        else warp_hazard(HazardKind::WarpDivergence, lane, threads_[lane].wait_line, line);
        current_ = kScheduler;
        break;
      }
    }
    why << "a warp operation can never complete";
    list_waiters(at_warp_op, "warp operation");
    list_waiters(at_barrier, "barrier");
    if (!exited.empty()) why << "; " << describe_threads(exited) << " exited";
    fail(SimErrorKind::WarpDivergence, why.str(), lines);
    return false;
  }
  if (!exited.empty() || at_barrier.size() > 1) {
    why << "barrier divergence: not every thread of block " << block_linear_ << " reaches the same barrier";
    list_waiters(at_barrier, "barrier");
    if (!exited.empty()) why << "; " << describe_threads(exited) << " already exited";
    why << " (on a GPU this hangs or silently misbehaves)";
    fail(SimErrorKind::BarrierDivergence, why.str(), lines);
    for (LineId l : lines) hazards_.add(hazard_here(HazardKind::BarrierDivergence, Severity::Error, nullptr, 0, l));
    return false;
  }
  release_barrier();
  return !failed_;
}

void BlockRunner::release_barrier() {
  const LineId line = barrier_line_;
  end_step(line);
  if (step_ + 1 >= kMaxStepsPerLaunch) {
    fail(SimErrorKind::StepBudget,
         "block " + std::to_string(block_linear_) + " passed " + std::to_string(kMaxStepsPerLaunch) +
             " barriers in one launch (the step budget); is the loop around " + LineTable::describe(line) +
             " endless?",
         {line});
    return;
  }
  ++step_;
  new_interval();
  for (int t = 0; t < threads_per_block_; ++t) threads_[t].state = ThreadState::Runnable;
  at_barrier_ = 0;
  barrier_lines_differ_ = false;
  low_cursor_ = 0;
  high_cursor_ = threads_per_block_ - 1;
  reset_simt_positions();
}

void BlockRunner::new_interval() {
  interval_ = sim_->next_interval();
  std::fill(warp_epoch_.begin(), warp_epoch_.end(), 0);
}

void BlockRunner::end_step(LineId barrier) {
  for (EventObserver* o : observers_) o->on_step_end(barrier, shared_, shared_count_);
}


void BlockRunner::sync_warp(LineId line) { warp_rendezvous(WarpOp::SyncWarp, 0, false, 0, line); }

CellValue BlockRunner::warp_rendezvous(WarpOp op, uint32_t bits, bool poison, int arg, LineId line) {
  if (simt_) simt_park_before_operation();
  const int t = current_;
  const int w = t / kWarpSize;
  const int lane = t % kWarpSize;
  SimThread& th = threads_[t];
  count_access(th);
  WarpRendezvous& r = warps_[w];
  if (r.exited != 0) {
    std::vector<int> gone;
    for (int l = 0; l < kWarpSize; ++l)
      if (r.exited & (1u << l)) gone.push_back(w * kWarpSize + l);
    warp_hazard(HazardKind::ExitedLane, gone.front(), kNoLine, line);
    fail_in_thread(SimErrorKind::WarpDivergence,
                   warp_op_name(op) + " at " + LineTable::describe(line) + ": " + describe_threads(gone) + " of warp " +
                       std::to_string(w) + " already exited; every lane of the warp must take part",
                   {line});
  }
  if (r.arrived == 0) {
    r.op = op;
    r.line = line;
  } else if (r.op != op || r.line != line) {
    int other = w * kWarpSize;
    while (!(r.arrived & (1u << (other % kWarpSize)))) ++other;
    warp_hazard(HazardKind::WarpDivergence, other, r.line, line);
    fail_in_thread(SimErrorKind::WarpDivergence,
                   "lanes of warp " + std::to_string(w) + " reached different warp operations: " +
                       warp_op_name(r.op) + " at " + LineTable::describe(r.line) + " and " + warp_op_name(op) +
                       " at " + LineTable::describe(line),
                   {r.line, line});
  }
  r.bits[lane] = bits;
  r.poison[lane] = poison ? 1 : 0;
  r.arg[lane] = arg;
  r.arrived |= 1u << lane;
  const int lanes = std::min(kWarpSize, threads_per_block_ - w * kWarpSize);
  const uint32_t all = lanes == kWarpSize ? ~0u : (1u << lanes) - 1;
  if (r.arrived == all) {
    complete_warp_op(w);
  } else {
    th.state = ThreadState::AtWarpOp;
    th.wait_line = line;
    block_current();
  }
  if (recording_) {
    const uint8_t flags = static_cast<uint8_t>((th.warp_poison ? kValuePoison : 0) | (th.warp_own ? kOwnValue : 0));
    emit({op == WarpOp::SyncWarp ? EventKind::WarpSync : EventKind::Shuffle, flags, static_cast<uint16_t>(t), line,
          static_cast<uint16_t>(op), th.warp_source, 0, th.warp_bits});
  }
  if (switch_each_access_) yield();
  return {th.warp_bits, th.warp_poison};
}

void BlockRunner::complete_warp_op(int w) {
  WarpRendezvous& r = warps_[w];
  const int first = w * kWarpSize;
  const int lanes = std::min(kWarpSize, threads_per_block_ - first);
  for (int lane = 0; lane < lanes; ++lane) {
    SimThread& th = threads_[first + lane];
    const int arg = r.arg[lane];
    int src = lane;
    bool own = false, undefined = false;
    switch (r.op) {
      case WarpOp::ShflUp:
        src = lane - arg;
        if (arg < 0 || src < 0) src = lane, own = true;
        break;
      case WarpOp::ShflDown:
        src = lane + arg;
        if (arg < 0 || src >= kWarpSize) src = lane, own = true;
        else if (src >= lanes) undefined = true;  // a lane the block does not have
        break;
      case WarpOp::ShflIdx:
        src = arg & (kWarpSize - 1);
        undefined = src >= lanes;
        break;
      case WarpOp::ShflXor:
        src = lane ^ (arg & (kWarpSize - 1));
        undefined = src >= lanes;
        break;
      case WarpOp::SyncWarp:
      case WarpOp::None:
        break;
    }
    th.warp_source = src;
    th.warp_own = own;
    th.warp_bits = undefined ? 0 : r.bits[src];
    th.warp_poison = undefined || r.poison[src];
    if (th.state == ThreadState::AtWarpOp) make_runnable(first + lane);
  }
  if (r.op == WarpOp::SyncWarp) ++warp_epoch_[w];
  r.arrived = 0;
  r.op = WarpOp::None;
}

ArrayStore& BlockRunner::shared_array(DType dtype, int count, const char* name) {
  SimThread& th = *cur_;
  const int slot = th.shared_allocs++;
  if (slot < shared_count_) {
    ArrayStore& a = shared_[slot];
    if (a.size() != count || a.dtype != dtype)
      fail_in_thread(SimErrorKind::SharedMemory,
                     "thread T" + std::to_string(current_) + " asks for shared array #" + std::to_string(slot) + " with " +
                         std::to_string(count) + " " + std::string(to_string(dtype)) + " elements, but an earlier thread made it " +
                         std::to_string(a.size()) + " " + std::string(to_string(a.dtype)) +
                         " elements; every thread must declare the same shared arrays in the same order",
                     {});
    return a;
  }
  const int bytes = shared_bytes_for(std::max(count, 0));
  if (count < 0 || shared_bytes_used_ + bytes > launch_->shared_bytes)
    fail_in_thread(SimErrorKind::SharedMemory,
                   "shared array #" + std::to_string(slot) + " (" + (name ? name : "unnamed") + ") needs " +
                       std::to_string(bytes) + " bytes, but the launch provides " +
                       std::to_string(launch_->shared_bytes) + " bytes of shared memory of which " +
                       std::to_string(shared_bytes_used_) + " are taken; pass a larger shared size to the launch",
                   {});
  shared_bytes_used_ += bytes;
  if (slot >= static_cast<int>(shared_.size())) shared_.emplace_back();
  ArrayStore& a = shared_[slot];
  a.space = MemSpace::Shared;
  a.dtype = dtype;
  a.name = name ? name : "shared" + std::to_string(slot);
  // A new block's shared memory is uninitialized. Its shadow needs no clearing: stamps name the
  // barrier interval they were made in, and interval ids are never reused (ArrayPool).
  // Values are zeroed so that what a kernel computes from uninitialized cells (shown as ?) is the
  // same in every run.
  if (a.size() != count) {
    a.reset(count, /*poisoned=*/true);
  } else {
    std::fill(a.bits.begin(), a.bits.end(), 0u);
    std::fill(a.poison.begin(), a.poison.end(), kNeverWritten);
  }
  a.id = sim_->shared_array_id(*launch_, slot, a);
  shared_count_ = slot + 1;
  return a;
}

HazardEvent BlockRunner::hazard_here(HazardKind kind, Severity severity, const ArrayStore* a, int index,
                                     LineId line) const {
  HazardEvent e{kind, severity};
  e.array = a ? a->id : -1;
  e.index = index;
  e.launch = launch_->index;
  e.block = block_linear_;
  e.step = step_;
  e.thread_second = current_;
  e.line_second = line;
  return e;
}

void BlockRunner::race(HazardKind kind, const ArrayStore& a, int index, const AccessStamp& other, LineId line) {
  raced_ = true;
  const uint32_t who = other.who;
  const int other_thread =
      a.space == MemSpace::Shared ? static_cast<int>(who) : static_cast<int>(static_cast<int64_t>(who) - block_base_);
  const bool same_warp = other_thread / kWarpSize == current_ / kWarpSize;
  // Like compute-sanitizer: within one warp a warning (it often works, by SIMT luck), across warps an error.
  HazardEvent e = hazard_here(kind, same_warp ? Severity::Warning : Severity::Error, &a, index, line);
  e.same_warp = same_warp;
  e.thread_first = other_thread;
  e.line_first = other.line;
  hazards_.add(e);
}

void BlockRunner::cross_block_race(HazardKind kind, const ArrayStore& a, int index, const AccessStamp& other,
                                   LineId line) {
  const int64_t who = other.who;
  HazardEvent e = hazard_here(kind, Severity::Error, &a, index, line);
  e.cross_block = true;
  e.block_first = static_cast<int>(who / threads_per_block_);
  e.thread_first = static_cast<int>(who % threads_per_block_);
  e.line_first = other.line;
  hazards_.add(e);
}

void BlockRunner::out_of_bounds(const ArrayStore& a, int index, LineId line, bool write) {
  HazardEvent e = hazard_here(HazardKind::OutOfBounds, Severity::Error, &a, index, line);
  e.second_is_write = write;
  hazards_.add(e);
}

void BlockRunner::uninitialized_read(const ArrayStore& a, int index, LineId line) {
  hazards_.add(hazard_here(HazardKind::UninitializedRead, Severity::Warning, &a, index, line));
}

void BlockRunner::warp_hazard(HazardKind kind, int other_thread, LineId other_line, LineId line) {
  HazardEvent e = hazard_here(kind, Severity::Error, nullptr, 0, line);
  e.thread_first = other_thread;
  e.line_first = other_line;
  e.same_warp = true;
  hazards_.add(e);
}

void BlockRunner::access_budget_exceeded() {
  fail_in_thread(SimErrorKind::StepBudget,
                 "thread T" + std::to_string(current_) + " of block " + std::to_string(block_linear_) + " made more than " +
                     std::to_string(kMaxAccessesPerThread) +
                     " memory accesses in one launch (the step budget); is a loop endless?",
                 {});
}

void BlockRunner::fail(SimErrorKind kind, std::string message, std::vector<LineId> lines) {
  if (failed_) return;
  failed_ = true;
  SimError e;
  e.kind = kind;
  e.message = std::move(message);
  e.launch = launch_->index;
  e.block = block_linear_;
  e.step = step_;
  e.lines = std::move(lines);
  error_ = std::move(e);
}

void BlockRunner::fail_in_thread(SimErrorKind kind, std::string message, std::vector<LineId> lines) {
  fail(kind, std::move(message), std::move(lines));
  throw KernelAbort{};
}

}  // namespace syncscope::sim
