// A kernel file that never ends, in each of the ways a student's loop can fail to: the simulation
// must stop within its budget and say which thread and line, never hang the class.
#pragma once

#include "contract/kernel_api.h"
#include "kernels/algorithm.h"
#include "kernels/reference.h"

namespace runaway_test {

using namespace syncscope;

enum class Runaway : int { None, Spin, Accesses, Shuffles, OneThread, Barriers, Count };
inline constexpr BugTable<Runaway, 5> kRunaways{{{
    {Runaway::Spin, "spin", "every thread loops forever without touching memory"},
    {Runaway::Accesses, "accesses", "every thread loops forever reading and writing shared memory"},
    {Runaway::Shuffles, "shuffles", "every thread loops forever shuffling with its warp"},
    {Runaway::OneThread, "one-thread", "the block's last thread loops forever without touching memory"},
    {Runaway::Barriers, "barriers", "the block loops forever around a barrier"},
}}};
static_assert(kRunaways.complete(), "kRunaways lists every Runaway but None, in order");

struct RunawayKernel {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array x, Array y, int n, Runaway how) const {
    using T = value_of<Array>;
    auto s = shared_array<T>(c, c.block_dim().x, "s");
    const int t = c.thread_idx().x;
    const int i = c.block_idx().x * c.block_dim().x + t;
    s[t] = i < n ? T(x[i]) : T(0);
    c.sync();
    volatile unsigned spins = 0;
    if (how == Runaway::Spin || (how == Runaway::OneThread && t == c.block_dim().x - 1))
      for (;;) spins = spins + 1;  // the endless loop
    if (how == Runaway::Accesses)
      for (;;) s[t] += T(1);  // the endless loop
    if (how == Runaway::Shuffles) {
      T v = s[t];
      for (;;) v = c.shfl_xor(v, 1);  // the endless loop
    }
    if (how == Runaway::Barriers)
      for (;;) c.sync();  // the endless loop
    if (i < n) y[i] = s[t];
  }
};

struct RunawayCopy {
  static AlgoInfo info() {
    return {"runaway", "tests", "A copy that can be made endless", "Each bug variant loops forever another way.",
            "tests", Problem{64, 1, 64, DType::Int32}, false, {"tests/kernel_files/runaway_kernel.h"},
            kRunaways.infos()};
  }
  static CheckResult check(const Problem&) { return {}; }
  template <class Runtime>
  static void run(Runtime& rt, const Problem& p) {
    auto y = rt.alloc("output", p.n);
    rt.launch("runaway", RunawayKernel{}, Dim3{ceil_div(p.n, p.tpb)}, Dim3{p.tpb}, p.tpb * 4, rt.input(), y, p.n,
              kRunaways.of(p));
    rt.set_output(y, p.n);
  }
  static std::vector<double> reference(const Problem&, const std::vector<double>& input) { return input; }
};

}  // namespace runaway_test

SYNCSCOPE_KERNEL_FILE(runaway_test::RunawayCopy)
