// What Clang sees in place of NVIDIA's headers when it parses a student's .cu for translation: the
// CUDA attributes, the built-in variables and every intrinsic and runtime call syncscope knows, as
// declarations only (nothing here is compiled into code). Included before the student's file with
// -include; the student's own `#include <cuda_runtime.h>` finds an empty file of that name.
#pragma once

#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
// Clang 14 drops CUDA's `managed` attribute: an annotation the translator refuses by (rewrite_rules.cpp).
#define __managed__ __attribute__((annotate("__managed__")))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __restrict__ __restrict
#define __align__(n) __attribute__((aligned(n)))

// printf, memcpy and memset may be called from a kernel: device declarations beside the host's.
extern "C" {
__device__ int printf(const char* format, ...);
__device__ void* memcpy(void* to, const void* from, __SIZE_TYPE__ bytes);
__device__ void* memset(void* to, int value, __SIZE_TYPE__ bytes);
// What <assert.h>'s assert() calls when its test fails, in device code as CUDA declares it.
__device__ void __assert_fail(const char* test, const char* file, unsigned int line, const char* function);
}
#include <stddef.h>
// nvcc's implicit cuda_runtime.h brings the C library's math, stdlib and limits (INT_MAX) to host
// code too.
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <time.h>

// The math a kernel may call, as device overloads beside the host's <math.h>.
__device__ float sqrtf(float x);
__device__ float fabsf(float x);
__device__ float expf(float x);
__device__ float logf(float x);
__device__ float powf(float x, float y);
__device__ float floorf(float x);
__device__ float ceilf(float x);
__device__ float fminf(float x, float y);
__device__ float fmaxf(float x, float y);
__device__ float rsqrtf(float x);
__device__ double sqrt(double x);
__device__ double fabs(double x);
__device__ int abs(int x);
__device__ double fmax(double x, double y);
__device__ double fmin(double x, double y);
__device__ double floor(double x);
__device__ double exp(double x);
__device__ double log(double x);
__device__ double pow(double x, double y);
__device__ float sinf(float x);
__device__ float cosf(float x);
__device__ float tanhf(float x);
__device__ float __expf(float x);
__device__ float __fdividef(float x, float y);
// More of CUDA's math: the C library's, and its intrinsics (core/cuda_in/cu_device.h computes the
// fast ones, __sinf and the like, exactly: the GPU's approximations can differ in the last bits).
__device__ float fmaf(float x, float y, float z);
__device__ float truncf(float x);
__device__ float roundf(float x);
__device__ float rintf(float x);
__device__ float copysignf(float x, float y);
__device__ float fmodf(float x, float y);
__device__ float exp2f(float x);
__device__ float log2f(float x);
__device__ float log10f(float x);
__device__ float tanf(float x);
__device__ float asinf(float x);
__device__ float acosf(float x);
__device__ float atanf(float x);
__device__ float atan2f(float y, float x);
__device__ float sinhf(float x);
__device__ float coshf(float x);
__device__ float hypotf(float x, float y);
__device__ float cbrtf(float x);
__device__ float erff(float x);
__device__ void sincosf(float x, float* s, float* c);
__device__ double sin(double x);
__device__ double cos(double x);
__device__ double tan(double x);
__device__ double fma(double x, double y, double z);
__device__ double trunc(double x);
__device__ double round(double x);
__device__ double ceil(double x);
__device__ double fmod(double x, double y);
__device__ double atan2(double y, double x);
__device__ double log2(double x);
__device__ double exp2(double x);
__device__ double rsqrt(double x);
__device__ float __sinf(float x);
__device__ float __cosf(float x);
__device__ float __tanf(float x);
__device__ float __logf(float x);
__device__ float __log2f(float x);
__device__ float __log10f(float x);
__device__ float __powf(float x, float y);
__device__ float __exp10f(float x);
__device__ void __sincosf(float x, float* s, float* c);
__device__ float __saturatef(float x);
__device__ float __fmaf_rn(float x, float y, float z);
__device__ float __fadd_rn(float x, float y);
__device__ float __fmul_rn(float x, float y);
__device__ float __fdiv_rn(float x, float y);
__device__ int __float2int_rn(float x);
__device__ int __float2int_rz(float x);
__device__ int __float2int_rd(float x);
__device__ int __float2int_ru(float x);
__device__ unsigned int __float2uint_rn(float x);
__device__ float __int2float_rn(int x);
__device__ float __uint2float_rn(unsigned int x);
__device__ int __float_as_int(float x);
__device__ float __int_as_float(int x);
__device__ unsigned int __float_as_uint(float x);
__device__ float __uint_as_float(unsigned int x);
__device__ long long __double_as_longlong(double x);
__device__ double __longlong_as_double(long long x);
__device__ int __mul24(int x, int y);
__device__ unsigned int __umul24(unsigned int x, unsigned int y);
__device__ int __mulhi(int x, int y);
__device__ unsigned int __umulhi(unsigned int x, unsigned int y);
__device__ unsigned int __sad(int x, int y, unsigned int z);
__device__ unsigned int __usad(unsigned int x, unsigned int y, unsigned int z);
template <class T> __device__ T __ldg(const T* p);
__device__ float expm1f(float x);
__device__ float log1pf(float x);
__device__ long long llabs(long long x);
__device__ long long llmin(long long x, long long y);
__device__ long long llmax(long long x, long long y);
__device__ unsigned int umin(unsigned int x, unsigned int y);
__device__ unsigned int umax(unsigned int x, unsigned int y);
__device__ float __double2float_rn(double x);
__device__ int __double2int_rn(double x);
__device__ double __int2double_rn(int x);
// The rest of the C library's math as CUDA's device code has it (glibc computes these; the GPU's
// results can differ from glibc's in the last bits, as nvcc's documented error bounds allow).
__device__ float lgammaf(float x);
__device__ float tgammaf(float x);
__device__ float erfcf(float x);
__device__ float nearbyintf(float x);
__device__ long lrintf(float x);
__device__ long long llrintf(float x);
__device__ long lroundf(float x);
__device__ long long llroundf(float x);
__device__ float fdimf(float x, float y);
__device__ float remainderf(float x, float y);
__device__ float exp10f(float x);
__device__ float expm1f(float x);
__device__ float ldexpf(float x, int e);
__device__ float scalbnf(float x, int e);
__device__ float frexpf(float x, int* e);
__device__ float modff(float x, float* whole);
__device__ int ilogbf(float x);
__device__ float logbf(float x);
__device__ float asinhf(float x);
__device__ float acoshf(float x);
__device__ float atanhf(float x);
__device__ float sinpif(float x);
__device__ float cospif(float x);
__device__ float normcdff(float x);
__device__ float rhypotf(float x, float y);
__device__ float norm3df(float x, float y, float z);
__device__ float rnorm3df(float x, float y, float z);
__device__ double lgamma(double x);
__device__ double tgamma(double x);
__device__ double erf(double x);
__device__ double erfc(double x);
__device__ double cbrt(double x);
__device__ double hypot(double x, double y);
__device__ double asin(double x);
__device__ double acos(double x);
__device__ double atan(double x);
__device__ double sinh(double x);
__device__ double cosh(double x);
__device__ double tanh(double x);
__device__ double expm1(double x);
__device__ double log1p(double x);
__device__ double log10(double x);
__device__ double copysign(double x, double y);
__device__ double nearbyint(double x);
__device__ double rint(double x);
__device__ long long llrint(double x);
__device__ long lround(double x);
__device__ long long llround(double x);
__device__ double fdim(double x, double y);
__device__ double remainder(double x, double y);
__device__ double ldexp(double x, int e);
__device__ double frexp(double x, int* e);
__device__ double modf(double x, double* whole);
__device__ double norm3d(double x, double y, double z);
__device__ double rnorm3d(double x, double y, double z);
// More intrinsics: rounding-mode forms (the CPU rounds to nearest, as _rn asks), halving adds,
// byte permutes and funnel shifts.
__device__ float __fsub_rn(float x, float y);
__device__ float __frcp_rn(float x);
__device__ float __fsqrt_rn(float x);
__device__ double __dadd_rn(double x, double y);
__device__ double __dmul_rn(double x, double y);
__device__ double __ddiv_rn(double x, double y);
__device__ double __drcp_rn(double x);
__device__ double __dsqrt_rn(double x);
__device__ int __double2int_rz(double x);
__device__ int __double2int_rd(double x);
__device__ int __double2int_ru(double x);
__device__ unsigned int __double2uint_rn(double x);
__device__ long long __double2ll_rn(double x);
__device__ long long __float2ll_rn(float x);
__device__ long long __float2ll_rz(float x);
__device__ double __ll2double_rn(long long x);
__device__ float __ll2float_rn(long long x);
__device__ int __hadd(int x, int y);
__device__ int __rhadd(int x, int y);
__device__ unsigned int __uhadd(unsigned int x, unsigned int y);
__device__ unsigned int __urhadd(unsigned int x, unsigned int y);
__device__ unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int selector);
__device__ unsigned int __funnelshift_l(unsigned int low, unsigned int high, unsigned int shift);
__device__ unsigned int __funnelshift_lc(unsigned int low, unsigned int high, unsigned int shift);
__device__ unsigned int __funnelshift_r(unsigned int low, unsigned int high, unsigned int shift);
__device__ unsigned int __funnelshift_rc(unsigned int low, unsigned int high, unsigned int shift);
__device__ long long __mul64hi(long long x, long long y);
__device__ unsigned long long __umul64hi(unsigned long long x, unsigned long long y);
__device__ unsigned int __vadd4(unsigned int x, unsigned int y);
__device__ unsigned int __vsub4(unsigned int x, unsigned int y);
__device__ unsigned int __vadd2(unsigned int x, unsigned int y);
__device__ unsigned int __vsub2(unsigned int x, unsigned int y);
__device__ unsigned int __vabsdiffu4(unsigned int x, unsigned int y);
__device__ unsigned int __vabsdiffu2(unsigned int x, unsigned int y);
// The thread's clock: the simulator's own count (core/cuda_in/cu_device.h), not the GPU's cycles.
__device__ long long clock64();
extern "C" __device__ clock_t clock();

