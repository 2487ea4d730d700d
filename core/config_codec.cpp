#include "core/config_codec.h"

#include <climits>
#include <type_traits>

namespace syncscope {

RunOptions options_of(const RunConfig& c) {
  RunOptions o;
  o.algorithm = c.algorithm->info.name;
  o.n = c.problem.n;
  if (c.algorithm->info.two_dimensional) o.rows = c.problem.rows;
  o.tpb = c.problem.tpb;
  o.dtype = std::string(sim::to_string(c.problem.dtype));
  o.input = c.input.text();
  o.schedule = c.schedule.name();
  o.bug = c.bug_name();
  o.blocks = c.detail_blocks;
  // The default is not written, so a scenario keeps following it.
  if (c.time_limit_s != *field_info(ConfigField::TimeLimit).fixed_default) o.time_limit = shortest_text(c.time_limit_s);
  return o;
}

nlohmann::json options_to_json(const RunOptions& o) {
  nlohmann::json j = nlohmann::json::object();
  visit_fields(o, [&](const FieldInfo& info, const auto& field) {
    using F = std::decay_t<decltype(field)>;
    if constexpr (std::is_same_v<F, std::string>) {
      j[info.key] = field;
    } else if constexpr (std::is_same_v<F, std::vector<int>>) {
      if (!field.empty()) j[info.key] = field;
    } else if (field) {
      j[info.key] = *field;
    }
  });
  return j;
}

std::string whole_number_field(const char* key, const nlohmann::json& v, int& out) {
  const std::string named = std::string("\"") + key + "\" must be a whole number";
  if (!v.is_number_integer()) return named + ", got " + v.dump();
  const bool fits = v.is_number_unsigned() ? v.get<uint64_t>() <= uint64_t{INT_MAX}
                                           : v.get<int64_t>() >= INT_MIN && v.get<int64_t>() <= INT_MAX;
  if (!fits) return named + " within " + std::to_string(INT_MIN) + ".." + std::to_string(INT_MAX) + ", got " + v.dump();
  out = v.get<int>();
  return "";
}

namespace {

// One field from `j` into `field`, by the field's type: "" or why not. A field of a new type needs
// an overload here.
std::string quoted(const FieldInfo& info) { return std::string("\"") + info.key + "\""; }

std::string read_field(const FieldInfo& info, const nlohmann::json& j, std::string& field) {  // required
  if (!j.contains(info.key) || !j[info.key].is_string()) return quoted(info) + " (text) is missing";
  field = j[info.key].get<std::string>();
  return "";
}

std::string read_field(const FieldInfo& info, const nlohmann::json& j, std::optional<int>& field) {
  if (!j.contains(info.key)) return "";
  int number = 0;
  std::string error = whole_number_field(info.key, j[info.key], number);
  if (error.empty()) field = number;
  return error;
}

std::string read_field(const FieldInfo& info, const nlohmann::json& j, std::optional<std::string>& field) {
  if (!j.contains(info.key)) return "";
  if (!j[info.key].is_string()) return quoted(info) + " must be text, got " + j[info.key].dump();
  field = j[info.key].get<std::string>();
  return "";
}

std::string read_field(const FieldInfo& info, const nlohmann::json& j, std::vector<int>& field) {
  if (!j.contains(info.key)) return "";
  const nlohmann::json& v = j[info.key];
  if (!v.is_array()) return quoted(info) + " must be a list of block numbers, got " + v.dump();
  for (const auto& b : v) {
    int block = 0;
    if (!b.is_number_integer()) return quoted(info) + " must be a list of block numbers, got " + b.dump();
    if (std::string error = whole_number_field(info.key, b, block); !error.empty()) return error;
    field.push_back(block);
  }
  return "";
}

}  // namespace

std::variant<RunOptions, std::string> options_from_json(const nlohmann::json& j) {
  if (!j.is_object()) return std::string("a configuration is a JSON object");
  RunOptions o;
  std::string error;
  visit_fields(o, [&](const FieldInfo& info, auto& field) {
    if (error.empty()) error = read_field(info, j, field);
  });
  if (!error.empty()) return error;
  return o;
}

std::vector<std::string> options_to_args(const RunOptions& o) {
  std::vector<std::string> args;
  visit_fields(o, [&](const FieldInfo& info, const auto& field) {
    using F = std::decay_t<decltype(field)>;
    if constexpr (std::is_same_v<F, std::string>) {
      args.push_back(field);  // the positional ALGO
    } else if constexpr (std::is_same_v<F, std::vector<int>>) {
      for (int b : field) args.insert(args.end(), {info.option, std::to_string(b)});
    } else if (field) {
      if constexpr (std::is_same_v<F, std::optional<int>>) args.insert(args.end(), {info.option, std::to_string(*field)});
      else args.insert(args.end(), {info.option, *field});
    }
  });
  return args;
}

bool same_problem(const RunConfig& a, const RunConfig& b) {
  RunConfig x = a, y = b;
  x.schedule = y.schedule = {};
  x.time_limit_s = y.time_limit_s = sim::kDefaultSecondsPerBlock;
  x.detail_blocks.clear();
  y.detail_blocks.clear();
  return x == y;
}

}  // namespace syncscope
