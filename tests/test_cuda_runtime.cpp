// The CUDA runtime a translated .cu runs on (core/cuda_in/): 8-byte elements and structs in the
// simulator's 32-bit cells, bit for bit as a GPU holds them, with their atomics, shuffles and races.
// The kernels are written as syncscope-translate writes a student's (templates over the context,
// `g[i] ->* &S::field` for `g[i].field`); the expected values are computed here on the CPU.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "core/cuda_in/cu_runtime.h"

namespace {

using namespace syncscope;
template <class E, class Ctx>
using dptr = cu::ptr<E, cu::same<Ctx>>;

template <class Ctx>
void copy_doubles(Ctx& _c, dptr<const double, Ctx> from, dptr<double, Ctx> to) {
  const unsigned t = cu::thread_idx(_c).x;
  to[t] = from[t];
}

TEST(CudaRuntime, DoublesKeepEveryBitThroughCopiesLoadsAndStores) {
  const std::vector<double> values = {-0.0, 4.9e-324, DBL_MAX, -1.5, std::numeric_limits<double>::quiet_NaN(), 1e-310,
                                      3.141592653589793, -std::numeric_limits<double>::infinity()};
  std::vector<double> back(values.size());
  const SimOutcome out = cu::simulate_program(
      [&] {
        double *from = nullptr, *to = nullptr;
        cudaMalloc(&from, values.size() * sizeof(double));
        cudaMalloc(&to, values.size() * sizeof(double));
        cudaMemcpy(from, values.data(), values.size() * sizeof(double), cudaMemcpyHostToDevice);
        cu::launch([](auto& _c, auto... a) { copy_doubles(_c, a...); }, "copy_doubles", 1, 8, 0)(from, to);
        cudaMemcpy(back.data(), to, values.size() * sizeof(double), cudaMemcpyDeviceToHost);
        return 0;
      },
      sim::SimOptions{});
  EXPECT_EQ(std::memcmp(values.data(), back.data(), values.size() * sizeof(double)), 0);
  EXPECT_TRUE(out.trace.hazards.empty());
}

template <class Ctx>
void wide_atomics(Ctx& _c, dptr<double, Ctx> sum, dptr<unsigned long long, Ctx> count, dptr<long long, Ctx> extremes,
                  dptr<unsigned long long, Ctx> ticket, dptr<unsigned, Ctx> top) {
  const unsigned t = cu::thread_idx(_c).x;
  atomicAdd(sum, 0.25 * t);
  atomicAdd(count, 0xffffffffull);  // carries into the high word
  atomicMax(extremes, -(1ll << 40) + t);
  atomicMin(extremes + 1, static_cast<long long>(t) - (1ll << 35));
  // a ticket lock taken with atomicCAS: each thread bumps it exactly once
  unsigned long long seen = 0;  // any first guess: atomicCAS returns what is there
  while (true) {
    const unsigned long long old = atomicCAS(ticket, seen, seen + (1ull << 32) + 1);
    if (old == seen) break;
    seen = old;
  }
  atomicMax(top, 0x80000000u + t);  // above INT_MAX: compared as unsigned
}

TEST(CudaRuntime, AtomicsOnEightByteValuesAreExact) {
  double sum = -1;
  unsigned long long count = 0, ticket = 0;
  long long extremes[2] = {};
  unsigned top = 0;
  const int threads = 64;
  const SimOutcome out = cu::simulate_program(
      [&] {
        double* d_sum = nullptr;
        unsigned long long *d_count = nullptr, *d_ticket = nullptr;
        long long* d_extremes = nullptr;
        unsigned* d_top = nullptr;
        cudaMalloc(&d_sum, sizeof(double));
        cudaMalloc(&d_count, sizeof count);
        cudaMalloc(&d_ticket, sizeof ticket);
        cudaMalloc(&d_extremes, sizeof extremes);
        cudaMalloc(&d_top, sizeof top);
        cudaMemset(d_sum, 0, sizeof(double));
        cudaMemset(d_count, 0, sizeof count);
        cudaMemset(d_ticket, 0, sizeof ticket);
        const long long start[2] = {std::numeric_limits<long long>::min(), std::numeric_limits<long long>::max()};
        cudaMemcpy(d_extremes, start, sizeof start, cudaMemcpyHostToDevice);
        cudaMemset(d_top, 0, sizeof top);
        cu::launch([](auto& _c, auto... a) { wide_atomics(_c, a...); }, "wide_atomics", 2, threads / 2, 0)(
            d_sum, d_count, d_extremes, d_ticket, d_top);
        cudaMemcpy(&sum, d_sum, sizeof sum, cudaMemcpyDeviceToHost);
        cudaMemcpy(&count, d_count, sizeof count, cudaMemcpyDeviceToHost);
        cudaMemcpy(&ticket, d_ticket, sizeof ticket, cudaMemcpyDeviceToHost);
        cudaMemcpy(extremes, d_extremes, sizeof extremes, cudaMemcpyDeviceToHost);
        cudaMemcpy(&top, d_top, sizeof top, cudaMemcpyDeviceToHost);
        return 0;
      },
      sim::SimOptions{});
  double expected_sum = 0;
  for (int t = 0; t < threads / 2; ++t) expected_sum += 2 * 0.25 * t;  // two blocks of threads/2
  EXPECT_EQ(sum, expected_sum);
  EXPECT_EQ(count, 0xffffffffull * threads);
  EXPECT_EQ(ticket, (1ull << 32) * threads + threads);
  EXPECT_EQ(extremes[0], -(1ll << 40) + threads / 2 - 1);
  EXPECT_EQ(extremes[1], -(1ll << 35));
  EXPECT_EQ(top, 0x80000000u + threads / 2 - 1);
  EXPECT_TRUE(out.trace.hazards.empty());
}

struct Particle {
  double x;
  long long hits;
  int id;
  float weight;
};

template <class Ctx>
void particles(Ctx& _c, dptr<Particle, Ctx> p, dptr<const Particle, Ctx> in) {
  const unsigned t = cu::thread_idx(_c).x;
  Particle mine = in[t];  // the whole struct
  mine.x *= 2;
  p[t] = mine;
  (p[t] ->* &Particle::id) = static_cast<int>(t) * 10;
  atomicAdd(&(p[1] ->* &Particle::hits), 1ll << 33);
  atomicAdd(&(p[1] ->* &Particle::weight), 0.5f);  // a float field in cells of whole numbers
}

TEST(CudaRuntime, StructElementsHaveFieldsWholeCopiesAndFieldAtomics) {
  std::vector<Particle> in(8), back(8);
  for (int k = 0; k < 8; ++k) in[k] = {k + 0.125, 0, -1, 1.0f + k};
  const SimOutcome out = cu::simulate_program(
      [&] {
        Particle *d_p = nullptr, *d_in = nullptr;
        cudaMalloc(&d_p, in.size() * sizeof(Particle));
        cudaMalloc(&d_in, in.size() * sizeof(Particle));
        cudaMemcpy(d_in, in.data(), in.size() * sizeof(Particle), cudaMemcpyHostToDevice);
        cu::launch([](auto& _c, auto... a) { particles(_c, a...); }, "particles", 1, 8, 0)(d_p, d_in);
        cudaMemcpy(back.data(), d_p, back.size() * sizeof(Particle), cudaMemcpyDeviceToHost);
        return 0;
      },
      sim::SimOptions{});
  for (int k = 2; k < 8; ++k) {  // p[1] is raced on
    EXPECT_EQ(back[k].x, 2 * (k + 0.125)) << k;
    EXPECT_EQ(back[k].id, k * 10) << k;
    EXPECT_EQ(back[k].weight, 1.0f + k) << k;
  }
  // p[1] is also stored whole by thread 1 in the step where the others' atomics hit two of its fields:
  // a race the detector reports on those fields' cells (p[1].hits: an 8-byte field, both cells).
  bool hits_race = false, weight_race = false;
  for (const sim::HazardGroup& g : out.trace.hazards.groups()) {
    for (int cell : g.indices) {
      hits_race = hits_race || cell == 6 + 2 || cell == 6 + 3;  // p[1].hits: cells 2 and 3 of 6 per element
      weight_race = weight_race || cell == 6 + 5;  // p[1].weight: cell 5 of its 6
    }
  }
  EXPECT_TRUE(hits_race);
  EXPECT_TRUE(weight_race);
}

template <class Ctx>
void shuffles(Ctx& _c, dptr<double, Ctx> d, dptr<long long, Ctx> ll) {
  const unsigned t = cu::thread_idx(_c).x;
  const double v = t + 0.5 + (1ll << 40);
  const long long w = -(static_cast<long long>(t) << 36) - 1;
  d[t] = cu::shfl_xor_sync(_c, 0xffffffffu, v, 1);
  ll[t] = cu::shfl_down_sync(_c, 0xffffffffu, w, 3);
}

TEST(CudaRuntime, ShufflesMoveEightByteValuesWhole) {
  std::vector<double> d(32);
  std::vector<long long> ll(32);
  cu::simulate_program(
      [&] {
        double* d_d = nullptr;
        long long* d_ll = nullptr;
        cudaMalloc(&d_d, d.size() * sizeof(double));
        cudaMalloc(&d_ll, ll.size() * sizeof(long long));
        cu::launch([](auto& _c, auto... a) { shuffles(_c, a...); }, "shuffles", 1, 32, 0)(d_d, d_ll);
        cudaMemcpy(d.data(), d_d, d.size() * sizeof(double), cudaMemcpyDeviceToHost);
        cudaMemcpy(ll.data(), d_ll, ll.size() * sizeof(long long), cudaMemcpyDeviceToHost);
        return 0;
      },
      sim::SimOptions{});
  for (int t = 0; t < 32; ++t) {
    EXPECT_EQ(d[t], (t ^ 1) + 0.5 + (1ll << 40)) << t;
    const int from = t + 3 < 32 ? t + 3 : t;  // past the warp: its own value
    EXPECT_EQ(ll[t], -(static_cast<long long>(from) << 36) - 1) << t;
  }
}

template <class Ctx>
void racy_long_long(Ctx& _c, dptr<long long, Ctx> out) {
  auto s = cu::shared_array<long long, 2, Ctx>(_c, "s (long long, 2 cells each)");
  const unsigned t = cu::thread_idx(_c).x;
  if (t == 0) s[1] = 1ll << 40;
  if (t == 1) out[0] = s[1];  // no barrier between the write and the read
}

TEST(CudaRuntime, ARaceOnALongLongIsReportedOnBothItsCells) {
  const SimOutcome out = cu::simulate_program(
      [&] {
        long long* d = nullptr;
        cudaMalloc(&d, sizeof(long long));
        cu::launch([](auto& _c, auto... a) { racy_long_long(_c, a...); }, "racy_long_long", 1, 2, 0)(d);
        return 0;
      },
      sim::SimOptions{});
  std::vector<int> cells;
  for (const sim::HazardGroup& g : out.trace.hazards.groups())
    if (g.first.kind == sim::HazardKind::ReadAfterWrite || g.first.kind == sim::HazardKind::WriteAfterRead)
      cells.insert(cells.end(), g.indices.begin(), g.indices.end());
  EXPECT_NE(std::find(cells.begin(), cells.end(), 2), cells.end());  // s[1]: cells 2 (low) and 3 (high)
  EXPECT_NE(std::find(cells.begin(), cells.end(), 3), cells.end());
}

TEST(CudaRuntime, MemsetSetsTheBytesOfEightByteElements) {
  unsigned long long back[3] = {};
  cu::simulate_program(
      [&] {
        unsigned long long* d = nullptr;
        cudaMalloc(&d, sizeof back);
        cudaMemset(d, 0, sizeof back);
        cudaMemset(d + 1, 0xab, sizeof(unsigned long long));
        cudaMemcpy(back, d, sizeof back, cudaMemcpyDeviceToHost);
        return 0;
      },
      sim::SimOptions{});
  EXPECT_EQ(back[0], 0u);
  EXPECT_EQ(back[1], 0xababababababababull);
  EXPECT_EQ(back[2], 0u);
}

}  // namespace
