#include "app/gui_drivers.h"

#include <algorithm>
#include <array>
#include <iomanip>
#include <map>
#include <optional>
#include <vector>

#include "app/handouts.h"
#include "app/play_through.h"

namespace syncscope::app {
namespace {

// Exit codes as the command line's (app/command_line/config_args.h).
constexpr int kExitInternal = 1;

// A hand-out drawn over frames: before each, the state where the next picture is; after it, the
// picture taken. The first three frames are the windows' to take their sizes.
class HandoutFrames {
 public:
  explicit HandoutFrames(HandoutRequest request) : handouts_(std::move(request)) {}
  std::string check(const AppState& state) const { return handouts_.check(state); }

  // False when every picture is taken: then the files are written and done() says how it went.
  bool before_frame(GuiRun& run) {
    drawing_ = run.frame >= 3;
    if (!drawing_) return true;
    if (handouts_.prepare(run.state)) {
      run.window.keep_next_frame_pixels();
      return true;
    }
    drawing_ = false;
    failed_ = handouts_.finish(&summary_);
    return false;
  }
  // "" or why the frame's picture could not be written.
  std::string after_frame(GuiRun& run) {
    auto pixels = run.window.take_pixels();
    if (!pixels || !drawing_) return "";
    return handouts_.take(run.state, *pixels, run.window.width(), run.window.height(), run.ui.geometry.step_view_bottom);
  }
  const std::string& failed() const { return failed_; }    // finishing: "" or why writing failed
  const std::string& summary() const { return summary_; }  // what was written, a line a file

 private:
  Handouts handouts_;
  bool drawing_ = false;
  std::string failed_, summary_;
};

class InteractiveDriver : public FrameDriver {
 public:
  bool before_frame(GuiRun& run) override {
    start_asked_handout(run);
    if (handout_ && !handout_->before_frame(run)) {
      const std::string& summary = handout_->summary();
      end_handout(run, handout_->failed().empty() ? summary.substr(0, summary.find('\n')) : handout_->failed());
    }
    return true;
  }
  void advance(GuiRun& run) override {
    if (!handout_) FrameDriver::advance(run);  // a hand-out places every frame itself
  }
  bool step_view_alone() const override { return handout_.has_value(); }
  bool may_sleep(const GuiRun& run) const override { return !handout_ && !run.state.playback().playing; }
  bool after_frame(GuiRun& run, const FrameTimes&) override {
    if (!handout_) return true;
    if (std::string failed = handout_->after_frame(run); !failed.empty()) end_handout(run, failed);
    return true;  // the view comes back on the next frame
  }

 private:
  // Where the view was before the hand-out (which fills the window), to put it back.
  struct ViewBefore {
    int position = 0, replay = -1;
    bool playing = false;
    std::optional<std::array<float, 4>> block_view;
  };

  void start_asked_handout(GuiRun& run) {
    ui::UiContext& ui = run.ui;
    if (!ui.requests.export_handout || handout_) return;
    HandoutFrames asked(*ui.requests.export_handout);
    ui.requests.export_handout.reset();
    if (std::string bad = asked.check(run.state); !bad.empty()) {
      ui.message = bad;
      return;
    }
    handout_.emplace(std::move(asked));
    before_ = {run.state.position(), run.state.replay(), run.state.playback().playing, std::nullopt};
    if (auto it = ui.arrangement.rects.find("Block view"); it != ui.arrangement.rects.end()) before_.block_view = it->second;
    if (run.state.playback().playing) run.state.toggle_play();
    ui.step_view.handout = true;
  }

  void end_handout(GuiRun& run, const std::string& message) {
    ui::UiContext& ui = run.ui;
    ui.message = message;
    handout_.reset();
    ui.step_view.handout = false;
    run.state.go_to(before_.position);
    run.state.set_replay(before_.replay);
    if (before_.playing) run.state.toggle_play();
    if (before_.block_view) ui.arrangement.restore["Block view"] = *before_.block_view;
  }

  std::optional<HandoutFrames> handout_;
  ViewBefore before_;
};

class HandoutDriver : public FrameDriver {
 public:
  explicit HandoutDriver(HandoutRequest request) : frames_(std::move(request)) {}
  bool before_frame(GuiRun& run) override {
    finished_ = !frames_.before_frame(run);
    return !finished_;
  }
  void advance(GuiRun&) override {}  // the hand-out places every frame itself
  bool step_view_alone() const override { return true; }
  bool after_frame(GuiRun& run, const FrameTimes&) override {
    failed_ = frames_.after_frame(run);
    return failed_.empty();
  }
  int finish(GuiRun&, std::ostream& out, std::ostream& err) override {
    const std::string& failed = finished_ ? frames_.failed() : failed_;
    if (!failed.empty()) {
      err << "syncscope: " << failed << "\n";
      exit_code_ = kExitInternal;
    }
    if (finished_) out << frames_.summary();
    return exit_code_;
  }

 private:
  HandoutFrames frames_;
  bool finished_ = false;
  std::string failed_;
};

class ScreenshotDriver : public FrameDriver {
 public:
  explicit ScreenshotDriver(std::string path) : path_(std::move(path)) {}
  void after_draw(GuiRun& run) override {
    if (run.frame == 3) run.window.capture_next_frame(path_);
  }
  bool captured(GuiRun&, const std::string& failed) override {
    failed_ = failed;
    return false;
  }
  int finish(GuiRun&, std::ostream&, std::ostream& err) override {
    if (failed_.empty()) return exit_code_;
    err << "syncscope: " << failed_ << "\n";
    return kExitInternal;
  }

