#include "app/view/race_lab_model.h"

#include <algorithm>

namespace syncscope::app {
namespace {

constexpr int kValuesShown = 24;

// The first elements of an output as text, each with whether it differs from the reference; and
// (when `wrong` is given) the index of every element that does.
std::vector<std::pair<std::string, bool>> shown_values(const RunResult& run, const Outcome& d, std::vector<int>* wrong = nullptr) {
  std::vector<std::pair<std::string, bool>> values;
  const DType dtype = run.config.problem.dtype;
  const int count = static_cast<int>(d.bits.size());
  for (int i = 0; i < (wrong ? count : std::min(kValuesShown, count)); ++i) {
    const bool poison = d.poison[i] != 0;
    const bool differs = differs_from_reference(dtype, sim::bits_to_double(dtype, d.bits[i]), poison, run.expected[i]);
    if (differs && wrong) wrong->push_back(i);
    if (i < kValuesShown) values.emplace_back(format_value(dtype, d.bits[i], poison), differs);
  }
  return values;
}

std::vector<OutcomeView> outcome_views(const RunResult& run, const Outcomes& o) {
  std::vector<OutcomeView> out;
  for (const Outcome& d : o.distinct) {
    OutcomeView v;
    v.correct = d.match;
    v.headline = std::to_string(d.runs) + (d.runs == 1 ? " run: " : " runs: ") +
                 (run.config.algorithm->info.kernels_only  // nothing to compare with: how the arrays differ
                      ? (d.differs_from_first.empty() ? std::string("the first output") : "unlike the first, " + d.differs_from_first)
                  : d.match ? (d.wrong ? std::string("within float tolerance") : std::string("output = expected"))
                            : std::to_string(d.wrong) + " of " + std::to_string(d.bits.size()) +
                                  " elements wrong, first at " + std::to_string(d.first_wrong));
    v.schedules = d.schedules;
    v.values = shown_values(run, d);
    v.more_values = static_cast<int>(d.bits.size() - v.values.size());
    out.push_back(std::move(v));
  }
  return out;
}

std::vector<OutputBar> output_bars(const RunResult& run, const Outcomes* schedules, const Outcomes* gpu) {
  std::vector<OutputBar> bars;
  std::vector<const Outcome*> first_seen;  // the outcome each bar came from (for its bits)
  const std::string viewed = run.config.schedule.name();
  auto add = [&](const Outcome& o, bool from_gpu) {
    size_t k = 0;
    // A GPU's runs of a kernel-only file say only that the launch succeeded: they join the first such bar.
    auto same = [&](const Outcome* seen) {
      return seen->bits == o.bits && seen->poison == o.poison && (from_gpu || same_output_copies(seen->copies, o.copies));
    };
    while (k < bars.size() && !same(first_seen[k])) ++k;
    if (k == bars.size()) {
      OutputBar b;
      b.correct = o.match;
      b.values = shown_values(run, o, &b.wrong);
      b.more_values = static_cast<int>(o.bits.size() - b.values.size());
      b.unchecked = run.config.algorithm->info.kernels_only;
      b.differs = o.differs_from_first;
      bars.push_back(std::move(b));
      first_seen.push_back(&o);
    }
    OutputBar& b = bars[k];
    (from_gpu ? b.gpu_runs : b.schedule_runs) += o.runs;
    if (!from_gpu) {
      b.schedules.insert(b.schedules.end(), o.schedules.begin(), o.schedules.end());
      b.viewed |= std::find(o.schedules.begin(), o.schedules.end(), viewed) != o.schedules.end();
    }
  };
  if (schedules)
    for (const Outcome& o : schedules->distinct) add(o, false);
  if (gpu)
    for (const Outcome& o : gpu->distinct) add(o, true);
  std::stable_sort(bars.begin(), bars.end(), [](const OutputBar& a, const OutputBar& b) {
    if (a.correct != b.correct) return a.correct;
    return a.schedule_runs + a.gpu_runs > b.schedule_runs + b.gpu_runs;
  });
  for (size_t k = 0; k < bars.size(); ++k) bars[k].name = k < 26 ? std::string(1, static_cast<char>('A' + k)) : std::to_string(k + 1);
  return bars;
}

}  // namespace

RaceLabModel build_race_lab(const RunResult& run, const Outcomes* schedules, bool schedules_busy, const Outcomes* gpu,
                            bool gpu_busy) {
  RaceLabModel m;
  const RunConfig& c = run.config;
  m.can_run_gpu = !c.algorithm->info.program;
  if (c.problem.bug) {
    const BugInfo& b = c.algorithm->info.bugs.at(c.problem.bug - 1);
    m.variant = "bug " + b.name + ": " + b.shows;
  } else {
    // No bug picked is "correct" only where the run says so: a student's file may race as written.
    const bool own_hazards = run.has_hazards;
    m.variant = std::string(c.algorithm->info.program ? "the program as written"
                            : own_hazards             ? "the kernel as written"
                                                      : "the correct kernel") +
                (own_hazards ? ", with hazards of its own (see Hazards)" : "") +
                (c.algorithm->info.bugs.empty() ? "" : " (pick a bug in Controls)");
  }
  if (schedules_busy) m.schedules_status = "comparing schedules...";
  else if (schedules) {
    m.schedules_status = std::to_string(schedules->distinct.size()) + " distinct output" +
                         (schedules->distinct.size() == 1 ? "" : "s") + " in " + std::to_string(schedules->runs) +
                         " runs" +
                         (c.algorithm->info.kernels_only ? " (by what the launch left in its arrays)"
                                                         : ", " + std::to_string(schedules->correct_runs()) + " correct");
    m.schedules = outcome_views(run, *schedules);
  }
  if (gpu_busy) m.gpu_status = "running on the GPU...";
  else if (gpu) {
    m.gpu_status = gpu_verdict(*gpu, c);
    m.gpu_failed = !gpu->error.empty() && !gpu->unavailable;
    m.gpu = outcome_views(run, *gpu);
  }
  const Outcomes* shown_schedules = schedules_busy ? nullptr : schedules;
  const Outcomes* shown_gpu = gpu_busy || (gpu && !gpu->error.empty()) ? nullptr : gpu;
  m.bars = output_bars(run, shown_schedules, shown_gpu);
  m.schedule_runs = shown_schedules ? shown_schedules->runs : 0;
  m.gpu_runs = shown_gpu ? shown_gpu->runs : 0;
  if (shown_gpu) m.gpu_recorded_on = shown_gpu->recorded_on;
  return m;
}

}  // namespace syncscope::app
