// Paints what app/view/step_layout.h and tile_layout.h laid out, as it is: the Block view panel's
// picture, the tile view, and the hand-outs drawn off screen through the same panel.
#pragma once

#include <imgui.h>

#include "app/ui/theme.h"
#include "app/view/step_layout.h"
#include "app/view/tile_layout.h"

namespace syncscope::ui {

// A cell: its value (or its colour, too narrow for numbers), outlined read (before rows) or
// written (after rows), with the race outline and the bank-conflict bar.
void paint_cell(ImDrawList* dl, const Theme& th, const app::LaidCell& laid);
void paint_label(ImDrawList* dl, const Theme& th, const app::LaidLabel& l);
// A block: frame, threads, labels, cells, then arrows with the labels and lane rows among them.
void paint_block(ImDrawList* dl, const Theme& th, const app::BlockLayout& b);
// A 2D shared array as rows × columns.
void paint_tile(ImDrawList* dl, const Theme& th, const app::TileLayout& tile);

}  // namespace syncscope::ui
