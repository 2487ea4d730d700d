#include "app/state/scenario.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include <unistd.h>

namespace syncscope::app {

nlohmann::json scenario_to_json(const Scenario& s) {
  const RunOptions& o = s.options;
  nlohmann::json j = {{"syncscope_scenario", 1}, {"algorithm", o.algorithm}};
  if (!s.title.empty()) j["title"] = s.title;
  if (o.n) j["n"] = *o.n;
  if (o.rows) j["rows"] = *o.rows;
  if (o.tpb) j["tpb"] = *o.tpb;
  if (o.dtype) j["dtype"] = *o.dtype;
  if (o.input) j["input"] = *o.input;
  if (o.schedule) j["schedule"] = *o.schedule;
  if (!o.blocks.empty()) j["blocks"] = o.blocks;
  j["launch"] = s.launch;
  j["step"] = s.step;
  return j;
}

std::variant<Scenario, std::string> scenario_from_json(const nlohmann::json& j) {
  if (!j.is_object()) return std::string("a scenario is a JSON object");
  Scenario s;
  auto text = [&](const char* key, std::optional<std::string>& out) -> std::optional<std::string> {
    if (!j.contains(key)) return std::nullopt;
    if (!j[key].is_string()) return std::string("\"") + key + "\" must be text, got " + j[key].dump();
    out = j[key].get<std::string>();
    return std::nullopt;
  };
  auto whole = [&](const char* key, std::optional<int>& out) -> std::optional<std::string> {
    if (!j.contains(key)) return std::nullopt;
    if (!j[key].is_number_integer()) return std::string("\"") + key + "\" must be a whole number, got " + j[key].dump();
    out = j[key].get<int>();
    return std::nullopt;
  };
  if (!j.contains("algorithm") || !j["algorithm"].is_string()) return std::string("\"algorithm\" (text) is missing");
  s.options.algorithm = j["algorithm"].get<std::string>();
  if (j.contains("title") && j["title"].is_string()) s.title = j["title"].get<std::string>();
  std::optional<int> launch, step;
  for (auto e : {whole("n", s.options.n), whole("rows", s.options.rows), whole("tpb", s.options.tpb),
                 text("dtype", s.options.dtype), text("input", s.options.input), text("schedule", s.options.schedule),
                 whole("launch", launch), whole("step", step)})
    if (e) return *e;
  if (j.contains("blocks")) {
    if (!j["blocks"].is_array()) return std::string("\"blocks\" must be a list of block numbers");
    for (const auto& b : j["blocks"]) {
      if (!b.is_number_integer()) return std::string("\"blocks\" must be a list of block numbers, got ") + b.dump();
      s.options.blocks.push_back(b.get<int>());
    }
  }
  s.launch = launch.value_or(0);
  s.step = step.value_or(0);
  if (s.launch < 0 || s.step < 0) return std::string("\"launch\" and \"step\" count from 0");
  return s;
}

std::variant<Scenario, std::string> load_scenario(const std::string& path) {
  std::ifstream in(path);
  if (!in) return path + ": cannot open (" + std::strerror(errno) + ")";
  try {
    auto result = scenario_from_json(nlohmann::json::parse(in));
    if (auto* why = std::get_if<std::string>(&result)) return path + ": " + *why;
    return result;
  } catch (const nlohmann::json::parse_error& e) {
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
  return write_file_atomically(path, scenario_to_json(s).dump(2) + "\n");
}

Scenario scenario_of(const RunConfig& c, int launch, int step) {
  Scenario s;
  s.options.algorithm = c.algorithm->info.name;
  s.options.n = c.problem.n;
  if (c.algorithm->info.two_dimensional) s.options.rows = c.problem.rows;
  s.options.tpb = c.problem.tpb;
  s.options.dtype = std::string(sim::to_string(c.problem.dtype));
  s.options.input = c.input.text();
  s.options.schedule = c.schedule.name();
  s.options.blocks = c.detail_blocks;
  s.launch = launch;
  s.step = step;
  return s;
}

}  // namespace syncscope::app
