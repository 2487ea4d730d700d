// SIMT twins of the test suite's own algorithms (sim/simt.h); built with -fsanitize-coverage=trace-pc.
#include "core/simt_twins.h"
#include "tests/user_kernels/list.h"

namespace syncscope::user {

void link_test_simt_twins() {
  instantiate_simt_twins(UserAlgorithms{});
  instantiate_simt_twins(HeldOutAlgorithms{});
  instantiate_simt_twins(StarterAlgorithms{});
  instantiate_simt_twins(ProbeAlgorithms{});
  instantiate_simt_twins(RunawayAlgorithms{});
}

}  // namespace syncscope::user
