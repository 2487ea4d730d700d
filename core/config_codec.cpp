#include "core/config_codec.h"

#include <charconv>
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
  if (c.time_limit_s != sim::kDefaultSecondsPerBlock) {
    char text[32];
    auto end = std::to_chars(text, text + sizeof text, c.time_limit_s).ptr;  // shortest text that reads back the same
    o.time_limit = std::string(text, end);
  }
  return o;
}

nlohmann::json options_to_json(const RunOptions& o) {
  nlohmann::json j = {{"algorithm", o.algorithm}};
  visit_fields(o, [&](const char* key, const auto& field) {
    using F = std::decay_t<decltype(field)>;
    if constexpr (std::is_same_v<F, std::vector<int>>) {
      if (!field.empty()) j[key] = field;
    } else if (field) {
      j[key] = *field;
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

std::variant<RunOptions, std::string> options_from_json(const nlohmann::json& j) {
  if (!j.is_object()) return std::string("a configuration is a JSON object");
  if (!j.contains("algorithm") || !j["algorithm"].is_string()) return std::string("\"algorithm\" (text) is missing");
  RunOptions o;
  o.algorithm = j["algorithm"].get<std::string>();
  std::string error;
  visit_fields(o, [&](const char* key, auto& field) {
    if (!error.empty() || !j.contains(key)) return;
    const nlohmann::json& v = j[key];
    using F = std::decay_t<decltype(field)>;
    if constexpr (std::is_same_v<F, std::optional<int>>) {
      int number = 0;
      error = whole_number_field(key, v, number);
      if (error.empty()) field = number;
    } else if constexpr (std::is_same_v<F, std::optional<std::string>>) {
      if (!v.is_string()) error = std::string("\"") + key + "\" must be text, got " + v.dump();
      else field = v.get<std::string>();
    } else {
      if (!v.is_array()) error = std::string("\"") + key + "\" must be a list of block numbers, got " + v.dump();
      for (const auto& b : v) {
        if (!error.empty()) break;
        int block = 0;
        if (!b.is_number_integer()) error = std::string("\"") + key + "\" must be a list of block numbers, got " + b.dump();
        else if (error = whole_number_field(key, b, block); error.empty()) field.push_back(block);
      }
    }
  });
  if (!error.empty()) return error;
  return o;
}

std::vector<std::string> options_to_args(const RunOptions& o) {
  std::vector<std::string> args{o.algorithm};
  visit_fields(o, [&](const char* key, const auto& field) {
    using F = std::decay_t<decltype(field)>;
    if constexpr (std::is_same_v<F, std::vector<int>>) {
      for (int b : field) args.insert(args.end(), {"--block", std::to_string(b)});
    } else if (field) {
      if constexpr (std::is_same_v<F, std::optional<int>>) args.insert(args.end(), {std::string("--") + key, std::to_string(*field)});
      else args.insert(args.end(), {std::string("--") + key, *field});
    }
  });
  return args;
}

bool same_problem(const RunConfig& a, const RunConfig& b) {
  RunOptions x = options_of(a), y = options_of(b);
  x.schedule = y.schedule = std::nullopt;
  x.time_limit = y.time_limit = std::nullopt;
  x.blocks.clear();
  y.blocks.clear();
  return options_to_json(x) == options_to_json(y);
}

}  // namespace syncscope
