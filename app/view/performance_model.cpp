#include "app/view/performance_model.h"

#include <algorithm>
#include <filesystem>
#include <variant>

#include "core/kernel_file.h"
#include "kernels/ladders.h"
#include "core/perf_json.h"
#include "core/registry.h"
#include "core/run.h"
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

PerformanceModel build_performance(const LoadedPerf& perf, const std::string& ladder, DType dtype, long long n,
                                   const std::string& gpu_here) {
  PerformanceModel m;
  const PerfReport& r = perf.report;
  m.source = r.device + (r.driver.empty() ? "" : " · driver " + r.driver) + " · " + r.date + " · " +
             (perf.own_run ? "measured on this machine (" + perf.path + ")"
                           : "saved results (" + fs::path(perf.path).filename().string() + ")" +
                                 (gpu_here.empty() ? ": no GPU here" : "; time " + gpu_here + " with `syncscope perf`"));
  for (const PerfPoint& p : r.rungs)
    if (p.ladder == ladder && p.dtype == dtype &&
        std::find(m.sizes.begin(), m.sizes.end(), p.n) == m.sizes.end())
      m.sizes.push_back(p.n);
  std::sort(m.sizes.begin(), m.sizes.end());
  if (m.sizes.empty()) return m;
  m.n = std::find(m.sizes.begin(), m.sizes.end(), n) != m.sizes.end() ? n : m.sizes.back();
  const std::string cub_name = ladder == "scan" ? "cub-scan" : "cub-reduce";
  if (const PerfPoint* copy = r.baseline("copy", m.n, dtype)) m.copy_gbps = copy->gbps;
  if (const PerfPoint* cub = r.baseline(cub_name, m.n, dtype)) m.cub_gbps = cub->gbps;
  m.max_gbps = std::max(m.copy_gbps, m.cub_gbps);
  for (const Rung& rung : kLadderRungs) {
    if (rung.ladder != ladder) continue;
    PerfBar bar;
    bar.name = std::string(rung.algorithm);
    if (const AlgorithmEntry* e = builtin_registry().find(rung.algorithm)) bar.title = e->info.title;
    PerfSeries series{bar.name, {}};
    for (const PerfPoint& p : r.rungs) {
      if (p.name != bar.name || p.dtype != dtype) continue;
      series.points.emplace_back(__builtin_ctzll(static_cast<unsigned long long>(p.n)), p.gbps);
      if (p.n != m.n) continue;
      bar.gbps = p.gbps;
      bar.correct = p.correct;
      bar.error = p.error;
      bar.of_copy = m.copy_gbps > 0 ? p.gbps / m.copy_gbps : 0;
      bar.of_cub = m.cub_gbps > 0 ? p.gbps / m.cub_gbps : 0;
    }
    std::sort(series.points.begin(), series.points.end());
    m.max_gbps = std::max(m.max_gbps, bar.gbps);
    m.bars.push_back(std::move(bar));
    m.sweep.push_back(std::move(series));
  }
  for (const std::string& base : {std::string("copy"), cub_name}) {
    PerfSeries series{base == "copy" ? "copy" : "CUB", {}};
    for (const PerfPoint& p : r.baselines)
      if (p.name == base && p.dtype == dtype) {
        series.points.emplace_back(__builtin_ctzll(static_cast<unsigned long long>(p.n)), p.gbps);
        m.max_gbps = std::max(m.max_gbps, p.gbps);
      }
    std::sort(series.points.begin(), series.points.end());
    m.sweep.push_back(std::move(series));
  }
  return m;
}

std::vector<std::pair<std::string, RungMetrics>> simulate_rung_metrics(const std::string& ladder) {
  std::vector<std::pair<std::string, RungMetrics>> out;
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

}  // namespace syncscope::app
