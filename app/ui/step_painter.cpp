#include "app/ui/step_painter.h"

#include <algorithm>
#include <cmath>

namespace syncscope::ui {
namespace {

ImVec2 im(app::Point p) { return {p.x, p.y}; }

ImU32 colour_of(const Theme& th, app::Ink ink) {
  switch (ink) {
    case app::Ink::Label: return th.label;
    case app::Ink::Dim: return th.dim_text;
    case app::Ink::ArrowRead: return th.arrow_read;
    case app::Ink::ArrowWrite: return th.arrow_write;
    case app::Ink::Race: return th.race;
    case app::Ink::Warning: return th.warning;
    case app::Ink::Written: return th.written;
    case app::Ink::ThreadActive: return th.thread_active;
    case app::Ink::ThreadIdle: return th.thread_idle;
    case app::Ink::ThreadExited: return th.thread_exited;
    case app::Ink::WarpOutline: return th.warp_outline;
  }
  return th.label;
}

// Whole-pixel widths: Dear ImGui draws those from its baked line texture, two triangles a segment
// instead of six; software rendering pays per triangle, and a TPB 32 step has hundreds of arrows.
float line_px(float thickness) { return std::max(1.0f, std::round(thickness)); }

void paint_arrow_head(ImDrawList* dl, ImVec2 from, ImVec2 to, ImU32 colour) {
  const float dx = to.x - from.x, dy = to.y - from.y, len = std::sqrt(dx * dx + dy * dy);
  if (len < 1) return;
  const float ux = dx / len, uy = dy / len, s = std::min(7.0f, len / 3);
  dl->AddTriangleFilled(to, ImVec2(to.x - ux * s - uy * s * 0.5f, to.y - uy * s + ux * s * 0.5f),
                        ImVec2(to.x - ux * s + uy * s * 0.5f, to.y - uy * s - ux * s * 0.5f), colour);
}

void paint_arrow(ImDrawList* dl, const Theme& th, const app::LaidArrow& a) {
  const ImU32 colour = colour_of(th, a.ink);
  const ImVec2 from = im(a.from), to = im(a.to);
  switch (a.shape) {
    case app::ArrowShape::Straight:
      dl->AddLine(from, to, colour, line_px(a.thickness));
      paint_arrow_head(dl, from, to, colour);
      break;
    case app::ArrowShape::LaneCurve:
      dl->AddBezierCubic(from, ImVec2(from.x, from.y - a.lift), ImVec2(to.x, to.y - a.lift), ImVec2(to.x, to.y - 3), colour,
                         line_px(a.thickness), a.segments);
      dl->AddTriangleFilled(to, ImVec2(to.x - 3, to.y - 5), ImVec2(to.x + 3, to.y - 5), colour);
      break;
    case app::ArrowShape::Ring:
      dl->AddCircle(to, a.radius, colour, 10, a.thickness);
      break;
  }
}

}  // namespace

void paint_cell(ImDrawList* dl, const Theme& th, const app::LaidCell& laid) {
  const app::CellView& c = laid.cell;
  const bool after = laid.kind == app::RowKind::After || laid.kind == app::RowKind::GlobalWritten;
  const float x = laid.box.x, y = laid.box.y, w = laid.box.w, h = laid.box.h;
  const ImU32 fill = c.poison ? th.cell : laid.numbers ? (after && c.changed ? th.changed : th.cell) : th.shade(c.shade);
  const ImU32 mark = c.racy ? (c.race_within_warp ? th.warning : th.race) : after && c.written ? th.written : !after && c.read ? th.read : 0;
  if (w < 6) {
    // Too narrow for outlines: the colour is the value; a tick beside the row says read/written.
    dl->AddRectFilled(ImVec2(x, y), ImVec2(x + std::max(w, 1.0f), y + h), fill);
    if (c.poison) hatch(dl, ImVec2(x, y), ImVec2(x + std::max(w, 1.0f), y + h), th.poison_text);
    if (mark) {
      const float ty = after ? y - 4 : y + h + 1;
      dl->AddRectFilled(ImVec2(x, ty), ImVec2(x + std::max(w, 1.0f), ty + 3), mark);
    }
    return;
  }
  if (h < 12 && !laid.numbers) {
    // A short cell (a tile's): an outline would hide its colour, so what happened to it is a bar
    // along its foot, as the bank conflict is one along its head.
    const ImVec2 a(x + 1, y + 1), b(x + w - 1, y + h);
    dl->AddRectFilled(a, b, fill);
    if (c.poison) hatch(dl, a, b, th.poison);
    const float bar = std::max(1.0f, std::round(h * 0.25f));  // the value's colour keeps half the cell
    if (c.bank_conflict > 1) dl->AddRectFilled(a, ImVec2(b.x, a.y + bar), th.bank_conflict);
    if (mark) dl->AddRectFilled(ImVec2(a.x, b.y - bar), b, mark);
    return;
  }
  // Square corners: a rounded cell is a polygon of ~40 triangles, a square one two.
  const ImVec2 a(x + 1, y), b(x + w - 1, y + h);
  dl->AddRectFilled(a, b, fill);
  if (c.poison) hatch(dl, a, b, th.poison);
  if (c.bank_conflict > 1) dl->AddRectFilled(a, ImVec2(b.x, a.y + std::max(3.0f, h * 0.18f)), th.bank_conflict);
  if (c.racy) dl->AddRect(a, b, c.race_within_warp ? th.warning : th.race, 0, 0, 3);
  else if (after && c.written) dl->AddRect(a, b, th.written, 0, 0, 2);
  else if (!after && c.read) dl->AddRect(a, b, th.read, 0, 0, 2);
  else if (laid.numbers) dl->AddRect(a, b, th.cell_border);
  if (laid.numbers)
    dl->AddText(ImVec2(x + (w - laid.text_w) / 2, y + (h - ImGui::GetFontSize()) / 2), c.poison ? th.poison_text : th.cell_text,
                c.text.c_str());
}

void paint_label(ImDrawList* dl, const Theme& th, const app::LaidLabel& l) {
  if (l.backed)
    dl->AddRectFilled(ImVec2(l.at.x - 2, l.at.y), ImVec2(l.at.x + l.width + 2, l.at.y + ImGui::GetFontSize()),
                      ImGui::GetColorU32(ImGuiCol_WindowBg));
  dl->AddText(im(l.at), colour_of(th, l.ink), l.text.c_str());
}

// In the order the old immediate painter drew, so the picture is the same: the frame, threads and
// labels under the cells, the cells, then arrows with the labels and lane rows laid among them.
void paint_block(ImDrawList* dl, const Theme& th, const app::BlockLayout& b) {
  if (b.name && b.followed)
    dl->AddLine(ImVec2(b.name->x, b.name->bottom()), ImVec2(b.name->right(), b.name->bottom()), th.written, 2);
  for (const app::Rect& w : b.warps) dl->AddRect(ImVec2(w.x, w.y), ImVec2(w.right(), w.bottom()), th.warp_outline, 4, 0, 2);
  for (const app::LaidThread& t : b.threads) {
    const ImU32 colour = colour_of(th, t.ink);
    if (t.radius >= 3) dl->AddCircleFilled(im(t.centre), t.radius, colour, 12);
    else dl->AddRectFilled(ImVec2(t.centre.x - t.radius, t.centre.y - t.radius), ImVec2(t.centre.x + t.radius, t.centre.y + t.radius), colour);
  }
  size_t label = 0, lane = 0;
  for (; label < b.labels.size() && b.labels[label].z < 0; ++label) paint_label(dl, th, b.labels[label]);
  for (const app::LaidCell& c : b.cells) paint_cell(dl, th, c);
  for (size_t k = 0; k <= b.arrows.size(); ++k) {
    const int z = static_cast<int>(k);
    for (; label < b.labels.size() && b.labels[label].z <= z; ++label) paint_label(dl, th, b.labels[label]);
    for (; lane < b.lanes.size() && b.lanes[lane].z <= z; ++lane) {
      const app::LaidLaneRow& row = b.lanes[lane];
      if (row.in_progress)
        dl->AddRectFilled(ImVec2(row.in_progress->x, row.in_progress->y), ImVec2(row.in_progress->right(), row.in_progress->bottom()),
                          IM_COL32(255, 255, 255, 18));
      dl->AddLine(im(row.from), im(row.to), th.warp_outline, 1);
    }
    if (k < b.arrows.size()) paint_arrow(dl, th, b.arrows[k]);
  }
}

void paint_tile(ImDrawList* dl, const Theme& th, const app::TileLayout& tile) {
  for (const app::LaidLabel& l : tile.labels) paint_label(dl, th, l);
  for (const app::LaidCell& c : tile.cells) paint_cell(dl, th, c);
}

}  // namespace syncscope::ui
