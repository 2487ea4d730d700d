// The execution context a kernel sees when g++ compiles it for the simulator. Mirrors DeviceCtx
// (kernels/cuda/device_ctx.cuh) call for call; array elements are references that record every
// access with its source line.
#pragma once

#include <array>
#include <source_location>
#include <type_traits>

#include "contract/kernel_api.h"
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

// The same for SIMT lockstep code (SimtCtx): the call site is kept as it is and interned inside the
// runtime, so the kernel's own control flow has no branch of the simulator's (the line cache) in it.
struct SiteAt {
  int index;
  std::source_location site;
  [[gnu::always_inline]] SiteAt(int i, std::source_location loc = std::source_location::current())  // NOLINT
      : index(i), site(loc) {}
};

// How a kernel's array element reaches the block runner. PlainAccess inlines the fast path;
// SimtAccess calls straight out of line (see SimtCtx).
struct PlainAccess {
  using Index = At;
  template <class T>
  [[gnu::always_inline]] static Val<T> load(BlockRunner* r, ArrayStore& a, const At& at) {
    return r->load<T>(a, at.index, at.line);
  }
  template <class T>
  [[gnu::always_inline]] static void store(BlockRunner* r, ArrayStore& a, const At& at, Val<T> v) {
    r->store<T>(a, at.index, v, at.line);
  }
};
struct SimtAccess {
  using Index = SiteAt;
  template <class T>
  [[gnu::always_inline]] static Val<T> load(BlockRunner* r, ArrayStore& a, const SiteAt& at) {
    const CellValue c = r->simt_load(a, at.index, at.site);
    return Val<T>(from_bits<T>(c.bits), c.poison);
  }
  template <class T>
  [[gnu::always_inline]] static void store(BlockRunner* r, ArrayStore& a, const SiteAt& at, Val<T> v) {
    r->simt_store(a, at.index, {to_bits(v.v), v.poison}, at.site);
  }
};

// A reference to one simulated cell: reading converts to the value (a read event), assigning
// stores (a write event). Kernels hold values as `T v = s[i];` — `auto v = s[i];` would keep the
// reference, not the value, and read memory again later.
template <class V, class Access = PlainAccess>
class ElemRef {
  using T = typename V::scalar_type;
  using Index = typename Access::Index;

 public:
  [[gnu::always_inline]] ElemRef(BlockRunner* r, ArrayStore* a, const Index& at) : r_(r), a_(a), at_(at) {}

  [[gnu::always_inline]] operator V() const { return Access::template load<T>(r_, *a_, at_); }  // NOLINT: like T&

  [[gnu::always_inline]] ElemRef& operator=(V v) {
    Access::template store<T>(r_, *a_, at_, v);
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
  Index at_;
};

// A kernel's view of a shared or global array.
template <class V, class Access = PlainAccess>
class ArrayView {
 public:
  using value_type = V;
  ArrayView(BlockRunner* r, ArrayStore* a) : r_(r), a_(a) {}
  [[gnu::always_inline]] ElemRef<V, Access> operator[](typename Access::Index at) const {
    return ElemRef<V, Access>(r_, a_, at);
  }
  int size() const { return a_->size(); }

