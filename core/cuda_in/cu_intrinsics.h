// CUDA's math and integer intrinsics on the CPU, for device code of a translated .cu (included by
// cu_device.h at file scope, where CUDA declares them). The fast ones (__sinf, __logf, __powf, ...)
// are computed exactly here; the GPU's approximations can differ from these in the last bits.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <ctime>

inline float __expf(float x) { return std::exp(x); }
inline float __fdividef(float x, float y) { return x / y; }
inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
inline double rsqrt(double x) { return 1.0 / std::sqrt(x); }
inline float __sinf(float x) { return std::sin(x); }
inline float __cosf(float x) { return std::cos(x); }
inline float __tanf(float x) { return std::tan(x); }
inline float __logf(float x) { return std::log(x); }
inline float __log2f(float x) { return std::log2(x); }
inline float __log10f(float x) { return std::log10(x); }
inline float __powf(float x, float y) { return std::pow(x, y); }
inline float __exp10f(float x) { return std::pow(10.0f, x); }
inline void __sincosf(float x, float* s, float* c) { *s = std::sin(x), *c = std::cos(x); }
inline float __saturatef(float x) { return x >= 1.0f ? 1.0f : x > 0.0f ? x : 0.0f; }  // NaN -> 0
inline float __fmaf_rn(float x, float y, float z) { return std::fma(x, y, z); }
inline float __fadd_rn(float x, float y) { return x + y; }
inline float __fmul_rn(float x, float y) { return x * y; }
inline float __fdiv_rn(float x, float y) { return x / y; }
inline int __float2int_rn(float x) { return static_cast<int>(std::nearbyint(x)); }  // ties to even
inline int __float2int_rz(float x) { return static_cast<int>(x); }
inline int __float2int_rd(float x) { return static_cast<int>(std::floor(x)); }
inline int __float2int_ru(float x) { return static_cast<int>(std::ceil(x)); }
inline unsigned int __float2uint_rn(float x) { return static_cast<unsigned int>(std::nearbyint(x)); }
inline float __int2float_rn(int x) { return static_cast<float>(x); }
inline float __uint2float_rn(unsigned int x) { return static_cast<float>(x); }
inline int __float_as_int(float x) { return std::bit_cast<int>(x); }
inline float __int_as_float(int x) { return std::bit_cast<float>(x); }
inline unsigned int __float_as_uint(float x) { return std::bit_cast<unsigned int>(x); }
inline float __uint_as_float(unsigned int x) { return std::bit_cast<float>(x); }
inline long long __double_as_longlong(double x) { return std::bit_cast<long long>(x); }
inline double __longlong_as_double(long long x) { return std::bit_cast<double>(x); }
// 24-bit multiplies: the low 24 bits of each operand (signed for __mul24), the low 32 bits of the product.
inline int __mul24(int x, int y) {
  const int64_t a = static_cast<int32_t>(static_cast<uint32_t>(x) << 8) >> 8, b = static_cast<int32_t>(static_cast<uint32_t>(y) << 8) >> 8;
  return static_cast<int>(static_cast<uint32_t>(a * b));
}
inline unsigned int __umul24(unsigned int x, unsigned int y) { return (x & 0xffffffu) * (y & 0xffffffu); }
inline int __mulhi(int x, int y) { return static_cast<int>((static_cast<int64_t>(x) * y) >> 32); }
inline unsigned int __umulhi(unsigned int x, unsigned int y) { return static_cast<unsigned int>((static_cast<uint64_t>(x) * y) >> 32); }
inline unsigned int __sad(int x, int y, unsigned int z) {
  return static_cast<unsigned int>(x > y ? static_cast<int64_t>(x) - y : static_cast<int64_t>(y) - x) + z;
}
inline unsigned int __usad(unsigned int x, unsigned int y, unsigned int z) { return (x > y ? x - y : y - x) + z; }
inline unsigned int umin(unsigned int x, unsigned int y) { return x < y ? x : y; }
inline unsigned int umax(unsigned int x, unsigned int y) { return x < y ? y : x; }
inline long long llmin(long long x, long long y) { return x < y ? x : y; }
inline long long llmax(long long x, long long y) { return x < y ? y : x; }
inline float __double2float_rn(double x) { return static_cast<float>(x); }
inline int __double2int_rn(double x) { return static_cast<int>(std::nearbyint(x)); }
inline double __int2double_rn(int x) { return static_cast<double>(x); }
inline int __popc(unsigned int x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz(static_cast<unsigned>(x)); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline unsigned int __brev(unsigned int x) {
  unsigned int r = 0;
  for (int k = 0; k < 32; ++k) r |= ((x >> k) & 1u) << (31 - k);
  return r;
}
inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll(static_cast<unsigned long long>(x)); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline unsigned long long __brevll(unsigned long long x) {
  return static_cast<unsigned long long>(__brev(static_cast<unsigned int>(x))) << 32 | __brev(static_cast<unsigned int>(x >> 32));
}
inline float __fsub_rn(float x, float y) { return x - y; }
inline float __frcp_rn(float x) { return 1.0f / x; }
inline float __fsqrt_rn(float x) { return std::sqrt(x); }
inline double __dadd_rn(double x, double y) { return x + y; }
inline double __dmul_rn(double x, double y) { return x * y; }
inline double __ddiv_rn(double x, double y) { return x / y; }
inline double __drcp_rn(double x) { return 1.0 / x; }
inline double __dsqrt_rn(double x) { return std::sqrt(x); }
inline int __double2int_rz(double x) { return static_cast<int>(x); }
inline int __double2int_rd(double x) { return static_cast<int>(std::floor(x)); }
inline int __double2int_ru(double x) { return static_cast<int>(std::ceil(x)); }
inline unsigned int __double2uint_rn(double x) { return static_cast<unsigned int>(std::nearbyint(x)); }
inline long long __double2ll_rn(double x) { return std::llrint(x); }
inline long long __float2ll_rn(float x) { return std::llrint(x); }
inline long long __float2ll_rz(float x) { return static_cast<long long>(x); }
inline double __ll2double_rn(long long x) { return static_cast<double>(x); }
inline float __ll2float_rn(long long x) { return static_cast<float>(x); }
// Halving adds without overflow: the sum is taken in 64 bits, as the GPU's wider adder does.
inline int __hadd(int x, int y) { return static_cast<int>((static_cast<int64_t>(x) + y) >> 1); }
inline int __rhadd(int x, int y) { return static_cast<int>((static_cast<int64_t>(x) + y + 1) >> 1); }
inline unsigned int __uhadd(unsigned int x, unsigned int y) { return static_cast<unsigned int>((uint64_t{x} + y) >> 1); }
inline unsigned int __urhadd(unsigned int x, unsigned int y) { return static_cast<unsigned int>((uint64_t{x} + y + 1) >> 1); }
// Byte k of the result is byte (selector >> 4k) & 7 of the eight bytes y:x.
inline unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int selector) {
  const uint64_t bytes = uint64_t{y} << 32 | x;
  unsigned int r = 0;
  for (int k = 0; k < 4; ++k) r |= static_cast<unsigned int>((bytes >> (8 * ((selector >> (4 * k)) & 7))) & 0xffu) << (8 * k);
  return r;
}
// Funnel shifts of the 64 bits high:low; _l and _r take the shift mod 32, _lc and _rc clamp it at 32.
inline unsigned int __funnelshift_l(unsigned int low, unsigned int high, unsigned int shift) {
  return static_cast<unsigned int>((uint64_t{high} << 32 | low) << (shift & 31) >> 32);
}
inline unsigned int __funnelshift_lc(unsigned int low, unsigned int high, unsigned int shift) {
  return static_cast<unsigned int>((uint64_t{high} << 32 | low) << (shift < 32 ? shift : 32) >> 32);
}
inline unsigned int __funnelshift_r(unsigned int low, unsigned int high, unsigned int shift) {
  return static_cast<unsigned int>((uint64_t{high} << 32 | low) >> (shift & 31));
}
inline unsigned int __funnelshift_rc(unsigned int low, unsigned int high, unsigned int shift) {
  return static_cast<unsigned int>((uint64_t{high} << 32 | low) >> (shift < 32 ? shift : 32));
}
inline long long __mul64hi(long long x, long long y) { return static_cast<long long>((static_cast<__int128>(x) * y) >> 64); }
inline unsigned long long __umul64hi(unsigned long long x, unsigned long long y) {
  return static_cast<unsigned long long>((static_cast<unsigned __int128>(x) * y) >> 64);
}
// CUDA's math functions that the C library does not have.
inline float sinpif(float x) { return static_cast<float>(std::sin(3.14159265358979323846 * x)); }
inline float cospif(float x) { return static_cast<float>(std::cos(3.14159265358979323846 * x)); }
inline float normcdff(float x) { return 0.5f * std::erfc(-x / std::sqrt(2.0f)); }
inline float rhypotf(float x, float y) { return 1.0f / std::hypot(x, y); }
inline float norm3df(float x, float y, float z) { return static_cast<float>(std::sqrt(double{x} * x + double{y} * y + double{z} * z)); }
inline float rnorm3df(float x, float y, float z) { return 1.0f / norm3df(x, y, z); }
inline double norm3d(double x, double y, double z) { return std::hypot(x, y, z); }
inline double rnorm3d(double x, double y, double z) { return 1.0 / std::hypot(x, y, z); }
// SIMD video intrinsics: each byte (4) or half-word (2) is its own unsigned lane; sums wrap in it.
template <int Lanes, class F>
unsigned int syncscope_simd(unsigned int x, unsigned int y, F op) {
  constexpr int bits = 32 / Lanes;
  constexpr unsigned int mask = (1u << bits) - 1u;
  unsigned int r = 0;
  for (int k = 0; k < Lanes; ++k) r |= (op((x >> (k * bits)) & mask, (y >> (k * bits)) & mask) & mask) << (k * bits);
  return r;
}
inline unsigned int __vadd4(unsigned int x, unsigned int y) { return syncscope_simd<4>(x, y, [](unsigned a, unsigned b) { return a + b; }); }
inline unsigned int __vsub4(unsigned int x, unsigned int y) { return syncscope_simd<4>(x, y, [](unsigned a, unsigned b) { return a - b; }); }
inline unsigned int __vadd2(unsigned int x, unsigned int y) { return syncscope_simd<2>(x, y, [](unsigned a, unsigned b) { return a + b; }); }
inline unsigned int __vsub2(unsigned int x, unsigned int y) { return syncscope_simd<2>(x, y, [](unsigned a, unsigned b) { return a - b; }); }
inline unsigned int __vabsdiffu4(unsigned int x, unsigned int y) {
  return syncscope_simd<4>(x, y, [](unsigned a, unsigned b) { return a > b ? a - b : b - a; });
}
inline unsigned int __vabsdiffu2(unsigned int x, unsigned int y) {
  return syncscope_simd<2>(x, y, [](unsigned a, unsigned b) { return a > b ? a - b : b - a; });
}

// clock64() and clock() in device code (the translator passes the thread's context): the thread's
// own clock (sim::BlockRunner::clock_read), not the GPU's cycles; clock() is its low 32 bits.
namespace syncscope::cu {
template <class Ctx>
long long clock64(Ctx& c) {
  return static_cast<long long>(c.runner().clock_read());
}
template <class Ctx>
clock_t clock32(Ctx& c) {
  return static_cast<clock_t>(static_cast<uint32_t>(c.runner().clock_read()));
}
}  // namespace syncscope::cu
