#include "app/state/perf_results.h"

#include <algorithm>
#include <filesystem>
#include <variant>

#include "core/perf_json.h"
#include "core/registry.h"
#include "core/run.h"
#include "kernels/ladders.h"
#include "sim/warp_instructions.h"

namespace syncscope::app {

namespace fs = std::filesystem;

std::optional<LoadedPerf> load_newest_perf(const std::vector<std::string>& dirs, const std::string& own_dir,
                                           std::vector<std::string>* problems) {
  std::optional<LoadedPerf> best;
  for (const std::string& dir : dirs) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) continue;
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(dir, ec))
      if (entry.path().extension() == ".json" && entry.is_regular_file(ec)) files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    for (const fs::path& file : files) {
      std::string why;
      std::optional<PerfReport> r = perf_from_file(file.string(), &why);
      if (!r) {
        if (problems) problems->push_back(file.string() + ": " + why);
        continue;
      }
      if (!best || r->date >= best->report.date)
        best = LoadedPerf{std::move(*r), file.string(), dir == own_dir};
    }
  }
  return best;
}

LadderMetrics simulate_rung_metrics(const std::string& ladder) {
  LadderMetrics out;
  for (const Rung& rung : kLadderRungs) {
    if (rung.ladder != ladder) continue;
    RungMetrics m;
    RunOptions o;
    o.algorithm = std::string(rung.algorithm);
    o.dtype = "int32";
    o.schedule = "lockstep";
    auto resolved = resolve(builtin_registry(), o);
    if (!std::holds_alternative<RunConfig>(resolved)) continue;
    const RunResult r = simulate(std::get<RunConfig>(resolved));
    const double n = std::max(1, r.config.problem.input_count());
    sim::ThreadCounters total;
    for (size_t l = 0; l < r.sim.trace.launches.size(); ++l) {
      const sim::LaunchTrace& lt = r.sim.trace.launches[l];
      total += lt.counters.total;
      m.steps += lt.steps;
      if (lt.blocks.empty()) continue;
      const sim::WarpMetrics w = sim::warp_metrics(lt.blocks.front(), r.sim.trace, static_cast<int>(l));
      m.worst_bank_conflict = std::max(m.worst_bank_conflict, w.worst_degree);
      m.divergent += w.divergent;
      m.instructions += w.instructions;
    }
    m.launches = static_cast<int>(r.sim.trace.launches.size());
    m.adds_per_element = total.adds / n;
    m.global_per_element = (total.global_reads + total.global_writes) / n;
    m.shared_per_element = (total.shared_reads + total.shared_writes) / n;
    out.emplace_back(o.algorithm, m);
  }
  return out;
}

PerfResults gather_perf_results(const PerfResultsJob& job) {
  PerfResults r;
  r.perf = load_newest_perf(job.dirs, job.own_dir, &r.problems);
  r.reduce = simulate_rung_metrics("reduce");
  r.scan = simulate_rung_metrics("scan");
  return r;
}

}  // namespace syncscope::app
