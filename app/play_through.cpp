#include "app/play_through.h"

#include <algorithm>
#include <sstream>

namespace syncscope::app {

void PlayThrough::fail(const AppState& state, const std::string& why) {
  if (!failure_.empty()) return;
  std::ostringstream s;
  s << "frame " << frames_ << " (pass " << pass_ + 1 << ": " << (kPasses[pass_].presenter ? "presenter" : "normal")
    << ", replay " << (kPasses[pass_].replay ? "on" : "off") << "; position " << state.position() << " of "
    << state.timeline().size() << ", launch " << state.launch() << " step " << state.step() << "): " << why;
  failure_ = s.str();
  stage_ = Stage::kDone;
}

void PlayThrough::start_pass(AppState& state, PlayThroughFrame& frame) {
  frame.presenter = kPasses[pass_].presenter;
  state.first();
  state.set_replay(kPasses[pass_].replay ? 0 : -1);
  expected_position_ = 0;
  replay_phase_ = 0;
  stage_ = Stage::kForward;
}

// One step on in the walk's direction; replay on, each step starts at its first operation.
bool PlayThrough::next_position(AppState& state) {
  const int next = stage_ == Stage::kBackward ? expected_position_ - 1 : expected_position_ + 1;
  if (next < 0 || next >= state.timeline().size()) return false;
  expected_position_ = next;
  state.go_to(next);
  replay_phase_ = 0;
  if (kPasses[pass_].replay) state.set_replay(0);
  ++steps_;
  return true;
}

bool PlayThrough::has_unrecorded_block(const AppState& state) {
  const int last = state.run()->sim.trace.launches.at(state.launch()).grid.count() - 1;
  const auto recorded = state.recorded_blocks();
  return last > 0 && std::find(recorded.begin(), recorded.end(), last) == recorded.end();
}

// The window changes while the lesson plays on: a smaller size and back, presenter mode switched
// and back, then a block that was not recorded is asked for (the step view waits for it, saying so).
void PlayThrough::disturb(AppState& state, Session& session, PlayThroughFrame& frame) {
  next_position(state);
  switch (disturbance_frames_++) {
    case 0:
      frame.window_size = std::make_pair(width_ * 4 / 5, height_ * 4 / 5);
      if (has_unrecorded_block(state)) {  // recorded while the lesson plays on
        wanted_launch_ = state.launch();
        wanted_block_ = recorded_block_ = state.run()->sim.trace.launches.at(wanted_launch_).grid.count() - 1;
        session.focus_block(wanted_block_);
      }
      break;
    case 2: frame.window_size = std::make_pair(width_, height_); break;
    case 3: frame.presenter = !kPasses[pass_].presenter; break;
    case 5: frame.presenter = kPasses[pass_].presenter; break;
    case 6:
      disturbed_ = true;
      stage_ = wanted_block_ > 0 ? Stage::kWaitForBlock : Stage::kForward;
      break;
    default: break;
  }
}

std::optional<PlayThroughFrame> PlayThrough::before_frame(AppState& state, Session& session) {
  if (stage_ == Stage::kDone) return std::nullopt;
  ++frames_;
  PlayThroughFrame frame;
  const bool ready = state.run() && !session.simulating() && state.timeline().size() > 0;
  switch (stage_) {
    case Stage::kWaitForRun:
      if (ready) start_pass(state, frame);
      return frame;
    case Stage::kWaitForBlock: {
      if (!ready) return frame;
      if (wanted_block_ > 0) {
        const sim::BlockTrace* shown = state.run()->sim.trace.launches.at(wanted_launch_).find_block(wanted_block_);
        if (!shown || shown->steps.empty()) fail(state, "block " + std::to_string(wanted_block_) + " was asked for and not recorded");
        else if (state.position() != expected_position_) fail(state, "recording another block moved the timeline");
        wanted_block_ = 0;  // and back to the first block, recorded again too
        session.focus_block(0);
        return frame;
      }
      stage_ = Stage::kForward;
      return frame;
    }
    case Stage::kDisturb:
      disturb(state, session, frame);
      return frame;
    case Stage::kForward: {
      const Pass pass = kPasses[pass_];
      if (pass.replay && replay_phase_ < 2 && state.replay_total() > 0) {
        ++replay_phase_;
        state.set_replay(replay_phase_ == 1 ? state.replay_total() / 2 : state.replay_total());
        return frame;
      }
      // Midway through the last pass, the window changes while the lesson plays: in the first
      // launch past a quarter of the lesson with a block not recorded yet, else at its middle.
      const int size = state.timeline().size();
      if (pass_ == 3 && !disturbed_ &&
          (expected_position_ >= size / 2 || (expected_position_ >= size / 4 && has_unrecorded_block(state)))) {
        stage_ = Stage::kDisturb;
        disturbance_frames_ = 0;
        disturb(state, session, frame);
        return frame;
      }
      if (next_position(state)) return frame;
      stage_ = Stage::kBackward;
      [[fallthrough]];
    }
    case Stage::kBackward:
      if (next_position(state)) return frame;
      if (++pass_ == 4) {
        --pass_;
        stage_ = Stage::kDone;
        return std::nullopt;
      }
      start_pass(state, frame);
      return frame;
    case Stage::kDone: break;
  }
  return std::nullopt;
}

void PlayThrough::after_frame(const AppState& state, const StepViewOutcome& outcome) {
  most_side_by_side_ = std::max(most_side_by_side_, outcome.blocks_side_by_side);
  if (!outcome.waiting_for.empty()) {
    ++waiting_frames_;
    if (std::find(waited_for_.begin(), waited_for_.end(), outcome.waiting_for) == waited_for_.end())
      waited_for_.push_back(outcome.waiting_for);
  }
  if (!outcome.drew_block && outcome.waiting_for.empty()) {
    fail(state, "the step view drew no block and did not say what it waits for");
    return;
  }
  const bool walking = stage_ == Stage::kForward || stage_ == Stage::kBackward || stage_ == Stage::kDisturb;
  if (!walking) return;
  if (state.position() != expected_position_)
    fail(state, "asked for position " + std::to_string(expected_position_) + ", the app is at " + std::to_string(state.position()));
  else if (!outcome.drew_block)
    fail(state, "the step view drew no block (it said: " + outcome.waiting_for + ")");
  else if (kPasses[pass_].replay && state.replay() > state.replay_total())
    fail(state, "replay at operation " + std::to_string(state.replay()) + " of " + std::to_string(state.replay_total()));
}

std::string PlayThrough::report() const {
  std::ostringstream s;
  if (failed()) {
    s << "play-through FAILED at " << failure_ << "\n";
    return s.str();
  }
  s << "play-through: " << width_ << "x" << height_ << ", 4 passes (normal and presenter, replay off and on), first step to last and back: "
    << steps_ << " steps in " << frames_ << " frames, up to " << most_side_by_side_ << " block" << (most_side_by_side_ == 1 ? "" : "s")
    << " side by side; " << waiting_frames_ << " frames waiting";
  for (size_t k = 0; k < waited_for_.size(); ++k) s << (k ? ", " : " (") << "'" << waited_for_[k] << "'" << (k + 1 == waited_for_.size() ? ")" : "");
  s << "; midway through the last pass: resized to " << width_ * 4 / 5 << "x" << height_ * 4 / 5 << " and back, presenter mode switched and back"
    << (disturbed_ ? "" : " (not reached)");
  if (recorded_block_ > 0) s << ", block " << recorded_block_ << " recorded while playing";
  s << "\n";
  return s.str();
}

}  // namespace syncscope::app
