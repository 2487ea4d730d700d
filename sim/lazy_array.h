// An array of zero-initialized elements whose memory the kernel commits page by page, on first
// write. Global memory's per-launch state (the race detector's shadow, a parallel launch's claims
// and its rollback copies) lives in these: a launch touches only the cells its blocks use, and
// zero() hands the pages back between launches, so what is resident is what the launch in flight
// needs (README "Memory").
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>

namespace syncscope::sim {

template <class T>
class LazyArray {
  static_assert(std::is_trivially_copyable_v<T>, "zero bits are the empty element");

 public:
  LazyArray() = default;
  LazyArray(const LazyArray&) = delete;
  LazyArray& operator=(const LazyArray&) = delete;
  LazyArray(LazyArray&& other) noexcept { swap(other); }
  LazyArray& operator=(LazyArray&& other) noexcept {
    LazyArray(std::move(other)).swap(*this);
    return *this;
  }
  ~LazyArray() {
    if (data_) munmap(data_, bytes(capacity_));
  }

  // `count` zero elements (what was there is gone).
  void assign_zero(size_t count) {
    if (count > capacity_ || !data_) {
      LazyArray fresh;
      fresh.map(count);
      swap(fresh);
    } else {
      size_ = count;
      zero();
    }
  }
  // Every element back to zero. Above a few pages the pages go back to the kernel (MADV_DONTNEED:
  // a private anonymous mapping reads as zero afterwards); a small array is cheaper to fill.
  void zero() {
    if (!data_) return;
    constexpr size_t kGiveBackFrom = size_t{4} << 20;
    if (bytes(capacity_) >= kGiveBackFrom && madvise(data_, bytes(capacity_), MADV_DONTNEED) == 0) return;
    std::memset(static_cast<void*>(data_), 0, size_ * sizeof(T));
  }

  size_t size() const { return size_; }
  size_t capacity() const { return capacity_; }
  bool empty() const { return size_ == 0; }
  T* data() { return data_; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }

 private:
  static size_t bytes(size_t count) {
    constexpr size_t kPage = 4096;
    return (count * sizeof(T) + kPage - 1) / kPage * kPage;
  }
  void map(size_t count) {
    if (count == 0) return;
    void* p = mmap(nullptr, bytes(count), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
    if (bytes(count) >= (size_t{4} << 20)) madvise(p, bytes(count), MADV_HUGEPAGE);  // advice only: fewer faults
#endif
    data_ = static_cast<T*>(p);
    size_ = capacity_ = count;
  }
  void swap(LazyArray& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    std::swap(capacity_, other.capacity_);
  }

  T* data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

}  // namespace syncscope::sim
