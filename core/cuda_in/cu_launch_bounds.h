// A translated .cu's kernels' __launch_bounds__: a launch of a larger block fails, as on a GPU (the
// translation registers them when its library loads; cu_host.h's launch looks them up).
#pragma once

#include <cstring>
#include <initializer_list>
#include <map>
#include <string>
#include <utility>

namespace syncscope::cu {

// Their largest block, by kernel name.
inline std::map<std::string, int>& launch_bounds() {
  static std::map<std::string, int> bounds;
  return bounds;
}
inline bool note_launch_bounds(std::initializer_list<std::pair<const char*, int>> kernels) {
  for (const auto& [name, most] : kernels) launch_bounds()[name] = most;
  return true;
}
inline int launch_bounds_of(const char* name) {  // `reduce<256>` by its template's bound
  const std::string kernel(name, std::strcspn(name, "<"));
  const auto found = launch_bounds().find(kernel);
  return found == launch_bounds().end() ? 0 : found->second;
}

}  // namespace syncscope::cu
