// Runs one thread block of a launch: every simulated thread is a fiber (its own stack, see
// context_switch.h), a barrier parks the fiber until the whole block arrives, and the schedule
// decides who runs next.
//
// Two modes:
//   Scheduled  the schedule's exact interleaving; events go to the observers (trace recorder) when
//              the block is being looked at.
//   Fast       each thread runs until it blocks (the `forward` order) with no per-access switching.
//              If the shadow memory sees no race inside the block, every schedule gives this very
//              result (a race-free barrier interval is order-independent), so it stands; otherwise
//              the block's global writes are undone and it runs again Scheduled.
//
// The runner owns the fibers and hands the CPU between them; the units it drives each own one
// concern: Scheduler (who runs next), MemoryAccess (an access's value path and its checks),
// ShadowChecker (the race detector and its reports), WarpUnit (shuffles, votes, __syncwarp),
// SharedCarving (the block's shared arrays), BlockClaims (parallel launches). The fast paths of
// load/store are inline: the always-on observers (per-thread counters and the shadow memory) are
// updated right here; everything else goes through MemoryAccess, and optional observers see every
// event.
#pragma once

#include <array>
#include <atomic>
#include <cstdarg>
#include <cstdint>
#include <algorithm>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include "sim/source_location.h"
#include <string>
#include <type_traits>
#include <vector>

#include "contract/kernel_api.h"
#include "sim/block_claims.h"
#include "sim/context_switch.h"
#include "sim/counters.h"
#include "sim/event_observer.h"
#include "sim/events.h"
#include "sim/hazards.h"
#include "sim/kernel_entry.h"
#include "sim/limits.h"
#include "sim/memory.h"
#include "sim/memory_access.h"
#include "sim/run_budget.h"
#include "sim/schedule.h"
#include "sim/scheduler.h"
#include "sim/shadow_checker.h"
#include "sim/shared_carving.h"
#include "sim/sim_thread.h"
#include "sim/trace.h"
#include "sim/value.h"
#include "sim/warp_unit.h"
#include "sim/watchdog.h"

namespace syncscope::sim {

class BlockRunner;
struct LaunchState;
struct BudgetFacts;  // sim/describe.h

// What a block run needs of the simulation it belongs to (sim/simulator.h is one).
class BlockHost {
 public:
  virtual const RunBudget& budget() const = 0;
  // The trace's id for shared array `slot` of a launch (the same for every block of the launch).
  virtual int shared_array_id(LaunchState& launch, int slot, const ArrayStore& a) = 0;

 protected:
  ~BlockHost() = default;
};

// The runner whose SIMT lane is executing kernel code on this OS thread right now, else nullptr.
// The basic-block hook (sim/simt.cpp) acts only while it is set; every runtime entry clears it
// first, so a hook firing in the runtime's own code never parks a lane halfway through it.
inline thread_local BlockRunner* tls_simt_kernel = nullptr;
// The runner whose block this OS thread is running, else nullptr: the way in for code that has no
// kernel context, such as an assert() in a __host__ __device__ function (core/cuda_in/cu_exit.h).
inline thread_local BlockRunner* tls_running_block = nullptr;

// Thrown inside a simulated thread to stop its block; the runner reports why.
struct KernelAbort {};

struct LaunchState {
  int index = 0;
  // A block of this launch used atomics or active_mask: the rest skip the fast forward-order run,
  // which another schedule would have to redo (and whose shadow stamps would hide other blocks').
  std::atomic<bool> order_sensitive{false};
  Dim3 grid, block;
  int shared_bytes = 0;
  uint32_t first_interval = 0;  // intervals at or after this belong to this launch
  KernelEntry kernel = nullptr;
  void* closure = nullptr;
  // The same kernel instantiated with SimtCtx in an instrumented translation unit (sim/simt.h), or
  // nullptr when none was built: lockstep then aligns lanes by their count of operations.
  KernelEntry simt_kernel = nullptr;
  std::vector<int> shared_array_ids;  // trace ids of this launch's shared arrays, by allocation order
  // Device printf bytes the launch's block runs hold for stdout (sim/limits.h caps them).
  std::atomic<uint64_t> printed_bytes{0};
};

class BlockRunner {
 public:
  enum class Mode : uint8_t { Fast, Scheduled };
  // What the block did in its last run that can order its global accesses with another block's: a
  // __threadfence(), an atomic on global memory, and such an atomic after a fence (a release: a
  // ticket's atomicInc or a lock's atomicExch after the fence). The simulator does not follow that
  // order; a race between two blocks that both did their part is reported as one they may order.
  static constexpr uint8_t kFenced = 1, kGlobalAtomic = kBlockTookGlobalAtomic, kReleased = 4;
  static uint8_t global_atomic_order(uint8_t so_far) { return kGlobalAtomic | (so_far & kFenced ? kReleased : 0); }
  uint8_t cross_block_order() const { return cross_block_order_; }
  struct Outcome {
    bool raced = false;   // a data race between threads of this block
    bool failed = false;  // the block stopped with an error (see error())
    // It did something whose result depends on the order threads run in (an atomic's old value,
    // active_mask), so the forward order's result does not stand for another schedule.
    bool order_sensitive = false;
  };

