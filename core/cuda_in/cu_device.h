// The device side of a translated .cu (translate/cuda_translator.h): the tracked pointer a kernel's
// `float*` becomes, the element reference `p[i]` gives, the block's shared arrays, CUDA's built-in
// variables and atomics. Every access goes through the simulator's context, so it is recorded with
// the student's line (the index converts to the context's At/SiteAt at the student's expression).
#pragma once

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <math.h>
#include <stdlib.h>
#include <type_traits>

#include "contract/kernel_api.h"
#include "sim/sim_ctx.h"

#define __global__
#define __constant__
#define __device__
#define __host__
#define __forceinline__ inline
#define __noinline__
#define __launch_bounds__(...)
#define __align__(n) __attribute__((aligned(n)))

struct uint3 {
  unsigned int x, y, z;
};
struct dim3 {
  unsigned int x, y, z;
  constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}  // NOLINT: as CUDA's
};
inline constexpr int warpSize = 32;
#include "core/cuda_in/vector_types.h"
#include "core/cuda_in/cu_cells.h"

namespace syncscope::cu {

// A parameter type that does not take part in deduction: a kernel's context is deduced from `_c`.
template <class T>
using same = std::type_identity_t<T>;

template <class E, class Ctx>
class record_ref;
// The cells of one element a GPU loads or stores with one instruction (a double's two, a float4's
// four): recorded as one access (sim::Event::access_cells), for the bank conflicts of 8- and
// 16-byte accesses, which a GPU serves by half and quarter warps.
class WideAccess {
 public:
  [[gnu::always_inline]] WideAccess(sim::BlockRunner* runner, int cells) : runner_(runner) {
    if (runner_) runner_->begin_wide_access(cells);
  }
  [[gnu::always_inline]] ~WideAccess() {
    if (runner_) runner_->end_wide_access();
  }
  WideAccess(const WideAccess&) = delete;
  WideAccess& operator=(const WideAccess&) = delete;

 private:
  sim::BlockRunner* runner_;
};

template <class Ctx>
using access_t = std::conditional_t<std::is_base_of_v<sim::SimtCtx, Ctx>, sim::SimtAccess, sim::PlainAccess>;

template <class E, class Ctx>
class ptr;

// One element of a simulated array, as `p[i]` gives it: reading it loads (an event with the line of
// `p[i]`), assigning stores.
template <class E, class Ctx>
class ref {
  using Access = access_t<Ctx>;
  using Index = typename Access::Index;
  using C = cell_t<E>;

 public:
  using value_type = std::remove_cv_t<E>;
  [[gnu::always_inline]] ref(sim::BlockRunner* r, sim::ArrayStore* a, const Index& at) : runner_(r), array_(a), at_(at) {}

  [[gnu::always_inline]] operator value_type() const {  // NOLINT: like E&
    if constexpr (kCells == 2) {
      const WideAccess one(runner_, 2);  // one 8-byte load on a GPU
      const uint32_t low = load_cell(0);
      return from_cells(low | uint64_t{load_cell(1)} << 32);
    } else {
      return static_cast<value_type>(Access::template load<C>(runner_, *array_, at_).v);
    }
  }
  [[gnu::always_inline]] ref& operator=(value_type v) {
    if constexpr (kCells == 2) {
      const WideAccess one(runner_, 2);
      const uint64_t bits = to_cells(v);
      store_cell(0, static_cast<uint32_t>(bits));
      store_cell(1, static_cast<uint32_t>(bits >> 32));
    } else {
      Access::template store<C>(runner_, *array_, at_, sim::Val<C>(static_cast<C>(v)));
    }
    return *this;
  }
  ref& operator=(const ref& other) { return *this = static_cast<value_type>(other); }
  template <class U> ref& operator+=(const U& u) { return *this = static_cast<value_type>(value() + u); }
  template <class U> ref& operator-=(const U& u) { return *this = static_cast<value_type>(value() - u); }
  template <class U> ref& operator*=(const U& u) { return *this = static_cast<value_type>(value() * u); }
  template <class U> ref& operator/=(const U& u) { return *this = static_cast<value_type>(value() / u); }
  template <class U> ref& operator%=(const U& u) { return *this = static_cast<value_type>(value() % u); }
  template <class U> ref& operator&=(const U& u) { return *this = static_cast<value_type>(value() & u); }
  template <class U> ref& operator|=(const U& u) { return *this = static_cast<value_type>(value() | u); }
  template <class U> ref& operator^=(const U& u) { return *this = static_cast<value_type>(value() ^ u); }
  template <class U> ref& operator<<=(const U& u) { return *this = static_cast<value_type>(value() << u); }
  template <class U> ref& operator>>=(const U& u) { return *this = static_cast<value_type>(value() >> u); }
  ref& operator++() { return *this += 1; }
  ref& operator--() { return *this -= 1; }
  value_type operator++(int) {
    const value_type old = value();
    *this = static_cast<value_type>(old + 1);
    return old;
  }
  value_type operator--(int) {
    const value_type old = value();
    *this = static_cast<value_type>(old - 1);
    return old;
  }
  ptr<E, Ctx> operator&() const { return ptr<E, Ctx>(runner_, array_, at_.index); }
  // The same element, its accesses from here on at `where` (cu::here).
  [[gnu::always_inline]] ref at(const sim::SourceLocation& where) const { return ref(runner_, array_, Index(at_.index, where)); }

