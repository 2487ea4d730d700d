#include "app/state/scenario.h"

#include "app/state/text_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

namespace syncscope::app {

nlohmann::json scenario_to_json(const Scenario& s) {
  nlohmann::json j = options_to_json(s.options);
  j["syncscope_scenario"] = 1;
  if (!s.title.empty()) j["title"] = s.title;
  j["launch"] = s.launch;
  j["step"] = s.step;
  return j;
}

std::variant<Scenario, std::string> scenario_from_json(const nlohmann::json& j) {
  auto options = options_from_json(j);
  if (auto* why = std::get_if<std::string>(&options)) return *why;
  Scenario s;
  s.options = std::get<RunOptions>(std::move(options));
  if (j.contains("title") && j["title"].is_string()) s.title = j["title"].get<std::string>();
  for (auto [key, out] : {std::pair{"launch", &s.launch}, std::pair{"step", &s.step}}) {
    if (!j.contains(key)) continue;
    if (std::string why = whole_number_field(key, j[key], *out); !why.empty()) return why;
  }
  if (s.launch < 0 || s.step < 0) return std::string("\"launch\" and \"step\" count from 0");
  return s;
}

std::variant<Scenario, std::string> load_scenario(const std::string& path) {
  auto text = read_text_file(path);
  if (text.index() == 1) return std::get<1>(text);
  try {
    auto result = scenario_from_json(nlohmann::json::parse(std::get<0>(text)));
    if (auto* why = std::get_if<std::string>(&result)) return path + ": " + *why;
    Scenario& s = std::get<Scenario>(result);
    // An input file named in a scenario is found next to the scenario, wherever the app was started.
    if (s.options.input && s.options.input->starts_with("@") && *s.options.input != "@-") {
      const std::filesystem::path data = s.options.input->substr(1);
      if (data.is_relative()) s.options.input = "@" + (std::filesystem::path(path).parent_path() / data).lexically_normal().string();
    }
    return result;
  } catch (const nlohmann::json::exception& e) {  // a syntax error, or a number too large for a double
    return path + ": not JSON (" + e.what() + ")";
  }
}

std::optional<std::string> write_file_atomically(const std::string& path, const std::string& text) {
  const std::string temp = path + ".tmp-" + std::to_string(::getpid());
  {
    std::ofstream out(temp, std::ios::trunc);
    if (!out) return temp + ": cannot write (" + std::strerror(errno) + ")";
    out << text;
    out.flush();
    if (!out) {
      std::remove(temp.c_str());
      return temp + ": write failed";
    }
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    std::remove(temp.c_str());
    return path + ": cannot replace (" + why + ")";
  }
  return std::nullopt;
}

std::optional<std::string> save_scenario(const std::string& path, const Scenario& s) {
  Scenario saved = s;
  // An input file is written relative to the scenario when it lies beside or below it, so the two
  // can be copied to another machine together; elsewhere, as an absolute path.
  if (saved.options.input && saved.options.input->starts_with("@") && *saved.options.input != "@-") {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path data = fs::absolute(saved.options.input->substr(1), ec).lexically_normal();
    const fs::path relative = data.lexically_relative(fs::absolute(path, ec).parent_path());
    const bool beside = !relative.empty() && *relative.begin() != "..";
    saved.options.input = "@" + (beside ? relative : data).string();
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
