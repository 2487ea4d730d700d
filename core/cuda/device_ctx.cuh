// The execution context a kernel sees when nvcc compiles it: each call is the CUDA built-in of the
// same name, so the GPU runs exactly the source the simulator replays.
#pragma once

#include <cuda/atomic>
#include <cuda_runtime.h>

#include <type_traits>

#include "contract/kernel_api.h"

namespace syncscope::cuda {

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
  __device__ __forceinline__ void sync_warp() const { __syncwarp(warp_mask()); }
  __device__ __forceinline__ void sync_warp(unsigned mask) const { __syncwarp(mask); }

  template <class T>
  __device__ __forceinline__ T shfl_up(T v, int delta) const { return __shfl_up_sync(warp_mask(), v, delta); }
  template <class T>
  __device__ __forceinline__ T shfl_down(T v, int delta) const { return __shfl_down_sync(warp_mask(), v, delta); }
  template <class T>
  __device__ __forceinline__ T shfl_idx(T v, int lane) const { return __shfl_sync(warp_mask(), v, lane); }
  template <class T>
  __device__ __forceinline__ T shfl_xor(T v, int mask) const { return __shfl_xor_sync(warp_mask(), v, mask); }
  template <class T>
  __device__ __forceinline__ T shfl_up_sync(unsigned mask, T v, int delta, int width = kWarpSize) const {
    return __shfl_up_sync(mask, v, delta, width);
  }
  template <class T>
  __device__ __forceinline__ T shfl_down_sync(unsigned mask, T v, int delta, int width = kWarpSize) const {
    return __shfl_down_sync(mask, v, delta, width);
  }
  template <class T>
  __device__ __forceinline__ T shfl_sync(unsigned mask, T v, int lane, int width = kWarpSize) const {
    return __shfl_sync(mask, v, lane, width);
  }
  template <class T>
  __device__ __forceinline__ T shfl_xor_sync(unsigned mask, T v, int lane_mask, int width = kWarpSize) const {
    return __shfl_xor_sync(mask, v, lane_mask, width);
  }

  __device__ __forceinline__ unsigned ballot(bool pred) const { return __ballot_sync(warp_mask(), pred); }
  __device__ __forceinline__ int any(bool pred) const { return __any_sync(warp_mask(), pred); }
  __device__ __forceinline__ int all(bool pred) const { return __all_sync(warp_mask(), pred); }
  __device__ __forceinline__ unsigned ballot_sync(unsigned mask, bool pred) const { return __ballot_sync(mask, pred); }
  __device__ __forceinline__ int any_sync(unsigned mask, bool pred) const { return __any_sync(mask, pred); }
  __device__ __forceinline__ int all_sync(unsigned mask, bool pred) const { return __all_sync(mask, pred); }

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

template <class Kernel, class... Args>
__global__ void run_kernel(Kernel kernel, Args... args) {
  DeviceCtx c;
  kernel(c, args...);
}

}  // namespace syncscope::cuda
