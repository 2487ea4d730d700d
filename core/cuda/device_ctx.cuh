// The execution context a kernel sees when nvcc compiles it: each call is the CUDA built-in of the
// same name, so the GPU runs exactly the source the simulator replays.
#pragma once

#include <cuda/atomic>
#include <cuda_runtime.h>

#include <type_traits>

#include "contract/kernel_api.h"
#include "contract/kernel_context.h"
#include "contract/warp_ops.h"

namespace syncscope::cuda {

// A vote's result: a lane mask (ballot) or a predicate (any, all).
template <WarpResult R>
using vote_t = std::conditional_t<R == WarpResult::Mask, unsigned, int>;

template <class T>
struct DeviceArray {
  using value_type = T;
  T* ptr = nullptr;
  int count = 0;
  __device__ __forceinline__ T& operator[](int i) const { return ptr[i]; }
  __device__ __forceinline__ int size() const { return count; }
};

class DeviceCtx {
 public:
  __device__ __forceinline__ Dim3 thread_idx() const {
    return {static_cast<int>(threadIdx.x), static_cast<int>(threadIdx.y), static_cast<int>(threadIdx.z)};
  }
  __device__ __forceinline__ Dim3 block_idx() const {
    return {static_cast<int>(blockIdx.x), static_cast<int>(blockIdx.y), static_cast<int>(blockIdx.z)};
  }
  __device__ __forceinline__ Dim3 block_dim() const {
    return {static_cast<int>(blockDim.x), static_cast<int>(blockDim.y), static_cast<int>(blockDim.z)};
  }
  __device__ __forceinline__ Dim3 grid_dim() const {
    return {static_cast<int>(gridDim.x), static_cast<int>(gridDim.y), static_cast<int>(gridDim.z)};
  }

  __device__ __forceinline__ void sync() const { __syncthreads(); }
  __device__ __forceinline__ void fence() const { __threadfence(); }
  __device__ __forceinline__ void nanosleep(unsigned ns) const { __nanosleep(ns); }
  __device__ __forceinline__ unsigned active_mask() const { return __activemask(); }
  // For the simulator's step view (contract/kernel_api.h); nothing to do on the GPU.
  template <class... Ints>
  __device__ __forceinline__ void caption(const char*, Ints...) const {}

