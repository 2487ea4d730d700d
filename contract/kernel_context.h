// What a kernel may call, as code: every execution context a kernel is compiled with — the
// simulator's SimCtx and its SIMT twin's SimtCtx (sim/sim_ctx.h), the GPU's DeviceCtx
// (core/cuda/device_ctx.cuh) — is checked against this concept with a static_assert, so the three
// cannot drift apart. The warp operations come from their table (contract/warp_ops.h).
#pragma once

#include <concepts>
#include <utility>

#include "contract/kernel_api.h"
#include "contract/warp_ops.h"

namespace syncscope {
namespace contract_detail {

// The array a context makes for `shared_array<T>(c, count)`.
template <class C, class T>
using shared_array_t = decltype(std::declval<C&>().template make_shared_array<T>(1, "name"));

}  // namespace contract_detail

// A warp operation's calls, by its kind (contract/warp_ops.h): V is a value of the kernel's type.
#define SYNCSCOPE_REQUIRE_WARP(op, name, name_sync, intrinsic, kind, arg, result, gives) SYNCSCOPE_REQUIRE_WARP_##kind(name, name_sync)
#define SYNCSCOPE_REQUIRE_WARP_Shuffle(name, name_sync) \
  { c.name(v, i) } -> std::same_as<V>;                  \
  { c.name_sync(mask, v, i) } -> std::same_as<V>;       \
  { c.name_sync(mask, v, i, i) } -> std::same_as<V>;
#define SYNCSCOPE_REQUIRE_WARP_Vote(name, name_sync) \
  { c.name(pred) } -> std::convertible_to<unsigned>;   \
  { c.name_sync(mask, pred) } -> std::convertible_to<unsigned>;
#define SYNCSCOPE_REQUIRE_WARP_Sync(name, name_sync) \
  c.name();                                            \
  c.name(mask);
#define SYNCSCOPE_REQUIRE_WARP_Match(name, name_sync) \
  { c.name(v) } -> std::same_as<unsigned>;              \
  { c.name_sync(mask, v) } -> std::same_as<unsigned>;
#define SYNCSCOPE_REQUIRE_WARP_Reduce(name, name_sync)  // whole numbers only: KernelContext asks for them

// Everything a kernel may do with one of the context's arrays (Array) and its values.
// (V is Array's value type.)
template <class C, class Array, class V>
concept KernelContextOver = requires(C& c, const C& k, Array a, V v, Pair<V> p, Vec4<V> q, unsigned mask, bool pred,
                                     int i) {
  // Where the thread is: CUDA's threadIdx, blockIdx, blockDim, gridDim.
  { k.thread_idx() } -> std::same_as<Dim3>;
  { k.block_idx() } -> std::same_as<Dim3>;
  { k.block_dim() } -> std::same_as<Dim3>;
  { k.grid_dim() } -> std::same_as<Dim3>;
  // __syncthreads, __threadfence, __nanosleep, __activemask; the step view's caption.
  c.sync();
  c.fence();
  c.nanosleep(mask);
  { c.active_mask() } -> std::convertible_to<unsigned>;
  c.caption("offset %d", i);
  // Arrays: read, write, size.
  { a.size() } -> std::convertible_to<int>;
  a[i] = v;
  { static_cast<V>(a[i]) } -> std::same_as<V>;
  // Warp operations, one row of contract/warp_ops.h each.
  SYNCSCOPE_WARP_OPERATIONS(SYNCSCOPE_REQUIRE_WARP)
  // Atomics on a cell, 8-byte pairs and 16-byte vectors.
  { c.atomic_add(a[i], v) } -> std::same_as<V>;
  { c.atomic_min(a[i], v) } -> std::same_as<V>;
  { c.atomic_max(a[i], v) } -> std::same_as<V>;
  { c.atomic_exch(a[i], v) } -> std::same_as<V>;
  { c.atomic_cas(a[i], v, v) } -> std::same_as<V>;
  { c.atomic_load(a[i]) } -> std::same_as<V>;
  c.atomic_store(a[i], v);
  { c.atomic_load_pair(a, i) } -> std::same_as<Pair<V>>;
  c.atomic_store_pair(a, i, p);
  { c.load_vec4(a, i) } -> std::same_as<Vec4<V>>;
  c.store_vec4(a, i, q);
};

// Warp reductions take whole numbers (__reduce_add_sync has no float form).
#define SYNCSCOPE_REQUIRE_WHOLE_Reduce(name, name_sync) \
  { c.name(n) } -> std::same_as<N>;                     \
  { c.name_sync(mask, n) } -> std::same_as<N>;
#define SYNCSCOPE_REQUIRE_WHOLE_Shuffle(name, name_sync)
#define SYNCSCOPE_REQUIRE_WHOLE_Vote(name, name_sync)
#define SYNCSCOPE_REQUIRE_WHOLE_Sync(name, name_sync)
#define SYNCSCOPE_REQUIRE_WHOLE_Match(name, name_sync)
#define SYNCSCOPE_REQUIRE_WHOLE(op, name, name_sync, intrinsic, kind, arg, result, gives) SYNCSCOPE_REQUIRE_WHOLE_##kind(name, name_sync)

template <class C, class N>
concept WholeNumberWarpOps = requires(C& c, N n, unsigned mask) {
  SYNCSCOPE_WARP_OPERATIONS(SYNCSCOPE_REQUIRE_WHOLE)
  // A loaded value turned into an index (a histogram's bin): `int(v)`, for both element types.
  { static_cast<int>(n) } -> std::same_as<int>;
  { n % n } -> std::same_as<N>;
  { n & n } -> std::same_as<N>;
};

// An execution context a kernel can be compiled with, for float and int elements.
template <class C, class FloatArray = contract_detail::shared_array_t<C, float>,
          class IntArray = contract_detail::shared_array_t<C, int>>
constexpr bool is_kernel_context = KernelContextOver<C, FloatArray, value_of<FloatArray>> &&
                                   KernelContextOver<C, IntArray, value_of<IntArray>> &&
                                   WholeNumberWarpOps<C, value_of<IntArray>> &&
                                   requires(value_of<FloatArray> x) {
                                     { static_cast<int>(x) } -> std::same_as<int>;
                                   };
template <class C>
concept KernelContext = is_kernel_context<C>;

}  // namespace syncscope
