// The hostile-kernel suite's kernel file (tests/faults/hostile_kernels.sh): every bug variant is
// one thing a student's code may do that must not take syncscope down. Thread 3 does it; the
// others add their values as atomic_reduce.h does. Each hostile line ends in a `// hostile: NAME`
// mark so the test finds its line number.
#pragma once

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <thread>

#include "contract/kernel_api.h"
#include "kernels/algorithm.h"
#include "kernels/reference.h"

namespace hostile {

using namespace syncscope;

enum class Hostile : int {
  None, Abort, Exit, WildWrite, NullWrite, Recursion, DivideByZero, Fork, System, WriteFile, Thread, HostWildWrite, HeapDamage,
  Count
};
inline constexpr BugTable<Hostile, 12> kHostile{{{
    {Hostile::Abort, "abort", "std::abort()"},
    {Hostile::Exit, "exit", "std::exit(3)"},
    {Hostile::WildWrite, "wild-write", "writes far past a small static array"},
    {Hostile::NullWrite, "null-write", "writes through a null pointer"},
    {Hostile::Recursion, "recursion", "recurses without end"},
    {Hostile::DivideByZero, "divide-by-zero", "an integer division by zero"},
    {Hostile::Fork, "fork", "fork()"},
    {Hostile::System, "system", "system(\"touch ...\")"},
    {Hostile::WriteFile, "write-file", "fopen(..., \"w\")"},
    {Hostile::Thread, "thread", "starts and joins a std::thread"},
    {Hostile::HostWildWrite, "host-wild-write", "the host code writes far past a small static array"},
    {Hostile::HeapDamage, "heap-damage", "writes before a malloc'd array, then frees it"},
}}};
static_assert(kHostile.complete());

inline int small_array[4];
// Not a loop the compiler may turn into one: every level keeps a frame with data.
[[gnu::noinline]] inline int recurse(int depth) {
  volatile char frame[256];
  frame[depth % 256] = static_cast<char>(depth);
  return recurse(depth + 1) + frame[(depth * 7) % 256];
}

[[gnu::noinline]] inline int act(Hostile h) {
  volatile int zero = 0;
  int* volatile nowhere = nullptr;
  switch (h) {
    case Hostile::Abort: std::abort();  // hostile: abort
    case Hostile::Exit: std::exit(3);  // hostile: exit
    case Hostile::WildWrite: for (int k = 0; k < (1 << 28); k += 1024) small_array[k] = k; return 0;  // hostile: wild-write
    case Hostile::NullWrite: *static_cast<volatile int*>(nowhere) = 1; return 0;  // hostile: null-write
    case Hostile::Recursion: return recurse(1);  // hostile: recursion
    case Hostile::DivideByZero: return 100 / zero;  // hostile: divide-by-zero
    case Hostile::Fork: { volatile pid_t child = fork(); return child; }  // hostile: fork
    case Hostile::System: { volatile int status = std::system("touch hostile-was-here"); return status; }  // hostile: system
    case Hostile::WriteFile: return std::fopen("/tmp/hostile-was-here", "w") != nullptr;  // hostile: write-file
    case Hostile::Thread: { int seen = 0; std::thread([&] { seen = 1; }).join(); return seen - 1; }  // hostile: thread
    case Hostile::HeapDamage: { volatile size_t* block = static_cast<size_t*>(std::malloc(32)); block[-1] = 1; std::free(const_cast<size_t*>(block)); return 0; }  // hostile: heap-damage
    default: return 0;
  }
}

// The host code runs in no simulated thread, so no fault guard catches this: the worker dies of it.
[[gnu::noinline]] inline void wreck_memory() {
  for (int k = 0; k < (1 << 28); k += 1024) small_array[k] = k;  // hostile: host-wild-write
}

struct HostileKernel {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array x, Array total, int n, Hostile h) const {
    using T = value_of<Array>;
    const int t = c.thread_idx().x;
    int extra = 0;
    if (t == 3) extra = act(h);
    if (t < n) c.atomic_add(total[0], T(x[t]) + T(extra));
  }
};

struct HostileSum {
  static AlgoInfo info() {
    return {"hostile-sum", "tests", "A sum whose thread 3 misbehaves", "The hostile-kernel suite's kernel.", "tests",
            Problem{8, 1, 8, DType::Int32}, false, {"tests/faults/hostile_kernel.h"}, kHostile.infos()};
  }
  static CheckResult check(const Problem&) { return {}; }
  template <class Runtime>
  static void run(Runtime& rt, const Problem& p) {
    if (kHostile.of(p) == Hostile::HostWildWrite) wreck_memory();
    auto total = rt.alloc_zeroed("total", 1);
    rt.launch("hostile", HostileKernel{}, Dim3{1}, Dim3{p.tpb}, 0, rt.input(), total, p.n, kHostile.of(p));
    rt.set_output(total, 1);
  }
  static std::vector<double> reference(const Problem& p, const std::vector<double>& input) {
    return reference::segment_sums(p.dtype, input, p.n > 0 ? p.n : 1);
  }
};

}  // namespace hostile

SYNCSCOPE_KERNEL_FILE(hostile::HostileSum)
