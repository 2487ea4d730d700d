// Where a translated .cu's device memory lies in the worker's address space: cudaMalloc returns
// addresses from kFirstDeviceAddress on (core/cuda_in/cu_host.h), a range no host memory is mapped
// in, so host code that dereferences one faults, as on a real machine; the worker's report of that
// fault (core/worker/kernel_worker.cpp) knows it by its address and says what happened.
#pragma once

#include <cstdint>

namespace syncscope::cu {

inline constexpr uintptr_t kFirstDeviceAddress = uintptr_t{0x100000000000};  // 16 TiB
inline constexpr uintptr_t kDeviceAddressesEnd = uintptr_t{0x200000000000};
// A block's __shared__ arrays as a struct's pointer field keeps them (core/cuda_in/cu_pointer_fields.h):
// array k of the block from kFirstSharedAddress + k * kSharedSlotBytes on.
inline constexpr uintptr_t kFirstSharedAddress = kDeviceAddressesEnd;
inline constexpr uintptr_t kSharedSlotBytes = uintptr_t{1} << 32;
inline constexpr uintptr_t kSharedAddressesEnd = kFirstSharedAddress + 4096 * kSharedSlotBytes;

}  // namespace syncscope::cu
