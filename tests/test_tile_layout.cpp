// The tile view (app/view/tile_layout.h), checked without a window: a 2D shared array laid out as
// the rows × columns the kernel declares, its banks above the columns, and the sentence that says
// how its rows fall into banks (the transpose lecture's point: padding a row by one word).
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <string>

#include "app/view/tile_layout.h"
#include "tests/layout_stand_ins.h"

namespace syncscope::app {
namespace {

using stand_in::fixed_pitch;
using stand_in::inside;

// tile[rows][columns], cell k holding k; the first column read, the second row written, cell 1
// part of a 4-way bank conflict.
SharedArrayView tile(int rows, int columns, int word_offset = 0) {
  SharedArrayView a;
  a.array = 7;
  a.name = "tile";
  a.columns = columns;
  a.word_offset = word_offset;
  for (int k = 0; k < rows * columns; ++k) {
    CellView c;
    c.text = std::to_string(k);
    c.shade = static_cast<float>(k) / static_cast<float>(rows * columns);
    a.before.push_back(c);
    a.after.push_back(c);
  }
  for (int r = 0; r < rows; ++r) a.before[r * columns].read = true;
  for (int c = 0; c < columns && rows > 1; ++c) a.after[columns + c].written = true;
  a.after[1].bank_conflict = 4;
  return a;
}


TEST(TileLayout, TheSentenceSaysHowAColumnFallsIntoBanks) {
  EXPECT_EQ(banks_sentence(tile(32, 33)),
            "bank of tile[r][c] = (r × 33 + c) mod 32: each row starts 1 bank later, so the 32 cells of a column are "
            "in 32 different banks (a warp reading a column: no bank conflict)");
  EXPECT_EQ(banks_sentence(tile(32, 32)),
            "bank of tile[r][c] = (r × 32 + c) mod 32: every row starts in the same bank, so the 32 cells of a "
            "column share one bank (a warp reading a column: 32-way bank conflict)");
  EXPECT_EQ(banks_sentence(tile(16, 16)),
            "bank of tile[r][c] = (r × 16 + c) mod 32: each row starts 16 banks later, so the 16 cells of a column "
            "fall in only 2 banks (a warp reading a column: 8-way bank conflict)");
  // After another shared array: the offset is in the formula. Eight rows of 36 words: each row 4
  // banks later, 8 banks for 8 cells - no conflict.
  EXPECT_EQ(banks_sentence(tile(8, 36, 5)),
            "bank of tile[r][c] = (5 + r × 36 + c) mod 32: each row starts 4 banks later, so the 8 cells of a "
            "column are in 8 different banks (a warp reading a column: no bank conflict)");
  // A 3D array (box[4][8][8], drawn as its 32 rows plane after plane): its own three indices.
  SharedArrayView box = tile(32, 8);
  box.plane_rows = 8;
  EXPECT_EQ(banks_sentence(box),
            "bank of tile[z][y][x] = ((z × 8 + y) × 8 + x) mod 32: each row starts 8 banks later, so the 32 cells of "
            "a column fall in only 4 banks (a warp reading a column: 8-way bank conflict)");
  EXPECT_EQ(banks_sentence(tile(1, 33)), "") << "one row is a strip";
  SharedArrayView strip = tile(4, 8);
  strip.columns = 0;
  EXPECT_EQ(banks_sentence(strip), "");
}

TEST(TileLayout, OnlyTwoDimensionalArraysAreTiles) {
  BlockViewModel m;
  SharedArrayView strip = tile(4, 8);
  strip.columns = 0;
  m.arrays = {strip, tile(4, 8), tile(2, 3)};
  EXPECT_EQ(tile_arrays(m), (std::vector<int>{1, 2}));
}

// A 3D array is titled as declared, and each row says which plane and row of it it is.
TEST(TileLayout, AThreeDimensionalArrayIsNamedByItsThreeExtents) {
  const TextMetrics text = fixed_pitch();
  BlockViewModel m;
  m.arrays = {tile(32, 8)};
  m.arrays[0].plane_rows = 8;
  const TileLayout t = layout_tile(m, 0, text, {0, 0, 1900, 900});
  ASSERT_EQ(t.cells.size(), 32u * 8u);
  auto has_label = [&](const std::string& s) {
    return std::any_of(t.labels.begin(), t.labels.end(), [&](const LaidLabel& l) { return l.text == s; });
  };
  EXPECT_TRUE(std::any_of(t.labels.begin(), t.labels.end(),
                          [](const LaidLabel& l) { return l.text.rfind("tile[4][8][8]: its planes' rows", 0) == 0; }));
  EXPECT_TRUE(has_label("0,0"));
  EXPECT_TRUE(has_label("1,0")) << "row 8 is the second plane's first row";
  EXPECT_TRUE(has_label("3,7"));
  EXPECT_FALSE(has_label("8")) << "no bare row numbers";
}

TEST(TileLayout, CellsSitAtTheirRowAndColumnInsideTheRoom) {
  const TextMetrics text = fixed_pitch();
  for (const Rect room : {Rect{10, 20, 600, 330}, Rect{0, 0, 1900, 900}}) {
    BlockViewModel m;
    m.arrays = {tile(32, 33, 3)};
    const TileLayout t = layout_tile(m, 0, text, room);
    ASSERT_EQ(t.cells.size(), 32u * 33u);
    EXPECT_TRUE(inside(t.box, room)) << room.w;
    const LaidCell& first = t.cells[0];
    for (const LaidCell& c : t.cells) {
      const int r = c.index / 33, col = c.index % 33;
      EXPECT_TRUE(inside(c.box, t.box)) << c.index;
      EXPECT_NEAR(c.box.x, first.box.x + static_cast<float>(col) * first.box.w, 0.01f);
      EXPECT_NEAR(c.box.y, first.box.y + static_cast<float>(r) * first.box.h, 0.01f);
      EXPECT_EQ(c.cell.text, std::to_string(c.index));
      // What happened to it: read from the before row, written from the after row (its outline).
      EXPECT_EQ(c.cell.read, col == 0);
      EXPECT_EQ(c.kind == RowKind::After, r == 1);
      EXPECT_EQ(c.cell.bank_conflict, c.index == 1 ? 4 : 0);
    }
    for (const LaidLabel& l : t.labels) {
      EXPECT_LE(l.width, l.room + 0.01f) << l.text;
      EXPECT_TRUE(inside(l.box(text.font_px), {room.x, room.y, room.w, room.h + 1})) << l.text;
    }
    // A bank over each labelled column: (offset + c) mod 32, centred on it.
    int banks = 0;
    for (const LaidLabel& l : t.labels) {
      if (l.at.y >= first.box.y || l.at.y <= room.y || l.at.x < first.box.x) continue;  // not a bank
      const float centre = l.at.x + l.width / 2;
      const int col = static_cast<int>((centre - first.box.x) / first.box.w);
      EXPECT_EQ(l.text, std::to_string((3 + col) % 32));
      ++banks;
    }
    EXPECT_GE(banks, 8) << "at least every fourth column's bank";
    // Row numbers beside their rows, inside the tile's height, none over another.
    float previous_bottom = -1;
    for (const LaidLabel& l : t.labels)
      if (l.at.x < first.box.x && !l.text.empty() && std::all_of(l.text.begin(), l.text.end(), ::isdigit)) {
        EXPECT_GE(l.at.y, previous_bottom) << l.text;
        previous_bottom = l.at.y + text.font_px;
      }
    for (const LaidLabel& l : t.labels)
      if (l.at.x < first.box.x && !l.text.empty() && std::all_of(l.text.begin(), l.text.end(), ::isdigit)) {
        EXPECT_GE(l.at.y, first.box.y - 0.01f) << l.text;
        EXPECT_LE(l.at.y + text.font_px, t.cells.back().box.bottom() + 0.01f) << l.text;
      }
    for (const char* row : {"tile title", "tile banks", "tile cells", "tile sentence"}) {
      ASSERT_TRUE(t.named_rows.count(row)) << row;
      EXPECT_TRUE(inside(t.named_rows.at(row), t.box)) << row;
    }
    EXPECT_LE(t.named_rows.at("tile banks").bottom(), t.named_rows.at("tile cells").y + 0.01f);
    EXPECT_LE(t.named_rows.at("tile cells").bottom(), t.named_rows.at("tile sentence").y + 0.01f);
    // The sentence is there, wrapped inside the room.
    const bool said = std::any_of(t.labels.begin(), t.labels.end(), [](const LaidLabel& l) { return l.row == "banks tile"; });
    EXPECT_TRUE(said);
  }
}

TEST(TileLayout, NumbersWhereTheyFitColoursWhereTheyDoNot) {
  const TextMetrics text = fixed_pitch();
  BlockViewModel m;
  m.arrays = {tile(4, 5)};
  const TileLayout roomy = layout_tile(m, 0, text, {0, 0, 800, 400});
  EXPECT_FALSE(roomy.cells_as_colours);
  EXPECT_TRUE(std::all_of(roomy.cells.begin(), roomy.cells.end(), [](const LaidCell& c) { return c.numbers; }));
  m.arrays = {tile(32, 33)};
  const TileLayout tight = layout_tile(m, 0, text, {0, 0, 300, 200});
  EXPECT_TRUE(tight.cells_as_colours);
}

TEST(TileLayout, SeveralTilesSideBySideDoNotOverlap) {
  const TextMetrics text = fixed_pitch();
  BlockViewModel m;
  m.arrays = {tile(16, 16), tile(16, 16)};
  m.arrays[1].name = "Nds";
  const std::vector<TileLayout> tiles = layout_tiles(m, text, {0, 0, 800, 400});
  ASSERT_EQ(tiles.size(), 2u);
  EXPECT_EQ(tiles[1].array_row, 1);
  EXPECT_LE(tiles[0].box.right(), tiles[1].box.x);
  EXPECT_LE(tiles[1].box.right(), 800.01f);
}

}  // namespace
}  // namespace syncscope::app
