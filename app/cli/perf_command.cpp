#include "app/cli/perf_command.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "app/command_line/config_args.h"
#include "core/atomic_file.h"
#include "core/kernel_file.h"
#include "kernels/ladders.h"
#include "core/perf_json.h"

namespace syncscope::cli {
namespace {

// "16..28" or "20" -> the log2 bounds, or why not.
std::optional<std::string> parse_sizes(const std::string& text, PerfOptions& o) {
  const std::string why = "--sizes " + text + ": expected log2 of n as MIN..MAX or K, each 10..28 (n = 2^10 .. 2^28)";
  int lo = 0, hi = 0;
  char tail = 0;
  if (std::sscanf(text.c_str(), "%d..%d%c", &lo, &hi, &tail) == 2) {
  } else if (std::sscanf(text.c_str(), "%d%c", &lo, &tail) == 1 && text.find("..") == std::string::npos) {
    hi = lo;
  } else {
    return why;
  }
  if (lo < 10 || hi > 28 || lo > hi) return why;
  o.min_log2 = lo;
  o.max_log2 = hi;
  return std::nullopt;
}

// A whole number within [lo, hi] into `out`, or the message naming the option, the value and the
// limit on `err` (false).
bool parse_ranged(const std::string& option, const std::string& text, int lo, int hi, const char* limit, int& out,
                  std::ostream& err) {
  const std::string range = std::to_string(lo) + ".." + std::to_string(hi);
  std::optional<int> value;
  if (auto bad = command_line::parse_whole(option, text, value, range.c_str())) {
    err << "syncscope: " << *bad << "\n";
    return false;
  }
  if (*value < lo || *value > hi) {
    err << "syncscope: " << option << " " << *value << ": " << limit << "\n";
    return false;
  }
  out = *value;
  return true;
}

std::string fixed(double v, int decimals) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

}  // namespace

void add_perf_options(CLI::App& perf, PerfArgs& a) {
  perf.add_option("--sizes", a.sizes, "log2 of n: MIN..MAX or K, 10..28 (default 16..28)");
  perf.add_option("--dtype", a.dtype, "int32, float32 or both (default)");
  perf.add_option("--runs", a.runs, "timed runs per measurement, 20..1000 (default 25); the median is kept");
  perf.add_option("--tpb", a.tpb, "threads per block for every rung, 32..1024 (default: each rung's own)");
  perf.add_option("--only", a.only, "comma-separated rung names (`syncscope list`), baselines always run");
  perf.add_option("--show", a.show, "print a saved result (JSON from --json or --save) instead of timing");
  perf.add_option("--save", a.save, "also write the JSON result to this file");
  perf.add_flag("--json", a.json, "one JSON document instead of text");
}

void print_perf(std::ostream& out, const PerfReport& r) {
  out << "device: " << r.device << (r.driver.empty() ? "" : ", driver " + r.driver)
      << (r.cuda_runtime.empty() ? "" : ", CUDA runtime " + r.cuda_runtime) << ", " << r.date << "; median of "
      << r.runs << " runs after " << r.warmup << " warm-up\n";
  for (DType dtype : {DType::Int32, DType::Float32}) {
    std::set<long long> sizes;
    for (const PerfPoint& p : r.rungs)
      if (p.dtype == dtype) sizes.insert(p.n);
    if (sizes.empty()) continue;
    const char* type = dtype == DType::Int32 ? "int32" : "float32";
    out << "\nGB/s, " << type << " (scan and copy count 8 bytes an element, reduce 4)\n";
    out << "  " << std::left;
    out.width(28);
    out << "n = 2^";
    for (long long n : sizes) {
      out.width(8);
      out << std::right << __builtin_ctzll(n) << std::left;
    }
    out << "\n";
    auto row = [&](const std::string& label, auto&& find) {
      out << "  ";
      out.width(28);
      out << label;
      for (long long n : sizes) {
        const PerfPoint* p = find(n);
        out.width(8);
        out << std::right << (!p ? "-" : !p->error.empty() ? "n/a" : p->correct ? fixed(p->gbps, 0) : "WRONG")
            << std::left;
      }
      out << "\n";
    };
    for (const char* base : {"copy", "cub-scan", "cub-reduce"})
      row(base, [&](long long n) { return r.baseline(base, n, dtype); });
    for (const Rung& rung : kLadderRungs) {
      const std::string name(rung.algorithm);
      row(name, [&](long long n) -> const PerfPoint* {
        for (const PerfPoint& p : r.rungs)
          if (p.name == name && p.n == n && p.dtype == dtype) return &p;
        return nullptr;
      });
    }
    const long long top = *sizes.rbegin();
    const PerfPoint* copy = r.baseline("copy", top, dtype);
    out << "\nat n = 2^" << __builtin_ctzll(top) << ", " << type << ":\n";
    for (const PerfPoint& p : r.rungs) {
      if (p.dtype != dtype || p.n != top) continue;
      const PerfPoint* cub = r.baseline(p.ladder == "scan" ? "cub-scan" : "cub-reduce", top, dtype);
      out << "  ";
      out.width(28);
      out << p.name << std::right;
      out.width(8);
      out << fixed(p.gbps, 0) << " GB/s";
      out.width(6);
      out << (copy && copy->gbps > 0 ? fixed(100 * p.gbps / copy->gbps, 0) : "-") << " % of copy";
      out.width(6);
      out << (cub && cub->gbps > 0 ? fixed(100 * p.gbps / cub->gbps, 0) : "-") << " % of CUB"
          << (p.error.empty() ? (p.correct ? "" : "  WRONG") : "  " + p.error) << std::left << "\n";
    }
  }
  if (!r.error.empty()) out << "\nerror: " << r.error << "\n";
}

int perf_command(const PerfArgs& a, std::ostream& out, std::ostream& err, bool check_only) {
  if (!a.show.empty() && !check_only) {
    std::string why;
    const std::optional<PerfReport> r = perf_from_file(a.show, &why);
    if (!r) {
      err << "syncscope: --show " << a.show << ": " << why << "\n";
      return command_line::kExitBadArguments;
    }
    if (a.json) out << perf_json(*r).dump(1) << "\n";
    else print_perf(out, *r);
    return command_line::kExitRan;
  }

  PerfOptions o;
  if (auto bad = parse_sizes(a.sizes, o)) {
    err << "syncscope: " << *bad << "\n";
    return command_line::kExitBadArguments;
  }
  if (a.dtype == "int32") o.dtypes = {DType::Int32};
  else if (a.dtype == "float32") o.dtypes = {DType::Float32};
  else if (a.dtype != "both") {
    err << "syncscope: --dtype " << a.dtype << ": expected int32, float32 or both\n";
    return command_line::kExitBadArguments;
  }
  if (a.runs && !parse_ranged("--runs", *a.runs, 20, 1000, "the median is taken of 20..1000 runs", o.runs, err))
    return command_line::kExitBadArguments;
  if (a.tpb && !parse_ranged("--tpb", *a.tpb, 32, 1024, "threads per block must be 32..1024 here", o.tpb, err))
    return command_line::kExitBadArguments;
  std::stringstream names(a.only);
  for (std::string name; std::getline(names, name, ',');) {
    if (name.empty()) continue;
    if (std::none_of(kLadderRungs.begin(), kLadderRungs.end(), [&](const Rung& r) { return r.algorithm == name; })) {
      std::string known;
      for (const Rung& r : kLadderRungs) known += (known.empty() ? "" : ", ") + std::string(r.algorithm);
      err << "syncscope: --only " << name << ": not a rung; the rungs are " << known << "\n";
      return command_line::kExitBadArguments;
    }
    o.only.push_back(name);
  }

  if (check_only) return command_line::kExitRan;
  std::ostream& progress_out = a.json ? err : out;
  const PerfReport r = run_perf(o, [&](const std::string& line) { progress_out << line << std::endl; });
  if (r.rungs.empty() && r.baselines.empty()) {
    err << "syncscope: perf: " << r.error
        << "\n  the last saved results ship in assets/perf/: `syncscope perf --show FILE`, or the app's Performance "
           "panel\n";
    return kExitNoGpu;
  }
  const nlohmann::json j = perf_json(r);
  // This machine's own results, where the Performance panel looks first, and --save's copy.
  std::error_code ec;
  const std::filesystem::path dir = perf_results_dir();
  std::filesystem::create_directories(dir, ec);
  bool written = true;
  for (const std::string& path : {(dir / (r.date + ".json")).string(), a.save}) {
    if (path.empty()) continue;
    if (auto failed = write_file_atomically(path, j.dump(1) + "\n")) {
      err << "syncscope: " << *failed << "\n";
      written = false;
    }
  }
  if (!written) return command_line::kExitInternal;
  if (a.json) out << j.dump(1) << "\n";
  else print_perf(out, r);
  bool all_correct = r.error.empty();
  for (const PerfPoint& p : r.rungs) all_correct = all_correct && p.correct;
  for (const PerfPoint& p : r.baselines) all_correct = all_correct && p.correct;
  return all_correct ? command_line::kExitRan : command_line::kExitInternal;
}

}  // namespace syncscope::cli
