#include "kernels/reference.h"

#include <algorithm>
#include <cmath>

namespace syncscope::reference {
namespace {

// int32 arithmetic on the GPU wraps; keep the running value in wrapping uint32 arithmetic.
struct Accumulator {
  DType t;
  double exact = 0;   // float32: exact enough in double for the tolerance we compare with
  uint32_t wrapped = 0;
  void add(double v) {
    if (t == DType::Float32) exact += v;
    else wrapped += static_cast<uint32_t>(static_cast<int64_t>(v));
  }
  double value() const {
    return t == DType::Float32 ? to_element(t, exact) : static_cast<double>(static_cast<int32_t>(wrapped));
  }
};

}  // namespace

double to_element(DType t, double exact) {
  if (t == DType::Float32) return static_cast<double>(static_cast<float>(exact));
  return static_cast<double>(static_cast<int32_t>(static_cast<uint32_t>(static_cast<int64_t>(exact))));
}

std::vector<double> inclusive_scan(DType t, const std::vector<double>& in, int segment) {
  std::vector<double> out(in.size());
  Accumulator acc{t};
  for (size_t i = 0; i < in.size(); ++i) {
    if (segment > 0 && i % segment == 0) acc = Accumulator{t};
    acc.add(in[i]);
    out[i] = acc.value();
  }
  return out;
}

std::vector<double> exclusive_scan(DType t, const std::vector<double>& in, int segment) {
  std::vector<double> out(in.size());
  Accumulator acc{t};
  for (size_t i = 0; i < in.size(); ++i) {
    if (segment > 0 && i % segment == 0) acc = Accumulator{t};
    out[i] = acc.value();
    acc.add(in[i]);
  }
  return out;
}

std::vector<double> segment_sums(DType t, const std::vector<double>& in, int segment) {
  std::vector<double> out;
  for (size_t start = 0; start < in.size(); start += segment) {
    Accumulator acc{t};
    for (size_t i = start; i < std::min(in.size(), start + segment); ++i) acc.add(in[i]);
    out.push_back(acc.value());
  }
  return out;
}

}  // namespace syncscope::reference
