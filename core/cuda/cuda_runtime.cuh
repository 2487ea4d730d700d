// The GPU's side of single-source host orchestration (see sim/sim_runtime.h for the simulator's):
// the same allocate / launch / set_output calls, backed by cudaMalloc and <<<>>> launches.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "core/cuda/device_ctx.cuh"

namespace syncscope::cuda {

struct CudaFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

inline void check(cudaError_t e, const std::string& what) {
  if (e != cudaSuccess) throw CudaFailure(what + ": " + cudaGetErrorString(e));
}

template <class T>  // float or int32_t
class CudaRuntime {
 public:
  using scalar = T;
  struct Buffer {
    T* ptr = nullptr;
    int size = 0;
  };

  explicit CudaRuntime(const std::vector<T>& input) {
    input_ = alloc("input", static_cast<int>(input.size()));
    check(cudaMemcpy(input_.ptr, input.data(), input.size() * sizeof(T), cudaMemcpyHostToDevice), "copy input");
  }
  // For timing one algorithm many times (core/cuda/perf_runner.cu): the input is already on the
  // device (not owned), and an allocation asked for again by name returns the same memory,
  // untouched, so a timed run measures only the algorithm's launches (and its own memsets).
  struct ReuseAllocations {};
  CudaRuntime(T* device_input, int count, ReuseAllocations) : reuse_(true) { input_ = {device_input, count}; }
  ~CudaRuntime() {
    for (void* p : allocations_) cudaFree(p);
  }
  CudaRuntime(const CudaRuntime&) = delete;
  CudaRuntime& operator=(const CudaRuntime&) = delete;

  Buffer input() const { return input_; }

  // Device memory as cudaMalloc gives it, uninitialized, but filled with 0xFF bytes (NaN, -1): a
  // kernel that reads memory nothing wrote shows it in its output, instead of finding the correct
  // values a previous run left at the same address.
  Buffer alloc(const std::string& name, int count) {
    if (std::optional<Buffer> b = kept(name, count)) return *b;
    void* p = nullptr;
    const size_t bytes = static_cast<size_t>(count > 0 ? count : 1) * sizeof(T);
    check(cudaMalloc(&p, bytes), "cudaMalloc " + name);
    allocations_.push_back(p);
    check(cudaMemset(p, 0xff, bytes), "cudaMemset " + name);
    if (reuse_) reused_[name] = {static_cast<T*>(p), count};
    return {static_cast<T*>(p), count};
  }

  Buffer alloc_zeroed(const std::string& name, int count) {
    Buffer b = alloc(name, count);
    check(cudaMemsetAsync(b.ptr, 0, static_cast<size_t>(count > 0 ? count : 1) * sizeof(T)), "cudaMemset " + name);
    return b;
  }

  // Zeroed when first allocated; asked for again by name (a timed run after the first), as the last
  // run left it. For a kernel that leaves it ready for the next run itself (the reduction's ticket
  // counter, the scan's tile counter and run-stamped tile states), so a timed run has no memset.
  Buffer alloc_zeroed_once(const std::string& name, int count) {
    if (std::optional<Buffer> b = kept(name, count)) return *b;
    return alloc_zeroed(name, count);
  }

  template <class Kernel, class... Args>
  void launch(const std::string& label, Kernel kernel, Dim3 grid, Dim3 block, int shared_bytes, Args... args) {
    run_kernel<<<dim3(grid.x, grid.y, grid.z), dim3(block.x, block.y, block.z), shared_bytes>>>(kernel,
                                                                                                bind(args)...);
    check(cudaGetLastError(), "launch " + label);
    ++launches_;
  }

  void set_output(Buffer b, int count) {
    output_ = b;
    output_count_ = count;
  }

  // Waits for the GPU and returns the result's bits.
  std::vector<uint32_t> read_output() {
    check(cudaDeviceSynchronize(), "kernel execution");
    std::vector<T> host(output_count_);
    check(cudaMemcpy(host.data(), output_.ptr, host.size() * sizeof(T), cudaMemcpyDeviceToHost), "copy output");
    std::vector<uint32_t> bits(host.size());
    std::memcpy(bits.data(), host.data(), host.size() * sizeof(T));
    return bits;
  }
  int launches() const { return launches_; }
  Buffer output() const { return output_; }
  int output_count() const { return output_count_; }

 private:
  // With ReuseAllocations, the memory an earlier run got by this name, as that run left it.
  std::optional<Buffer> kept(const std::string& name, int count) const {
    if (!reuse_) return std::nullopt;
    auto it = reused_.find(name);
    if (it == reused_.end() || it->second.size < count) return std::nullopt;
    return Buffer{it->second.ptr, count};
  }

  template <class A>
  static auto bind(const A& arg) {
    if constexpr (std::is_same_v<A, Buffer>) return DeviceArray<T>{arg.ptr, arg.size};
    else return arg;
  }

  Buffer input_;
  Buffer output_;
  int output_count_ = 0;
  int launches_ = 0;
  std::vector<void*> allocations_;
  bool reuse_ = false;
  std::map<std::string, Buffer> reused_;
};

}  // namespace syncscope::cuda
