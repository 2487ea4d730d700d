// What the layout tests share: a fixed-pitch stand-in for the window's font, and "inside".
#pragma once

#include <algorithm>
#include <string_view>

#include "app/view/step_layout.h"

namespace syncscope::app::stand_in {

// Every character (UTF-8 code point) 0.6 em wide.
inline TextMetrics fixed_pitch(float font_px = 13) {
  return {font_px, [](std::string_view text, float px) {
            const auto points = std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; });
            return static_cast<float>(points) * 0.6f * px;
          }};
}

inline bool inside(const Rect& in, const Rect& out) {
  const float slack = 0.01f;
  return in.x >= out.x - slack && in.y >= out.y - slack && in.right() <= out.right() + slack && in.bottom() <= out.bottom() + slack;
}

}  // namespace syncscope::app::stand_in
