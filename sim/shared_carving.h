// A block's shared memory. Each thread declares the kernel's shared arrays in order; the first
// thread to declare array k carves it out of the launch's shared bytes (uninitialized), the others
// get that same array. A declaration that disagrees with the first, or that does not fit, is the
// kernel's error: the runner stops the block with the message.
#pragma once

#include <deque>
#include <string>

#include "contract/dtype.h"
#include "sim/memory.h"

namespace syncscope::sim {

class SharedCarving {
 public:
  void start_block(int launch_shared_bytes) {
    launch_bytes_ = launch_shared_bytes;
    count_ = 0;
    bytes_used_ = 0;
  }
  struct Declared {
    ArrayStore* array = nullptr;  // nullptr: see error
    bool fresh = false;           // carved just now (the runner names it in the trace)
    std::string error;
  };
  // `thread`'s declaration number `slot` (0, 1, ... in the order the kernel declares them): every
  // thread but the first finds the array already there, so that is inline.
  // `layout`: the elements' (ElementLayout), whose cells may lie 1 byte apart (a uchar4's).
  Declared declare(int thread, int slot, DType dtype, int count, const char* name, const char* layout = nullptr) {
    if (slot < count_) [[likely]] {
      ArrayStore& a = arrays_[slot];
      if (a.size() == count && a.dtype == dtype) [[likely]] return {&a, false, {}};
    }
    return declare_new(thread, slot, dtype, count, name, layout);
  }

  // deque: references stay valid as arrays are added
  const std::deque<ArrayStore>& arrays() const { return arrays_; }
  int count() const { return count_; }  // arrays in use by this block
  // Array `slot` of this block (nullptr: the block has not declared so many).
  ArrayStore* in_slot(int slot) { return slot >= 0 && slot < count_ ? &arrays_[slot] : nullptr; }
  int slot_of(const ArrayStore* a) const {
    for (int k = 0; k < count_; ++k)
      if (&arrays_[k] == a) return k;
    return -1;
  }

 private:
  Declared declare_new(int thread, int slot, DType dtype, int count, const char* name, const char* layout);

  std::deque<ArrayStore> arrays_;
  int count_ = 0;
  int bytes_used_ = 0;
  int launch_bytes_ = 0;
};

}  // namespace syncscope::sim
