// The step view as geometry: where every row, cell, arrow, thread node and label of a block goes,
// computed from the block's view-model (block_view_model.h), the room the panel has and the text's
// metrics, without a window. The panel (app/ui/block_view_panel.cpp) paints it as it is, and the
// GUI tests read the same rectangles the painter drew with, so neither can drift from the other.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/view/block_view_model.h"

namespace syncscope::app {

struct Point {
  float x = 0, y = 0;
};

struct Rect {
  float x = 0, y = 0, w = 0, h = 0;
  float right() const { return x + w; }
  float bottom() const { return y + h; }
  bool contains(Point p) const { return p.x >= x && p.x < x + w && p.y >= y && p.y < y + h; }
};

// Text as the window measures it. The painter passes its font; the tests a fixed-pitch stand-in.
struct TextMetrics {
  float font_px = 13;  // the font's height at the scale being laid out
  std::function<float(std::string_view text, float font_px)> width_at;
  float width(std::string_view text) const { return width_at(text, font_px); }
  TextMetrics scaled(float k) const { return {font_px * k, width_at}; }
};

// A label in a box `room` wide: as it is when it fits, else cut at a character with "…" at the end
// ("" when not even that fits). The one rule every label of the app is shortened by.
std::string fit_text(const std::string& text, float room, const TextMetrics& metrics);

// A line cut into lines of at most `room` at its spaces only (ImGui's own wrapping also breaks
// after a '.', which would split `c.sync()` in two). A word wider than the room is a line of its own.
std::vector<std::string> wrap_at_spaces(const std::string& text, float room, const TextMetrics& metrics);

// What the painter picks a colour for: the theme decides the colour, the layout only the role.
enum class Ink {
  Label, Dim, ArrowRead, ArrowWrite, Race, Warning, Written, ThreadActive, ThreadIdle, ThreadExited, WarpOutline,
};

// The rows of one block, top to bottom (what `block_rows` computes from the fonts and the model).
struct BlockRows {
  float cell_w = 0, cell_h = 0, label_w = 0, band = 0, marker = 0, lane_row = 0;
  float x0 = 0, y0 = 0;  // top-left of the block
  int shift = 0;         // the first column drawn (a focus window starts at its first thread)
  int shared_rows = 0, global_in = 0, global_out = 0, lane_rows = 0;
  // values_y: the strip under the thread nodes for what each thread last read; writes_y: the one
  // in the write band for what it wrote (each a line of text, beside its own row label).
  float warp_y = 0, thread_y = 0, global_in_y = 0, before_y = 0, marker_y = 0, values_y = 0, lanes_y = 0,
        writes_y = 0, after_y = 0, global_out_y = 0, bottom = 0;
  float col_x(int column) const { return x0 + label_w + static_cast<float>(column - shift) * cell_w; }
  float global_in_row_y(int r) const { return global_in_y + static_cast<float>(r) * (cell_h + 2); }
  float before_row_y(int r) const { return before_y + static_cast<float>(r) * (cell_h + 2); }
  float lane_row_y(int r) const { return lanes_y + static_cast<float>(r) * lane_row; }
  float after_row_y(int r) const { return after_y + static_cast<float>(r) * (cell_h + 2); }
  float global_out_row_y(int r) const { return global_out_y + static_cast<float>(r) * (cell_h + 2); }
};

// Rounds of warp operations drawn as lane rows: at most this many (the rest are in the list).
constexpr int kMaxLaneRows = 8;

// with_labels: the first block of a row carries the row labels; blocks beside it do not.
// single: the only block on show (no name above it).
// squeeze (0.4..1): the bands between rows and the lane rows that much shorter, so that fit can
// show every row of a tall step (eight lane rows of shuffles) at the smallest readable text.
BlockRows block_rows(const BlockViewModel& m, const TextMetrics& text, float cell_w, Point origin, bool with_labels,
                     bool single, int shift = 0, float squeeze = 1);
int column_count(const BlockViewModel& m);
float row_label_width(const TextMetrics& text);
float block_width(const BlockViewModel& m, const TextMetrics& text, float cell_w, bool with_labels);

enum class RowKind { GlobalRead, Before, After, GlobalWritten };

struct LaidCell {
  RowKind kind = RowKind::Before;
  int row = 0;    // shared array, or global section
  int index = 0;  // the cell's index in its row
  Rect box;
  CellView cell;         // what it shows (while replaying: memory as it is now)
  bool numbers = false;  // its text fits (else its colour is its value)
  float text_w = 0;
};

enum class ArrowShape {
  Straight,   // a line with a head at `to`
  LaneCurve,  // a lane-to-lane arc lifted by `lift`, head at `to`
  Ring,       // a lane that kept its own value: a circle at `to`
};

struct LaidArrow {
  ArrowShape shape = ArrowShape::Straight;
  Point from, to;
  Ink ink = Ink::ArrowRead;
  float thickness = 1;
  float lift = 0, radius = 0;
  int segments = 0;
  // What it connects: the thread, and the cell (kind, row, index; -1 for lane arrows and stubs).
  int thread = -1;
  RowKind kind = RowKind::Before;
  int row = -1, index = -1;
};

struct LaidLabel {
  std::string text;
  Point at;  // top-left
  float width = 0, room = 0;  // room: the box it had to fit (the GUI tests' overflow audit)
  Ink ink = Ink::Label;
  std::string row;  // the named row it belongs in, if any
  int z = -1;       // drawn under the cells (-1), or just before arrow z (over the arrows laid before it)
  bool backed = false;  // on the panel's background: a value over the arrow that carries it stays readable
  Rect box(float font_px) const { return {at.x, at.y, width, font_px}; }
};

// A warp's lane row of one round: a line across the warp, shaded while replaying the round.
struct LaidLaneRow {
  Point from, to;
  std::optional<Rect> in_progress;
  int z = 0;  // drawn just before arrow z
};

struct LaidThread {
  int thread = 0;
  Point centre;
  float radius = 1;
  Ink ink = Ink::ThreadIdle;
  bool current = false;  // replaying: its operation just ran
};

// A block laid out: what the painter draws, in drawing order within each list.
struct BlockLayout {
  const BlockViewModel* model = nullptr;
  BlockRows rows;
  float font_px = 0;
  int first = 0, last = 0;  // the columns on screen [first, last)
  std::map<std::string, Rect> named_rows;  // "threads", "shared before", "lanes 0", "block 1 name", ...
  std::optional<Rect> name;  // beside other blocks: its name, a click target
  bool followed = false;     // the block the caption, Code and Metrics follow (its name underlined)
  std::vector<Rect> warps;
  std::vector<LaidLaneRow> lanes;
  std::vector<LaidCell> cells;
  std::vector<LaidThread> threads;
  std::vector<LaidArrow> arrows;
  std::vector<LaidLabel> labels;
  bool cells_as_colours = false;  // some cell showed its value as a colour
};

struct BlockPlacement {
  float cell_w = 0;
  Point origin;
  float visible_left = 0, visible_right = 0;  // the scrolled window's columns on screen
  bool with_labels = true, single = true;
  int replay = -1;  // the step's first `replay` operations have run (-1: the whole step)
  const FocusWindow* focus = nullptr;  // draw only that window of threads, shifted to the left edge
  bool followed = false;
  float squeeze = 1;  // block_rows' vertical squeeze (DiagramScale::squeeze)
};

BlockLayout layout_block(const BlockViewModel& m, const TextMetrics& text, const BlockPlacement& at);

// What is under a point of a laid-out block: a shared cell (before or after) or a thread's column.
struct Hit {
  enum class Kind { None, Cell, Thread } kind = Kind::None;
  int row = -1, index = -1;  // Cell: shared array, cell
  bool after = false;
  int thread = -1;
};
std::vector<Hit> hit_test(const BlockLayout& layout, Point p);

// ---- sizing the picture to its panel ----

// Wide enough for the widest value on show, so numbers stay readable at zoom 1.
float natural_cell_width(const std::vector<const BlockViewModel*>& models, const TextMetrics& text);

// How large the picture is drawn: the width of a cell and the scale of its text and rows.
struct DiagramScale {
  float cell_w = 0, text = 1;
  float squeeze = 1;  // < 1: even the smallest text was too tall for the room, so the rows moved closer
};
struct Size {
  float w = 0, h = 0;
};
// Every model side by side, text at scale k and cells `natural` * k wide.
Size diagram_size(const std::vector<const BlockViewModel*>& models, float natural, const TextMetrics& text, float k,
                  float squeeze = 1);
// Fit: the largest picture that shows every row and column without scrolling (up to 4x); a block
// too wide for readable cells keeps readable rows and gets narrow cells (colour = value); one too
// tall even at the smallest text gets its rows squeezed together (down to 0.4) rather than a
// scrollbar. Otherwise
// the zoom sets the cells, and the text follows it up to the height of the room.
DiagramScale choose_scale(const std::vector<const BlockViewModel*>& models, float natural, Size room, bool fit,
                          float zoom, const TextMetrics& text);
// Several blocks side by side only while each stays readable.
bool side_by_side_fits(const std::vector<const BlockViewModel*>& models, float natural, Size room, bool fit,
                       float zoom, const TextMetrics& text);

// Blocks side by side from `origin`, the first carrying the row labels.
struct StepLayout {
  std::vector<BlockLayout> blocks;
  float cell_w = 0;
  Size size;  // of the picture, from its origin
};
StepLayout layout_side_by_side(const std::vector<const BlockViewModel*>& models, const TextMetrics& text,
                               float cell_w, Point origin, float visible_left, float visible_right, int replay,
                               int followed_block, float squeeze = 1);

// ---- the focus window of a large block ----

// Threads of the window: as many as fit `width` at a size where numbers read (4 to 64).
int focus_thread_count(float width, float natural, const TextMetrics& text);
// The window under a strip of the whole block (every thread a sliver); the block laid out in it.
struct FocusLayout {
  Rect strip;
  float per_thread = 0;  // a sliver's width
  Rect window;           // the window's outline on the strip
  StepLayout step;
};
FocusLayout layout_focus(const BlockViewModel& m, const FocusWindow& window, const TextMetrics& ui_text,
                         const TextMetrics& text, float natural, float text_scale, Point origin, float room_w, int replay,
                         float squeeze = 1);

// ---- the legend ----

// The marks on show that the legend explains.
struct LegendNeeds {
  bool poison = false, race = false, warning = false, idle = false, bank_conflict = false;
};
LegendNeeds legend_needs(const std::vector<const BlockViewModel*>& models);

enum class LegendMark { Read, Written, Changed, Poison, Race, Warning, Idle, BankConflict };
struct LegendItem {
  LegendMark mark;
  const char* text;
};
std::vector<LegendItem> legend_items(const LegendNeeds& needs);
// Where each item goes when the legend wraps at `width`: its line (from 0) and x from the left.
// Each item takes the first line with room for it, so a short one after a long one does not need a
// line of its own.
struct LegendPlace {
  int line = 0;
  float x = 0;
};
std::vector<LegendPlace> legend_places(const std::vector<LegendItem>& items, float width, const TextMetrics& text,
                                       float inner_spacing);
int legend_line_count(const std::vector<LegendPlace>& places);

}  // namespace syncscope::app
