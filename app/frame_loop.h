// The app's one frame loop, and what drives it. Every way the window runs — a teacher's window, a
// hand-out written off screen, a screenshot, the frame-time bench, the play-through — is a
// FrameDriver (app/gui_drivers.h) around the same loop: poll the session, draw the panels (or the
// step view alone), act on the panels' requests, keep the state file and the title.
#pragma once

#include <ostream>
#include <string>

#include "app/gl/window.h"
#include "app/state/app_state.h"
#include "app/state/session.h"
#include "app/ui/panels.h"

namespace syncscope::app {

// What the loop and its driver share: the open window and the app in it.
struct GuiRun {
  gl::Window& window;
  AppState& state;
  Session& session;
  ui::UiContext& ui;
  std::string state_file;  // gui --state-file: kept up to date for the GUI tests ("" none)
  int frame = 0;           // frames shown so far
};

// How long a frame took to make, for the bench.
struct FrameTimes {
  double wall_ms = 0, cpu_ms = 0;  // the whole frame; CPU: this process, GL driver threads included
  double block_view_ms = 0;        // building the step view
};

class FrameDriver {
 public:
  virtual ~FrameDriver() = default;
  // Before the frame begins: false ends the loop.
  virtual bool before_frame(GuiRun&) { return true; }
  // Moves the state for this frame, once the frame has begun: by default playback at its pace.
  virtual void advance(GuiRun& run);
  // The step view alone, filling the window, instead of the app (hand-outs, the bench's second phase).
  virtual bool step_view_alone() const { return false; }
  // Drawn, not yet shown: where a driver asks for the frame's pixels.
  virtual void after_draw(GuiRun&) {}
  // Shown: false ends the loop.
  virtual bool after_frame(GuiRun&, const FrameTimes&) { return true; }
  // A PNG the window captured: "" written, else why not. False ends the loop.
  virtual bool captured(GuiRun& run, const std::string& failed);
  // Nothing moves on screen by itself (nothing plays): the loop may sleep until input arrives (or a
  // tenth of a second passes, for work finishing in the background) instead of drawing frames no
  // one needs, which took a core from the compiler under a software renderer.
  virtual bool may_sleep(const GuiRun&) const { return false; }
  // After the loop: what the run prints, and its exit code.
  virtual int finish(GuiRun&, std::ostream& /*out*/, std::ostream& /*err*/) { return exit_code_; }

 protected:
  int exit_code_ = 0;  // command_line::kExitRan
};

// Colours, and paddings in proportion to the font (presenter mode's follows the window's height).
void apply_style(ui::UiContext& ui, const gl::Window& window);
void set_presenter(ui::UiContext& ui, gl::Window& window, bool on);

// Runs frames until the window closes, the user quits or the driver ends it; the driver's exit code.
int run_frame_loop(GuiRun& run, FrameDriver& driver, std::ostream& out, std::ostream& err);

}  // namespace syncscope::app
