#include "sim/simulator.h"

#include <algorithm>
#include <map>
#include <cstdio>
#include <mutex>
#include <thread>

#include "sim/block_claims.h"
#include "sim/trace_recorder.h"

namespace syncscope::sim {

namespace {
std::mutex live_mutex;
int live_simulators = 0;
}  // namespace

Simulator::Simulator(SimOptions options) : options_(std::move(options)) {
  {
    std::lock_guard lock(live_mutex);
    if (live_simulators++ == 0) ArrayPool::restart_ids_if_needed();
  }
  runners_.push_back(BlockRunner::take_cached());
}

Simulator::~Simulator() {
  pool_.reset();
  for (auto& r : runners_) BlockRunner::return_to_cache(std::move(r));
  for (auto& g : globals_) ArrayPool::give_back(std::move(g));
  std::lock_guard lock(live_mutex);
  --live_simulators;
}

int Simulator::worker_count() const {
  const int wanted = options_.threads > 0 ? options_.threads : static_cast<int>(std::thread::hardware_concurrency());
  return std::clamp(wanted, 1, 64);
}

int Simulator::alloc_global(std::string name, DType dtype, int count, bool poisoned, const char* layout) {
  auto a = ArrayPool::take(count, poisoned);  // poisoned cells hold kNeverWritten
  a->space = MemSpace::Global;
  a->dtype = dtype;
  a->layout = layout;
  a->name = name;
  a->id = static_cast<int>(trace_.arrays.size());
  trace_.arrays.push_back({std::move(name), MemSpace::Global, dtype, count, -1, 0, 0, layout ? layout : ""});
  globals_.push_back(std::move(a));
  return static_cast<int>(globals_.size()) - 1;
}

void Simulator::record_error(SimError e) {
  if (!trace_.error) trace_.error = std::move(e);
}

int Simulator::shared_array_id(LaunchState& launch, int slot, const ArrayStore& a) {
  std::lock_guard lock(arrays_mutex_);
  if (slot < static_cast<int>(launch.shared_array_ids.size())) {
    ArrayInfo& info = trace_.arrays[launch.shared_array_ids[slot]];
    info.size = std::max(info.size, a.size());
    return launch.shared_array_ids[slot];
  }
  const int id = static_cast<int>(trace_.arrays.size());
  trace_.arrays.push_back({a.name, MemSpace::Shared, a.dtype, a.size(), launch.index, a.columns, a.plane_rows, a.layout ? a.layout : ""});
  launch.shared_array_ids.push_back(id);
  return id;
}

bool Simulator::globals_small_enough() const {
  if (!options_.global_memory) return false;
  size_t total = 0;
  for (const auto& g : globals_) total += g->bits.size();
  return total <= options_.snapshot_limit_elements;
}

std::vector<ArraySnapshot> Simulator::snapshot_globals() const {
  std::vector<ArraySnapshot> out;
  for (const auto& g : globals_) out.push_back({g->id, g->bits, g->poison});
  return out;
}

std::vector<int> Simulator::detailed_blocks(int block_count) const {
  std::vector<int> out;
  for (int b : options_.detail_blocks)
    if (b >= 0 && b < block_count) out.push_back(b);
  if (out.empty()) {
    const int n = block_count <= SimOptions::kAutoDetailBlocks ? block_count : 1;
    for (int b = 0; b < n; ++b) out.push_back(b);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

bool Simulator::run_block(BlockRunner& runner, LaunchState& ls, int b, BlockTrace* detail, BlockTotals& totals) {
  BlockRunner::Outcome out;
  HazardLog fast_cross_block;  // a re-run block's first run's races with other blocks
  if (detail) {
    *detail = BlockTrace{};
    detail->block = b;
    TraceRecorder recorder(*detail);
    out = runner.run(*this, ls, b, BlockRunner::Mode::Scheduled, options_.schedule, {&recorder});
    detail->block_idx = runner.block_idx();
    detail->counters = runner.thread_counters();
  } else if (ls.order_sensitive.load(std::memory_order_relaxed) && options_.schedule.kind != ScheduleKind::Forward) {
    out = runner.run(*this, ls, b, BlockRunner::Mode::Scheduled, options_.schedule, {});
  } else {
    out = runner.run(*this, ls, b, BlockRunner::Mode::Fast, options_.schedule, {});
    if (out.order_sensitive) ls.order_sensitive.store(true, std::memory_order_relaxed);
    if ((out.raced || out.failed || out.order_sensitive) && options_.schedule.kind != ScheduleKind::Forward) {
      // The fast run is the forward order; this schedule may interleave differently, and so give
      // atomics other old values. Its races with other blocks stand: the re-run finds the cells
      // stamped by the fast run itself.
      fast_cross_block.merge(runner.hazards(), true);
      runner.undo_global_writes();
      runner.discard_printed();
      out = runner.run(*this, ls, b, BlockRunner::Mode::Scheduled, options_.schedule, {});
      ++totals.blocks_rerun;
    }
  }
  if (BlockRunner::Printed printed = runner.take_printed(); !printed.text.empty() || printed.dropped_lines)
    totals.printed.push_back({b, std::move(printed)});
  totals.steps = std::max(totals.steps, runner.steps_taken());
  runner.add_counters_to(totals.counters);
  if (fast_cross_block.empty()) {
    totals.hazards.merge(runner.hazards());
  } else {
    HazardLog block = runner.hazards();
    block.add_missing(fast_cross_block);
    totals.hazards.merge(block);
  }
  totals.cross_block_order.emplace_back(b, runner.cross_block_order());
  if (out.failed && !totals.error) totals.error = runner.error();
  if (options_.progress) options_.progress->block_done();
  return !out.failed;
}

void Simulator::soften_ordered_races(BlockTotals& totals) {
  std::map<int, uint8_t> did;  // a block's last run counts (a rerun replaces a fast run's)
  for (const auto& [block, order] : totals.cross_block_order) did[block] = order;
  auto has = [&](int block, uint8_t what) {
    const auto it = did.find(block);
    return it != did.end() && (it->second & what) != 0;
  };
  // The first access's block released (a fence, then a global atomic); the second access came after
  // its own block's global atomic (which may have acquired it). Whether the first access came before
  // that release is not known here (a block's flags are all that is kept).
  totals.hazards.soften_cross_block(
      [&](const HazardGroup& g) { return g.first.after_atomic && has(g.first.block_first, BlockRunner::kReleased); });
  // Both blocks took global atomics and the first fenced none: a lock or a ticket without its fence.
  totals.hazards.note_unfenced_handovers([&](const HazardGroup& g) {
    return g.first.after_atomic && has(g.first.block_first, BlockRunner::kGlobalAtomic) &&
           !has(g.first.block_first, BlockRunner::kFenced);
  });
}

std::vector<int> Simulator::block_order(int launch, int block_count) const {
  // Blocks of a launch run one after another; in which order is the schedule's choice too, so a
  // kernel whose blocks depend on each other shows it: ascending (lockstep, forward), descending
  // (reverse), shuffled (random:SEED).
  std::vector<int> order(block_count);
  for (int b = 0; b < block_count; ++b) order[b] = b;
  switch (options_.schedule.kind) {
    case ScheduleKind::Reverse:
      std::reverse(order.begin(), order.end());
      break;
    case ScheduleKind::Random: {
      uint64_t state = options_.schedule.seed * 0x9e3779b97f4a7c15ull + static_cast<uint64_t>(launch) + 1;
      for (int k = block_count - 1; k > 0; --k) {
        state ^= state >> 12, state ^= state << 25, state ^= state >> 27;
        const auto j = static_cast<int>((state * 0x2545f4914f6cdd1dull) % static_cast<uint64_t>(k + 1));
        std::swap(order[k], order[j]);
      }
      break;
    }
    case ScheduleKind::Lockstep:
    case ScheduleKind::Forward:
      break;
  }
  return order;
}

void Simulator::run_in_order(LaunchState& ls, LaunchTrace& lt, const std::vector<int>& detailed, BlockTotals& totals) {
  BlockRunner& runner = *runners_[0];
  if (options_.progress) options_.progress->restart_launch();
  std::vector<bool> ran(detailed.size(), false);
  for (int b : block_order(ls.index, ls.grid.count())) {
    auto it = std::lower_bound(detailed.begin(), detailed.end(), b);
    const bool is_detailed = it != detailed.end() && *it == b;
    BlockTrace* detail = is_detailed ? &lt.blocks[it - detailed.begin()] : nullptr;
    if (is_detailed) ran[it - detailed.begin()] = true;
    if (!run_block(runner, ls, b, detail, totals)) break;
  }
  // Blocks after a failed one never ran: their detail slots go.
  std::vector<BlockTrace> kept;
  for (size_t k = 0; k < detailed.size(); ++k)
    if (ran[k]) kept.push_back(std::move(lt.blocks[k]));
  lt.blocks = std::move(kept);
}

bool Simulator::try_in_parallel(LaunchState& ls, LaunchTrace& lt, const std::vector<int>& detailed,
                                BlockTotals& totals) {
  const int workers = worker_count();
  const int block_count = ls.grid.count();
  if (workers < 2 || block_count < 2 * workers) return false;
  if (!pool_) pool_ = std::make_unique<WorkerPool>(workers);
  while (static_cast<int>(runners_.size()) < workers) runners_.push_back(BlockRunner::take_cached());
  for (auto& g : globals_) {
    if (g->owner.size() == g->bits.size()) continue;  // zero since the last attempt, and its chunks' states stale
    g->owner.assign_zero(g->bits.size());
    g->chunk_state.assign((g->bits.size() >> ArrayStore::kChunkShift) + 1, 0);
    g->backup_bits.assign_zero(g->bits.size());
    g->backup_poison.assign_zero(g->bits.size());
  }

  const uint32_t attempt = ArrayPool::next_attempt();
  std::atomic<bool> conflict{false}, failed{false};
  std::atomic<int> next_block{0};
  std::vector<BlockTotals> per_worker(workers);
  const int chunk = std::max(1, block_count / (workers * 16));

  pool_->run([&](int w) {
    BlockRunner& runner = *runners_[w];
    runner.run_in_parallel_attempt(attempt, &conflict);
    while (!failed.load(std::memory_order_relaxed) && !conflict.load(std::memory_order_relaxed)) {
      const int first = next_block.fetch_add(chunk);
      if (first >= block_count) break;
      for (int b = first; b < std::min(block_count, first + chunk); ++b) {
        auto it = std::lower_bound(detailed.begin(), detailed.end(), b);
        BlockTrace* detail = it != detailed.end() && *it == b ? &lt.blocks[it - detailed.begin()] : nullptr;
        if (!run_block(runner, ls, b, detail, per_worker[w])) {
          failed = true;
          break;
        }
      }
    }
    runner.stop_parallel_attempt();
  });

  // The claims and the copies are this attempt's: their pages go back now.
  auto end_attempt = [&](ArrayStore& g) {
    g.owner.zero();
    g.backup_bits.zero();
    g.backup_poison.zero();
  };
  if (conflict || failed) {
    // Blocks depended on each other (or one failed, and in block order the later ones would not
    // have run): put global memory back as it was before the launch and let it run in order. The
    // attempt's shadow stamps go too: they must not look like the launch's accesses.
    for (auto& g : globals_) {
      const uint64_t copied = (uint64_t{attempt} << 2) | BlockClaims::kCopied;
      for (size_t c = 0; c < g->chunk_state.size(); ++c) {
        if ((g->chunk_state[c] & ~BlockClaims::kNeverWrittenChunk) != copied) continue;
        const size_t first = c << ArrayStore::kChunkShift;
        const size_t count = std::min(g->bits.size() - first, size_t{1} << ArrayStore::kChunkShift);
        if (g->chunk_state[c] & BlockClaims::kNeverWrittenChunk) {
          std::fill_n(g->bits.begin() + first, count, 0u);
          std::fill_n(g->poison.begin() + first, count, kNeverWritten);
          continue;
        }
        std::copy_n(g->backup_bits.data() + first, count, g->bits.begin() + first);
        std::copy_n(g->backup_poison.data() + first, count, g->poison.begin() + first);
      }
      end_attempt(*g);
      g->global_shadow.zero();
    }
    ++rolled_back_launches_;
    return false;
  }
  for (auto& g : globals_) end_attempt(*g);
  for (BlockTotals& t : per_worker) {
    totals.counters.merge(t.counters);
    totals.hazards.merge(t.hazards);
    totals.steps = std::max(totals.steps, t.steps);
    totals.blocks_rerun += t.blocks_rerun;
    for (auto& p : t.printed) totals.printed.push_back(std::move(p));
    totals.cross_block_order.insert(totals.cross_block_order.end(), t.cross_block_order.begin(), t.cross_block_order.end());
  }
  ++parallel_launches_;
  return true;
}

void Simulator::launch(std::string label, Dim3 grid, Dim3 block, int shared_bytes, KernelEntry kernel,
                       KernelEntry simt_kernel, void* closure) {
  if (failed()) return;
  if (trace_.launches.empty()) trace_.globals_before = globals_small_enough() ? snapshot_globals() : std::vector<ArraySnapshot>{};

  LaunchTrace lt;
  lt.label = std::move(label);
  lt.grid = grid;
  lt.block = block;
  lt.shared_bytes = shared_bytes;
  lt.simt_twin = simt_kernel != nullptr;
  const int launch_index = static_cast<int>(trace_.launches.size());
  auto bad_launch = [&](std::string why) {
    trace_.launches.push_back(std::move(lt));
    record_error({SimErrorKind::Kernel, "launch '" + trace_.launches.back().label + "': " + why, launch_index, 0, 0, {}});
  };
  if (block.x < 1 || block.y < 1 || block.z < 1 || block.count() > kMaxThreadsPerBlock)
    return bad_launch("a block has " + std::to_string(block.count()) + " threads; the limit is 1.." +
                      std::to_string(kMaxThreadsPerBlock));
  if (grid.x < 1 || grid.y < 1 || grid.z < 1)
    return bad_launch("the grid must have at least one block in every dimension");
  if (static_cast<double>(grid.x) * grid.y * grid.z * block.count() > static_cast<double>(kMaxThreadsPerLaunch))
    return bad_launch("a grid of " + std::to_string(grid.x) + "×" + std::to_string(grid.y) + "×" + std::to_string(grid.z) +
                      " blocks of " + std::to_string(block.count()) + " threads is over the simulator's limit of " +
                      std::to_string(kMaxThreadsPerLaunch) + " threads (2^25) a launch");
  if (shared_bytes < 0 || shared_bytes > kMaxSharedBytesPerBlock)
    return bad_launch("it asks for " + std::to_string(shared_bytes) + " bytes of shared memory per block; the limit is " +
                      std::to_string(kMaxSharedBytesPerBlock));

  LaunchState ls;
  ls.index = launch_index;
  ls.grid = grid;
  ls.block = block;
  ls.shared_bytes = shared_bytes;
  ls.kernel = kernel;
  ls.closure = closure;
  ls.simt_kernel = simt_kernel;
  ls.first_interval = ArrayPool::next_interval();

  const std::vector<int> detailed = detailed_blocks(grid.count());
  lt.blocks.resize(detailed.size());
  BlockTotals totals;
  if (options_.progress) options_.progress->start_launch(static_cast<uint64_t>(grid.count()));
  if (!try_in_parallel(ls, lt, detailed, totals)) {
    // Shadow stamps of an abandoned parallel attempt must not look like this launch's accesses.
    ls.first_interval = ArrayPool::next_interval();
    ls.printed_bytes = 0;
    totals = BlockTotals{};
    lt.blocks.assign(detailed.size(), BlockTrace{});
    run_in_order(ls, lt, detailed, totals);
  }
  lt.steps = totals.steps;
  lt.counters = totals.counters;
  lt.blocks_rerun = totals.blocks_rerun;
  soften_ordered_races(totals);
  trace_.hazards.merge_launch(totals.hazards);
  if (totals.error) record_error(*totals.error);
  if (!totals.printed.empty()) write_printed(ls, lt.label, totals.printed);
  // Stamps of an ended launch never race with a later one's: the shadow is empty between launches.
  for (auto& g : globals_) g->global_shadow.zero();
  if (options_.progress) options_.progress->finish_launch();
  if (globals_small_enough()) lt.globals_after = snapshot_globals();
  trace_.launches.push_back(std::move(lt));
}

void Simulator::write_printed(const LaunchState& ls, const std::string& label,
                              std::vector<BlockTotals::BlockPrinted>& printed) const {
  const std::vector<int> order = block_order(ls.index, ls.grid.count());
  std::vector<int> place(order.size());
  for (size_t k = 0; k < order.size(); ++k) place[order[k]] = static_cast<int>(k);
  std::sort(printed.begin(), printed.end(), [&](const auto& a, const auto& b) { return place[a.block] < place[b.block]; });
  uint64_t dropped = 0;
  for (const auto& p : printed) {
    std::fwrite(p.printed.text.data(), 1, p.printed.text.size(), stdout);
    dropped += p.printed.dropped_lines;
  }
  std::fflush(stdout);
  if (dropped)
    std::fprintf(stderr,
                 "syncscope: launch '%s' printed more than %llu KiB with device printf; %llu further printf calls were "
                 "left out (a GPU's printf buffer, cudaLimitPrintfFifoSize, holds 1 MiB by default)\n",
                 label.c_str(), static_cast<unsigned long long>(kMaxPrintedBytesPerLaunch >> 10),
                 static_cast<unsigned long long>(dropped));
}

}  // namespace syncscope::sim
