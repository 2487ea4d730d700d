#include "sim/array_pool.h"

#include <algorithm>
#include <mutex>
#include <vector>

namespace syncscope::sim {
namespace {

// The app's lessons (up to 2^20 elements) re-simulate from the pool; a larger run's arrays go back
// to the system when it ends, so the process is no larger than its largest run needs.
constexpr size_t kMaxPooledCells = size_t{1} << 22;
constexpr uint32_t kRestartIdsAbove = 0xf0000000u;

std::mutex pool_mutex;
std::vector<std::unique_ptr<ArrayStore>>& pool() {
  static std::vector<std::unique_ptr<ArrayStore>> arrays;
  return arrays;
}

}  // namespace

std::unique_ptr<ArrayStore> ArrayPool::take(int count, bool poisoned) {
  std::unique_ptr<ArrayStore> a;
  {
    std::lock_guard lock(pool_mutex);
    auto& arrays = pool();
    // The smallest recycled array that is large enough.
    auto best = arrays.end();
    for (auto it = arrays.begin(); it != arrays.end(); ++it)
      if ((*it)->bits.capacity() >= static_cast<size_t>(count) &&
          (best == arrays.end() || (*it)->bits.capacity() < (*best)->bits.capacity()))
        best = it;
    if (best != arrays.end()) {
      a = std::move(*best);
      arrays.erase(best);
    }
  }
  if (!a) a = std::make_unique<ArrayStore>();
  assign_large(a->bits, count, uint32_t{0});
  assign_large(a->poison, count, poisoned ? kNeverWritten : uint8_t{0});
  a->global_shadow.assign_zero(count);
  if (!a->owner.empty()) {  // stale chunk states are harmless (see the header)
    a->owner.assign_zero(count);
    a->backup_bits.assign_zero(count);
    a->backup_poison.assign_zero(count);
    a->chunk_state.resize((static_cast<size_t>(count) >> ArrayStore::kChunkShift) + 1);
  }
  return a;
}

void ArrayPool::give_back(std::unique_ptr<ArrayStore> array) {
  if (!array || array->bits.capacity() == 0) return;
  std::lock_guard lock(pool_mutex);
  auto& arrays = pool();
  arrays.push_back(std::move(array));
  // Keep the largest arrays up to the budget.
  std::sort(arrays.begin(), arrays.end(),
            [](const auto& x, const auto& y) { return x->bits.capacity() > y->bits.capacity(); });
  size_t cells = 0, keep = 0;
  while (keep < arrays.size() && cells + arrays[keep]->bits.capacity() <= kMaxPooledCells)
    cells += arrays[keep++]->bits.capacity();
  arrays.resize(keep);
}

void ArrayPool::restart_ids_if_needed() {
  if (interval_ids_.load() < kRestartIdsAbove && attempt_ids_.load() < kRestartIdsAbove) return;
  std::lock_guard lock(pool_mutex);
  for (auto& a : pool()) std::fill(a->chunk_state.begin(), a->chunk_state.end(), 0);  // shadows and claims are zero already
  interval_ids_ = 0;
  attempt_ids_ = 0;
}

}  // namespace syncscope::sim