struct uint3 {
  unsigned int x, y, z;
};
struct dim3 {
  unsigned int x, y, z;
  __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
  __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
};
extern const __device__ uint3 threadIdx;
extern const __device__ uint3 blockIdx;
extern const __device__ dim3 blockDim;
extern const __device__ dim3 gridDim;
extern const __device__ int warpSize;

// Barriers, fences and warp operations.
__device__ void __syncthreads();
__device__ int __syncthreads_count(int predicate);
__device__ int __syncthreads_and(int predicate);
__device__ int __syncthreads_or(int predicate);
__device__ void __syncwarp(unsigned int mask = 0xffffffffu);
__device__ void __threadfence();
__device__ void __threadfence_block();
__device__ void __threadfence_system();
__device__ void __nanosleep(unsigned int ns);
__device__ unsigned int __activemask();
template <class T> __device__ T __shfl_sync(unsigned int mask, T var, int src_lane, int width = 32);
template <class T> __device__ T __shfl_up_sync(unsigned int mask, T var, unsigned int delta, int width = 32);
template <class T> __device__ T __shfl_down_sync(unsigned int mask, T var, unsigned int delta, int width = 32);
template <class T> __device__ T __shfl_xor_sync(unsigned int mask, T var, int lane_mask, int width = 32);
__device__ unsigned int __ballot_sync(unsigned int mask, int predicate);
__device__ int __any_sync(unsigned int mask, int predicate);
__device__ int __all_sync(unsigned int mask, int predicate);
template <class T> __device__ unsigned int __match_any_sync(unsigned int mask, T value);
__device__ unsigned int __reduce_add_sync(unsigned int mask, unsigned int value);
__device__ int __reduce_add_sync(unsigned int mask, int value);
__device__ unsigned int __reduce_and_sync(unsigned int mask, unsigned int value);
__device__ unsigned int __reduce_or_sync(unsigned int mask, unsigned int value);
__device__ unsigned int __reduce_xor_sync(unsigned int mask, unsigned int value);
__device__ unsigned int __reduce_min_sync(unsigned int mask, unsigned int value);
__device__ int __reduce_min_sync(unsigned int mask, int value);
__device__ unsigned int __reduce_max_sync(unsigned int mask, unsigned int value);
__device__ int __reduce_max_sync(unsigned int mask, int value);

