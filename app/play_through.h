// `syncscope gui ... --play-through`: plays a lesson as a class would and checks every frame. From
// the first step of the first launch to the last step of the last launch and back again, four
// times: the normal layout and presenter mode, each with replay off and on (replay: the step's
// start, its middle and its end). It starts drawing while the run is still being simulated, and in
// the first pass, midway, it resizes the window, switches presenter mode on and off and asks for a
// block that was not recorded, while the play goes on. A frame fails when the position is not the
// one asked for, or when the step view neither drew its block nor said what it waits for.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "app/state/app_state.h"
#include "app/state/session.h"

namespace syncscope::app {

// What the main loop changes before the frame, besides the state.
struct PlayThroughFrame {
  std::optional<bool> presenter;
  std::optional<std::pair<int, int>> window_size;
};

// What the step view did in a frame.
struct StepViewOutcome {
  bool drew_block = false;   // a block's rows are on screen
  int blocks_side_by_side = 0;
  std::string waiting_for;   // else what it said it waits for ("simulating...", "recording block 3...")
};

class PlayThrough {
 public:
  PlayThrough(int width, int height) : width_(width), height_(height) {}

  // Before each frame: moves the state to where this frame should be. nullopt: the play is over.
  std::optional<PlayThroughFrame> before_frame(AppState& state, Session& session);
  // After each frame.
  void after_frame(const AppState& state, const StepViewOutcome& outcome);

  bool failed() const { return !failure_.empty(); }
  // One paragraph: what was played, or the first frame that went wrong.
  std::string report() const;

 private:
  enum class Stage { kWaitForRun, kForward, kBackward, kDisturb, kWaitForBlock, kDone };
  struct Pass {
    bool presenter, replay;
  };
  static constexpr Pass kPasses[4] = {{false, false}, {false, true}, {true, false}, {true, true}};

  void fail(const AppState& state, const std::string& why);
  void start_pass(AppState& state, PlayThroughFrame& frame);
  bool next_position(AppState& state);  // false at the end of a walk
  void disturb(AppState& state, Session& session, PlayThroughFrame& frame);
  static bool has_unrecorded_block(const AppState& state);  // the last block of the launch on screen

  int width_, height_;
  Stage stage_ = Stage::kWaitForRun;
  int pass_ = 0;
  int expected_position_ = 0;
  int replay_phase_ = 0;      // replay on: 0 the step's start, 1 its middle, 2 its end
  int disturbance_ = 0;       // which midway disturbance is running, and its frames
  int disturbance_frames_ = 0;
  int wanted_block_ = -1, wanted_launch_ = 0;
  int recorded_block_ = -1;
  bool disturbed_ = false;
  std::string failure_;
  // Counts for the report.
  int frames_ = 0, waiting_frames_ = 0, steps_ = 0, most_side_by_side_ = 0;
  std::vector<std::string> waited_for_;
};

}  // namespace syncscope::app