  BlockRunner();
  ~BlockRunner();
  BlockRunner(const BlockRunner&) = delete;
  BlockRunner& operator=(const BlockRunner&) = delete;

  Outcome run(BlockHost& host, LaunchState& launch, int block_linear, Mode mode, const Schedule& schedule,
              std::vector<EventObserver*> observers);

  // Runners (and their fibers' stacks) outlive simulations: the app re-simulates on every change.
  static std::unique_ptr<BlockRunner> take_cached();
  static void return_to_cache(std::unique_ptr<BlockRunner> runner);

  std::vector<ThreadCounters> thread_counters() const;
  void add_counters_to(CounterSummary& summary) const {
    for (int t = 0; t < threads_per_block_; ++t) summary.add_thread(threads_[t].counters);
  }
  int steps_taken() const { return step_ + 1; }
  // A __shared__ array by its number in this block (the order the kernel declares them), and back:
  // how a translated kernel's struct keeps one in a pointer field (core/cuda_in/cu_pointer_fields.h).
  ArrayStore* shared_in_slot(int slot) { return shared_.in_slot(slot); }
  int shared_slot_of(const ArrayStore* a) const { return shared_.slot_of(a); }
  // clock64() and clock() in a translated kernel: the thread's own clock, not the GPU's cycles. It
  // ticks once for each read of it and four times for each memory access the thread made, so a
  // loop that waits for it ends and two reads around some work differ; it starts at 0 each block.
  uint64_t clock_read() {
    SimThread& th = *cur_;
    const ThreadCounters& k = th.counters;
    return ++th.clock_reads +
           4 * (uint64_t{k.global_reads} + k.global_writes + k.shared_reads + k.shared_writes + k.barriers);
  }
  const HazardLog& hazards() const { return shadow_.hazards(); }
  const std::optional<SimError>& error() const { return error_; }
  void undo_global_writes() { memory_.undo_global_writes(); }

  // While set, every global access claims its cell for this block (sim/block_claims.h); a conflict
  // means the launch must roll back and run its blocks in order.
  void run_in_parallel_attempt(uint32_t attempt, std::atomic<bool>* conflict) { claims_.start(attempt, conflict); }
  void stop_parallel_attempt() { claims_.stop(); }

  // ---- the simulated thread's side (called from SimCtx and array references) ----
  // atomic_update's computation: the new bits of one or two cells (low word first) from the old.
  using AtomicUpdate = uint64_t (*)(uint64_t old, const void* state);
  Dim3 block_idx() const { return block_idx_; }
  const LaunchState& launch() const { return *launch_; }
  int current_thread() const { return current_; }

