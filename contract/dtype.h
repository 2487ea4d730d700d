// Element types syncscope simulates and runs on the GPU. Shared by host code on both compilers.
#pragma once

#include <cstdint>

namespace syncscope {

enum class DType : uint8_t { Float32, Int32 };

}  // namespace syncscope
