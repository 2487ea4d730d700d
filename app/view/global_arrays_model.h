// Global arrays panel: input, output and auxiliary arrays (seed 000's extended buffer with the
// block sums) at the current step. Memory before the launch, plus what the recorded blocks have
// written so far in it; the other blocks' writes land when the launch ends.
#pragma once

#include <string>
#include <vector>

#include "kernels/run.h"

namespace syncscope::app {

struct GlobalArrayView {
  int array = -1;
  std::string name;
  std::string role;  // "input", "output", "" (auxiliary)
  DType dtype = DType::Float32;
  std::vector<uint32_t> bits;
  std::vector<uint8_t> poison;
  std::vector<uint8_t> written_now;  // written by a recorded block in this step
  std::vector<uint8_t> read_now;     // read by a recorded block in this step
  double min = 0, max = 0;           // over initialized cells (colour scale)
  std::vector<float> shades;         // for the overview texture: each value, NaN for '?'
  int size() const { return static_cast<int>(bits.size()); }
  std::string text(int i) const { return format_value(dtype, bits[i], poison[i]); }
  const std::vector<float>& values() const { return shades; }
};

struct GlobalArraysModel {
  std::vector<GlobalArrayView> arrays;
  std::string note;  // e.g. memory of large runs is kept only at the end
};

GlobalArraysModel build_global_arrays(const RunResult& run, int launch, int step);

// The block of `launch` that handles element `index` of a 1D array (clicking the overview).
int block_of_element(const RunResult& run, int launch, int index);

}  // namespace syncscope::app
