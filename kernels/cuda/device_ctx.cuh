// The execution context a kernel sees when nvcc compiles it: each call is the CUDA built-in of the
// same name, so the GPU runs exactly the source the simulator replays.
#pragma once

#include <cuda_runtime.h>

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
  // For the simulator's step view (contract/kernel_api.h); nothing to do on the GPU.
  template <class... Ints>
  __device__ __forceinline__ void caption(const char*, Ints...) const {}
  __device__ __forceinline__ void sync_warp() const { __syncwarp(warp_mask()); }

  template <class T>
  __device__ __forceinline__ T shfl_up(T v, int delta) const { return __shfl_up_sync(warp_mask(), v, delta); }
  template <class T>
  __device__ __forceinline__ T shfl_down(T v, int delta) const { return __shfl_down_sync(warp_mask(), v, delta); }
  template <class T>
  __device__ __forceinline__ T shfl_idx(T v, int lane) const { return __shfl_sync(warp_mask(), v, lane); }
  template <class T>
  __device__ __forceinline__ T shfl_xor(T v, int mask) const { return __shfl_xor_sync(warp_mask(), v, mask); }

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
