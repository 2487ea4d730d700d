#include "sim/block_runner.h"

#include <boost/context/protected_fixedsize_stack.hpp>

#include "sim/context_switch.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <map>
#include <mutex>
#include <sstream>
#include <type_traits>
#include <utility>

#include "sim/array_pool.h"
#include "sim/code_address.h"
#include "sim/describe.h"

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
  for (auto& th : threads_) {
    if (th.stack.sp) stacks.deallocate(th.stack);
    destroy_fiber(th.tsan_fiber);
  }
}

std::vector<ThreadCounters> BlockRunner::thread_counters() const {
  std::vector<ThreadCounters> out;
  out.reserve(threads_per_block_);
  for (int t = 0; t < threads_per_block_; ++t) out.push_back(threads_[t].counters);
  return out;
}

BlockRunner::Outcome BlockRunner::run(BlockHost& host, LaunchState& launch, int block_linear, Mode mode,
                                      const Schedule& schedule, std::vector<EventObserver*> observers) {
  host_ = &host;
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

  if (static_cast<int>(threads_.size()) < threads_per_block_) threads_.resize(threads_per_block_);
  for (int t = 0; t < threads_per_block_; ++t) {
    SimThread& th = threads_[t];
    th.state = ThreadState::Runnable;
    th.wait_line = kNoLine;
    th.return_line = kNoLine;
    th.shared_allocs = 0;
    th.counters = {};
    th.clock_reads = 0;
  }
  warps_.start_block(threads_per_block_);
  shared_.start_block(launch.shared_bytes);
  shared_sites_.clear();
  shadow_.start_block(launch.index, launch.first_interval, block_linear, threads_per_block_, &cross_block_order_);
  scheduler_.start_block(schedule, mode == Mode::Fast || schedule.kind == ScheduleKind::Forward,
                         schedule.seed ^ (static_cast<uint64_t>(launch.index) << 40) ^ static_cast<uint64_t>(block_linear),
                         threads_.data(), threads_per_block_);
  running_ = threads_per_block_;
  at_barrier_ = 0;
  returns_told_.clear();
  barrier_lines_differ_ = false;
  barrier_votes_ = 0;
  printed_.clear();
  printed_dropped_ = 0;
  step_ = 0;
  failed_ = false;
  order_sensitive_ = false;
  cross_block_order_ = 0;
  error_.reset();
  memory_.start_block(block_linear, mode == Mode::Fast && schedule.kind != ScheduleKind::Forward);
  reset_simt_positions();
  new_interval();
  if (fault_guard_enabled()) {
    prepare_fault_stack();
    tls_running_fiber = &running_guard_;
  }
  scheduler_fiber_ = os_thread_fiber();
  struct RunningBlock {  // cleared however run() is left
    explicit RunningBlock(BlockRunner* r) { tls_running_block = r; }
    ~RunningBlock() { tls_running_block = nullptr; }
  } running_block(this);
  budget_ = &host.budget();
  ops_ = 0;
  ops_skipped_ = 0;
  late_basic_blocks_ = 0;
  max_ops_ = budget_->max_operations_per_block();
  max_steps_ = budget_->max_steps();
  started_ns_ = now_ns();
  deadline_ns_ = started_ns_ + static_cast<int64_t>(budget_->seconds * 1e9);
  watched_.arm(deadline_ns_, budget_->cancel.get());

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
  watched_.disarm();
  if (tls_running_fiber == &running_guard_) tls_running_fiber = nullptr;
  observers_.clear();
  recording_ = false;
  shadow_.finish_block();
  return {shadow_.raced(), failed_, order_sensitive_};
}

void BlockRunner::start_thread(int t) {
  SimThread& th = threads_[t];
  if (!th.stack.sp) th.stack = boost::context::protected_fixedsize_stack(kFiberStackBytes).allocate();
  th.runner = this;
  th.index = t;
  th.guard.fault_landing = nullptr;
  th.guard.stack_top = reinterpret_cast<uintptr_t>(th.stack.sp);
  th.guard.stack_size = th.stack.size;
  if (!th.tsan_fiber) th.tsan_fiber = create_fiber();
  stack_reused(th.stack);
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
  fiber_started();
  auto* th = static_cast<SimThread*>(simthread);
  th->runner->thread_loop(th->index);
}

