#include "app/view/controls_model.h"

#include <sstream>

namespace syncscope::app {

ControlsModel build_controls_model(const Registry& registry, const ControlsForm& form, const RunResult* shown) {
  ControlsModel m;
  for (const std::string& group : registry.groups()) {
    ControlsModel::Group g{group, {}};
    for (const auto& e : registry.all())
      if (e.info.group == group) g.algorithms.push_back(e.info.name);
    m.groups.push_back(std::move(g));
  }
  if (const AlgorithmEntry* a = registry.find(form.algorithm)) {
    m.two_dimensional = a->info.two_dimensional;
    m.program = a->info.program;
    m.description = a->info.description;
    m.bugs = a->info.bugs;
  }
  if (shown) {
    const auto& launches = shown->sim.trace.launches;
    int steps = 0;
    for (const auto& l : launches) steps += l.steps;
    // The run's own first grid: config.blocks() would run the algorithm's host code every frame.
    const int blocks = launches.empty() ? 0 : launches.front().grid.count();
    // The launch's own block: a program's launches choose theirs, whatever --tpb says.
    const int threads = launches.empty() ? shown->config.problem.tpb : launches.front().block.count();
    std::ostringstream s;
    s << blocks << (blocks == 1 ? " block" : " blocks") << " × " << threads
      << " threads · " << steps << " steps in " << launches.size() << (launches.size() == 1 ? " launch" : " launches");
    m.shape = s.str();
  }
  return m;
}

}  // namespace syncscope::app
