// The execution context a kernel sees when g++ compiles it for the simulator. Mirrors DeviceCtx
// (kernels/cuda/device_ctx.cuh) call for call; array elements are references that record every
// access with its source line.
#pragma once

#include <source_location>
#include <type_traits>

#include "kernels/kernel_api.h"
#include "sim/block_runner.h"
#include "sim/source_lines.h"
#include "sim/value.h"

namespace syncscope::sim {

// An array index that remembers where in the kernel it was written. `s[t]` converts t implicitly,
// so the call site's line arrives without macros.
struct At {
  int index;
  LineId line;
  [[gnu::always_inline]] At(int i, std::source_location loc = std::source_location::current())  // NOLINT: implicit
      : index(i), line(LineTable::intern(loc)) {}
};

// A reference to one simulated cell: reading converts to the value (a read event), assigning
// stores (a write event). Kernels hold values as `T v = s[i];` — `auto v = s[i];` would keep the
// reference, not the value, and read memory again later.
template <class V>
class ElemRef {
  using T = typename V::scalar_type;

 public:
  ElemRef(BlockRunner* r, ArrayStore* a, int index, LineId line) : r_(r), a_(a), index_(index), line_(line) {}

  [[gnu::always_inline]] operator V() const { return r_->load<T>(*a_, index_, line_); }  // NOLINT: like T&

  [[gnu::always_inline]] ElemRef& operator=(V v) {
    r_->store<T>(*a_, index_, v, line_);
    return *this;
  }
  [[gnu::always_inline]] ElemRef& operator=(const ElemRef& other) { return *this = static_cast<V>(other); }
  [[gnu::always_inline]] ElemRef& operator+=(V v) { return *this = static_cast<V>(*this) + v; }
  ElemRef& operator-=(V v) { return *this = static_cast<V>(*this) - v; }
  ElemRef& operator*=(V v) { return *this = static_cast<V>(*this) * v; }
  ElemRef& operator/=(V v) { return *this = static_cast<V>(*this) / v; }

 private:
  BlockRunner* r_;
  ArrayStore* a_;
  int index_;
  LineId line_;
};

// A kernel's view of a shared or global array.
template <class V>
class ArrayView {
 public:
  using value_type = V;
  ArrayView(BlockRunner* r, ArrayStore* a) : r_(r), a_(a) {}
  [[gnu::always_inline]] ElemRef<V> operator[](At at) const { return ElemRef<V>(r_, a_, at.index, at.line); }
  int size() const { return a_->size(); }

 private:
  BlockRunner* r_;
  ArrayStore* a_;
};

class SimCtx {
 public:
  SimCtx(BlockRunner& r, int thread) : r_(r), thread_(thread) {}

  Dim3 thread_idx() const {
    const Dim3 b = r_.launch().block;
    return {thread_ % b.x, (thread_ / b.x) % b.y, thread_ / (b.x * b.y)};
  }
  Dim3 block_idx() const { return r_.block_idx(); }
  Dim3 block_dim() const { return r_.launch().block; }
  Dim3 grid_dim() const { return r_.launch().grid; }

  // __syncthreads()
  [[gnu::always_inline]] void sync(std::source_location loc = std::source_location::current()) {
    r_.barrier(LineTable::intern(loc));
  }
  // __syncwarp() over every lane of the thread's warp
  void sync_warp(std::source_location loc = std::source_location::current()) {
    r_.sync_warp(LineTable::intern(loc));
  }

  // __shfl_*_sync over every lane of the thread's warp.
  template <class V>
  V shfl_up(V v, int delta, std::source_location loc = std::source_location::current()) {
    return shuffle(WarpOp::ShflUp, v, delta, loc);
  }
  template <class V>
  V shfl_down(V v, int delta, std::source_location loc = std::source_location::current()) {
    return shuffle(WarpOp::ShflDown, v, delta, loc);
  }
  template <class V>
  V shfl_idx(V v, int source_lane, std::source_location loc = std::source_location::current()) {
    return shuffle(WarpOp::ShflIdx, v, source_lane, loc);
  }
  template <class V>
  V shfl_xor(V v, int lane_mask, std::source_location loc = std::source_location::current()) {
    return shuffle(WarpOp::ShflXor, v, lane_mask, loc);
  }

  template <class T>
  ArrayView<Val<storage_t<T>>> make_shared_array(int count, const char* name = nullptr) {
    using S = storage_t<T>;
    return ArrayView<Val<S>>(&r_, &r_.shared_array(dtype_of<S>(), count, name));
  }

  BlockRunner& runner() { return r_; }

 private:
  template <class V>
  V shuffle(WarpOp op, V v, int arg, const std::source_location& loc) {
    const LineId line = LineTable::intern(loc);
    if constexpr (is_val<V>::value) {
      return r_.warp_op(op, v, arg, line);
    } else {
      static_assert(std::is_arithmetic_v<V> && sizeof(V) == 4, "shuffles move 32-bit values");
      return r_.warp_op(op, Val<V>(v), arg, line).v;
    }
  }

  BlockRunner& r_;
  int thread_;
};

}  // namespace syncscope::sim
