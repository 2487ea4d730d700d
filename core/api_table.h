// The warp operations' rows of kernels/README.md's "What a kernel may use", written from their
// table (contract/warp_ops.h): `syncscope list --api` prints them, and a test checks that the README
// has every one, so the document cannot fall behind the code.
#pragma once

#include <string>
#include <vector>

namespace syncscope {

// One markdown table row per warp operation: | CUDA | syncscope | what each lane gets |
std::vector<std::string> warp_api_rows();

}  // namespace syncscope
