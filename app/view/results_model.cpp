#include "app/view/results_model.h"

#include <cmath>
#include <iomanip>
#include <sstream>

namespace syncscope::app {

ResultsModel build_results(const RunResult& run, const GpuAnswer* gpu, bool running, const GpuStatus* status) {
  ResultsModel m;
  const DType dtype = run.config.problem.dtype;
  const Comparison& c = run.comparison;
  m.sim_ok = c.match;
  m.sim_verdict = c.match ? "simulator = CPU reference"
                          : "simulator ≠ CPU reference: " + std::to_string(c.differing) + " of " +
                                std::to_string(run.expected.size()) + " elements differ";
  const bool have_gpu = gpu && gpu->gpu.ok && gpu->gpu.output_bits.size() == run.sim.output_bits.size();
  m.has_gpu_column = have_gpu;
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

  int gpu_vs_sim = 0, gpu_vs_ref = 0;
  m.rows.reserve(run.expected.size());
  for (size_t i = 0; i < run.expected.size(); ++i) {
    ResultRowView r;
    r.index = static_cast<int>(i);
    r.cpu = format_number(dtype, run.expected[i]);
    const bool poison = i < run.sim.output_poison.size() && run.sim.output_poison[i];
    if (i < run.sim.output_bits.size()) r.sim = format_value(dtype, run.sim.output_bits[i], poison);
    r.sim_differs = r.sim != r.cpu &&
                    (dtype == DType::Int32 || poison ||
                     std::fabs(sim::bits_to_double(dtype, run.sim.output_bits[i]) - run.expected[i]) >
                         1e-5 * std::max(1.0, std::fabs(run.expected[i])));
    if (have_gpu) {
      const uint32_t g = gpu->gpu.output_bits[i];
      r.gpu = format_value(dtype, g);
      r.gpu_differs_from_sim = !poison && g != run.sim.output_bits[i];
      r.gpu_differs = dtype == DType::Int32 ? sim::bits_to_double(dtype, g) != run.expected[i]
                                            : std::fabs(sim::bits_to_double(dtype, g) - run.expected[i]) >
                                                  1e-5 * std::max(1.0, std::fabs(run.expected[i]));
      gpu_vs_sim += r.gpu_differs_from_sim;
      gpu_vs_ref += r.gpu_differs;
    }
    m.rows.push_back(std::move(r));
  }
  if (have_gpu) {
    m.gpu_ok = gpu_vs_sim == 0;
    m.gpu_verdict = gpu_vs_sim == 0 ? "GPU = simulator, bit for bit"
                                    : "GPU ≠ simulator: " + std::to_string(gpu_vs_sim) + " elements differ";
    m.gpu_verdict += gpu_vs_ref == 0 ? "; GPU = CPU reference" : "; " + std::to_string(gpu_vs_ref) + " differ from the CPU";
  }
  return m;
}

}  // namespace syncscope::app