  // One atomic read-modify-write of this element; the value it held. The simulator computes it on
  // the cell where its cells hold the type (an int, a float in a float array); anything else (8-byte
  // values, an unsigned atomicMin, a float field of a struct) is computed here on the C type.
  value_type atomic(sim::AtomicOp op, value_type operand, value_type compare = value_type()) const {
    if constexpr (kCells == 1) {
      const bool bitwise = op == sim::AtomicOp::Exch || op == sim::AtomicOp::Cas;
      const bool ordered = op == sim::AtomicOp::Min || op == sim::AtomicOp::Max;
      if (bitwise || (array_->dtype == sim::dtype_of<C>() && !(ordered && std::is_unsigned_v<value_type>))) {
        const sim::CellValue old = Access::atomic(runner_, *array_, at_, op, {sim::to_bits(static_cast<C>(operand)), false},
                                                  {sim::to_bits(static_cast<C>(compare)), false});
        return static_cast<value_type>(sim::from_bits<C>(old.bits));
      }
    }
    return update(op, [op, operand, compare](value_type old) { return atomic_result(op, old, operand, compare); });
  }
  // The atomic read-modify-write `next(old)` of this element, one access per cell (labelled `shown`);
  // the value it held.
  template <class F>
  value_type update(sim::AtomicOp shown, const F& next) const {
    const sim::BlockRunner::AtomicUpdate apply = [](uint64_t old, const void* state) {
      return to_cells((*static_cast<const F*>(state))(from_cells(old)));
    };
    std::array<sim::CellValue, 2> old;
    if constexpr (std::is_same_v<Access, sim::SimtAccess>)
      old = runner_->simt_atomic_update(*array_, at_.index, kCells, shown, apply, &next, at_.site);
    else
      old = runner_->atomic_update(*array_, at_.index, kCells, shown, apply, &next, at_.line);
    return from_cells(old[0].bits | (kCells == 2 ? uint64_t{old[1].bits} << 32 : 0));
  }

 private:
  static constexpr int kCells = cells_of<E>;
  static_assert(kCells <= 2, "an element of a simulated array is a scalar of at most 8 bytes here (structs: record_ref)");
  // The element's bits as its cells hold them (low word first), and back.
  static uint64_t to_cells(value_type v) {
    if constexpr (kCells == 2) return std::bit_cast<uint64_t>(v);
    else return sim::to_bits(static_cast<C>(v));
  }
  static value_type from_cells(uint64_t bits) {
    if constexpr (kCells == 2) return std::bit_cast<value_type>(bits);
    else return static_cast<value_type>(sim::from_bits<C>(static_cast<uint32_t>(bits)));
  }
  uint32_t load_cell(int k) const {
    Index at = at_;
    at.index += k;
    return sim::to_bits(Access::template load<int32_t>(runner_, *array_, at).v);
  }
  void store_cell(int k, uint32_t bits) const {
    Index at = at_;
    at.index += k;
    Access::template store<int32_t>(runner_, *array_, at, sim::Val<int32_t>(sim::from_bits<int32_t>(bits)));
  }
  // What CUDA's atomic `op` stores, computed on the C type as the GPU does.
  static value_type atomic_result(sim::AtomicOp op, value_type old, value_type operand, value_type compare) {
    switch (op) {
      case sim::AtomicOp::Add:
        if constexpr (std::is_same_v<value_type, float>) {
          // atom.add.f32 flushes subnormal inputs and results to sign-preserving zero (PTX ISA); f64 does not.
          auto flush = [](float f) { return std::fpclassify(f) == FP_SUBNORMAL ? std::copysign(0.0f, f) : f; };
          return flush(flush(old) + flush(operand));
        } else if constexpr (std::is_integral_v<value_type> && !std::is_same_v<value_type, bool>) {
          using U = std::make_unsigned_t<value_type>;
          return static_cast<value_type>(static_cast<U>(static_cast<U>(old) + static_cast<U>(operand)));  // wraps
        } else {
          return static_cast<value_type>(old + operand);
        }
      case sim::AtomicOp::Min: return operand < old ? operand : old;
      case sim::AtomicOp::Max: return old < operand ? operand : old;
      case sim::AtomicOp::Exch: return operand;
      case sim::AtomicOp::Cas: return to_cells(old) == to_cells(compare) ? operand : old;  // bit for bit
      case sim::AtomicOp::None: break;
    }
    return old;
  }
  value_type value() const { return static_cast<value_type>(*this); }
  sim::BlockRunner* runner_;
  sim::ArrayStore* array_;
  Index at_;
};

// What a student's `float& a` in device code binds to (the translator writes `place_of<float> auto&& a`):
// a thread's own float, or an element of a shared or global array as its ref, whose reads and writes
// through `a` are the element's, as on a GPU.
template <class R>
struct is_element_ref : std::false_type {};
template <class E, class Ctx>
struct is_element_ref<ref<E, Ctx>> : std::true_type {};
template <class R, class E>
concept place_of = std::is_same_v<R, E&> ||
                   (is_element_ref<std::remove_cvref_t<R>>::value &&
                    std::is_same_v<typename std::remove_cvref_t<R>::value_type, std::remove_cv_t<E>>);
// A use of such a reference (`a = b;` in `swap(float& a, float& b)`): an element's accesses are at the
// line of the use, as a GPU's are, not at the line that bound it; a thread's own variable is itself.
template <class R>
[[gnu::always_inline]] decltype(auto) here(R&& r, sim::SourceLocation where = sim::SourceLocation::current()) {
  if constexpr (is_element_ref<std::remove_cvref_t<R>>::value) return r.at(where);
  else return static_cast<R&&>(r);
}

// An element read as its value where C++ would otherwise convert the ref to another side's type
// (`i < n ? in[i] : 0` is a float on a GPU; the translator writes `read(in[i])`).
template <class A>
[[gnu::always_inline]] decltype(auto) read(A&& a) {
  if constexpr (is_element_ref<std::remove_cvref_t<A>>::value) return static_cast<typename std::remove_cvref_t<A>::value_type>(a);
  else return static_cast<A&&>(a);
}

// A template's `T&` parameter (`SyncscopeRef0&& a` once translated): T is the element's type.
template <class R>
struct value_of {
  using type = std::remove_cvref_t<R>;
};
template <class E, class Ctx>
struct value_of<ref<E, Ctx>> {
  using type = std::remove_cv_t<E>;
};
template <class R>
using value_of_t = typename value_of<std::remove_cvref_t<R>>::type;

// `nullptr` passed to a kernel: a pointer to nothing that knows its thread, so its use fails at its line.
struct null_pointer_argument {
  sim::BlockRunner* runner;
};

// A kernel's pointer into a shared or global array: an array and an element offset.
template <class E, class Ctx>
class ptr {
  using Access = access_t<Ctx>;
  using Index = typename Access::Index;

