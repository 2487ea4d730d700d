// The reduction ladder: Mark Harris's "Optimizing Parallel Reduction in CUDA" step by step, then
// two rungs past it (warp shuffles with 16-byte loads, and a single launch). Every rung sums the
// whole input to one value, so `syncscope perf` can time each against CUB's DeviceReduce::Sum; the
// multi-launch rungs reduce level by level (each block's sum becomes an element of the next level)
// until one value is left. Each rung's description says what changed and why it is faster.
#pragma once

#include <algorithm>
#include <string>

#include "contract/kernel_api.h"
#include "kernels/algorithm.h"
#include "kernels/reference.h"
#include "kernels/warp_primitives.h"

namespace syncscope::kernels {

// ---- kernels ----

// Rungs 4-6: block b covers 2·blockDim elements from b·2·blockDim; thread t adds its two.
template <class Ctx, class Array>
SYNCSCOPE_DEVICE value_of<Array> load_and_add_pair(Ctx& c, Array in, int n, int block_threads) {
  using T = value_of<Array>;
  const int i = c.block_idx().x * 2 * block_threads + c.thread_idx().x;
  T v = i < n ? T(in[i]) : T(0);
  if (i + block_threads < n) v += in[i + block_threads];
  return v;
}

// Rungs 8 and 9: thread g adds up elements four at a time (one 16-byte load each), a whole grid
// apart; the n mod 4 elements at the end go to the first threads one each. With InFlight > 1 the
// thread issues InFlight such loads, each a grid further on, before it adds any of them: that many
// loads are in flight per thread while memory answers, instead of one.
template <int InFlight = 1, class Ctx, class Array>
SYNCSCOPE_DEVICE value_of<Array> grid_stride_vec4_sum(Ctx& c, Array in, int n) {
  using T = value_of<Array>;
  const int threads = c.grid_dim().x * c.block_dim().x;
  const int g = c.block_idx().x * c.block_dim().x + c.thread_idx().x;
  const int quads = n / 4;
  T v = T(0);
  int q = g;
  for (; q + (InFlight - 1) * threads < quads; q += InFlight * threads) {
    Vec4<T> four[InFlight];
    for (int k = 0; k < InFlight; ++k) four[k] = c.load_vec4(in, 4 * (q + k * threads));
    for (int k = 0; k < InFlight; ++k) v += four[k].x + four[k].y + four[k].z + four[k].w;
  }
  for (; q < quads; q += threads) {
    const Vec4<T> four = c.load_vec4(in, 4 * q);
    v += four.x + four.y + four.z + four.w;
  }
  if (quads * 4 + g < n) v += in[quads * 4 + g];
  return v;
}

// Rung 1: thread t adds in its neighbour `stride` away when t is a multiple of 2·stride.
struct ReduceInterleavedDivergentKernel {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array in, Array out, int n) const {
    using T = value_of<Array>;
    auto s = shared_array<T>(c, c.block_dim().x, "sdata");
    const int t = c.thread_idx().x;
    const int i = c.block_idx().x * c.block_dim().x + t;
    c.caption("load: thread t copies in[i] into sdata[t]");
    s[t] = i < n ? T(in[i]) : T(0);
    c.sync();
    for (int stride = 1; stride < c.block_dim().x; stride *= 2) {
      c.caption("stride %d: threads t %% %d == 0 add sdata[t + %d]: most lanes of a warp idle", stride, 2 * stride,
                stride);
      if (t % (2 * stride) == 0) s[t] += s[t + stride];
      c.sync();
    }
    c.caption("store: thread 0 writes the block's sum sdata[0] to out[block]");
    if (t == 0) out[c.block_idx().x] = s[0];
  }
};

