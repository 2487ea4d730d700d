#include "sim/element_layout.h"

#include <bit>
#include <charconv>

#include "sim/memory.h"
#include "sim/trace.h"

namespace syncscope::sim {

ElementLayout ElementLayout::parse(const std::string& layout) {
  ElementLayout out;
  const size_t semi = layout.find(';');
  if (layout.empty() || semi == std::string::npos) return out;
  ElementLayout parsed;
  parsed.type = layout.substr(0, semi);
  int cell = 0;
  size_t at = semi + 1;
  while (at <= layout.size()) {
    const size_t end = std::min(layout.find(',', at), layout.size());
    const std::string field = layout.substr(at, end - at);
    const size_t colon = field.rfind(':');
    if (colon == std::string::npos || colon + 2 != field.size()) return out;
    char kind = field[colon + 1];
    if (std::string("iufdlqbc").find(kind) == std::string::npos) return out;
    const bool byte = kind == 'b' || kind == 'c';
    if (cell > 0 && byte != (parsed.cell_bytes == 1)) return out;  // bytes and wider fields do not mix
    if (byte) parsed.cell_bytes = 1, kind = kind == 'b' ? 'u' : 'i';
    parsed.fields.push_back({field.substr(0, colon), kind, cell});
    cell += is_wide_kind(kind) ? 2 : 1;
    at = end + 1;
  }
  parsed.cells = cell;
  return parsed.fields.empty() ? out : parsed;
}

ElementLayout ElementLayout::of(const ArrayInfo& a) {
  ElementLayout out = parse(a.layout);
  out.row_elements = a.columns / out.cells;
  out.plane_rows = a.plane_rows;
  out.elements = a.size / out.cells;
  return out;
}

ElementLayout::Place ElementLayout::place(int cell) const {
  if (plain()) return {cell, nullptr, false};
  const int element = cell >= 0 ? cell / cells : -((-cell + cells - 1) / cells);  // rounded down: d[-1].sum
  const int within = cell - element * cells;
  const Field* in = &fields.front();
  for (const Field& f : fields)
    if (f.first_cell <= within) in = &f;
  return {element, in, within != in->first_cell};
}

std::string ElementLayout::element_name(const std::string& array, int cell) const {
  const Place p = place(cell);
  std::string name = array;
  if (row_elements > 0 && p.element >= 0 && p.element < elements) {
    const int row = p.element / row_elements;
    if (plane_rows > 0) name += "[" + std::to_string(row / plane_rows) + "]" + "[" + std::to_string(row % plane_rows) + "]";
    else name += "[" + std::to_string(row) + "]";
    name += "[" + std::to_string(p.element % row_elements) + "]";
  } else {
    name += '[';
    name += std::to_string(p.element);
    name += ']';
  }
  if (p.field && !p.field->name.empty()) name += "." + p.field->name;
  return name;
}

bool ElementLayout::starts_wide(int cell) const {
  const Place p = place(cell);
  return p.field && is_wide_kind(p.field->kind) && !p.high;
}

std::string ElementLayout::format_number(DType dtype, double value, bool single) const {
  if (plain()) return format_field_number(dtype == DType::Float32 ? 'f' : 'i', value);
  char kind = fields.front().kind;
  for (const Field& f : fields)
    if (f.kind != kind) kind = (f.kind == 'f' || f.kind == 'd' || kind == 'f' || kind == 'd') ? 'd' : 'l';
  return format_field_number(single && kind == 'd' ? 'f' : kind, value);
}

std::string format_field(char kind, uint32_t low, uint32_t high, bool poison) {
  if (poison) return "?";
  const uint64_t bits = uint64_t{high} << 32 | low;
  char buf[64];
  std::to_chars_result r{};
  switch (kind) {
    case 'f': r = std::to_chars(buf, buf + sizeof buf, std::bit_cast<float>(low)); break;
    case 'u': r = std::to_chars(buf, buf + sizeof buf, low); break;
    case 'd': r = std::to_chars(buf, buf + sizeof buf, std::bit_cast<double>(bits)); break;
    case 'l': r = std::to_chars(buf, buf + sizeof buf, std::bit_cast<int64_t>(bits)); break;
    case 'q': r = std::to_chars(buf, buf + sizeof buf, bits); break;
    default: r = std::to_chars(buf, buf + sizeof buf, std::bit_cast<int32_t>(low)); break;
  }
  return std::string(buf, r.ptr);
}

double field_number(char kind, uint32_t low, uint32_t high) {
  const uint64_t bits = uint64_t{high} << 32 | low;
  switch (kind) {
    case 'f': return std::bit_cast<float>(low);
    case 'u': return low;
    case 'd': return std::bit_cast<double>(bits);
    case 'l': return static_cast<double>(std::bit_cast<int64_t>(bits));
    case 'q': return static_cast<double>(bits);
    default: return std::bit_cast<int32_t>(low);
  }
}

std::string format_field_number(char kind, double value) {
  char buf[64];
  std::to_chars_result r{};
  if (kind == 'f') r = std::to_chars(buf, buf + sizeof buf, static_cast<float>(value));
  else if (kind == 'd') r = std::to_chars(buf, buf + sizeof buf, value);
  // Converted only inside its type's range (a double at 2^64 or 2^63 is past it).
  else if (kind == 'q') r = std::to_chars(buf, buf + sizeof buf, value >= 0x1p64 ? UINT64_MAX : value <= 0 ? 0 : static_cast<uint64_t>(value));
  else r = std::to_chars(buf, buf + sizeof buf, value >= 0x1p63 ? INT64_MAX : value <= -0x1p63 ? INT64_MIN : static_cast<int64_t>(value));
  return std::string(buf, r.ptr);
}

std::string format_element(const ElementLayout& layout, const std::function<std::pair<uint32_t, bool>(int)>& cell) {
  std::string text;
  for (const ElementLayout::Field& f : layout.fields) {
    const auto [low, low_poison] = cell(f.first_cell);
    const auto [high, high_poison] = is_wide_kind(f.kind) ? cell(f.first_cell + 1) : std::pair<uint32_t, bool>{0, false};
    if (!text.empty()) text += ", ";
    text += format_field(f.kind, low, high, low_poison || high_poison);
  }
  return layout.fields.size() > 1 ? "{" + text + "}" : text;
}

std::string format_cell(const ElementLayout& layout, DType dtype, int cell, uint32_t bits, uint32_t next_bits, bool poison) {
  const ElementLayout::Place p = layout.place(cell);
  if (!p.field) return format_field(dtype == DType::Float32 ? 'f' : 'i', bits, 0, poison);
  if (p.high) return "";  // its field is shown on its low word
  return format_field(p.field->kind, bits, next_bits, poison);
}

double cell_number(const ElementLayout& layout, DType dtype, int cell, uint32_t bits, uint32_t next_bits) {
  const ElementLayout::Place p = layout.place(cell);
  if (!p.field) return field_number(dtype == DType::Float32 ? 'f' : 'i', bits, 0);
  return field_number(p.field->kind, bits, next_bits);
}

}  // namespace syncscope::sim