  // The warp operations, one row of contract/warp_ops.h each: the CUDA intrinsic of the row, with
  // every lane of the warp the block has as the plain form's mask.
#define SYNCSCOPE_DEVICE_WARP_METHODS(op, name, name_sync, intrinsic, kind, arg, result, gives) \
  SYNCSCOPE_DEVICE_WARP_##kind(name, name_sync, intrinsic, arg, result)
#define SYNCSCOPE_DEVICE_WARP_Shuffle(name, name_sync, intrinsic, op, result)                                   \
  template <class T>                                                                                         \
  __device__ __forceinline__ T name(T v, int arg) const { return intrinsic(warp_mask(), v, arg); }           \
  template <class T>                                                                                         \
  __device__ __forceinline__ T name_sync(unsigned mask, T v, int arg, int width = kWarpSize) const {         \
    return intrinsic(mask, v, arg, width);                                                                   \
  }
#define SYNCSCOPE_DEVICE_WARP_Vote(name, name_sync, intrinsic, op, result)                                      \
  __device__ __forceinline__ vote_t<WarpResult::result> name(bool pred) const { return intrinsic(warp_mask(), pred); } \
  __device__ __forceinline__ vote_t<WarpResult::result> name_sync(unsigned mask, bool pred) const {          \
    return intrinsic(mask, pred);                                                                            \
  }
#define SYNCSCOPE_DEVICE_WARP_Sync(name, name_sync, intrinsic, op, result)                                      \
  __device__ __forceinline__ void name() const { intrinsic(warp_mask()); }                                   \
  __device__ __forceinline__ void name(unsigned mask) const { intrinsic(mask); }
#define SYNCSCOPE_DEVICE_WARP_Reduce(name, name_sync, intrinsic, op, result)                                    \
  template <class T>                                                                                         \
  __device__ __forceinline__ T name(T v) const { return name_sync(warp_mask(), v); }                         \
  template <class T>                                                                                         \
  __device__ __forceinline__ T name_sync(unsigned mask, T v) const {                                         \
    static_assert(std::is_integral_v<T> && sizeof(T) == 4, "warp reductions take 32-bit whole numbers");     \
    SYNCSCOPE_DEVICE_REDUCE(intrinsic, op, mask, v)                                                          \
  }
#define SYNCSCOPE_DEVICE_WARP_Match(name, name_sync, intrinsic, op, result)                                     \
  template <class T>                                                                                         \
  __device__ __forceinline__ unsigned name(T v) const { return intrinsic(warp_mask(), v); }                  \
  template <class T>                                                                                         \
  __device__ __forceinline__ unsigned name_sync(unsigned mask, T v) const { return intrinsic(mask, v); }
// __reduce_*_sync exists from sm_80; older targets (the build's compute_75 PTX) combine every lane
// of the mask through shuffles with the row's operator, which gives the same result.
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
#define SYNCSCOPE_DEVICE_REDUCE(intrinsic, op, mask, v) return intrinsic(mask, v);
#else
#define SYNCSCOPE_DEVICE_REDUCE(intrinsic, op, mask, v)                                                      \
  T all = __shfl_sync(mask, v, __ffs(mask) - 1);                                                             \
  for (unsigned m = mask & (mask - 1); m; m &= m - 1) all = op{}(all, __shfl_sync(mask, v, __ffs(m) - 1));   \
  return all;
#endif
  SYNCSCOPE_WARP_OPERATIONS(SYNCSCOPE_DEVICE_WARP_METHODS)

  // Atomics on a shared or global cell (`c.atomic_add(total[0], v)`). Floats have no atomicMin,
  // atomicMax or atomicCAS: a CAS loop on the bits with the simulator's comparisons stands in.
  template <class T>
  __device__ __forceinline__ T atomic_add(T& cell, std::type_identity_t<T> v) const { return atomicAdd(&cell, v); }
  template <class T>
  __device__ __forceinline__ T atomic_min(T& cell, std::type_identity_t<T> v) const {
    if constexpr (std::is_integral_v<T>) return atomicMin(&cell, v);
    else return cas_loop(cell, [v](T old) { return v < old ? v : old; });
  }
  template <class T>
  __device__ __forceinline__ T atomic_max(T& cell, std::type_identity_t<T> v) const {
    if constexpr (std::is_integral_v<T>) return atomicMax(&cell, v);
    else return cas_loop(cell, [v](T old) { return v > old ? v : old; });
  }
  template <class T>
  __device__ __forceinline__ T atomic_exch(T& cell, std::type_identity_t<T> v) const { return atomicExch(&cell, v); }
  template <class T>
  __device__ __forceinline__ T atomic_cas(T& cell, std::type_identity_t<T> compare, std::type_identity_t<T> v) const {
    int* bits = reinterpret_cast<int*>(&cell);
    const int old = atomicCAS(bits, bit_cast_int(compare), bit_cast_int(v));
    return bit_cast_from<T>(old);
  }

  template <class T>
  __device__ __forceinline__ Vec4<T> load_vec4(DeviceArray<T> a, int i) const {
    return *reinterpret_cast<const Vec4<T>*>(a.ptr + i);
  }
  template <class T>
  __device__ __forceinline__ void store_vec4(DeviceArray<T> a, int i, Vec4<T> v) const {
    *reinterpret_cast<Vec4<T>*>(a.ptr + i) = v;
  }

