#include "app/view/race_lab_model.h"

#include <algorithm>

namespace syncscope::app {
namespace {

constexpr int kValuesShown = 24;

std::vector<OutcomeView> outcome_views(const RunResult& run, const Outcomes& o) {
  std::vector<OutcomeView> out;
  const DType dtype = run.config.problem.dtype;
  for (const Outcome& d : o.distinct) {
    OutcomeView v;
    v.correct = d.match;
    v.headline = std::to_string(d.runs) + (d.runs == 1 ? " run: " : " runs: ") +
                 (d.match ? (d.wrong ? std::string("within float tolerance") : std::string("output = expected"))
                          : std::to_string(d.wrong) + " of " + std::to_string(d.bits.size()) +
                                " elements wrong, first at " + std::to_string(d.first_wrong));
    v.schedules = d.schedules;
    const int shown = std::min<int>(kValuesShown, static_cast<int>(d.bits.size()));
    for (int i = 0; i < shown; ++i) {
      const bool poison = d.poison[i] != 0;
      const bool wrong = differs_from_reference(dtype, sim::bits_to_double(dtype, d.bits[i]), poison, run.expected[i]);
      v.values.emplace_back(format_value(dtype, d.bits[i], poison), wrong);
    }
    v.more_values = static_cast<int>(d.bits.size()) - shown;
    out.push_back(std::move(v));
  }
  return out;
}

}  // namespace

RaceLabModel build_race_lab(const RunResult& run, const Outcomes* schedules, bool schedules_busy, const Outcomes* gpu,
                            bool gpu_busy) {
  RaceLabModel m;
  const RunConfig& c = run.config;
  if (c.problem.bug) {
    const BugInfo& b = c.algorithm->info.bugs.at(c.problem.bug - 1);
    m.variant = "bug " + b.name + ": " + b.shows;
  } else {
    m.variant = "the correct kernel" + std::string(c.algorithm->info.bugs.empty() ? "" : " (pick a bug in Controls)");
  }
  if (schedules_busy) m.schedules_status = "comparing schedules...";
  else if (schedules) {
    m.schedules_status = std::to_string(schedules->distinct.size()) + " distinct output" +
                         (schedules->distinct.size() == 1 ? "" : "s") + " in " + std::to_string(schedules->runs) +
                         " runs, " + std::to_string(schedules->correct_runs()) + " correct";
    m.schedules = outcome_views(run, *schedules);
  }
  if (gpu_busy) m.gpu_status = "running on the GPU...";
  else if (gpu) {
    m.gpu_status = gpu_verdict(*gpu, c);
    m.gpu_failed = !gpu->error.empty() && !gpu->unavailable;
    m.gpu = outcome_views(run, *gpu);
  }
  return m;
}

}  // namespace syncscope::app
