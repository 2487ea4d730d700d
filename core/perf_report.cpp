#include <algorithm>

#include "core/perf_json.h"
#include "core/regular_file.h"

namespace syncscope {
namespace {

const char* dtype_name(DType t) { return t == DType::Float32 ? "float32" : "int32"; }

nlohmann::json point_json(const PerfPoint& p) {
  nlohmann::json j = {{"ladder", p.ladder}, {"name", p.name},     {"n", p.n},
                      {"dtype", dtype_name(p.dtype)}, {"gbps", p.gbps}, {"ms", p.median_ms},
                      {"correct", p.correct}};
  if (p.tpb > 0) j["tpb"] = p.tpb;
  if (!p.error.empty()) j["error"] = p.error;
  return j;
}

// Reads one point; "" or what is wrong with it.
std::string read_point(const nlohmann::json& j, const std::string& where, PerfPoint& p) {
  if (!j.is_object()) return where + " is not an object";
  for (const char* key : {"name", "n", "dtype", "gbps"})
    if (!j.contains(key)) return where + ": '" + key + "' is missing";
  if (!j["name"].is_string() || !j["n"].is_number_integer() || !j["dtype"].is_string() || !j["gbps"].is_number())
    return where + ": 'name' must be text, 'n' a whole number, 'dtype' text and 'gbps' a number";
  p.name = j["name"].get<std::string>();
  p.ladder = j.value("ladder", std::string("baseline"));
  p.n = j["n"].get<long long>();
  const std::string dtype = j["dtype"].get<std::string>();
  if (dtype != "int32" && dtype != "float32") return where + ": dtype \"" + dtype + "\" is not int32 or float32";
  p.dtype = dtype == "float32" ? DType::Float32 : DType::Int32;
  p.gbps = j["gbps"].get<double>();
  if (p.n < 1 || !(p.gbps >= 0)) return where + ": n must be at least 1 and gbps 0 or more";
  p.median_ms = j.contains("ms") && j["ms"].is_number() ? j["ms"].get<double>() : 0;
  p.tpb = j.contains("tpb") && j["tpb"].is_number_integer() ? j["tpb"].get<int>() : 0;
  p.correct = j.contains("correct") && j["correct"].is_boolean() && j["correct"].get<bool>();
  p.error = j.contains("error") && j["error"].is_string() ? j["error"].get<std::string>() : "";
  return "";
}

}  // namespace

const PerfPoint* PerfReport::baseline(const std::string& name, long long n, DType dtype) const {
  for (const PerfPoint& b : baselines)
    if (b.name == name && b.n == n && b.dtype == dtype) return &b;
  return nullptr;
}

long long PerfReport::largest_n() const {
  long long n = 0;
  for (const PerfPoint& p : rungs)
    if (p.dtype == DType::Int32) n = std::max(n, p.n);
  return n;
}

nlohmann::json perf_json(const PerfReport& r) {
  nlohmann::json j = {{"device", r.device}, {"driver", r.driver}, {"cuda_runtime", r.cuda_runtime},
                      {"date", r.date},     {"runs", r.runs},     {"warmup", r.warmup}};
  // The headline figures at the largest size, int32 (the acceptance keys).
  const long long n = r.largest_n();
  const PerfPoint* copy = r.baseline("copy", n, DType::Int32);
  const PerfPoint* scan = r.baseline("cub-scan", n, DType::Int32);
  const PerfPoint* reduce = r.baseline("cub-reduce", n, DType::Int32);
  j["headline_n"] = n;
  j["copy_gbps"] = copy ? copy->gbps : 0.0;
  j["cub"] = {{"scan_gbps", scan ? scan->gbps : 0.0}, {"reduce_gbps", reduce ? reduce->gbps : 0.0}};
  j["baselines"] = nlohmann::json::array();
  for (const PerfPoint& p : r.baselines) j["baselines"].push_back(point_json(p));
  j["rungs"] = nlohmann::json::array();
  for (const PerfPoint& p : r.rungs) j["rungs"].push_back(point_json(p));
  if (!r.error.empty()) j["error"] = r.error;
  return j;
}

std::optional<PerfReport> perf_from_json(const nlohmann::json& j, std::string* error) {
  auto fail = [&](const std::string& why) -> std::optional<PerfReport> {
    if (error) *error = why;
    return std::nullopt;
  };
  if (!j.is_object()) return fail("the file is not a JSON object");
  for (const char* key : {"device", "date", "rungs"})
    if (!j.contains(key)) return fail(std::string("'") + key + "' is missing");
  if (!j["device"].is_string() || !j["date"].is_string() || !j["rungs"].is_array())
    return fail("'device' and 'date' must be text and 'rungs' a list");
  PerfReport r;
  r.device = j["device"].get<std::string>();
  r.date = j["date"].get<std::string>();
  r.driver = j.contains("driver") && j["driver"].is_string() ? j["driver"].get<std::string>() : "";
  r.cuda_runtime = j.contains("cuda_runtime") && j["cuda_runtime"].is_string() ? j["cuda_runtime"].get<std::string>() : "";
  r.runs = j.contains("runs") && j["runs"].is_number_integer() ? j["runs"].get<int>() : 0;
  r.warmup = j.contains("warmup") && j["warmup"].is_number_integer() ? j["warmup"].get<int>() : 0;
  for (size_t k = 0; k < j["rungs"].size(); ++k) {
    PerfPoint p;
    if (std::string bad = read_point(j["rungs"][k], "rungs[" + std::to_string(k) + "]", p); !bad.empty()) return fail(bad);
    r.rungs.push_back(std::move(p));
  }
  if (j.contains("baselines")) {
    if (!j["baselines"].is_array()) return fail("'baselines' must be a list");
    for (size_t k = 0; k < j["baselines"].size(); ++k) {
      PerfPoint p;
      if (std::string bad = read_point(j["baselines"][k], "baselines[" + std::to_string(k) + "]", p); !bad.empty())
        return fail(bad);
      p.ladder = "baseline";
      r.baselines.push_back(std::move(p));
    }
  }
  return r;
}

std::optional<PerfReport> perf_from_file(const std::string& path, std::string* error) {
  constexpr size_t kLargestReport = 16u << 20;  // a report is a few kB; far more is not one
  auto text = read_regular_file(path, kLargestReport);
  if (text.index() == 1) {
    if (error) *error = std::get<1>(text);
    return std::nullopt;
  }
  try {
    return perf_from_json(nlohmann::json::parse(std::get<0>(text)), error);
  } catch (const nlohmann::json::exception& e) {
    if (error) *error = std::string("not JSON (") + e.what() + ")";
    return std::nullopt;
  }
}

}  // namespace syncscope
