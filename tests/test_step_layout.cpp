// The step view's layout (app/view/step_layout.h), checked without a window: the geometry the
// painter draws and the GUI tests read.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>

#include "app/view/block_view_model.h"
#include "app/view/step_layout.h"
#include "tests/layout_stand_ins.h"
#include "tests/test_util.h"

namespace syncscope::app {
namespace {

using stand_in::fixed_pitch;
using stand_in::inside;

BlockViewModel model(RunOptions o, int step, int block = 0) {
  const RunResult r = test::run_algorithm(o);
  BlockViewModel m = build_block_view(r, 0, step, block);
  m.frame = launch_frame(r, 0, block);
  return m;
}

BlockPlacement placed(float cell_w, int replay = -1) {
  BlockPlacement at;
  at.cell_w = cell_w;
  at.origin = {100, 50};
  at.visible_left = 0;
  at.visible_right = 1e6f;
  at.replay = replay;
  return at;
}

bool overlap(const Rect& a, const Rect& b) {
  return a.x < b.right() && b.x < a.right() && a.y < b.bottom() && b.y < a.bottom();
}
std::string row_name(const BlockViewModel& m, const LaidCell& c) {
  switch (c.kind) {
    case RowKind::Before: return m.arrays[c.row].name + " before";
    case RowKind::After: return m.arrays[c.row].name + " after";
    case RowKind::GlobalRead: return m.global_reads[c.row].name + " read";
    case RowKind::GlobalWritten: return m.global_writes[c.row].name + " written";
  }
  return {};
}
Point centre(const Rect& r) { return {r.x + r.w / 2, r.y + r.h / 2}; }

TEST(StepLayout, FitTextCutsAtACharacterWithAnEllipsis) {
  const TextMetrics text = fixed_pitch(10);  // 6 px a character
  EXPECT_EQ(fit_text("warp_totals", 66, text), "warp_totals");
  EXPECT_EQ(fit_text("warp_totals", 30, text), "warp…");
  EXPECT_EQ(fit_text("warp_totals", 3, text), "");
  EXPECT_EQ(fit_text("ÿÿÿÿ", 18, text), "ÿÿ…");  // never half a character
}

// Seed 003's write phase: every cell in its row, one cell per column and row, none overlapping.
TEST(StepLayout, CellsSitInTheirRowsWithoutOverlapping) {
  const BlockViewModel m = model({.algorithm = "kogge-stone"}, 2);
  const TextMetrics text = fixed_pitch();
  const BlockLayout b = layout_block(m, text, placed(30));
  ASSERT_EQ(b.cells.size(), 16u);  // 8 before, 8 after
  for (size_t i = 0; i < b.cells.size(); ++i) {
    const LaidCell& c = b.cells[i];
    ASSERT_TRUE(b.named_rows.count(row_name(m, c))) << row_name(m, c);
    const Rect row = b.named_rows.at(row_name(m, c));
    EXPECT_TRUE(inside(c.box, row)) << row_name(m, c) << " " << c.index;
    EXPECT_FLOAT_EQ(c.box.h, row.h);  // as tall as its row
    EXPECT_FLOAT_EQ(c.box.w, 30);     // as wide as a column
    EXPECT_FLOAT_EQ(c.box.x, b.rows.col_x(c.index));
    for (size_t j = i + 1; j < b.cells.size(); ++j) EXPECT_FALSE(overlap(c.box, b.cells[j].box)) << i << " " << j;
  }
  // The "after" row shows the step's result, as numbers (they fit at 30 px).
  for (const LaidCell& c : b.cells)
    if (c.kind == RowKind::After) {
      EXPECT_EQ(c.cell.text, m.arrays[0].after[c.index].text);
      EXPECT_TRUE(c.numbers);
    }
  EXPECT_FALSE(b.cells_as_colours);
}

TEST(StepLayout, LabelsLieInsideTheirRows) {
  const BlockViewModel m = model({.algorithm = "block-exclusive-sum"}, 0);  // load + warp shuffles
  const BlockLayout b = layout_block(m, fixed_pitch(), placed(40));
  int in_rows = 0;
  for (const LaidLabel& l : b.labels) {
    EXPECT_LE(l.width, l.room + 0.5f) << l.text;  // nothing overflows its box
    if (l.row.empty()) continue;
    ASSERT_TRUE(b.named_rows.count(l.row)) << l.row;
    EXPECT_TRUE(inside(l.box(b.font_px), b.named_rows.at(l.row))) << l.text << " in " << l.row;
    ++in_rows;
  }
  EXPECT_GE(in_rows, 4);  // threads, shared before/after, a lane row at least
  EXPECT_TRUE(b.named_rows.count("lanes 0"));
}

// Each row label sits beside its own row: "last read" beside the values under the thread nodes,
// "write" beside the written values (laid over their arrows, on the background), and no "write"
// at a step that writes nothing.
TEST(StepLayout, ThreadValueRowsAreLabelledWhereTheyAre) {
  const BlockViewModel writes = model({.algorithm = "kogge-stone"}, 4);  // offset 2, write phase
  const BlockLayout b = layout_block(writes, fixed_pitch(), placed(30));
  auto labels_in = [&](const BlockLayout& layout, const std::string& row) {
    std::vector<LaidLabel> in;
    for (const LaidLabel& l : layout.labels)
      if (l.row == row) in.push_back(l);
    return in;
  };
  const std::vector<LaidLabel> written = labels_in(b, "written values");
  ASSERT_EQ(written.size(), 7u);  // the label and six values (T2..T7 write)
  EXPECT_EQ(written.front().text, "write");
  const Rect written_row = b.named_rows.at("written values");
  for (const LaidLabel& l : written) {
    EXPECT_TRUE(inside(l.box(b.font_px), written_row)) << l.text;
    if (l.text == "write") continue;
    EXPECT_TRUE(l.backed) << l.text;
    EXPECT_EQ(l.z, static_cast<int>(b.arrows.size())) << l.text;  // over every arrow
  }
  EXPECT_EQ(written[1].text, "3");  // T2: 3 + 0
  EXPECT_EQ(written.back().text, "22");  // T7: 13 + 9
  const std::vector<LaidLabel> last_read = labels_in(b, "last read");
  ASSERT_EQ(last_read.size(), 9u);  // the label and every thread
  EXPECT_EQ(last_read.front().text, "last read");
  // The rows do not overlap: threads, last read, written values, after.
  const Rect nodes = b.named_rows.at("thread nodes"), read_row = b.named_rows.at("last read");
  EXPECT_LE(nodes.bottom(), read_row.y);
  EXPECT_LE(read_row.bottom(), written_row.y);
  EXPECT_LE(written_row.bottom(), b.named_rows.at("shared after").y);
  EXPECT_FALSE(std::any_of(b.labels.begin(), b.labels.end(), [](const LaidLabel& l) { return l.text == "after:"; }));

  const BlockLayout reads = layout_block(model({.algorithm = "kogge-stone"}, 3), fixed_pitch(), placed(30));
  EXPECT_TRUE(labels_in(reads, "written values").empty());
  EXPECT_EQ(labels_in(reads, "last read").size(), 9u);
  EXPECT_TRUE(std::any_of(reads.labels.begin(), reads.labels.end(), [](const LaidLabel& l) { return l.text == "after:"; }));
}

// A thread's write is "3 = 2 + 1" where the column has room, then "3=2+1", then the terms "2 + 1" or
// "2+1" (the cell under the arrow shows the 3), then the value: one form for the whole row.
TEST(StepLayout, WrittenValuesKeepTheirSumWhileAnyFormOfItFits) {
  const BlockViewModel m = model({.algorithm = "kogge-stone"}, 2);  // offset 1, write phase
  auto written = [&](float cell_w) {
    std::vector<std::string> texts;
    for (const LaidLabel& l : layout_block(m, fixed_pitch(), placed(cell_w)).labels)
      if (l.row == "written values" && l.text != "write") texts.push_back(l.text);
    return texts;
  };
  EXPECT_EQ(written(100), (std::vector<std::string>{"1 = 1 + 0", "3 = 2 + 1", "5 = 3 + 2", "7 = 4 + 3", "9 = 5 + 4",
                                                    "11 = 6 + 5", "13 = 7 + 6"}));
  EXPECT_EQ(written(60), (std::vector<std::string>{"1=1+0", "3=2+1", "5=3+2", "7=4+3", "9=5+4", "11=6+5", "13=7+6"}));
  EXPECT_EQ(written(30), (std::vector<std::string>{"1+0", "2+1", "3+2", "4+3", "5+4", "6+5", "7+6"}));
  EXPECT_EQ(written(20), (std::vector<std::string>{"1", "3", "5", "7", "9", "11", "13"}));
}

// Every read arrow leaves the bottom of the cell it names and ends on its thread's node; every
// write arrow leaves the node and ends on the top of the cell written.
TEST(StepLayout, ArrowsConnectTheCellsAndThreadsTheyName) {
  const BlockViewModel m = model({.algorithm = "kogge-stone"}, 3);  // offset 2, read phase: t reads t-2
  const BlockLayout b = layout_block(m, fixed_pitch(), placed(30));
  auto cell_box = [&](RowKind kind, int row, int index) -> std::optional<Rect> {
    for (const LaidCell& c : b.cells)
      if (c.kind == kind && c.row == row && c.index == index) return c.box;
    return std::nullopt;
  };
  auto node = [&](int thread) -> std::optional<LaidThread> {
    for (const LaidThread& t : b.threads)
      if (t.thread == thread) return t;
    return std::nullopt;
  };
  int reads = 0;
  for (const LaidArrow& a : b.arrows) {
    ASSERT_EQ(a.shape, ArrowShape::Straight);
    const auto cell = cell_box(a.kind, a.row, a.index);
    const auto thread = node(a.thread);
    ASSERT_TRUE(cell && thread);
    const bool read = a.kind == RowKind::Before;
    const Point at_cell = read ? a.from : a.to, at_thread = read ? a.to : a.from;
    EXPECT_FLOAT_EQ(at_cell.x, centre(*cell).x);
    EXPECT_FLOAT_EQ(at_cell.y, read ? cell->bottom() : cell->y);
    EXPECT_FLOAT_EQ(at_thread.x, thread->centre.x);
    EXPECT_NEAR(at_thread.y, thread->centre.y, b.rows.marker / 2 + 0.01f);
    if (read) {
      EXPECT_EQ(a.index, a.thread - 2);
    }
    reads += read;
  }
  EXPECT_EQ(reads, 6);
}

// Replaying: only the operations that have run have arrows; at 0 nothing has.
TEST(StepLayout, ReplayLaysOutOnlyWhatHasRun) {
  const BlockViewModel m = model({.algorithm = "kogge-stone"}, 3);
  EXPECT_TRUE(layout_block(m, fixed_pitch(), placed(30, 0)).arrows.empty());
  EXPECT_EQ(layout_block(m, fixed_pitch(), placed(30, 2)).arrows.size(), 2u);
  const BlockLayout b = layout_block(m, fixed_pitch(), placed(30, 2));
  EXPECT_EQ(std::count_if(b.threads.begin(), b.threads.end(), [](const LaidThread& t) { return t.current; }), 1);
}

// Fitted into the room the panel has, the picture stays inside it (cells, labels, rows), at TPB 8
// and at TPB 1024 (where the cells become colours).
TEST(StepLayout, FittedPictureStaysInsideTheRoom) {
  const TextMetrics text = fixed_pitch();
  for (const RunOptions& o : {RunOptions{.algorithm = "kogge-stone"}, RunOptions{.algorithm = "kogge-stone", .n = 1024, .tpb = 1024}}) {
    const BlockViewModel m = model(o, 2);
    const bool large = m.threads == 1024;
    const std::vector<const BlockViewModel*> models = {&m};
    const float natural = natural_cell_width(models, text);
    const Size room{600, 300};
    const DiagramScale scale = choose_scale(models, natural, room, true, 1, text);
    const Rect available{10, 20, room.w, room.h};
    const StepLayout step = layout_side_by_side(models, text.scaled(scale.text), scale.cell_w, {available.x, available.y}, 0, 1e6f, -1, -1);
    ASSERT_EQ(step.blocks.size(), 1u);
    const BlockLayout& b = step.blocks.front();
    EXPECT_LE(step.size.w, room.w + 0.5f) << m.threads;
    EXPECT_LE(step.size.h, room.h + 0.5f) << m.threads;
    for (const LaidCell& c : b.cells) ASSERT_TRUE(inside(c.box, available)) << m.threads << " cell " << c.index;
    for (const LaidLabel& l : b.labels) EXPECT_TRUE(inside(l.box(b.font_px), available)) << l.text;
    for (const auto& [name, r] : b.named_rows) EXPECT_TRUE(inside(r, available)) << name;
    EXPECT_EQ(b.cells_as_colours, large);
    if (large) {
      EXPECT_LT(scale.cell_w, natural);  // narrow cells, readable rows
    } else {
      EXPECT_GT(scale.text, 1.0f);  // a small block is drawn large
    }
  }
}

// Block-exclusive-sum at TPB 32, step 0: eight lane rows of shuffles. In a room too short for them
// even at the smallest text, fit moves the rows closer together instead of scrolling, and labels
// a run of one operation once; with room to spare nothing is squeezed.
TEST(StepLayout, FitSqueezesATallStepIntoAShortRoom) {
  const TextMetrics text = fixed_pitch();
  const BlockViewModel m = model(RunOptions{.algorithm = "block-exclusive-sum", .n = 32, .tpb = 32}, 0);
  ASSERT_GE(m.frame.warp_rounds, 8);
  const std::vector<const BlockViewModel*> models = {&m};
  const float natural = natural_cell_width(models, text);
  const DiagramScale roomy = choose_scale(models, natural, {600, 900}, true, 1, text);
  EXPECT_EQ(roomy.squeeze, 1.0f);
  const Size room{600, 215};
  const DiagramScale scale = choose_scale(models, natural, room, true, 1, text);
  EXPECT_LT(scale.squeeze, 1.0f);
  const StepLayout step = layout_side_by_side(models, text.scaled(scale.text), scale.cell_w, {0, 0}, 0, 1e6f, -1, -1,
                                              scale.squeeze);
  EXPECT_LE(step.size.h, room.h + 0.5f);
  const BlockLayout& b = step.blocks.front();
  int lane_labels = 0;
  for (const LaidLabel& l : b.labels) lane_labels += l.row.rfind("lanes ", 0) == 0;
  EXPECT_EQ(lane_labels, 2) << "shfl_up once, shfl_idx once";
  // Rows still in order, none overlapping the next.
  for (const char* upper : {"threads", "lanes 0", "lanes 7"}) ASSERT_TRUE(b.named_rows.count(upper)) << upper;
  EXPECT_LE(b.named_rows.at("lanes 0").bottom(), b.named_rows.at("lanes 1").y + 0.01f);
  EXPECT_LE(b.named_rows.at("lanes 7").bottom(), b.named_rows.at("written values").y + 0.01f);
}

// The value each lane received is written under its arrow where it fits the column (TPB 32 in
// presenter mode: 21 px columns, 2-digit values), and left to the hover on squeezed rows.
TEST(StepLayout, LaneRowsCarryTheValuesReceivedWhereTheyFit) {
  const BlockViewModel m = model(RunOptions{.algorithm = "block-exclusive-sum", .n = 32, .tpb = 32}, 0);
  auto lane_values = [&](float squeeze) {
    BlockPlacement at = placed(21);
    at.squeeze = squeeze;
    const BlockLayout b = layout_block(m, fixed_pitch(11), at);
    const float top = b.named_rows.at("lanes 0").y, bottom = b.named_rows.at("lanes 7").bottom();
    int values = 0;
    for (const LaidLabel& l : b.labels)
      values += l.at.y > top && l.at.y < bottom && !l.text.empty() && std::isdigit(static_cast<unsigned char>(l.text[0]));
    return values;
  };
  EXPECT_GE(lane_values(1), 100);  // 31 + 30 + 28 + ... of the shfl_up rounds' values, less those too wide
  EXPECT_EQ(lane_values(0.4f), 0);
}

// A large block's focus window: only its threads and cells, rows as wide as the window, arrows
// from outside stopping at its edge.
TEST(StepLayout, FocusWindowCoversTheThreadsAskedFor) {
  const BlockViewModel m = model({.algorithm = "block-exclusive-sum", .n = 1024, .tpb = 1024}, 2);
  const TextMetrics text = fixed_pitch();
  const std::vector<const BlockViewModel*> models = {&m};
  const float natural = natural_cell_width(models, text);
  const int count = focus_thread_count(800, natural, text);
  ASSERT_GE(count, 4);
  const FocusWindow window = focus_window(m, 100, count);
  const FocusLayout f = layout_focus(m, window, text, text, natural, 1, {0, 0}, 800, -1);
  ASSERT_EQ(f.step.blocks.size(), 1u);
  const BlockLayout& b = f.step.blocks.front();
  std::vector<int> threads;
  for (const LaidThread& t : b.threads) threads.push_back(t.thread);
  ASSERT_FALSE(threads.empty());
  EXPECT_EQ(threads.front(), 100);
  EXPECT_EQ(threads.back(), 100 + count - 1);
  for (const LaidCell& c : b.cells) EXPECT_TRUE(window.contains(c.index)) << c.index;
  const Rect threads_row = b.named_rows.at("threads");
  EXPECT_FLOAT_EQ(threads_row.right(), b.rows.col_x(100 + count));
  EXPECT_LE(threads_row.right(), 800.5f);
  // The window's outline on the strip covers its threads' slivers.
  EXPECT_LE(f.window.x, f.strip.x + 100 * f.per_thread);
  EXPECT_GE(f.window.right(), f.strip.x + static_cast<float>(100 + count) * f.per_thread);
  // warp_totals[w] lives in column w, outside the window: the reads arrive as stubs from its left edge.
  int stubs = 0;
  for (const LaidArrow& a : b.arrows)
    if (a.index < 0) {
      ++stubs;
      EXPECT_FLOAT_EQ(a.from.x, b.rows.col_x(100) - 2);
    }
  EXPECT_EQ(stubs, count);
  EXPECT_TRUE(std::any_of(b.labels.begin(), b.labels.end(), [](const LaidLabel& l) { return l.text.rfind("from t-", 0) == 0; }));
}

TEST(StepLayout, HitTestingFindsTheCellOrThreadUnderAPoint) {
  const BlockViewModel m = model({.algorithm = "kogge-stone"}, 2);
  const BlockLayout b = layout_block(m, fixed_pitch(), placed(30));
  for (const LaidCell& c : b.cells) {
    const std::vector<Hit> hits = hit_test(b, centre(c.box));
    ASSERT_EQ(hits.size(), 1u);
    EXPECT_EQ(hits[0].kind, Hit::Kind::Cell);
    EXPECT_EQ(hits[0].index, c.index);
    EXPECT_EQ(hits[0].after, c.kind == RowKind::After);
  }
  for (const LaidThread& t : b.threads) {
    const std::vector<Hit> hits = hit_test(b, t.centre);
    ASSERT_EQ(hits.size(), 1u);
    EXPECT_EQ(hits[0].kind, Hit::Kind::Thread);
    EXPECT_EQ(hits[0].thread, t.thread);
  }
  EXPECT_TRUE(hit_test(b, {b.rows.x0 + 2, b.rows.marker_y}).empty());            // the label column
  EXPECT_TRUE(hit_test(b, {b.rows.col_x(3), b.rows.bottom + 20}).empty());       // below the block
}

// Side by side, each block has its own columns and a name; only the first carries row labels.
TEST(StepLayout, BlocksSideBySideDoNotOverlap) {
  const RunResult r = test::run_algorithm({.algorithm = "two-phase-scan"});
  const BlockViewModel a = build_block_view(r, 0, 2, 0), b = build_block_view(r, 0, 2, 1);
  const StepLayout step = layout_side_by_side({&a, &b}, fixed_pitch(), 30, {0, 0}, 0, 1e6f, -1, 1);
  ASSERT_EQ(step.blocks.size(), 2u);
  const BlockLayout &left = step.blocks[0], &right = step.blocks[1];
  ASSERT_TRUE(left.name && right.name);
  EXPECT_TRUE(right.followed);
  EXPECT_FALSE(left.followed);
  EXPECT_TRUE(left.named_rows.count("threads"));
  EXPECT_FALSE(right.named_rows.count("threads"));
  float left_edge = 1e9f, left_right = 0;
  for (const LaidCell& c : left.cells) left_right = std::max(left_right, c.box.right());
  for (const LaidCell& c : right.cells) left_edge = std::min(left_edge, c.box.x);
  EXPECT_LT(left_right, left_edge);
  EXPECT_GE(step.size.w, right.rows.col_x(column_count(b)));
}

TEST(StepLayout, LegendWrapsWithoutOverlapping) {
  const TextMetrics text = fixed_pitch();
  const std::vector<LegendItem> items = legend_items({.poison = true, .race = true, .warning = true, .idle = true, .bank_conflict = true});
  ASSERT_EQ(items.size(), 8u);
  const float width = 300, inner = 4, box = text.font_px * 0.8f;
  const std::vector<LegendPlace> places = legend_places(items, width, text, inner);
  EXPECT_GT(legend_line_count(places), 1);
  for (size_t i = 0; i < items.size(); ++i) {
    const float w = box + inner + text.width(items[i].text);
    if (places[i].x > 0) {  // a line's first item may be wider
      EXPECT_LE(places[i].x + w, width) << items[i].text;
    }
    for (size_t j = 0; j < i; ++j) {
      if (places[j].line == places[i].line) {
        EXPECT_GE(places[i].x, places[j].x + box + inner + text.width(items[j].text)) << items[i].text;
      }
    }
  }
}

}  // namespace
}  // namespace syncscope::app
