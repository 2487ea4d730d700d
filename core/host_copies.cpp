#include "core/host_copies.h"

#include <algorithm>

namespace syncscope {

HostCopyComparison compare_host_copies(const std::vector<HostCopy>& sim, const std::vector<HostCopy>& gpu,
                                       const std::string& a_name, const std::string& b_name, bool lines) {
  HostCopyComparison c;
  for (size_t k = 0; k < std::min(sim.size(), gpu.size()); ++k) {
    const HostCopy& s = sim[k];
    const HostCopy& g = gpu[k];
    const std::string which = lines ? "copy " + std::to_string(k + 1) + " to the host (" + s.array + ", line " + std::to_string(s.line) + ")"
                                    : s.array + " after the launch";
    if (s.bytes.size() != g.bytes.size()) {
      c.difference = which + ": " + a_name + " copied " + std::to_string(s.bytes.size()) + " bytes, " + b_name + " " +
                     std::to_string(g.bytes.size());
      return c;
    }
    const size_t size = std::max<uint32_t>(1, s.element_size);
    std::vector<size_t> differing;
    size_t count = 0;
    for (size_t e = 0; e * size < s.bytes.size(); ++e) {
      const size_t first = e * size, last = std::min(s.bytes.size(), first + size);
      if (!std::equal(s.bytes.begin() + first, s.bytes.begin() + last, g.bytes.begin() + first)) {
        if (differing.size() < 8) differing.push_back(e);
        ++count;
      }
    }
    if (count > 0) {
      std::string list;
      for (size_t e : differing) list += (list.empty() ? "" : ", ") + std::to_string(e);
      c.difference = which + ": " + std::to_string(count) + " of " + std::to_string(s.bytes.size() / size) +
                     " elements differ, at " + list + (count > differing.size() ? ", ..." : "");
      return c;
    }
  }
  if (sim.size() != gpu.size()) {
    c.difference = a_name + " made " + std::to_string(sim.size()) + " copies to the host, " + b_name + " " + std::to_string(gpu.size());
    return c;
  }
  c.identical = true;
  return c;
}

}  // namespace syncscope
