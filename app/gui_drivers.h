// The drivers of the frame loop (app/frame_loop.h), one per way the window runs. Each is small: it
// says what happens around a frame, the loop does the rest.
#pragma once

#include <memory>
#include <string>

#include "app/frame_loop.h"
#include "app/handout_request.h"

namespace syncscope::app {

// A teacher's window: playback at the frame's pace; File > Export GIF / sheet / step view drawn as
// the command line would, then the view put back where it was.
std::unique_ptr<FrameDriver> interactive_driver();
// gui --gif / --sheet / --step-png: the step view alone, each frame where the next picture is; the
// files written are listed on `out`. The request was checked against the run (Handouts::check).
std::unique_ptr<FrameDriver> handout_driver(HandoutRequest request);
// gui --screenshot: the fourth frame (windows have their sizes by then) saved as PNG, then exit.
std::unique_ptr<FrameDriver> screenshot_driver(std::string path);
// gui --bench-frames N: N frames of the whole app, then N of the step view alone, playing one step
// (or, while replaying, one operation) per frame; the frame times printed.
std::unique_ptr<FrameDriver> bench_driver(int frames);
// gui --play-through: the lesson played end to end and back, every frame checked (app/play_through.h).
std::unique_ptr<FrameDriver> play_through_driver(int width, int height);

}  // namespace syncscope::app
