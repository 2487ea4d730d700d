// `syncscope perf` on the GPU: every rung of kernels/ladders.h at every size, with the baselines
// (a device-to-device copy, CUB's DeviceScan::InclusiveSum and DeviceReduce::Sum) measured in the
// same process on the same input. Each is run once and checked against a CPU reference, warmed up,
// then timed `runs` times with CUDA events around each run; the median is kept.
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

#include "kernels/algorithms.h"
#include "core/cuda/cuda_runtime.cuh"
#include "core/cuda/gpu_dispatch.cuh"
#include "core/cuda/gpu_runner.h"
#include "kernels/ladders.h"
#include "core/config_fields.h"
#include "core/perf.h"
#include "core/utc_date.h"
#include "sim/splitmix64.h"

namespace syncscope {
namespace {

using cuda::check;

// Integers in [-1000, 1000] for int32; -1, 0 or 1 for float32, so that every partial sum of the
// run is a small whole number, exact in float whatever order a kernel adds in: a result is then
// correct or not, bit for bit.
template <class T>
std::vector<T> make_perf_input(long long n, uint64_t seed) {
  std::vector<T> v(n);
  for (long long i = 0; i < n; ++i) {
    const uint64_t r = sim::splitmix64(seed);
    if constexpr (std::is_same_v<T, float>) v[i] = static_cast<float>(static_cast<int>(r % 3) - 1);
    else v[i] = static_cast<int32_t>(r % 2001) - 1000;
  }
  return v;
}

// Sequential references in exact arithmetic: wrapping 32-bit for int32, int64 for the float
// inputs above (whole numbers far below 2^24, so converting back to float is exact).
template <class T>
std::vector<T> reference_scan(const std::vector<T>& in) {
  std::vector<T> out(in.size());
  if constexpr (std::is_same_v<T, float>) {
    long long sum = 0;
    for (size_t i = 0; i < in.size(); ++i) out[i] = static_cast<float>(sum += static_cast<long long>(in[i]));
  } else {
    uint32_t sum = 0;
    for (size_t i = 0; i < in.size(); ++i) out[i] = static_cast<int32_t>(sum += static_cast<uint32_t>(in[i]));
  }
  return out;
}
template <class T>
T reference_sum(const std::vector<T>& in) {
  if constexpr (std::is_same_v<T, float>) {
    long long sum = 0;
    for (float v : in) sum += static_cast<long long>(v);
    return static_cast<float>(sum);
  } else {
    uint32_t sum = 0;
    for (int32_t v : in) sum += static_cast<uint32_t>(v);
    return static_cast<int32_t>(sum);
  }
}

template <class T>
bool device_equals(const T* device, const std::vector<T>& expected, size_t count) {
  std::vector<T> host(count);
  check(cudaMemcpy(host.data(), device, count * sizeof(T), cudaMemcpyDeviceToHost), "copy result");
  for (size_t i = 0; i < count; ++i)
    if (!(host[i] == expected[i])) return false;
  return true;
}

// Runs `once` warmup times, then `runs` times between events; the median in milliseconds.
template <class Once>
double median_ms(const PerfOptions& o, Once&& once) {
  for (int k = 0; k < o.warmup; ++k) once();
  std::vector<cuda::Event> starts(o.runs), stops(o.runs);
  for (int k = 0; k < o.runs; ++k) {
    check(cudaEventRecord(starts[k].event), "cudaEventRecord");
    once();
    check(cudaEventRecord(stops[k].event), "cudaEventRecord");
  }
  check(cudaDeviceSynchronize(), "timed runs");
  std::vector<double> ms(o.runs);
  for (int k = 0; k < o.runs; ++k) {
    float t = 0;
    check(cudaEventElapsedTime(&t, starts[k].event, stops[k].event), "cudaEventElapsedTime");
    ms[k] = t;
  }
  std::nth_element(ms.begin(), ms.begin() + o.runs / 2, ms.end());
  return ms[o.runs / 2];
}

PerfPoint point(std::string ladder, std::string name, long long n, DType dtype, int tpb) {
  PerfPoint p;
  p.ladder = std::move(ladder);
  p.name = std::move(name);
  p.n = n;
  p.dtype = dtype;
  p.tpb = tpb;
  return p;
}

void set_time(PerfPoint& p, const std::string& kind, double ms) {
  p.median_ms = ms;
  p.gbps = ms > 0 ? perf_bytes_per_element(kind) * static_cast<double>(p.n) / (ms * 1e6) : 0;
}

template <class Algorithm, class T>
void time_rung(const PerfOptions& o, const Rung& rung, T* input, long long n, const std::vector<T>& expected_scan,
               T expected_sum, PerfPoint& p) {
  const Problem problem{static_cast<int>(n), 1, rung.perf_tpb, p.dtype};
  if (CheckResult refused = Algorithm::check(problem)) {
    p.error = config_error(*refused, problem).text();
    return;
  }
  cuda::CudaRuntime<T> rt(input, static_cast<int>(n), typename cuda::CudaRuntime<T>::ReuseAllocations{});
  Algorithm::run(rt, problem);
  check(cudaDeviceSynchronize(), std::string(rung.algorithm) + " first run");
  auto output_correct = [&] {
    return rung.ladder == "scan"
               ? rt.output_count() == n && device_equals(rt.output().ptr, expected_scan, n)
               : rt.output_count() == 1 && device_equals(rt.output().ptr, std::vector<T>{expected_sum}, 1);
  };
  p.correct = output_correct();
  set_time(p, p.ladder, median_ms(o, [&] { Algorithm::run(rt, problem); }));
  // Once more after the timed runs, into a poisoned output: a rung that keeps its counters between
  // runs (alloc_zeroed_once) is right only if every run leaves them ready for the next, and one
  // that stopped writing would otherwise leave the first run's correct output in place.
  check(cudaMemset(rt.output().ptr, 0xff, static_cast<size_t>(rt.output_count()) * sizeof(T)), "poison output");
  Algorithm::run(rt, problem);
  check(cudaDeviceSynchronize(), std::string(rung.algorithm) + " run after the timed runs");
  p.correct = p.correct && output_correct();
}

template <class T, class... Algorithm>
void time_rung_by_name(kernels::AlgorithmList<Algorithm...>, const PerfOptions& o, const Rung& rung, T* input,
                       long long n, const std::vector<T>& expected_scan, T expected_sum, PerfPoint& p) {
  bool found = false;
  ((Algorithm::info().name == rung.algorithm && !found
        ? (found = true, time_rung<Algorithm>(o, rung, input, n, expected_scan, expected_sum, p))
        : void()),
   ...);
  if (!found) p.error = "no algorithm named " + std::string(rung.algorithm);
}

template <class T>
struct DeviceBuffer {
  T* ptr = nullptr;
  explicit DeviceBuffer(size_t count) { check(cudaMalloc(&ptr, std::max<size_t>(count, 1) * sizeof(T)), "cudaMalloc"); }
  ~DeviceBuffer() { cudaFree(ptr); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
};

template <class T>
void time_size(const PerfOptions& o, long long n, DType dtype, PerfReport& report,
               const std::function<void(const std::string&)>& progress) {
  const std::vector<T> input = make_perf_input<T>(n, 0x5eed0000ull + n);
  const std::vector<T> expected_scan = reference_scan(input);
  const T expected_sum = reference_sum(input);
  DeviceBuffer<T> in(n), out(n), one(1);
  check(cudaMemcpy(in.ptr, input.data(), n * sizeof(T), cudaMemcpyHostToDevice), "copy input");
  const char* type = dtype == DType::Float32 ? "float32" : "int32";
  auto say = [&](const PerfPoint& p) {
    char line[256];
    std::snprintf(line, sizeof line, "  n=2^%-2d %-7s %-26s %9.4f ms %8.1f GB/s %s", __builtin_ctzll(n), type,
                  p.name.c_str(), p.median_ms, p.gbps, p.error.empty() ? (p.correct ? "ok" : "WRONG") : p.error.c_str());
    progress(line);
  };

  PerfPoint copy = point("baseline", "copy", n, dtype, 0);
  check(cudaMemcpy(out.ptr, in.ptr, n * sizeof(T), cudaMemcpyDeviceToDevice), "copy");
  copy.correct = device_equals(out.ptr, input, n);
  set_time(copy, "copy", median_ms(o, [&] {
             check(cudaMemcpyAsync(out.ptr, in.ptr, n * sizeof(T), cudaMemcpyDeviceToDevice), "copy");
           }));
  say(copy);
  report.baselines.push_back(copy);

  size_t scan_bytes = 0, reduce_bytes = 0;
  check(cub::DeviceScan::InclusiveSum(nullptr, scan_bytes, in.ptr, out.ptr, static_cast<int>(n)), "CUB scan size");
  check(cub::DeviceReduce::Sum(nullptr, reduce_bytes, in.ptr, one.ptr, static_cast<int>(n)), "CUB reduce size");
  DeviceBuffer<unsigned char> temp(std::max(scan_bytes, reduce_bytes));
  PerfPoint cub_scan = point("baseline", "cub-scan", n, dtype, 0);
  auto scan_once = [&] {
    check(cub::DeviceScan::InclusiveSum(temp.ptr, scan_bytes, in.ptr, out.ptr, static_cast<int>(n)), "CUB scan");
  };
  scan_once();
  cub_scan.correct = device_equals(out.ptr, expected_scan, n);
  set_time(cub_scan, "cub-scan", median_ms(o, scan_once));
  say(cub_scan);
  report.baselines.push_back(cub_scan);
  PerfPoint cub_reduce = point("baseline", "cub-reduce", n, dtype, 0);
  auto reduce_once = [&] {
    check(cub::DeviceReduce::Sum(temp.ptr, reduce_bytes, in.ptr, one.ptr, static_cast<int>(n)), "CUB reduce");
  };
  reduce_once();
  cub_reduce.correct = device_equals(one.ptr, std::vector<T>{expected_sum}, 1);
  set_time(cub_reduce, "cub-reduce", median_ms(o, reduce_once));
  say(cub_reduce);
  report.baselines.push_back(cub_reduce);

  for (Rung rung : kLadderRungs) {
    if (o.tpb > 0) rung.perf_tpb = o.tpb;
    if (!o.only.empty() && std::find(o.only.begin(), o.only.end(), rung.algorithm) == o.only.end()) continue;
    PerfPoint p = point(std::string(rung.ladder), std::string(rung.algorithm), n, dtype, rung.perf_tpb);
    try {
      time_rung_by_name(kernels::Algorithms{}, o, rung, in.ptr, n, expected_scan, expected_sum, p);
    } catch (const cuda::CudaFailure& e) {
      p.error = e.what();
      cuda::note_failure(p.error);
      say(p);
      report.rungs.push_back(p);
      throw;  // a fault leaves the context unusable: the rest of the run cannot be timed
    }
    say(p);
    report.rungs.push_back(p);
  }
}

std::string driver_version() {
  if (FILE* f = popen("nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null", "r")) {
    char buf[64] = {};
    const bool got = std::fgets(buf, sizeof buf, f) != nullptr;
    pclose(f);
    std::string v = got ? buf : "";
    while (!v.empty() && (v.back() == '\n' || v.back() == ' ')) v.pop_back();
    if (!v.empty()) return v;
  }
  int v = 0;
  cudaDriverGetVersion(&v);
  return "CUDA driver API " + std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

}  // namespace

PerfReport run_perf(const PerfOptions& o, const std::function<void(const std::string&)>& progress) {
  PerfReport report;
  report.runs = o.runs;
  report.warmup = o.warmup;
  report.date = utc_date();
  const GpuStatus& status = gpu_status();
  if (!status.usable) {
    report.error = "no usable GPU: " + status.reason;
    return report;
  }
  report.device = status.device;
  report.driver = driver_version();
  int runtime = 0;
  cudaRuntimeGetVersion(&runtime);
  report.cuda_runtime = std::to_string(runtime / 1000) + "." + std::to_string(runtime % 1000 / 10);
  try {
    for (DType dtype : o.dtypes)
      for (int k = o.min_log2; k <= o.max_log2; ++k) {
        if (dtype == DType::Float32) time_size<float>(o, 1ll << k, dtype, report, progress);
        else time_size<int32_t>(o, 1ll << k, dtype, report, progress);
      }
  } catch (const cuda::CudaFailure& e) {
    report.error = e.what();
  }
  return report;
}

}  // namespace syncscope
