// The overview strip of a large global array: its values in an R32F texture, coloured by
// shaders/overview.frag, drawn inside ImGui's draw list through a callback.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

struct ImDrawList;
struct ImDrawCmd;

namespace syncscope::gl {

class OverviewStrips {
 public:
  OverviewStrips();  // needs the window's GL context
  ~OverviewStrips();
  OverviewStrips(const OverviewStrips&) = delete;
  OverviewStrips& operator=(const OverviewStrips&) = delete;

  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }

  // Queues a strip at [x0,y0]-[x1,y1] (screen pixels). `slot` names the strip across frames. Its
  // values are `base` (uploaded when `base_version` changes: once per launch) with `patches`
  // (index, value) on top (applied when `patches_version` changes: once per step, a few cells). NaN
  // values are '?'. Elements [highlight_first, highlight_last] get a white outline (the focused block).
  void draw(ImDrawList* list, float x0, float y0, float x1, float y1, int slot, uint64_t base_version,
            const std::vector<float>& base, uint64_t patches_version, const std::vector<std::pair<int, float>>& patches,
            float lo, float hi, int highlight_first, int highlight_last);

 private:
  struct Texture {
    unsigned id = 0;
    int width = 0, count = 0;
    uint64_t base_version = ~uint64_t{0}, patches_version = ~uint64_t{0};
    std::vector<int> patched;  // cells that hold a patch instead of the base value
  };
  static void set_texel(const Texture& t, int index, float value);
  struct Item {
    OverviewStrips* owner;
    float x0, y0, x1, y1, lo, hi;
    int slot, first, last;
  };
  static void render(const ImDrawList* list, const ImDrawCmd* cmd);

  unsigned program_ = 0, vao_ = 0, vbo_ = 0;
  std::string error_;
  std::map<int, Texture> textures_;
  std::vector<std::unique_ptr<Item>> items_;  // callback payloads; kept for a few frames
};

}  // namespace syncscope::gl
