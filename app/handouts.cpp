#include "app/handouts.h"

#include <algorithm>
#include <cmath>

#include "app/gl/window.h"

namespace syncscope::app {

std::string Handouts::check(const AppState& s) const {
  const int last = s.timeline().size() - 1;
  if (request_.from < 0 || request_.from > last)
    return "--from " + std::to_string(request_.from) + ": steps of this run are 0.." + std::to_string(last);
  if (request_.to != -1 && (request_.to < request_.from || request_.to > last))
    return "--to " + std::to_string(request_.to) + ": must be " + std::to_string(request_.from) + ".." + std::to_string(last);
  if (!(request_.fps >= 0.5 && request_.fps <= 50))
    return "--fps " + std::to_string(request_.fps) + ": must be 0.5..50 frames per second";
  return "";
}

void Handouts::plan(const AppState& s) {
  planned_ = true;
  const int to = request_.to < 0 ? s.timeline().size() - 1 : request_.to;
  if (!request_.step_png.empty()) shots_.push_back({s.position(), s.replay(), Purpose::StepPng});
  for (int p = request_.from; p <= to; ++p) {
    if (!request_.sheet.empty()) shots_.push_back({p, -1, Purpose::SheetBand});
    if (!request_.gif.empty()) shots_.push_back({p, 0, Purpose::Probe});
  }
}

bool Handouts::prepare(AppState& s) {
  if (!planned_) plan(s);
  if (shots_.empty()) return false;
  const Shot& next = shots_.front();
  if (s.position() != next.position) s.go_to(next.position);
  s.set_replay(next.replay);
  return true;
}

std::string Handouts::take(const AppState& s, const std::vector<unsigned char>& rgba, int width, int height,
                           float content_bottom) {
  const Shot shot = shots_.front();
  shots_.pop_front();
  const int frame_cs = std::max(2, static_cast<int>(std::lround(100.0 / request_.fps)));
  switch (shot.purpose) {
    case Purpose::Probe: {
      // Now the step view has said how many operations the step has: a frame every few of them
      // (at most 8 per step, in the schedule's order), then the whole step held a while.
      const int total = s.replay_total();
      std::vector<Shot> frames;
      if (total > 0) {
        const int stride = std::max(1, (total + 7) / 8);
        for (int r = 0; r < total; r += stride) frames.push_back({shot.position, r, Purpose::GifFrame, frame_cs});
      }
      frames.push_back({shot.position, -1, Purpose::GifFrame, frame_cs * (total > 0 ? 4 : 2)});
      shots_.insert(shots_.begin(), frames.begin(), frames.end());
      return "";
    }
    case Purpose::GifFrame: {
      if (!gif_) {
        std::string why;
        gif_ = GifWriter::create(request_.gif, width, height, &why);
        if (!gif_) return why;
      }
      return gif_->add({width, height, rgba}, shot.delay_cs);
    }
    case Purpose::SheetBand:
    case Purpose::StepPng: {
      // The step view down to where its content ends, and a rule under each band.
      const int band_h = std::clamp(static_cast<int>(std::ceil(content_bottom)) + 8, 1, height);
      const size_t row = static_cast<size_t>(width) * 4;
      if (shot.purpose == Purpose::StepPng) {
        std::vector<unsigned char> png(rgba.begin(), rgba.begin() + static_cast<long>(row * band_h));
        return gl::write_png(request_.step_png, width, band_h, png).value_or("");
      }
      sheet_width_ = width;
      sheet_.insert(sheet_.end(), rgba.begin(), rgba.begin() + static_cast<long>(row * band_h));
      for (int k = 0; k < 3; ++k)
        for (int x = 0; x < width; ++x) sheet_.insert(sheet_.end(), {110, 110, 120, 255});
      sheet_height_ += band_h + 3;
      ++bands_;
      return "";
    }
  }
  return "";
}

std::string Handouts::finish(std::string* summary) {
  std::string error;
  if (gif_) {
    error = gif_->finish();
    *summary += request_.gif + ": " + std::to_string(gif_->frames_written()) + " frames\n";
  }
  if (!request_.sheet.empty() && bands_ > 0) {
    if (auto failed = gl::write_png(request_.sheet, sheet_width_, sheet_height_, sheet_)) error = *failed;
    else *summary += request_.sheet + ": " + std::to_string(bands_) + " steps\n";
  }
  if (!request_.step_png.empty()) *summary += request_.step_png + ": the step view\n";
  return error;
}

}  // namespace syncscope::app
