#include "sim/array_pool.h"

#include <algorithm>
#include <mutex>
#include <vector>

namespace syncscope::sim {
namespace {

constexpr size_t kMaxPooledCells = size_t{1} << 26;  // about 2.5 GB of arrays with their shadow
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
      if ((*it)->shadow.capacity() >= static_cast<size_t>(count) &&
          (best == arrays.end() || (*it)->shadow.capacity() < (*best)->shadow.capacity()))
        best = it;
    if (best != arrays.end()) {
      a = std::move(*best);
      arrays.erase(best);
    }
  }
  if (!a) {
    a = std::make_unique<ArrayStore>();
    a->reset(count, poisoned);
    return a;
  }
  assign_large(a->bits, count, uint32_t{0});
  assign_large(a->poison, count, uint8_t{poisoned ? uint8_t{1} : uint8_t{0}});
  a->shadow.resize(count);  // stale stamps are harmless (see the header)
  if (!a->owner.empty()) a->owner.resize(count);
  if (!a->backup_bits.empty()) {
    a->backup_bits.resize(count);
    a->backup_poison.resize(count);
    a->chunk_state.resize((static_cast<size_t>(count) >> ArrayStore::kChunkShift) + 1);
  }
  return a;
}

void ArrayPool::give_back(std::unique_ptr<ArrayStore> array) {
  if (!array || array->shadow.capacity() == 0) return;
  std::lock_guard lock(pool_mutex);
  auto& arrays = pool();
  arrays.push_back(std::move(array));
  // Keep the largest arrays up to the budget.
  std::sort(arrays.begin(), arrays.end(),
            [](const auto& x, const auto& y) { return x->shadow.capacity() > y->shadow.capacity(); });
  size_t cells = 0, keep = 0;
  while (keep < arrays.size() && cells + arrays[keep]->shadow.capacity() <= kMaxPooledCells)
    cells += arrays[keep++]->shadow.capacity();
  arrays.resize(keep);
}

void ArrayPool::restart_ids_if_needed() {
  if (interval_ids_.load() < kRestartIdsAbove && attempt_ids_.load() < kRestartIdsAbove) return;
  std::lock_guard lock(pool_mutex);
  for (auto& a : pool()) {
    std::fill(a->shadow.begin(), a->shadow.end(), CellShadow{});
    std::fill(a->owner.begin(), a->owner.end(), 0);
    std::fill(a->chunk_state.begin(), a->chunk_state.end(), 0);
  }
  interval_ids_ = 0;
  attempt_ids_ = 0;
}

}  // namespace syncscope::sim
