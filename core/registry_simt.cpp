// The built-in algorithms' SIMT twins (sim/simt.h). Built with -fsanitize-coverage=trace-pc.
#include "kernels/algorithms.h"
#include "core/simt_twins.h"

namespace syncscope {

void link_builtin_simt_twins() { instantiate_simt_twins(kernels::Algorithms{}); }

}  // namespace syncscope