 private:
  std::string path_;
  std::string failed_;
};

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * (v.size() - 1) + 0.5))];
}

struct BenchPhase {
  std::string name;
  std::vector<double> wall, cpu, build, triangles;
};

void print_bench_report(std::ostream& out, int bench_frames, const std::vector<BenchPhase>& phases,
                        const std::map<std::string, std::vector<double>>& panel_ms, const GuiRun& run) {
  const AppState& state = run.state;
  out << bench_frames << " frames per row, TPB " << (state.run() ? state.run()->config.problem.tpb : 0)
      << (state.replay() >= 0 ? ", replaying one operation per frame, " : ", playing one step per frame, ")
      << run.window.width() << "x" << run.window.height() << " offscreen; CPU = this process, GL driver threads included\n";
  out << std::fixed << std::setprecision(2);
  out << "frame of               wall ms: median    p95   CPU ms: median    p95   block view build ms: median    p95   triangles\n";
  for (const BenchPhase& p : phases)
    out << std::left << std::setw(22) << p.name << std::right << std::setw(17) << percentile(p.wall, 0.5) << std::setw(7)
        << percentile(p.wall, 0.95) << std::setw(16) << percentile(p.cpu, 0.5) << std::setw(7) << percentile(p.cpu, 0.95)
        << std::setw(29) << percentile(p.build, 0.5) << std::setw(7) << percentile(p.build, 0.95) << std::setw(12)
        << std::setprecision(0) << percentile(p.triangles, 0.5) << std::setprecision(2) << "\n";
  std::vector<std::pair<double, std::string>> slowest;
  for (const auto& [name, ms] : panel_ms) slowest.emplace_back(percentile(ms, 0.5), name);
  std::sort(slowest.rbegin(), slowest.rend());
  out << "slowest panels to build (median ms):";
  for (size_t k = 0; k < std::min<size_t>(3, slowest.size()); ++k) out << (k ? ", " : " ") << slowest[k].second << " " << slowest[k].first;
  out << "\n";
}

class BenchDriver : public FrameDriver {
 public:
  explicit BenchDriver(int frames) : frames_(frames) {}
  void advance(GuiRun& run) override {
    AppState& state = run.state;
    if (state.replay() >= 0 && state.replay() < state.replay_total()) state.move_replay(1);
    else if (state.at_end()) state.first();
    else state.step_forward();
  }
  bool step_view_alone() const override { return alone_; }
  bool after_frame(GuiRun& run, const FrameTimes& times) override {
    if (run.frame <= 10) return true;  // warming up
    phase_.wall.push_back(times.wall_ms);
    phase_.cpu.push_back(times.cpu_ms);
    phase_.build.push_back(times.block_view_ms);
    phase_.triangles.push_back(run.window.last_frame_triangles());
    if (!alone_)
      for (const auto& [name, ms] : run.ui.arrangement.draw_ms) panel_ms_[name].push_back(ms);
    if (static_cast<int>(phase_.wall.size()) < frames_) return true;
    phase_.name = alone_ ? "block view alone" : "whole app";
    phases_.push_back(std::move(phase_));
    phase_ = {};
    if (alone_) return false;
    alone_ = true;
    run.frame = 0;
    return true;
  }
  int finish(GuiRun& run, std::ostream& out, std::ostream&) override {
    print_bench_report(out, frames_, phases_, panel_ms_, run);
    return exit_code_;
  }

 private:
  int frames_;
  bool alone_ = false;  // the second phase: the block view alone, filling the window
  BenchPhase phase_;
  std::vector<BenchPhase> phases_;
  std::map<std::string, std::vector<double>> panel_ms_;  // the whole app's frames: each panel's build time
};

class PlayThroughDriver : public FrameDriver {
 public:
  PlayThroughDriver(int width, int height) : play_(width, height) {}
  bool before_frame(GuiRun& run) override {
    const auto next = play_.before_frame(run.state, run.session);
    if (!next) return false;
    if (next->window_size) run.window.resize(next->window_size->first, next->window_size->second);
    if (next->presenter && *next->presenter != run.state.presenter) set_presenter(run.ui, run.window, *next->presenter);
    return true;
  }
  bool after_frame(GuiRun& run, const FrameTimes&) override {
    const ui::FrameGeometry& g = run.ui.geometry;
    play_.after_frame(run.state, {g.rows.count("threads") > 0, g.blocks_drawn, g.waiting_for});
    return true;
  }
  int finish(GuiRun&, std::ostream& out, std::ostream& err) override {
    (play_.failed() ? err : out) << play_.report();
    return play_.failed() ? kExitInternal : exit_code_;
  }

 private:
  PlayThrough play_;
};

}  // namespace

std::unique_ptr<FrameDriver> interactive_driver() { return std::make_unique<InteractiveDriver>(); }
std::unique_ptr<FrameDriver> handout_driver(HandoutRequest request) {
  return std::make_unique<HandoutDriver>(std::move(request));
}
std::unique_ptr<FrameDriver> screenshot_driver(std::string path) { return std::make_unique<ScreenshotDriver>(std::move(path)); }
std::unique_ptr<FrameDriver> bench_driver(int frames) { return std::make_unique<BenchDriver>(frames); }
std::unique_ptr<FrameDriver> play_through_driver(int width, int height) {
  return std::make_unique<PlayThroughDriver>(width, height);
}

}  // namespace syncscope::app
