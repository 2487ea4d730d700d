// The step view's legend: which marks are on show and where each item goes when it wraps (see
// step_layout.h).
#include <algorithm>

#include "app/view/step_layout.h"

namespace syncscope::app {

LegendNeeds legend_needs(const std::vector<const BlockViewModel*>& models) {
  LegendNeeds n;
  auto cell = [&](const CellView& c) {
    n.poison |= c.poison;
    n.race |= c.racy && !c.race_within_warp;
    n.warning |= c.racy && c.race_within_warp;
    n.bank_conflict |= c.bank_conflict > 1;
  };
  for (const auto* m : models) {
    for (const auto& a : m->arrays) {
      for (const auto& c : a.before) cell(c);
      for (const auto& c : a.after) cell(c);
    }
    for (const auto* rows : {&m->global_reads, &m->global_writes})
      for (const auto& r : *rows)
        for (const auto& c : r.cells) cell(c);
    for (const auto& t : m->thread_views) n.idle |= !t.active;
  }
  return n;
}

std::vector<LegendItem> legend_items(const LegendNeeds& needs) {
  std::vector<LegendItem> items = {{LegendMark::Read, "read"}, {LegendMark::Written, "written"}, {LegendMark::Changed, "changed"}};
  if (needs.poison) items.push_back({LegendMark::Poison, "? uninitialized"});
  if (needs.race) items.push_back({LegendMark::Race, "race across warps (error)"});
  if (needs.warning) items.push_back({LegendMark::Warning, "race inside one warp: depends on scheduling (warning)"});
  if (needs.idle) items.push_back({LegendMark::Idle, "idle thread"});
  if (needs.bank_conflict) items.push_back({LegendMark::BankConflict, "bank conflict"});
  return items;
}

std::vector<LegendPlace> legend_places(const std::vector<LegendItem>& items, float width, const TextMetrics& text,
                                       float inner_spacing) {
  const float box = text.font_px * 0.8f;
  std::vector<LegendPlace> places;
  std::vector<float> used;  // per line, the x where its next item would start
  for (const LegendItem& item : items) {
    const float w = box + inner_spacing + text.width(item.text);
    size_t line = 0;
    while (line < used.size() && used[line] + w > width) ++line;
    if (line == used.size()) used.push_back(0);
    places.push_back({static_cast<int>(line), used[line]});
    used[line] += w + box;
  }
  return places;
}

int legend_line_count(const std::vector<LegendPlace>& places) {
  int lines = 0;
  for (const auto& place : places) lines = std::max(lines, place.line + 1);
  return lines;
}

}  // namespace syncscope::app
