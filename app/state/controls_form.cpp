#include "app/state/controls_form.h"

#include "core/config_codec.h"

#include <filesystem>

namespace syncscope::app {

RunOptions ControlsForm::to_options(const AlgorithmEntry* algorithm) const {
  RunOptions o;
  o.algorithm = this->algorithm;
  if (input == InputChoice::Values) {
    o.input = values;  // n follows from the values
    if (algorithm && algorithm->info.two_dimensional) o.rows = rows;
  } else {
    o.n = n;
    if (algorithm && algorithm->info.two_dimensional) o.rows = rows;
    o.input = input == InputChoice::Iota ? "iota" : input == InputChoice::Ones ? "ones" : "random:" + std::to_string(input_seed);
  }
  o.tpb = tpb;
  o.dtype = std::string(sim::to_string(dtype));
  switch (schedule) {
    case ScheduleChoice::Lockstep: o.schedule = "lockstep"; break;
    case ScheduleChoice::Forward: o.schedule = "forward"; break;
    case ScheduleChoice::Reverse: o.schedule = "reverse"; break;
    case ScheduleChoice::Random: o.schedule = "random:" + std::to_string(schedule_seed); break;
  }
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
  switch (c.input.kind) {
    case InputKind::Iota: f.input = InputChoice::Iota; break;
    case InputKind::Ones: f.input = InputChoice::Ones; break;
    case InputKind::Random:
      f.input = InputChoice::Random;
      f.input_seed = static_cast<int>(c.input.seed);
      break;
    case InputKind::Values:
      f.input = InputChoice::Values;
      f.values = c.input.text();
      break;
  }
  switch (c.schedule.kind) {
    case sim::ScheduleKind::Lockstep: f.schedule = ScheduleChoice::Lockstep; break;
    case sim::ScheduleKind::Forward: f.schedule = ScheduleChoice::Forward; break;
    case sim::ScheduleKind::Reverse: f.schedule = ScheduleChoice::Reverse; break;
    case sim::ScheduleKind::Random:
      f.schedule = ScheduleChoice::Random;
      f.schedule_seed = static_cast<int>(c.schedule.seed);
      break;
  }
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
  // @FILE in the values field: only a regular file, read on the UI thread (a FIFO would wait for a
  // writer and freeze the window; standard input is the terminal's).
  if (form.input == InputChoice::Values && form.values.starts_with("@")) {
    const std::string path = form.values.substr(1);
    std::error_code ec;
    if (path == "-" || (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec))) {
      check.errors["input"] = form.values + ": not a regular file; the values field reads @FILE from a file";
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
  std::string field = e.option;
  if (field.rfind("--", 0) == 0) field = field.substr(2);
  if (field == "ALGO") field = "algorithm";
  if (field == "block") field = "blocks";
  // The panel words it for its fields, not for command-line options.
  std::string message = e.message;
  if (message.rfind("--", 0) == 0) {
    const auto colon = message.find(": ");
    if (colon != std::string::npos) message = message.substr(colon + 2);
  }
  check.errors[field] = (e.value.empty() ? "" : e.value + ": ") + message;
  return check;
}

}  // namespace syncscope::app