// Rung 2: the working threads are packed (thread t works on index 2·stride·t), so whole warps
// either work or skip; the strided index sends many lanes of one warp to the same bank.
struct ReduceInterleavedStridedKernel {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array in, Array out, int n) const {
    using T = value_of<Array>;
    auto s = shared_array<T>(c, c.block_dim().x, "sdata");
    const int t = c.thread_idx().x;
    const int i = c.block_idx().x * c.block_dim().x + t;
    c.caption("load: thread t copies in[i] into sdata[t]");
    s[t] = i < n ? T(in[i]) : T(0);
    c.sync();
    for (int stride = 1; stride < c.block_dim().x; stride *= 2) {
      c.caption("stride %d: thread t adds sdata[%d*t + %d] into sdata[%d*t]: lanes collide in banks", stride,
                2 * stride, stride, 2 * stride);
      const int index = 2 * stride * t;
      if (index < c.block_dim().x) s[index] += s[index + stride];
      c.sync();
    }
    c.caption("store: thread 0 writes the block's sum sdata[0] to out[block]");
    if (t == 0) out[c.block_idx().x] = s[0];
  }
};

// Rungs 3 and 4: halving strides from the top, so consecutive lanes touch consecutive words.
// Rung 4 (`add_on_load`) has each block cover twice its threads and adds two elements on the load.
struct ReduceSequentialKernel {
  bool add_on_load = false;
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array in, Array out, int n) const {
    using T = value_of<Array>;
    auto s = shared_array<T>(c, c.block_dim().x, "sdata");
    const int t = c.thread_idx().x;
    if (add_on_load) {
      c.caption("load: thread t adds in[i] and in[i + blockDim] into sdata[t]");
      s[t] = load_and_add_pair(c, in, n, c.block_dim().x);
    } else {
      c.caption("load: thread t copies in[i] into sdata[t]");
      const int i = c.block_idx().x * c.block_dim().x + t;
      s[t] = i < n ? T(in[i]) : T(0);
    }
    c.sync();
    for (int stride = c.block_dim().x / 2; stride > 0; stride /= 2) {
      c.caption("stride %d: threads t < %d add sdata[t + %d]: consecutive lanes, consecutive banks", stride, stride,
                stride);
      if (t < stride) s[t] += s[t + stride];
      c.sync();
    }
    c.caption("store: thread 0 writes the block's sum sdata[0] to out[block]");
    if (t == 0) out[c.block_idx().x] = s[0];
  }
};

// The last 32 threads' steps, shared by rungs 5 to 7: one warp, __syncwarp() between steps
// instead of block barriers (without it nothing orders one lane's write before another's read).
template <class Ctx, class Shared>
SYNCSCOPE_DEVICE void reduce_last_warp(Ctx& c, Shared s, int from_stride) {
  const int t = c.thread_idx().x;
  c.caption("the last warp finishes alone, halving the stride with __syncwarp() between steps");
  if (t < kWarpSize) {
    for (int stride = from_stride; stride > 0; stride /= 2) {
      if (t < stride) s[t] += s[t + stride];
      c.sync_warp();
    }
  }
}

// Rung 5: rung 4 with the last warp unrolled.
struct ReduceUnrollLastWarpKernel {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array in, Array out, int n) const {
    using T = value_of<Array>;
    auto s = shared_array<T>(c, c.block_dim().x, "sdata");
    const int t = c.thread_idx().x;
    c.caption("load: thread t adds in[i] and in[i + blockDim] into sdata[t]");
    s[t] = load_and_add_pair(c, in, n, c.block_dim().x);
    c.sync();
    for (int stride = c.block_dim().x / 2; stride > kWarpSize; stride /= 2) {
      c.caption("stride %d: threads t < %d add sdata[t + %d]", stride, stride, stride);
      if (t < stride) s[t] += s[t + stride];
      c.sync();
    }
    reduce_last_warp(c, s, kWarpSize);
    if (t == 0) out[c.block_idx().x] = s[0];
  }
};