  // Fast path: a shared cell, in bounds, initialized, touched by no other thread in this interval,
  // while nothing records events and the schedule does not switch at every access. That is almost
  // every access of a correct kernel; everything else takes the general path.
  template <class T>
  [[gnu::always_inline]] Val<T> load(ArrayStore& a, int index, LineId line) {
    if (fast_accesses_ && a.space == MemSpace::Shared && static_cast<unsigned>(index) < static_cast<unsigned>(a.size())) {
      CellShadow& s = a.shadow[index];
      const uint32_t me = static_cast<uint32_t>(current_);
      if (!a.poison[index] && shadow_.quiet_read(s, me)) [[likely]] {
        SimThread& th = *cur_;
        if ((++ops_ & (RunBudget::kCheckEvery - 1)) == 0) [[unlikely]] check_budget(line);
        ++th.counters.shared_reads;
        shadow_.stamp_read(s, me, line);
        return Val<T>(from_bits<T>(a.bits[index]), false);
      }
    }
    return load_general<T>(a, index, line);
  }

  template <class T>
  [[gnu::always_inline]] void store(ArrayStore& a, int index, Val<T> v, LineId line) {
    if (fast_accesses_ && a.space == MemSpace::Shared && static_cast<unsigned>(index) < static_cast<unsigned>(a.size())) {
      CellShadow& s = a.shadow[index];
      const uint32_t me = static_cast<uint32_t>(current_);
      if (shadow_.quiet_write(s, me)) [[likely]] {
        SimThread& th = *cur_;
        if ((++ops_ & (RunBudget::kCheckEvery - 1)) == 0) [[unlikely]] check_budget(line);
        ++th.counters.shared_writes;
        shadow_.stamp_write(s, me, line);
        a.bits[index] = to_bits(v.v);
        a.poison[index] = v.poison ? kDerivedFromPoison : 0;
        return;
      }
    }
    store_general<T>(a, index, v, line);
  }

  template <class T>
  [[gnu::always_inline]] Val<T> load_general(ArrayStore& a, int index, LineId line) {
    const CellValue c = load_bits(a, index, line);
    return Val<T>(from_bits<T>(c.bits), c.poison);
  }
  template <class T>
  [[gnu::always_inline]] void store_general(ArrayStore& a, int index, Val<T> v, LineId line) {
    store_bits(a, index, {to_bits(v.v), v.poison}, line);
  }
  // Every access that is not the fast path: bounds, poison, the race detector, events, schedules.
  [[gnu::noinline]] CellValue load_bits(ArrayStore& a, int index, LineId line);
  [[gnu::noinline]] void store_bits(ArrayStore& a, int index, CellValue v, LineId line);

  // ---- SIMT lockstep (SimtCtx): out of line, and the lane parks before each operation ----
  CellValue simt_load(ArrayStore& a, int index, const SourceLocation& site);
  void simt_store(ArrayStore& a, int index, CellValue v, const SourceLocation& site);
  void simt_barrier(const SourceLocation& site);
  CellValue simt_warp_call(const WarpCall& call, const SourceLocation& site);
  CellValue simt_atomic(ArrayStore& a, int index, AtomicOp op, CellValue operand, CellValue compare,
                        const SourceLocation& site);
  std::array<CellValue, 2> simt_atomic_pair(ArrayStore& a, int index, AtomicOp op, CellValue first, CellValue second,
                                            const SourceLocation& site);
  std::array<CellValue, 2> simt_atomic_update(ArrayStore& a, int index, int cells, AtomicOp shown, AtomicUpdate update,
                                              const void* state, const SourceLocation& site);
  void simt_fence(const SourceLocation& site, bool device_scope = true);
  uint32_t simt_active_mask(const SourceLocation& site);
  ArrayStore& simt_shared_array(DType dtype, int count, const char* name, int columns = 0, uint64_t site = 0,
                                int plane_rows = 0, const char* layout = nullptr);
  // The kernel entered the basic block at `pc` (called by the coverage hook).
  void simt_basic_block(uintptr_t pc);
  // The kernel reached a position it numbers itself (a translated .cu: SimtCtx::position), at `site`.
  void simt_position(uint64_t path, const SourceLocation& site);