// Bit and math intrinsics (plain functions: the simulator computes them as the GPU does).
__host__ __device__ int __popc(unsigned int x);
__host__ __device__ int __popcll(unsigned long long x);
__host__ __device__ int __clz(int x);
__host__ __device__ int __ffs(int x);
__host__ __device__ unsigned int __brev(unsigned int x);
__host__ __device__ int __clzll(long long x);
__host__ __device__ int __ffsll(long long x);
__host__ __device__ unsigned long long __brevll(unsigned long long x);
__host__ __device__ int min(int a, int b);
__host__ __device__ unsigned int min(unsigned int a, unsigned int b);
__host__ __device__ float min(float a, float b);
__host__ __device__ double min(double a, double b);
__host__ __device__ int max(int a, int b);
__host__ __device__ unsigned int max(unsigned int a, unsigned int b);
__host__ __device__ float max(float a, float b);
__host__ __device__ double max(double a, double b);
// CUDA's mixed overloads (min(blockIdx.x * w, n): unsigned and int make unsigned).
__host__ __device__ unsigned int min(unsigned int a, int b);
__host__ __device__ unsigned int min(int a, unsigned int b);
__host__ __device__ unsigned int max(unsigned int a, int b);
__host__ __device__ unsigned int max(int a, unsigned int b);
__host__ __device__ long long min(long long a, long long b);
__host__ __device__ unsigned long long min(unsigned long long a, unsigned long long b);
__host__ __device__ unsigned long long min(long long a, unsigned long long b);
__host__ __device__ unsigned long long min(unsigned long long a, long long b);
__host__ __device__ long long max(long long a, long long b);
__host__ __device__ unsigned long long max(unsigned long long a, unsigned long long b);
__host__ __device__ unsigned long long max(long long a, unsigned long long b);
__host__ __device__ unsigned long long max(unsigned long long a, long long b);
__host__ __device__ double min(float a, double b);
__host__ __device__ double min(double a, float b);
__host__ __device__ double max(float a, double b);
__host__ __device__ double max(double a, float b);

