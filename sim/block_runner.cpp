#include "sim/block_runner.h"

#include <boost/context/protected_fixedsize_stack.hpp>

#include "sim/context_switch.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <sstream>

#include "sim/describe.h"
#include "sim/sim_ctx.h"
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
  mode_ = mode;
  observers_ = std::move(observers);
  switch_each_access_ = mode == Mode::Scheduled && schedule.kind == ScheduleKind::Random;
  simt_ = mode == Mode::Scheduled && schedule.kind == ScheduleKind::Lockstep;
  recording_ = !observers_.empty();
  fast_accesses_ = !recording_ && !switch_each_access_ && !simt_;
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
  warps_.start_block(threads_per_block_);
  shared_.start_block(launch.shared_bytes);
  shadow_.start_block(launch.index, launch.first_interval, block_linear, threads_per_block_);
  scheduler_.start_block(schedule, mode == Mode::Fast || schedule.kind == ScheduleKind::Forward,
                         schedule.seed ^ (static_cast<uint64_t>(launch.index) << 40) ^ static_cast<uint64_t>(block_linear),
                         threads_.data(), threads_per_block_);
  running_ = threads_per_block_;
  at_barrier_ = 0;
  barrier_lines_differ_ = false;
  step_ = 0;
  failed_ = false;
  error_.reset();
  undo_.clear();
  reset_simt_positions();
  new_interval();
  if (fault_guard_enabled()) {
    prepare_fault_stack();
    tls_running_fiber = &cur_;
  }

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
  if (tls_running_fiber == &cur_) tls_running_fiber = nullptr;
  observers_.clear();
  recording_ = false;
  return {shadow_.raced(), failed_};
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
  th.fault_landing = nullptr;
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
    // Kernel files: a fault in the kernel comes back here (sim/fault_guard.h) and fails the block.
    FaultLanding landing;
    if (fault_guard_enabled()) {
      if (sigsetjmp(landing.where, 0) != 0) {  // the handler cleared the landing
        tls_simt_kernel = nullptr;
        fail(SimErrorKind::Kernel,
             "thread " + std::to_string(t) + " of block " + std::to_string(block_linear_) + " crashed: " +
                 describe_fault(landing) + " - a pointer or index outside the kernel API?",
             {});
        threads_[t].state = ThreadState::Failed;
        transfer(kScheduler);
        continue;
      }
      threads_[t].fault_landing = &landing;
    }
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
  warps_.lane_exited(t);
  if (recording_)
    emit({EventKind::Exit, 0, static_cast<uint16_t>(t), kNoLine, 0, 0, 0, 0});
}

void BlockRunner::make_runnable(int t) {
  threads_[t].state = ThreadState::Runnable;
  scheduler_.made_runnable(t);
}

