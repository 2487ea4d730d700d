// Simulated elements per second of one configuration, best of a few runs, for comparisons with
// peers in scripts (bench/peer_oclgrind.sh). The race detector is always on.
//   syncscope_scan_rate ALGO N TPB [REPEATS]
//   syncscope_scan_rate --kernel FILE.h N TPB [REPEATS]
//   syncscope_scan_rate --kernel-here FILE.h N TPB [REPEATS]
//   syncscope_scan_rate --worker-cost FILE.h N TPB [REPEATS]
// With --kernel the algorithm is a kernel file's, simulated in `syncscope worker` as the app and the
// CLI run one (this executable is that worker too, as syncscope is): the time of each run then
// includes the request and the outcome crossing the pipe, not the worker's start or the compile.
// --kernel-here loads the same compiled library into this process and simulates it here, as
// syncscope did before the worker (the fault guard on): the two differ by the worker's cost alone
// (the same code, the same compiler flags, the same heap policy). --worker-cost runs both in turn,
// here then in the worker, REPEATS times each, and prints what the worker adds to a run: the
// median of the pairs' ratios, each pair a fraction of a second apart (on a machine whose speed
// drifts by tens of percent from one second to the next, two processes timed one after the other
// say more about the machine than about the worker).
#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <variant>
#include <vector>

#include "core/kernel_file.h"
#include "core/memory_policy.h"
#include "core/registry.h"
#include "core/run.h"
#include "core/worker/worker_main.h"
#include "sim/fault_guard.h"

namespace {

using namespace syncscope;

std::variant<AlgorithmEntry, std::string> entry_loaded_here(const KernelFile& file) {
  void* handle = dlopen(file.library.c_str(), RTLD_NOW | RTLD_LOCAL);
  auto entry_of = handle ? reinterpret_cast<AlgorithmEntry (*)()>(dlsym(handle, "syncscope_kernel_file_entry")) : nullptr;
  if (!entry_of) return "cannot load " + file.library + " here: " + dlerror();
  sim::enable_fault_guard();  // as the loader did when kernel files ran in syncscope's process
  return entry_of();
}

double seconds_to_simulate(const RunConfig& c, const AlgorithmEntry& entry, const std::vector<double>& input,
                           size_t* hazards) {
  sim::SimOptions options;
  options.schedule = c.schedule;
  const auto t0 = std::chrono::steady_clock::now();
  SimOutcome out = entry.simulate(c.problem, input, options);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (hazards) *hazards = out.trace.hazards.total();
  return seconds;
}

void print_rate(const RunConfig& c, double best, size_t hazards, const char* where = "") {
  std::printf("%s%d elements, TPB %d: %.3f s, %.0f elements/s (race detector on, %zu hazards)\n", where, c.problem.n,
              c.problem.tpb, best, c.problem.n / best, hazards);
}

}  // namespace

int main(int argc, char** argv) {
  keep_freed_memory_for_the_next_run();  // as syncscope itself runs
  if (argc == 2 && std::string(argv[1]) == "worker") return worker::kernel_worker_main();
  Registry registry = builtin_registry();
  std::string kernel_file, mode;
  if (argc > 2 && std::string(argv[1]).rfind("--", 0) == 0) {
    mode = argv[1];
    kernel_file = argv[2];
    argv += 1;
    argc -= 1;
  }
  if (argc < 4 || !(mode.empty() || mode == "--kernel" || mode == "--kernel-here" || mode == "--worker-cost")) {
    std::fprintf(stderr, "usage: syncscope_scan_rate ALGO N TPB [REPEATS]\n"
                         "       syncscope_scan_rate --kernel FILE.h N TPB [REPEATS]\n"
                         "       syncscope_scan_rate --kernel-here FILE.h N TPB [REPEATS]\n"
                         "       syncscope_scan_rate --worker-cost FILE.h N TPB [REPEATS]\n");
    return 2;
  }
  RunOptions o;
  o.algorithm = argv[1];
  AlgorithmEntry in_worker, here;
  if (!kernel_file.empty()) {
    auto loaded = load_kernel_file(kernel_file);
    if (auto* e = std::get_if<KernelFileError>(&loaded)) {
      std::fprintf(stderr, "%s: %s\n", kernel_file.c_str(), e->message.c_str());
      return 2;
    }
    in_worker = std::get<KernelFile>(loaded).entry;
    if (mode != "--kernel") {
      auto loaded_here = entry_loaded_here(std::get<KernelFile>(loaded));
      if (auto* why = std::get_if<std::string>(&loaded_here)) {
        std::fprintf(stderr, "%s: %s\n", kernel_file.c_str(), why->c_str());
        return 2;
      }
      here = std::get<AlgorithmEntry>(loaded_here);
    }
    auto with_kernel = registry_with(mode == "--kernel-here" ? here : in_worker);
    if (auto* taken = std::get_if<std::string>(&with_kernel)) {
      std::fprintf(stderr, "%s: %s\n", kernel_file.c_str(), taken->c_str());
      return 2;
    }
    registry = std::move(std::get<Registry>(with_kernel));
    o.algorithm = in_worker.info.name;
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
  size_t hazards = 0;
  if (mode == "--worker-cost") {
    double best_here = 1e30, best_worker = 1e30;
    std::vector<double> ratios, extra_ms;
    // A pair first that is not counted: each side's first run faults in the memory the later ones reuse.
    seconds_to_simulate(c, here, input, nullptr);
    seconds_to_simulate(c, in_worker, input, nullptr);
    for (int r = 0; r < repeats; ++r) {
      // Each side first in every other pair: on a machine that slows down and speeds up, the one
      // always run first would be the one always measured on the other side of a change.
      double t_here = 0, t_worker = 0;
      if (r % 2 == 0) {
        t_here = seconds_to_simulate(c, here, input, nullptr);
        t_worker = seconds_to_simulate(c, in_worker, input, &hazards);
      } else {
        t_worker = seconds_to_simulate(c, in_worker, input, &hazards);
        t_here = seconds_to_simulate(c, here, input, nullptr);
      }
      best_here = std::min(best_here, t_here);
      best_worker = std::min(best_worker, t_worker);
      ratios.push_back(t_worker / t_here);
      extra_ms.push_back((t_worker - t_here) * 1e3);
    }
    auto median_of = [](std::vector<double>& v) {  // sorts v
      std::sort(v.begin(), v.end());
      const size_t m = v.size();
      return m % 2 ? v[m / 2] : (v[m / 2 - 1] + v[m / 2]) / 2;
    };
    const double median = median_of(ratios), median_ms = median_of(extra_ms);
    print_rate(c, best_here, hazards, "in this process: ");
    print_rate(c, best_worker, hazards, "in the worker:   ");
    std::printf("the worker: %+.1f %% time a run, %+.1f ms (medians of %zu pairs, %+.1f to %+.1f %%; best against best %+.1f %%)\n",
                (median - 1) * 100, median_ms, ratios.size(),
                (ratios.front() - 1) * 100, (ratios.back() - 1) * 100, (best_worker / best_here - 1) * 100);
    return 0;
  }
  double best = 1e30;
  for (int r = 0; r < repeats; ++r) best = std::min(best, seconds_to_simulate(c, *c.algorithm, input, &hazards));
  print_rate(c, best, hazards);
  return 0;
}
