// Global arrays panel: input, output and auxiliary arrays (seed 000's extended buffer with the
// block sums) at the current step. Memory before the launch, plus what the recorded blocks have
// written so far in it; the other blocks' writes land when the launch ends.
//
// The memory before a launch is built once and shared by every step of the launch; a step adds
// only what the recorded blocks wrote, so stepping through a lesson of 2^20 elements copies nothing
// of the size of the arrays (the panel draws 60 frames a second while playing).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/run.h"
#include "sim/element_layout.h"

namespace syncscope::app {

// One global array as it was when a launch began.
struct ArrayMemory {
  int array = -1;
  std::vector<uint32_t> bits;
  std::vector<uint8_t> poison;
  std::vector<float> shades;  // for the overview texture: each value, NaN for '?'
  double min = 0, max = 0;    // over initialized cells
};
// Every global array before `launch` (the previous launch's snapshot, or the initial one; a large
// run keeps only the final memory, and `*at_end` says so).
std::vector<std::shared_ptr<const ArrayMemory>> memory_before_launch(const RunResult& run, int launch, bool* at_end);

struct GlobalArrayView {
  int array = -1;
  std::string name;
  std::string role;  // "input", "output", "" (auxiliary)
  DType dtype = DType::Float32;
  std::shared_ptr<const ArrayMemory> before;  // when the launch began
  struct Written {
    int index;
    uint32_t bits;
    bool poison;
    float shade;
  };
  std::vector<Written> written;           // by recorded blocks up to this step: the last write of each cell, by index
  std::vector<int> written_in_step;       // cells written by a recorded block in this step, ascending
  std::vector<int> read_in_step;          // cells read by a recorded block in this step, ascending
  double min = 0, max = 0;                // over initialized cells now (colour scale)

  sim::ElementLayout layout;  // how its elements lie in its cells: a double's two, a struct's fields

  int size() const { return static_cast<int>(before->bits.size()); }  // cells
  uint32_t bits(int i) const;
  bool poisoned(int i) const;
  bool written_now(int i) const;
  bool read_now(int i) const;
  // The array as the program indexes it: element e is cells [e * cells_per_element(), ...).
  int cells_per_element() const { return layout.cells; }
  int elements() const { return size() / cells_per_element(); }
  std::string element_text(int e) const;
  // The range's ends, which the overview keeps as floats.
  std::string number_text(double v) const { return layout.format_number(dtype, v, true); }
  bool element_poisoned(int e) const;
  bool element_written_now(int e) const;
  bool element_read_now(int e) const;
};

struct GlobalArraysModel {
  std::vector<GlobalArrayView> arrays;
  std::string note;  // e.g. memory of large runs is kept only at the end
};

// `before`: memory_before_launch(run, launch) (the panel keeps it for the launch's steps).
GlobalArraysModel build_global_arrays(const RunResult& run, int launch, int step,
                                      const std::vector<std::shared_ptr<const ArrayMemory>>& before, bool at_end);
GlobalArraysModel build_global_arrays(const RunResult& run, int launch, int step);

// The block of `launch` that handles element `index` of a 1D array (clicking the overview).
int block_of_element(const RunResult& run, int launch, int index);

}  // namespace syncscope::app
