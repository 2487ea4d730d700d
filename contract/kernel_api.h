// What a syncscope kernel may use. Kernels are written once, as function objects templated on an
// execution context, and compiled twice: by nvcc with DeviceCtx (core/cuda/device_ctx.cuh) and
// by g++ with the simulator's SimCtx (sim/sim_ctx.h). It lives below both kernels/ and sim/ (the
// contract between them), so keep it free of both.
#pragma once

#if defined(__CUDACC__)
#define SYNCSCOPE_DEVICE __device__ __forceinline__
#define SYNCSCOPE_HOST_DEVICE __host__ __device__
#else
#define SYNCSCOPE_DEVICE inline
#define SYNCSCOPE_HOST_DEVICE
#endif

namespace syncscope {

// blockIdx / threadIdx / blockDim / gridDim, as CUDA spells them.
struct Dim3 {
  int x = 1, y = 1, z = 1;
  constexpr int count() const { return x * y * z; }
};

inline constexpr int kWarpSize = 32;

// `auto s = shared_array<T>(c, count, "s");` — this block's shared array of `count` elements (the
// name is what the simulator's views call it). Every thread of the block gets the same array: the
// k-th call in each thread names the same storage. Its bytes come from the launch's dynamic shared
// memory size, as with CUDA's `extern __shared__`; each array starts 16-byte aligned.
template <class T, class Ctx>
SYNCSCOPE_DEVICE auto shared_array(Ctx& c, int count, const char* name = nullptr) {
  return c.template make_shared_array<T>(count, name);
}

// The same with the extent fixed at compile time: `auto totals = shared_array<T, 32>(c, "totals");`
// (CUDA's `__shared__ T totals[32]`). It is still carved from the launch's shared bytes.
template <class T, int Count, class Ctx>
SYNCSCOPE_DEVICE auto shared_array(Ctx& c, const char* name = nullptr) {
  static_assert(Count > 0 && Count * 4 <= 48 * 1024, "a block has at most 48 KiB of shared memory");
  return c.template make_shared_array<T>(Count, name);
}

// Shared bytes a launch must provide for arrays of these element counts (4-byte elements,
// 16-byte aligned starts) — what the host code passes as the launch's shared size.
SYNCSCOPE_HOST_DEVICE constexpr int shared_bytes_for(int count) { return (count * 4 + 15) / 16 * 16; }
template <class... Counts>
SYNCSCOPE_HOST_DEVICE constexpr int shared_bytes_for(int count, Counts... more) {
  return shared_bytes_for(count) + shared_bytes_for(more...);
}

// Every context also has `c.caption("offset = %d: t >= offset reads s[t - offset]", offset)`: the
// sentence the step view shows, in large text, for the step in which the kernel says it (the first
// caption of a step wins; %d takes whole-number arguments, at most 4). A no-op on the GPU.

// __popc: how many bits of a mask are set (a ballot's count of lanes).
SYNCSCOPE_HOST_DEVICE inline int popc(unsigned bits) {
#if defined(__CUDA_ARCH__)
  return __popc(bits);
#else
  return __builtin_popcount(bits);
#endif
}

// Four consecutive elements moved by one 16-byte access: `Vec4<T> v = c.load_vec4(x, i);` reads
// x[i..i+3] and `c.store_vec4(y, i, v)` writes them (CUDA's int4/float4 loads). On the GPU `i`
// must be a multiple of 4 (the access is 16-byte aligned); the simulator records four accesses.
template <class T>
struct alignas(16) Vec4 {
  T x, y, z, w;
};

// Two consecutive elements moved by one 8-byte atomic access: `c.atomic_store_pair(a, i, {s, v})`
// writes a[i] and a[i+1] so that `Pair<T> p = c.atomic_load_pair(a, i)` in another block sees both
// or neither (relaxed, device scope; CUDA has no 8-byte int/float pair, so it moves the bits as one
// unsigned long long). A flag and the value it announces travel together, with no fence between
// them. On the GPU `i` must be even (8-byte aligned); the simulator records two accesses that no
// other thread's access comes between.
template <class T>
struct alignas(8) Pair {
  T first, second;
};

// The element type a kernel computes with: float/int on the GPU, the simulator's tracked scalar on
// the CPU. Kernels write `using T = value_of<Array>;` and then use T like a plain number.
template <class Array>
using value_of = typename Array::value_type;

}  // namespace syncscope