// Rungs 6 and 7: the block size is a compile-time constant, so every loop is unrolled and every
// `if` on the size disappears. Rung 7 (`grid_stride`) launches a fixed grid whose threads first
// add up many elements each, walking the input a whole grid apart.
template <int kBlock>
struct ReduceCompleteUnrollKernel {
  bool grid_stride = false;
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array in, Array out, int n) const {
    using T = value_of<Array>;
    auto s = shared_array<T>(c, kBlock, "sdata");
    const int t = c.thread_idx().x;
    T v = T(0);
    if (grid_stride) {
      c.caption("load: thread t adds up in[i], in[i + blockDim], then a whole grid further, to the end");
      for (int i = c.block_idx().x * 2 * kBlock + t; i < n; i += 2 * kBlock * c.grid_dim().x) {
        v += in[i];
        if (i + kBlock < n) v += in[i + kBlock];
      }
    } else {
      c.caption("load: thread t adds in[i] and in[i + blockDim] into sdata[t]");
      v = load_and_add_pair(c, in, n, kBlock);
    }
    s[t] = v;
    c.sync();
    if constexpr (kBlock >= 1024) {
      if (t < 512) s[t] += s[t + 512];
      c.sync();
    }
    if constexpr (kBlock >= 512) {
      if (t < 256) s[t] += s[t + 256];
      c.sync();
    }
    if constexpr (kBlock >= 256) {
      if (t < 128) s[t] += s[t + 128];
      c.sync();
    }
    if constexpr (kBlock >= 128) {
      c.caption("unrolled: no loop counter, no stride arithmetic; the last warp then finishes alone");
      if (t < 64) s[t] += s[t + 64];
      c.sync();
    }
    reduce_last_warp(c, s, kWarpSize);
    if (t == 0) out[c.block_idx().x] = s[0];
  }
};

// Rung 8: 16-byte loads walk the input a grid apart; sums move between lanes by shuffles, so the
// block needs one barrier and 32 shared cells instead of log2(blockDim) barriers.
struct ReduceShuffleVec4Kernel {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array in, Array out, int n) const {
    using T = value_of<Array>;
    auto warp_sums = shared_array<T, kWarpSize>(c, "warp_sums");
    const int t = c.thread_idx().x;
    c.caption("load: thread g adds up 4 elements at a time (one 16-byte load), a whole grid apart");
    T v = grid_stride_vec4_sum(c, in, n);
    c.caption("shuffles: each warp sums its lanes in registers; the first warp sums the warp sums");
    v = block_sum(c, v, warp_sums);
    c.caption("the first warp adds up the warp sums; thread 0 writes the block's sum to out[block]");
    if (t == 0) out[c.block_idx().x] = v;
  }
};

inline constexpr int kReduceLoadsInFlight = 4;  // rung 9's 16-byte loads per thread before it adds

// Rung 9: rung 8 in one launch, four loads in flight per thread. Each block publishes its sum and
// takes a ticket; the block that draws the last ticket knows every sum is there and adds them up
// (in block order, so the result does not depend on which block finished last).
struct ReduceSinglePassKernel {
  template <class Ctx, class Array>
  SYNCSCOPE_DEVICE void operator()(Ctx& c, Array in, Array block_sums, Array tickets, Array out, int n) const {
    using T = value_of<Array>;
    auto warp_sums = shared_array<T, kWarpSize>(c, "warp_sums");
    auto last_block = shared_array<T, 1>(c, "last_block");
    const int t = c.thread_idx().x;
    c.caption("load: thread g issues four 16-byte loads a whole grid apart, then adds their 16 elements");
    T v = grid_stride_vec4_sum<kReduceLoadsInFlight>(c, in, n);
    v = block_sum(c, v, warp_sums);
    c.caption("publish: thread 0 stores the block's sum, fences, and draws a ticket");
    if (t == 0) {
      c.atomic_store(block_sums[c.block_idx().x], v);
      c.fence();  // the sum is visible before the ticket says so
      const T ticket = c.atomic_add(tickets[0], T(1));
      last_block[0] = ticket == T(c.grid_dim().x - 1) ? T(1) : T(0);
    }
    c.sync();
    if (last_block[0] == T(1)) {
      c.caption("the block with the last ticket adds up every block's sum");
      c.fence();
      T total = T(0);
      for (int b = t; b < c.grid_dim().x; b += c.block_dim().x) total += c.atomic_load(block_sums[b]);
      total = block_sum(c, total, warp_sums);
      c.caption("the first warp adds up the warp sums; thread 0 writes the total and resets the ticket counter");
      if (t == 0) {
        out[0] = total;
        c.atomic_store(tickets[0], T(0));  // ready for the next run without a memset
      }
    }
  }
};

