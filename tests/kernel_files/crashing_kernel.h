// A kernel file whose thread 3 writes through a null pointer, outside the kernel API: the
// simulation must fail with what happened, and the program (CLI or app) must go on.
#pragma once

#include "contract/kernel_api.h"
#include "kernels/algorithm.h"
#include "kernels/reference.h"

namespace crash_test {

using namespace syncscope;

struct CrashingKernel {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array x, Array y, int n) const {
    using T = value_of<Array>;
    const int t = c.thread_idx().x;
    if (t < n) y[t] = T(x[t]);
    c.sync();
    volatile int* volatile nowhere = nullptr;
    if (t == 3) *nowhere = 1;  // the student's mistake
  }
};

struct Crashing {
  static AlgoInfo info() {
    return {"crashing", "tests", "A kernel that crashes", "Thread 3 writes through a null pointer.", "tests",
            Problem{8, 1, 8, DType::Int32}, false, {"tests/kernel_files/crashing_kernel.h"}};
  }
  static CheckResult check(const Problem&) { return {}; }
  template <class Runtime>
  static void run(Runtime& rt, const Problem& p) {
    auto y = rt.alloc("output", p.n);
    rt.launch("crashing", CrashingKernel{}, Dim3{1}, Dim3{p.tpb}, 0, rt.input(), y, p.n);
    rt.set_output(y, p.n);
  }
  static std::vector<double> reference(const Problem&, const std::vector<double>& input) { return input; }
};

}  // namespace crash_test

SYNCSCOPE_KERNEL_FILE(crash_test::Crashing)
