#include "app/view/metrics_model.h"

#include <set>

namespace syncscope::app {

MetricsModel build_metrics(const RunResult& run, int launch, int step, int block) {
  MetricsModel m;
  const auto& launches = run.sim.trace.launches;
  if (launch < 0 || launch >= static_cast<int>(launches.size())) return m;
  const sim::LaunchTrace& lt = launches[launch];
  const sim::CounterSummary& c = lt.counters;
  m.scope = "launch " + std::to_string(launch + 1) + "/" + std::to_string(launches.size()) + ": " + lt.label + ", " +
            std::to_string(c.threads) + " threads";
  m.rows = {{"global reads", c.max_per_thread.global_reads, c.total.global_reads},
            {"global writes", c.max_per_thread.global_writes, c.total.global_writes},
            {"shared reads", c.max_per_thread.shared_reads, c.total.shared_reads},
            {"shared writes", c.max_per_thread.shared_writes, c.total.shared_writes},
            {"barriers", c.max_per_thread.barriers, c.total.barriers},
            {"additions", c.max_per_thread.adds, c.total.adds}};
  m.current_step = step;
  m.threads_per_block = lt.block.count();
  const sim::BlockTrace* b = lt.find_block(block);
  if (!b && !lt.blocks.empty()) b = &lt.blocks.front();
  if (b)
    for (const sim::StepTrace& s : b->steps) {
      std::set<int> active;
      for (const sim::Event& e : s.events)
        if (e.kind != sim::EventKind::Barrier && e.kind != sim::EventKind::Exit) active.insert(e.thread);
      m.active_threads.push_back(static_cast<float>(active.size()));
    }
  return m;
}

}  // namespace syncscope::app
