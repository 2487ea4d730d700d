// SIMT twins: every kernel launched on the simulator is compiled twice. The plain instantiation
// (SimCtx) runs the fast path and every schedule but lockstep. The twin (SimtCtx) is compiled in a
// translation unit of its own with -fsanitize-coverage=trace-pc, so each basic block the kernel
// enters calls __sanitizer_cov_trace_pc with its address (sim/simt.cpp): that address is the lane's
// program position, which SIMT lockstep needs to keep the lanes of a warp together (MinPC).
//
// The instrumented unit only has to instantiate the algorithms' host code with SimtTwinRuntime:
// each launch it contains registers its twin at static initialization, keyed by the type of the
// launch's closure, which the plain SimRuntime looks up (core/registry_simt.cpp does this for
// the built-in algorithms; CMake's syncscope_simt_twins() sets the flags). A translated .cu has its
// twins in its own unit, without coverage: they report the positions the translator numbered
// (SimtCtx::position, translate/simt_positions.h), and its launches hand them over directly.
#pragma once

#include <typeinfo>

#include "sim/kernel_entry.h"

namespace syncscope::sim {

void register_simt_twin(const std::type_info& closure, KernelEntry entry);
KernelEntry find_simt_twin(const std::type_info& closure);  // nullptr when none was built

}  // namespace syncscope::sim
