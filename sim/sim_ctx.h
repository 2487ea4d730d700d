// The execution context a kernel sees when g++ compiles it for the simulator. Mirrors DeviceCtx
// (core/cuda/device_ctx.cuh) call for call; array elements are references that record every
// access with its source line.
#pragma once

#include <array>
#include <exception>
#include <type_traits>
#include "sim/source_location.h"
#include <type_traits>

#include "contract/kernel_api.h"
#include "contract/kernel_context.h"
#include "sim/block_runner.h"
#include "sim/source_lines.h"
#include "sim/value.h"

namespace syncscope::sim {

// An array index that remembers where in the kernel it was written. `s[t]` converts t implicitly,
// so the call site's line arrives without macros.
struct At {
  int index;
  LineId line;
  [[gnu::always_inline]] At(int i, SourceLocation loc = SourceLocation::current())  // NOLINT: implicit
      : index(i), line(LineTable::intern(loc)) {}
  // An index that is itself an element read from an array (`src[idx[i]]`, `bins[data[i] % 256]` needs
  // none): its value, read where it stands.
  template <class Element>
    requires(std::is_class_v<Element> && std::is_integral_v<typename Element::value_type>)
  [[gnu::always_inline]] At(const Element& e, SourceLocation loc = SourceLocation::current())  // NOLINT
      : index(static_cast<int>(static_cast<typename Element::value_type>(e))), line(LineTable::intern(loc)) {}
};

// The same for SIMT lockstep code (SimtCtx): the call site is kept as it is and interned inside the
// runtime, so the kernel's own control flow has no branch of the simulator's (the line cache) in it.
struct SiteAt {
  int index;
  SourceLocation site;
  [[gnu::always_inline]] SiteAt(int i, SourceLocation loc = SourceLocation::current())  // NOLINT
      : index(i), site(loc) {}
  template <class Element>
    requires(std::is_class_v<Element> && std::is_integral_v<typename Element::value_type>)
  [[gnu::always_inline]] SiteAt(const Element& e, SourceLocation loc = SourceLocation::current())  // NOLINT
      : index(static_cast<int>(static_cast<typename Element::value_type>(e))), site(loc) {}
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
  static CellValue atomic(BlockRunner* r, ArrayStore& a, const At& at, AtomicOp op, CellValue operand,
                          CellValue compare) {
    return r->atomic(a, at.index, op, operand, compare, at.line);
  }
  static std::array<CellValue, 2> atomic_pair(BlockRunner* r, ArrayStore& a, const At& at, AtomicOp op,
                                              CellValue first, CellValue second) {
    return r->atomic_pair(a, at.index, op, first, second, at.line);
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
  [[gnu::always_inline]] static CellValue atomic(BlockRunner* r, ArrayStore& a, const SiteAt& at, AtomicOp op,
                                                 CellValue operand, CellValue compare) {
    return r->simt_atomic(a, at.index, op, operand, compare, at.site);
  }
  [[gnu::always_inline]] static std::array<CellValue, 2> atomic_pair(BlockRunner* r, ArrayStore& a, const SiteAt& at,
                                                                     AtomicOp op, CellValue first, CellValue second) {
    return r->simt_atomic_pair(a, at.index, op, first, second, at.site);
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
  // An atomic read-modify-write of this cell (the context's atomic_add and friends); the old value.
  [[gnu::always_inline]] V atomic(AtomicOp op, V operand, V compare = V()) const {
    const CellValue old = Access::atomic(r_, *a_, at_, op, {to_bits(operand.v), operand.poison},
                                         {to_bits(compare.v), compare.poison});
    return V(from_bits<T>(old.bits), old.poison);
  }
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
  // Elements at and after `at` in one atomic access (WarpOps' atomic_load_pair / atomic_store_pair).
  Pair<V> atomic_pair(typename Access::Index at, AtomicOp op, V first, V second) const {
    using T = typename V::scalar_type;
    const std::array<CellValue, 2> old = Access::atomic_pair(r_, *a_, at, op, {to_bits(first.v), first.poison},
                                                             {to_bits(second.v), second.poison});
    return {V(from_bits<T>(old[0].bits), old[0].poison), V(from_bits<T>(old[1].bits), old[1].poison)};
  }

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

// Warp-wide operations and atomics, written once for both contexts: each one's warp() decides how a
// call reaches the warp. The plain forms take every lane of the thread's warp; the *_sync forms
// take CUDA's explicit mask (and shuffles a segment width), and a mask that names a lane that does
// not take part is reported.
// The warp operations' methods, one row of contract/warp_ops.h each, by the row's kind.
#define SYNCSCOPE_SIM_WARP_METHODS(op, name, name_sync, intrinsic, kind, arg, result, gives) \
  SYNCSCOPE_SIM_WARP_##kind(op, name, name_sync, result)
#define SYNCSCOPE_SIM_WARP_Shuffle(op, name, name_sync, result)                                              \
  template <class V>                                                                                          \
  V name(V v, int arg, SourceLocation loc = SourceLocation::current()) {                                      \
    return shuffle(WarpOp::op, false, 0, v, arg, kWarpSize, loc);                                              \
  }                                                                                                           \
  template <class V>                                                                                          \
  V name_sync(unsigned mask, V v, int arg, int width = kWarpSize, SourceLocation loc = SourceLocation::current()) { \
    return shuffle(WarpOp::op, true, mask, v, arg, width, loc);                                                \
  }
#define SYNCSCOPE_SIM_WARP_Vote(op, name, name_sync, result)                                                \
  vote_t<WarpResult::result> name(bool pred, SourceLocation loc = SourceLocation::current()) {               \
    return static_cast<vote_t<WarpResult::result>>(self().warp({WarpOp::op, pred ? 1u : 0u}, loc).bits);      \
  }                                                                                                           \
  vote_t<WarpResult::result> name_sync(unsigned mask, bool pred, SourceLocation loc = SourceLocation::current()) { \
    return static_cast<vote_t<WarpResult::result>>(                                                           \
        self().warp({WarpOp::op, pred ? 1u : 0u, false, 0, true, mask}, loc).bits);                           \
  }
#define SYNCSCOPE_SIM_WARP_Sync(op, name, name_sync, result)                                                \
  void name(SourceLocation loc = SourceLocation::current()) { self().warp({WarpOp::op}, loc); }               \
  void name(unsigned mask, SourceLocation loc = SourceLocation::current()) {                                   \
    self().warp({WarpOp::op, 0, false, 0, true, mask}, loc);                                                   \
  }
#define SYNCSCOPE_SIM_WARP_Reduce(op, name, name_sync, result)                                              \
  template <class V>                                                                                          \
  V name(V v, SourceLocation loc = SourceLocation::current()) {                                               \
    return reduce(WarpOp::op, false, 0, v, loc);                                                               \
  }                                                                                                           \
  template <class V>                                                                                          \
  V name_sync(unsigned mask, V v, SourceLocation loc = SourceLocation::current()) {                           \
    return reduce(WarpOp::op, true, mask, v, loc);                                                             \
  }
#define SYNCSCOPE_SIM_WARP_Match(op, name, name_sync, result)                                               \
  template <class V>                                                                                          \
  unsigned name(V v, SourceLocation loc = SourceLocation::current()) {                                        \
    return self().warp({WarpOp::op, bits_of(v), poison_of(v)}, loc).bits;                                      \
  }                                                                                                           \
  template <class V>                                                                                          \
  unsigned name_sync(unsigned mask, V v, SourceLocation loc = SourceLocation::current()) {                    \
    return self().warp({WarpOp::op, bits_of(v), poison_of(v), 0, true, mask}, loc).bits;                       \
  }

// A vote's result on the GPU: a lane mask (ballot) or a predicate (any, all).
template <WarpResult R>
using vote_t = std::conditional_t<R == WarpResult::Mask, unsigned, int>;

// Warp-wide operations and atomics, written once for both contexts: each one's warp() decides how a
// call reaches the warp. The plain forms take every lane of the thread's warp; the *_sync forms
// take CUDA's explicit mask (and shuffles a segment width), and a mask that names a lane that does
// not take part is reported.
template <class Ctx>
class WarpOps {
 public:
  SYNCSCOPE_WARP_OPERATIONS(SYNCSCOPE_SIM_WARP_METHODS)

  // atomicAdd / atomicMin / atomicMax / atomicExch / atomicCAS on a shared or global cell:
  // `T old = c.atomic_add(total[0], v);`. Atomics never race with each other; an atomic and a
  // plain access of one cell in one step do.
  template <class V, class A>
  V atomic_add(ElemRef<V, A> cell, std::type_identity_t<V> v) { return cell.atomic(AtomicOp::Add, v); }
  template <class V, class A>
  V atomic_min(ElemRef<V, A> cell, std::type_identity_t<V> v) { return cell.atomic(AtomicOp::Min, v); }
  template <class V, class A>
  V atomic_max(ElemRef<V, A> cell, std::type_identity_t<V> v) { return cell.atomic(AtomicOp::Max, v); }
  template <class V, class A>
  V atomic_exch(ElemRef<V, A> cell, std::type_identity_t<V> v) { return cell.atomic(AtomicOp::Exch, v); }
  // Stores `v` if the cell holds `compare` (bit for bit); returns what it held.
  template <class V, class A>
  V atomic_cas(ElemRef<V, A> cell, std::type_identity_t<V> compare, std::type_identity_t<V> v) {
    return cell.atomic(AtomicOp::Cas, v, compare);
  }

  // Relaxed atomic load and store (cuda::atomic_ref on the GPU). Here a compare-and-swap that swaps
  // 0 for 0 (it changes nothing and returns the cell) and an exchange: atomics, so they never race
  // with other atomics, and a plain access of the same cell in the same step races with them.
  template <class V, class A>
  V atomic_load(ElemRef<V, A> cell) { return cell.atomic(AtomicOp::Cas, V(0), V(0)); }
  template <class V, class A>
  void atomic_store(ElemRef<V, A> cell, std::type_identity_t<V> v) { cell.atomic(AtomicOp::Exch, v); }

  // The GPU's 8-byte atomic pair (contract/kernel_api.h): two atomics, a compare-and-swap of 0 for
  // 0 per cell to load and an exchange per cell to store, with no other thread between them.
  template <class V, class A>
  Pair<V> atomic_load_pair(ArrayView<V, A> a, int i, SourceLocation loc = SourceLocation::current()) {
    using Index = typename A::Index;
    return a.atomic_pair(Index(i, loc), AtomicOp::Cas, V(0), V(0));
  }
  template <class V, class A>
  void atomic_store_pair(ArrayView<V, A> a, int i, Pair<std::type_identity_t<V>> p,
                         SourceLocation loc = SourceLocation::current()) {
    using Index = typename A::Index;
    a.atomic_pair(Index(i, loc), AtomicOp::Exch, p.first, p.second);
  }

  // The GPU's 16-byte vector access, here as four accesses of one line.
  template <class V, class A>
  Vec4<V> load_vec4(ArrayView<V, A> a, int i, SourceLocation loc = SourceLocation::current()) {
    using Index = typename A::Index;
    return {a[Index(i, loc)], a[Index(i + 1, loc)], a[Index(i + 2, loc)], a[Index(i + 3, loc)]};
  }
  template <class V, class A>
  void store_vec4(ArrayView<V, A> a, int i, Vec4<std::type_identity_t<V>> v,
                  SourceLocation loc = SourceLocation::current()) {
    using Index = typename A::Index;
    a[Index(i, loc)] = v.x;
    a[Index(i + 1, loc)] = v.y;
    a[Index(i + 2, loc)] = v.z;
    a[Index(i + 3, loc)] = v.w;
  }

 private:
  Ctx& self() { return static_cast<Ctx&>(*this); }
  template <class V>
  static uint32_t bits_of(V v) {
    if constexpr (is_val<V>::value) return to_bits(v.v);
    else return to_bits(v);
  }
  template <class V>
  static bool poison_of(V v) {
    if constexpr (is_val<V>::value) return v.poison;
    else return false;
  }
  // __reduce_add_sync and friends take whole numbers only, as on the GPU.
  template <class V>
  V reduce(WarpOp op, bool masked, unsigned mask, V v, const SourceLocation& loc) {
    if constexpr (is_val<V>::value) {
      using S = typename V::scalar_type;
      static_assert(std::is_integral_v<S>, "warp reductions (__reduce_add_sync) take whole numbers");
      const CellValue r = self().warp({op, to_bits(v.v), v.poison, std::is_signed_v<S>, masked, mask}, loc);
      return V(from_bits<S>(r.bits), r.poison);
    } else {
      static_assert(std::is_integral_v<V> && sizeof(V) == 4, "warp reductions (__reduce_add_sync) take 32-bit whole numbers");
      return from_bits<V>(self().warp({op, to_bits(v), false, std::is_signed_v<V>, masked, mask}, loc).bits);
    }
  }
  template <class V>
  V shuffle(WarpOp op, bool masked, unsigned mask, V v, int arg, int width, const SourceLocation& loc) {
    if constexpr (is_val<V>::value) {
      using S = typename V::scalar_type;
      const CellValue r = self().warp({op, to_bits(v.v), v.poison, arg, masked, mask, width}, loc);
      return V(from_bits<S>(r.bits), r.poison);
    } else {
      static_assert(std::is_arithmetic_v<V> && sizeof(V) == 4, "shuffles move 32-bit values");
      return from_bits<V>(self().warp({op, to_bits(v), false, arg, masked, mask, width}, loc).bits);
    }
  }
};

class SimCtx : public WarpOps<SimCtx> {
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
  [[gnu::always_inline]] void sync(SourceLocation loc = SourceLocation::current()) {
    r_.barrier(LineTable::intern(loc));
  }
  // __syncthreads_count(p), __syncthreads_and(p), __syncthreads_or(p): one barrier, after which
  // every thread has the block's count of true predicates, whether all were true, whether any was.
  int sync_count(int predicate, SourceLocation loc = SourceLocation::current()) {
    return r_.barrier_count(LineTable::intern(loc), predicate != 0);
  }
  int sync_and(int predicate, SourceLocation loc = SourceLocation::current()) {
    return sync_count(predicate, loc) == r_.barrier_arrivals() ? 1 : 0;
  }
  int sync_or(int predicate, SourceLocation loc = SourceLocation::current()) { return sync_count(predicate, loc) != 0 ? 1 : 0; }
  // __threadfence()
  void fence(SourceLocation loc = SourceLocation::current()) { r_.fence(LineTable::intern(loc)); }
  // __threadfence_block(): a fence for the block only (a translated .cu's; kernel files have fence()).
  void fence_block(SourceLocation loc = SourceLocation::current()) { r_.fence(LineTable::intern(loc), false); }
  // __nanosleep(): the simulator keeps no clock, so the thread goes on at once. A sleep changes
  // when a GPU thread polls, never what a kernel computes. Inlined to nothing, so SIMT lockstep's
  // coverage sees no code of its own.
  [[gnu::always_inline]] void nanosleep(unsigned /*ns*/) const {}
  // __activemask()
  unsigned active_mask(SourceLocation loc = SourceLocation::current()) {
    return r_.active_mask(LineTable::intern(loc));
  }
  // A kernel's `return` (not CUDA's: the .cu translator adds it, so a warp error can name the line).
  void returning(SourceLocation loc = SourceLocation::current()) { r_.note_return(LineTable::intern(loc)); }

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
  friend class WarpOps<SimCtx>;
  CellValue warp(const WarpCall& call, const SourceLocation& loc) {
    return r_.warp_call(call, LineTable::intern(loc));
  }

  BlockRunner& r_;
  int thread_;
};

// The context of SIMT lockstep (the default schedule's blocks being looked at). The kernel is
// instantiated with it in a translation unit built with -fsanitize-coverage=trace-pc (see
// sim/simt.h), so every basic block of the kernel reports its address, or, translated from a .cu,
// reports the positions the translator numbered (position(), call() below): lanes of a warp move
// together by that program position, and a lane that branched past code its neighbours still run
// waits where they meet again. Every call into the simulator goes straight out of line, so no
// basic block of the runtime's own is mistaken for the kernel's.
class SimtCtx : public SimCtx, public WarpOps<SimtCtx> {
 public:
  using SimCtx::SimCtx;

  void sync(SourceLocation loc = SourceLocation::current()) { r_.simt_barrier(loc); }
  int sync_count(int predicate, SourceLocation loc = SourceLocation::current()) {
    return r_.simt_barrier_count(loc, predicate != 0);
  }
  int sync_and(int predicate, SourceLocation loc = SourceLocation::current()) {
    return sync_count(predicate, loc) == r_.barrier_arrivals() ? 1 : 0;
  }
  int sync_or(int predicate, SourceLocation loc = SourceLocation::current()) { return sync_count(predicate, loc) != 0 ? 1 : 0; }
  void fence(SourceLocation loc = SourceLocation::current()) { r_.simt_fence(loc); }
  void fence_block(SourceLocation loc = SourceLocation::current()) { r_.simt_fence(loc, false); }
  unsigned active_mask(SourceLocation loc = SourceLocation::current()) {
    return r_.simt_active_mask(loc);
  }
  template <class... Ints>
  void caption(const char* format, Ints... values) {
    const CaptionNumbers n = caption_numbers(values...);
    r_.simt_caption(format, n.values.data(), n.count);
  }
#define SYNCSCOPE_SIMT_USING(op, name, name_sync, intrinsic, kind, arg, result, gives) SYNCSCOPE_SIMT_USING_##kind(name, name_sync)
#define SYNCSCOPE_SIMT_USING_Shuffle(name, name_sync) using WarpOps<SimtCtx>::name; using WarpOps<SimtCtx>::name_sync;
#define SYNCSCOPE_SIMT_USING_Vote SYNCSCOPE_SIMT_USING_Shuffle
#define SYNCSCOPE_SIMT_USING_Reduce SYNCSCOPE_SIMT_USING_Shuffle
#define SYNCSCOPE_SIMT_USING_Match SYNCSCOPE_SIMT_USING_Shuffle
#define SYNCSCOPE_SIMT_USING_Sync(name, name_sync) using WarpOps<SimtCtx>::name;
  SYNCSCOPE_WARP_OPERATIONS(SYNCSCOPE_SIMT_USING)
  using WarpOps<SimtCtx>::atomic_add;
  using WarpOps<SimtCtx>::atomic_min;
  using WarpOps<SimtCtx>::atomic_max;
  using WarpOps<SimtCtx>::atomic_exch;
  using WarpOps<SimtCtx>::atomic_cas;
  using WarpOps<SimtCtx>::atomic_load;
  using WarpOps<SimtCtx>::atomic_store;
  using WarpOps<SimtCtx>::atomic_load_pair;
  using WarpOps<SimtCtx>::atomic_store_pair;
  using WarpOps<SimtCtx>::load_vec4;
  using WarpOps<SimtCtx>::store_vec4;
  template <class T>
  ArrayView<Val<storage_t<T>>, SimtAccess> make_shared_array(int count, const char* name = nullptr) {
    using S = storage_t<T>;
    return ArrayView<Val<S>, SimtAccess>(&r_, &r_.simt_shared_array(dtype_of<S>(), count, name));
  }

  // Program positions that the kernel's own code reports, for a kernel compiled without coverage
  // (a translated .cu: translate/simt_positions.h numbers its branches, loops and joins in source
  // order). A position is the path of block numbers from the kernel down through its calls, 16 bits
  // a level, as if each call were inlined: a lane inside a call sorts after its caller's lanes that
  // have not reached the call and before those past it. Beyond four levels a call is not a level.
  void position(uint16_t block, const SourceLocation& site) {
    path_ = (path_ & ~below(depth_ - 1)) | uint64_t{block} << shift(depth_);
    r_.simt_position(path_, site);
  }
  // Its destructor reports the return without a line: the report may not throw (out of time, the
  // lane leaves through the fault guard's landing, as from a coverage callback), and says nothing
  // while an exception unwinds the call (a lane switch then would mix the lanes' exceptions).
  struct Call {
    SimtCtx* c;
    int unwinding = std::uncaught_exceptions();
    ~Call() {
      if (std::uncaught_exceptions() == unwinding) c->returned();
    }
  };
  [[nodiscard]] Call call(uint16_t block, const SourceLocation& site) {
    if (depth_ == kLevels - 1) {
      ++flat_calls_;
    } else {
      ++depth_;
      position(block, site);
    }
    return {this};
  }

 private:
  static constexpr int kLevels = 4;
  static constexpr int shift(int level) { return 16 * (kLevels - 1 - level); }
  // The bits of the levels deeper than `level`.
  static constexpr uint64_t below(int level) { return level < 0 ? ~uint64_t{0} : (uint64_t{1} << shift(level)) - 1; }
  // Back in the caller, past the call: after every block of the callee, before the caller's next.
  void returned() {
    if (flat_calls_ > 0) {
      --flat_calls_;
      return;
    }
    path_ |= below(depth_ - 1);
    --depth_;
    r_.simt_basic_block(path_);
  }
  uint64_t path_ = 0;
  int depth_ = 0;
  int flat_calls_ = 0;

  friend class WarpOps<SimtCtx>;
  [[gnu::always_inline]] CellValue warp(const WarpCall& call, const SourceLocation& loc) {
    return r_.simt_warp_call(call, loc);
  }
};

// The contract (contract/kernel_context.h): the simulator's contexts offer every call a kernel may make.
static_assert(KernelContext<SimCtx>, "SimCtx must offer every call of contract/kernel_context.h");
static_assert(KernelContext<SimtCtx>, "SimtCtx must offer every call of contract/kernel_context.h");

}  // namespace syncscope::sim