// Atomics (shared and global memory).
#define SYNCSCOPE_SHIM_ATOMIC(name)                                  \
  __device__ int name(int* address, int value);                      \
  __device__ unsigned int name(unsigned int* address, unsigned int value); \
  __device__ unsigned long long name(unsigned long long* address, unsigned long long value); \
  __device__ long long name(long long* address, long long value);
SYNCSCOPE_SHIM_ATOMIC(atomicAdd)
SYNCSCOPE_SHIM_ATOMIC(atomicSub)
SYNCSCOPE_SHIM_ATOMIC(atomicExch)
SYNCSCOPE_SHIM_ATOMIC(atomicMin)
SYNCSCOPE_SHIM_ATOMIC(atomicMax)
SYNCSCOPE_SHIM_ATOMIC(atomicAnd)
SYNCSCOPE_SHIM_ATOMIC(atomicOr)
SYNCSCOPE_SHIM_ATOMIC(atomicXor)
#undef SYNCSCOPE_SHIM_ATOMIC
__device__ float atomicAdd(float* address, float value);
__device__ double atomicAdd(double* address, double value);
__device__ float atomicExch(float* address, float value);
__device__ unsigned int atomicInc(unsigned int* address, unsigned int limit);
__device__ unsigned int atomicDec(unsigned int* address, unsigned int limit);
__device__ int atomicCAS(int* address, int compare, int value);
__device__ unsigned int atomicCAS(unsigned int* address, unsigned int compare, unsigned int value);
__device__ unsigned long long atomicCAS(unsigned long long* address, unsigned long long compare, unsigned long long value);

// The runtime API syncscope simulates.
enum cudaError_t { cudaSuccess = 0, cudaErrorInvalidValue = 1, cudaErrorMemoryAllocation = 2,
                   cudaErrorInvalidConfiguration = 9, cudaErrorInvalidDevicePointer = 17, cudaErrorAssert = 710,
                   cudaErrorLaunchFailure = 719 };
