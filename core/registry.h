// Algorithms as the simulator runs them, looked up by name. Built from a compile-time list
// (kernels/algorithms.h for the product; tests build their own from the same template).
#pragma once

#include <algorithm>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/algorithm.h"
#include "sim/simulator.h"
#include "sim/sim_runtime.h"
#include "sim/trace.h"

namespace syncscope {

// What one simulated run leaves: the trace, the result, and global memory at the end.
// A program's copy from the device to the host (cudaMemcpy, DeviceToHost): the GPU's copies are
// compared with the simulator's, in order and byte for byte (core/cuda_program_gpu.h).
struct HostCopy {
  int32_t line = 0;          // the cudaMemcpy's line in the program's file
  std::string array;         // the device array copied from (its cudaMalloc's variable)
  uint32_t element_size = 4;
  std::vector<uint8_t> bytes;
};

struct SimOutcome {
  sim::Trace trace;
  int output_array = -1;  // Trace::arrays index of the buffer holding the result
  std::vector<uint32_t> output_bits;
  std::vector<uint8_t> output_poison;
  std::vector<sim::ArraySnapshot> globals_final;
  std::vector<HostCopy> host_copies;  // a .cu program's; none for an algorithm
};

// Functions rather than function pointers: a kernel file's entry calls its worker process
// (core/worker/kernel_worker.h), and the functions carry which one.
struct AlgorithmEntry {
  AlgoInfo info;
  std::function<CheckResult(const Problem&)> check;
  // A kernel file's reference may throw (its worker died): the run then fails with that message.
  std::function<std::vector<double>(const Problem&, const std::vector<double>&)> reference;
  std::function<SimOutcome(const Problem&, const std::vector<double>& input, const sim::SimOptions&)> simulate;
  std::function<int(const Problem&)> first_launch_blocks;  // the grid its host code launches first
};

template <class Algorithm>
int first_launch_blocks(const Problem& p) {
  sim::LaunchShapeRuntime<int32_t> rt;
  Algorithm::run(rt, p);
  return rt.first_grid_blocks;
}

// What a run does that does not depend on the algorithm: a simulator with `options`, `run` on it
// (one algorithm with one dtype: simulate_as below), then global memory at the end and the trace.
using TypedRun = void (*)(sim::Simulator&, SimOutcome&, const Problem&, const std::vector<double>& input);
SimOutcome simulate_typed(const Problem& p, const std::vector<double>& input, const sim::SimOptions& options, TypedRun run);

// `Algorithm`'s host code on a runtime of values of type T (float or int32_t), and its output. A
// function of its own per dtype: a kernel file compiles the two in two units side by side.
template <class Algorithm, class T>
void simulate_as(sim::Simulator& simulator, SimOutcome& out, const Problem& p, const std::vector<double>& input) {
  sim::SimRuntime<T> rt(simulator, input);
  Algorithm::run(rt, p);
  sim::ArrayStore& result = simulator.global(rt.output().id);
  out.output_array = result.id;
  const auto count = static_cast<size_t>(rt.output_count());
  if (!simulator.options().global_memory && count == result.bits.size()) {
    // Nothing reads the simulator's memory after this (no copies of it are asked for): take the
    // output's buffers rather than copy them, at the moment the run holds the most memory.
    out.output_bits = std::move(result.bits);
    out.output_poison = std::move(result.poison);
    return;
  }
  out.output_bits.assign(result.bits.begin(), result.bits.begin() + count);
  out.output_poison.assign(result.poison.begin(), result.poison.begin() + count);
}

template <class Algorithm>
SimOutcome simulate_algorithm(const Problem& p, const std::vector<double>& input, const sim::SimOptions& options) {
  return simulate_typed(p, input, options,
                        p.dtype == DType::Float32 ? &simulate_as<Algorithm, float> : &simulate_as<Algorithm, int32_t>);
}

class Registry {
 public:
  template <template <class...> class List, class... Algorithm>
  static Registry of(List<Algorithm...>) {
    static_assert((ChecksProblems<Algorithm> && ...), "check(const Problem&) returns CheckResult (kernels/algorithm.h)");
    Registry r;
    (r.entries_.push_back({Algorithm::info(), &Algorithm::check, &Algorithm::reference,
                           &simulate_algorithm<Algorithm>, &first_launch_blocks<Algorithm>}),
     ...);
    return r;
  }
  const std::vector<AlgorithmEntry>& all() const { return entries_; }
  // A kernel loaded at run time joins the list; "" or why it cannot (its name is taken).
  std::string add(AlgorithmEntry entry) {
    if (find(entry.info.name))
      return "the kernel file's algorithm is named \"" + entry.info.name +
             "\", which is already an algorithm's (`syncscope list`): give it a name of its own in info()";
    entries_.push_back(std::move(entry));
    return "";
  }
  // The groups ("scans", "reductions", ...) in the order their first algorithm was listed.
  std::vector<std::string> groups() const {
    std::vector<std::string> out;
    for (const auto& e : entries_)
      if (std::find(out.begin(), out.end(), e.info.group) == out.end()) out.push_back(e.info.group);
    return out;
  }
  const AlgorithmEntry* find(std::string_view name) const {
    for (const auto& e : entries_)
      if (e.info.name == name) return &e;
    return nullptr;
  }

 private:
  std::vector<AlgorithmEntry> entries_;
};

// The algorithms of kernels/algorithms.h.
const Registry& builtin_registry();

}  // namespace syncscope
