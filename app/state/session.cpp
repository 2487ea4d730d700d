#include "app/state/session.h"

#include <algorithm>

namespace syncscope::app {

Session::Session(AppState& state, const Registry& registry) : state_(state), registry_(registry) {}

void Session::edit(const ControlsForm& form) {
  form_ = form;
  check_ = check_form(registry_, form_);
  if (check_.config) submit(*check_.config, state_.launch(), state_.step());
}

void Session::submit(RunConfig config, int launch, int step) {
  SimJob job;
  job.config = std::move(config);
  job.launch = launch;
  job.step = step;
  simulation_.submit(std::move(job));
}

bool Session::poll() {
  bool changed = false;
  if (auto answer = simulation_.take()) {
    int launch = answer->job.launch, step = answer->job.step;
    if (pending_jump_) {
      launch = pending_jump_->first;
      step = pending_jump_->second;
      pending_jump_.reset();
    }
    state_.show_at(answer->run, launch, step);
    if (!answer->run->config.detail_blocks.empty()) state_.set_focus_block(answer->run->config.detail_blocks.front());
    gpu_.reset();
    if (run_gpu_automatically) run_gpu();
    changed = true;
  }
  if (auto answer = gpu_worker_.take()) {
    gpu_status_ = answer->status;
    gpu_ = std::move(*answer);
  }
  return changed;
}

void Session::settle() {
  simulation_.wait_idle();
  poll();
  gpu_worker_.wait_idle();
  poll();
}

void Session::run_gpu() {
  if (state_.run_shared()) gpu_worker_.submit(state_.run_shared());
}

const GpuAnswer* Session::gpu() const {
  return gpu_ && gpu_->for_run == state_.run_shared() ? &*gpu_ : nullptr;
}

void Session::focus_block(int block) {
  state_.set_focus_block(block);
  const RunResult* run = state_.run();
  if (!run) return;
  const auto recorded = state_.recorded_blocks();
  if (std::find(recorded.begin(), recorded.end(), block) != recorded.end()) return;
  // Detail for another block: run again with it recorded (the same run, deterministically).
  RunConfig config = run->config;
  config.detail_blocks = {block};
  form_.blocks = config.detail_blocks;
  submit(std::move(config), state_.launch(), state_.step());
}

void Session::jump(int launch, int step, int block) {
  const RunResult* run = state_.run();
  if (!run) return;
  state_.show_at(state_.run_shared(), launch, step);
  state_.playback().playing = false;
  const sim::LaunchTrace& lt = run->sim.trace.launches.at(launch);
  if (!lt.find_block(block)) pending_jump_ = {launch, step};
  focus_block(block);
}

std::optional<std::string> Session::open_scenario(const std::string& path) {
  auto loaded = load_scenario(path);
  if (auto* why = std::get_if<std::string>(&loaded)) return *why;
  const Scenario& s = std::get<Scenario>(loaded);
  auto resolved = resolve(registry_, s.options);
  if (auto* e = std::get_if<ConfigError>(&resolved)) return path + ": " + e->text();
  RunConfig config = std::get<RunConfig>(resolved);
  form_ = ControlsForm::from(config);
  check_ = FormCheck{config, {}};
  title_ = s.title;
  pending_jump_ = {s.launch, s.step};
  submit(std::move(config), s.launch, s.step);
  return std::nullopt;
}

std::optional<std::string> Session::save_scenario(const std::string& path) const {
  const RunResult* run = state_.run();
  if (!run) return std::string("nothing to save yet");
  Scenario s = scenario_of(run->config, state_.launch(), state_.step());
  s.title = title_;
  return app::save_scenario(path, s);
}

}  // namespace syncscope::app
