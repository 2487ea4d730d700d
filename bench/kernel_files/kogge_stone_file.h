// The built-in Kogge-Stone scan as a kernel file, for the worker's cost (README, Benchmarks): the
// same kernel run built in (in syncscope's process) and as a kernel file (compiled at run time,
// simulated in `syncscope worker`, its trace sent back over the pipe).
#pragma once

#include "kernels/kogge_stone.h"

namespace bench_kernel_file {

struct KoggeStoneFile : syncscope::kernels::KoggeStone {
  static syncscope::AlgoInfo info() {
    syncscope::AlgoInfo i = KoggeStone::info();
    i.name = "kogge-stone-file";
    return i;
  }
};

}  // namespace bench_kernel_file

SYNCSCOPE_KERNEL_FILE(bench_kernel_file::KoggeStoneFile)
