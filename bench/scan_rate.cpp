// Simulated elements per second of one configuration, best of a few runs, for comparisons with
// peers in scripts (bench/peer_oclgrind.sh). The race detector is always on.
//   syncscope_scan_rate ALGO N TPB [REPEATS]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/registry.h"
#include "core/run.h"

int main(int argc, char** argv) {
  using namespace syncscope;
  if (argc < 4) {
    std::fprintf(stderr, "usage: syncscope_scan_rate ALGO N TPB [REPEATS]\n");
    return 2;
  }
  RunOptions o;
  o.algorithm = argv[1];
  o.n = std::atoi(argv[2]);
  o.tpb = std::atoi(argv[3]);
  o.input = "random:1";
  const int repeats = argc > 4 ? std::atoi(argv[4]) : 3;
  auto resolved = resolve(builtin_registry(), o);
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