 public:
  using element_type = E;
  ptr() = default;
  ptr(std::nullptr_t) {}  // NOLINT
  ptr(null_pointer_argument null) : runner(null.runner) {}  // NOLINT
  ptr(sim::BlockRunner* r, sim::ArrayStore* a, int offset) : runner(r), array(a), offset(offset) {}
  template <class F>
    requires(std::is_same_v<std::remove_cv_t<F>, std::remove_cv_t<E>> && !std::is_same_v<F, E>)
  ptr(const ptr<F, Ctx>& other) : runner(other.runner), array(other.array), offset(other.offset) {}  // NOLINT
  // `(unsigned long long *)p`, `(int *)f`: the same cells read as another type of the same size
  // (the translator turns such a cast into this one).
  template <class F>
    requires(!std::is_same_v<std::remove_cv_t<F>, std::remove_cv_t<E>> && sizeof(F) == sizeof(E) && cells_of<F> == cells_of<E>)
  explicit ptr(const ptr<F, Ctx>& other) : runner(other.runner), array(other.array), offset(other.offset) {}
  // `reinterpret_cast<float4 *>(in)` over an array of floats (and back, and int2 over ints): the same
  // cells in elements of another width, the vectorized loads of performance code. On a GPU the
  // element must start at its alignment (a float4 at 16 bytes): an access elsewhere faults
  // (misaligned_element), as the load does there; making the pointer does not.
  template <class F>
    requires(!std::is_same_v<std::remove_cv_t<F>, std::remove_cv_t<E>> && sizeof(F) != sizeof(E) &&
             (is_record_v<E> || is_record_v<F>) && cells_of<E> * 4 == sizeof(E) && cells_of<F> * 4 == sizeof(F))
  explicit ptr(const ptr<F, Ctx>& other) : runner(other.runner), array(other.array), offset(other.offset) {}
  static constexpr int kCellBytes = is_byte_vector_v<E> ? 1 : 4;
  static constexpr int kAlignCells = is_record_v<E> && alignof(E) > static_cast<size_t>(kCellBytes)
                                         ? static_cast<int>(alignof(E)) / kCellBytes
                                         : 1;
  // `(unsigned char *)rgba` over an array of uchar4 and back: a byte vector's cells are its bytes.
  template <class F>
    requires((sizeof(E) == 1 && is_byte_vector_v<F>) || (is_byte_vector_v<E> && sizeof(F) == 1))
  explicit ptr(const ptr<F, Ctx>& other, sim::SourceLocation where = sim::SourceLocation::current())
      : runner(other.runner), array(other.array), offset(other.offset) {
    if (other.byte_view && array) [[unlikely]]  // bytes of 4-byte cells: a pixel there is not simulated
      runner->pointer_fault(sim::LineTable::intern(where), "took the bytes of " + array->name + " for " + std::to_string(sizeof(E)) +
                                                               "-byte vectors", "not simulated: declare the array with the type it holds");
  }
  // `(char *)img` into an array of 4-byte (or wider) elements counts bytes, so the Programming
  // Guide's pitched rows work: (float *)((char *)img + r * pitch). Such a pointer moves and is cast
  // back; reading a float's bytes one at a time is not simulated (the cells are 4 bytes).
  template <class F>
    requires(sizeof(E) == 1 && sizeof(F) >= 4 && !is_byte_vector_v<F>)
  explicit ptr(const ptr<F, Ctx>& other) : runner(other.runner), array(other.array), offset(other.offset * 4), byte_view(true) {}
  // ... and back, at a byte its alignment allows (a float3 may start at any 4 bytes; a float4, at 16).
  template <class F>
    requires(sizeof(F) == 1 && sizeof(E) >= 4 && !is_byte_vector_v<E>)
  explicit ptr(const ptr<F, Ctx>& other, sim::SourceLocation where = sim::SourceLocation::current())
      : runner(other.runner), array(other.array), offset(other.offset / 4) {
    if (!array) return;
    if (!other.byte_view) [[unlikely]]
      runner->pointer_fault(sim::LineTable::intern(where), "took a char array for " + std::to_string(sizeof(E)) + "-byte elements",
                            "not simulated: declare the array with the type it holds");
    if (other.offset % static_cast<int>(alignof(E) < 4 ? 4 : alignof(E)) != 0) [[unlikely]]
      runner->pointer_fault(sim::LineTable::intern(where),
                            "made a pointer to " + std::to_string(sizeof(E)) + "-byte elements at byte " +
                                std::to_string(other.offset) + " of " + array->name,
                            "a misaligned address on a GPU");
  }

