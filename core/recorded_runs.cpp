#include "core/recorded_runs.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <set>
#include <variant>

#include "core/regular_file.h"

namespace syncscope {
namespace fs = std::filesystem;

namespace {

constexpr int kFormat = 1;
// A recording of ~60 configurations is well under a megabyte; a file far past this is not one.
constexpr size_t kMaxFileBytes = 64u << 20;

std::string hex_words(const std::vector<uint32_t>& bits) {
  std::string text(bits.size() * 8, '0');
  for (size_t k = 0; k < bits.size(); ++k) std::snprintf(&text[k * 8], 9, "%08x", bits[k]);
  return text;
}

std::optional<std::vector<uint32_t>> words_of_hex(const std::string& text) {
  if (text.size() % 8) return std::nullopt;
  std::vector<uint32_t> bits(text.size() / 8);
  for (size_t k = 0; k < bits.size(); ++k) {
    uint32_t v = 0;
    for (size_t c = 0; c < 8; ++c) {
      const char ch = text[k * 8 + c];
      const int digit = ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;
      if (digit < 0) return std::nullopt;
      v = v << 4 | static_cast<uint32_t>(digit);
    }
    bits[k] = v;
  }
  return bits;
}

nlohmann::json outcomes_json(const Outcomes& o) {
  nlohmann::json j = {{"runs", o.runs}, {"error", o.error}};
  int not_kept = o.distinct_not_kept;
  std::vector<const Outcome*> shown;
  int wrong_shown = 0;
  for (const Outcome& d : o.distinct)  // most frequent first (order() in outcomes.cpp)
    if (d.match) shown.push_back(&d);
    else if (wrong_shown < kMaxKeptOutputs) ++wrong_shown, shown.push_back(&d);
    else ++not_kept;
  nlohmann::json outputs = nlohmann::json::array();
  for (const Outcome* d : shown)
    outputs.push_back({{"runs", d->runs}, {"match", d->match}, {"wrong", d->wrong}, {"first_wrong", d->first_wrong},
                       {"bits", hex_words(d->bits)}});
  j["outputs"] = std::move(outputs);
  j["distinct_not_kept"] = not_kept;
  return j;
}

std::optional<Outcomes> outcomes_of_json(const nlohmann::json& j) {
  Outcomes o;
  o.runs = j.at("runs").get<int>();
  o.error = j.at("error").get<std::string>();
  o.distinct_not_kept = j.at("distinct_not_kept").get<int>();
  for (const nlohmann::json& d : j.at("outputs")) {
    Outcome out;
    out.runs = d.at("runs").get<int>();
    out.match = d.at("match").get<bool>();
    out.wrong = d.at("wrong").get<int>();
    out.first_wrong = d.at("first_wrong").get<int>();
    std::optional<std::vector<uint32_t>> bits = words_of_hex(d.at("bits").get<std::string>());
    if (!bits) return std::nullopt;
    out.bits = std::move(*bits);
    out.poison.assign(out.bits.size(), 0);
    o.distinct.push_back(std::move(out));
  }
  return o;
}

}  // namespace

std::string recorded_runs_key(const RunConfig& config) {
  if (!config.algorithm || config.algorithm->info.program || config.input.kind == InputKind::Values) return "";
  std::string text = config.describe();
  const size_t schedule = text.rfind(" schedule=");
  return schedule == std::string::npos ? text : text.substr(0, schedule);
}

std::vector<RunConfig> recorded_runs_configs(const Registry& registry, const std::vector<RunOptions>& lessons) {
  std::vector<RunConfig> configs;
  std::set<std::string> keys;
  auto add_variants = [&](const AlgoInfo& info, RunOptions o) {
    std::vector<std::string> variants = {"none"};
    for (const BugInfo& b : info.bugs) variants.push_back(b.name);
    for (const std::string& bug : variants) {
      o.bug = bug;
      o.schedule.reset();
      o.blocks.clear();
      auto resolved = resolve(registry, o);
      if (auto* c = std::get_if<RunConfig>(&resolved); c && keys.insert(recorded_runs_key(*c)).second)
        configs.push_back(std::move(*c));
    }
  };
  for (const AlgorithmEntry& entry : registry.all()) {
    const AlgoInfo& info = entry.info;
    if (info.bugs.empty() || info.program) continue;
    for (int tpb : {8, 32, 256, 1024}) {
      RunOptions o;
      o.algorithm = info.name;
      o.n = tpb;
      o.tpb = tpb;
      o.dtype = "float32";
      o.input = "iota";
      if (info.two_dimensional) o.rows = 1;
      add_variants(info, o);
    }
  }
  for (const RunOptions& lesson : lessons)
    if (const AlgorithmEntry* entry = registry.find(lesson.algorithm); entry && !entry->info.bugs.empty())
      add_variants(entry->info, lesson);
  return configs;
}

nlohmann::json recorded_runs_json(const std::string& device, const std::string& date,
                                  const std::vector<RecordedRun>& runs) {
  nlohmann::json configs = nlohmann::json::object();
  for (const RecordedRun& r : runs) configs[r.key] = outcomes_json(r.outcomes);
  return {{"syncscope_gpu_runs", kFormat}, {"device", device}, {"date", date}, {"configs", std::move(configs)}};
}

std::optional<Outcomes> find_recorded_outcomes(const RunConfig& config, const std::vector<std::string>& folders) {
  const std::string key = recorded_runs_key(config);
  if (key.empty()) return std::nullopt;
  for (const std::string& folder : folders) {
    std::error_code ec;
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(folder, ec))
      if (entry.path().extension() == ".json") files.push_back(entry.path());
    std::sort(files.rbegin(), files.rend());  // the newest date first, as the names end in it
    for (const fs::path& file : files) {
      const auto read = read_regular_file(file.string(), kMaxFileBytes);
      if (read.index() != 0) continue;
      const std::string& text = std::get<0>(read);
      try {
        const nlohmann::json j = nlohmann::json::parse(text);
        if (j.at("syncscope_gpu_runs").get<int>() != kFormat) continue;
        const nlohmann::json& configs = j.at("configs");
        auto it = configs.find(key);
        if (it == configs.end()) continue;
        std::optional<Outcomes> o = outcomes_of_json(*it);
        if (!o) continue;
        o->recorded_on = j.at("device").get<std::string>() + ", " + j.at("date").get<std::string>();
        return o;
      } catch (const nlohmann::json::exception&) {
        continue;
      }
    }
  }
  return std::nullopt;
}

std::vector<std::string> recorded_runs_folders() {
  return {"assets/gpu-runs", (fs::path(SYNCSCOPE_SOURCE_DIR) / "assets/gpu-runs").string()};
}

Outcomes or_recorded(Outcomes live, const RunConfig& config) {
  if (!live.unavailable) return live;
  std::optional<Outcomes> recorded = find_recorded_outcomes(config, recorded_runs_folders());
  return recorded ? std::move(*recorded) : std::move(live);
}

}  // namespace syncscope
