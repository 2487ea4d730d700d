// Simulation and GPU runs happen off the UI thread, so a frame is never held up by them. Each
// worker runs the newest job it was given; jobs overtaken while waiting are dropped.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "app/state/perf_results.h"
#include "app/state/ui_wake.h"
#include "core/cuda/gpu_runner.h"
#include "core/cuda_program_gpu.h"
#include "core/outcomes.h"
#include "core/run.h"

namespace syncscope::app {

template <class Job, class Result>
class LatestJobWorker {
 public:
  explicit LatestJobWorker(std::function<Result(const Job&)> work) : work_(std::move(work)), thread_([this] { loop(); }) {}
  ~LatestJobWorker() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }

  void submit(Job job) {
    {
      std::lock_guard lock(mutex_);
      pending_ = std::move(job);
    }
    wake_.notify_all();
  }
  // The newest finished result, once.
  std::optional<Result> take() {
    std::lock_guard lock(mutex_);
    std::optional<Result> r = std::move(done_);
    done_.reset();
    return r;
  }
  bool busy() const {
    std::lock_guard lock(mutex_);
    return pending_.has_value() || running_;
  }
  // Tests and the screenshot mode wait for the answer.
  void wait_idle() const {
    std::unique_lock lock(mutex_);
    idle_.wait(lock, [&] { return !pending_ && !running_; });
  }
  // The window's first frame waits a little for the first run, never for a runaway one.
  bool wait_idle_for(std::chrono::milliseconds most) const {
    std::unique_lock lock(mutex_);
    return idle_.wait_for(lock, most, [&] { return !pending_ && !running_; });
  }

 private:
  void loop() {
    for (;;) {
      Job job;
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [&] { return stopping_ || pending_.has_value(); });
        if (stopping_) return;
        job = std::move(*pending_);
        pending_.reset();
        running_ = true;
      }
      Result r = work_(job);
      {
        std::lock_guard lock(mutex_);
        done_ = std::move(r);
        running_ = false;
      }
      idle_.notify_all();
      wake_ui();
    }
  }

  std::function<Result(const Job&)> work_;
  mutable std::mutex mutex_;
  mutable std::condition_variable wake_, idle_;
  std::optional<Job> pending_;
  std::optional<Result> done_;
  bool running_ = false;
  bool stopping_ = false;
  std::thread thread_;  // last: starts after everything it uses exists
};

struct SimJob {
  RunConfig config;
  int launch = 0, step = 0;  // where to show the new run
  bool keep_position = true;
  // Set to stop the job early (the Cancel button, or a newer job overtaking it).
  std::shared_ptr<std::atomic<bool>> cancel = std::make_shared<std::atomic<bool>>(false);
  // Blocks done, read by the UI for its bar while the job runs.
  std::shared_ptr<Progress> progress = std::make_shared<Progress>();
};
struct SimAnswer {
  std::shared_ptr<const RunResult> run;
  SimJob job;
};
using SimulationWorker = LatestJobWorker<SimJob, SimAnswer>;
SimAnswer run_simulation_job(const SimJob& job);

struct GpuAnswer {
  std::shared_ptr<const RunResult> for_run;  // the simulated run the GPU ran the same config for
  GpuStatus status;
  GpuRun gpu;
  GpuComparison compared;  // when gpu.ok: made once here, not in every frame that shows it
  // A .cu program: the same file compiled by nvcc, its main() run in a child process of its own
  // (core/cuda_program_gpu.h), and its copies to the host against the simulator's.
  std::optional<ProgramGpuRun> program;
  HostCopyComparison copies;
};
using GpuWorker = LatestJobWorker<std::shared_ptr<const RunResult>, GpuAnswer>;
// GPU work runs in a child process started from `gpu_helper` (see gpu_child.h).
GpuAnswer run_gpu_job(const std::shared_ptr<const RunResult>& run, const std::string& gpu_helper);

// The race-condition lab: the run's configuration under every schedule, or R times on the GPU.
inline constexpr int kRecordedOnly = -1;
struct OutcomesJob {
  std::shared_ptr<const RunResult> run;
  int gpu_runs = 0;  // 0: simulate every schedule instead; kRecordedOnly: only a recording's runs (no GPU here)
  // The schedules' runs done (gpu_runs == 0), read by the UI while the job runs.
  std::shared_ptr<Progress> progress = std::make_shared<Progress>(static_cast<int>(lab_schedules().size()));
};
struct OutcomesAnswer {
  std::shared_ptr<const RunResult> for_run;
  bool gpu = false;
  Outcomes outcomes;
};
using OutcomesWorker = LatestJobWorker<OutcomesJob, OutcomesAnswer>;
OutcomesAnswer run_outcomes_job(const OutcomesJob& job, const std::string& gpu_helper);

// The Performance panel's saved results and the simulator's facts about every rung.
using PerfResultsWorker = LatestJobWorker<PerfResultsJob, PerfResults>;

}  // namespace syncscope::app
