// `syncscope perf`: every rung of both ladders timed on the GPU against a device-to-device copy and
// CUB's DeviceScan::InclusiveSum / DeviceReduce::Sum, measured in the same run, and checked against
// the CPU reference. Plain C++: the timing itself is in core/cuda/perf_runner.cu (GPU builds;
// others say why they cannot), the JSON in core/perf_json.h, so the app reads saved results without a GPU.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "contract/dtype.h"

namespace syncscope {

struct PerfOptions {
  int min_log2 = 16, max_log2 = 28;  // n = 2^min_log2 ... 2^max_log2
  std::vector<DType> dtypes = {DType::Int32, DType::Float32};
  int warmup = 3;
  int runs = 25;  // the median of these
  std::vector<std::string> only;  // rung names to time (empty: all)
  int tpb = 0;  // threads per block for every rung (0: each rung's own, kernels/ladders.h)
};

// One timed thing at one size: a rung, or a baseline ("copy", "cub-scan", "cub-reduce").
struct PerfPoint {
  std::string ladder;  // "reduce", "scan", or "baseline"
  std::string name;
  long long n = 0;
  DType dtype = DType::Int32;
  int tpb = 0;
  double median_ms = 0;
  double gbps = 0;  // effective: scan and copy 2·n·4 bytes, reduce n·4
  bool correct = false;
  std::string error;  // why it did not run, if it did not
};

struct PerfReport {
  std::string device, driver, cuda_runtime, date;  // date: YYYY-MM-DD (UTC)
  int runs = 0, warmup = 0;
  std::vector<PerfPoint> rungs;
  std::vector<PerfPoint> baselines;
  std::string error;  // set when nothing could be timed (no GPU)

  // The baseline `name` at (n, dtype), or nullptr.
  const PerfPoint* baseline(const std::string& name, long long n, DType dtype) const;
  // The largest n timed for int32, 0 when none.
  long long largest_n() const;
};

// Bytes a ladder's GB/s counts per element: scan and copy read and write (8), reduce reads (4).
inline double perf_bytes_per_element(const std::string& ladder_or_baseline) {
  return ladder_or_baseline == "reduce" || ladder_or_baseline == "cub-reduce" ? 4.0 : 8.0;
}

// Runs on the first GPU; `progress` hears one line per rung and size.
PerfReport run_perf(const PerfOptions& options, const std::function<void(const std::string&)>& progress);

}  // namespace syncscope
