// What the app shows: the run on screen (never replaced by a failed one), where in its timeline
// the class is, which block the single-block views follow, playback. No ImGui, no GL: the panels
// draw from it and tests drive it directly.
#pragma once

#include <algorithm>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "app/state/timeline.h"
#include "core/run.h"

namespace syncscope::app {

struct Playback {
  bool playing = false;
  float steps_per_second = 2.0f;
  double carry = 0;  // time accumulated towards the next step
};

class AppState {
 public:
  // Shows `run`, keeping the position in the timeline where it still exists.
  void show(std::shared_ptr<const RunResult> run);
  // Shows `run` at (launch, step).
  void show_at(std::shared_ptr<const RunResult> run, int launch, int step);

  const RunResult* run() const { return run_.get(); }
  std::shared_ptr<const RunResult> run_shared() const { return run_; }
  const Timeline& timeline() const { return timeline_; }

  int position() const { return position_; }
  int launch() const;
  int step() const;
  void go_to(int position);
  void step_forward() { go_to(position_ + 1); }
  void step_back() { go_to(position_ - 1); }
  void first() { go_to(0); }
  void last() { go_to(timeline_.size() - 1); }
  bool at_end() const { return position_ + 1 >= timeline_.size(); }

  Playback& playback() { return playback_; }
  const Playback& playback() const { return playback_; }
  void toggle_play();
  // Advances playback by dt seconds; stops at the end. True when the position changed. While
  // replaying, play walks through the step's operations (four per step-time) and then moves on.
  bool tick(double dt);

  // Replay inside the step: how many of its operations have run (-1: the whole step at once).
  // The mode stays on from step to step (each starts at 0); the step view says how many there are.
  int replay() const { return replay_; }
  void set_replay(int done) { replay_ = std::max(done, -1); }  // the step view clamps it to the step
  void move_replay(int by);  // "." and ",": from the whole step, "." starts at the first operation
  void set_replay_total(int total) {
    replay_total_ = total;
    if (replay_ > total) replay_ = total;
  }
  int replay_total() const { return replay_total_; }

  // The block the single-block views follow (a linear block index of the current launch).
  int focus_block() const { return focus_block_; }
  void set_focus_block(int b) { focus_block_ = b; }
  // The recorded block nearest to the focus in the current launch, or nullptr.
  const sim::BlockTrace* focused_trace() const;
  // Blocks of the current launch recorded in full.
  std::vector<int> recorded_blocks() const;

  bool presenter = false;
  float zoom = 1.0f;  // block view cell width factor
  bool fill_block_view = true;  // the block view sizes its picture to its panel (zooming turns it off)
  bool tile_view = true;  // a step with a 2D shared array draws it as rows × columns (else threads and arrows)

  // For the state file the GUI tests read: {"position":..,"launch":..,"step":..,"playing":..}
  nlohmann::json describe() const;
  std::string describe_json() const { return describe().dump(); }

 private:
  std::shared_ptr<const RunResult> run_;
  Timeline timeline_;
  int position_ = 0;
  int focus_block_ = 0;
  Playback playback_;
  int replay_ = -1;
  int replay_total_ = 0;
};

}  // namespace syncscope::app
