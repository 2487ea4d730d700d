// How a program's elements lie in an array's 32-bit cells (ArrayInfo::layout), so that reports and
// the picture show what the program wrote: `cache[1] = 8614025842` for a long long, `bins[2].sum =
// 1.5` for a struct's double field, `p[1].x = 0.25` for a float in a struct that also holds ints.
//
// Written "TYPE;FIELD:K,FIELD:K,..." in the order of the fields' cells, K one of i (int), u
// (unsigned), f (float), d (double), l (long long), q (unsigned long long): the 8-byte ones take two
// cells, the low word first (a GPU's bytes). A number alone has an empty FIELD ("double;:d"). An
// empty layout: one cell an element, shown as the array's dtype. K may also be b (an unsigned byte)
// or c (a signed one): a struct of them (CUDA's uchar4) holds a byte in each cell, so on a GPU its
// cells are 1 byte apart (`cell_bytes`), which the bank conflicts count; they show as u and i.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "contract/dtype.h"

namespace syncscope::sim {

struct Event;
struct ArrayInfo;

struct ElementLayout {
  struct Field {
    std::string name;  // "" for a number alone
    char kind = 'i';
    int first_cell = 0;  // within the element
  };
  // Where a cell of the array is: the program's index, the field it is in (null: a plain array), and
  // whether it is the second cell of an 8-byte field.
  struct Place {
    int element = 0;
    const Field* field = nullptr;
    bool high = false;
  };

  std::string type;  // "double", "BinStats"; "" for a plain array
  std::vector<Field> fields;
  int cells = 1;  // an element's
  // A 2D shared array's elements a row, and a 3D one's rows a plane (0: none), and its elements: an
  // element is named t[r][c] (or b[p][r][c]) as the program indexes it (set by of()).
  int row_elements = 0, plane_rows = 0, elements = 0;
  int cell_bytes = 4;  // how far apart its cells lie in a GPU's memory: 1 for a struct of bytes

  static ElementLayout parse(const std::string& layout);  // a malformed one is plain
  static ElementLayout of(const ArrayInfo& a);
  bool plain() const { return fields.empty(); }
  Place place(int cell) const;
  // "cache[1]", "bins[2].sum", "s[5]", "tile[1][7]": the element (and field) a cell belongs to.
  std::string element_name(const std::string& array, int cell) const;
  // The cell starts an 8-byte field (its next cell is the field's high word).
  bool starts_wide(int cell) const;
  // A number of the array (a colour scale's end) as its fields are written: whole where every field
  // is an integer, else as a double's shortest text (a float's, `single`: a value kept as a float);
  // a plain array's as its dtype.
  std::string format_number(DType dtype, double value, bool single = false) const;
};

inline bool is_wide_kind(char kind) { return kind == 'd' || kind == 'l' || kind == 'q'; }
// A field's value from its cells ("1.5", "-3", "18446744073709551615"), "?" for poison; `high` is
// read only for 8-byte kinds.
std::string format_field(char kind, uint32_t low, uint32_t high, bool poison = false);
double field_number(char kind, uint32_t low, uint32_t high);
// A number of the kind as text (a colour scale's ends).
std::string format_field_number(char kind, double value);

// A whole element of a described layout from its cells (`cell(k)`: the bits and poison of its k-th
// cell): "1.5", or a struct's fields "{1.5, 3}".
std::string format_element(const ElementLayout& layout, const std::function<std::pair<uint32_t, bool>(int)>& cell);

// A cell's value as the picture shows it, with the next cell where it is an 8-byte field's low word.
std::string format_cell(const ElementLayout& layout, DType dtype, int cell, uint32_t bits, uint32_t next_bits, bool poison);
double cell_number(const ElementLayout& layout, DType dtype, int cell, uint32_t bits, uint32_t next_bits);

}  // namespace syncscope::sim
