#include "app/view/results_model.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

namespace syncscope::app {

namespace {

// The GPU's answer can be shown: it ran and has an element for every one of the simulator's.
bool shows_gpu(const RunResult& run, const GpuAnswer* gpu) {
  return gpu && gpu->gpu.ok && gpu->gpu.output_bits.size() == run.sim.output_bits.size();
}

}  // namespace

std::vector<ResultRowView> result_rows(const RunResult& run, const GpuAnswer* gpu, int first_row, int end_row) {
  const DType dtype = run.config.problem.dtype;
  const bool have_gpu = shows_gpu(run, gpu);
  std::vector<ResultRowView> rows;
  first_row = std::max(first_row, 0);
  end_row = std::min(end_row, static_cast<int>(run.expected.size()));
  rows.reserve(std::max(end_row - first_row, 0));
  for (int i = first_row; i < end_row; ++i) {
    ResultRowView r;
    r.index = i;
    r.cpu = format_number(dtype, run.expected[i]);
    const bool poison = static_cast<size_t>(i) < run.sim.output_poison.size() && run.sim.output_poison[i];
    if (static_cast<size_t>(i) < run.sim.output_bits.size()) {
      r.sim = format_value(dtype, run.sim.output_bits[i], poison);
      r.sim_differs = differs_from_reference(dtype, sim::bits_to_double(dtype, run.sim.output_bits[i]), poison,
                                             run.expected[i]);
    }
    if (have_gpu) {
      const uint32_t g = gpu->gpu.output_bits[i];
      r.gpu = format_value(dtype, g);
      r.gpu_differs_from_sim = !poison && g != run.sim.output_bits[i];
      r.gpu_differs = differs_from_reference(dtype, sim::bits_to_double(dtype, g), false, run.expected[i]);
    }
    rows.push_back(std::move(r));
  }
  return rows;
}

ResultsModel build_results(const RunResult& run, const GpuAnswer* gpu, bool running, const GpuStatus* status,
                           int first_row, int rows) {
  ResultsModel m;
  const Comparison& c = run.comparison;
  m.sim_ok = c.match;
  m.sim_verdict = c.match ? "simulator = CPU reference"
                          : "simulator ≠ CPU reference: " + sim::elements_differ(c.differing, run.expected.size());
  m.has_gpu_column = shows_gpu(run, gpu);
  if (running) {
    m.gpu_status = "GPU: running…";
  } else if (gpu && !gpu->status.usable) {
    m.gpu_status = "GPU unavailable: " + gpu->status.reason;
  } else if (gpu && !gpu->gpu.ok) {
    m.gpu_status = "GPU run failed: " + gpu->gpu.error;
  } else if (gpu) {
    std::ostringstream s;
    s << "GPU: " << gpu->status.device << ", " << std::fixed << std::setprecision(3) << gpu->gpu.milliseconds << " ms";
    m.gpu_status = s.str();
  } else if (status && !status->usable) {
    m.gpu_status = "GPU unavailable: " + status->reason;
  } else {
    m.gpu_status = "GPU: not run yet";
  }
  m.row_count = static_cast<int>(run.expected.size());
  // A CUDA program checks its own result: what main() returned is the verdict, with no table.
  if (run.config.algorithm && run.config.algorithm->info.program) {
    const int returned = run.sim.output_bits.empty() ? 0 : static_cast<int32_t>(run.sim.output_bits[0]);
    m.sim_verdict = run.sim.output_bits.empty() ? "main() did not return (the run stopped)"
                    : run.config.algorithm->info.kernels_only
                        ? (returned != 0 || run.sim.trace.error ? "the launch failed"
                           : run.out_of_bounds
                               ? "the launch reached past its arrays (see Hazards: out-of-bounds)"
                               : "the launch succeeded (syncscope's main() launched the kernel)")
                        : "main() returned " + std::to_string(returned) +
                              (run.sim.trace.error ? ", after a launch failed"
                               : returned == 0     ? ": the program's own check passed"
                                                   : ": the program's own check failed");
    m.sim_ok = !run.sim.output_bits.empty() && returned == 0 && !run.sim.trace.error &&
               !(run.config.algorithm->info.kernels_only && run.out_of_bounds);
    m.row_count = 0;
    // Run on GPU compiles this very file with nvcc and runs its main(): its copies to the host
    // are what is compared, byte for byte.
    if (running) m.gpu_status = "GPU: compiling the file with nvcc and running its main()…";
    else if (!gpu && !(status && !status->usable))
      m.gpu_status = "GPU: not run yet (Run on GPU compiles this file with nvcc and compares its copies to the host)";
    if (gpu && gpu->program && !running) {
      const ProgramGpuRun& p = *gpu->program;
      if (!p.ran) {
        m.gpu_status = "GPU run failed: " + p.error;
      } else {
        m.gpu_status = "GPU: " + gpu->status.device + ", main() returned " + std::to_string(p.main_returned);
        m.gpu_ok = gpu->copies.identical;
        m.gpu_verdict = gpu->copies.identical ? "GPU = simulator: every copy to the host, byte for byte"
                                              : "GPU ≠ simulator: " + gpu->copies.difference;
      }
    }
  }
  const int end_row = rows >= m.row_count - first_row ? m.row_count : first_row + rows;
  m.rows = result_rows(run, gpu, first_row, end_row);
  if (m.has_gpu_column) {
    const int vs_sim = gpu->compared.vs_sim.differing, vs_ref = gpu->compared.vs_reference.differing;
    m.gpu_ok = vs_sim == 0;
    m.gpu_verdict = vs_sim == 0 ? "GPU = simulator, bit for bit"
                                : "GPU ≠ simulator: " + sim::elements_differ(vs_sim);
    m.gpu_verdict += vs_ref == 0 ? "; GPU = CPU reference" : "; " + std::to_string(vs_ref) + (vs_ref == 1 ? " differs" : " differ") + " from the CPU";
  }
  return m;
}

}  // namespace syncscope::app
