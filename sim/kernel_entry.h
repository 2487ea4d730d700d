// How the runner starts a kernel on one simulated thread: the launch's closure, the runner and the
// thread. The entry (sim/sim_runtime.h) builds the thread's context itself, so the runner needs no
// knowledge of the contexts that call into it (sim/sim_ctx.h).
#pragma once

namespace syncscope::sim {

class BlockRunner;
using KernelEntry = void (*)(void* closure, BlockRunner& runner, int thread);

}  // namespace syncscope::sim
