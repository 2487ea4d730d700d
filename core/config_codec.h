// The one codec of a run's configuration: RunConfig ⇄ RunOptions ⇄ JSON and command-line words.
// Scenario files, the GUI's form, the GPU child's request, the race lab's "same configuration?"
// and tests all go through it; it is generated from the field table (core/config_fields.h), so a
// new field needs nothing here.
#pragma once

#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/config_fields.h"
#include "core/run.h"

namespace syncscope {

// Every field set, spelled as the CLI takes it: resolve(options_of(c)) == c.
RunOptions options_of(const RunConfig& c);

// {"algorithm": ..., "n": 8, ...} with the fields that are set, under the table's keys.
nlohmann::json options_to_json(const RunOptions& o);
// The options, or a message naming the field (its key) and what is wrong with its value. Other keys
// are ignored.
std::variant<RunOptions, std::string> options_from_json(const nlohmann::json& j);
// `"key": v` as an int: "" and `out` set, or why not (not a whole number, or beyond an int: JSON
// allows any size, and nlohmann's get<int>() would wrap it silently).
std::string whole_number_field(const char* key, const nlohmann::json& v, int& out);

// ["kogge-stone", "--n", "8", ..., "--block", "0"]: the words after `syncscope run`.
std::vector<std::string> options_to_args(const RunOptions& o);

// Same kernel, problem and input: what the race lab's outcomes depend on (not the schedule, the
// time limit or the blocks on screen).
bool same_problem(const RunConfig& a, const RunConfig& b);

}  // namespace syncscope