  [[gnu::always_inline]] void barrier(LineId line) {
    SimThread& th = *cur_;
    ++th.counters.barriers;
    th.state = ThreadState::AtBarrier;
    th.wait_line = line;
    if (at_barrier_++ == 0) barrier_line_ = line;
    else if (line != barrier_line_) barrier_lines_differ_ = true;
    if (recording_) record_barrier(line);
    if (const int d = scheduler_.direction()) prefetch_parked(current_ + 3 * d);  // to run after the next
    block_current();  // mid-switch, the fault guard's stack check keeps a preemption off
  }
  [[gnu::noinline]] void record_barrier(LineId line);
  // __syncthreads_count(p) (and _and, _or): one barrier, after which every thread gets how many
  // threads of the block arrived with a true predicate.
  [[gnu::always_inline]] int barrier_count(LineId line, bool predicate) {
    if (predicate) ++barrier_votes_;
    barrier(line);
    return barrier_votes_counted_;
  }
  int simt_barrier_count(const SourceLocation& site, bool predicate);
  // How many threads the last barrier released: __syncthreads_and's "every thread" (threads that
  // returned before it do not vote, as on a GPU).
  int barrier_arrivals() const { return barrier_arrivals_; }
  // Device printf (sim/device_calls.cpp): the C library formats it; the observers (the trace) get
  // the text, and so does stdout once the block's run stands (Simulator). Returns what printf does.
  int print(LineId line, const char* format, ...);
  int simt_print(const SourceLocation& site, const char* format, ...);
  // A device assert() whose test failed (core/cuda_in/cu_exit.h): the thread stops there and the
  // block fails with the test and its line, as a GPU stops the launch.
  // `what`: "assertion `t < N` failed".
  [[noreturn]] void assert_failed(const char* file, unsigned line, const std::string& what);
  // This block run's device printf output for stdout, and the printf calls the launch's cap left out.
  struct Printed {
    std::string text;
    uint64_t dropped_lines = 0;
  };
  Printed take_printed();
  // A run that does not stand (the fast run before a scheduled re-run): its output goes.
  void discard_printed();
  void sync_warp(LineId line) { warp_call({WarpOp::SyncWarp}, line); }
  // c.caption(...): formatted and passed on only while observers record this block, once a step.
  [[gnu::always_inline]] void caption(const char* format, const long long* numbers, int count) {
    if (recording_ && !captioned_this_step_) record_caption(format, numbers, count);
  }
  void simt_caption(const char* format, const long long* numbers, int count);

  // Shuffles, votes and __syncwarp(): the lane waits until every lane of the call's mask arrived.
  CellValue warp_call(const WarpCall& call, LineId line);
  // atomicAdd and friends: one read-modify-write of a cell; returns the old value.
  CellValue atomic(ArrayStore& a, int index, AtomicOp op, CellValue operand, CellValue compare, LineId line);
  // Cells index and index + 1 in one atomic access (c.atomic_load_pair / atomic_store_pair): `op`
  // is Exch (a store of first, second) or Cas comparing each cell with the value it would store
  // (a load: 0 for 0). No other thread's access comes between the halves.
  std::array<CellValue, 2> atomic_pair(ArrayStore& a, int index, AtomicOp op, CellValue first, CellValue second,
                                       LineId line);
  // Cells index .. index + cells - 1 (1 or 2, low word first) as one atomic read-modify-write whose
  // result the simulator has no AtomicOp for: an atomic on an 8-byte value (a double or a long long:
  // two cells) or on a value the array's cells do not hold natively (a float field of a struct array,
  // an unsigned atomicMin). `update` gives the new bits from the old; no other thread's access comes
  // between the cells. Each cell's event is an atomic labelled `shown`. An Exch stores `update`'s
  // value whatever the cells held; any other op reads them (never written: an uninitialized read).
  std::array<CellValue, 2> atomic_update(ArrayStore& a, int index, int cells, AtomicOp shown, AtomicUpdate update,
                                         const void* state, LineId line);
  // __threadfence(): recorded; the simulator's memory is sequentially consistent already.
  void fence(LineId line, bool device_scope = true);
  // __activemask(): in lockstep the lanes executing this instruction together; in the other
  // schedules every lane of the warp that has not exited.
  uint32_t active_mask(LineId line);
  // The kernel's `return` at `line` is about to end the running thread: a warp operation that
  // later misses its lane names that line (a translated .cu kernel says where it returns).
  void note_return(LineId line) { threads_[current_].return_line = line; }
  // A translated kernel's access of an element wider than a cell (a double, a float4), which a GPU
  // makes as one instruction: its cells' events say so while observers record (Event::access_cells).
  [[gnu::always_inline]] void begin_wide_access(int cells) {
    if (recording_) cur_->access_cells = static_cast<uint8_t>(cells), cur_->access_part = 0;
  }
  [[gnu::always_inline]] void end_wide_access() {
    if (recording_) cur_->access_cells = 0;
  }