  // Relaxed atomic load and store (cuda::atomic_ref, device scope): publishing a value other blocks
  // poll, without a read-modify-write. Order them with fence().
  template <class T>
  __device__ __forceinline__ T atomic_load(T& cell) const {
    return ::cuda::atomic_ref<T, ::cuda::thread_scope_device>(cell).load(::cuda::memory_order_relaxed);
  }
  template <class T>
  __device__ __forceinline__ void atomic_store(T& cell, std::type_identity_t<T> v) const {
    ::cuda::atomic_ref<T, ::cuda::thread_scope_device>(cell).store(v, ::cuda::memory_order_relaxed);
  }

  // Both halves of a Pair in one 8-byte relaxed atomic (contract/kernel_api.h).
  template <class T>
  __device__ __forceinline__ Pair<T> atomic_load_pair(DeviceArray<T> a, int i) const {
    static_assert(sizeof(Pair<T>) == sizeof(unsigned long long), "pairs of 4-byte elements");
    const unsigned long long bits = ::cuda::atomic_ref<unsigned long long, ::cuda::thread_scope_device>(
                                        *reinterpret_cast<unsigned long long*>(a.ptr + i))
                                        .load(::cuda::memory_order_relaxed);
    Pair<T> p;
    memcpy(&p, &bits, sizeof p);
    return p;
  }
  template <class T>
  __device__ __forceinline__ void atomic_store_pair(DeviceArray<T> a, int i, Pair<std::type_identity_t<T>> p) const {
    static_assert(sizeof(Pair<T>) == sizeof(unsigned long long), "pairs of 4-byte elements");
    unsigned long long bits;
    memcpy(&bits, &p, sizeof bits);
    ::cuda::atomic_ref<unsigned long long, ::cuda::thread_scope_device>(*reinterpret_cast<unsigned long long*>(a.ptr + i))
        .store(bits, ::cuda::memory_order_relaxed);
  }

  // Carves the launch's dynamic shared memory into arrays, 16-byte aligned, in call order; every
  // thread makes the same calls, so every thread gets the same addresses.
  template <class T>
  __device__ __forceinline__ DeviceArray<T> make_shared_array(int count, const char* /*name*/ = nullptr) {
    extern __shared__ __align__(16) unsigned char syncscope_dynamic_shared[];
    T* p = reinterpret_cast<T*>(syncscope_dynamic_shared + shared_offset_);
    shared_offset_ += shared_bytes_for(count);
    return {p, count};
  }

 private:
  template <class T>
  __device__ __forceinline__ static int bit_cast_int(T v) {
    int b;
    memcpy(&b, &v, sizeof b);
    return b;
  }
  template <class T>
  __device__ __forceinline__ static T bit_cast_from(int b) {
    T v;
    memcpy(&v, &b, sizeof v);
    return v;
  }
  template <class T, class Update>
  __device__ __forceinline__ static T cas_loop(T& cell, Update update) {
    int* bits = reinterpret_cast<int*>(&cell);
    int old = atomicCAS(bits, 0, 0);  // an atomic read: a plain one would race with the other lanes' atomics
    for (;;) {
      const int wanted = bit_cast_int(update(bit_cast_from<T>(old)));
      if (wanted == old) return bit_cast_from<T>(old);
      const int seen = atomicCAS(bits, old, wanted);
      if (seen == old) return bit_cast_from<T>(old);
      old = seen;
    }
  }

  // Every lane of this thread's warp that the block has (the last warp may be partial) — the mask
  // the simulator's rendezvous waits for.
  __device__ __forceinline__ unsigned warp_mask() const {
    const int tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    const int threads = blockDim.x * blockDim.y * blockDim.z;
    const int lanes = min(kWarpSize, threads - tid / kWarpSize * kWarpSize);
    return lanes == kWarpSize ? 0xffffffffu : (1u << lanes) - 1;
  }

  int shared_offset_ = 0;
};

// The contract (contract/kernel_context.h): the GPU's context offers every call a kernel may make.
static_assert(KernelContext<DeviceCtx>, "DeviceCtx must offer every call of contract/kernel_context.h");

template <class Kernel, class... Args>
__global__ void run_kernel(Kernel kernel, Args... args) {
  DeviceCtx c;
  kernel(c, args...);
}

}  // namespace syncscope::cuda
