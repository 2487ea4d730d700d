// Instantiates, in a translation unit built with -fsanitize-coverage=trace-pc (CMake:
// syncscope_simt_twins), the SIMT twin of every launch in the host code of `Algorithms...`
// (sim/simt.h). The unit's own function must be called from elsewhere so the linker keeps it.
#pragma once

#include <cstdint>

#include "kernels/algorithm.h"
#include "sim/sim_runtime.h"

namespace syncscope {

template <template <class...> class List, class... Algorithms>
void instantiate_simt_twins(List<Algorithms...>) {
  static void (*const as_float[])(sim::SimtTwinRuntime<float>&, const Problem&) = {
      &Algorithms::template run<sim::SimtTwinRuntime<float>>...};
  static void (*const as_int[])(sim::SimtTwinRuntime<int32_t>&, const Problem&) = {
      &Algorithms::template run<sim::SimtTwinRuntime<int32_t>>...};
  (void)as_float;
  (void)as_int;
}

}  // namespace syncscope
