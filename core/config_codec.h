// The one codec of a run's configuration: RunConfig ⇄ RunOptions ⇄ JSON and command-line words.
// Scenario files, the GUI's form, the race lab's "same configuration?" and tests all go through it,
// so a new field is added in visit_fields() and nowhere else.
#pragma once

#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/run.h"

namespace syncscope {

// Every configurable field of RunOptions but the algorithm, with its JSON key (`--KEY` on the
// command line; "blocks" is the repeatable `--block`).
template <class Options, class Visit>
void visit_fields(Options& o, Visit&& visit) {
  visit("n", o.n);
  visit("rows", o.rows);
  visit("tpb", o.tpb);
  visit("dtype", o.dtype);
  visit("input", o.input);
  visit("schedule", o.schedule);
  visit("bug", o.bug);
  visit("blocks", o.blocks);
  visit("time-limit", o.time_limit);
}

// Every field set, spelled as the CLI takes it: resolve(options_of(c)) gives c back.
RunOptions options_of(const RunConfig& c);

// {"algorithm": ..., "n": 8, ...} with the fields that are set.
nlohmann::json options_to_json(const RunOptions& o);
// The options, or a message naming the field and what is wrong with its value. Other keys are ignored.
std::variant<RunOptions, std::string> options_from_json(const nlohmann::json& j);
// `"key": v` as an int: "" and `out` set, or why not (not a whole number, or beyond an int: JSON
// allows any size, and nlohmann's get<int>() would wrap it silently).
std::string whole_number_field(const char* key, const nlohmann::json& v, int& out);

// ["kogge-stone", "--n", "8", ..., "--block", "0"]: the words after `syncscope run`.
std::vector<std::string> options_to_args(const RunOptions& o);

// Same kernel, problem and input: what the race lab's outcomes depend on (not the schedule or the
// blocks on screen).
bool same_problem(const RunConfig& a, const RunConfig& b);

}  // namespace syncscope
