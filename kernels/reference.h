// Sequential CPU references, written independently of the kernels: plain loops over the input.
// They compute in double (float32) or wrapping 32-bit integers (int32) and return exact values of
// the element type, so "expected" is what an exact machine would print.
#pragma once

#include <cstdint>
#include <vector>

#include "contract/dtype.h"

namespace syncscope::reference {

// Rounds an exact running value to what the element type can hold.
double to_element(DType t, double exact);

// Scans restarted every `segment` elements (segment >= n: one scan of everything).
std::vector<double> inclusive_scan(DType t, const std::vector<double>& in, int segment);
std::vector<double> exclusive_scan(DType t, const std::vector<double>& in, int segment);
// Sum of each consecutive run of `segment` elements (the last run may be shorter).
std::vector<double> segment_sums(DType t, const std::vector<double>& in, int segment);

}  // namespace syncscope::reference
