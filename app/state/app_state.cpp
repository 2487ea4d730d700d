#include "app/state/app_state.h"

#include <algorithm>

#include <nlohmann/json.hpp>

namespace syncscope::app {

void AppState::show(std::shared_ptr<const RunResult> run) {
  const int l = launch(), s = step();
  show_at(std::move(run), l, s);
}

void AppState::show_at(std::shared_ptr<const RunResult> run, int launch, int step) {
  run_ = std::move(run);
  timeline_ = run_ ? Timeline(run_->sim.trace) : Timeline();
  position_ = timeline_.index_of(launch, step);
}

int AppState::launch() const {
  return timeline_.size() ? timeline_.marks()[position_].launch : 0;
}

int AppState::step() const {
  return timeline_.size() ? timeline_.marks()[position_].step : 0;
}

void AppState::go_to(int position) {
  const int to = std::clamp(position, 0, std::max(0, timeline_.size() - 1));
  if (to != position_ && replay_ >= 0) replay_ = 0;
  position_ = to;
}

void AppState::move_replay(int by) {
  if (replay_ < 0) {
    if (by > 0) replay_ = std::min(by, replay_total_);
    return;
  }
  const int to = replay_ + by;
  replay_ = to < 0 ? -1 : std::min(to, replay_total_);
}

void AppState::toggle_play() {
  playback_.playing = !playback_.playing;
  playback_.carry = 0;
  if (playback_.playing && at_end()) first();  // play again from the start
}

bool AppState::tick(double dt) {
  if (!playback_.playing) return false;
  constexpr double kOperationsPerStep = 4;  // replay speed: operations per step-time
  const bool replaying = replay_ >= 0;
  playback_.carry += dt * playback_.steps_per_second * (replaying ? kOperationsPerStep : 1.0);
  bool moved = false;
  while (playback_.carry >= 1.0) {
    playback_.carry -= 1.0;
    if (replaying && replay_ < replay_total_) {
      ++replay_;
      continue;
    }
    if (at_end()) {
      playback_.playing = false;
      playback_.carry = 0;
      break;
    }
    step_forward();
    moved = true;
  }
  return moved;
}

std::vector<int> AppState::recorded_blocks() const {
  std::vector<int> out;
  if (!run_ || run_->sim.trace.launches.empty()) return out;
  for (const auto& b : run_->sim.trace.launches.at(launch()).blocks)
    if (!b.steps.empty()) out.push_back(b.block);
  return out;
}

const sim::BlockTrace* AppState::focused_trace() const {
  if (!run_ || run_->sim.trace.launches.empty()) return nullptr;
  const sim::LaunchTrace& lt = run_->sim.trace.launches.at(launch());
  if (const sim::BlockTrace* b = lt.find_block(focus_block_); b && !b->steps.empty()) return b;
  for (const auto& b : lt.blocks)
    if (!b.steps.empty()) return &b;
  return nullptr;
}

nlohmann::json AppState::describe() const {
  nlohmann::json j = {{"position", position_},
                      {"launch", launch()},
                      {"step", step()},
                      {"steps", timeline_.size()},
                      {"playing", playback_.playing},
                      {"presenter", presenter},
                      {"focus_block", focus_block_},
                      {"replay", replay_}};
  if (run_) j["algorithm"] = run_->config.algorithm->info.name;
  return j;
}

}  // namespace syncscope::app
