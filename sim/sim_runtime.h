// The simulator's side of single-source host orchestration. An algorithm's host code is a template
// over a runtime; it allocates buffers, launches kernels and names its output the same way on
// SimRuntime (here) and CudaRuntime (kernels/cuda/cuda_runtime.cuh).
#pragma once

#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "sim/memory.h"
#include "sim/sim_ctx.h"
#include "sim/simulator.h"

namespace syncscope::sim {

template <class T>  // float or int32_t: what the GPU stores
class SimRuntime {
 public:
  using scalar = T;
  struct Buffer {
    int id = -1;
    int size = 0;
  };

  SimRuntime(Simulator& sim, const std::vector<T>& input) : sim_(sim) {
    input_ = {sim.alloc_global("input", dtype_of<T>(), static_cast<int>(input.size()), false),
              static_cast<int>(input.size())};
    ArrayStore& a = sim.global(input_.id);
    for (size_t k = 0; k < input.size(); ++k) a.bits[k] = to_bits(input[k]);
  }

  Buffer input() const { return input_; }

  // Device memory as cudaMalloc gives it: uninitialized (poison).
  Buffer alloc(std::string name, int count) {
    return {sim_.alloc_global(std::move(name), dtype_of<T>(), count, true), count};
  }

  template <class Kernel, class... Args>
  void launch(std::string label, Kernel kernel, Dim3 grid, Dim3 block, int shared_bytes, Args... args) {
    auto per_thread = [&](SimCtx& c) { kernel(c, bind(c, args)...); };
    sim_.launch(std::move(label), grid, block, shared_bytes, per_thread);
  }

  // The algorithm's result: the first `count` elements of `b`.
  void set_output(Buffer b, int count) {
    output_ = b;
    output_count_ = count;
  }
  Buffer output() const { return output_; }
  int output_count() const { return output_count_; }

 private:
  template <class A>
  auto bind(SimCtx& c, const A& arg) {
    if constexpr (std::is_same_v<A, Buffer>) return ArrayView<Val<T>>(&c.runner(), &sim_.global(arg.id));
    else return arg;
  }

  Simulator& sim_;
  Buffer input_;
  Buffer output_;
  int output_count_ = 0;
};

}  // namespace syncscope::sim
