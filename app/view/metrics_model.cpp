#include "app/view/metrics_model.h"

#include <cstdio>
#include <set>

#include "sim/warp_instructions.h"

namespace syncscope::app {

namespace {

std::string per(double count, double n) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", n > 0 ? count / n : 0.0);
  return buf;
}

bool is_program(const RunResult& run) { return run.config.algorithm && run.config.algorithm->info.program; }

// The whole run (every launch), per input element: what the ladders compare rung by rung. A .cu
// program chose its own sizes (it has no input of n elements) and its arithmetic is not counted:
// its accesses per thread it ran.
void add_run_facts(const RunResult& run, MetricsModel& m) {
  sim::ThreadCounters total;
  uint64_t steps = 0, threads = 0;
  for (const sim::LaunchTrace& lt : run.sim.trace.launches) {
    total += lt.counters.total;
    steps += static_cast<uint64_t>(lt.steps);
    threads += static_cast<uint64_t>(lt.counters.threads);
  }
  const bool program = is_program(run);
  const double n = program ? static_cast<double>(threads) : run.config.problem.input_count();
  const std::string each = program ? " per thread" : " per element";
  m.per_element.clear();
  m.per_element_heading = program ? "whole run, per thread" : "whole run, per input element";
  if (!program) m.per_element.push_back({"additions" + each, per(total.adds, n)});
  m.per_element.push_back({"global accesses" + each, per(total.global_reads + total.global_writes, n)});
  m.per_element.push_back({"shared accesses" + each, per(total.shared_reads + total.shared_writes, n)});
  m.per_element.push_back(
      {"launches, steps (barrier intervals)", std::to_string(run.sim.trace.launches.size()) + ", " + std::to_string(steps)});
}

void add_warp_facts(const RunResult& run, int launch, const sim::BlockTrace& b, MetricsModel& m) {
  const sim::WarpMetrics w = sim::warp_metrics(b, run.sim.trace, launch);
  if (!w.available) {
    m.warp_scope = "warp instructions: run under the lockstep schedule to see divergence and bank conflicts";
    return;
  }
  m.warp_scope = "block " + std::to_string(b.block) + ", lockstep: " + std::to_string(w.instructions) +
                 " warp instructions";
  m.warp = {
      {"divergent (fewer lanes than running)", std::to_string(w.divergent) + " of " + std::to_string(w.instructions)},
      {"shared-memory instructions", std::to_string(w.shared_instructions)},
      {"with a bank conflict", std::to_string(w.conflicted) +
                                   (w.conflicted ? " (worst " + std::to_string(w.worst_degree) + "-way)" : "")},
      {"extra shared passes (sum of n-1)", std::to_string(w.extra_passes)},
  };
}

}  // namespace

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
            {"barriers", c.max_per_thread.barriers, c.total.barriers}};
  if (!is_program(run)) m.rows.push_back({"additions", c.max_per_thread.adds, c.total.adds});
  add_run_facts(run, m);
  m.current_step = step;
  m.threads_per_block = lt.block.count();
  const sim::BlockTrace* b = lt.find_block(block);
  if (!b && !lt.blocks.empty()) b = &lt.blocks.front();
  if (b) add_warp_facts(run, launch, *b, m);
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
