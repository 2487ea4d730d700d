// Hand-outs for slides, drawn off screen from the step view alone: an animated GIF (every step,
// with the in-step replay where the step has operations), a sheet (every step of the shown block
// stacked, each band with its caption) and a PNG of one step.
#pragma once

#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "app/export/gif_writer.h"
#include "app/handout_request.h"
#include "app/state/app_state.h"

namespace syncscope::app {

class Handouts {
 public:
  explicit Handouts(HandoutRequest request) : request_(std::move(request)) {}
  // Checks the request against the run's timeline; "" when it is fine, else the message (exit 2).
  std::string check(const AppState& s) const;
  // Before a frame: puts the state where the next picture is; false when every picture is taken.
  bool prepare(AppState& s);
  // After that frame: its pixels (RGBA, top row first) and where the step view's content ends.
  // "" or why writing failed.
  std::string take(const AppState& s, const std::vector<unsigned char>& rgba, int width, int height, float content_bottom);
  // Writes the sheet and closes the GIF; "" or why it failed. `summary`: what was written.
  std::string finish(std::string* summary);

 private:
  enum class Purpose { Probe, GifFrame, SheetBand, StepPng };
  struct Shot {
    int position;
    int replay;  // -1: the whole step
    Purpose purpose;
    int delay_cs = 0;
  };
  void plan(const AppState& s);
  HandoutRequest request_;
  bool planned_ = false;
  std::deque<Shot> shots_;
  std::unique_ptr<GifWriter> gif_;
  std::vector<unsigned char> sheet_;  // the bands so far
  int sheet_width_ = 0, sheet_height_ = 0, bands_ = 0;
};

}  // namespace syncscope::app
