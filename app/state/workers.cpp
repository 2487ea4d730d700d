#include "app/state/workers.h"

#include "app/state/gpu_child.h"
#include "core/recorded_runs.h"

namespace syncscope::app {

SimAnswer run_simulation_job(const SimJob& job) {
  return {std::make_shared<const RunResult>(simulate(job.config, job.cancel, job.progress.get())), job};
}

GpuAnswer run_gpu_job(const std::shared_ptr<const RunResult>& run, const std::string& gpu_helper) {
  GpuAnswer a;
  a.for_run = run;
  a.status = gpu_status();
  if (!a.status.usable) {
    a.gpu.error = a.status.reason;
    return a;
  }
  if (run->config.algorithm->info.program) {
    a.program = run_program_on_gpu(run->config.algorithm->info.name, run->config.problem.bug);
    if (a.program->ran) a.copies = compare_host_copies(run->sim.host_copies, a.program->host_copies);
    return a;
  }
  a.gpu = run_on_gpu_in_child(gpu_helper, run->config, run->input, 1).front();
  if (a.gpu.ok) a.compared = compare_gpu_output(*run, a.gpu.output_bits);
  return a;
}

OutcomesAnswer run_outcomes_job(const OutcomesJob& job, const std::string& gpu_helper) {
  OutcomesAnswer a;
  a.for_run = job.run;
  a.gpu = job.gpu_runs != 0;
  const RunConfig& config = job.run->config;
  if (!a.gpu) {
    a.outcomes = simulate_all_schedules(config, job.progress.get());
  } else if (!gpu_status().usable) {
    // Without a GPU, the runs a GPU gave this configuration when it was recorded, if it was. Where
    // none was, runs asked for say why there is no GPU; kRecordedOnly's answer stays empty.
    Outcomes o = or_recorded(gpu_outcomes(config, job.run->input, job.gpu_runs), config);
    if (job.gpu_runs > 0 || !o.unavailable) a.outcomes = std::move(o);
  } else {
    a.outcomes = tally_gpu_runs(config, job.run->input,
                                run_on_gpu_in_child(gpu_helper, config, job.run->input, job.gpu_runs));
  }
  return a;
}

}  // namespace syncscope::app