void BlockRunner::reset_simt_positions() {
  for (int t = 0; t < threads_per_block_; ++t) {
    threads_[t].simt_pc = 0;
    threads_[t].simt_op = 0;
  }
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
    shadow_.out_of_bounds(a, index, current_, line, false);
  } else {
    const bool parallel = claims_.active();
    if (!shared && parallel) claims_.claim(a, index, block_linear_, false);
    bits = parallel ? std::atomic_ref<uint32_t>(a.bits[index]).load(std::memory_order_relaxed) : a.bits[index];
    if (a.poison[index]) [[unlikely]] {
      flags |= kValuePoison;
      if (a.poison[index] == kNeverWritten) shadow_.uninitialized_read(a, index, current_, line);
    }
    shadow_.check_read(a, index, current_, line, flags);
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
    shadow_.out_of_bounds(a, index, current_, line, true);
  } else {
    const bool parallel = claims_.active();
    if (!shared && parallel) {
      claims_.back_up_chunk(a, index);
      claims_.claim(a, index, block_linear_, true);
    }
    old = a.bits[index];
    if (a.poison[index]) flags |= kOldPoison;
    shadow_.check_write(a, index, current_, line, flags);
    if (keep_undo_log_ && !shared) undo_.push_back({&a, index, old, a.poison[index]});
    if (parallel) {
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
        if (st == ThreadState::Exited) shadow_.warp_hazard(HazardKind::ExitedLane, ts.front(), lane, kNoLine, line);
        else shadow_.warp_hazard(HazardKind::WarpDivergence, ts.front(), lane, threads_[lane].wait_line, line);
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
    for (LineId l : lines) shadow_.barrier_divergence(l);
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
  scheduler_.restart();
  reset_simt_positions();
}

void BlockRunner::new_interval() {
  shadow_.start_interval(sim_->next_interval(), step_);
  captioned_this_step_ = false;
}

void BlockRunner::record_caption(const char* format, const long long* numbers, int count) {
  captioned_this_step_ = true;
  std::string text;
  int next = 0;
  for (const char* p = format; *p; ++p) {
    if (p[0] == '%' && p[1] == '%') {
      text += '%';
      ++p;
    } else if (p[0] == '%' && p[1] == 'd' && next < count) {
      text += std::to_string(numbers[next++]);
      ++p;
    } else {
      text += *p;
    }
  }
  for (EventObserver* o : observers_) o->on_caption(text);
}

void BlockRunner::simt_caption(const char* format, const long long* numbers, int count) {
  tls_simt_kernel = nullptr;
  caption(format, numbers, count);
  tls_simt_kernel = this;
}

void BlockRunner::end_step(LineId barrier) {
  for (EventObserver* o : observers_) o->on_step_end(barrier, shared_.arrays(), shared_.count());
}


void BlockRunner::sync_warp(LineId line) { warp_rendezvous(WarpOp::SyncWarp, 0, false, 0, line); }

CellValue BlockRunner::warp_rendezvous(WarpOp op, uint32_t bits, bool poison, int arg, LineId line) {
  if (simt_) simt_park_before_operation();
  const int t = current_;
  const int w = t / kWarpSize;
  SimThread& th = threads_[t];
  count_access(th);
  if (warps_.any_exited(w)) [[unlikely]] {
    const std::vector<int> gone = warps_.exited_lanes(w);
    shadow_.warp_hazard(HazardKind::ExitedLane, t, gone.front(), kNoLine, line);
    fail_in_thread(SimErrorKind::WarpDivergence,
                   warp_op_name(op) + " at " + LineTable::describe(line) + ": " + describe_threads(gone) + " of warp " +
                       std::to_string(w) + " already exited; every lane of the warp must take part",
                   {line});
  }
  if (const WarpUnit::Mismatch m = warps_.check(t, op, line); m.other_thread >= 0) {
    shadow_.warp_hazard(HazardKind::WarpDivergence, t, m.other_thread, m.other_line, line);
    fail_in_thread(SimErrorKind::WarpDivergence,
                   "lanes of warp " + std::to_string(w) + " reached different warp operations: " +
                       warp_op_name(m.other_op) + " at " + LineTable::describe(m.other_line) + " and " +
                       warp_op_name(op) + " at " + LineTable::describe(line),
                   {m.other_line, line});
  }
  if (warps_.arrive(t, op, bits, poison, arg, line)) {
    for (int lane = warps_.first_lane(w), end = lane + warps_.lanes(w); lane < end; ++lane)
      if (threads_[lane].state == ThreadState::AtWarpOp) make_runnable(lane);
    if (warps_.last_was_sync(w)) shadow_.warp_synced(w);
  } else {
    th.state = ThreadState::AtWarpOp;
    th.wait_line = line;
    block_current();
  }
  const WarpUnit::LaneResult& r = warps_.result(t);
  if (recording_) {
    const uint8_t flags = static_cast<uint8_t>((r.poison ? kValuePoison : 0) | (r.own ? kOwnValue : 0));
    emit({op == WarpOp::SyncWarp ? EventKind::WarpSync : EventKind::Shuffle, flags, static_cast<uint16_t>(t), line,
          static_cast<uint16_t>(op), r.source, 0, r.bits});
  }
  const CellValue out{r.bits, r.poison};
  if (switch_each_access_) yield();
  return out;
}

ArrayStore& BlockRunner::shared_array(DType dtype, int count, const char* name) {
  const int slot = cur_->shared_allocs++;
  SharedCarving::Declared d = shared_.declare(current_, slot, dtype, count, name);
  if (!d.array) fail_in_thread(SimErrorKind::SharedMemory, std::move(d.error), {});
  if (d.fresh) d.array->id = sim_->shared_array_id(*launch_, slot, *d.array);
  return *d.array;
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
