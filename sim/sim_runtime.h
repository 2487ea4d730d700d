// The simulator's side of single-source host orchestration. An algorithm's host code is a template
// over a runtime; it allocates buffers, launches kernels and names its output the same way on
// SimRuntime (here) and CudaRuntime (core/cuda/cuda_runtime.cuh).
#pragma once

#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "sim/memory.h"
#include "sim/sim_ctx.h"
#include "sim/simt.h"
#include "sim/simulator.h"

namespace syncscope::sim {

// A global array as host code holds it.
struct SimBuffer {
  int id = -1;
  int size = 0;
};

// One launch: the kernel object and its arguments as the host code passed them (buffers unbound:
// each simulated thread binds them to views of its own block runner).
template <class T, class Kernel, class... Args>
struct LaunchClosure {
  Simulator* sim;
  Kernel kernel;
  std::tuple<Args...> args;
};

template <class T, class Access, class A>
[[gnu::always_inline]] inline auto bind_argument(Simulator& sim, SimCtx& c, const A& arg) {
  if constexpr (std::is_same_v<A, SimBuffer>) return ArrayView<Val<T>, Access>(&c.runner(), &sim.global(arg.id));
  else return arg;
}

// Whether the kernel can be called with the launch's arguments as a thread of it sees them (a
// buffer as an array): checked at the launch, so that a mismatch is one sentence at the student's
// launch line, not a page of errors inside the simulator.
template <class T, class Access, class Ctx, class Kernel, class... Args>
inline constexpr bool kernel_takes_v =
    std::is_invocable_v<Kernel&, Ctx&,
                        decltype(bind_argument<T, Access>(std::declval<Simulator&>(), std::declval<SimCtx&>(),
                                                          std::declval<const Args&>()))...>;
#define SYNCSCOPE_LAUNCH_MISMATCH                                                                             \
  "the kernel cannot be called with this launch's arguments: after the context, the kernel's parameters " \
  "must match the arguments after the shared-memory bytes, in number and in type (a buffer arrives as an " \
  "array, a number as its own type)"

template <class Ctx, class Access, class T, class Kernel, class... Args>
[[gnu::always_inline]] inline void run_closure(void* closure, SimCtx& c) {
  auto& k = *static_cast<LaunchClosure<T, Kernel, Args...>*>(closure);
  Ctx& ctx = static_cast<Ctx&>(c);
  std::apply([&](const Args&... a) { k.kernel(ctx, bind_argument<T, Access>(*k.sim, c, a)...); }, k.args);
}

template <class T, class Kernel, class... Args>
void run_plain(void* closure, BlockRunner& runner, int thread) {
  SimCtx c(runner, thread);
  run_closure<SimCtx, PlainAccess, T, Kernel, Args...>(closure, c);
}

// Flattened: the whole kernel is one function, so the addresses of its basic blocks follow the
// source and compare as program positions.
template <class T, class Kernel, class... Args>
[[gnu::flatten]] void run_simt(void* closure, BlockRunner& runner, int thread) {
  SimtCtx c(runner, thread);
  run_closure<SimtCtx, SimtAccess, T, Kernel, Args...>(closure, c);
}

template <class T, class Kernel, class... Args>
struct SimtTwin {
  static inline const bool registered =
      (register_simt_twin(typeid(LaunchClosure<T, Kernel, Args...>), &run_simt<T, Kernel, Args...>), true);
};

template <class T>  // float or int32_t: what the GPU stores
class SimRuntime {
 public:
  using scalar = T;
  using Buffer = SimBuffer;

  // The input's values as T (a double converts exactly to what the device holds: run.cpp rounds
  // float32 input), written straight into the global array: no typed copy of a 2^24-element input.
  template <class Value>
  SimRuntime(Simulator& sim, const std::vector<Value>& input) : sim_(sim) {
    input_ = {sim.alloc_global("input", dtype_of<T>(), static_cast<int>(input.size()), false),
              static_cast<int>(input.size())};
    ArrayStore& a = sim.global(input_.id);
    for (size_t k = 0; k < input.size(); ++k) a.bits[k] = to_bits(static_cast<T>(input[k]));
  }

