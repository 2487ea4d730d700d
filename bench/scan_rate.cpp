// Simulated elements per second of one configuration, best of a few runs, for comparisons with
// peers in scripts (bench/peer_oclgrind.sh). The race detector is always on.
//   syncscope_scan_rate ALGO N TPB [REPEATS]
//   syncscope_scan_rate --kernel FILE.h N TPB [REPEATS]
// With --kernel the algorithm is a kernel file's, simulated in `syncscope worker` as the app and the
// CLI run one (this executable is that worker too, as syncscope is): the time of each run then
// includes the request and the outcome crossing the pipe, not the worker's start or the compile.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <variant>

#include "core/kernel_file.h"
#include "core/registry.h"
#include "core/run.h"
#include "core/worker/worker_main.h"

int main(int argc, char** argv) {
  using namespace syncscope;
  if (argc == 2 && std::string(argv[1]) == "worker") return worker::kernel_worker_main();
  Registry registry = builtin_registry();
  std::string kernel_file;
  if (argc > 2 && std::string(argv[1]) == "--kernel") {
    kernel_file = argv[2];
    argv += 1;
    argc -= 1;
  }
  if (argc < 4) {
    std::fprintf(stderr, "usage: syncscope_scan_rate ALGO N TPB [REPEATS]\n"
                         "       syncscope_scan_rate --kernel FILE.h N TPB [REPEATS]\n");
    return 2;
  }
  RunOptions o;
  o.algorithm = argv[1];
  if (!kernel_file.empty()) {
    auto loaded = load_kernel_file(kernel_file);
    if (auto* e = std::get_if<KernelFileError>(&loaded)) {
      std::fprintf(stderr, "%s: %s\n", kernel_file.c_str(), e->message.c_str());
      return 2;
    }
    const AlgorithmEntry& entry = std::get<KernelFile>(loaded).entry;
    auto with_kernel = registry_with(entry);
    if (auto* taken = std::get_if<std::string>(&with_kernel)) {
      std::fprintf(stderr, "%s: %s\n", kernel_file.c_str(), taken->c_str());
      return 2;
    }
    registry = std::move(std::get<Registry>(with_kernel));
    o.algorithm = entry.info.name;
  }
  o.n = std::atoi(argv[2]);
  o.tpb = std::atoi(argv[3]);
  o.input = "random:1";
  const int repeats = argc > 4 ? std::atoi(argv[4]) : 3;
  auto resolved = resolve(registry, o);
  if (auto* e = std::get_if<ConfigError>(&resolved)) {
    std::fprintf(stderr, "%s\n", e->text().c_str());
    return 2;
  }
  const RunConfig c = std::get<RunConfig>(resolved);
  const auto input = make_input(c);
  sim::SimOptions options;
  options.schedule = c.schedule;
  double best = 1e30;
  size_t hazards = 0;
  for (int r = 0; r < repeats; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    SimOutcome out = c.algorithm->simulate(c.problem, input, options);
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    hazards = out.trace.hazards.total();
  }
  std::printf("%d elements, TPB %d: %.3f s, %.0f elements/s (race detector on, %zu hazards)\n", *o.n, *o.tpb, best,
              *o.n / best, hazards);
  return 0;
}
