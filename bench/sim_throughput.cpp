// Simulator throughput: elements per second for whole simulated runs (input upload, every launch,
// trace detail for one block, final memory), as the CLI and the app run them. The target
// configuration is kogge-stone, n = 2^20, TPB = 1024, default schedule (lockstep).
//
//   build/bench/syncscope_bench --benchmark_filter=kogge
#include <benchmark/benchmark.h>

#include <string>
#include <thread>

#include "core/registry.h"
#include "core/run.h"

namespace {

using namespace syncscope;

void simulate_elements(benchmark::State& state, const std::string& algorithm, int n, int tpb, const std::string& schedule,
                       int threads) {
  RunOptions o;
  o.algorithm = algorithm;
  o.n = n;
  o.tpb = tpb;
  o.schedule = schedule;
  o.input = "random:1";
  const RunConfig c = std::get<RunConfig>(resolve(builtin_registry(), o));
  const std::vector<double> input = make_input(c);
  sim::SimOptions options;
  options.schedule = c.schedule;
  options.threads = threads;
  for (auto _ : state) {
    SimOutcome out = c.algorithm->simulate(c.problem, input, options);
    benchmark::DoNotOptimize(out.output_bits.data());
    if (out.trace.launches.front().blocks.size() != 1) state.SkipWithError("expected detail for one block");
  }
  state.counters["elements/s"] =
      benchmark::Counter(static_cast<double>(n) * state.iterations(), benchmark::Counter::kIsRate);
}

void register_all() {
  struct Case {
    const char* name;
    const char* algorithm;
    int n, tpb;
    const char* schedule;
    int threads;
  };
  const Case cases[] = {
      {"kogge-stone/n=2^20/tpb=1024/lockstep", "kogge-stone", 1 << 20, 1024, "lockstep", 0},
      {"kogge-stone/n=2^20/tpb=1024/lockstep/one-thread", "kogge-stone", 1 << 20, 1024, "lockstep", 1},
      {"kogge-stone/n=2^20/tpb=256/reverse", "kogge-stone", 1 << 20, 256, "reverse", 0},
      {"hierarchical-scan/n=2^20/tpb=256", "hierarchical-scan", 1 << 20, 256, "lockstep", 0},
      {"block-exclusive-sum/n=2^20/tpb=1024", "block-exclusive-sum", 1 << 20, 1024, "lockstep", 0},
      {"block-reduce/n=2^20/tpb=1024", "block-reduce", 1 << 20, 1024, "lockstep", 0},
  };
  for (const Case& k : cases)
    benchmark::RegisterBenchmark(k.name, [k](benchmark::State& s) {
      simulate_elements(s, k.algorithm, k.n, k.tpb, k.schedule, k.threads);
    })->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);
  // Issue 27's scaling from one thread to all of them, on the target configuration: where the curve
  // bends says how much of a run is not shared among the threads.
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  for (int threads = 2; threads <= cores; threads *= 2)
    benchmark::RegisterBenchmark(("kogge-stone/n=2^20/tpb=1024/lockstep/threads=" + std::to_string(threads)).c_str(),
                                 [threads](benchmark::State& s) {
                                   simulate_elements(s, "kogge-stone", 1 << 20, 1024, "lockstep", threads);
                                 })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->MinTime(2.0);
}

}  // namespace

int main(int argc, char** argv) {
  register_all();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
}
