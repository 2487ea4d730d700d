#include "app/view/hazards_model.h"

#include "sim/describe.h"

namespace syncscope::app {

HazardsModel build_hazards(const RunResult& run) {
  HazardsModel m;
  const sim::Trace& t = run.sim.trace;
  int errors = 0, warnings = 0;
  for (const auto& g : t.hazards_across_launches()) {
    HazardRowView r;
    r.text = sim::describe_hazard(g, t);
    r.error = g.first.severity == sim::Severity::Error;
    r.launch = g.first.launch;
    r.step = g.first.step;
    r.block = g.first.block;
    if (g.first.line_first != sim::kNoLine) r.lines.push_back(g.first.line_first);
    if (g.first.line_second != sim::kNoLine) r.lines.push_back(g.first.line_second);
    (r.error ? errors : warnings) += 1;
    m.rows.push_back(std::move(r));
  }
  if (errors + warnings == 0) m.summary = "no hazards";
  else
    m.summary = std::to_string(errors) + (errors == 1 ? " error, " : " errors, ") + std::to_string(warnings) +
                (warnings == 1 ? " warning" : " warnings");
  // The races one missing barrier causes get that one barrier's fix, as the CLI's report has it.
  for (const auto& g : sim::group_by_barrier(t)) m.fixes.push_back(g.fix.text);
  if (t.error) m.failure = t.error->message;
  return m;
}

}  // namespace syncscope::app
