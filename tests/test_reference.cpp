// The CPU references on cases small enough to check by hand.
#include <gtest/gtest.h>

#include "kernels/reference.h"

namespace syncscope::reference {
namespace {

TEST(Reference, InclusiveScanRestartsEverySegment) {
  EXPECT_EQ(inclusive_scan(DType::Int32, {1, 2, 3, 4, 5}, 0), (std::vector<double>{1, 3, 6, 10, 15}));
  EXPECT_EQ(inclusive_scan(DType::Int32, {1, 2, 3, 4, 5}, 2), (std::vector<double>{1, 3, 3, 7, 5}));
}

TEST(Reference, ExclusiveScan) {
  EXPECT_EQ(exclusive_scan(DType::Int32, {1, 2, 3, 4}, 0), (std::vector<double>{0, 1, 3, 6}));
  EXPECT_EQ(exclusive_scan(DType::Int32, {1, 2, 3, 4}, 3), (std::vector<double>{0, 1, 3, 0}));
}

TEST(Reference, SegmentSums) {
  EXPECT_EQ(segment_sums(DType::Float32, {0, 1, 2, 3, 4, 5, 6}, 3), (std::vector<double>{3, 12, 6}));
}

TEST(Reference, Int32WrapsLikeTheGpu) {
  EXPECT_EQ(inclusive_scan(DType::Int32, {2147483647, 1}, 0), (std::vector<double>{2147483647, -2147483648.0}));
}

TEST(Reference, Float32RoundsTheExactSum) {
  // 2^24 + 1 is not a float; the exact running sum is rounded once, at the end.
  EXPECT_EQ(inclusive_scan(DType::Float32, {16777216, 1, 1}, 0), (std::vector<double>{16777216, 16777216, 16777218}));
}

}  // namespace
}  // namespace syncscope::reference
