// The tile view: a 2D shared array (`__shared__ float tile[32][33]`) drawn as the kernel declares
// it, rows × columns, instead of one strip of 1056 cells. Above each column its bank (of row 0),
// beside each row its index, under the tile one sentence on how the rows fall into banks; cells
// read or written in the step are outlined and a warp instruction's conflicting accesses get the
// bank-conflict bar, as in the strip. Geometry only, like step_layout.h: the panel paints it and
// the GUI tests read the same rectangles.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "app/view/block_view_model.h"
#include "app/view/step_layout.h"

namespace syncscope::app {

// How the rows of a 2D array fall into the 32 banks, for the class: "bank of tile[r][c] = (r × 33
// + c) mod 32: each row starts 1 bank later, so the 32 cells of a column are in 32 banks". ""
// for a 1D array.
std::string banks_sentence(const SharedArrayView& a);

// The model's 2D shared arrays (their rows in BlockViewModel::arrays).
std::vector<int> tile_arrays(const BlockViewModel& m);

struct TileLayout {
  int array_row = -1;  // in BlockViewModel::arrays
  Rect box;            // the whole drawing: title, banks, cells, sentence
  std::vector<LaidCell> cells;  // kind After when written in the step, else Before (the painter's outline rule)
  std::vector<LaidLabel> labels;
  // "tile title", "tile banks", "tile cells", "tile sentence" (the array's name first): for the GUI tests.
  std::map<std::string, Rect> named_rows;
  bool cells_as_colours = false;  // too small for numbers: a cell's colour is its value
};

// One 2D array in `room` (top-left at room.x, room.y): cells as large as fit, up to readable
// numbers; bank and row numbers thinned to those with room.
TileLayout layout_tile(const BlockViewModel& m, int array_row, const TextMetrics& text, Rect room);

// Every 2D array of the model side by side in `room`.
std::vector<TileLayout> layout_tiles(const BlockViewModel& m, const TextMetrics& text, Rect room);

}  // namespace syncscope::app