// ---- host code ----

inline constexpr int kReduceGridStrideBlocks = 1024;  // rungs 7 and 8: enough to fill an H100 (132 SMs x 8)
// Rung 9's grid: 4 blocks of 512 threads on each of an H100's 132 SMs, so every thread is resident
// from the start and no block waits for a second wave (measured against 264, 1056 and 2112).
inline constexpr int kSinglePassBlocks = 528;

// Reduces level by level: each launch leaves one sum per block, which the next level reduces,
// until one value is left. `blocks_for(count)` is the grid a level of `count` elements gets.
template <class Runtime, class Kernel, class BlocksFor>
void reduce_in_levels(Runtime& rt, const Problem& p, Kernel kernel, BlocksFor blocks_for, const std::string& label) {
  auto current = rt.input();
  int count = p.n;
  int level = 0;
  do {
    const int blocks = blocks_for(count);
    const std::string l = std::to_string(level++);
    auto sums = rt.alloc("block_sums_" + l, blocks);
    rt.launch(label + " (level " + l + ")", kernel, Dim3{blocks}, Dim3{p.tpb}, shared_bytes_for(p.tpb), current, sums,
              count);
    current = sums;
    count = blocks;
  } while (count > 1);
  rt.set_output(current, 1);
}

inline CheckResult reduce_ladder_check(const Problem& p, int min_tpb, const char* why) {
  if (p.tpb < min_tpb || p.tpb > 1024 || (p.tpb & (p.tpb - 1)))
    return ProblemError{ProblemField::Tpb, "this rung needs a power of two from " + std::to_string(min_tpb) +
                                               " to 1024 (" + why + ")"};
  return {};
}

// What every rung shares: the group, the whole-input reference and the ladder's defaults.
struct ReduceRung {
  static constexpr const char* kGroup = "reduction ladder";
  static AlgoInfo rung(const char* name, const char* title, const char* what_changed, int tpb = 64) {
    return {name, kGroup, title, what_changed,
            "Harris, 'Optimizing Parallel Reduction in CUDA' (NVIDIA, 2007); rungs 8 and 9 as CUB does it",
            Problem{4 * tpb, 1, tpb, DType::Int32}, false, {"kernels/reduce_ladder.h", "kernels/warp_primitives.h"}};
  }
  static std::vector<double> reference(const Problem& p, const std::vector<double>& input) {
    return reference::segment_sums(p.dtype, input, p.n > 0 ? p.n : 1);
  }
  // Rungs 1-4: any power of two from 2 (rungs 5-9 say what they need).
  static CheckResult check(const Problem& p) { return reduce_ladder_check(p, 2, "the tree halves the block"); }
  // A level's grid when each thread covers `per_thread` elements, at most `most` blocks (the
  // grid-stride rungs loop over the rest).
  static auto blocks_covering(const Problem& p, int per_thread, int most = 1 << 30) {
    return [tpb = p.tpb, per_thread, most](int n) { return std::min(ceil_div(n, per_thread * tpb), most); };
  }
};