  using reference = std::conditional_t<is_record_v<E>, record_ref<E, Ctx>, ref<E, Ctx>>;
  [[gnu::always_inline]] reference operator[](Index at) const {
    if (!array && runner) [[unlikely]] null_element(at);
    if constexpr (kAlignCells > 1)
      if (offset % kAlignCells != 0 && array) [[unlikely]] misaligned_element(at);
    if constexpr (sizeof(E) == 1)
      if (byte_view) [[unlikely]] bytes_element(at);
    if constexpr (cells_of<E> == 1) at.index += offset;
    else at.index = offset + at.index * cells_of<E>;
    return reference(runner, array, at);
  }
  // The element `k` past this one, with the caller's line (atomics take a pointer).
  reference at(int k, const sim::SourceLocation& loc) const {
    if (!array && runner) [[unlikely]] null_element(Index(k, loc));
    if constexpr (kAlignCells > 1)
      if (offset % kAlignCells != 0 && array) [[unlikely]] misaligned_element(Index(k, loc));
    if constexpr (sizeof(E) == 1)
      if (byte_view) [[unlikely]] bytes_element(Index(k, loc));
    return reference(runner, array, Index(offset + k * cells_of<E>, loc));
  }
  [[noreturn, gnu::noinline]] void null_element(const Index& at) const {
    if constexpr (std::is_same_v<Index, sim::At>) runner->null_pointer(at.line);
    else runner->null_pointer(sim::LineTable::intern(at.site));
  }
  [[noreturn, gnu::noinline]] void misaligned_element(const Index& at) const {
    sim::LineId line = sim::kNoLine;
    if constexpr (std::is_same_v<Index, sim::At>) line = at.line;
    else line = sim::LineTable::intern(at.site);
    runner->pointer_fault(line, "accessed a " + std::to_string(sizeof(E)) + "-byte element at byte " + std::to_string(offset * kCellBytes) +
                                    " of " + array->name, "a misaligned address on a GPU");
  }
  [[noreturn, gnu::noinline]] void bytes_element(const Index& at) const {
    sim::LineId line = sim::kNoLine;
    if constexpr (std::is_same_v<Index, sim::At>) line = at.line;
    else line = sim::LineTable::intern(at.site);
    runner->pointer_fault(line, "read the bytes of " + array->name + " through a char pointer",
                          "not simulated: syncscope's cells are 4 bytes; cast the pointer back to the array's own type first");
  }