typedef cudaError_t cudaError;
enum cudaMemcpyKind { cudaMemcpyHostToHost = 0, cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2,
                      cudaMemcpyDeviceToDevice = 3, cudaMemcpyDefault = 4 };
typedef struct CUstream_st* cudaStream_t;
cudaError_t cudaMalloc(void** pointer, size_t bytes);
template <class T> cudaError_t cudaMalloc(T** pointer, size_t bytes);
cudaError_t cudaFree(void* pointer);
cudaError_t cudaMemcpy(void* to, const void* from, size_t bytes, cudaMemcpyKind kind);
cudaError_t cudaMemset(void* pointer, int value, size_t bytes);
cudaError_t cudaMallocPitch(void** pointer, size_t* pitch, size_t width, size_t height);
template <class T> cudaError_t cudaMallocPitch(T** pointer, size_t* pitch, size_t width, size_t height);
cudaError_t cudaMemcpy2D(void* to, size_t to_pitch, const void* from, size_t from_pitch, size_t width, size_t height,
                         cudaMemcpyKind kind);
cudaError_t cudaMemset2D(void* pointer, size_t pitch, int value, size_t width, size_t height);
cudaError_t cudaDeviceSynchronize();
cudaError_t cudaDeviceReset();
cudaError_t cudaGetLastError();
cudaError_t cudaPeekAtLastError();
const char* cudaGetErrorString(cudaError_t error);
const char* cudaGetErrorName(cudaError_t error);
// What `<<<grid, block, shared, stream>>>` calls (Clang looks it up by name).
unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shared = 0, cudaStream_t stream = 0);
cudaError_t cudaConfigureCall(dim3 grid, dim3 block, size_t shared = 0, cudaStream_t stream = 0);

// Devices and events: one simulated device; events keep no clock (elapsed times are 0 ms).
struct cudaDeviceProp {
  char name[256];
  size_t totalGlobalMem, sharedMemPerBlock, totalConstMem;
  int regsPerBlock, warpSize, maxThreadsPerBlock, maxThreadsDim[3], maxGridSize[3], clockRate, major, minor,
      multiProcessorCount, maxThreadsPerMultiProcessor, memoryClockRate, memoryBusWidth, l2CacheSize;
  size_t sharedMemPerMultiprocessor;
};
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device);
// Attributes one at a time (NVIDIA's grid-stride blog asks for the SM count so): the same numbers
// as cudaGetDeviceProperties. CUDA's own enum values.
enum cudaDeviceAttr {
  cudaDevAttrMaxThreadsPerBlock = 1, cudaDevAttrMaxBlockDimX = 2, cudaDevAttrMaxBlockDimY = 3, cudaDevAttrMaxBlockDimZ = 4,
  cudaDevAttrMaxGridDimX = 5, cudaDevAttrMaxGridDimY = 6, cudaDevAttrMaxGridDimZ = 7, cudaDevAttrMaxSharedMemoryPerBlock = 8,
  cudaDevAttrWarpSize = 10, cudaDevAttrMultiProcessorCount = 16, cudaDevAttrMaxThreadsPerMultiProcessor = 39,
  cudaDevAttrComputeCapabilityMajor = 75, cudaDevAttrComputeCapabilityMinor = 76,
  cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
};
cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attribute, int device);
template <class Kernel>
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, Kernel kernel, int block_size, size_t dynamic_shared = 0);
template <class Kernel>
cudaError_t cudaOccupancyMaxPotentialBlockSize(int* min_grid, int* block_size, Kernel kernel, size_t dynamic_shared = 0,
                                               int block_size_limit = 0);
