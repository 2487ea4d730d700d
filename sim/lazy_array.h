// An array of zero-initialized elements whose memory the kernel commits page by page, on first
// write. Global memory's per-launch state (the race detector's shadow, a parallel launch's claims
// and its rollback copies) lives in these: a launch touches only the cells its blocks use, and
// zero() hands the pages back between launches, so what is resident is what the launch in flight
// needs (README "Memory").
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>

namespace syncscope::sim {

// How an array's pages come. `Touched`: on first use. `ReadFirst`, for an array whose cells are
// read before they are written (the race detector's shadow, the claims): a lazy page read first is
// the shared zero page, and its first write then faults again and flushes the TLB of every thread
// of the process, an interrupt to each core (10 % of bench/peer_oclgrind.sh's run, perf on this
// 2-core VM). So a small one is committed, writable, when it is mapped, and a larger one lies on
// 2 MiB boundaries with the advice to use huge pages: one such fault for 512 pages. Either way a
// large run's resident memory is what its launches touch (README "Memory per element").
enum class Pages { Touched, ReadFirst };

template <class T, Pages kPages = Pages::Touched>
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
    if (bytes(capacity_) >= (size_t{4} << 20) && madvise(data_, bytes(capacity_), MADV_DONTNEED) == 0) return;
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
  static constexpr size_t kHugePage = size_t{2} << 20;
  static bool committed_at_once(size_t count) { return kPages == Pages::ReadFirst && bytes(count) < kHugePage; }
  void map(size_t count) {
    if (count == 0) return;
    const size_t size = bytes(count);
    const bool aligned = kPages == Pages::ReadFirst && !committed_at_once(count);
    const size_t mapped = aligned ? size + kHugePage : size;
    const int populate = committed_at_once(count) ? MAP_POPULATE : 0;
    void* p = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | populate, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    char* start = static_cast<char*>(p);
    if (aligned) {  // keep the 2 MiB-aligned part
      const auto at = reinterpret_cast<uintptr_t>(p);
      start = reinterpret_cast<char*>((at + kHugePage - 1) & ~(kHugePage - 1));
      if (start > p) munmap(p, start - static_cast<char*>(p));
      if (char* end = start + size; end < static_cast<char*>(p) + mapped) munmap(end, static_cast<char*>(p) + mapped - end);
    }
#ifdef MADV_HUGEPAGE
    if (aligned || size >= (size_t{4} << 20)) madvise(start, size, MADV_HUGEPAGE);  // advice only: fewer faults
#endif
    data_ = reinterpret_cast<T*>(start);
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