  ptr operator+(long long k) const {
    ptr moved = *this;
    moved.offset += static_cast<int>(k) * cells_of<E>;
    return moved;
  }
  friend ptr operator+(long long k, const ptr& p) { return p + k; }
  ptr operator-(long long k) const { return *this + -k; }
  long long operator-(const ptr& other) const { return (offset - other.offset) / cells_of<E>; }
  ptr& operator+=(long long k) { return *this = *this + k; }
  ptr& operator-=(long long k) { return *this = *this - k; }
  ptr& operator++() { return *this += 1; }
  ptr& operator--() { return *this -= 1; }
  ptr operator++(int) { ptr old = *this; ++*this; return old; }
  ptr operator--(int) { ptr old = *this; --*this; return old; }
  explicit operator bool() const { return array != nullptr; }
  friend bool operator==(const ptr& a, const ptr& b) { return a.array == b.array && a.offset == b.offset; }
  friend bool operator!=(const ptr& a, const ptr& b) { return !(a == b); }
  friend bool operator<(const ptr& a, const ptr& b) { return a.offset < b.offset; }

  sim::BlockRunner* runner = nullptr;
  sim::ArrayStore* array = nullptr;
  int offset = 0;
  bool byte_view = false;  // a char pointer made from a wider one: `offset` counts bytes of 4-byte cells
};

// One struct element of a simulated array, as `g[i]` gives it: `S s = g[i];` loads every field,
// `g[i] = s;` stores every field, and `g[i] ->* &S::field` (the translation of `g[i].field` and
// `g->field`) is that field's element, with the line of `g[i]`.
template <class S, class Ctx>
class record_ref {
  using Access = access_t<Ctx>;
  using Index = typename Access::Index;
  static constexpr int kCells = cells_of<S>;
  // A whole struct moves in accesses of its alignment (a float4, alignas(16): one 16-byte access; a
  // struct of doubles: 8-byte ones; a struct of floats: one 4-byte access per field).
  static constexpr int kVector = is_byte_vector_v<S> ? static_cast<int>(alignof(S))  // a uchar4: one 4-byte access
                                 : alignof(S) >= 16  ? 4
                                 : alignof(S) >= 8   ? 2
                                                     : 1;
  // What one cell holds of the struct: 4 of its bytes, or a byte vector's one-byte field.
  using CellBits = std::conditional_t<is_byte_vector_v<S>, byte_field_t<S>, uint32_t>;
  using Cells = std::array<CellBits, kCells>;
  static_assert(sizeof(S) == sizeof(Cells) && std::is_trivially_copyable_v<S>, "a struct of 4- and 8-byte fields, no padding");

 public:
  using value_type = std::remove_cv_t<S>;
  [[gnu::always_inline]] record_ref(sim::BlockRunner* r, sim::ArrayStore* a, const Index& at) : runner_(r), array_(a), at_(at) {}

  operator value_type() const {  // NOLINT: like S&
    Cells cells;
    for (int k = 0; k < kCells; k += kVector) {
      const WideAccess one(kVector > 1 ? runner_ : nullptr, kVector);
      for (int j = k; j < k + kVector; ++j)
        cells[j] = static_cast<CellBits>(sim::to_bits(Access::template load<int32_t>(runner_, *array_, cell(j)).v));
    }
    return std::bit_cast<value_type>(cells);
  }
  record_ref& operator=(const value_type& v) {
    const Cells cells = std::bit_cast<Cells>(v);
    for (int k = 0; k < kCells; k += kVector) {
      const WideAccess one(kVector > 1 ? runner_ : nullptr, kVector);
      for (int j = k; j < k + kVector; ++j)
        Access::template store<int32_t>(runner_, *array_, cell(j), sim::Val<int32_t>(static_cast<int32_t>(cells[j])));
    }
    return *this;
  }
  record_ref& operator=(const record_ref& other) { return *this = static_cast<value_type>(other); }
  ptr<S, Ctx> operator&() const { return ptr<S, Ctx>(runner_, array_, at_.index); }

  template <class F>
  auto operator->*(F value_type::*field) const {
    using Field = std::conditional_t<std::is_const_v<S>, const F, F>;
    using Ref = std::conditional_t<is_record_v<F>, record_ref<Field, Ctx>, ref<Field, Ctx>>;
    return Ref(runner_, array_, cell(offset_of(field) / static_cast<int>(sizeof(CellBits))));
  }

