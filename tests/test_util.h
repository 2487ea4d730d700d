// Helpers for tests that run small kernels of their own through the simulator.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <random>
#include <string>

#include <gtest/gtest.h>
#include <vector>

#include "core/registry.h"
#include "core/run.h"
#include "sim/sim_runtime.h"
#include "sim/simulator.h"

namespace syncscope::test {

struct KernelRun {
  sim::Trace trace;
  std::vector<float> out;
  std::vector<uint8_t> poison;
  int parallel_launches = 0;
  int rolled_back = 0;
};

// Runs `kernel(c, input, output, n)` over `grid` × `block` with float data (Elem: int for int32).
template <class Elem = float, class Kernel>
KernelRun run_kernel(Kernel kernel, Dim3 grid, Dim3 block, int shared_bytes, const std::vector<float>& input,
                     int out_count, sim::SimOptions options = {}) {
  sim::Simulator simulator(options);
  sim::SimRuntime<Elem> rt(simulator, std::vector<Elem>(input.begin(), input.end()));
  auto out = rt.alloc("out", out_count);
  rt.launch("test_kernel", kernel, grid, block, shared_bytes, rt.input(), out, static_cast<int>(input.size()));
  KernelRun r;
  const sim::ArrayStore& a = simulator.global(out.id);
  for (int i = 0; i < out_count; ++i) r.out.push_back(static_cast<float>(sim::from_bits<Elem>(a.bits[i])));
  r.poison = a.poison;
  r.parallel_launches = simulator.parallel_launches();
  r.rolled_back = simulator.rolled_back_launches();
  r.trace = simulator.take_trace();
  return r;
}

#ifdef SYNCSCOPE_SOURCE_DIR
// A file of the repository the tests read (shipped scenarios): under $SYNCSCOPE_DATA_DIR where the
// tests run from a copy (the GPU machine), else in the source tree they were built from.
inline std::string data_path(const std::string& relative) {
  const char* moved = std::getenv("SYNCSCOPE_DATA_DIR");
  return std::string(moved && *moved ? moved : SYNCSCOPE_SOURCE_DIR) + "/" + relative;
}
#endif

#ifdef SYNCSCOPE_EXE
// The syncscope executable the tests start: where this build put it, or $SYNCSCOPE_EXE where the
// tests run from a copy (the GPU machine).
inline std::string syncscope_executable() {
  const char* moved = std::getenv("SYNCSCOPE_EXE");
  return moved && *moved ? moved : SYNCSCOPE_EXE;
}
#endif

inline std::vector<float> iota(int n) {
  std::vector<float> v(n);
  for (int i = 0; i < n; ++i) v[i] = static_cast<float>(i);
  return v;
}

// A run of a registered algorithm by its CLI options.
inline RunResult run_algorithm(RunOptions options, const Registry& registry = builtin_registry()) {
  auto resolved = resolve(registry, options);
  if (auto* e = std::get_if<ConfigError>(&resolved)) throw std::runtime_error(e->text());
  return simulate(std::get<RunConfig>(resolved));
}

// The values of one shared array of one block at the end of a step ("?" → NaN-free marker -1e30).
inline std::vector<std::string> shared_text(const RunResult& r, int launch, int block, int step, const std::string& name) {
  const sim::Trace& t = r.sim.trace;
  const sim::BlockTrace* b = t.launches.at(launch).find_block(block);
  if (!b) throw std::runtime_error("block not recorded");
  for (const auto& snap : b->steps.at(step).shared)
    if (t.arrays[snap.array].name == name) {
      std::vector<std::string> out;
      for (size_t i = 0; i < snap.bits.size(); ++i)
        out.push_back(format_value(t.arrays[snap.array].dtype, snap.bits[i], snap.poison[i]));
      return out;
    }
  throw std::runtime_error("no shared array " + name);
}

inline std::vector<std::string> output_text(const RunResult& r) {
  std::vector<std::string> out;
  for (size_t i = 0; i < r.sim.output_bits.size(); ++i)
    out.push_back(format_value(r.config.problem.dtype, r.sim.output_bits[i], r.sim.output_poison[i]));
  return out;
}

using Strings = std::vector<std::string>;

// Every built-in algorithm, so parameterized suites cover new ones without being edited.
inline std::vector<std::string> builtin_algorithm_names() {
  std::vector<std::string> names;
  for (const auto& e : builtin_registry().all()) names.push_back(e.info.name);
  return names;
}
inline std::string algorithm_test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param;
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

// A random configuration the algorithm accepts: log-uniform sizes up to max_n (many small cases,
// some with many blocks), any block size, both element types, every kind of input. Draws again
// until the algorithm's own check() takes it, so a new kernel with its own limits needs no entry here.
inline RunOptions random_options(const AlgorithmEntry& algo, std::mt19937& rng, double max_n, int max_rows = 40,
                                 int max_row_length = 300) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (int attempt = 0; attempt < 1000; ++attempt) {
    RunOptions o;
    o.algorithm = algo.info.name;
    o.n = static_cast<int>(std::exp(std::uniform_real_distribution<double>(0, std::log(max_n))(rng)));
    o.tpb = pick(0, 3) == 0 ? 1 << pick(0, 10) : pick(1, 1024);
    if (algo.info.two_dimensional) {
      o.rows = pick(1, max_rows);
      o.n = pick(1, max_row_length);
    }
    o.dtype = pick(0, 1) ? "float32" : "int32";
    const int kind = pick(0, 4);
    o.input = kind == 0 ? "iota" : kind == 1 ? "ones" : "random:" + std::to_string(pick(0, 1 << 30));
    Problem p = algo.info.defaults;
    p.n = *o.n;
    p.rows = o.rows.value_or(1);
    p.tpb = *o.tpb;
    if (!algo.check(p)) return o;
  }
  ADD_FAILURE() << algo.info.name << "'s check() refused 1000 random configurations in a row";
  return {.algorithm = algo.info.name};
}

}  // namespace syncscope::test