struct ReduceInterleavedDivergent : ReduceRung {
  static AlgoInfo info() {
    return rung("reduce-1-interleaved", "Reduction 1: interleaved addressing, divergent branch",
                "The textbook tree: at stride s, threads whose index is a multiple of 2s add in the element s "
                "away. Only one lane in 2s does work, but every warp with one working lane runs the "
                "instruction, and the % is slow: the warps are busy and mostly idle.");
  }
  template <class Runtime>
  static void run(Runtime& rt, const Problem& p) {
    reduce_in_levels(rt, p, ReduceInterleavedDivergentKernel{}, blocks_covering(p, 1),
                     "reduce_interleaved_divergent");
  }
};

struct ReduceInterleavedStrided : ReduceRung {
  static AlgoInfo info() {
    return rung("reduce-2-strided-index", "Reduction 2: interleaved addressing, strided index",
                "The same tree, but thread t works on index 2st: the working threads are the lowest ones, so "
                "whole warps work or skip together and no branch diverges. The price is bank conflicts: "
                "lanes 2s words apart land in the same bank, 2-way at stride 1 and up to 32-way at TPB 1024.");
  }
  template <class Runtime>
  static void run(Runtime& rt, const Problem& p) {
    reduce_in_levels(rt, p, ReduceInterleavedStridedKernel{}, blocks_covering(p, 1),
                     "reduce_interleaved_strided");
  }
};

struct ReduceSequential : ReduceRung {
  static AlgoInfo info() {
    return rung("reduce-3-sequential", "Reduction 3: sequential addressing",
                "The stride halves from the top instead (blockDim/2, then /4...): threads t < s add in the "
                "element s away. Consecutive lanes read consecutive words, one per bank: no conflicts, no "
                "divergence until fewer than 32 threads work. Half of the threads still only load.");
  }
  template <class Runtime>
  static void run(Runtime& rt, const Problem& p) {
    reduce_in_levels(rt, p, ReduceSequentialKernel{false}, blocks_covering(p, 1),
                     "reduce_sequential");
  }
};

struct ReduceFirstAddOnLoad : ReduceRung {
  static AlgoInfo info() {
    return rung("reduce-4-add-on-load", "Reduction 4: first add during load",
                "Each block covers twice its threads, and every thread adds two elements while loading. Half "
                "as many blocks do the same work, and no thread of the first step sits idle.");
  }
  template <class Runtime>
  static void run(Runtime& rt, const Problem& p) {
    reduce_in_levels(rt, p, ReduceSequentialKernel{true}, blocks_covering(p, 2),
                     "reduce_add_on_load");
  }
};

struct ReduceUnrollLastWarp : ReduceRung {
  static AlgoInfo info() {
    return rung("reduce-5-unroll-last-warp", "Reduction 5: last warp unrolled",
                "When 32 or fewer threads are left they are one warp: the last six steps need no block "
                "barrier, only __syncwarp() between steps (Harris relied on volatile and implicit lockstep, "
                "which Volta's independent thread scheduling broke). Fewer barriers, fewer loop tests.");
  }
  static CheckResult check(const Problem& p) { return reduce_ladder_check(p, 64, "the last warp adds 32 away"); }
  template <class Runtime>
  static void run(Runtime& rt, const Problem& p) {
    reduce_in_levels(rt, p, ReduceUnrollLastWarpKernel{}, blocks_covering(p, 2),
                     "reduce_unroll_last_warp");
  }
};

// Rungs 6 and 7 instantiate their kernel for each block size (Harris's template<blockSize>).
template <class Runtime, class BlocksFor>
void reduce_complete_unroll(Runtime& rt, const Problem& p, bool grid_stride, BlocksFor blocks_for,
                            const std::string& label) {
  switch (p.tpb) {
    case 64: return reduce_in_levels(rt, p, ReduceCompleteUnrollKernel<64>{grid_stride}, blocks_for, label);
    case 128: return reduce_in_levels(rt, p, ReduceCompleteUnrollKernel<128>{grid_stride}, blocks_for, label);
    case 256: return reduce_in_levels(rt, p, ReduceCompleteUnrollKernel<256>{grid_stride}, blocks_for, label);
    case 512: return reduce_in_levels(rt, p, ReduceCompleteUnrollKernel<512>{grid_stride}, blocks_for, label);
    default: return reduce_in_levels(rt, p, ReduceCompleteUnrollKernel<1024>{grid_stride}, blocks_for, label);
  }
}