 private:
  BlockRunner* r_;
  ArrayStore* a_;
};

// c.caption's numbers, checked and packed once for both contexts.
struct CaptionNumbers {
  std::array<long long, 4> values{};
  int count = 0;
};
template <class... Ints>
CaptionNumbers caption_numbers(Ints... values) {
  static_assert((std::is_integral_v<Ints> && ...), "caption arguments are whole numbers (%d)");
  static_assert(sizeof...(Ints) <= 4, "a caption takes at most 4 numbers");
  return {{static_cast<long long>(values)...}, static_cast<int>(sizeof...(Ints))};
}

// __shfl_*_sync over every lane of the thread's warp, written once for both contexts: each one's
// shuffle() decides how the value reaches the warp.
template <class Ctx>
class WarpShuffles {
 public:
  template <class V>
  V shfl_up(V v, int delta, std::source_location loc = std::source_location::current()) {
    return self().shuffle(WarpOp::ShflUp, v, delta, loc);
  }
  template <class V>
  V shfl_down(V v, int delta, std::source_location loc = std::source_location::current()) {
    return self().shuffle(WarpOp::ShflDown, v, delta, loc);
  }
  template <class V>
  V shfl_idx(V v, int source_lane, std::source_location loc = std::source_location::current()) {
    return self().shuffle(WarpOp::ShflIdx, v, source_lane, loc);
  }
  template <class V>
  V shfl_xor(V v, int lane_mask, std::source_location loc = std::source_location::current()) {
    return self().shuffle(WarpOp::ShflXor, v, lane_mask, loc);
  }

 private:
  Ctx& self() { return static_cast<Ctx&>(*this); }
};

class SimCtx : public WarpShuffles<SimCtx> {
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

  // What the step view says about this step (contract/kernel_api.h); formatted only for blocks
  // being recorded.
  template <class... Ints>
  void caption(const char* format, Ints... values) {
    const CaptionNumbers n = caption_numbers(values...);
    r_.caption(format, n.values.data(), n.count);
  }


  template <class T>
  ArrayView<Val<storage_t<T>>> make_shared_array(int count, const char* name = nullptr) {
    using S = storage_t<T>;
    return ArrayView<Val<S>>(&r_, &r_.shared_array(dtype_of<S>(), count, name));
  }

  BlockRunner& runner() { return r_; }

 protected:
  friend class WarpShuffles<SimCtx>;
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

// The context of SIMT lockstep (the default schedule's blocks being looked at). The kernel is
// instantiated with it in a translation unit built with -fsanitize-coverage=trace-pc (see
// sim/simt.h), so every basic block of the kernel reports its address: lanes of a warp move
// together by that program position, and a lane that branched past code its neighbours still run
// waits where they meet again. Every call into the simulator goes straight out of line, so no
// basic block of the runtime's own is mistaken for the kernel's.
class SimtCtx : public SimCtx, public WarpShuffles<SimtCtx> {
 public:
  using SimCtx::SimCtx;

  void sync(std::source_location loc = std::source_location::current()) { r_.simt_barrier(loc); }
  template <class... Ints>
  void caption(const char* format, Ints... values) {
    const CaptionNumbers n = caption_numbers(values...);
    r_.simt_caption(format, n.values.data(), n.count);
  }
  void sync_warp(std::source_location loc = std::source_location::current()) {
    r_.simt_warp_op(WarpOp::SyncWarp, {}, 0, loc);
  }
  using WarpShuffles<SimtCtx>::shfl_up;
  using WarpShuffles<SimtCtx>::shfl_down;
  using WarpShuffles<SimtCtx>::shfl_idx;
  using WarpShuffles<SimtCtx>::shfl_xor;
  template <class T>
  ArrayView<Val<storage_t<T>>, SimtAccess> make_shared_array(int count, const char* name = nullptr) {
    using S = storage_t<T>;
    return ArrayView<Val<S>, SimtAccess>(&r_, &r_.simt_shared_array(dtype_of<S>(), count, name));
  }

 private:
  friend class WarpShuffles<SimtCtx>;
  template <class V>
  [[gnu::always_inline]] V shuffle(WarpOp op, V v, int arg, const std::source_location& loc) {
    if constexpr (is_val<V>::value) {
      using S = typename V::scalar_type;
      const CellValue r = r_.simt_warp_op(op, {to_bits(v.v), v.poison}, arg, loc);
      return V(from_bits<S>(r.bits), r.poison);
    } else {
      static_assert(std::is_arithmetic_v<V> && sizeof(V) == 4, "shuffles move 32-bit values");
      return from_bits<V>(r_.simt_warp_op(op, {to_bits(v), false}, arg, loc).bits);
    }
  }
};

}  // namespace syncscope::sim
