#include "app/view/timeline_model.h"

namespace syncscope::app {

TimelineModel build_timeline(const AppState& state) {
  TimelineModel m;
  const Timeline& tl = state.timeline();
  m.marks = tl.marks();
  m.current = state.position();
  m.playing = state.playback().playing;
  m.at_start = state.position() == 0;
  m.at_end = state.at_end();
  const RunResult* run = state.run();
  for (int l = 0; l < tl.launches(); ++l) {
    TimelineLaunchView v;
    v.first = tl.first_of_launch(l);
    v.steps = (l + 1 < tl.launches() ? tl.first_of_launch(l + 1) : tl.size()) - v.first;
    if (run) {
      const sim::LaunchTrace& lt = run->sim.trace.launches.at(l);
      v.label = std::to_string(l + 1) + " " + lt.label + " (" + std::to_string(lt.grid.count()) +
                (lt.grid.count() == 1 ? " block)" : " blocks)");
    }
    m.launches.push_back(std::move(v));
  }
  if (!m.marks.empty()) {
    const TimelineMark& mark = m.marks[m.current];
    const int steps_in_launch = m.launches[mark.launch].steps;
    m.where = "launch " + std::to_string(mark.launch + 1) + "/" + std::to_string(tl.launches()) + " · step " +
              std::to_string(mark.step) + "/" + std::to_string(steps_in_launch - 1) + " · " +
              (mark.barrier == sim::kNoLine ? std::string("ends when the threads exit") : "ends at barrier " + mark.label);
  }
  return m;
}

}  // namespace syncscope::app
