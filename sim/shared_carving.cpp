#include "sim/shared_carving.h"

#include <algorithm>

#include "contract/kernel_api.h"
#include "sim/element_layout.h"

namespace syncscope::sim {

SharedCarving::Declared SharedCarving::declare_new(int thread, int slot, DType dtype, int count, const char* name,
                                                   const char* layout) {
  if (slot < count_) {  // declare() found it there, but not as this thread declares it
    const ArrayStore& a = arrays_[slot];
    return {nullptr, false,
            "thread T" + std::to_string(thread) + " asks for shared array #" + std::to_string(slot) + " with " +
                std::to_string(count) + " " + std::string(to_string(dtype)) +
                " elements, but an earlier thread made it " + std::to_string(a.size()) + " " +
                std::string(to_string(a.dtype)) +
                " elements; every thread must declare the same shared arrays in the same order"};
  }
  // As a GPU lays the array out (and as the reports count it: sim/warp_instructions.h): a uchar4 tile
  // of N elements is 4N bytes, though it takes 4N cells here.
  const int cell_bytes = layout ? ElementLayout::parse(layout).cell_bytes : 4;
  const int bytes = shared_bytes_for((std::max(count, 0) * cell_bytes + 3) / 4);
  if (count < 0 || bytes_used_ + bytes > launch_bytes_)
    return {nullptr, false,
            "shared array #" + std::to_string(slot) + " (" + (name ? name : "unnamed") + ") needs " +
                std::to_string(bytes) + " bytes, but the launch provides " + std::to_string(launch_bytes_) +
                " bytes of shared memory of which " + std::to_string(bytes_used_) +
                " are taken; pass a larger shared size to the launch"};
  bytes_used_ += bytes;
  if (slot >= static_cast<int>(arrays_.size())) arrays_.emplace_back();
  ArrayStore& a = arrays_[slot];
  a.space = MemSpace::Shared;
  a.dtype = dtype;
  a.name = name ? name : "shared" + std::to_string(slot);
  // A new block's shared memory is uninitialized. Its shadow needs no clearing: stamps name the
  // barrier interval they were made in, and interval ids are never reused (ArrayPool).
  // Values are zeroed so that what a kernel computes from uninitialized cells (shown as ?) is the
  // same in every run.
  if (a.size() != count) {
    a.reset(count, /*poisoned=*/true);
  } else {
    std::fill(a.bits.begin(), a.bits.end(), 0u);
    std::fill(a.poison.begin(), a.poison.end(), kNeverWritten);
  }
  count_ = slot + 1;
  return {&a, true, ""};
}

}  // namespace syncscope::sim