  // The running thread used a pointer that holds nothing (a translated kernel's null pointer) at `line`:
  // the launch fails there, as a GPU's does with an illegal address.
  [[noreturn]] void null_pointer(LineId line);
  // The running thread did something with a pointer that fails the launch (a misaligned one) or
  // is not simulated, at `line`: "thread 3 of block 0 <what> at k.cu:5 (<why>)".
  [[noreturn]] void pointer_fault(LineId line, const std::string& what, const std::string& why);

  // columns: cells per row of a 2D array (the step view draws it as a tile), 0 for 1D; plane_rows:
  // rows per plane of a 3D one (drawn as its rows, plane after plane), 0 for 1D and 2D. site: where
  // the kernel declares it (0: nowhere in particular). A declaration with a site is one array however
  // often its threads run it, as a `__shared__` inside a loop has static storage on the GPU; without
  // one, each thread's k-th declaration is the block's k-th array.
  // kDynamicSharedSite: the launch's dynamic shared memory, one array whatever declares it.
  static constexpr uint64_t kDynamicSharedSite = ~uint64_t{0};
  ArrayStore& shared_array(DType dtype, int count, const char* name, int columns = 0, uint64_t site = 0,
                           int plane_rows = 0, const char* layout = nullptr);

 private:
  // An atomic's read-modify-write, without the lockstep park before it or the switch after it.
  CellValue atomic_in_place(ArrayStore& a, int index, AtomicOp op, CellValue operand, CellValue compare, LineId line,
                            AtomicOp shown = AtomicOp::None);

  // Every kernel operation counts towards the block's budget (sim/run_budget.h); every
  // kCheckEvery-th looks at the clock and the cancel flag.
  void count_operation(LineId line) {
    if ((++ops_ & (RunBudget::kCheckEvery - 1)) == 0) [[unlikely]] check_budget(line);
  }
  [[gnu::noinline]] void check_budget(LineId line);
  // The next operation checks the budget again: the counter jumps to just below the next multiple
  // of kCheckEvery, and the jump is kept aside so the operations cap counts real ones.
  void check_at_next_operation() {
    const uint64_t next = ops_ | (RunBudget::kCheckEvery - 1);
    ops_skipped_ += next - ops_;
    ops_ = next;
  }
  uint64_t operations() const { return ops_ - ops_skipped_; }
  // Cancelled, out of time or out of steps at a barrier release; true when the block failed.
  bool over_budget_at_barrier(LineId line);
  // The budget's facts for its messages (sim/describe.h), now.
  BudgetFacts budget_facts(int barriers_passed) const;
  // Why the budget stops the block, with `thread` at `line` (or, without one, at `pc`: an
  // interrupted instruction); the place is looked up only when the message names it.
  struct BudgetStop {
    SimErrorKind kind;
    std::string message;
  };
  BudgetStop budget_stop(int thread, LineId line, const InterruptedCode& code) const;
  // Where thread t is, as best known: `line` (its current operation's), else the SIMT twin's
  // basic block or `code` (an interrupted instruction and its callers) resolved through the debug information.
  std::string last_line_of(int t, LineId line, const InterruptedCode& code) const;
  // The runtime's own work, called from a SIMT lane's kernel code: the coverage hook is off while
  // it runs and back on for the kernel. A KernelAbort thrown inside leaves it off (thread_loop
  // catches it), so no hook parks a lane during unwinding.
  template <class F>
  decltype(auto) outside_kernel(F&& work) {
    const RuntimeSection runtime = in_runtime();
    tls_simt_kernel = nullptr;
    if constexpr (std::is_void_v<std::invoke_result_t<F>>) {
      work();
      tls_simt_kernel = this;
    } else {
      decltype(auto) result = work();
      tls_simt_kernel = this;
      return result;
    }
  }
  int vprint(LineId line, const char* format, va_list args);
  // The current simulated thread is in the simulator's own code until this goes out of scope.
  RuntimeSection in_runtime() { return RuntimeSection(cur_ ? &cur_->guard.runtime_depth : nullptr); }
  [[noreturn]] void fail_in_thread(SimErrorKind kind, std::string message, std::vector<LineId> lines);
  void fail(SimErrorKind kind, std::string message, std::vector<LineId> lines);

