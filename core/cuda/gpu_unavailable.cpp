// Linked instead of gpu_runner.cu when the build has no CUDA compiler.
#include "core/cuda/gpu_runner.h"
#include "core/perf.h"

namespace syncscope {

const GpuStatus& gpu_status() {
  static const GpuStatus status{false, "",
                                "this build of syncscope has no CUDA support (no CUDA compiler was found when it "
                                "was configured, or -DSYNCSCOPE_CUDA=OFF)"};
  return status;
}

GpuRun run_on_gpu(const std::string&, const Problem&, const std::vector<double>&) {
  GpuRun r;
  r.error = gpu_status().reason;
  return r;
}

PerfReport run_perf(const PerfOptions& options, const std::function<void(const std::string&)>&) {
  PerfReport report;
  report.runs = options.runs;
  report.error = "no usable GPU: " + gpu_status().reason;
  return report;
}

}  // namespace syncscope
