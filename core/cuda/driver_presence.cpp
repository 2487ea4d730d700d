#include "core/cuda/driver_presence.h"

#include <dlfcn.h>
#include <unistd.h>

namespace syncscope {

bool nvidia_driver_present() {
  if (access("/proc/driver/nvidia/version", R_OK) == 0) return true;
  // A driver's library without its module (a container without the device) still counts: then the
  // runtime's words about it are the ones to show.
  if (void* library = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL)) {
    dlclose(library);
    return true;
  }
  return false;
}

std::string gpu_start_failure(const std::string& runtime_words, bool driver_present) {
  return driver_present ? runtime_words : "no NVIDIA driver on this machine";
}

}  // namespace syncscope