  void record_caption(const char* format, const long long* numbers, int count);
  void emit(Event e) {
    // Lockstep: mark the first event of each warp instruction, so that observers can tell which
    // accesses the lanes made together (bank conflicts, divergence: sim/warp_instructions.h).
    if (simt_ && scheduler_.simt_group_serial() != last_emitted_group_) {
      last_emitted_group_ = scheduler_.simt_group_serial();
      e.flags |= kWarpInstructionStart;
    }
    if (cur_ && cur_->access_cells && e.is_memory()) e.access_cells = cur_->access_cells, e.access_part = cur_->access_part++;
    for (EventObserver* o : observers_) o->on_event(e);
  }

  // The checks a masked call needs before it may wait: the mask names the lane itself and only
  // lanes that can still arrive.
  void check_warp_mask(const WarpCall& call, LineId line);
  // Lanes wait at a warp operation that lanes its mask names will never reach; reports it.
  void report_stuck_warp_operations(const std::map<LineId, std::vector<int>>& at_warp_op);

  // --- scheduling ---
  // Threads hand the CPU straight to the next runnable thread (one context switch per hand-over);
  // the scheduler context only runs when nobody is runnable (barrier release, block end) or a
  // thread failed.
  static constexpr int kScheduler = -1;
  [[gnu::always_inline]] void transfer(int target) {
    void** from = current_ == kScheduler ? &scheduler_context_ : &cur_->context;
    SimThread* to_thread = target == kScheduler ? nullptr : &threads_[target];
    if (to_thread && !to_thread->context) start_thread(target);
    void* to = to_thread ? to_thread->context : scheduler_context_;
    current_ = target;
    cur_ = to_thread;
    running_guard_ = to_thread ? &to_thread->guard : nullptr;
    tls_running_thread_counters = to_thread ? &to_thread->counters : nullptr;
#if defined(SYNCSCOPE_ASAN_FIBERS) || defined(SYNCSCOPE_TSAN_FIBERS)
    void* saved = nullptr;
    before_switch(&saved, to_thread ? fiber_of(*to_thread) : scheduler_fiber_);
    switch_context(from, to);
    after_switch(saved);
#else
    switch_context(from, to);
#endif
  }
  // A thread parked at a barrier waits while the block's other threads run, and by then its frames
  // (its saved registers, the runner's and the kernel's frames above them) have left the L1
  // cache: resuming it waits on each of their lines in turn (switch_context's first load, then
  // the kernel's spilled registers). Asking for them two hand-overs ahead, in the order the
  // schedule most likely picks, hides that wait: +12 % on bench/peer_oclgrind.sh's run (this
  // 2-core VM, 2026-11-29; 16 lines instead of 10 lost 17 %: they crowd out the running thread's).
  // Only at barriers: lanes handing over at a warp operation take turns among 32, whose frames
  // stay in L1, and there the prefetches cost 7 % (block-reduce).
  [[gnu::always_inline]] void prefetch_parked(int t) const {
    if (static_cast<unsigned>(t) >= static_cast<unsigned>(threads_per_block_)) return;
    const SimThread* th = threads_.data() + t;
    if (const auto* frames = static_cast<const char*>(th->context))
      for (int line = 0; line < 10; ++line) __builtin_prefetch(frames + 64 * line);
    const int later = t + 2 * scheduler_.direction();  // a thread record, for a later hand-over
    if (static_cast<unsigned>(later) < static_cast<unsigned>(threads_per_block_)) {
      __builtin_prefetch(threads_.data() + later);
      __builtin_prefetch(reinterpret_cast<const char*>(threads_.data() + later) + 64);
    }
  }
  static FiberIdentity fiber_of(const SimThread& th) {
    return {static_cast<const char*>(th.stack.sp) - th.stack.size, th.stack.size, th.tsan_fiber};
  }
  void yield() {  // after a memory access, in schedules that switch at every access
    const int next = pick();
    if (next != current_) transfer(next >= 0 ? next : kScheduler);
  }
  void block_current() { transfer(next_or_scheduler()); }  // the current thread just stopped being runnable
  int next_or_scheduler() {
    const int next = pick();
    return next >= 0 ? next : kScheduler;
  }
  void start_thread(int t);
  static void thread_main(void* simthread);
  [[noreturn]] void thread_loop(int t);
  void thread_exited(int t);
  [[gnu::always_inline]] int pick() { return scheduler_.pick(); }
  void simt_park_before_operation() {
    ++cur_->simt_op;
    yield();
  }
  void reset_simt_positions();
  bool all_blocked_resolve();  // false: the block is done (finished or failed)
  void release_barrier();
  void new_interval();
  void end_step(LineId barrier);
  void make_runnable(int t);
  void abandon_fibers();