 private:
  Index cell(int k) const {
    Index at = at_;
    at.index += k;
    return at;
  }
  template <class F>
  static int offset_of(F value_type::*field) {
    alignas(value_type) static const unsigned char storage[sizeof(value_type)] = {};
    const auto* object = reinterpret_cast<const value_type*>(storage);
    return static_cast<int>(reinterpret_cast<const unsigned char*>(&(object->*field)) - storage);
  }
  sim::BlockRunner* runner_;
  sim::ArrayStore* array_;
  Index at_;
};

// A `__constant__` variable in device code (the translator wraps every use): read-only, as on the
// GPU, so a kernel that writes one fails to compile at its line. It lives in host memory; reads are
// not memory events (nothing races on memory no thread can write).
template <class T>
[[gnu::always_inline]] inline const T& constant_memory(const T& symbol) {
  return symbol;
}

// `__shared__ E name[N][M]`: rows of a 1D array; `tile[r][c]` is element r * M + c.
template <class E, class Ctx>
struct rows {
  ptr<E, Ctx> first;
  int columns;
  [[gnu::always_inline]] ptr<E, Ctx> operator[](int row) const { return first + static_cast<long long>(row) * columns; }
};
// A 3D shared array (`__shared__ float box[4][8][8]`): `box[z]` is plane z, a 2D array of its rows.
template <class E, class Ctx>
struct planes {
  ptr<E, Ctx> first;
  int rows_per_plane;
  int columns;
  [[gnu::always_inline]] rows<E, Ctx> operator[](int plane) const {
    return {first + static_cast<long long>(plane) * rows_per_plane * columns, columns};
  }
};

// Where a translated kernel declares a shared array (sim::BlockRunner::shared_array's site): its
// line and column, so a `__shared__` inside a loop is one array in every iteration.
inline uint64_t declaration_site(const sim::SourceLocation& where) {
  return uint64_t{sim::LineTable::intern(where)} << 32 | where.column();
}

template <class E, class Ctx>
sim::ArrayStore* declare_shared_at(Ctx& c, int count, const char* name, uint64_t site, int columns = 0, int plane_rows = 0) {
  const DType dtype = cells_dtype<E>;
  if constexpr (std::is_base_of_v<sim::SimtCtx, Ctx>)
    return &c.runner().simt_shared_array(dtype, count, name, columns, site, plane_rows, cells_layout<E>);
  else return &c.runner().shared_array(dtype, count, name, columns, site, plane_rows, cells_layout<E>);
}
template <class E, class Ctx>
sim::ArrayStore* declare_shared(Ctx& c, int count, const char* name, const sim::SourceLocation& where, int columns = 0,
                                int plane_rows = 0) {
  return declare_shared_at<E>(c, count, name, declaration_site(where), columns, plane_rows);
}

template <class E, int N, class Ctx>
ptr<E, Ctx> shared_array(Ctx& c, const char* name, sim::SourceLocation where = sim::SourceLocation::current()) {
  return ptr<E, Ctx>(&c.runner(), declare_shared<E>(c, N * cells_of<E>, name, where), 0);
}
template <class E, int R, int C, class Ctx>
rows<E, Ctx> shared_array2d(Ctx& c, const char* name, sim::SourceLocation where = sim::SourceLocation::current()) {
  return {ptr<E, Ctx>(&c.runner(), declare_shared<E>(c, R * C * cells_of<E>, name, where, C * cells_of<E>), 0), C};
}
// Its cells are drawn as D × R rows of C, plane after plane.
template <class E, int D, int R, int C, class Ctx>
planes<E, Ctx> shared_array3d(Ctx& c, const char* name, sim::SourceLocation where = sim::SourceLocation::current()) {
  return {ptr<E, Ctx>(&c.runner(), declare_shared<E>(c, D * R * C * cells_of<E>, name, where, C * cells_of<E>, R), 0), R, C};
}

// The launch's dynamic shared bytes (`<<<grid, block, bytes>>>`), for `extern __shared__ E name[]`.
inline int launch_dynamic_shared_bytes = 0;
// Every such declaration of a kernel, in it or in a helper it calls (GPU Gems 3's n-body tile), is
// the same bytes on a GPU: one array here, whatever line declares it.
inline constexpr uint64_t kDynamicSharedSite = sim::BlockRunner::kDynamicSharedSite;
template <class E, class Ctx>
ptr<E, Ctx> extern_shared(Ctx& c, const char* name) {
  const int count = launch_dynamic_shared_bytes / static_cast<int>(sizeof(E));
  return ptr<E, Ctx>(&c.runner(), declare_shared_at<E>(c, count * cells_of<E>, name, kDynamicSharedSite), 0);
}
// One of bytes the kernel casts to wider elements (`extern __shared__ unsigned char smem[]` and
// `reinterpret_cast<T *>(smem)`, as the CUDA samples write it; the translator looks for the cast)
// is the bytes of 4-byte cells: its pointer counts bytes (ptr::byte_view).
template <class E, class Ctx>
ptr<E, Ctx> extern_shared_bytes(Ctx& c, const char* name) {
  static_assert(sizeof(E) == 1);
  ptr<E, Ctx> bytes(&c.runner(), declare_shared_at<int>(c, (launch_dynamic_shared_bytes + 3) / 4, name, kDynamicSharedSite), 0);
  bytes.byte_view = true;
  return bytes;
}

// CUDA's built-in variables are unsigned (uint3, dim3): so is every index computed from them.
inline uint3 unsigned_dims(const Dim3& d) {
  return {static_cast<unsigned>(d.x), static_cast<unsigned>(d.y), static_cast<unsigned>(d.z)};
}
template <class Ctx> uint3 thread_idx(const Ctx& c) { return unsigned_dims(c.thread_idx()); }
template <class Ctx> uint3 block_idx(const Ctx& c) { return unsigned_dims(c.block_idx()); }
template <class Ctx> dim3 block_dim(const Ctx& c) { return unsigned_dims(c.block_dim()); }
template <class Ctx> dim3 grid_dim(const Ctx& c) { return unsigned_dims(c.grid_dim()); }

// A value as printf takes it: an element reference is read.
template <class A> auto printable(const A& a) { return a; }
template <class E, class Ctx> auto printable(const ref<E, Ctx>& r) { return static_cast<std::remove_cv_t<E>>(r); }

// Device printf (the translator passes the call's place): the simulator keeps what each thread
// printed in the trace, with its step and line, and prints the launch's output when it ends, as a
// GPU prints its printf buffer at the next synchronization.
template <class Ctx, class... A>
int device_printf(Ctx& c, const sim::SourceLocation& where, const char* format, const A&... args) {
  if constexpr (std::is_base_of_v<sim::SimtCtx, Ctx>) return c.runner().simt_print(where, format, printable(args)...);
  else return c.runner().print(sim::LineTable::intern(where), format, printable(args)...);
}

template <class A> struct plain_of { using type = A; };
template <class E, class Ctx> struct plain_of<ref<E, Ctx>> { using type = std::remove_cv_t<E>; };

}  // namespace syncscope::cu