// A kernel's attributes and cache preference: accepted and kept nowhere (the simulator has no
// caches; a block's shared memory stays at most 48 KiB, which a launch asking for more is told).
enum cudaFuncAttribute { cudaFuncAttributeMaxDynamicSharedMemorySize = 8, cudaFuncAttributePreferredSharedMemoryCarveout = 9 };
enum cudaFuncCache { cudaFuncCachePreferNone = 0, cudaFuncCachePreferShared = 1, cudaFuncCachePreferL1 = 2, cudaFuncCachePreferEqual = 3 };
template <class Kernel> cudaError_t cudaFuncSetAttribute(Kernel kernel, cudaFuncAttribute attribute, int value);
template <class Kernel> cudaError_t cudaFuncSetCacheConfig(Kernel kernel, cudaFuncCache preference);
cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache preference);
cudaError_t cudaGetDeviceCount(int* count);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDevice(int* device);
cudaError_t cudaMemGetInfo(size_t* free_bytes, size_t* total_bytes);
typedef struct CUevent_st* cudaEvent_t;
cudaError_t cudaEventCreate(cudaEvent_t* event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = 0);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end);
cudaError_t cudaEventDestroy(cudaEvent_t event);
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaEventInterprocess 0x04
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags);
cudaError_t cudaRuntimeGetVersion(int* version);
cudaError_t cudaDriverGetVersion(int* version);
struct cudaFuncAttributes {
  size_t sharedSizeBytes, constSizeBytes, localSizeBytes;
  int maxThreadsPerBlock, numRegs, ptxVersion, binaryVersion, cacheModeCA, maxDynamicSharedSizeBytes,
      preferredShmemCarveout;
};
template <class Kernel> cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attributes, Kernel kernel);
// Texture memory: declared unavailable, so that a use is refused at its line with what to do instead.
#define SYNCSCOPE_NO_TEXTURES                                                                                    \
  __attribute__((unavailable("texture memory is not simulated: read the array through a pointer "               \
                             "(const float *__restrict__ in, in[i]), as a GPU's read-only cache reads it")))
typedef unsigned long long cudaTextureObject_t SYNCSCOPE_NO_TEXTURES;
struct SYNCSCOPE_NO_TEXTURES cudaResourceDesc;
struct SYNCSCOPE_NO_TEXTURES cudaTextureDesc;
struct SYNCSCOPE_NO_TEXTURES cudaChannelFormatDesc;
template <class T> SYNCSCOPE_NO_TEXTURES cudaChannelFormatDesc cudaCreateChannelDesc();
template <class T, int dimensions = 1, int mode = 0> struct SYNCSCOPE_NO_TEXTURES texture;
template <class T> SYNCSCOPE_NO_TEXTURES T tex1Dfetch(cudaTextureObject_t texture, int x);
template <class T> SYNCSCOPE_NO_TEXTURES T tex1D(cudaTextureObject_t texture, float x);
template <class T> SYNCSCOPE_NO_TEXTURES T tex2D(cudaTextureObject_t texture, float x, float y);
template <class T> SYNCSCOPE_NO_TEXTURES T tex3D(cudaTextureObject_t texture, float x, float y, float z);
SYNCSCOPE_NO_TEXTURES cudaError_t cudaCreateTextureObject(cudaTextureObject_t* texture, const cudaResourceDesc* resource,
                                                          const cudaTextureDesc* description, const void* view);
SYNCSCOPE_NO_TEXTURES cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texture);

// Declared so that Clang parses them and the translator can say they are not simulated.
cudaError_t cudaMallocManaged(void** pointer, size_t bytes, unsigned int flags = 1);
template <class T> cudaError_t cudaMallocManaged(T** pointer, size_t bytes, unsigned int flags = 1);
#define cudaMemAttachGlobal 0x01
#define cudaMemAttachHost 0x02
cudaError_t cudaMallocHost(void** pointer, size_t bytes);
template <class T> cudaError_t cudaMallocHost(T** pointer, size_t bytes, unsigned int flags = 0);
cudaError_t cudaFreeHost(void* pointer);
cudaError_t cudaHostAlloc(void** pointer, size_t bytes, unsigned int flags);
template <class T> cudaError_t cudaHostAlloc(T** pointer, size_t bytes, unsigned int flags);
cudaError_t cudaMemcpyAsync(void* to, const void* from, size_t bytes, cudaMemcpyKind kind, cudaStream_t stream = 0);
cudaError_t cudaMemsetAsync(void* pointer, int value, size_t bytes, cudaStream_t stream = 0);
// Unified memory's hints (where pages should live): the simulator has one memory, so they do nothing.
enum cudaMemLocationType { cudaMemLocationTypeInvalid = 0, cudaMemLocationTypeDevice = 1, cudaMemLocationTypeHost = 2 };
struct cudaMemLocation {
  cudaMemLocationType type;
  int id;
};
enum cudaMemoryAdvise {
  cudaMemAdviseSetReadMostly = 1, cudaMemAdviseUnsetReadMostly = 2, cudaMemAdviseSetPreferredLocation = 3,
  cudaMemAdviseUnsetPreferredLocation = 4, cudaMemAdviseSetAccessedBy = 5, cudaMemAdviseUnsetAccessedBy = 6,
};
#define cudaCpuDeviceId (-1)
cudaError_t cudaMemPrefetchAsync(const void* pointer, size_t bytes, cudaMemLocation location, unsigned int flags,
                                 cudaStream_t stream = 0);
