#include "core/config_fields.h"

#include <charconv>

namespace syncscope {

std::optional<ConfigField> field_of_option(std::string_view option) {
  for (const FieldInfo& info : kFieldInfos)
    if (option == info.option) return info.field;
  return std::nullopt;
}

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

}  // namespace syncscope