  BlockHost* host_ = nullptr;
  LaunchState* launch_ = nullptr;
  int block_linear_ = 0;
  Dim3 block_idx_;
  int threads_per_block_ = 0;
  Mode mode_ = Mode::Scheduled;
  bool switch_each_access_ = false;  // random: any runnable thread after each access
  uint32_t last_emitted_group_ = ~0u;  // the scheduler's group serial of the last event emitted
  bool simt_ = false;                // lockstep: lanes park before each operation (pick_simt)
  bool recording_ = false;       // observers attached
  bool fast_accesses_ = false;   // neither recording nor switching at every access
  std::vector<EventObserver*> observers_;

  std::vector<SimThread> threads_;  // never reallocated: suspended fibers refer to their SimThread
  Scheduler scheduler_;
  ShadowChecker shadow_;
  WarpUnit warps_;
  SharedCarving shared_;
  std::vector<uint64_t> shared_sites_;  // this block's declaration sites, in the order of their arrays
  BlockClaims claims_;
  MemoryAccess memory_{shadow_, claims_};  // declared after the checkers it holds
  void* scheduler_context_ = nullptr;  // the scheduler's context while a simulated thread runs
  FiberIdentity scheduler_fiber_;      // its stack, for the sanitizers (sim/context_switch.h)
  int current_ = kScheduler;
  SimThread* cur_ = nullptr;  // threads_[current_]
  GuardedFiber* running_guard_ = nullptr;  // cur_'s, for the fault guard's handlers (tls_running_fiber)
  int running_ = 0;  // threads not yet exited
  int at_barrier_ = 0;  // threads waiting at a barrier in this step
  LineId barrier_line_ = kNoLine;  // where the first of them waits
  bool barrier_lines_differ_ = false;
  bool captioned_this_step_ = false;
  int barrier_votes_ = 0;          // true predicates at the counting barrier the block waits at
  int barrier_votes_counted_ = 0;  // the last released one's count, for its threads to take
  std::vector<LineId> returns_told_;  // early returns this block's barriers went on without (warned once)
  int barrier_arrivals_ = 0;       // the threads the last released barrier let go (threads that exited cast no vote)
  std::string printed_;            // device printf output of this block run, for stdout
  uint64_t printed_dropped_ = 0;   // printf calls past the launch's cap
  int step_ = 0;
  bool failed_ = false;
  uint8_t cross_block_order_ = 0;  // what this block did that may order it with others (cross_block_order())
  bool order_sensitive_ = false;
  std::optional<SimError> error_;
  // the budget (sim/run_budget.h)
  const RunBudget* budget_ = nullptr;
  uint64_t ops_ = 0;  // kernel operations of this block run, plus ops_skipped_
  uint64_t ops_skipped_ = 0;
  uint64_t max_ops_ = 0;
  int late_basic_blocks_ = 0;  // see check_budget
  int max_steps_ = 0;
  int64_t started_ns_ = 0, deadline_ns_ = 0;
  WatchedRunner watched_;
};

}  // namespace syncscope::sim