// CUDA's min and max, for any mix of numbers and elements (std::min wants one type).
template <class A, class B>
auto min(const A& a, const B& b) {
  using T = std::common_type_t<typename syncscope::cu::plain_of<A>::type, typename syncscope::cu::plain_of<B>::type>;
  const T x = static_cast<T>(a), y = static_cast<T>(b);
  return y < x ? y : x;
}
template <class A, class B>
auto max(const A& a, const B& b) {
  using T = std::common_type_t<typename syncscope::cu::plain_of<A>::type, typename syncscope::cu::plain_of<B>::type>;
  const T x = static_cast<T>(a), y = static_cast<T>(b);
  return x < y ? y : x;
}
#include "core/cuda_in/cu_intrinsics.h"

// Atomics on a shared or global element; each is one access with the caller's line.
namespace syncscope::cu {
template <class E> using plain_t = std::type_identity_t<std::remove_cv_t<E>>;
// An atomic whose operation the simulator has no single access for: a compare-and-swap loop,
// as CUDA's own documentation writes atomicMax for doubles.
template <class E, class Ctx, class F>
std::remove_cv_t<E> atomic_by_cas(const ptr<E, Ctx>& p, const sim::SourceLocation& loc, F next) {
  using V = std::remove_cv_t<E>;
  ref<E, Ctx> cell = p.at(0, loc);
  if constexpr (cells_of<E> == 2) return cell.update(sim::AtomicOp::Cas, next);  // one access per cell
  V old = cell.atomic(sim::AtomicOp::Cas, V(0), V(0));
  for (;;) {
    const V assumed = old;
    old = cell.atomic(sim::AtomicOp::Cas, next(assumed), assumed);
    if (old == assumed) return old;
  }
}
}  // namespace syncscope::cu

#define SYNCSCOPE_CU_ATOMIC(name, op)                                                                       \
  template <class E, class Ctx>                                                                            \
  std::remove_cv_t<E> name(syncscope::cu::ptr<E, Ctx> p, syncscope::cu::plain_t<E> v,                      \
                           syncscope::sim::SourceLocation loc = syncscope::sim::SourceLocation::current()) {                               \
    return p.at(0, loc).atomic(syncscope::sim::AtomicOp::op, v);                                           \
  }
SYNCSCOPE_CU_ATOMIC(atomicAdd, Add)
SYNCSCOPE_CU_ATOMIC(atomicExch, Exch)
SYNCSCOPE_CU_ATOMIC(atomicMin, Min)
SYNCSCOPE_CU_ATOMIC(atomicMax, Max)
#undef SYNCSCOPE_CU_ATOMIC
template <class E, class Ctx>
std::remove_cv_t<E> atomicSub(syncscope::cu::ptr<E, Ctx> p, syncscope::cu::plain_t<E> v, syncscope::sim::SourceLocation loc = syncscope::sim::SourceLocation::current()) {
  return p.at(0, loc).atomic(syncscope::sim::AtomicOp::Add, static_cast<std::remove_cv_t<E>>(0 - v));
}
template <class E, class Ctx>
std::remove_cv_t<E> atomicCAS(syncscope::cu::ptr<E, Ctx> p, syncscope::cu::plain_t<E> compare, syncscope::cu::plain_t<E> v,
                              syncscope::sim::SourceLocation loc = syncscope::sim::SourceLocation::current()) {
  return p.at(0, loc).atomic(syncscope::sim::AtomicOp::Cas, v, compare);
}
#define SYNCSCOPE_CU_CAS_ATOMIC(name, expression)                                                             \
  template <class E, class Ctx>                                                                              \
  std::remove_cv_t<E> name(syncscope::cu::ptr<E, Ctx> p, syncscope::cu::plain_t<E> v,                        \
                           syncscope::sim::SourceLocation loc = syncscope::sim::SourceLocation::current()) {                                 \
    using V = std::remove_cv_t<E>;                                                                           \
    return syncscope::cu::atomic_by_cas(p, loc, [v](V old) { return static_cast<V>(expression); });          \
  }
