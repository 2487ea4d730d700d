#include "app/state/workers.h"

namespace syncscope::app {

SimAnswer run_simulation_job(const SimJob& job) {
  return {std::make_shared<const RunResult>(simulate(job.config)), job};
}

GpuAnswer run_gpu_job(const std::shared_ptr<const RunResult>& run) {
  GpuAnswer a;
  a.for_run = run;
  a.status = gpu_status();
  if (a.status.usable) a.gpu = run_on_gpu(run->config.algorithm->info.name, run->config.problem, run->input);
  else a.gpu.error = a.status.reason;
  return a;
}

OutcomesAnswer run_outcomes_job(const OutcomesJob& job) {
  OutcomesAnswer a;
  a.for_run = job.run;
  a.gpu = job.gpu_runs > 0;
  a.outcomes = a.gpu ? gpu_outcomes(job.run->config, job.run->input, job.gpu_runs) : simulate_all_schedules(job.run->config);
  return a;
}

}  // namespace syncscope::app
