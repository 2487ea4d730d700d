#include "app/state/controls_form.h"

#include "core/config_codec.h"

#include <tuple>

namespace syncscope::app {

RunOptions ControlsForm::to_options(const AlgorithmEntry* algorithm) const {
  RunOptions o;
  o.algorithm = this->algorithm;
  if (algorithm && algorithm->info.two_dimensional) o.rows = rows;
  if (input == InputChoice::Values) {
    o.input = values;  // n follows from the values
  } else {
    o.n = n;
    InputSpec spec;
    spec.kind = input;
    spec.seed = static_cast<uint64_t>(input_seed);  // check_form refuses a negative seed first
    o.input = spec.text();
  }
  o.tpb = tpb;
  o.dtype = std::string(sim::to_string(dtype));
  o.schedule = sim::Schedule{.kind = schedule, .seed = static_cast<uint64_t>(schedule_seed)}.name();
  o.blocks = blocks;
  o.bug = bug;
  o.time_limit = time_limit;
  return o;
}

ControlsForm ControlsForm::from(const RunConfig& c) {
  ControlsForm f;
  f.algorithm = c.algorithm->info.name;
  f.n = c.problem.n;
  f.rows = c.problem.rows;
  f.tpb = c.problem.tpb;
  f.dtype = c.problem.dtype;
  f.input = c.input.kind;
  if (c.input.kind == InputKind::Random) f.input_seed = static_cast<int>(c.input.seed);
  if (c.input.kind == InputKind::Values) f.values = c.input.text();
  f.schedule = c.schedule.kind;
  if (c.schedule.kind == sim::ScheduleKind::Random) f.schedule_seed = static_cast<int>(c.schedule.seed);
  f.blocks = c.detail_blocks;
  f.bug = c.bug_name();
  f.time_limit = options_of(c).time_limit;
  return f;
}

ControlsForm ControlsForm::with_algorithm(const AlgorithmEntry& a) const {
  ControlsForm f;
  f.algorithm = a.info.name;
  f.n = a.info.defaults.n;
  f.rows = a.info.defaults.rows;
  f.tpb = a.info.defaults.tpb;
  f.dtype = a.info.defaults.dtype;
  f.schedule = schedule;
  f.schedule_seed = schedule_seed;
  f.time_limit = time_limit;
  return f;
}

FormCheck check_form(const Registry& registry, const ControlsForm& form) {
  FormCheck check;
  // @FILE in the values field is read on the UI thread: resolve() opens only a regular file, without
  // waiting (core/regular_file.h); standard input is the terminal's, so @- is refused here.
  if (form.input == InputChoice::Values && form.values == "@-") {
    check.errors[ConfigField::Input] = "@-: standard input is the terminal's; the values field reads @FILE from a file";
    return check;
  }
  // A seed box holds an int; a negative one is refused rather than wrapped into another seed.
  for (auto [used, seed, field] : {std::tuple{form.input == InputChoice::Random, form.input_seed, ConfigField::Input},
                                   std::tuple{form.schedule == ScheduleChoice::Random, form.schedule_seed,
                                              ConfigField::Schedule}}) {
    if (used && seed < 0) {
      check.errors[field] = std::to_string(seed) + ": a seed is a whole number, 0 or more";
      return check;
    }
  }
  const AlgorithmEntry* algorithm = registry.find(form.algorithm);
  auto resolved = resolve(registry, form.to_options(algorithm));
  if (auto* c = std::get_if<RunConfig>(&resolved)) {
    check.config = std::move(*c);
    return check;
  }
  const ConfigError& e = std::get<ConfigError>(resolved);
  check.errors[e.field] = e.form_text();
  return check;
}

}  // namespace syncscope::app
