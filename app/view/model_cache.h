// A least-recently-used cache of view-models that hands out shared ownership: a frame that took
// an entry keeps it alive even when later lookups in the same frame evict it. Eviction only drops
// the cache's own reference, so no caller can be left holding a freed model (the panel that showed
// two blocks side by side used to: 2 blocks x 9 steps passed the old "clear all at 16" mid-frame).
#pragma once

#include <cstddef>
#include <list>
#include <map>
#include <memory>
#include <utility>

namespace syncscope::app {

template <class Key, class Value>
class ModelCache {
 public:
  explicit ModelCache(size_t capacity) : capacity_(capacity < 1 ? 1 : capacity) {}

  // The entry for `key`, made with `make()` (returning a Value) when it is not there.
  template <class Make>
  std::shared_ptr<const Value> get(const Key& key, Make&& make) {
    if (auto it = index_.find(key); it != index_.end()) {
      order_.splice(order_.begin(), order_, it->second);  // now the most recently used
      return it->second->second;
    }
    auto value = std::make_shared<const Value>(make());
    order_.emplace_front(key, value);
    index_[key] = order_.begin();
    while (order_.size() > capacity_) {
      index_.erase(order_.back().first);
      order_.pop_back();
    }
    return value;
  }

  size_t size() const { return order_.size(); }
  size_t capacity() const { return capacity_; }
  void clear() {
    order_.clear();
    index_.clear();
  }

 private:
  using Entry = std::pair<Key, std::shared_ptr<const Value>>;
  size_t capacity_;
  std::list<Entry> order_;  // most recently used first
  std::map<Key, typename std::list<Entry>::iterator> index_;
};

}  // namespace syncscope::app
