#include "core/config_fields.h"

#include <charconv>

#include "sim/memory.h"

namespace syncscope {

std::string shortest_text(double v) {
  char text[32];
  const auto end = std::to_chars(text, text + sizeof text, v).ptr;
  return std::string(text, end);
}

std::string limit_text(ConfigField f) {
  const FieldInfo& info = field_info(f);
  if (info.range) return shortest_text(info.range->min) + ".." + shortest_text(info.range->max);
  return info.limit_note ? info.limit_note : "";
}

std::string help_text(ConfigField f) {
  const FieldInfo& info = field_info(f);
  std::string help = info.help;
  if (info.range) help += ", " + limit_text(f);
  if (info.fixed_default) help += " (default " + shortest_text(*info.fixed_default) + ")";
  return help;
}

std::string ConfigError::text() const {
  if (message_names_option) return message;
  return field_info(field).option + (value.empty() ? "" : " " + value) + ": " + message;
}

std::string ConfigError::json_text() const {
  if (message_names_option) return message;
  return "\"" + std::string(field_info(field).key) + "\"" + (value.empty() ? "" : " " + value) + ": " + message;
}

std::string ConfigError::form_text() const {
  if (message_names_option) return message;
  return (value.empty() ? "" : value + ": ") + message;
}

std::string limit_text(const CountOption& o) { return std::to_string(o.min) + ".." + std::to_string(o.max); }

std::string out_of_range(const CountOption& o, long long value) {
  if (value >= o.min && value <= o.max) return "";
  if (o.min == 0 && o.max == std::numeric_limits<int>::max()) return std::string(o.noun) + " count from 0";
  return std::string(o.noun) + " must be " + limit_text(o);
}

ConfigError config_error(const ProblemError& refused, const Problem& p) {
  struct Spelled {
    ConfigField field;
    std::string value;
  };
  const Spelled spelled = [&]() -> Spelled {
    switch (refused.field) {
      case ProblemField::N: return {ConfigField::N, std::to_string(p.n)};
      case ProblemField::Rows: return {ConfigField::Rows, std::to_string(p.rows)};
      case ProblemField::Tpb: return {ConfigField::Tpb, std::to_string(p.tpb)};
      case ProblemField::Dtype: return {ConfigField::Dtype, std::string(sim::to_string(p.dtype))};
    }
    return {ConfigField::Algorithm, ""};
  }();
  if (refused.names_options) return ConfigError{spelled.field, "", refused.why, /*message_names_option=*/true};
  return ConfigError{spelled.field, spelled.value, refused.why};
}

}  // namespace syncscope
