// Everything the app does besides drawing: the controls' form, re-simulation and GPU runs on
// worker threads, scenarios, following a block. The GUI calls poll() once per frame; nothing here
// blocks a frame.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "app/state/app_state.h"
#include "app/state/gpu_child.h"
#include "app/state/kernel_watch.h"
#include "app/state/scenario.h"
#include "app/state/workers.h"
#include "app/state/controls_form.h"

namespace syncscope::app {

// A run that stopped where the class should look: a kernel file's worker that died (abort(),
// exit(), a refused system call) or a crash, with the kernel's line when it is known.
struct RunStop {
  std::string message;
  std::string file;  // "" when no line is known
  int line = 0;
  bool before_first_launch = false;  // nothing to draw: the run on screen is the last one that ran
};

class Session {
 public:
  // GPU jobs run in child processes started from `gpu_helper` (this executable; tests pass it).
  explicit Session(AppState& state, const Registry& registry = builtin_registry(),
                   std::string gpu_helper = own_executable());

  // The controls changed. A valid form is simulated off the UI thread; an invalid one leaves the
  // last good run on screen and its messages in check().
  void edit(const ControlsForm& form);
  const ControlsForm& form() const { return form_; }
  const FormCheck& check() const { return check_; }
  const Registry& registry() const { return *registry_; }

  // A kernel file of one's own: compiled off the UI thread, then shown; compiled again whenever
  // it is saved (the last good run stays on screen while it compiles or when it fails).
  // `loaded`: the file already compiled and loaded (the command line's --kernel): shown at once.
  void open_kernel(const std::string& path, std::optional<KernelFile> loaded = std::nullopt, const ProgramLaunch& launch = {});
  const KernelWatch& kernel_watch() const { return kernel_watch_; }

  // Takes what the workers finished. True when the run on screen changed.
  bool poll();
  bool simulating() const { return simulation_.busy(); }
  // Stops the simulation in flight (a runaway kernel stops by itself within its time budget; this
  // is for a teacher who will not wait). The last run stays on screen.
  void cancel_simulation();
  // Seconds the simulation in flight has been running (0 when none).
  double simulating_for() const;
  // How far the simulation in flight got: blocks done, the time left (nullopt when none runs).
  std::optional<ProgressSnapshot> simulation_progress() const;
  // "cancelled" after cancel_simulation(), until the next run arrives.
  const std::string& simulation_note() const { return simulation_note_; }
  // Why the latest run stopped, when it did.
  const std::optional<RunStop>& run_stop() const { return run_stop_; }
  // Blocks until the workers are idle and applies their results (screenshots, tests).
  void settle();
  // The simulation's answer if it comes within `most` (the window's first frame: a quick run is
  // shown at once, a long or runaway one with its progress and Cancel).
  void settle_within(std::chrono::milliseconds most);

  // Follow another block; runs again with it recorded when it is not.
  void focus_block(int block);
  // Jump to a step (of a hazard report, say), recording `block` if needed.
  void jump(int launch, int step, int block);

  // The GPU's answer for the run on screen (nullptr before it arrives or after the run changed).
  const GpuAnswer* gpu() const;
  bool gpu_running() const { return gpu_worker_.busy(); }
  const std::optional<GpuStatus>& gpu_status() const { return gpu_status_; }
  void run_gpu();            // for the run on screen
  bool run_gpu_automatically = true;

  // The race-condition lab, for the run on screen: every schedule in the simulator, or R GPU runs.
  void compare_schedules();
  void run_gpu_outcomes(int runs);
  const Outcomes* schedule_outcomes() const;  // nullptr until they arrive for this run
  const Outcomes* gpu_outcomes() const;
  bool lab_busy() const { return schedules_worker_.busy() || gpu_runs_worker_.busy(); }
  // The schedules' runs in flight: how many are done, the time left (nullopt when none run).
  std::optional<ProgressSnapshot> lab_progress() const;
  // Show the run under one schedule (from the lab's outcome list).
  void use_schedule(const std::string& schedule);

  // The Performance panel's saved results and the simulator's facts about every rung: found and
  // simulated on a worker the first time the panel asks (later asks change nothing).
  void load_perf_results(PerfResultsJob job);
  const PerfResults* perf_results() const { return perf_results_ ? &*perf_results_ : nullptr; }  // nullptr until they arrive

  std::optional<std::string> open_scenario(const std::string& path);  // nullopt: opened
  // What the user should be told about the scenario once its run arrived: its "launch" or "step"
  // lies past the run's end (only the run tells how many there are), so it is shown at the last
  // one instead. Taken once; the menu bar shows it, a script fails with it.
  std::optional<std::string> take_scenario_notice();
  std::optional<std::string> save_scenario(const std::string& path) const;
  std::string title() const { return title_; }

 private:
  void submit(RunConfig config, int launch, int step);
  void adopt_kernel();

  AppState& state_;
  const Registry* registry_;
  KernelWatch kernel_watch_;  // before the workers: runs in flight point into its registries
  ControlsForm form_;
  FormCheck check_;
  std::string title_;
  const std::string gpu_helper_;  // before the workers that use it
  SimulationWorker simulation_{run_simulation_job};
  GpuWorker gpu_worker_{[this](const auto& run) { return run_gpu_job(run, gpu_helper_); }};
  std::optional<GpuAnswer> gpu_;
  std::optional<GpuStatus> gpu_status_;
  std::optional<std::pair<int, int>> pending_jump_;  // launch, step for the next run shown
  std::string jump_from_scenario_;  // the scenario file that asked for pending_jump_, if one did
  std::optional<std::string> scenario_notice_;
  std::shared_ptr<std::atomic<bool>> latest_cancel_;  // the newest job's
  std::shared_ptr<const Progress> latest_progress_, lab_progress_;  // the newest jobs' 
  std::chrono::steady_clock::time_point submitted_at_;
  std::string simulation_note_;
  std::optional<RunStop> run_stop_;
  OutcomesWorker schedules_worker_{[this](const OutcomesJob& job) { return run_outcomes_job(job, gpu_helper_); }};
  OutcomesWorker gpu_runs_worker_{[this](const OutcomesJob& job) { return run_outcomes_job(job, gpu_helper_); }};
  std::optional<OutcomesAnswer> schedules_, gpu_runs_;
  PerfResultsWorker perf_worker_{gather_perf_results};
  bool perf_requested_ = false;
  std::optional<PerfResults> perf_results_;
};

}  // namespace syncscope::app
