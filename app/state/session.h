// Everything the app does besides drawing: the controls' form, re-simulation and GPU runs on
// worker threads, scenarios, following a block. The GUI calls poll() once per frame; nothing here
// blocks a frame.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "app/state/app_state.h"
#include "app/state/scenario.h"
#include "app/state/workers.h"
#include "app/view/controls_model.h"

namespace syncscope::app {

class Session {
 public:
  explicit Session(AppState& state, const Registry& registry = builtin_registry());

  // The controls changed. A valid form is simulated off the UI thread; an invalid one leaves the
  // last good run on screen and its messages in check().
  void edit(const ControlsForm& form);
  const ControlsForm& form() const { return form_; }
  const FormCheck& check() const { return check_; }
  const Registry& registry() const { return registry_; }

  // Takes what the workers finished. True when the run on screen changed.
  bool poll();
  bool simulating() const { return simulation_.busy(); }
  // Blocks until the workers are idle and applies their results (screenshots, tests).
  void settle();

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

  std::optional<std::string> open_scenario(const std::string& path);  // nullopt: opened
  std::optional<std::string> save_scenario(const std::string& path) const;
  std::string title() const { return title_; }

 private:
  void submit(RunConfig config, int launch, int step);

  AppState& state_;
  const Registry& registry_;
  ControlsForm form_;
  FormCheck check_;
  std::string title_;
  SimulationWorker simulation_{run_simulation_job};
  GpuWorker gpu_worker_{run_gpu_job};
  std::optional<GpuAnswer> gpu_;
  std::optional<GpuStatus> gpu_status_;
  std::optional<std::pair<int, int>> pending_jump_;  // launch, step for the next run shown
};

}  // namespace syncscope::app
