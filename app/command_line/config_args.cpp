#include "app/command_line/config_args.h"

#include <charconv>
#include <type_traits>

namespace syncscope::command_line {

std::optional<std::string> parse_whole(const std::string& option, const std::string& text, std::optional<int>& out,
                                       const char* range) {
  int v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size())
    return option + " " + (text.empty() ? "''" : text) + ": expected a whole number in " + range;
  out = v;
  return std::nullopt;
}

std::optional<std::string> parse_count(const CountOption& o, const std::string& text, std::optional<int>& out) {
  if (auto bad = parse_whole(o.option, text, out, limit_text(o).c_str())) return bad;
  if (std::string why = out_of_range(o, *out); !why.empty()) {
    out.reset();
    return std::string(o.option) + " " + text + ": " + why;
  }
  return std::nullopt;
}

void add_config_options(CLI::App& cmd, ConfigArgs& a) {
  visit_fields(a.options, [&](const FieldInfo& info, auto& field) {
    using F = std::decay_t<decltype(field)>;
    if constexpr (std::is_same_v<F, std::optional<std::string>>) {
      cmd.add_option(info.option, field, help_text(info.field));
    } else if constexpr (std::is_same_v<F, std::optional<int>>) {
      cmd.add_option(info.option, a.whole_words[info.field], help_text(info.field));
    } else if constexpr (std::is_same_v<F, std::vector<int>>) {
      cmd.add_option(info.option, a.whole_lists[info.field], help_text(info.field));
    }
  });
}

std::optional<std::string> finish_config(ConfigArgs& a) {
  std::optional<std::string> bad;
  visit_fields(a.options, [&](const FieldInfo& info, auto& field) {
    using F = std::decay_t<decltype(field)>;
    if constexpr (std::is_same_v<F, std::optional<int>>) {
      const std::optional<std::string>& word = a.whole_words[info.field];
      if (word && !bad) bad = parse_whole(info.option, *word, field, limit_text(info.field).c_str());
    } else if constexpr (std::is_same_v<F, std::vector<int>>) {
      for (const std::string& word : a.whole_lists[info.field]) {
        std::optional<int> value;
        if (!bad) bad = parse_whole(info.option, word, value, limit_text(info.field).c_str());
        if (value) field.push_back(*value);
      }
    }
  });
  return bad;
}

}  // namespace syncscope::command_line
