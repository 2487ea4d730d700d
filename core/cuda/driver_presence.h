// Whether this machine has an NVIDIA driver at all, so a status line can say so in the user's terms.
// Without one the CUDA runtime answers "CUDA driver version is insufficient for CUDA runtime
// version", which sends a student looking for a driver update on a machine that has no GPU.
#pragma once

#include <string>

namespace syncscope {

// True when the driver's kernel module reports itself (/proc/driver/nvidia/version) or its user
// library (libcuda.so.1) can be loaded.
bool nvidia_driver_present();

// Why no GPU is usable when the CUDA runtime could not start: "no NVIDIA driver on this machine"
// where there is none, else the runtime's own words (a driver that is there and too old, ...).
std::string gpu_start_failure(const std::string& runtime_words, bool driver_present);

}  // namespace syncscope
