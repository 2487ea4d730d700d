#include "app/view/performance_model.h"

#include <algorithm>
#include <filesystem>

#include "kernels/ladders.h"
#include "core/perf_json.h"
#include "core/registry.h"

namespace syncscope::app {

namespace fs = std::filesystem;

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

}  // namespace syncscope::app
