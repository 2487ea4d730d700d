// A pointer field of a struct a kernel holds by value (translate/rewrite_rules.cpp's
// rewrite_pointer_field): the field keeps a raw address, which every read turns into the
// simulator's pointer (device_pointer) and every assignment takes back from one (device_address).
// Global memory's addresses are cudaMalloc's (core/cuda_in/device_addresses.h); a __shared__ array's
// are the block's own, its declaration number in the high bits (CUB's TempStorage idiom keeps one
// so). An address neither names (host memory) reads as a pointer to nothing, which faults where it
// is used, as on a GPU.
#pragma once

#include <cstdint>

#include "core/cuda_in/cu_host.h"
#include "core/cuda_in/device_addresses.h"

namespace syncscope::cu {

// The bytes a raw address moves by for one of the simulator's cells of E (a multi-cell E's are 4).
template <class E>
inline constexpr uintptr_t kCellBytes = sizeof(E) / cells_of<std::remove_cv_t<E>>;

template <class E, class Ctx>
[[gnu::always_inline]] inline ptr<E, Ctx> device_pointer(Ctx& c, E* address) {
  const auto raw = reinterpret_cast<uintptr_t>(address);
  if (raw >= kFirstSharedAddress && raw < kSharedAddressesEnd) {
    const uintptr_t within = raw - kFirstSharedAddress;
    sim::ArrayStore* shared = c.runner().shared_in_slot(static_cast<int>(within / kSharedSlotBytes));
    if (!shared) return ptr<E, Ctx>(&c.runner(), nullptr, 0);
    return ptr<E, Ctx>(&c.runner(), shared, static_cast<int>(within % kSharedSlotBytes / kCellBytes<E>));
  }
  int cell = 0;
  const Allocation* a = address ? current_device->find(address, &cell) : nullptr;
  if (!a) return ptr<E, Ctx>(&c.runner(), nullptr, 0);
  return ptr<E, Ctx>(&c.runner(), &current_device->simulator().global(a->array), cell);
}
template <class E, class Ctx>
inline E* device_address(const ptr<E, Ctx>& p) {
  if (!p.array) return nullptr;
  if (p.array->space == sim::MemSpace::Shared) {
    const int slot = p.runner ? p.runner->shared_slot_of(p.array) : -1;
    if (slot < 0) return nullptr;
    return reinterpret_cast<E*>(kFirstSharedAddress + static_cast<uintptr_t>(slot) * kSharedSlotBytes +
                                static_cast<uintptr_t>(p.offset) * kCellBytes<E>);
  }
  return reinterpret_cast<E*>(current_device->address_of(p.array, p.offset));
}
template <class T>
inline T device_address(const T& anything_else) {  // nullptr, a pointer the kernel already holds raw
  return anything_else;
}

}  // namespace syncscope::cu
