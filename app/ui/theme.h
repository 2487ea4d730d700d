// Colours of the panels, normal and high-contrast (presenter mode on a projector).
#pragma once

#include <imgui.h>

namespace syncscope::ui {

struct Theme {
  bool high_contrast = false;
  ImU32 cell = 0, cell_border = 0, cell_text = 0;
  ImU32 changed = 0;      // cell whose value changed in this step
  ImU32 written = 0;      // outline of a cell written in this step (magenta: yellow-amber means a warning)
  ImU32 read = 0;         // outline of a cell read in this step
  ImU32 poison = 0, poison_text = 0;
  ImU32 race = 0;
  ImU32 bank_conflict = 0;  // bar across the top of a shared cell whose warp instruction had a bank conflict (white: no other mark uses it)
  ImU32 arrow_read = 0, arrow_write = 0;
  ImU32 thread_active = 0, thread_idle = 0, thread_exited = 0;
  ImU32 warp_outline = 0, label = 0, dim_text = 0;
  ImU32 barrier_line = 0, executed_line = 0;
  ImU32 good = 0, bad = 0, warning = 0;

  static Theme normal();
  static Theme presenter();
  // A colour for a value between the array's smallest (0) and largest (1).
  ImU32 shade(float t) const;
  void apply_to_imgui() const;
};

// Diagonal stripes over a rectangle: `?` cells (a pattern no value's colour can have) and the race
// lab's GPU bars.
void hatch(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 colour, float spacing = 5, float thickness = 1);

}  // namespace syncscope::ui
