#include "app/view/tile_layout.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "contract/kernel_api.h"

namespace syncscope::app {
namespace {

int rows_of(const SharedArrayView& a) { return a.columns > 0 ? static_cast<int>(a.after.size()) / a.columns : 0; }

// "tile (2 cells each)" -> "tile": the name as the kernel spells it.
std::string bare_name(const std::string& name) { return name.substr(0, name.find(' ')); }

// A 3D array's planes (its rows are drawn plane after plane); 0 for a 2D one.
int planes_of(const SharedArrayView& a) { return a.plane_rows > 0 ? rows_of(a) / a.plane_rows : 0; }

// Row r's label: its index, or for a 3D array its plane and row there ("1,0": box[1][0]).
std::string row_label(const SharedArrayView& a, int r) {
  if (a.plane_rows <= 0) return std::to_string(r);
  return std::to_string(r / a.plane_rows) + "," + std::to_string(r % a.plane_rows);
}

}  // namespace

std::string banks_sentence(const SharedArrayView& a) {
  const int rows = rows_of(a);
  // A uchar4 is one 4-byte word, its 4 cells (bytes) one bank: the sentence counts it as one cell.
  const bool byte_words = a.cell_bytes == 1 && a.cells_per_element == 4;
  if (rows < 2 || (a.cell_bytes != 4 && !byte_words)) return "";
  const int columns = byte_words ? a.columns / 4 : a.columns;
  const int offset = a.word_offset % kWarpSize, stride = columns % kWarpSize;
  const int per = byte_words ? 1 : std::max(1, a.cells_per_element);  // a double's 2 cells (banks), a struct's fields
  const std::string c = per > 1 ? std::to_string(per) + "c" : "c";
  const int column_cells = std::min(rows, kWarpSize);  // a warp reads at most 32 of a column's cells
  // Rows r and r + banks start in the same bank: a column's cells lie in `banks` banks.
  const int banks = stride == 0 ? 1 : kWarpSize / std::gcd(stride, kWarpSize);
  const int ways = (column_cells + banks - 1) / banks;
  // Appended piece by piece (GCC 12 misreads chains of std::string + as overlapping copies).
  std::string s = "bank of ";
  s += bare_name(a.name);
  if (a.plane_rows > 0) {
    s += "[z][y][x] = (";
    if (offset) s += std::to_string(offset) + " + ";
    s += "(z × " + std::to_string(a.plane_rows) + " + y) × " + std::to_string(columns) + " + " + (per > 1 ? std::to_string(per) : "") +
         "x) mod 32: ";
  } else {
    s += "[r][c] = (";
    if (offset) s += std::to_string(offset) + " + ";
    s += "r × " + std::to_string(columns) + " + " + c + ") mod 32: ";
  }
  if (per > 1) {  // a warp's 8- and 16-byte accesses go by half and quarter warps: no one-line verdict
    s += "each element takes " + std::to_string(per) + " banks, each row starts " + std::to_string(stride) + " banks later";
    return s;
  }
  if (stride == 0) s += "every row starts in the same bank";
  else s += "each row starts " + std::to_string(stride) + (stride == 1 ? " bank later" : " banks later");
  s += ", so the " + std::to_string(column_cells) + " cells of a column ";
  if (ways == 1) {
    s += "are in " + std::to_string(column_cells) + " different banks (a warp reading a column: no bank conflict)";
  } else {
    s += banks == 1 ? std::string("share one bank") : "fall in only " + std::to_string(banks) + " banks";
    s += " (a warp reading a column: " + std::to_string(ways) + "-way bank conflict)";
  }
  return s;
}

std::vector<int> tile_arrays(const BlockViewModel& m) {
  std::vector<int> rows;
  for (int r = 0; r < static_cast<int>(m.arrays.size()); ++r)
    if (rows_of(m.arrays[r]) >= 2) rows.push_back(r);
  return rows;
}

TileLayout layout_tile(const BlockViewModel& m, int array_row, const TextMetrics& text, Rect room) {
  const SharedArrayView& a = m.arrays[array_row];
  const int rows = rows_of(a), columns = a.columns;
  const float fs = text.font_px;
  TileLayout out;
  out.array_row = array_row;
  auto label = [&](std::string s, Point at, float space, Ink ink, std::string row = {}) {
    s = fit_text(s, space, text);
    if (s.empty()) return;
    const float w = text.width(s);
    out.labels.push_back({std::move(s), at, w, space, ink, std::move(row), -1, false});
  };
  std::string title = bare_name(a.name);
  const int element_columns = columns / std::max(1, a.cells_per_element);  // as the program declared it
  const std::vector<int> extents =
      a.plane_rows > 0 ? std::vector<int>{planes_of(a), a.plane_rows, element_columns} : std::vector<int>{rows, element_columns};
  for (int extent : extents) title.append("[").append(std::to_string(extent)).append("]");
  // The whole title where it fits, else the array as declared (the banks' label says the rest).
  const std::string explained =
      title + (a.plane_rows > 0 ? ": its planes' rows, one plane under the other (row z,y), × columns, the bank of each column above it"
                                : ": rows × columns, the bank of each column (row 0) above it");
  label(text.width(explained) <= room.w ? explained : title, {room.x, room.y}, room.w, Ink::Label, "tile " + a.name);
  const std::vector<std::string> sentence = wrap_at_spaces(banks_sentence(a), room.w, text);
  // The label column: row numbers, and "bank" beside the banks.
  const float label_w = std::max(text.width("bank"), text.width(row_label(a, rows - 1))) + 6;
  float widest = 0;
  for (const CellView& c : a.after) widest = std::max(widest, text.width(c.text) / (c.span == 2 ? 2.0f : 1.0f));
  const float header_y = room.y + fs + 4, cells_y = header_y + fs + 2;
  const float line_h = fs + 2, sentence_h = 4 + line_h * static_cast<float>(sentence.size());
  const float cell_w = std::max(1.0f, std::min((room.w - label_w) / static_cast<float>(columns), std::max(widest + 8, fs * 2)));
  const float cell_h = std::max(1.0f, std::min((room.bottom() - cells_y - sentence_h) / static_cast<float>(rows), fs * 1.5f));
  const float x0 = room.x + label_w;
  // Bank numbers over every k-th column and row numbers beside every k-th row: as many as have room.
  const int bank_every = std::max(1, static_cast<int>(std::ceil((text.width("31") + 4) / cell_w)));
  label("bank", {room.x, header_y}, label_w - 4, Ink::Dim);
  for (int c = 0; c < columns; c += bank_every) {
    const std::string bank = std::to_string(a.bank_of(c));
    const float w = text.width(bank);
    label(bank, {x0 + (static_cast<float>(c) + 0.5f) * cell_w - w / 2, header_y}, cell_w * static_cast<float>(bank_every),
          Ink::Dim);
  }
  int row_every = std::max(1, static_cast<int>(std::ceil((fs + 1) / cell_h)));
  // A 3D array thinned to some of its rows labels planes' first rows: "1,0", not "1,1".
  if (a.plane_rows > 0 && row_every > 1)
    row_every = row_every <= a.plane_rows ? a.plane_rows : (row_every + a.plane_rows - 1) / a.plane_rows * a.plane_rows;
  const float cells_bottom = cells_y + static_cast<float>(rows) * cell_h;
  float free_from = cells_y;  // row numbers beside their rows, none over another or outside the tile
  for (int r = 0; r < rows; r += row_every) {
    const float centred = cells_y + (static_cast<float>(r) + 0.5f) * cell_h - fs / 2;
    const float y = std::clamp(centred, free_from, std::max(cells_y, cells_bottom - fs));
    if (y < free_from - 0.01f || (r > 0 && y + fs > cells_bottom + 0.01f)) continue;
    label(row_label(a, r), {room.x, y}, label_w - 4, Ink::Dim);
    free_from = y + fs + 1;
  }
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < columns; ++c) {
      const int k = r * columns + c;
      if (a.after[k].span == 0) continue;  // drawn by its 8-byte number's first cell
      const CellView before = drawn_cell(a.before, k), after = drawn_cell(a.after, k);
      LaidCell laid;
      laid.row = array_row;
      laid.index = k;
      laid.cell = after;
      laid.cell.read = before.read;
      laid.cell.racy = before.racy || after.racy;
      laid.cell.race_within_warp = before.race_within_warp || after.race_within_warp;
      laid.cell.bank_conflict = std::max(before.bank_conflict, after.bank_conflict);
      laid.kind = laid.cell.written ? RowKind::After : RowKind::Before;  // which outline the painter draws
      const float box_w = cell_w * static_cast<float>(after.span == 2 ? 2 : 1);
      laid.box = {x0 + static_cast<float>(c) * cell_w, cells_y + static_cast<float>(r) * cell_h, box_w, cell_h};
      laid.text_w = text.width(laid.cell.text);
      laid.numbers = laid.text_w + 4 <= box_w && cell_h >= fs + 2;
      out.cells_as_colours |= !laid.numbers;
      out.cells.push_back(std::move(laid));
    }
  const float bottom = cells_bottom;
  const std::string name = bare_name(a.name);
  out.named_rows[name + " title"] = {room.x, room.y, room.w, fs};
  out.named_rows[name + " banks"] = {room.x, header_y, label_w + cell_w * static_cast<float>(columns), fs};
  out.named_rows[name + " cells"] = {x0, cells_y, cell_w * static_cast<float>(columns), bottom - cells_y};
  if (!sentence.empty()) out.named_rows[name + " sentence"] = {room.x, bottom + 4, room.w, sentence_h - 4};
  for (size_t k = 0; k < sentence.size(); ++k)
    label(sentence[k], {room.x, bottom + 4 + line_h * static_cast<float>(k)}, room.w, Ink::Label,
          k == 0 ? "banks " + a.name : std::string());
  out.box = {room.x, room.y, std::max(label_w + cell_w * static_cast<float>(columns), room.w), bottom + sentence_h - room.y};
  return out;
}

std::vector<TileLayout> layout_tiles(const BlockViewModel& m, const TextMetrics& text, Rect room) {
  const std::vector<int> arrays = tile_arrays(m);
  std::vector<TileLayout> out;
  if (arrays.empty()) return out;
  const float gap = text.font_px * 2;
  const float each = (room.w - gap * static_cast<float>(arrays.size() - 1)) / static_cast<float>(arrays.size());
  for (size_t k = 0; k < arrays.size(); ++k)
    out.push_back(layout_tile(m, arrays[k], text, {room.x + static_cast<float>(k) * (each + gap), room.y, each, room.h}));
  return out;
}

}  // namespace syncscope::app