struct ReduceCompleteUnroll : ReduceRung {
  static AlgoInfo info() {
    return rung("reduce-6-complete-unroll", "Reduction 6: completely unrolled",
                "The block size becomes a template parameter, so the compiler unrolls every step and drops "
                "the loop counter, the stride arithmetic and the tests that depend only on the block size.");
  }
  static CheckResult check(const Problem& p) { return reduce_ladder_check(p, 64, "one kernel per block size"); }
  template <class Runtime>
  static void run(Runtime& rt, const Problem& p) {
    reduce_complete_unroll(rt, p, false, blocks_covering(p, 2), "reduce_complete_unroll");
  }
};

struct ReduceMultiplePerThread : ReduceRung {
  static AlgoInfo info() {
    return rung("reduce-7-grid-stride", "Reduction 7: many elements per thread",
                "A fixed grid (at most 1024 blocks) whose threads each add up many elements, a whole grid "
                "apart, before the tree: the tree's barriers and idle lanes are paid once per block instead "
                "of once per 2·blockDim elements, and the loads stream back to back.");
  }
  static CheckResult check(const Problem& p) { return reduce_ladder_check(p, 64, "one kernel per block size"); }
  template <class Runtime>
  static void run(Runtime& rt, const Problem& p) {
    reduce_complete_unroll(rt, p, true, blocks_covering(p, 2, kReduceGridStrideBlocks), "reduce_grid_stride");
  }
};

struct ReduceShuffleVec4 : ReduceRung {
  static AlgoInfo info() {
    return rung("reduce-8-shuffle-vec4", "Reduction 8: warp shuffles and 16-byte loads",
                "Each thread loads four elements per instruction (int4/float4), and warps sum in registers "
                "with __shfl_down_sync: one barrier and 32 shared cells per block instead of a shared tree. "
                "Fewer, wider memory instructions keep more bytes in flight.");
  }
  static CheckResult check(const Problem& p) { return whole_warps_check(p); }
  template <class Runtime>
  static void run(Runtime& rt, const Problem& p) {
    reduce_in_levels(rt, p, ReduceShuffleVec4Kernel{}, blocks_covering(p, 4, kReduceGridStrideBlocks),
                     "reduce_shuffle_vec4");
  }
};

struct ReduceSinglePass : ReduceRung {
  static AlgoInfo info() {
    return rung("reduce-9-single-pass", "Reduction 9: one launch, last block finishes",
                "Rung 8 in a single launch: each block publishes its sum and takes a ticket with atomicAdd; "
                "the block that draws the last ticket adds up all the sums and sets the ticket counter back "
                "to 0, so no launch and no memset come before the next run. Each thread issues four 16-byte "
                "loads before adding any (more bytes in flight), and the grid is 4 blocks of 512 threads an "
                "SM of an H100, all resident at once.");
  }
  static CheckResult check(const Problem& p) { return whole_warps_check(p); }
  template <class Runtime>
  static void run(Runtime& rt, const Problem& p) {
    const int blocks = std::max(1, blocks_covering(p, 4 * kReduceLoadsInFlight, kSinglePassBlocks)(p.n));
    auto block_sums = rt.alloc("block_sums", blocks);
    auto tickets = rt.alloc_zeroed_once("tickets", 1);  // the last block sets it back to 0
    auto out = rt.alloc("sum", 1);
    rt.launch("reduce_single_pass", ReduceSinglePassKernel{}, Dim3{blocks}, Dim3{p.tpb},
              shared_bytes_for(kWarpSize, 1), rt.input(), block_sums, tickets, out, p.n);
    rt.set_output(out, 1);
  }
};

}  // namespace syncscope::kernels
