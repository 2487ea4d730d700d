#include "core/registry.h"

#include "kernels/algorithms.h"

namespace syncscope {

void link_builtin_simt_twins();  // core/registry_simt.cpp

SimOutcome simulate_typed(const Problem& p, const std::vector<double>& input, const sim::SimOptions& options, TypedRun run) {
  sim::Simulator simulator(options);
  SimOutcome out;
  run(simulator, out, p, input);
  for (int g = 0; options.global_memory && g < simulator.global_count(); ++g) {
    sim::ArrayStore& a = simulator.global(g);
    out.globals_final.push_back({a.id, std::move(a.bits), std::move(a.poison)});  // the simulator is done
  }
  out.trace = simulator.take_trace();
  return out;
}

const Registry& builtin_registry() {
  link_builtin_simt_twins();
  static const Registry r = Registry::of(kernels::Algorithms{});
  return r;
}

}  // namespace syncscope
