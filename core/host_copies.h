// A .cu program's copies to the host compared: the simulator's with the GPU's (`gpu-vs-sim`), and
// two schedules' outputs in the race lab (core/outcomes.h).
#pragma once

#include <string>
#include <vector>

#include "core/registry.h"

namespace syncscope {

struct HostCopyComparison {
  bool identical = false;
  std::string difference;  // the first differing copy, its line, array and elements ("" if identical)
};
// `a` and `b` are named as `a_name` and `b_name` where their counts or sizes differ; `lines`: a
// copy is named by its line (not for a kernel-only file's, which syncscope's own main() makes).
HostCopyComparison compare_host_copies(const std::vector<HostCopy>& sim, const std::vector<HostCopy>& gpu,
                                       const std::string& a_name = "the simulator", const std::string& b_name = "the GPU",
                                       bool lines = true);

}  // namespace syncscope