  Buffer input() const { return input_; }

  // Device memory as cudaMalloc gives it: uninitialized (poison).
  Buffer alloc(std::string name, int count) {
    return {sim_.alloc_global(std::move(name), dtype_of<T>(), count, true), count};
  }
  // cudaMalloc then cudaMemset to 0: what an atomic accumulator starts from.
  Buffer alloc_zeroed(std::string name, int count) {
    return {sim_.alloc_global(std::move(name), dtype_of<T>(), count, false), count};
  }
  // Zeroed when first allocated (core/cuda/cuda_runtime.cuh keeps it from one timed run to the
  // next); every simulated run starts from fresh memory, so here it is alloc_zeroed.
  Buffer alloc_zeroed_once(std::string name, int count) { return alloc_zeroed(std::move(name), count); }

  template <class Kernel, class... Args>
  void launch(std::string label, Kernel kernel, Dim3 grid, Dim3 block, int shared_bytes, Args... args) {
    constexpr bool fits = kernel_takes_v<T, PlainAccess, SimCtx, Kernel, Args...>;
    static_assert(fits, SYNCSCOPE_LAUNCH_MISMATCH);
    if constexpr (fits) {
      using Closure = LaunchClosure<T, Kernel, Args...>;
      Closure closure{&sim_, kernel, std::tuple<Args...>(args...)};
      sim_.launch(std::move(label), grid, block, shared_bytes, &run_plain<T, Kernel, Args...>,
                  find_simt_twin(typeid(Closure)), &closure);
    }
  }

  // The algorithm's result: the first `count` elements of `b`.
  void set_output(Buffer b, int count) {
    output_ = b;
    output_count_ = count;
  }
  Buffer output() const { return output_; }
  int output_count() const { return output_count_; }

 private:
  Simulator& sim_;
  Buffer input_;
  Buffer output_;
  int output_count_ = 0;
};

// What host code needs besides launch, for runtimes that only look at the host code's launches:
// buffers are handles with no memory behind them.
template <class T>
class HostCodeOnlyRuntime {
 public:
  using scalar = T;
  using Buffer = SimBuffer;
  Buffer input() const { return {}; }
  Buffer alloc(const std::string&, int count) { return {-1, count}; }
  Buffer alloc_zeroed(const std::string&, int count) { return {-1, count}; }
  Buffer alloc_zeroed_once(const std::string&, int count) { return {-1, count}; }
  void set_output(Buffer, int) {}
};

// Host code instantiated with this runtime is never run: its launches only register their SIMT
// twins. Use it in the instrumented unit (see sim/simt.h).
template <class T>
class SimtTwinRuntime : public HostCodeOnlyRuntime<T> {
 public:
  template <class Kernel, class... Args>
  void launch(const std::string&, Kernel, Dim3, Dim3, int, Args...) {
    constexpr bool fits = kernel_takes_v<T, PlainAccess, SimCtx, Kernel, Args...>;
    static_assert(fits, SYNCSCOPE_LAUNCH_MISMATCH);
    if constexpr (fits) (void)SimtTwin<T, Kernel, Args...>::registered;
  }
};

// Host code run with this runtime launches nothing: it only notes the first launch's grid, so the
// block count a run will have is known before simulating (RunConfig::blocks, `--block` checks).
template <class T>
class LaunchShapeRuntime : public HostCodeOnlyRuntime<T> {
 public:
  template <class Kernel, class... Args>
  void launch(const std::string&, Kernel, Dim3 grid, Dim3, int, Args...) {
    if (first_grid_blocks < 0) first_grid_blocks = grid.count();
  }
  int first_grid_blocks = -1;  // -1: the host code launched nothing
};

}  // namespace syncscope::sim