void BlockRunner::thread_loop(int t) {
  // Kernel files: a fault in the kernel comes back to the landing below (sim/fault_guard.h) and
  // fails the block. This frame outlives blocks, so one landing serves them all: a sigsetjmp per
  // thread and block was 1 % of a run. (Volatile: set after the sigsetjmp, read after a jump.)
  FaultLanding landing;
  volatile bool landing_set = false;
  for (;;) {  // the fiber outlives blocks: after the kernel returns it waits here for the next one
    threads_[t].guard.runtime_depth = 1;  // the runtime's, but for the kernel call below (and after a landing)
    // No context switch may happen inside a catch handler: the C++ runtime keeps the exceptions
    // being handled per OS thread, not per fiber.
    bool finished = false;
    if (fault_guard_enabled()) {
      if (!landing_set && sigsetjmp(landing.where, 0) != 0) {  // the handler cleared the landing
        threads_[t].guard.runtime_depth = 1;
        frames_below_abandoned(threads_[t].stack);
        tls_simt_kernel = nullptr;
        watched_.disarm();
        if (!preempted(landing)) {
          const uintptr_t stack_bottom = threads_[t].guard.stack_top - threads_[t].guard.stack_size;
          std::vector<LineId> lines;
          if (const std::optional<CodeLine> where = line_of_fault(landing, stack_bottom))
            lines.push_back(LineTable::intern(where->file, where->line, ""));
          fail(SimErrorKind::Kernel,
               "thread " + std::to_string(t) + " of block " + std::to_string(block_linear_) + " crashed: " +
                   describe_fault(landing, t, stack_bottom),
               std::move(lines));
        } else {
          BudgetStop stop = budget_stop(t, kNoLine, landing.code);
          fail(stop.kind, std::move(stop.message), {});
        }
        threads_[t].state = ThreadState::Failed;
        transfer(kScheduler);
        continue;
      }
      landing_set = true;
      threads_[t].guard.fault_landing = &landing;
    }
    try {
      if (simt_ && launch_->simt_kernel) {
        tls_simt_kernel = this;
        threads_[t].guard.runtime_depth = 0;
        launch_->simt_kernel(launch_->closure, *this, t);
        threads_[t].guard.runtime_depth = 1;
        tls_simt_kernel = nullptr;
      } else {
        threads_[t].guard.runtime_depth = 0;
        launch_->kernel(launch_->closure, *this, t);
        threads_[t].guard.runtime_depth = 1;
      }
      finished = true;
    } catch (const KernelAbort&) {
      threads_[t].guard.runtime_depth = 1;
      tls_simt_kernel = nullptr;
    } catch (const std::exception& e) {
      threads_[t].guard.runtime_depth = 1;
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
  outside_kernel([&] {
    cur_->simt_pc = pc;
    cur_->simt_op = 0;
    count_operation(kNoLine);  // a loop without API calls still enters basic blocks
    yield();
  });
}

void BlockRunner::simt_position(uint64_t path, const SourceLocation& site) {
  outside_kernel([&] {
    cur_->simt_pc = path;
    cur_->simt_op = 0;
    count_operation(LineTable::intern(site));  // a runaway loop is named by its line, as at any operation
    yield();
  });
}

CellValue BlockRunner::simt_load(ArrayStore& a, int index, const SourceLocation& site) {
  return outside_kernel([&] { return load_bits(a, index, LineTable::intern(site)); });
}

void BlockRunner::simt_store(ArrayStore& a, int index, CellValue v, const SourceLocation& site) {
  outside_kernel([&] { store_bits(a, index, v, LineTable::intern(site)); });
}

void BlockRunner::simt_barrier(const SourceLocation& site) {
  outside_kernel([&] { barrier(LineTable::intern(site)); });
}

CellValue BlockRunner::simt_warp_call(const WarpCall& call, const SourceLocation& site) {
  return outside_kernel([&] { return warp_call(call, LineTable::intern(site)); });
}

CellValue BlockRunner::simt_atomic(ArrayStore& a, int index, AtomicOp op, CellValue operand, CellValue compare,
                                   const SourceLocation& site) {
  return outside_kernel([&] { return atomic(a, index, op, operand, compare, LineTable::intern(site)); });
}

std::array<CellValue, 2> BlockRunner::simt_atomic_pair(ArrayStore& a, int index, AtomicOp op, CellValue first,
                                                       CellValue second, const SourceLocation& site) {
  return outside_kernel([&] { return atomic_pair(a, index, op, first, second, LineTable::intern(site)); });
}

void BlockRunner::simt_fence(const SourceLocation& site, bool device_scope) {
  outside_kernel([&] { fence(LineTable::intern(site), device_scope); });
}

uint32_t BlockRunner::simt_active_mask(const SourceLocation& site) {
  return outside_kernel([&] { return active_mask(LineTable::intern(site)); });
}

CellValue BlockRunner::load_bits(ArrayStore& a, int index, LineId line) {
  const RuntimeSection runtime = in_runtime();
  if (simt_) simt_park_before_operation();
  const bool shared = a.space == MemSpace::Shared;
  count_operation(line);
  if (shared) ++cur_->counters.shared_reads; else ++cur_->counters.global_reads;
  const CellAccess r = memory_.read(a, index, current_, line);
  if (recording_)
    emit({shared ? EventKind::SharedRead : EventKind::GlobalRead, r.flags, static_cast<uint16_t>(current_), line,
          static_cast<uint16_t>(a.id), index, 0, r.bits});
  if (switch_each_access_) yield();
  return {r.bits, (r.flags & kValuePoison) != 0};
}

void BlockRunner::store_bits(ArrayStore& a, int index, CellValue v, LineId line) {
  const RuntimeSection runtime = in_runtime();
  if (simt_) simt_park_before_operation();
  const bool shared = a.space == MemSpace::Shared;
  count_operation(line);
  if (shared) ++cur_->counters.shared_writes; else ++cur_->counters.global_writes;
  const CellAccess r = memory_.write(a, index, v, current_, line);
  if (recording_)
    emit({shared ? EventKind::SharedWrite : EventKind::GlobalWrite, r.flags, static_cast<uint16_t>(current_), line,
          static_cast<uint16_t>(a.id), index, r.old, r.bits});
  if (switch_each_access_) yield();
}

CellValue BlockRunner::atomic(ArrayStore& a, int index, AtomicOp op, CellValue operand, CellValue compare,
                              LineId line) {
  const RuntimeSection runtime = in_runtime();
  if (simt_) simt_park_before_operation();
  const CellValue old = atomic_in_place(a, index, op, operand, compare, line);
  if (switch_each_access_) yield();
  return old;
}

std::array<CellValue, 2> BlockRunner::atomic_pair(ArrayStore& a, int index, AtomicOp op, CellValue first,
                                                  CellValue second, LineId line) {
  const RuntimeSection runtime = in_runtime();
  if (simt_) simt_park_before_operation();
  // One instruction on the GPU: no other thread's access may come between the two halves.
  const std::array<CellValue, 2> old{atomic_in_place(a, index, op, first, first, line),
                                     atomic_in_place(a, index + 1, op, second, second, line)};
  if (switch_each_access_) yield();
  return old;
}

CellValue BlockRunner::atomic_in_place(ArrayStore& a, int index, AtomicOp op, CellValue operand, CellValue compare,
                                       LineId line, AtomicOp shown) {
  SimThread& th = *cur_;
  const bool shared = a.space == MemSpace::Shared;
  count_operation(line);
  // An atomic reads and writes its cell.
  if (shared) ++th.counters.shared_reads, ++th.counters.shared_writes;
  else ++th.counters.global_reads, ++th.counters.global_writes;
  order_sensitive_ = true;
  if (!shared) cross_block_order_ |= global_atomic_order(cross_block_order_);
  const CellAccess r = memory_.atomic(a, index, op, operand, compare, current_, line);
  if (recording_) {
    Event e{shared ? EventKind::SharedWrite : EventKind::GlobalWrite, r.flags, static_cast<uint16_t>(current_), line,
            static_cast<uint16_t>(a.id), index, r.old, r.bits};
    e.atomic = shown == AtomicOp::None ? op : shown;
    emit(e);
  }
  return {r.old, r.old_poison};
}

void BlockRunner::record_barrier(LineId line) {
  const RuntimeSection runtime = in_runtime();
  emit({EventKind::Barrier, 0, static_cast<uint16_t>(current_), line, 0, 0, 0, 0});
}

void BlockRunner::fence(LineId line, bool device_scope) {
  const RuntimeSection runtime = in_runtime();
  if (simt_) simt_park_before_operation();
  count_operation(line);
  if (recording_) emit({EventKind::Fence, 0, static_cast<uint16_t>(current_), line, 0, 0, 0, 0});
  if (device_scope) cross_block_order_ |= kFenced;  // __threadfence_block() orders nothing between blocks
  if (switch_each_access_) yield();
}

uint32_t BlockRunner::active_mask(LineId line) {
  const RuntimeSection runtime = in_runtime();
  if (simt_) simt_park_before_operation();
  count_operation(line);
  order_sensitive_ = true;
  // Other schedules run a warp's lanes one at a time, as independent thread scheduling may: the caller
  // alone (every lane not exited would name lanes outside the caller's branch, which no GPU does).
  const uint32_t mask = simt_ ? scheduler_.simt_group_lanes() : 1u << (current_ % kWarpSize);
  if (recording_)
    emit({EventKind::WarpVote, 0, static_cast<uint16_t>(current_), line, static_cast<uint16_t>(WarpOp::ActiveMask), 0,
          0, mask});
  if (switch_each_access_) yield();
  return mask;
}

void BlockRunner::new_interval() {
  shadow_.start_interval(ArrayPool::next_interval(), step_);
  captioned_this_step_ = false;
}

void BlockRunner::record_caption(const char* format, const long long* numbers, int count) {
  const RuntimeSection runtime = in_runtime();
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
  outside_kernel([&] { caption(format, numbers, count); });
}

void BlockRunner::end_step(LineId barrier) {
  for (EventObserver* o : observers_) o->on_step_end(barrier, shared_.arrays(), shared_.count());
}

void BlockRunner::check_warp_mask(const WarpCall& call, LineId line) {
  const int t = current_;
  const std::optional<WarpUnit::MaskViolation> bad = warps_.check_mask(t, call.mask);
  if (!bad) return;
  const bool exited = bad->problem == MaskProblem::LaneExited || bad->problem == MaskProblem::LaneElsewhere;
  const LineId returned_at = exited ? threads_[bad->thread].return_line : kNoLine;
  shadow_.mask_hazard(bad->problem, call.mask, t, bad->thread, returned_at, line);
  fail_in_thread(SimErrorKind::WarpDivergence,
                 describe_mask_violation(call.op, LineTable::describe(line), t, call.mask, bad->problem, bad->thread,
                                         warps_.lanes(t / kWarpSize), returned_text(returned_at)),
                 {line});
}

CellValue BlockRunner::warp_call(const WarpCall& call, LineId line) {
  const RuntimeSection runtime = in_runtime();
  if (simt_) simt_park_before_operation();
  const int t = current_;
  const int w = t / kWarpSize;
  SimThread& th = threads_[t];
  count_operation(line);
  if (call.width < 1 || call.width > kWarpSize || (call.width & (call.width - 1)))
    fail_in_thread(SimErrorKind::Kernel, describe_bad_width(call.op, LineTable::describe(line), call.width), {line});
  if (call.masked) {
    check_warp_mask(call, line);
  } else if (warps_.exited_mask(w)) [[unlikely]] {
    std::vector<int> gone;
    for (uint32_t m = warps_.exited_mask(w); m; m &= m - 1) gone.push_back(w * kWarpSize + std::countr_zero(m));
    const LineId returned_at = threads_[gone.front()].return_line;
    shadow_.warp_hazard(HazardKind::ExitedLane, t, gone.front(), returned_at, line);
    fail_in_thread(SimErrorKind::WarpDivergence,
                   warp_op_name(call.op) + " at " + LineTable::describe(line) + ": " + describe_threads(gone) + " of warp " +
                       std::to_string(w) + " already exited" + returned_text(returned_at) +
                       "; every lane of the warp must take part",
                   {line});
  }
  const WarpUnit::Arrival arrival = warps_.arrive(t, call, line);
  if (arrival.other_thread >= 0) {
    shadow_.warp_hazard(HazardKind::WarpDivergence, t, arrival.other_thread, arrival.other_line, line);
    fail_in_thread(SimErrorKind::WarpDivergence,
                   "lanes of warp " + std::to_string(w) + " reached different warp operations: " +
                       warp_op_name(arrival.other_op) + " at " + LineTable::describe(arrival.other_line) + " and " +
                       warp_op_name(call.op) + " at " + LineTable::describe(line),
                   {arrival.other_line, line});
  }
  if (arrival.completed) {
    const int first = warps_.first_lane(w);
    for (uint32_t m = arrival.lanes; m; m &= m - 1) {
      const int lane = first + std::countr_zero(m);
      if (threads_[lane].state == ThreadState::AtWarpOp) make_runnable(lane);
    }
    if (call.op == WarpOp::SyncWarp) shadow_.warp_synced(w, arrival.lanes);
  } else {
    th.state = ThreadState::AtWarpOp;
    th.wait_line = line;
    block_current();
  }
  const WarpUnit::LaneResult& r = warps_.result(t);
  if (recording_) {
    const uint8_t flags = static_cast<uint8_t>((r.poison ? kValuePoison : 0) | (r.own ? kOwnValue : 0));
    const EventKind kind = event_kind_of(call.op);
    emit({kind, flags, static_cast<uint16_t>(t), line, static_cast<uint16_t>(call.op),
          kind == EventKind::Shuffle ? r.source : 0, 0, r.bits});
  }
  const CellValue out{r.bits, r.poison};
  if (switch_each_access_) yield();
  return out;
}

std::string BlockRunner::last_line_of(int t, LineId line, const InterruptedCode& code) const {
  if (line != kNoLine) return LineTable::describe(line);
  std::string where = describe_interrupted_code(code);
  if (where.empty() && simt_) where = describe_code_address(threads_[t].simt_pc);
  if (!where.empty()) return where;
  if (step_ > 0 && barrier_line_ != kNoLine) return "unknown (its last barrier: " + LineTable::describe(barrier_line_) + ")";
  return "unknown";
}

void BlockRunner::check_budget(LineId line) {
  const RuntimeSection runtime = in_runtime();
  const int64_t now = now_ns();
  if (!budget_->cancelled() && operations() <= max_ops_ && now <= deadline_ns_) return;
  if (line == kNoLine) {
    // At a basic block of a SIMT twin: the coverage hook calling here may not throw (the compiler
    // gives its call sites no unwind entries). Out of time, its address names the line only
    // roughly: first check at every operation, so the thread's next API call names its line (and
    // throws from there); a loop without any leaves through the fault guard's landing, as a
    // preempted one does (thread_loop says why).
    check_at_next_operation();
    // A loop around a barrier passes one soon (release_barrier names that loop): basic blocks
    // count from the last barrier.
    if (++late_basic_blocks_ < 64 * threads_per_block_ && !budget_->cancelled()) return;
    if (FaultLanding* landing = cur_->guard.fault_landing) {
      cur_->guard.fault_landing = nullptr;
      set_preempted(*landing, cur_->simt_pc);
      siglongjmp(landing->where, 1);
    }
    return;  // no landing (a built-in kernel): its next API call stops it
  }
  watched_.disarm();  // the message takes a while (addr2line): no preemption halfway through it
  BudgetStop stop = budget_stop(current_, line, InterruptedCode{});
  std::vector<LineId> lines;
  if (stop.kind != SimErrorKind::Cancelled) lines.push_back(line);
  fail_in_thread(stop.kind, std::move(stop.message), std::move(lines));
}

BudgetFacts BlockRunner::budget_facts(int barriers_passed) const {
  return {block_linear_, barriers_passed, static_cast<double>(now_ns() - started_ns_) / 1e9, budget_->seconds, max_ops_, launch_->grid.count()};
}

BlockRunner::BudgetStop BlockRunner::budget_stop(int thread, LineId line, const InterruptedCode& code) const {
  if (budget_->cancelled()) return {SimErrorKind::Cancelled, describe_cancelled(block_linear_, step_)};
  const BudgetFacts facts = budget_facts(step_);
  const std::string where = last_line_of(thread, line, code);
  if (operations() > max_ops_) return {SimErrorKind::StepBudget, describe_too_many_operations(facts, thread, where)};
  return {SimErrorKind::TimeBudget, describe_runaway(facts, thread, where)};
}

bool BlockRunner::over_budget_at_barrier(LineId line) {
  if (budget_->cancelled()) {
    fail(SimErrorKind::Cancelled, describe_cancelled(block_linear_, step_), {});
    return true;
  }
  const bool out_of_steps = step_ + 1 >= max_steps_;
  if (!out_of_steps && now_ns() <= deadline_ns_) return false;
  fail(out_of_steps ? SimErrorKind::StepBudget : SimErrorKind::TimeBudget,
       describe_endless_barrier_loop(budget_facts(step_ + 1), out_of_steps, LineTable::describe(line)), {line});
  return true;
}

void BlockRunner::fail(SimErrorKind kind, std::string message, std::vector<LineId> lines) {
  if (failed_) return;
  failed_ = true;
  watched_.disarm();  // the block is over: nothing left to preempt
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
  cur_->guard.fault_landing = nullptr;  // the unwinding below is the runtime's, not the kernel's: no preemption
  throw KernelAbort{};
}

}  // namespace syncscope::sim