cudaError_t cudaMemPrefetchAsync(const void* pointer, size_t bytes, int device, cudaStream_t stream = 0);
cudaError_t cudaMemAdvise(const void* pointer, size_t bytes, cudaMemoryAdvise advice, cudaMemLocation location);
cudaError_t cudaMemAdvise(const void* pointer, size_t bytes, cudaMemoryAdvise advice, int device);

cudaError_t cudaMemcpyToSymbol(const void* symbol, const void* from, size_t bytes, size_t offset = 0,
                               cudaMemcpyKind kind = cudaMemcpyHostToDevice);
template <class T> cudaError_t cudaMemcpyToSymbol(const T& symbol, const void* from, size_t bytes, size_t offset = 0,
                                                  cudaMemcpyKind kind = cudaMemcpyHostToDevice);
template <class T> cudaError_t cudaMemcpyFromSymbol(void* to, const T& symbol, size_t bytes, size_t offset = 0,
                                                    cudaMemcpyKind kind = cudaMemcpyDeviceToHost);
template <class T> cudaError_t cudaGetSymbolAddress(void** address, const T& symbol);
template <class T> cudaError_t cudaGetSymbolSize(size_t* bytes, const T& symbol);
cudaError_t cudaStreamCreate(cudaStream_t* stream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int flags);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamQuery(cudaStream_t stream);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags = 0);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaEventQuery(cudaEvent_t event);
#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaHostAllocDefault 0x00
#define cudaHostRegisterDefault 0x00
#define cudaHostRegisterPortable 0x01
#define cudaHostRegisterMapped 0x02
cudaError_t cudaHostRegister(void* pointer, size_t bytes, unsigned int flags);
cudaError_t cudaHostUnregister(void* pointer);
// Removed in CUDA 12: declared so that its call is refused with what to write (translate/cuda_names.h).
cudaError_t cudaThreadSynchronize();
cudaError_t cudaMemcpy2DAsync(void* to, size_t to_pitch, const void* from, size_t from_pitch, size_t width, size_t height,
                              cudaMemcpyKind kind, cudaStream_t stream = 0);
cudaError_t cudaMemcpyPeer(void* to, int to_device, const void* from, int from_device, size_t bytes);
cudaError_t cudaMemcpyPeerAsync(void* to, int to_device, const void* from, int from_device, size_t bytes,
                                cudaStream_t stream = 0);
enum cudaLimit { cudaLimitStackSize = 0, cudaLimitPrintfFifoSize = 1, cudaLimitMallocHeapSize = 2,
                 cudaLimitDevRuntimeSyncDepth = 3, cudaLimitDevRuntimePendingLaunchCount = 4,
                 cudaLimitMaxL2FetchGranularity = 5, cudaLimitPersistingL2CacheSize = 6 };
cudaError_t cudaDeviceSetLimit(cudaLimit limit, size_t value);
cudaError_t cudaDeviceGetLimit(size_t* value, cudaLimit limit);
template <class Kernel>
cudaError_t cudaLaunchKernel(Kernel kernel, dim3 grid, dim3 block, void** arguments, size_t shared = 0, cudaStream_t stream = 0);
// The device heap: declared for device code so that a call to it is refused with what to do instead.
extern "C" {
__device__ void* malloc(size_t bytes);
__device__ void free(void* pointer);
}
