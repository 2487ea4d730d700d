#include "app/state/scenario.h"

#include "app/state/text_file.h"

#include <algorithm>
#include <array>
#include <filesystem>
#include <numeric>

namespace syncscope::app {

namespace {

namespace fs = std::filesystem;

// The keys a scenario may hold besides the configuration's (core/config_fields.h).
constexpr std::array kScenarioKeys{"syncscope_scenario", "title", "launch", "step"};

std::vector<std::string> known_keys() {
  std::vector<std::string> keys;
  for (const FieldInfo& info : kFieldInfos) keys.emplace_back(info.key);
  keys.insert(keys.end(), kScenarioKeys.begin(), kScenarioKeys.end());
  return keys;
}

// Levenshtein's distance: the fewest insertions, deletions and substitutions from a to b.
size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> previous(b.size() + 1), current(b.size() + 1);
  std::iota(previous.begin(), previous.end(), size_t{0});
  for (size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (size_t k = 1; k <= b.size(); ++k)
      current[k] = std::min({previous[k] + 1, current[k - 1] + 1, previous[k - 1] + (a[i - 1] == b[k - 1] ? 0 : 1)});
    std::swap(previous, current);
  }
  return previous[b.size()];
}

// "" when every key is known, else the first unknown one with the nearest known key, or the list
// of keys when none is near (a typo changes a character or two; "kernel" is no typo of any key).
std::string unknown_key(const nlohmann::json& j) {
  if (!j.is_object()) return "";
  const std::vector<std::string> keys = known_keys();
  for (const auto& item : j.items()) {
    const std::string& key = item.key();
    if (std::find(keys.begin(), keys.end(), key) != keys.end()) continue;
    const std::string named = "unknown key \"" + key + "\"";
    const auto nearest = std::min_element(keys.begin(), keys.end(), [&](const std::string& a, const std::string& b) {
      return edit_distance(key, a) < edit_distance(key, b);
    });
    if (edit_distance(key, *nearest) <= std::max<size_t>(2, key.size() / 4)) return named + "; did you mean \"" + *nearest + "\"?";
    std::string list;
    for (const std::string& k : keys) list += (list.empty() ? "\"" : ", \"") + k + "\"";
    const std::string kernel_note = key == "kernel" ? " (a kernel file opens with `syncscope gui --kernel FILE`)" : "";
    return named + "; a scenario's keys are " + list + kernel_note;
  }
  return "";
}

// `data` (absolute, or relative to `folder`) with every symlink resolved, relative to `folder`
// (resolved too); nullopt when it lies outside it.
std::optional<fs::path> inside_folder(const fs::path& folder, const fs::path& data) {
  std::error_code ec;
  const fs::path real_folder = fs::weakly_canonical(fs::absolute(folder, ec), ec);
  if (ec) return std::nullopt;
  const fs::path real_data = fs::weakly_canonical(data.is_absolute() ? data : real_folder / data, ec);
  if (ec) return std::nullopt;
  const fs::path relative = real_data.lexically_relative(real_folder);
  if (relative.empty() || *relative.begin() == "..") return std::nullopt;
  return relative;
}

fs::path folder_of(const std::string& scenario_path) {
  const fs::path folder = fs::path(scenario_path).parent_path();
  return folder.empty() ? fs::path(".") : folder;
}

// An input file named in a scenario is found in the scenario's folder or below it, wherever the app
// was started; one elsewhere (`..`, an absolute path, a symlink pointing out) is refused, so a
// scenario from someone else reads no file of yours. Standard input is not a scenario's.
std::optional<std::string> place_input(const std::string& scenario_path, std::optional<std::string>& input) {
  if (!input || !input->starts_with("@")) return std::nullopt;
  const std::string quoted = "\"input\" " + *input;
  if (*input == "@-") return quoted + ": a scenario's input is a file in its folder, not standard input";
  const fs::path folder = folder_of(scenario_path);
  const std::optional<fs::path> inside = inside_folder(folder, input->substr(1));
  if (!inside) {
    std::error_code ec;
    return quoted + ": outside the scenario's folder " + fs::weakly_canonical(fs::absolute(folder, ec), ec).string() +
           "; a scenario reads input files only from its own folder and below";
  }
  input = "@" + (folder / *inside).lexically_normal().string();
  return std::nullopt;
}

}  // namespace

nlohmann::json scenario_to_json(const Scenario& s) {
  nlohmann::json j = options_to_json(s.options);
  j["syncscope_scenario"] = 1;
  if (!s.title.empty()) j["title"] = s.title;
  j["launch"] = s.launch;
  j["step"] = s.step;
  return j;
}

std::variant<Scenario, std::string> scenario_from_json(const nlohmann::json& j) {
  if (std::string why = unknown_key(j); !why.empty()) return why;
  auto options = options_from_json(j);
  if (auto* why = std::get_if<std::string>(&options)) return *why;
  Scenario s;
  s.options = std::get<RunOptions>(std::move(options));
  if (j.contains("title")) {
    if (!j["title"].is_string()) return "\"title\" must be text, got " + j["title"].dump();
    s.title = j["title"].get<std::string>();
  }
  for (auto [key, out] : {std::pair{"launch", &s.launch}, std::pair{"step", &s.step}}) {
    if (!j.contains(key)) continue;
    if (std::string why = whole_number_field(key, j[key], *out); !why.empty()) return why;
    if (*out < 0) return "\"" + std::string(key) + "\" " + std::to_string(*out) + ": counts from 0";
  }
  return s;
}

std::variant<Scenario, std::string> load_scenario(const std::string& path) {
  auto text = read_text_file(path);
  if (text.index() == 1) return std::get<1>(text);
  try {
    auto result = scenario_from_json(nlohmann::json::parse(std::get<0>(text)));
    if (auto* why = std::get_if<std::string>(&result)) return path + ": " + *why;
    Scenario& s = std::get<Scenario>(result);
    if (auto refused = place_input(path, s.options.input)) return path + ": " + *refused;
    return result;
  } catch (const nlohmann::json::exception& e) {  // a syntax error, or a number too large for a double
    return path + ": not JSON (" + e.what() + ")";
  }
}

std::optional<std::string> save_scenario(const std::string& path, const Scenario& s) {
  Scenario saved = s;
  // An input file is written relative to the scenario when it lies in its folder or below, so the
  // two can be copied to another machine together. One elsewhere would not open again (see
  // place_input): its values are written into the scenario instead.
  if (std::optional<std::string>& input = saved.options.input; input && input->starts_with("@") && *input != "@-") {
    if (auto inside = inside_folder(folder_of(path), input->substr(1))) {
      input = "@" + inside->string();
    } else {
      std::string why;
      auto values = InputSpec::parse(*input, &why);
      if (!values) return path + ": the input " + *input + " cannot be read to be written into the scenario: " + why;
      values->file.clear();  // written as numbers
      input = values->text();
    }
  }
  return write_file_atomically(path, scenario_to_json(saved).dump(2) + "\n");
}

Scenario scenario_of(const RunConfig& c, int launch, int step) {
  Scenario s;
  s.options = options_of(c);
  s.launch = launch;
  s.step = step;
  return s;
}

}  // namespace syncscope::app