SYNCSCOPE_CU_CAS_ATOMIC(atomicAnd, old & v)
SYNCSCOPE_CU_CAS_ATOMIC(atomicOr, old | v)
SYNCSCOPE_CU_CAS_ATOMIC(atomicXor, old ^ v)
SYNCSCOPE_CU_CAS_ATOMIC(atomicInc, old >= v ? 0 : old + 1)
SYNCSCOPE_CU_CAS_ATOMIC(atomicDec, (old == 0 || old > v) ? v : old - 1)
#undef SYNCSCOPE_CU_CAS_ATOMIC

// ---- Shuffles of any value CUDA shuffles ----
// A 4-byte value is one shuffle; an 8-byte one (double, long long) two, its low word first, as
// CUDA's own headers split it; a smaller whole number goes as an int (CUDA's overloads promote it).
// The translator turns `__shfl_down_sync(m, v, d)` into `::syncscope::cu::shfl_down_sync(_c, m, v, d)`.
namespace syncscope::cu {
template <class V, class Shuffle>
auto shuffle_value(const V& value, Shuffle shuffle) {
  using T = typename plain_of<V>::type;
  const T v = static_cast<T>(value);
  if constexpr (sizeof(T) == 8) {
    const uint64_t bits = std::bit_cast<uint64_t>(v);
    const uint32_t low = sim::to_bits(shuffle(sim::from_bits<int32_t>(static_cast<uint32_t>(bits))));
    const uint32_t high = sim::to_bits(shuffle(sim::from_bits<int32_t>(static_cast<uint32_t>(bits >> 32))));
    return std::bit_cast<T>(low | uint64_t{high} << 32);
  } else if constexpr (std::is_integral_v<T> && sizeof(T) < 4) {
    return shuffle(static_cast<int>(v));
  } else {
    return shuffle(v);
  }
}
#define SYNCSCOPE_CU_SHUFFLE(name)                                                                         \
  template <class Ctx, class V>                                                                            \
  auto name(Ctx& c, unsigned mask, const V& value, int arg, int width = warpSize,                          \
            sim::SourceLocation loc = sim::SourceLocation::current()) {                                    \
    return shuffle_value(value, [&](auto v) { return c.name(mask, v, arg, width, loc); });                 \
  }
SYNCSCOPE_CU_SHUFFLE(shfl_sync)
SYNCSCOPE_CU_SHUFFLE(shfl_up_sync)
SYNCSCOPE_CU_SHUFFLE(shfl_down_sync)
SYNCSCOPE_CU_SHUFFLE(shfl_xor_sync)
#undef SYNCSCOPE_CU_SHUFFLE

// Program positions for SIMT lockstep: the translator numbers the branches, loops and joins of the
// student's kernels and __device__ functions in source order (translate/simt_positions.h). The
// twin (SimtCtx) reports each; the plain instantiation compiles them away.
template <class Ctx>
[[gnu::always_inline]] inline void simt_position(Ctx& c, uint16_t block, sim::SourceLocation loc = sim::SourceLocation::current()) {
  if constexpr (std::is_base_of_v<sim::SimtCtx, Ctx>) c.position(block, loc);
}
struct no_simt_call {};
template <class Ctx>
[[gnu::always_inline]] inline auto simt_call(Ctx& c, uint16_t block, sim::SourceLocation loc = sim::SourceLocation::current()) {
  if constexpr (std::is_base_of_v<sim::SimtCtx, Ctx>)
    return c.call(block, loc);
  else
    return no_simt_call{};
}

// Where the file calls its __device__ helpers (the translator lists them at the file's end, under its
// #line name, each call's file left ""): reports name a helper's line by its call.
inline bool note_calls(std::vector<sim::LineTable::Call> calls, const char* file = __builtin_FILE()) {
  for (sim::LineTable::Call& c : calls) c.file = file;
  sim::LineTable::set_calls(file, calls);
  return true;
}

// The translator turns a kernel's `return;` into `return ::syncscope::cu::kernel_return(_c);`: the
// simulator keeps the line, and a warp operation the lane then misses names it.
template <class Ctx>
void kernel_return(Ctx& c, sim::SourceLocation loc = sim::SourceLocation::current()) {
  if constexpr (requires { c.returning(loc); }) c.returning(loc);
}
}  // namespace syncscope::cu

// __ldg(p): a load through the read-only cache on the GPU; here the load of p[0], with its line.
template <class E, class Ctx>
std::remove_cv_t<E> __ldg(const syncscope::cu::ptr<E, Ctx>& p,
                          syncscope::sim::SourceLocation where = syncscope::sim::SourceLocation::current()) {
  return p.at(0, where);
}
